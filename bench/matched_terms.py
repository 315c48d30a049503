"""How long search's word count takes: ``Index.matched_terms`` on a query's candidates.

    python bench/matched_terms.py --size 10000 --runs 200

Search ranks up to 100 candidates by how many of the query's distinct words each
holds (``Searcher._rank``). For each multi-word query of bench/run.py and a few
prompt-like ones, the candidates are the ones search would rank (every word
OR'ed, the best 100); the figure is CPU milliseconds per 100 candidates (what a
shared machine changes least), the median over ``--runs`` calls, and then the
median over queries. Run it with two
checkouts' interpreters, in turn, to compare them on the same store.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import generate  # noqa: E402
from run import QUERIES  # noqa: E402

PROMPTS = [
    "why does the save path retry when the lock file is stale",
    "how do we handle unicode hyphens in the FTS5 tokenizer",
    "session start budget trimming for large stores",
    "concurr* writers on the index after a rebase",
    'the "detached HEAD" state breaks git plumbing in worktrees',
]
CANDIDATES = 100


def per_hundred(index: object, plan: object, runs: int) -> float | None:
    """Median milliseconds of ``matched_terms`` per 100 candidates, None for no candidates."""
    from memcli.index import NO_FILTERS

    match = plan.match()  # type: ignore[attr-defined]
    found = index.ranked(match, NO_FILTERS, limit=CANDIDATES)  # type: ignore[attr-defined]
    ids = [entry.id for entry in found]
    if not ids:
        return None
    samples = []
    for _ in range(runs):
        began = time.process_time()
        index.matched_terms(ids, plan.terms)  # type: ignore[attr-defined]
        samples.append((time.process_time() - began) * 1000 * CANDIDATES / len(ids))
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--store", type=Path, help="use (or make) the store here")
    args = parser.parse_args()

    from memcli.retrieval.search import Searcher
    from memcli.service.memory import Memory
    from memcli.store.location import locate

    store = args.store or Path(tempfile.mkdtemp()) / f"store-{args.size}"
    if not (store / ".git").exists():
        print(f"generating {args.size:,} memories…", file=sys.stderr)
        generate(store, args.size, progress=False)
    memory = Memory(locate(str(store), None, Path.cwd()), notify=print)
    index = memory.index()
    searcher = Searcher(memory)
    figures = []
    for query in [*QUERIES, *PROMPTS]:
        plan = searcher.plan(query)
        if len(plan.terms) < 2:
            continue  # one word: search counts nothing
        figure = per_hundred(index, plan, args.runs)
        if figure is not None:
            figures.append(figure)
            print(f"{figure:7.3f} ms  {query}")
    print(f"median over {len(figures)} queries: {statistics.median(figures):.3f} ms per 100")


if __name__ == "__main__":
    main()
