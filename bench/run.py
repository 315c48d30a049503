"""Benchmark the installed ``mem`` command against what a user would otherwise reach for.

    python bench/run.py --sizes 1000 10000 100000 --runs 7

Every figure is a whole process (what a person or an agent hook waits for),
the median of several runs after a warm-up, measured in the same run as its
baselines (``rg -l -i``, ``git grep -l -i``, ``git add && git commit``, a bare
``python -c 'import apsw'``) so that ratios survive a noisy shared machine. The
markdown table goes to stdout and to ``--out`` (default bench/results.md).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import generate  # noqa: E402

from memcli.core.ids import new_ulid  # noqa: E402

QUERIES = [
    # one word
    "index",
    "rebase",
    "unicode",
    "locks",
    "worktrees",
    "budget",
    "sqlite",
    "hyphens",
    # two words
    "stale locks",
    "concurrent writers",
    "session start",
    "json output",
    "retry policy",
    # phrases
    '"detached HEAD"',
    '"frontmatter parsing"',
    '"large stores"',
    '"error messages"',
    # prefixes
    "concurr*",
    "serialis*",
    "migrat*",
]
RSS_WRAPPER = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
    "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


@dataclass
class Figure:
    name: str
    samples: list[float]
    baseline: str = ""
    baseline_samples: list[float] | None = None
    target: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def row(self) -> str:
        ratio = ""
        base = ""
        if self.baseline_samples:
            base_median = statistics.median(self.baseline_samples)
            base = f"{self.baseline}: {base_median * 1000:.1f} ms"
            ratio = f"{self.median / base_median:.2f}×"
        spread = f"{min(self.samples) * 1000:.1f} / {max(self.samples) * 1000:.1f}"
        return (
            f"| {self.name} | {self.median * 1000:.1f} ms | {spread} | {base} | {ratio} "
            f"| {self.target} |"
        )


def timed(
    command: list[str] | str,
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    shell: bool = False,
    stdin: Path | None = None,
    check: bool = True,
) -> float:
    """Seconds one whole process takes. ``check=False`` for grep, which exits 1 on no match."""
    source = stdin.open("rb") if stdin else contextlib.nullcontext(subprocess.DEVNULL)
    with source as handle:
        began = time.perf_counter()
        subprocess.run(
            command,
            cwd=cwd,
            env=env,
            shell=shell,
            stdin=handle,
            check=check,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return time.perf_counter() - began


def table_line(name: str, samples: list[float]) -> str:
    """A markdown table row: the median and 95th percentile of ``samples`` (seconds), in ms."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    median = statistics.median(samples)
    return f"| {name} | {median * 1000:.1f} ms | {p95 * 1000:.1f} ms | {len(samples)} |"


def sample(run: Callable[[], float], runs: int) -> list[float]:
    run()  # warm-up: caches, the page cache, lazily built files
    return [run() for _ in range(runs)]


def ensure_ripgrep() -> str | None:
    found = shutil.which("rg")
    if found:
        return found
    if shutil.which("apt-get") and os.geteuid() == 0:
        print("installing ripgrep for the baseline…", file=sys.stderr)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "ripgrep"],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    return shutil.which("rg")


def size_of(root: Path, pattern: str) -> int:
    return sum(p.stat().st_size for p in root.rglob(pattern) if p.is_file())


