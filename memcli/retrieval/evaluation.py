"""``mem eval``: how well search and recall find the memories people marked as right.

A queries file has one JSON object a line: ``{"query": "...", "relevant": [ids
or keys], "style": "..."}``; ``relevant`` empty marks an off-topic prompt, which
recall should answer with nothing. The suite in the repository's ``eval/`` adds
``memories.jsonl`` (the labelled memories, ``key`` their label),
``distractors.jsonl`` and ``prompts.jsonl`` (prompts in agents' shapes, for the
recall gate only); ``build_suite_store`` writes the memories into a new store,
aged as their ``age_days`` say, in one commit.

Every mode is measured in the same run beside plain bm25 (every word OR'ed, no
stop words, no boosts): recall@5, recall@10, MRR@10 and nDCG@10 over the labelled
queries, and for recall its hit rate and what it answers to off-topic prompts,
by style of prompt and by half (``half``: defaults are chosen on one half,
reported on the other).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.core.errors import InvalidInput, MemError
from memcli.core.ids import new_ulid
from memcli.core.schema import KEY_RE, OBSERVATION_TYPES
from memcli.core.timeutil import format_timestamp, now
from memcli.retrieval.metrics import ndcg_at, recall_at, reciprocal_rank
from memcli.service.memory import Memory

if TYPE_CHECKING:
    from memcli.retrieval.search import Searcher

MAX_QUERIES_FILE_BYTES = 16 << 20
MAX_QUERY_CHARS = 2000
MAX_QUERIES = 20_000
DEPTH = 10
BASELINE = "bm25"


@dataclass(frozen=True)
class Query:
    text: str
    relevant: tuple[str, ...]
    """Memory ids (keys and prefixes are resolved when the file is read)."""
    style: str


@dataclass
class Scores:
    """The sums of each measure over the labelled queries (``mean`` divides)."""

    queries: int = 0
    recall5: float = 0.0
    recall10: float = 0.0
    mrr10: float = 0.0
    ndcg10: float = 0.0

    def add(self, ranked: list[str], relevant: tuple[str, ...]) -> None:
        self.queries += 1
        self.recall5 += recall_at(ranked, relevant, 5)
        self.recall10 += recall_at(ranked, relevant, 10)
        self.mrr10 += reciprocal_rank(ranked, relevant, 10)
        self.ndcg10 += ndcg_at(ranked, relevant, 10)

    def mean(self) -> dict[str, float]:
        n = max(self.queries, 1)
        return {
            "recall@5": self.recall5 / n,
            "recall@10": self.recall10 / n,
            "mrr@10": self.mrr10 / n,
            "ndcg@10": self.ndcg10 / n,
        }


HALVES = ("tune", "held-out")
"""A fixed split of the prompts (``half``): the gate's defaults are chosen on the first and
reported on the second."""
ANSWERABLE = "answerable"
PROMPTS = "agents' prompts"
STYLE_ORDER = ("imperative", "question", "complaint", "error", "file", "keyword", "paraphrase")


def half(text: str) -> str:
    """The half of the prompts ``text`` is in: by the first bit of its SHA-256 digest."""
    import hashlib

    return HALVES[hashlib.sha256(text.encode("utf-8")).digest()[0] & 1]


@dataclass
class Tally:
    """The gate on one set of prompts: how many it answered, how many with a right memory."""

    prompts: int = 0
    answered: int = 0
    shown: int = 0
    """Labelled prompts given (or already shown at session start) a right memory."""

    def add(self, answered: bool, shown: bool) -> None:
        self.prompts += 1
        self.answered += answered
        self.shown += shown

    def to_json(self, labelled: bool) -> dict[str, Any]:
        done = self.shown if labelled else self.answered
        return {
            "prompts": self.prompts,
            "answered": self.answered,
            "shown": self.shown,
            "rate": done / self.prompts if self.prompts else None,
        }


@dataclass
class RecallScores:
    """How the recall gate did: labelled prompts it helped, unanswerable ones it answered.

    ``styles`` splits the prompts by style and half: the recall of each answerable
    style, the false-fire rate of each style nothing answers (``offtopic``,
    ``unanswerable``).
    """

    labelled: int = 0
    hit: int = 0
    """Labelled prompts for which recall gave (or session start already showed) a right memory."""
    answered: int = 0
    given: int = 0
    right: int = 0
    offtopic: int = 0
    offtopic_answered: int = 0
    styles: dict[str, dict[str, Tally]] = field(default_factory=dict)
    negative: set[str] = field(default_factory=set)
    """The styles of prompts nothing answers."""

    def add(self, query: Query, ids: set[str], shown: set[str], *, prompt: bool = False) -> None:
        """One prompt: the ids recall gave, those session start shows.

        ``prompt``: one of the prompts measured by the gate alone (``PROMPTS``).
        """
        right = bool((ids | shown) & set(query.relevant))
        rows = [query.style]
        if query.relevant:
            self.labelled += 1
            self.answered += bool(ids)
            self.given += len(ids)
            self.right += len(ids & set(query.relevant))
            self.hit += right
            rows += [ANSWERABLE] if query.style == "paraphrase" else [ANSWERABLE, "not paraphrase"]
            rows += [PROMPTS] if prompt else []
        else:
            self.offtopic += 1
            self.offtopic_answered += bool(ids)
            self.negative.add(query.style)
        for row in rows:
            per = self.styles.setdefault(row, {name: Tally() for name in (*HALVES, "all")})
            per[half(query.text)].add(bool(ids), right)
            per["all"].add(bool(ids), right)

    def to_json(self) -> dict[str, Any]:
        rows = (*STYLE_ORDER, ANSWERABLE, "not paraphrase", PROMPTS)
        order = {name: n for n, name in enumerate(rows)}
        styles = sorted(self.styles, key=lambda s: (s in self.negative, order.get(s, 99), s))
        return {
            "hit_rate": self.hit / max(self.labelled, 1),
            "answered": self.answered,
            "precision": self.right / max(self.given, 1),
            "offtopic": self.offtopic,
            "offtopic_answered": self.offtopic_answered,
            "by_style": {
                style: {
                    name: tally.to_json(style not in self.negative)
                    for name, tally in self.styles[style].items()
                }
                | {"labelled": style not in self.negative}
                for style in styles
            },
        }


@dataclass
class Report:
    memories: int
    queries: list[Query]
    prompts: list[Query] = field(default_factory=list)
    """Measured by the recall gate only, beside ``queries``."""
    scores: dict[str, Scores] = field(default_factory=dict)
    by_style: dict[str, dict[str, Scores]] = field(default_factory=dict)
    recall: dict[str, RecallScores] = field(default_factory=dict)
    semantic: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "memories": self.memories,
            "queries": sum(1 for q in self.queries if q.relevant),
            "offtopic": sum(1 for q in self.queries if not q.relevant),
            "gate_prompts": len(self.queries) + len(self.prompts),
            "semantic": self.semantic,
            "modes": {mode: scores.mean() for mode, scores in self.scores.items()},
            "by_style": {
                mode: {style: s.mean() | {"queries": s.queries} for style, s in styles.items()}
                for mode, styles in self.by_style.items()
            },
            "recall": {mode: scores.to_json() for mode, scores in self.recall.items()},
        }


# ------------------------------------------------------------------ reading


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each line of a JSON-lines file as an object, with its line number; bad lines are errors."""
    from memcli.core.regular import NotRegularFile, open_regular

    try:
        handle = open_regular(path)
    except NotRegularFile:
        raise InvalidInput(f"{path} is not a plain file") from None
    except OSError as exc:
        raise InvalidInput(f"{path} cannot be read ({exc.strerror})") from None
    with handle:
        data = handle.read(MAX_QUERIES_FILE_BYTES + 1)
    if len(data) > MAX_QUERIES_FILE_BYTES:
        raise InvalidInput(f"{path} is larger than {MAX_QUERIES_FILE_BYTES >> 20} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path} cannot be read as UTF-8 text ({exc})") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            raise InvalidInput(f"{path}:{number}: not valid JSON ({exc})") from None
        except RecursionError:
            raise InvalidInput(f"{path}:{number}: not valid JSON (nested too deeply)") from None
        if not isinstance(value, dict):
            raise InvalidInput(f"{path}:{number}: each line must be a JSON object")
        yield number, value


