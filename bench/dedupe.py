"""`mem dedupe` at scale, with planted near-duplicate pairs, and what the duplicate check adds
to `mem save`.

    python bench/dedupe.py --count 100000 --pairs 1000 [--dir /tmp/dedupe-bench]
    python bench/dedupe.py --count 100000 --save-vs /path/to/main/checkout

Makes (or reuses) a store of ``--count`` memories (bench/corpus.py) and plants
``--pairs`` near-duplicates: copies of random memories with words dropped, swapped
or replaced (a third each), committed at once. Then:

* ``mem dedupe --json``, timed once with farm-bench (wall time and peak memory of the
  whole process), and judged: the share of planted pairs found in one cluster, and the
  share of the reported pairs (each member with its keeper) that are not planted.
* with ``--save-vs``: ``mem save`` of a new text each run against the same command of
  another checkout (main), in turn, on two copies of the store, with farm-bench
  ``--vs``: the difference of the medians is what the duplicate check adds.

Targets (issue 24): dedupe <= 60 s and <= 500 MB at 100k; >= 90% of the pairs found,
<= 1 false pair in 10; the save check adds <= 15 ms at 100k.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.corpus import WORDS, generate  # noqa: E402
from memcli.core.ids import new_ulid  # noqa: E402
from memcli.store.files import Store  # noqa: E402

SEED = 24


def planted(rng: random.Random, text: str, how: str) -> str:
    words = text.split()
    if how == "dropped":
        return " ".join(w for w in words if rng.random() > 0.1) or text
    if how == "swapped":
        for _ in range(3):
            n = rng.randrange(len(words) - 1)
            words[n], words[n + 1] = words[n + 1], words[n]
        return " ".join(words)
    for _ in range(max(3, len(words) // 20)):  # reworded: a few words replaced
        words[rng.randrange(len(words))] = rng.choice(WORDS)
    return " ".join(words)


def plant(root: Path, pairs: int) -> list[tuple[str, str]]:
    """Near-duplicates of ``pairs`` random memories, committed; the (original, copy) ids."""
    rng = random.Random(SEED)
    store = Store(root)
    paths = sorted(store.memory_paths())
    chosen = rng.sample(paths, pairs)
    planted_pairs = []
    written = []
    for n, path in enumerate(chosen):
        original = store.load(path)[0]
        how = ("dropped", "swapped", "reworded")[n % 3]
        copy = original.replace(
            id=new_ulid(),
            narrative=planted(rng, original.narrative, how),
            facts=original.facts[:-1]
            if how == "dropped" and len(original.facts) > 1
            else original.facts,
            key=None,
        )
        new_path = store.new_path(copy)
        (root / new_path).parent.mkdir(parents=True, exist_ok=True)
        (root / new_path).write_text(copy.to_markdown(), encoding="utf-8")
        planted_pairs.append((original.id, copy.id))
        written.append(new_path)
    subprocess.run(["git", "add", "--", *written], cwd=root, check=True)
    subprocess.run(
        ["git", "commit", "-q", "--no-verify", "-m", f"bench: {pairs} planted pairs"],
        cwd=root,
        check=True,
    )
    return planted_pairs


def mem(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEM_STORE": str(root)}
    command = [str(Path(sys.executable).parent / "mem"), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, check=True)


def judge(report: dict[str, object], pairs: list[tuple[str, str]]) -> tuple[float, float, int]:
    """Share of planted pairs found, share of reported pairs that are false, pairs reported."""
    cluster_of: dict[str, int] = {}
    reported: list[tuple[str, str]] = []
    clusters = report["clusters"]
    assert isinstance(clusters, list)
    for number, cluster in enumerate(clusters):
        ids = [m["id"] for m in cluster["members"]]
        for identity in ids:
            cluster_of[identity] = number
        reported += [(cluster["keeper"], other) for other in ids if other != cluster["keeper"]]
    found = sum(1 for a, b in pairs if a in cluster_of and cluster_of[a] == cluster_of.get(b))
    truth = {frozenset(pair) for pair in pairs}
    false = sum(1 for pair in reported if frozenset(pair) not in truth)
    return found / len(pairs), (false / len(reported) if reported else 0.0), len(reported)


def farm_bench(*args: str, timeout: int = 600) -> str:
    result = subprocess.run(
        ["farm-bench", "--timeout", str(timeout), *args], capture_output=True, text=True
    )
    return result.stdout + result.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/dedupe-bench"))
    parser.add_argument("--save-vs", type=Path, help="a checkout of main, for the save check")
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    root = options.dir / f"store-{options.count}"
    pairs_file = options.dir / f"pairs-{options.count}.json"
    if not root.exists():
        options.dir.mkdir(parents=True, exist_ok=True)
        generate(root, options.count)
        pairs_file.write_text(json.dumps(plant(root, options.pairs)))
        began = time.monotonic()
        mem(root, "reindex")
        print(f"index built in {time.monotonic() - began:.0f} s", file=sys.stderr)
    pairs = [tuple(p) for p in json.loads(pairs_file.read_text())]
    report_file = options.dir / "report.json"
    mem_exe = str(Path(sys.executable).parent / "mem")
    print(f"## mem dedupe, {options.count:,} memories + {len(pairs):,} planted pairs\n")
    print(
        farm_bench(
            "-n",
            "1",
            "--warmup",
            "0",
            "--",
            "sh",
            "-c",
            f"MEM_STORE={root} exec {mem_exe} dedupe --json > {report_file}",
        )
    )
    found, false, reported = judge(json.loads(report_file.read_text()), pairs)  # type: ignore[arg-type]
    print(f"planted pairs found: {found:.1%}; false pairs: {false:.1%} of {reported:,} reported\n")
    if options.save_vs:
        bench_save(root, options.save_vs, options.runs)


def bench_save(root: Path, other: Path, runs: int) -> None:
    """``mem save`` here against ``other``'s, each on its own copy of the store."""
    mine, theirs = root.parent / "save-mine", root.parent / "save-main"
    for copy in (mine, theirs):
        if not copy.exists():
            shutil.copytree(root, copy, symlinks=True)
    python = sys.executable
    here = HERE.parent

    def command(checkout: Path, store: Path) -> str:
        return (
            f"sh -c 'MEM_STORE={store} PYTHONPATH={checkout} exec {python} -m memcli save "
            f'"$(date +%s%N) a new gotcha about the retry policy and stale locks" --type gotcha\''
        )

    for checkout, store in ((here, mine), (other, theirs)):  # the index at each one's schema
        subprocess.run(
            ["sh", "-c", f"MEM_STORE={store} PYTHONPATH={checkout} {python} -m memcli reindex"],
            check=True,
        )
    print(f"## mem save at {root.name}: this branch (A) vs {other} (B)\n")
    print(
        farm_bench(
            "-n", str(runs), "--vs", command(other, theirs), "--", *_split(command(here, mine))
        )
    )


def _split(command: str) -> list[str]:
    import shlex

    return shlex.split(command)


if __name__ == "__main__":
    main()
