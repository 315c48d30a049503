"""Time ``mem import claude-mem`` on a generated claude-mem database (not a test).

    python bench/import_claude_mem.py --observations 100000 --summaries 5000

Generates claude-mem's database (its current schema, WAL mode, sizes like real
rows: a 60-character title, a subtitle, a narrative of 400-1,500 characters,
3-5 facts, 2-3 concepts, 1-6 files), then in a fresh store runs the whole
``mem import claude-mem`` process, counts its commits, and times a first
``mem search`` and a ``mem reindex --check`` after it. The database's bytes are
compared before and after. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import apsw

SCHEMA = """
CREATE TABLE sdk_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT, content_session_id TEXT NOT NULL,
  memory_session_id TEXT UNIQUE, project TEXT NOT NULL,
  platform_source TEXT NOT NULL DEFAULT 'claude', user_prompt TEXT, started_at TEXT NOT NULL,
  started_at_epoch INTEGER NOT NULL, completed_at TEXT, completed_at_epoch INTEGER,
  status TEXT NOT NULL DEFAULT 'active');
CREATE INDEX idx_sdk_sessions_sdk_id ON sdk_sessions(memory_session_id);
CREATE TABLE observations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, memory_session_id TEXT NOT NULL, project TEXT NOT NULL,
  text TEXT, type TEXT NOT NULL, title TEXT, subtitle TEXT, facts TEXT, narrative TEXT,
  concepts TEXT, files_read TEXT, files_modified TEXT, prompt_number INTEGER,
  discovery_tokens INTEGER DEFAULT 0, created_at TEXT NOT NULL, created_at_epoch INTEGER NOT NULL,
  content_hash TEXT, generated_by_model TEXT, relevance_count INTEGER DEFAULT 0,
  merged_into_project TEXT, agent_type TEXT, agent_id TEXT, metadata TEXT);
CREATE INDEX idx_observations_project ON observations(project);
CREATE TABLE session_summaries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, memory_session_id TEXT NOT NULL, project TEXT NOT NULL,
  request TEXT, investigated TEXT, learned TEXT, completed TEXT, next_steps TEXT,
  files_read TEXT, files_edited TEXT, notes TEXT, prompt_number INTEGER,
  discovery_tokens INTEGER DEFAULT 0, created_at TEXT NOT NULL, created_at_epoch INTEGER NOT NULL,
  merged_into_project TEXT);
