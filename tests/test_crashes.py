"""kill -9 at every step of a save and of a full reindex: nothing is lost or left stuck.

The kill comes from inside, through ``MEM_CRASH_AT`` (a SIGKILL at a named
point, no cleanup of any kind), and from outside, at seeded random moments.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from memcli.store.files import parse_memory_file

from .conftest import git, mem_executable, run_mem

pytestmark = pytest.mark.e2e

SAVE_POINTS = [
    "lock-held",  # the write lock taken, nothing written
    "temp-written",  # the new file complete in its temporary name
    "files-written",  # the file in place, git knows nothing yet
    "staged",  # in git's index, no commit
    "commit-written",  # a commit object no ref points to
    "ref-updated",  # committed, the index not yet told
    "index-written",  # inside the index's transaction, before it commits
]
REINDEX_POINTS = ["rebuild-inserting", "index-written"]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    store = tmp_path / "store"
    environment = {**os.environ, "MEM_STORE": str(store), "MEM_LOCK_TIMEOUT": "10"}
    for n in range(3):
        saved = run_mem("save", f"Memory {n} saved before the crash", env=environment)
        assert saved.returncode == 0, saved.stderr
    return environment


def store_of(env: dict[str, str]) -> Path:
    return Path(env["MEM_STORE"])


def assert_recovers(env: dict[str, str]) -> None:
    """Whole files only; the next save is not blocked; doctor --fix makes the store check out."""
    store = store_of(env)
    for path in (store / "observations").rglob("*.md"):
        relative = path.relative_to(store).as_posix()
        parse_memory_file(relative, path.read_bytes())  # raises on a half-written file
    after = run_mem("save", "The first save after the crash", env=env)
    assert after.returncode == 0, after.stderr
    fixed = run_mem("doctor", "--fix", env=env)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert run_mem("doctor", env=env).returncode == 0
    checked = run_mem("reindex", "--check", env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert git(store, "status", "--porcelain") == ""
    # Every memory in git is found by search, and nothing else is.
    committed = {p.split("/")[-1] for p in git(store, "ls-files", "observations").split()}
    listed = json.loads(run_mem("list", "--limit", "1000", "--json", env=env).stdout)
    assert {Path(m["path"]).name for m in listed} == committed


@pytest.mark.parametrize("point", SAVE_POINTS)
def test_a_save_killed_at_each_step(env: dict[str, str], point: str) -> None:
    title = f"Killed at {point}"
    killed = run_mem("save", title, env={**env, "MEM_CRASH_AT": point})
    assert killed.returncode == -signal.SIGKILL
    assert_recovers(env)
    store = store_of(env)
    in_git = title in git(store, "log", "-p", "--format=%s")
    on_disk = any(title in p.read_text() for p in (store / "observations").rglob("*.md"))
    # Either the whole save survived (committed by the save, or by doctor from the file
    # it left), or none of it did.
    assert in_git == on_disk
    assert in_git == (SAVE_POINTS.index(point) >= SAVE_POINTS.index("files-written"))


@pytest.mark.parametrize("point", REINDEX_POINTS)
def test_a_full_reindex_killed_half_way(env: dict[str, str], point: str) -> None:
    killed = run_mem("reindex", "--full", env={**env, "MEM_CRASH_AT": point})
    assert killed.returncode == -signal.SIGKILL
    hits = run_mem("search", "saved before the crash", "--json", env=env)
    assert hits.returncode == 0 and len(json.loads(hits.stdout)) == 3
    assert_recovers(env)


def test_a_parallel_reindex_killed_leaves_no_worker_behind(tmp_path: Path) -> None:
    """At 2,000 files the rebuild reads them in worker processes; they die with it."""
    store = tmp_path / "big"
    env = {**os.environ, "MEM_STORE": str(store)}
    assert run_mem("init", env=env).returncode == 0
    folder = store / "observations" / "2026" / "11"
    folder.mkdir(parents=True)
    for n in range(2000):
        identity = f"01JD{n:022d}"
        (folder / f"m-{n}.md").write_text(
            f"---\nid: {identity}\ntype: discovery\ntitle: Bulk memory {n}\n"
            f"created: 2026-11-01T00:00:00Z\n---\nBulk memory number {n}.\n"
        )
    git(store, "add", "-A")
    git(store, "commit", "-q", "--no-verify", "-m", "bulk")
    killed = subprocess.run(  # no pipes: a lingering worker would hold them open
        [mem_executable(), "reindex", "--full", "--store", str(store)],
        env={**env, "MEM_CRASH_AT": "rebuild-inserting"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=60,
    )
    assert killed.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while _processes_mentioning(str(store)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_mentioning(str(store)) == []
    checked = run_mem("reindex", "--check", env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().split(") ", 1)[1][:1]
        except OSError:
            continue
        if text in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def test_kills_at_random_moments(env: dict[str, str]) -> None:
    chance = random.Random(20261122)
    outcomes = []
    for n in range(20):
        args = ["reindex", "--full"] if n % 4 == 3 else ["save", f"Random kill number {n}"]
        process = subprocess.Popen(
            [mem_executable(), *args],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(chance.uniform(0.0, 0.3))
        process.send_signal(signal.SIGKILL)
        outcomes.append(process.wait(timeout=60))
    assert_recovers(env)
    store = store_of(env)
    saved_titles = git(store, "log", "--format=%s")
    for n, code in enumerate(outcomes):
        if n % 4 != 3 and code == 0:  # finished before the kill: it must be there
            assert f"Random kill number {n}" in saved_titles


def _jsonl_rows(folder: Path, count: int) -> Path:
    """``count`` memories as ``mem export`` writes them (ids kept), in one file."""
    lines = [
        json.dumps(
            {
                "id": f"01JDM3N4P5{n:016d}",
                "created": "2026-11-20T10:00:00Z",
                "type": "discovery",
                "title": f"Imported row {n}",
                "narrative": f"Row {n} of an import that was killed.",
            }
        )
        for n in range(count)
    ]
    path = folder / f"rows-{count}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def assert_each_id_once(env: dict[str, str], expected: int) -> None:
    """``expected`` memory files, no two with one id, every one committed."""
    store = store_of(env)
    files = list((store / "observations").rglob("*.md"))
    ids = [parse_memory_file("x.md", p.read_bytes()).id for p in files]
    assert len(ids) == len(set(ids)) == expected
    assert git(store, "status", "--porcelain") == ""
    assert run_mem("doctor", env=env).returncode == 0


@pytest.mark.parametrize("point", SAVE_POINTS)
def test_an_import_retried_after_a_crash_adds_nothing_beside_it(
    env: dict[str, str], tmp_path: Path, point: str
) -> None:
    rows = _jsonl_rows(tmp_path, 3)
    killed = run_mem("import", "jsonl", str(rows), env={**env, "MEM_CRASH_AT": point})
    assert killed.returncode == -signal.SIGKILL
    again = run_mem("import", "jsonl", str(rows), env=env)
    assert again.returncode == 0, again.stderr
    report = again.stdout.splitlines()[0]
    assert report in (
        "3 rows: imported 3, skipped 0, failed 0",
        "3 rows: imported 0, skipped 3, failed 0",
    )
    assert_each_id_once(env, 3 + 3)


@pytest.mark.parametrize("point", SAVE_POINTS)
def test_a_keyed_save_retried_after_a_crash_keeps_one_memory(
    env: dict[str, str], point: str
) -> None:
    args = ["save", "The deploy runbook lives in ops/", "--key", "runbook"]
    killed = run_mem(*args, env={**env, "MEM_CRASH_AT": point})
    assert killed.returncode == -signal.SIGKILL
    again = run_mem(*args, env=env)
    assert again.returncode == 0, again.stderr
    assert_each_id_once(env, 3 + 1)
    listed = json.loads(run_mem("list", "--json", env=env).stdout)
    assert [m["key"] for m in listed].count("runbook") == 1


@pytest.mark.parametrize("point", ["files-written", "staged"])
def test_an_import_of_memory_md_retried_after_a_crash_commits_it(
    env: dict[str, str], tmp_path: Path, point: str
) -> None:
    folder = tmp_path / "claude-memory"
    folder.mkdir()
    (folder / "MEMORY.md").write_text("# Memory\n\n- [Deploys](deploy.md)\n")
    (folder / "deploy.md").write_text("---\nname: Deploys go through CI\ntype: project\n---\nx\n")
    args = ["import", "claude-memory", str(folder)]
    assert run_mem(*args, env={**env, "MEM_CRASH_AT": point}).returncode == -signal.SIGKILL
    again = run_mem(*args, env=env)
    assert again.returncode == 0, again.stderr
    store = store_of(env)
    assert git(store, "ls-files", "MEMORY.md") == "MEMORY.md\n"
    assert_each_id_once(env, 3 + 1)


def test_an_import_killed_while_writing_files_is_undone_by_the_retry(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A real SIGKILL from outside, as soon as the import's first file is on disk."""
    rows = _jsonl_rows(tmp_path, 400)
    folder = store_of(env) / "observations" / "2026" / "11"
    before = len(list(folder.iterdir()))
    process = subprocess.Popen(
        [mem_executable(), "import", "jsonl", str(rows)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while sum(1 for name in os.listdir(folder) if name.endswith(".md")) <= before:
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.001)
    finally:
        process.kill()
        process.wait(timeout=60)
    again = run_mem("import", "jsonl", str(rows), env=env)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("400 rows: imported ")
    assert_each_id_once(env, 3 + 400)


def test_doctor_names_an_interrupted_write_and_fix_settles_it(env: dict[str, str]) -> None:
    killed = run_mem("save", "Killed half way", env={**env, "MEM_CRASH_AT": "lock-held"})
    assert killed.returncode == -signal.SIGKILL
    found = run_mem("doctor", env=env)
    assert found.returncode == 1
    assert "a write was interrupted (save: discovery: Killed half way)" in found.stdout
    fixed = run_mem("doctor", "--fix", env=env)
    assert "fixed: undid an interrupted write: save: discovery: Killed half way" in fixed.stdout
    assert run_mem("doctor", env=env).returncode == 0