def read_queries(path: Path, resolve: Callable[[str], str]) -> list[Query]:
    """The queries of ``path``, their ``relevant`` references resolved to memory ids."""
    queries = []
    for number, value in read_jsonl(path):
        text, relevant, style = value.get("query"), value.get("relevant", []), value.get("style")
        where = f"{path}:{number}"
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_QUERY_CHARS:
            raise InvalidInput(
                f"{where}: query must be a non-empty string of at most 2000 characters"
            )
        if not isinstance(relevant, list) or not all(isinstance(r, str) for r in relevant):
            raise InvalidInput(f"{where}: relevant must be a list of memory ids or keys")
        if style is not None and not isinstance(style, str):
            raise InvalidInput(f"{where}: style must be a string")
        ids = []
        for reference in relevant:
            try:
                ids.append(resolve(reference))
            except MemError as exc:
                raise InvalidInput(f"{where}: {exc}") from None
        default = "labelled" if ids else "offtopic"
        queries.append(Query(text, tuple(dict.fromkeys(ids)), style or default))
        if len(queries) > MAX_QUERIES:
            raise InvalidInput(f"{path} has more than {MAX_QUERIES} queries")
    if not queries:
        raise InvalidInput(f"{path} holds no queries")
    return queries


# ---------------------------------------------------------------- the suite