CREATE INDEX idx_session_summaries_project ON session_summaries(project);
"""
TYPES = ["discovery"] * 30 + ["change"] * 25 + ["bugfix"] * 15 + ["feature"] * 15
TYPES += ["decision"] * 8 + ["refactor"] * 7
CONCEPTS = ["how-it-works", "why-it-exists", "what-changed", "problem-solution", "gotcha",
            "pattern", "trade-off"]  # fmt: skip
WORDS = (
    "cache index session token parser worker queue retry timeout schema migration "
    "commit branch config handler request response payload batch stream buffer "
    "lock thread process signal socket client server route template render module "
    "import export record field column table query filter search rank vector model "
    "error warning failure fallback default option flag command hook agent memory"
).split()
PROJECT = "bench"
START_MS = 1_735_689_600_000  # 2025-01-01


def sentence(rng: random.Random, low: int, high: int) -> str:
    words = rng.choices(WORDS, k=rng.randint(low, high))
    words += [f"w{rng.randrange(50_000)}" for _ in range(2)]  # rarer words, as real text has
    rng.shuffle(words)
    return " ".join(words).capitalize() + "."


def paragraph(rng: random.Random, chars: int) -> str:
    parts: list[str] = []
    while sum(len(p) + 1 for p in parts) < chars:
        parts.append(sentence(rng, 8, 18))
    return " ".join(parts)


def path(rng: random.Random) -> str:
    name = f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}_{rng.randrange(300)}.ts"
    return f"/home/dev/code/{PROJECT}/{name}" if rng.random() < 0.5 else name


def generate(db: Path, observations: int, summaries: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    conn = apsw.Connection(str(db))
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(SCHEMA)
    sessions = max(1, observations // 40)
    with conn:
        for n in range(sessions):
            conn.execute(
                "INSERT INTO sdk_sessions (content_session_id, memory_session_id, project, "
                "started_at, started_at_epoch) VALUES (?, ?, ?, ?, ?)",
                (f"claude-{n:06d}", f"sdk-{n:06d}", PROJECT, "2025-01-01T00:00:00Z", START_MS),
            )
        rows = []
        for n in range(observations):
            epoch = START_MS + n * 60_000
            rows.append(
                (
                    f"sdk-{n % sessions:06d}",
                    PROJECT,
                    rng.choice(TYPES),
                    sentence(rng, 5, 9)[:80],
                    sentence(rng, 10, 16),
                    json.dumps([sentence(rng, 6, 14) for _ in range(rng.randint(3, 5))]),
                    paragraph(rng, rng.randint(400, 1500)),
                    json.dumps(rng.sample(CONCEPTS, rng.randint(2, 3))),
                    json.dumps([path(rng) for _ in range(rng.randint(0, 4))]),
                    json.dumps([path(rng) for _ in range(rng.randint(1, 2))]),
                    rng.randint(1, 30),
                    time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(epoch / 1000)),
                    epoch,
                )
            )
        conn.executemany(
            "INSERT INTO observations (memory_session_id, project, type, title, subtitle, facts, "
            "narrative, concepts, files_read, files_modified, prompt_number, created_at, "
            "created_at_epoch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        for n in range(summaries):
            epoch = START_MS + n * 600_000
            conn.execute(
                "INSERT INTO session_summaries (memory_session_id, project, request, "
                "investigated, learned, completed, next_steps, files_read, files_edited, "
                "created_at, created_at_epoch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    f"sdk-{n % sessions:06d}",
                    PROJECT,
                    sentence(rng, 8, 20),
                    paragraph(rng, 300),
                    paragraph(rng, 300),
                    paragraph(rng, 200),
                    sentence(rng, 8, 20),
                    json.dumps([path(rng) for _ in range(3)]),
                    json.dumps([path(rng) for _ in range(2)]),
                    time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(epoch / 1000)),
                    epoch,
                ),
            )
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def digest(directory: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in sorted(directory.iterdir())
    }


CPU: dict[str, float] = {}
"""CPU seconds (user + system) of each command run, by its first argument."""


def run(mem: str, *args: str, env: dict[str, str]) -> tuple[float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([mem, *args], env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    CPU[args[0]] = CPU.get(args[0], 0.0) + cpu
    if done.returncode != 0:
        sys.exit(f"mem {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return elapsed, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--observations", type=int, default=100_000)
    parser.add_argument("--summaries", type=int, default=5_000)
    parser.add_argument(
        "--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mem-bench-claude-mem"
    )
    args = parser.parse_args()
    mem = shutil.which("mem", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    if mem is None:
        sys.exit("the mem command is not installed: pip install -e .")
    shutil.rmtree(args.workdir, ignore_errors=True)
    source = args.workdir / "claude-mem"
    source.mkdir(parents=True)
    db = source / "claude-mem.db"
    start = time.perf_counter()
    generate(db, args.observations, args.summaries)
    generated = time.perf_counter() - start
    size_mb = db.stat().st_size / 1e6
    before = digest(source)

    store = args.workdir / "store"
    env = {**os.environ, "MEM_STORE": str(store), "MEM_HOME": str(args.workdir / "home")}
    run(mem, "init", env=env)
    imported, output = run(mem, "import", "claude-mem", str(db), "--project", PROJECT, env=env)
    import_cpu = CPU.pop("import")
    commits = subprocess.run(
        ["git", "-C", str(store), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    searched, hits = run(mem, "search", "retry timeout", "--limit", "5", env=env)
    again, _ = run(mem, "search", "socket handler", "--limit", "5", env=env)
    checked, _ = run(mem, "reindex", "--check", env=env)
    second, second_output = run(mem, "import", "claude-mem", str(db), "--project", PROJECT, env=env)
    unchanged = digest(source) == before

    rows = f"{args.observations:,} observations, {args.summaries:,} summaries"
    print(f"| claude-mem database | {rows}, {size_mb:.0f} MB (made in {generated:.1f} s) |")
    print("|---|---|")
    print(
        f"| `mem import claude-mem` (whole process) | {imported:.1f} s ({import_cpu:.1f} s CPU) |"
    )
    print(f"| commits in the store (init + import) | {commits} |")
    lines = len(hits.splitlines())
    print(f"| first `mem search` after it | {searched * 1000:.0f} ms ({lines} lines) |")
    print(f"| second `mem search` | {again * 1000:.0f} ms |")
    print(f"| `mem reindex --check` | {checked:.1f} s |")
    print(f"| second import (nothing new) | {second:.1f} s |")
    print(f"| database bytes and files unchanged | {unchanged} |")
    print()
    print("import output (last lines):")
    print("\n".join(output.strip().splitlines()[-6:]))
    print("second import:", " / ".join(second_output.strip().splitlines()[-3:]))


if __name__ == "__main__":
    main()
