"""A realistic, reproducible store of N memories, written directly and committed once.

Calling ``mem save`` 100,000 times would take hours; the harness measures mem, so
the corpus is produced the way a long-lived store ends up: files in git.
"""

from __future__ import annotations

import datetime as dt
import random
import subprocess
import sys
import time
from pathlib import Path

from memcli.core.ids import CROCKFORD
from memcli.core.model import Observation
from memcli.core.schema import OBSERVATION_TYPES
from memcli.core.timeutil import format_timestamp
from memcli.store.files import Store

SUBJECTS = [
    "FTS5 tokenizer",
    "the index",
    "git plumbing",
    "the save path",
    "frontmatter parsing",
    "the lock file",
    "worktrees",
    "rebase",
    "the hook protocol",
    "SQLite WAL",
    "the session start",
    "budget trimming",
    "the CLI start-up",
    "ULID ids",
    "the JSON output",
    "pytest fixtures",
    "the release script",
    "the cache layer",
    "connection pooling",
    "the retry policy",
    "the migration",
    "error messages",
    "the config loader",
    "type checking",
    "the CI job",
]
VERBS = [
    "breaks on",
    "is slow with",
    "needs",
    "must not touch",
    "silently drops",
    "retries",
    "rejects",
    "caches",
    "serialises",
    "should validate",
    "leaks",
    "ignores",
    "rewrites",
]
OBJECTS = [
    "bare hyphens",
    "unicode titles",
    "large stores",
    "concurrent writers",
    "CRLF files",
    "detached HEAD",
    "empty facts",
    "stale locks",
    "long narratives",
    "symbolic links",
    "nested folders",
    "missing ids",
    "duplicate keys",
    "trailing whitespace",
    "binary files",
]
CONCEPTS = [
    "sqlite",
    "fts5",
    "git",
    "performance",
    "testing",
    "locking",
    "yaml",
    "json",
    "cli",
    "hooks",
    "search",
    "ranking",
    "unicode",
    "concurrency",
    "security",
    "packaging",
    "ci",
    "python",
    "apsw",
    "jinja",
    "markdown",
    "worktrees",
    "rebase",
    "caching",
    "logging",
]
FILES = [
    "memcli/index.py",
    "memcli/store.py",
    "memcli/model.py",
    "memcli/codec.py",
    "memcli/cli.py",
    "memcli/render.py",
    "memcli/hooks.py",
    "src/app/server.py",
    "src/app/models/user.py",
    "web/components/SearchBox.tsx",
    "docs/architecture.md",
    "tests/test_index.py",
    "pyproject.toml",
    ".github/workflows/ci.yml",
    "Makefile",
]
IDENTIFIERS = [
    "parse_terms",
    "Index.sync",
    "write_file",
    "BEGIN IMMEDIATE",
    "user_version",
    "update-index",
    "commit-tree",
    "os.replace",
    "fcntl.flock",
    "bm25()",
    "json_each",
    "CliRunner",
    "tmp_path",
    "StrictUndefined",
    "ON CONFLICT",
    "PRAGMA journal_mode",
]
WORDS = (
    "the a when we it this that because so then after before with without into from each "
    "every only never always should must can cannot will would found noticed learned "
    "decided changed fixed broke measured tested reviewed users agents memory store index "
    "query file files commit commits branch session context budget error errors result "
    "results time cost faster slower safe unsafe stable quick simple careful again"
).split()


def observation(rng: random.Random, start: dt.datetime, span_seconds: int, n: int) -> Observation:
    created = start + dt.timedelta(seconds=rng.randrange(span_seconds))
    ms = int(created.timestamp() * 1000)
    tail = "".join(rng.choice(CROCKFORD) for _ in range(16))
    head = "".join(CROCKFORD[(ms >> (5 * i)) & 31] for i in reversed(range(10)))
    title = f"{rng.choice(SUBJECTS).capitalize()} {rng.choice(VERBS)} {rng.choice(OBJECTS)}"
    facts = [
        f"{rng.choice(IDENTIFIERS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}"
        for _ in range(rng.randint(2, 4))
    ]
    words = []
    for _ in range(rng.randint(80, 150)):
        roll = rng.random()
        if roll < 0.08:
            words.append(f"`{rng.choice(IDENTIFIERS)}`")
        elif roll < 0.12:
            words.append(rng.choice(CONCEPTS))
        else:
            words.append(rng.choice(WORDS))
    narrative = " ".join(words).capitalize() + "."
    return Observation(
        id=head + tail,
        type=rng.choice(OBSERVATION_TYPES),
        title=title,
        created=format_timestamp(created),
        narrative=narrative,
        key=f"topic-{n}" if rng.random() < 0.05 else None,
        concepts=rng.sample(CONCEPTS, rng.randint(1, 4)),
        files=rng.sample(FILES, rng.randint(0, 2)),
        facts=list(dict.fromkeys(facts)),
        importance=round(rng.random(), 2) if rng.random() < 0.3 else None,
    )


def installed_mem(extra: str = "") -> str:
    """The mem command beside this interpreter (else on PATH); exits saying how to install it."""
    import os
    import shutil

    found = shutil.which(
        "mem", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    )
    if found is None:
        sys.exit(f"the mem command is not installed: pip install -e '.{extra}'")
    return found


def cached_corpus(workdir: Path, size: int) -> Path:
    """The reference store of ``size`` memories under ``workdir``: generated once, then reused."""
    source = workdir / f"store-{size}"
    if not (source / ".git").exists():
        print(f"generating {size:,} memories…", file=sys.stderr)
        generate(source, size, progress=sys.stderr.isatty())
    return source


def generate(root: Path, count: int, *, seed: int = 42, progress: bool = True) -> None:
    """Create a store at ``root`` holding ``count`` memories in one commit."""
    rng = random.Random(seed)
    store = Store(root)
    store.create()
    subprocess.run(["git", "config", "gc.auto", "0"], cwd=root, check=True)
    start = dt.datetime(2024, 11, 21, tzinfo=dt.UTC)
    span = 2 * 365 * 86400
    began = time.monotonic()
    for n in range(count):
        obs = observation(rng, start, span, n)
        path = root / store.new_path(obs)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(obs.to_markdown(), encoding="utf-8")
        if progress and n and n % 10_000 == 0:
            print(f"  wrote {n:,} files ({time.monotonic() - began:.0f} s)", file=sys.stderr)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(
        ["git", "commit", "-q", "--no-verify", "-m", f"corpus: {count} memories"],
        cwd=root,
        check=True,
    )
    if progress:
        print(f"  corpus of {count:,} ready in {time.monotonic() - began:.0f} s", file=sys.stderr)
