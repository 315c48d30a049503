"""``mem eval --suite real``: what reaches the agent in a store of real engineering text.

The suite (``eval/real/`` of mem's repository) holds a team's labelled memories
(``memories.jsonl``), some two thousand sentences from public projects' release
notes as the rest of the store (``background.jsonl``), and prompts written as
people type them to agents (``prompts.jsonl``): questions, imperatives and
complaints with the memories that bear on them, and prompts nothing answers
(``unanswerable``: everyday coding requests in the store's vocabulary, and
``offtopic``). The store is built once per run.

For each mode, beside plain bm25 in the same run, by style of prompt and by half
(``evaluation.half``): ``search``, a right memory in the top ``TOP``;
``delivered``, a right memory reaches the agent (``delivery``: shown whole at
session start, or given by recall for the prompt); ``within_reach``, a right memory
shown whole at session start or in search's first ``DEPTH`` (what a gate that never
erred over those would deliver: how much of what is missed is search's, how much
the gate's); ``false_fires``, recall gives anything to a prompt nothing answers.
Each as a count of prompts out of a total;
``by_prompt`` in the JSON says, for each prompt and mode, where search ranked its first
right memory and what recall gave it (labelled memories by key, others by title).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.core.errors import InvalidInput
from memcli.retrieval.delivery import Delivery
from memcli.retrieval.evaluation import BASELINE, DEPTH, HALVES, Query, half, read_queries
from memcli.service.memory import Memory

if TYPE_CHECKING:
    from memcli.retrieval.search import Searcher

REAL = "real"
"""The folder of the real-text suite, inside mem's eval suite."""
FILES = ("memories.jsonl", "background.jsonl")
TOP = 5
LABELLED = ("question", "imperative", "complaint")
NEGATIVE = ("unanswerable", "offtopic")
COLUMNS = (*HALVES, "all")


@dataclass
class Count:
    """Prompts for which something held, out of those measured."""

    hit: int = 0
    total: int = 0

    def add(self, held: bool) -> None:
        self.hit += held
        self.total += 1

    def to_json(self) -> dict[str, int]:
        return {"hit": self.hit, "total": self.total}


Table = dict[str, dict[str, Count]]
"""By style (in the suite's order), then by half and ``all``."""


def _tally(table: Table, style: str, text: str, held: bool) -> None:
    per = table.setdefault(style, {name: Count() for name in COLUMNS})
    per[half(text)].add(held)
    per["all"].add(held)


def _table_json(table: Table) -> dict[str, dict[str, dict[str, int]]]:
    order = {style: n for n, style in enumerate((*LABELLED, *NEGATIVE))}
    styles = sorted(table, key=lambda s: (order.get(s, 99), s))
    return {s: {name: count.to_json() for name, count in table[s].items()} for s in styles}


@dataclass
class ModeResult:
    """One mode's counts; plain bm25 has ``search`` only (recall does not rank with it)."""

    search: Table = field(default_factory=dict)
    delivered: Table = field(default_factory=dict)
    within_reach: Table = field(default_factory=dict)
    false_fires: Table = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"search": _table_json(self.search)}
        if self.delivered or self.false_fires:
            data["delivered"] = _table_json(self.delivered)
            data["within_reach"] = _table_json(self.within_reach)
            data["false_fires"] = _table_json(self.false_fires)
        return data