def build_suite_store(
    suite: Path,
    root: Path,
    moment: dt.datetime,
    names: Sequence[str] = ("memories.jsonl", "distractors.jsonl"),
) -> int:
    """A new store at ``root`` with the memories of the suite's files ``names``; their count."""
    from memcli.store.files import Store

    store = Store(root)
    store.create()
    store.git.run(["config", "gc.auto", "0"])
    paths = []
    for name in names:
        for number, value in read_jsonl(suite / name):
            record = _suite_observation(value, moment, f"{suite / name}:{number}")
            path = store.new_path(record)
            store.write_file(path, record.to_markdown().encode("utf-8"))
            paths.append(path)
    with store.write_lock():
        store.commit(paths, [], f"eval suite: {len(paths)} memories")
    return len(paths)


def open_suite_store(
    root: Path, model: str | None, notify: Callable[[str], None]
) -> tuple[Memory, dict[str, dict[str, Any]]]:
    """A suite's new store, indexed, and its settings, with ``model`` (``--model``) over
    them: given to the command, not a store's setting (``core.trust``)."""
    from memcli.core import config
    from memcli.store.location import StoreLocation

    memory = Memory(StoreLocation(root, "--store"), notify=notify)
    memory.model = model or None
    memory.refresh_index()
    settings = config.load(root)
    if model is not None:
        settings["semantic"]["model"] = model
    return memory, settings


def _suite_observation(value: dict[str, Any], moment: dt.datetime, where: str) -> Any:
    from memcli.core.model import Observation

    try:
        age = float(value.get("age_days", 1.0))
        created = moment - dt.timedelta(days=age)
        kind = value.get("type", "discovery")
        if kind not in OBSERVATION_TYPES:
            raise ValueError(f"type {kind!r} is not one of {', '.join(OBSERVATION_TYPES)}")
        key = value.get("key")
        if key is not None and not (isinstance(key, str) and KEY_RE.fullmatch(key)):
            raise ValueError(f"key {key!r} is not a valid key")
        return Observation(
            id=new_ulid(int(created.timestamp() * 1000)),
            type=kind,
            title=str(value["title"]),
            created=format_timestamp(created),
            narrative=str(value.get("narrative", "")),
            key=key,
            concepts=[str(c) for c in value.get("concepts", [])],
            files=[str(f) for f in value.get("files", [])],
            facts=[str(f) for f in value.get("facts", [])],
            importance=value.get("importance"),
        )
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise InvalidInput(f"{where}: not a memory of the suite ({exc})") from None


# ------------------------------------------------------------------ running


def evaluate(
    memory: Memory,
    queries: list[Query],
    modes: list[str],
    settings: dict[str, dict[str, Any]],
    prompts: Sequence[Query] = (),
) -> Report:
    """Every mode (and plain bm25) over ``queries``, in one run, at one moment.

    The recall gate is measured on ``queries`` and ``prompts`` (prompts for it alone).
    """
    from memcli.retrieval.recall import Recall
    from memcli.retrieval.search import Searcher

    moment = now()
    searcher = Searcher(memory, settings)
    report = Report(memory.read(lambda index: index.count()), queries, list(prompts))
    report.semantic = searcher.semantic_line()
    labelled = [q for q in queries if q.relevant]
    for mode in [BASELINE, *modes]:
        scores, styles = Scores(), dict[str, Scores]()
        for query in labelled:
            ranked = rank(searcher, query.text, mode, moment)
            scores.add(ranked, query.relevant)
            styles.setdefault(query.style, Scores()).add(ranked, query.relevant)
        report.scores[mode] = scores
        report.by_style[mode] = styles
    shown = _shown_at_session_start(memory, settings, moment)
    for mode in modes:
        gate = RecallScores()
        for n, query in enumerate([*queries, *prompts]):
            given = Recall.gather(
                memory, query.text, moment=moment, mode=mode, settings=settings
            ).hits
            gate.add(query, {hit["id"] for hit in given}, shown, prompt=n >= len(queries))
        report.recall[mode] = gate
    return report


def rank(searcher: Searcher, text: str, mode: str, moment: dt.datetime) -> list[str]:
    """The ids of the first ``DEPTH`` memories ``mode`` (or plain bm25) finds for ``text``."""
    if mode == BASELINE:
        return [e.id for e in searcher.plain_bm25(text, limit=DEPTH)]
    return [e.id for e in searcher.search(text, limit=DEPTH, mode=mode, moment=moment).entries]


def _shown_at_session_start(
    memory: Memory, settings: dict[str, Any], moment: dt.datetime
) -> set[str]:
    from memcli.retrieval.context import shown_in_full

    return set(shown_in_full(memory, settings, moment))


def bundled_suite() -> Path | None:
    """mem's labelled eval suite: ``MEM_EVAL_SUITE``, else the copy shipped in the package
    (wheels carry it as ``memcli/eval_suite``), else ``eval/`` of the checkout mem runs from."""
    override = os.environ.get("MEM_EVAL_SUITE")
    package = Path(__file__).resolve().parents[1]
    candidates = [Path(override)] if override else [package / "eval_suite", package.parent / "eval"]
    return next((c for c in candidates if (c / "queries.jsonl").is_file()), None)
