"""A broken index, or a broken git repository: answers or clear messages, files untouched.

(A deleted, emptied, truncated or garbage index is rebuilt: see test_sync.py.)
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .conftest import INDEX_DAMAGE, git, mem, mem_json, user_config

READS = [
    ["search", "porter stemming"],
    ["search", "hyphen", "--json"],
    ["list", "--limit", "20"],
    ["show", "01JDF1G2"],
    ["timeline", "01JDF1G2"],
    ["context"],
    ["recall", "why does FTS5 reject hyphenated words?"],
]


def answers() -> list[str]:
    return [mem(*args).stdout for args in READS]


def memory_files(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in root.glob("*/**/*.md")}


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Really read-only, also for root (who ignores permissions): chattr +i there."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(mode & ~0o222)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("root, and this file system has no immutable flag (chattr +i)")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def index_path(root: Path) -> Path:
    return root / ".cache" / "index.db"


def remove_index(root: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{index_path(root)}{suffix}").unlink(missing_ok=True)


@pytest.mark.parametrize("damage", INDEX_DAMAGE.values(), ids=INDEX_DAMAGE.keys())
def test_every_read_answers_the_same_from_a_damaged_index(
    indexed_fixture_store: Path, damage: Any
) -> None:
    healthy = answers()
    files = memory_files(indexed_fixture_store)
    mem("reindex")
    for suffix in ("-wal", "-shm"):
        Path(f"{index_path(indexed_fixture_store)}{suffix}").unlink(missing_ok=True)
    damage(index_path(indexed_fixture_store))
    first, *rest = READS
    rebuilt = mem(*first)
    assert rebuilt.stdout == healthy[0]
    assert len(rebuilt.stderr.splitlines()) == 1 and "index" in rebuilt.stderr
    for args, expected in zip(rest, healthy[1:], strict=True):
        result = mem(*args)
        assert (result.stdout, result.stderr) == (expected, ""), args  # rebuilt once, for good
    assert memory_files(indexed_fixture_store) == files


def test_a_directory_in_place_of_the_index(indexed_fixture_store: Path) -> None:
    user_config('[semantic]\nmodel = "none"\n')  # a temporary index holds no vectors
    healthy = answers()
    files = memory_files(indexed_fixture_store)
    remove_index(indexed_fixture_store)
    index_path(indexed_fixture_store).mkdir()
    for args, expected in zip(READS, healthy, strict=True):
        result = mem(*args)
        assert result.stdout == expected, args
        (notice,) = result.stderr.splitlines()
        assert "a directory is in its place" in notice and "temporary index" in notice
    mem("save", "Saved while the index is a directory", "--key", "while-broken")
    assert "Saved while the index" in mem("show", "while-broken").stdout
    for args in (["reindex"], ["reindex", "--check"], ["doctor"]):
        result = mem(*args, expect=1)
        assert "a directory is in its place" in result.output
        assert "Traceback" not in result.output
    assert index_path(indexed_fixture_store).is_dir()  # a person's directory is never removed
    index_path(indexed_fixture_store).rmdir()
    mem("reindex", "--check")
    assert {k: v for k, v in memory_files(indexed_fixture_store).items() if k in files} == files


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_index(indexed_fixture_store: Path, what: str) -> None:
    user_config('[semantic]\nmodel = "none"\n')  # a temporary index holds no vectors
    healthy = answers()
    target = (
        index_path(indexed_fixture_store) if what == "file" else indexed_fixture_store / ".cache"
    )
    mem("reindex")
    with read_only(target):
        assert answers() == healthy  # current: read as it is
        saved = mem("save", "Saved while the index is read-only about porter stemming")
        assert "the index was not updated" in saved.stderr or "temporary index" in saved.stderr
        assert len(saved.stderr.splitlines()) == 1
        hits = mem("search", "saved while read-only", "--json")
        assert "Saved while the index is read-only" in hits.stdout
        assert mem("reindex", expect=1).stderr.startswith("Error: the index at")
    mem("reindex", "--check")  # writable again: caught up with git at once


# ------------------------------------------------------------------ git broken


def test_missing_head_names_the_problem_everywhere(indexed_fixture_store: Path) -> None:
    (indexed_fixture_store / ".git" / "HEAD").unlink()
    files = memory_files(indexed_fixture_store)
    for args in [*READS, ["save", "x"], ["forget", "01JDF1G2"], ["doctor"], ["sync"]]:
        result = mem(*args, expect=1)
        assert result.stderr.splitlines() == [
            f"Error: {indexed_fixture_store} is a broken git repository: .git/HEAD is missing "
            "(if its branch is main, write 'ref: refs/heads/main' into .git/HEAD)"
        ], args
    assert memory_files(indexed_fixture_store) == files


def test_a_detached_head_reads_but_refuses_writes(indexed_fixture_store: Path) -> None:
    mem("save", "One more memory", "--key", "more")
    git(indexed_fixture_store, "checkout", "-q", "--detach", "HEAD~1")
    assert "One more memory" not in mem("list").stdout  # what that commit holds
    for args in (["save", "x"], ["forget", "01JDF1G2"], ["forget", "--purge", "-y", "01JDF1G2"]):
        assert "is on a detached HEAD" in mem(*args, expect=1).stderr
    assert "is on a detached HEAD" in mem("doctor", expect=1).stdout
    git(indexed_fixture_store, "checkout", "-q", "main")
    assert "One more memory" in mem("list").stdout


def test_a_rebase_in_progress(indexed_fixture_store: Path) -> None:
    (indexed_fixture_store / ".git" / "rebase-merge").mkdir()
    assert mem("search", "porter").stdout
    result = mem("save", "x", expect=1)
    assert "a rebase is in progress in the store" in result.stderr
    assert "a rebase is in progress" in mem("doctor", "--fix", expect=1).stdout


def test_a_merge_conflict_in_a_memory_file(indexed_fixture_store: Path) -> None:
    path = next(indexed_fixture_store.glob("observations/**/*porter*.md"))
    relative = path.relative_to(indexed_fixture_store).as_posix()
    git(indexed_fixture_store, "checkout", "-q", "-b", "theirs")
    path.write_text(path.read_text().replace("Porter stemming", "Their Porter stemming"))
    git(indexed_fixture_store, "commit", "-q", "--no-verify", "-am", "theirs")
    git(indexed_fixture_store, "checkout", "-q", "main")
    path.write_text(path.read_text().replace("Porter stemming", "Our Porter stemming"))
    git(indexed_fixture_store, "commit", "-q", "--no-verify", "-am", "ours")
    merged = subprocess.run(
        ["git", "merge", "theirs"], cwd=indexed_fixture_store, capture_output=True
    )
    assert merged.returncode != 0 and "<<<<<<<" in path.read_text()

    # The index reads the work tree: the conflicted memory is left out, and named.
    searched = mem("search", "porter")
    assert f"skipped {relative}: has unresolved merge conflict markers" in searched.stderr
    doctor = mem("doctor", expect=1).stdout
    assert f"{relative}: has unresolved merge conflict markers" in doctor
    assert "a merge is in progress" in doctor
    assert "a merge is in progress" in mem("save", "x", expect=1).stderr


MARKERS_TEXT = (
    "Resolving a rebase conflict in deploy.yml:\n"
    "<<<<<<< HEAD\nreplicas: 3\n=======\nreplicas: 5\n>>>>>>> feature\n"
    "keep the larger count."
)


def test_conflict_markers_in_a_memory_text_are_data(store: Path) -> None:
    saved = mem("save", MARKERS_TEXT, "--key", "markers", "--title", "Deploy conflict")
    identity = saved.stdout.strip()
    assert mem_json("show", "markers")[0]["id"] == identity
    assert mem_json("search", "replicas")[0]["id"] == identity
    again = mem("save", MARKERS_TEXT + " Checked twice.", "--key", "markers")
    assert again.stdout.strip() == identity  # an update, not a duplicate
    assert len(mem_json("list")) == 1
    assert mem("doctor").stdout.strip().splitlines()[-1] == "The store is healthy."
    # Committed by hand through the pre-commit hook, it is accepted the same way.
    path = next((store / "observations").rglob("*.md"))
    path.write_text(path.read_text().replace("Checked twice.", "Checked thrice."))
    git(store, "add", "-A")
    committed = subprocess.run(
        ["git", "commit", "-qm", "by hand"], cwd=store, capture_output=True, text=True
    )
    assert committed.returncode == 0, committed.stderr
    assert "Checked thrice" in mem_json("show", "markers")[0]["narrative"]
    assert mem("reindex", "--full").stdout.startswith("Rebuilt the index: 1 memory at ")
    assert mem_json("show", "markers")[0]["id"] == identity
