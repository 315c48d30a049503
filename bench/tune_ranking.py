"""Try ranking and recall settings on the eval suite; print each beside plain bm25.

    python bench/tune_ranking.py [--suite eval] [--model DIR]

How the defaults in ``[ranking]`` and ``[recall]`` were chosen: the suite's
store is built once, then every combination below is measured in the same
process, so the numbers compare. Only labelled queries count for search; recall
is judged by its hit rate, its precision and what it answers off topic.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import tempfile
from pathlib import Path

from memcli.core import config
from memcli.core.timeutil import now
from memcli.retrieval.evaluation import build_suite_store, evaluate, read_queries
from memcli.service.memory import Memory
from memcli.store.location import StoreLocation

RANKING_GRID = {
    "rrf_k": [10, 60],
    "coverage": [0.0, 0.5, 1.0, 2.0],
    "recency": [0.0, 0.02, 0.1],
    "importance": [0.0, 0.1],
}
RECALL_GRID = {
    "min_matched_terms": [2, 3],
    "relative_score": [0.5, 0.7, 0.85],
    "min_similarity": [0.5, 0.6, 0.7],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--suite", type=Path, default=Path(__file__).parents[1] / "eval")
    parser.add_argument("--model", default="")
    parser.add_argument("--recall", action="store_true", help="tune the recall gate instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "store"
        build_suite_store(args.suite, root, now())
        if args.model:  # named in mem.toml, so that refreshing the index embeds the memories
            (root / "mem.toml").write_text(f'[semantic]\nmodel = "{args.model}"\n')
        memory = Memory(StoreLocation(root, "--store"), notify=lambda _: None)
        memory.refresh_index()
        queries = read_queries(
            args.suite / "queries.jsonl", lambda ref: memory.read(lambda i: i.resolve(ref)).id
        )
        base = config.load(root)
        modes = ["lexical", "hybrid"] if args.model else ["lexical"]
        grid = RECALL_GRID if args.recall else RANKING_GRID
        section = "recall" if args.recall else "ranking"
        names = list(grid)
        for values in itertools.product(*grid.values()):
            settings = copy.deepcopy(base)
            settings[section].update(dict(zip(names, values, strict=True)))
            report = evaluate(memory, queries, modes, settings).to_json()
            shown = " ".join(f"{n}={v}" for n, v in zip(names, values, strict=True))
            cells = []
            for mode, measures in report["modes"].items():
                cells.append(
                    f"{mode} r@10 {measures['recall@10']:.3f} mrr {measures['mrr@10']:.3f}"
                )
            for mode, gate in report["recall"].items():
                cells.append(
                    f"recall[{mode}] hit {gate['hit_rate']:.3f} prec {gate['precision']:.3f} "
                    f"off {gate['offtopic_answered']}/{gate['offtopic']}"
                )
            print(f"{shown:50} | " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
