"""The journal and restoring forgotten memories, read from the store's git history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import git, mem, mem_json


def test_the_journal_reads_like_a_diary(store: Path) -> None:
    mem("save", "Use Redis for the session cache", "--type", "decision", "--key", "cache")
    mem("save", "Use Memcached for the session cache", "--key", "cache")
    other = mem("save", "A memory that will go", "--type", "gotcha").stdout.strip()
    mem("forget", other)
    path = next((store / "observations").rglob("*session-cache*"))
    path.write_text(path.read_text() + "\nEdited by hand.\n")
    git(store, "commit", "-qam", "Clarify the cache decision")
    entries = mem_json("log")
    assert [(e["action"], e["type"], e["title"]) for e in entries] == [
        ("hand edit", "", "Clarify the cache decision"),
        ("forget", "gotcha", "A memory that will go"),
        ("save", "gotcha", "A memory that will go"),
        ("update", "decision", "Use Redis for the session cache"),
        ("save", "decision", "Use Redis for the session cache"),
    ]
    assert entries[0]["author"] == "Test Person"
    lines = mem("log", "-n", "2").stdout.splitlines()
    assert len(lines) == 2 and "hand edit" in lines[0] and "Test Person" in lines[0]


def test_one_memorys_history_follows_renames(store: Path) -> None:
    mem("save", "A memory that moves", "--key", "mover")
    path = next((store / "observations").rglob("*.md"))
    git(store, "mv", str(path), str(path.with_name("moved-by-hand.md")))
    git(store, "commit", "-qm", "Rename it")
    mem("save", "Another memory")
    actions = [e["action"] for e in mem_json("log", "mover")]
    assert actions == ["hand edit", "save"]


def test_restore_brings_a_forgotten_memory_back(store: Path) -> None:
    identity = mem(
        "save", "A memory worth keeping after all", "--fact", "it matters", "--key", "keeper"
    ).stdout.strip()
    original = next((store / "observations").rglob("*.md")).read_text()
    mem("forget", "keeper")
    assert mem_json("search", "worth keeping") == []
    out = mem("restore", identity[:10]).stdout
    assert out.startswith(f"restored {identity}")
    assert next((store / "observations").rglob("*.md")).read_text() == original
    assert git(store, "log", "-1", "--format=%s").strip() == (
        "restore: discovery: A memory worth keeping after all"
    )
    assert mem_json("show", "keeper")[0]["facts"] == ["it matters"]
    refused = mem("restore", identity, expect=1)
    assert "is not forgotten" in refused.stderr


def test_restore_finds_a_memory_deleted_by_hand(store: Path) -> None:
    identity = mem("save", "Deleted with git rm").stdout.strip()
    git(store, "rm", "-q", str(next((store / "observations").rglob("*.md"))))
    git(store, "commit", "-qm", "remove by hand")
    mem("restore", identity)
    assert [m["id"] for m in mem_json("list")] == [identity]


@pytest.mark.parametrize("ref", ["01JZZZZZZZZZZZZZZZZZZZZZZZ", "01JZZZZZ"])
def test_restore_of_an_unknown_id_is_a_clear_error(store: Path, ref: str) -> None:
    mem("save", "Something")
    result = mem("restore", ref, expect=1)
    assert "no forgotten memory with the id" in result.stderr
    assert json.loads(mem("list", "--json").stdout)


def test_diff_shows_what_was_learned_changed_and_forgotten(store: Path) -> None:
    mem(
        "save",
        "Use Redis for sessions",
        "--type",
        "decision",
        "--key",
        "cache",
        "--fact",
        "Redis 7",
        "--fact",
        "TTL one hour",
    )
    gone = mem("save", "A memory that will be forgotten").stdout.strip()
    start = git(store, "rev-parse", "HEAD").strip()
    mem(
        "save",
        "Use Memcached for sessions",
        "--key",
        "cache",
        "--fact",
        "Memcached 1.6",
        "--fact",
        "TTL one hour",
        "--type",
        "pattern",
    )
    added = mem("save", "A brand new memory", "--type", "gotcha").stdout.strip()
    mem("forget", gone)
    result = mem_json("diff", start)
    assert [a["id"] for a in result["added"]] == [added]
    assert [f["id"] for f in result["forgotten"]] == [gone]
    (change,) = result["changed"]
    assert change["fields"] == {"type": {"old": "decision", "new": "pattern"}}
    assert change["facts_added"] == ["Memcached 1.6"]
    assert change["facts_removed"] == ["Redis 7"]
    assert "-Use Redis for sessions" in change["narrative_diff"]
    assert "+Use Memcached for sessions" in change["narrative_diff"]
    text = mem("diff", start).stdout
    assert "+ added      [gotcha] A brand new memory" in text
    assert "    type: 'decision' -> 'pattern'" in text and "    - fact: Redis 7" in text
    assert "- forgotten  [discovery] A memory that will be forgotten" in text


def test_diff_without_revisions_starts_from_the_last_diff(store: Path) -> None:
    mem("save", "First")
    assert "+ added" in mem("diff").stdout
    assert "No memory changes" in mem("diff").stdout
    mem("save", "Second")
    mem("save", "Third")
    titles = [a["title"] for a in mem_json("diff")["added"]]
    assert titles == ["Second", "Third"]


def test_a_moved_memory_is_not_added_and_forgotten(store: Path) -> None:
    mem("save", "A memory that moves")
    start = git(store, "rev-parse", "HEAD").strip()
    path = next((store / "observations").rglob("*.md"))
    git(store, "mv", str(path), str(path.with_name("moved.md")))
    git(store, "commit", "-qm", "move")
    result = mem_json("diff", start)
    assert result["added"] == result["forgotten"] == result["changed"] == []


@pytest.mark.parametrize(
    "revs",
    [
        ["--output={target}", "HEAD"],
        ["HEAD", "--output={target}"],
        ["--no-index"],
        ["HEAD~99"],
        ["HEAD:observations"],
    ],
)
def test_diff_takes_only_revisions(store: Path, tmp_path: Path, revs: list[str]) -> None:
    mem("save", "A memory")
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    given = [r.format(target=target) for r in revs]
    result = mem("diff", "--", *given, expect=1)
    assert result.stderr.startswith("Error: ") and "not a revision" in result.stderr
    assert target.read_text() == "keep me\n"


def test_diff_refuses_a_bookmark_that_is_not_a_revision(store: Path, tmp_path: Path) -> None:
    mem("save", "A memory")
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    (store / ".cache").mkdir(exist_ok=True)
    (store / ".cache" / "diff-bookmark").write_text(f"--output={target}\n")
    result = mem("diff", expect=1)
    assert "not a revision" in result.stderr
    assert target.read_text() == "keep me\n"


def test_restore_finds_a_memory_by_its_id_whatever_its_file_name(fixture_store: Path) -> None:
    original = (
        fixture_store / "observations/2026/11/2026-11-20-hand-written-context.md"
    ).read_text()
    mem("forget", "01JDK2M3")
    assert mem("restore", "01JDK2M3").stdout.startswith("restored 01JDK2M3N4P5Q6R7S8T9V0W1X2")
    (restored,) = [
        p for p in (fixture_store / "observations").rglob("*.md") if "01JDK2M3" in p.read_text()
    ]
    assert restored.read_text() == original


def test_restore_finds_a_file_with_spaces_deleted_by_hand(store: Path) -> None:
    identity = mem("save", "Renamed, then deleted").stdout.strip()
    path = next((store / "observations").rglob("*.md"))
    git(store, "mv", str(path), str(path.with_name("a name with spaces.md")))
    git(store, "commit", "-qm", "rename by hand")
    git(store, "rm", "-q", str(path.with_name("a name with spaces.md")))
    git(store, "commit", "-qm", "remove by hand")
    mem("restore", identity)
    assert [m["id"] for m in mem_json("list")] == [identity]


def test_restore_never_gives_a_key_two_memories(store: Path) -> None:
    first = mem("save", "Deploys go out on Tuesdays", "--key", "deploy").stdout.strip()
    mem("forget", "deploy")
    mem("save", "Deploys go out on Thursdays now", "--key", "deploy")
    result = mem("restore", first, expect=1)
    assert "deploy" in result.stderr and "already" in result.stderr
    assert [m["title"] for m in mem_json("list")] == ["Deploys go out on Thursdays now"]


def test_a_forgotten_memory_is_restored_and_logged_by_its_key_or_id(store: Path) -> None:
    identity = mem("save", "Staging deploys need a ticket", "--key", "staging").stdout.strip()
    mem("save", "Staging deploys need a ticket and a reviewer", "--key", "staging")
    mem("save", "Unrelated memory about staging servers", "--key", "servers")
    mem("forget", "staging")
    for ref in ("staging", identity, identity[:12]):
        actions = [e["action"] for e in mem_json("log", ref)]
        assert actions == ["forget", "update", "save"], ref
    out = mem("restore", "staging").stdout
    assert out.startswith(f"restored {identity}")
    assert "a reviewer" in mem_json("show", "staging")[0]["narrative"]  # as it was last


def test_restore_of_an_unknown_key_is_a_clear_error(store: Path) -> None:
    mem("save", "Something", "--key", "present")
    mem("forget", "present")
    result = mem("restore", "never-had-it", expect=1)
    assert "no forgotten memory with the id or key 'never-had-it'" in result.stderr


def test_the_journal_shows_the_id_of_each_memory(store: Path) -> None:
    identity = mem("save", "A memory that will go", "--key", "gone").stdout.strip()
    mem("forget", "gone")
    lines = mem("log").stdout.splitlines()
    assert len(lines) == 2 and all(identity in line for line in lines)
    assert [e["ids"] for e in mem_json("log")] == [[identity], [identity]]