def bench_size(
    mem: str, rg: str | None, count: int, workdir: Path, runs: int, queries: list[str]
) -> tuple[list[Figure], list[str]]:
    store = workdir / f"store-{count}"
    if not (store / ".git").exists():
        print(f"generating {count:,} memories…", file=sys.stderr)
        generate(store, count, progress=sys.stderr.isatty())
    env = {**os.environ, "MEM_STORE": str(store)}
    notes: list[str] = []
    if env.pop("PYTHONDONTWRITEBYTECODE", None):
        notes.append(
            "PYTHONDONTWRITEBYTECODE was set and is ignored here: an installed mem "
            "has its bytecode compiled, and recompiling every run is not its speed"
        )
    figures: list[Figure] = []

    # The index is built once outside the timings (it is derived and persistent).
    full = [timed([mem, "reindex", "--full"], env=env) for _ in range(max(1, runs // 3))]
    rss_kb = int(
        subprocess.run(
            [sys.executable, "-c", RSS_WRAPPER, mem, "reindex", "--full"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    figures.append(Figure("`mem reindex --full`", full, target="≤ 8 s at 100k"))

    search_samples: list[float] = []
    rg_samples: list[float] = []
    grep_samples: list[float] = []
    per_query = max(3, runs // 2)
    for query in queries:
        search_samples += sample(lambda q=query: timed([mem, "search", q], env=env), per_query)
        plain = query.strip('"').rstrip("*")
        if rg:
            rg_samples += sample(
                lambda p=plain: timed(
                    [rg, "-l", "-i", "-F", p, "observations"], cwd=store, check=False
                ),
                per_query,
            )
        grep_samples += sample(
            lambda p=plain: timed(["git", "grep", "-l", "-i", "-F", p], cwd=store, check=False),
            per_query,
        )
    figures.append(
        Figure(
            f"`mem search` ({len(queries)} queries)",
            search_samples,
            "rg -l -i",
            rg_samples or None,
            "≤ 80 ms, ≤ 0.15× rg",
        )
    )
    figures.append(
        Figure("`mem search` vs git grep", search_samples, "git grep -l -i", grep_samples)
    )

    saves = [
        timed(
            [
                mem,
                "save",
                f"Benchmark memory {i} about caching and stale locks",
                "--type",
                "discovery",
                "--concept",
                "bench",
            ],
            env=env,
        )
        for i in range(runs + 1)
    ]
    plain_commits = []
    nonce = time.time_ns()  # a store is reused across runs: every commit must change something
    for i in range(runs + 1):
        note = store / "observations" / "plain" / f"plain-{nonce}-{i}.md"
        note.parent.mkdir(exist_ok=True)
        note.write_text(
            f"---\nid: {new_ulid()}\ntype: context\ntitle: Plain commit {i}\n"
            f"created: 2026-01-01T00:00:00Z\n---\n\nA plain git commit {i}.\n"
        )
        plain_commits.append(
            timed(
                f"git add {note} && git commit -q --no-verify -m plain-{i}", cwd=store, shell=True
            )
        )
    figures.append(
        Figure(
            "`mem save` (write, commit, index)",
            saves[1:],
            "git add && git commit",
            plain_commits[1:],
            "≤ 1.3× git add && commit",
        )
    )

    first_reads = []
    files = sorted((store / "observations").rglob("*.md"))[:3]
    for i in range(runs):
        for path in files:
            path.write_text(path.read_text().rstrip("\n") + f"\nHand edit {nonce} {i}.\n")
        subprocess.run(
            ["git", "commit", "-q", "--no-verify", "-am", f"hand edit {i}"], cwd=store, check=True
        )
        first_reads.append(timed([mem, "search", "hand edit"], env=env))
    figures.append(
        Figure("first read after a hand commit of 3 files", first_reads, target="≤ 120 ms")
    )

    # The corpus ends on 2026-11-21: pin the clock there so the hot and warm tiers hold
    # the same memories on every run, whatever the date of the run.
    pinned = {**env, "MEM_NOW": "2026-11-21T23:00:00Z"}
    contexts = sample(lambda: timed([mem, "context"], env=pinned), runs)
    figures.append(Figure("`mem context` (session start)", contexts, target="≤ 150 ms"))
    hook_input = store.parent / "session-start.json"
    hook_input.write_text(
        json.dumps(
            {
                "cwd": str(store),
                "source": "startup",
                "session_id": "bench",
                "hook_event_name": "SessionStart",
            }
        )
    )
    hooks = sample(
        lambda: timed([mem, "hook", "claude", "SessionStart"], stdin=hook_input, env=pinned), runs
    )
    figures.append(Figure("`mem hook claude SessionStart`", hooks, target="≤ 200 ms at 1k"))

    floor = sample(lambda: timed([sys.executable, "-c", "import apsw"], env=env), runs)
    figures.append(Figure("`python -c 'import apsw'` (floor)", floor))

    index_bytes = sum(size_of(store / ".cache", name) for name in ("index.db*",))
    markdown_bytes = size_of(store / "observations", "*.md")
    notes.append(f"peak RSS of `mem reindex --full`: {rss_kb / 1024:.0f} MB (target ≤ 200 MB)")
    notes.append(
        f"index {index_bytes / 1e6:.1f} MB for {markdown_bytes / 1e6:.1f} MB of markdown "
        f"({index_bytes / max(markdown_bytes, 1):.2f}×)"
    )
    return figures, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mem-bench")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results.md")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="4 queries instead of 20: proves the harness works, measures little",
    )
    parser.add_argument(
        "--no-install",
        action="store_true",
        help="do not install ripgrep when it is missing (skip that baseline)",
    )
    args = parser.parse_args()

    mem = shutil.which(
        "mem", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    )
    if mem is None:
        sys.exit("the mem command is not installed: pip install -e .")
    rg = shutil.which("rg") if args.no_install else ensure_ripgrep()
    queries = QUERIES[::5] if args.quick else QUERIES
    args.workdir.mkdir(parents=True, exist_ok=True)
    lines = [
        f"Measured {dt.date.today().isoformat()} on {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{subprocess.run(['git', '--version'], capture_output=True, text=True).stdout.strip()}; "
        f"median of {args.runs} runs after a warm-up (search: every query several times).",
        "",
    ]
    for count in args.sizes:
        figures, notes = bench_size(mem, rg, count, args.workdir, args.runs, queries)
        lines += [
            f"### {count:,} memories",
            "",
            "| figure | median | min / max | baseline | ratio | target |",
            "|---|---|---|---|---|---|",
            *(figure.row() for figure in figures),
            "",
            *(f"- {n}" for n in notes),
            "",
        ]
    report = "\n".join(lines)
    print(report)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
