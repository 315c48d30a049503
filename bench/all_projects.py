"""`mem search --all-projects` over many stores against one store of their total size.

    python bench/all_projects.py --projects 20 --size 5000 --runs 9

Builds (once, under --dir, outside the repository) ``--projects`` central stores
of ``--size`` memories each under one MEM_HOME, a git repository standing for
the project the search runs in (the first of them), and one store of
``projects x size`` memories. Every index is built (and its memories embedded
with the bundled model) before anything is timed. Then ``mem search
--all-projects`` in the project (A) and ``mem search --store SINGLE`` (B) run in
turn, whole processes, and the medians and the median of the pairs' ratios A/B
are printed. The target: A within twice B.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import generate, installed_mem  # noqa: E402

QUERIES = ["why does the index rebuild take so long", "git plumbing commit lock"]


def project_names(count: int) -> list[str]:
    return [f"p{n:02d}" for n in range(1, count + 1)]


def build(root: Path, projects: int, size: int, mem: str) -> tuple[Path, Path, dict[str, str]]:
    """The project to search from, the single store, and the environment; built once."""
    home, project, single = root / "home", root / "p01", root / "single"
    env = {**os.environ, "MEM_HOME": str(home)}
    env.pop("MEM_STORE", None)
    if not (root / "ready").exists():
        shutil.rmtree(root, ignore_errors=True)
        home.mkdir(parents=True)
        project.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=project, check=True)
        for n, name in enumerate(project_names(projects), 1):
            generate(home / name, size, seed=n, progress=False)
            print(f"  project {name} written", file=sys.stderr)
        generate(single, projects * size, seed=1000)
        for name in project_names(projects):  # indexes and vectors, before any timing
            subprocess.run([mem, "reindex", "--project", name], env=env, check=True)
        subprocess.run([mem, "reindex", "--store", str(single)], env=env, check=True)
        (root / "ready").write_text("")
    return project, single, env


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", type=int, default=20)
    parser.add_argument("--size", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mem-bench-all-projects"))
    parser.add_argument("--build-only", action="store_true", help="Build the stores and stop.")
    args = parser.parse_args()
    mem = installed_mem()
    root = args.dir / f"{args.projects}x{args.size}"
    began = time.monotonic()
    project, single, env = build(root, args.projects, args.size, mem)
    print(f"stores ready in {time.monotonic() - began:.0f} s under {root}", file=sys.stderr)
    if args.build_only:
        return
    for query in QUERIES:
        many = [mem, "search", "--all-projects", query]
        one = [mem, "search", query, "--store", str(single)]
        for warm in (many, one):
            timed(warm, project, env)
        pairs = [(timed(many, project, env), timed(one, project, env)) for _ in range(args.runs)]
        a = statistics.median(p[0] for p in pairs)
        b = statistics.median(p[1] for p in pairs)
        ratio = statistics.median(p[0] / p[1] for p in pairs)
        print(f"\n## mem search {query!r}")
        print(f"A  --all-projects ({args.projects} x {args.size:,}): median {a * 1000:.0f} ms")
        print(f"B  one store of {args.projects * args.size:,}: median {b * 1000:.0f} ms")
        print(f"A/B median of {args.runs} pairs: {ratio:.2f}")


if __name__ == "__main__":
    main()
