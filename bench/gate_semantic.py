"""How the recall gate's semantic path does on the eval suite, with a sentence encoder.

    python bench/gate_semantic.py --model DIR [--store DIR] dump OUT.jsonl
    python bench/gate_semantic.py --model DIR [--store DIR] compare [NAME=VALUE ...]
    python bench/gate_semantic.py analyse DUMP.jsonl

The suite's store is built and embedded once, in ``--store`` (kept between runs:
embedding 3,472 memories takes a minute or more), then reused. ``dump`` writes,
for every prompt of the suite (queries and gate prompts, hybrid mode), its
style, half, the right memories' similarity, the prompt's nearest memories in
meaning, and the gate's candidates (coverage, similarity, shown),
for a look at where the semantic path falls short. ``compare`` runs the real
gate twice in the same run, with the store's settings and with ``[recall]``
settings changed as given, and prints each style on each half beside each other:
labelled prompts given a right memory, prompts nothing answers given anything.
``analyse`` reads a dump (no model needed): where the right memory stands among
the prompt's nearest in meaning, how close the best candidate is for each style,
and what a semantic criterion would add on each half, beside the gate as it is
(``screen``): an absolute floor (the gate's rule, ``min_similarity``), or the
nearest memory standing out from the next ones (its lead over the k-th nearest,
or its z-score among the next 24). A screen adds the nearest memory (or those
close enough) to what the gate gave; it counts prompts newly given a right
memory (paraphrases apart), false fires on prompts nothing answers that the
gate left silent, and answerable prompts newly given only wrong memories.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memcli.core import config
from memcli.core.timeutil import now
from memcli.index import Index
from memcli.retrieval.evaluation import (
    HALVES,
    Query,
    RecallScores,
    build_suite_store,
    half,
    read_queries,
)
from memcli.retrieval.recall import Recall
from memcli.retrieval.search import Searcher
from memcli.service.memory import Memory
from memcli.store.location import StoreLocation

NEAREST = 50
"""How many of a prompt's nearest memories in meaning ``dump`` records."""


def open_store(folder: Path, suite: Path, model: str) -> Memory:
    """The suite's store in ``folder``, built the first time, embedded with ``model``."""
    root = folder / "store"
    if not root.exists():
        build_suite_store(suite, root, now())
    # A JSON string is a TOML basic string; another model than last time embeds anew.
    (root / "mem.toml").write_text(f"[semantic]\nmodel = {json.dumps(model)}\n")
    memory = Memory(StoreLocation(root, "--store"), notify=lambda _: None)
    memory.refresh_index()
    return memory


def suite_prompts(memory: Memory, suite: Path) -> list[tuple[Query, bool]]:
    """The suite's queries, then its prompts for the gate alone (``True``)."""

    def resolve(reference: str) -> str:
        return memory.read(lambda index: index.resolve(reference)).id

    queries = [(query, False) for query in read_queries(suite / "queries.jsonl", resolve)]
    return queries + [(query, True) for query in read_queries(suite / "prompts.jsonl", resolve)]


def dump(memory: Memory, prompts: list[tuple[Query, bool]], out: Path) -> None:
    settings = config.load(memory.store.root)
    searcher = Searcher(memory, settings)
    moment = now()
    with out.open("w") as handle:
        for query, _ in prompts:
            recall = Recall.gather(
                memory, query.text, moment=moment, mode="hybrid", settings=settings
            )
            nearest, right = memory.read(functools.partial(_meaning, searcher, query))
            row: dict[str, Any] = {
                "text": query.text,
                "style": query.style,
                "half": half(query.text),
                "relevant": list(query.relevant),
                "right": {ident: round(sim, 4) for ident, sim in right.items()},
                "cued": bool(recall.cues),
                "nearest": [[ident, round(sim, 4)] for ident, sim in nearest],
                "judged": [
                    [j.id, round(j.coverage, 4), j.similarity, j.shown] for j in recall.judged
                ],
                "given": [hit["id"] for hit in recall.hits],
            }
            handle.write(json.dumps(row) + "\n")


def _meaning(
    searcher: Searcher, query: Query, index: Index
) -> tuple[list[tuple[str, float]], dict[str, float]]:
    """The query's nearest memories in meaning, and its right memories' similarity."""
    semantic = searcher.semantic(index)
    nearest: list[tuple[str, float]] = semantic.nearest(query.text, NEAREST)
    right: dict[str, float] = semantic.similarity(query.text, list(query.relevant))
    return nearest, right


def gate_scores(
    memory: Memory, prompts: list[tuple[Query, bool]], settings: dict[str, Any], shown: set[str]
) -> dict[str, Any]:
    moment = now()
    gate = RecallScores()
    for query, gate_only in prompts:
        given = Recall.gather(memory, query.text, moment=moment, mode="hybrid", settings=settings)
        gate.add(query, {hit["id"] for hit in given.hits}, shown, prompt=gate_only)
    return gate.to_json()


def compare(memory: Memory, prompts: list[tuple[Query, bool]], changes: list[str]) -> None:
    from memcli.retrieval.context import shown_in_full

    base = config.load(memory.store.root)
    changed = copy.deepcopy(base)
    for change in changes:
        name, value = change.split("=", 1)
        changed["recall"][name] = json.loads(value)
    shown = set(shown_in_full(memory, base, now()))
    old_gate = gate_scores(memory, prompts, base, shown)
    new_gate = gate_scores(memory, prompts, changed, shown)
    print(f"recall gate (hybrid), before -> after: {' '.join(changes) or 'no change'}")
    for name, key in (("labelled prompts answered", "answered"), ("memories right", "precision")):
        print(f"  {name}: {old_gate[key]:.3g} -> {new_gate[key]:.3g}")
    before, after = old_gate["by_style"], new_gate["by_style"]
    print(f"{'':24}" + "".join(f"{name:>24}" for name in HALVES))
    for style, halves in before.items():
        cells = []
        for name in HALVES:
            key = "shown" if halves["labelled"] else "answered"
            old, new = halves[name], after[style][name]
            cells.append(f"{old[key]:>3} -> {new[key]:>3} / {old['prompts']:<3}")
        print(f"  {style[:22]:<22}" + "".join(f"{c:>24}" for c in cells))


