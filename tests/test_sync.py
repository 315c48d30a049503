"""The index follows git: hand-made commits, checkouts, reverts; corruption is repaired."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from .conftest import FIXTURE_NOW, INDEX_DAMAGE, git, mem, mem_json

QUERIES = ["git", "index", "fts5 hyphens", "review", "windows", "plumbing", "atomic", "zzz"]


@pytest.fixture(autouse=True)
def _clock_stands_still(monkeypatch: pytest.MonkeyPatch) -> None:
    """Snapshots taken seconds apart are compared whole, scores included: a score's
    recency moves with the clock, and on a busy machine its sixth decimal did."""
    monkeypatch.setenv("MEM_NOW", FIXTURE_NOW)


def snapshot() -> dict[str, Any]:
    """Everything a reader sees: every query's results and the full listing."""
    seen = {q: mem_json("search", q, "--limit", "50") for q in QUERIES}
    seen["*list*"] = mem_json("list", "--limit", "1000")
    return seen


def assert_matches_full_rebuild(store: Path) -> dict[str, Any]:
    incremental = snapshot()
    assert mem("reindex", "--check").stdout.startswith("The index matches the ")
    shutil.copy(store / ".cache/index.db", store / ".cache/incremental.db")
    mem("reindex", "--full")
    assert snapshot() == incremental
    return incremental


def test_fixture_store_is_indexed_in_full(fixture_store: Path) -> None:
    result = mem("list", "--json")
    assert "built the index from 9 memory files" in result.stderr
    listing = mem_json("list")
    assert len(listing) == 9
    assert mem_json("search", "review")[0]["title"] == (
        "The team reviews memory changes in pull requests"
    )


def test_hand_made_commit_adding_modifying_renaming_deleting(fixture_store: Path) -> None:
    before = snapshot()
    obs = fixture_store / "observations"
    plumbing = next(obs.rglob("*use-git-plumbing*"))
    plumbing.write_text(
        plumbing.read_text().replace(
            "Use git plumbing for every save", "Use git plumbing and never GitPython for saves"
        )
    )
    atomic = next(obs.rglob("*atomic-writes*"))
    git(fixture_store, "mv", str(atomic), str(obs / "2026/11/renamed-atomic.md"))
    git(fixture_store, "rm", "-q", str(next(obs.rglob("*pip-install*"))))
    new = obs / "2026/11/2026-11-21-added-by-hand.md"
    new.write_text(
        "---\nid: 01JDN0000000000000000000AA\ntype: discovery\n"
        "title: Added by hand in an editor\ncreated: 2026-11-21T09:00:00Z\n---\n"
        "Plain git commit, no mem involved.\n"
    )
    git(fixture_store, "add", "-A")
    git(fixture_store, "commit", "-q", "-m", "hand edit")

    after = assert_matches_full_rebuild(fixture_store)
    assert after != before
    titles = [e["title"] for e in after["*list*"]]
    assert "Added by hand in an editor" in titles
    assert "pip install -e is slow without a wheel cache" not in titles
    assert "Use git plumbing and never GitPython for saves" in titles
    moved = [e for e in after["*list*"] if e["title"].startswith("Atomic writes")]
    assert moved[0]["path"] == "observations/2026/11/renamed-atomic.md"


def test_checkout_of_an_older_commit_and_back(fixture_store: Path) -> None:
    original = snapshot()
    mem("save", "A memory from after the fixture", "--key", "later")
    mem("save", "Another later memory about plumbing")
    assert len(mem_json("list")) == 11
    git(fixture_store, "checkout", "-q", "HEAD~2")
    assert assert_matches_full_rebuild(fixture_store) == original
    git(fixture_store, "checkout", "-q", "main")
    assert len(assert_matches_full_rebuild(fixture_store)["*list*"]) == 11


def test_revert_is_seen(fixture_store: Path) -> None:
    original = snapshot()
    identity = mem("save", "A memory that will be reverted").stdout.strip()
    assert mem_json("show", identity)[0]["title"] == "A memory that will be reverted"
    git(fixture_store, "revert", "--no-edit", "HEAD")
    assert assert_matches_full_rebuild(fixture_store) == original