@dataclass
class RealReport:
    memories: int
    labelled: int
    """Memories of ``memories.jsonl``: what the prompts are about."""
    prompts: int
    semantic: str
    budget: int
    at_start: list[str]
    """Keys of the labelled memories session start gives whole."""
    listed_at_start: list[str]
    """Keys of the labelled memories session start names in any form (whole or in part)."""
    whole_at_start: int
    modes: dict[str, ModeResult] = field(default_factory=dict)
    details: list[dict[str, Any]] = field(default_factory=list)
    """Each prompt: its style, half and answers, and for each mode the rank of its first
    right memory in search (None past ``DEPTH``) and what recall gave it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "suite": REAL,
            "memories": self.memories,
            "labelled_memories": self.labelled,
            "prompts": self.prompts,
            "semantic": self.semantic,
            "top": TOP,
            "session_start": {
                "budget": self.budget,
                "whole": self.whole_at_start,
                "labelled_whole": self.at_start,
                "labelled_listed": self.listed_at_start,
            },
            "modes": {mode: result.to_json() for mode, result in self.modes.items()},
            "by_prompt": self.details,
        }


def real_suite(suite: Path) -> Path:
    """The real-text suite of ``suite`` (mem's eval folder); a clear error when it is missing."""
    folder = suite / REAL
    missing = [name for name in (*FILES, "prompts.jsonl") if not (folder / name).is_file()]
    if missing:
        raise InvalidInput(f"the real-text eval suite is missing {folder / missing[0]}")
    return folder


def measure(
    memory: Memory,
    folder: Path,
    modes: list[str],
    settings: dict[str, dict[str, Any]],
    project: Path,
    moment: dt.datetime,
) -> RealReport:
    """Every mode (and plain bm25) over the suite's prompts, on ``memory`` built from it."""
    from memcli.retrieval.search import Searcher

    keys = memory.read(lambda index: _keys(index, folder))
    prompts = read_queries(folder / "prompts.jsonl", _resolver(keys))
    _check_styles(prompts, folder)
    searcher = Searcher(memory, settings)
    delivery = Delivery.start(memory, settings, project)
    labelled_ids = set(keys.values())
    names = {identity: key for key, identity in keys.items()}
    report = RealReport(
        memories=memory.read(lambda index: index.count()),
        labelled=len(keys),
        prompts=len(prompts),
        semantic=searcher.semantic_line(),
        budget=delivery.budget,
        at_start=sorted(names[i] for i in delivery.at_start & labelled_ids),
        listed_at_start=sorted(names[i] for i in delivery.listed & labelled_ids),
        whole_at_start=len(delivery.at_start),
    )
    report.details = [
        {
            "query": p.text,
            "style": p.style,
            "half": half(p.text),
            "relevant": [names[i] for i in p.relevant],
            "modes": {},
        }
        for p in prompts
    ]
    for mode in [BASELINE, *modes]:
        report.modes[mode] = _measure_mode(
            mode, prompts, report.details, searcher, delivery, names, moment
        )
    return report


def _measure_mode(
    mode: str,
    prompts: list[Query],
    details: list[dict[str, Any]],
    searcher: Searcher,
    delivery: Delivery,
    names: dict[str, str],
    moment: dt.datetime,
) -> ModeResult:
    """One mode over every prompt; each prompt's own outcome goes to its entry of ``details``."""
    result = ModeResult()
    for prompt, detail in zip(prompts, details, strict=True):
        right = set(prompt.relevant)
        found = _ranked(searcher, prompt.text, mode, moment)
        rank = next((n for n, i in enumerate(found, 1) if i in right), None)
        mine: dict[str, Any] = detail["modes"].setdefault(mode, {"rank": rank})
        if right:
            _tally(result.search, prompt.style, prompt.text, rank is not None and rank <= TOP)
        if mode == BASELINE:
            continue  # recall never ranks by plain bm25
        given = delivery.recalled(prompt.text, mode, moment)
        mine["recalled"] = [names.get(i, title) for i, title in given.items()]
        if right:
            reached = bool(right & (set(given) | delivery.at_start))
            mine["delivered"] = reached
            _tally(result.delivered, prompt.style, prompt.text, reached)
            reach = rank is not None or bool(right & delivery.at_start)  # rank: within DEPTH
            _tally(result.within_reach, prompt.style, prompt.text, reach)
        else:
            _tally(result.false_fires, prompt.style, prompt.text, bool(given))
    return result


def _ranked(searcher: Searcher, text: str, mode: str, moment: dt.datetime) -> list[str]:
    """The ids of search's first ``DEPTH`` results for ``text`` in ``mode`` (or plain bm25)."""
    if mode == BASELINE:
        return [entry.id for entry in searcher.plain_bm25(text, limit=DEPTH)]
    outcome = searcher.search(text, limit=DEPTH, mode=mode, moment=moment)
    return [entry.id for entry in outcome.entries]


def _keys(index: Any, folder: Path) -> dict[str, str]:
    """Each labelled memory's key and the id it has in the store."""
    from memcli.retrieval.evaluation import read_jsonl

    keys = {}
    for _, value in read_jsonl(folder / "memories.jsonl"):
        key = value.get("key")
        if isinstance(key, str):
            keys[key] = index.resolve(key).id
    return keys


def _resolver(keys: dict[str, str]) -> Callable[[str], str]:
    def resolve(reference: str) -> str:
        if reference not in keys:
            raise InvalidInput(f"no labelled memory has the key {reference!r}")
        return keys[reference]

    return resolve


def _check_styles(prompts: list[Query], folder: Path) -> None:
    known = {*LABELLED, *NEGATIVE}
    for prompt in prompts:
        if prompt.style not in known:
            raise InvalidInput(
                f"{folder / 'prompts.jsonl'}: style {prompt.style!r} is not one of "
                f"{', '.join(sorted(known))}"
            )
        if (prompt.style in NEGATIVE) != (not prompt.relevant):
            raise InvalidInput(
                f"{folder / 'prompts.jsonl'}: {prompt.text!r}: only unanswerable and "
                "offtopic prompts have no relevant memory"
            )