Row = dict[str, Any]


def analyse(dump_file: Path) -> None:
    rows = [json.loads(line) for line in dump_file.read_text().splitlines()]
    diagnose(rows)
    closest = {j[2] for r in rows for j in r["judged"] if j[2] is not None}
    print(f"\ncandidates' similarities run from {min(closest):.3f} to {max(closest):.3f}")
    for floor in (0.7, 0.6, 0.55, 0.5, 0.45, 0.4):
        screen(rows, f"similarity >= {floor} (the gate's rule)", _floor_rule(floor))
    for k in (5, 10, 24):
        for lead in (0.25, 0.2, 0.15, 0.1):
            screen(rows, f"lead over the {k + 1}th nearest >= {lead}", _top_rule(_lead(k), lead))
    for z in (9, 8, 7, 6, 5, 4):
        screen(rows, f"z-score among the next 24 >= {z}", _top_rule(_z_score, z))


def diagnose(rows: list[Row]) -> None:
    """Where the right memory stands in meaning, for paraphrases; how close the best is."""
    print("paraphrases: the right memory's similarity and rank among the prompt's nearest")
    paraphrases = [r for r in rows if r["style"] == "paraphrase"]
    ranks, rights, wrongs, candidates = [], [], [], 0
    for row in paraphrases:
        right = max(row["right"].values(), default=0.0)
        sims = [sim for _, sim in row["nearest"]]
        ranks.append(sum(1 for sim in sims if sim > right + 1e-9))
        rights.append(right)
        wrongs.append(next(s for i, s in row["nearest"] if i not in row["relevant"]))
        candidates += any(j[0] in row["relevant"] for j in row["judged"])
    n = len(paraphrases)
    print(
        f"  right memory nearest of all: {sum(r == 0 for r in ranks)}/{n}, in the 3 nearest: "
        f"{sum(r < 3 for r in ranks)}/{n}, in the {NEAREST} nearest: "
        f"{sum(r < NEAREST for r in ranks)}/{n}; among the gate's candidates: {candidates}/{n}"
    )
    print(
        f"  right memory's similarity: median {statistics.median(rights):.3f}, "
        f"max {max(rights):.3f}; best wrong one's: median {statistics.median(wrongs):.3f}, "
        f"max {max(wrongs):.3f}"
    )
    print("best candidate's similarity by style")
    for style in sorted({r["style"] for r in rows}):
        best = [
            max([j[2] for j in r["judged"] if j[2] is not None] or [0.0])
            for r in rows
            if r["style"] == style
        ]
        print(
            f"  {style:<13} median {statistics.median(best):.3f}  max {max(best):.3f}  "
            f"(n={len(best)})"
        )


Rule = Callable[[Row], set[str]]
"""The memories a semantic criterion adds for one prompt."""


def _floor_rule(floor: float) -> Rule:
    def added(row: Row) -> set[str]:
        close = [(j[0], j[2]) for j in row["judged"] if j[2] is not None and j[2] >= floor]
        best = max((sim for _, sim in close), default=0.0)
        return {ident for ident, sim in close if sim >= 0.7 * best}

    return added


def _lead(k: int) -> Callable[[list[float]], float]:
    return lambda sims: sims[0] - sims[k]


def _z_score(sims: list[float]) -> float:
    rest = sims[1:25]
    return (sims[0] - statistics.mean(rest)) / (statistics.pstdev(rest) or 1e-9)


def _top_rule(measure: Callable[[list[float]], float], need: float) -> Rule:
    def added(row: Row) -> set[str]:
        sims = [sim for _, sim in row["nearest"]]
        return {row["nearest"][0][0]} if len(sims) >= 25 and measure(sims) >= need else set()

    return added


def screen(rows: list[Row], name: str, rule: Rule) -> None:
    cells = []
    for part in HALVES:
        para = other = fires = wrong = 0
        for row in (r for r in rows if r["half"] == part):
            relevant, given = set(row["relevant"]), set(row["given"])
            added = rule(row) - given
            if not added or given & relevant:
                continue
            if not relevant:
                fires += not given
            elif added & relevant:
                para += row["style"] == "paraphrase"
                other += row["style"] != "paraphrase"
            else:
                wrong += 1
        cells.append(
            f"{part}: paraphrase +{para:<2} other +{other:<2} "
            f"false fires +{fires:<2} wrong +{wrong:<2}"
        )
    print(f"{name:<36} " + "  ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--suite", type=Path, default=Path(__file__).parents[1] / "eval")
    parser.add_argument("--model", default="")
    parser.add_argument("--store", type=Path, default=Path("/tmp/mem-gate-semantic"))
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("dump").add_argument("out", type=Path)
    commands.add_parser("compare").add_argument("changes", nargs="*")
    commands.add_parser("analyse").add_argument("dump", type=Path)
    args = parser.parse_args()
    if args.command == "analyse":
        analyse(args.dump)
        return
    if not args.model:
        parser.error("--model is needed to build the store")
    memory = open_store(args.store, args.suite, args.model)
    prompts = suite_prompts(memory, args.suite)
    if args.command == "dump":
        dump(memory, prompts, args.out)
    else:
        compare(memory, prompts, args.changes)


if __name__ == "__main__":
    main()
