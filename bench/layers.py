"""Reads over three layers against one store of the same size, whole processes, same run.

    python bench/layers.py --size 10000 --runs 9

Builds (once, under --dir) a user store, a project's central store and its team
folder (committed in the project's repository) of ``--size`` memories each, and
one store of three times that size. Then ``farm-bench`` times ``mem search`` run
in the project (every layer read, one ranking) against ``mem search`` on the
single store, pair by pair, and ``mem context`` the same way. The issue's target:
three layers within 20 ms of one store of their total size.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import generate, observation  # noqa: E402

from memcli.store.files import Store  # noqa: E402
from memcli.store.layers import TEAM_DIR, USER_STORE_DIR  # noqa: E402

QUERIES = ["why does the index rebuild take so long", "git plumbing commit lock"]


def team_folder(project: Path, count: int, seed: int) -> None:
    """``count`` memories in the project's team folder, committed in the project's repository."""
    import datetime as dt

    rng = random.Random(seed)
    folder = project / TEAM_DIR
    start = dt.datetime(2024, 11, 21, tzinfo=dt.UTC)
    namer = Store(folder)
    for n in range(count):
        obs = observation(rng, start, 2 * 365 * 86400, n)
        path = folder / namer.new_path(obs)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(obs.to_markdown(), encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)
    subprocess.run(["git", "commit", "-qm", "team memory"], cwd=project, check=True)


def build(root: Path, size: int) -> tuple[Path, Path]:
    """The project (three layers) and the single store; built once, reused after."""
    home, project, single = root / "home", root / "project", root / "single"
    if (root / "ready").exists():
        return project, single
    shutil.rmtree(root, ignore_errors=True)
    home.mkdir(parents=True)
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "README.md").write_text("a project\n")
    generate(home / USER_STORE_DIR, size, seed=1)
    generate(home / "project", size, seed=2)
    team_folder(project, size, seed=3)
    generate(single, 3 * size, seed=4)
    (root / "ready").write_text("")
    return project, single


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mem-bench-layers"))
    args = parser.parse_args()
    root = args.dir / str(args.size)
    began = time.monotonic()
    project, single = build(root, args.size)
    print(f"stores ready in {time.monotonic() - began:.0f} s", file=sys.stderr)
    mem = shutil.which("mem") or str(Path(sys.executable).parent / "mem")
    env = {**os.environ, "MEM_HOME": str(root / "home")}
    env.pop("MEM_STORE", None)
    for command in (["search", QUERIES[0]], ["search", QUERIES[1]], ["context"]):
        layered = [mem, *command]
        baseline = [mem, *command, "--store", str(single)]
        for warm in (layered, baseline):  # each index built before timing
            subprocess.run(warm, cwd=project, env=env, capture_output=True, check=True)
        print(f"\n## mem {' '.join(command)}: three layers (A) vs one store of all (B)")
        subprocess.run(
            [
                "farm-bench",
                "-n",
                str(args.runs),
                "--timeout",
                "600",
                "--vs",
                " ".join(_quoted(part) for part in baseline),
                "--",
                *layered,
            ],
            cwd=project,
            env=env,
            check=False,
        )


def _quoted(part: str) -> str:
    return f"'{part}'" if " " in part else part


if __name__ == "__main__":
    main()