def test_invalid_file_in_a_commit_is_skipped_with_a_warning(fixture_store: Path) -> None:
    mem("list")
    bad = fixture_store / "observations/2026/11/broken.md"
    bad.write_text("---\ntitle: [unclosed\n---\n")
    git(fixture_store, "add", "-A")
    git(fixture_store, "commit", "-q", "-m", "broken file")
    result = mem("search", "git")
    assert "skipped observations/2026/11/broken.md: broken YAML frontmatter" in result.stderr
    assert result.stdout
    assert bad.read_text() == "---\ntitle: [unclosed\n---\n"


def test_history_rewritten_under_the_index_triggers_a_rebuild(fixture_store: Path) -> None:
    mem("save", "Will be rewritten away")
    mem("list")
    git(fixture_store, "reset", "-q", "--hard", "HEAD~1")
    git(fixture_store, "reflog", "expire", "--expire=now", "--all")
    git(fixture_store, "gc", "-q", "--prune=now")
    assert len(mem_json("list")) == 9


@pytest.mark.parametrize("corrupt", INDEX_DAMAGE.values(), ids=INDEX_DAMAGE.keys())
def test_a_broken_index_is_rebuilt_with_the_same_results(fixture_store: Path, corrupt: Any) -> None:
    for i in range(40):  # enough rows that the index spans many pages
        mem("save", f"Filler memory number {i} about caching and plumbing")
    before = snapshot()
    files_before = {p: p.read_bytes() for p in (fixture_store / "observations").rglob("*.md")}
    index = fixture_store / ".cache/index.db"
    mem("reindex")
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    corrupt(index)
    result = mem("search", "plumbing", "--json")
    notices = result.stderr.splitlines()
    assert len(notices) == 1 and "index" in notices[0], notices
    assert snapshot() == before
    assert {p: p.read_bytes() for p in (fixture_store / "observations").rglob("*.md")} == (
        files_before
    )


def test_a_schema_version_mismatch_rebuilds_the_index(fixture_store: Path) -> None:
    import apsw

    before = snapshot()
    db = apsw.Connection(str(fixture_store / ".cache/index.db"))
    db.pragma("user_version", 999)
    db.execute("DELETE FROM memories")
    db.close()
    assert snapshot() == before


def test_worker_processes_build_the_same_index(
    fixture_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memcli.index.loading

    obs = fixture_store / "observations/2026/11"
    (obs / "broken.md").write_text("---\ntitle: [unclosed\n---\n")
    original = next(obs.glob("*porter*")).read_text()
    (obs / "zz-duplicate.md").write_text(original.replace("Porter", "Copied"))
    git(fixture_store, "add", "-A")
    git(fixture_store, "commit", "-qm", "a broken file and a duplicate id")
    in_process = mem("reindex", "--full")
    expected = snapshot()
    monkeypatch.setattr(memcli.index.loading, "WORKER_THRESHOLD", 2)
    with_workers = mem("reindex", "--full")
    assert snapshot() == expected
    assert with_workers.stderr == in_process.stderr
    assert "skipped observations/2026/11/broken.md: broken YAML" in with_workers.stderr
    assert "zz-duplicate.md: id 01JDF1G2H3J4K5M6N7P8Q9R0S1 is already used" in (with_workers.stderr)


def test_symbolic_links_are_never_followed(fixture_store: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text(
        "---\nid: 01JDZZZZZZZZZZZZZZZZZZZZZZ\ntype: gotcha\ntitle: Secret\n"
        "created: 2026-01-01T00:00:00Z\n---\nprivate key material\n"
    )
    link = fixture_store / "observations/2026/11/link.md"
    link.symlink_to(secret)
    git(fixture_store, "add", "-A")
    git(fixture_store, "commit", "-qm", "a symlink")
    result = mem("reindex", "--full")
    assert "link.md: is a symbolic link" in result.stderr
    assert mem_json("search", "private key material", "--mode", "lexical") == []
