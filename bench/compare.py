"""Compare two installed ``mem`` commands on the same store, run for run.

    python bench/compare.py --baseline /path/to/old/venv/bin/mem --size 10000 --runs 7

Each figure alternates the two commands (new, baseline, new, baseline, ...) so that a
noisy machine slows both alike, and reports each one's median and the ratio of the
medians (new / baseline). Each command gets its own copy of one generated store, so
an index built by one is never read by the other. Used to check that a change makes
``search``, ``save`` and ``context`` no slower.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import cached_corpus, installed_mem  # noqa: E402
from run import QUERIES, timed  # noqa: E402

PINNED_NOW = "2026-11-21T23:00:00Z"
"""The corpus ends on 2026-11-21: the hot and warm tiers hold the same memories every run."""


def paired(
    new: Callable[[], float], old: Callable[[], float], runs: int
) -> tuple[list[float], list[float]]:
    """Alternate the two after one warm-up each; seconds per run."""
    new(), old()
    new_samples: list[float] = []
    old_samples: list[float] = []
    for _ in range(runs):
        new_samples.append(new())
        old_samples.append(old())
    return new_samples, old_samples


def row(name: str, new: list[float], old: list[float]) -> str:
    a, b = statistics.median(new), statistics.median(old)
    return f"| {name} | {a * 1000:.1f} ms | {b * 1000:.1f} ms | {a / b:.2f}× |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="the other mem executable")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mem-bench")
    args = parser.parse_args()
    new = installed_mem("")
    source = cached_corpus(args.workdir, args.size)
    stores = {}
    for name in ("new", "baseline"):
        stores[name] = args.workdir / f"compare-{args.size}-{name}"
        shutil.rmtree(stores[name], ignore_errors=True)
        shutil.copytree(source, stores[name], symlinks=True)
    commands = {"new": new, "baseline": args.baseline}

    def env(name: str) -> dict[str, str]:
        return {**os.environ, "MEM_STORE": str(stores[name]), "MEM_NOW": PINNED_NOW}

    for name in commands:  # the index is derived: built once, outside the timings
        timed([commands[name], "reindex", "--full"], env=env(name))

    def figure(*words: str) -> tuple[list[float], list[float]]:
        return paired(
            lambda: timed([new, *words], env=env("new")),
            lambda: timed([args.baseline, *words], env=env("baseline")),
            args.runs,
        )

    rows = []
    searches: tuple[list[float], list[float]] = ([], [])
    for query in QUERIES:
        a, b = figure("search", query)
        searches[0].extend(a)
        searches[1].extend(b)
    rows.append(row(f"`mem search` ({len(QUERIES)} queries)", *searches))
    counter = iter(range(10**6))
    rows.append(
        row(
            "`mem save`",
            *paired(
                lambda: timed([new, "save", f"Compare save {next(counter)}"], env=env("new")),
                lambda: timed(
                    [args.baseline, "save", f"Compare save {next(counter)}"], env=env("baseline")
                ),
                args.runs,
            ),
        )
    )
    rows.append(row("`mem context`", *figure("context")))
    rows.append(row("`mem list`", *figure("list")))
    rows.append(row("`mem --help`", *figure("--help")))
    print(f"{args.size:,} memories, median of {args.runs} alternating runs after a warm-up\n")
    print("| figure | new | baseline | new / baseline |\n|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
