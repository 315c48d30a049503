"""The guard table beside each layer's index: written at every refresh, active guards only."""

from __future__ import annotations

import json
from pathlib import Path

from memcli.core import guard_table
from memcli.core.guards import Guard

from .conftest import git, guarded, mem, write_store

NPM = Guard("Bash", "npm *", "deny")
ENV = Guard("Read", ".env", "ask")


IDS = ("01JD0000000000000000000001", "01JD0000000000000000000002", "01JD0000000000000000000003")


def store_with_guards(tmp_path: Path) -> Path:
    return write_store(
        tmp_path / "store",
        [
            guarded(IDS[0], "Use pnpm, never npm", NPM),
            guarded(IDS[1], "Never read .env files", ENV, created="2026-11-02T10:00:00Z"),
            guarded(IDS[2], "No guard here", created="2026-11-03T10:00:00Z"),
        ],
    )


def table_of(root: Path) -> guard_table.Table:
    table = guard_table.read(str(root / ".cache" / guard_table.TABLE_FILE))
    assert table is not None
    return table


def test_a_rebuild_writes_the_active_guards_with_the_store_state(tmp_path: Path) -> None:
    root = store_with_guards(tmp_path)
    table = table_of(root)
    assert [(r.id, r.tool, r.glob, r.action, r.layer) for r in table.rows] == [
        (IDS[0], "Bash", "npm *", "deny", "project"),
        (IDS[1], "Read", ".env", "ask", "project"),
    ]
    assert table.rows[0].title == "Use pnpm, never npm"
    assert table.rows[0].text == "Use pnpm, never npm, as agreed"
    assert table.state == "head:" + git(root, "rev-parse", "HEAD").strip()
    assert table.state == guard_table.store_state(str(root))


def test_forgetting_a_memory_drops_its_guards_at_once(tmp_path: Path) -> None:
    root = store_with_guards(tmp_path)
    mem("forget", IDS[0], "--store", str(root))
    table = table_of(root)
    assert [r.id for r in table.rows] == [IDS[1]]
    assert table.state == guard_table.store_state(str(root))


def test_superseding_a_memory_drops_its_guards_at_once(tmp_path: Path) -> None:
    root = store_with_guards(tmp_path)
    mem("save", "Use pnpm or yarn", "--supersedes", IDS[0], "--store", str(root))
    assert [r.id for r in table_of(root).rows] == [IDS[1]]


def test_a_memory_edited_by_hand_and_committed_is_followed(tmp_path: Path) -> None:
    root = store_with_guards(tmp_path)
    (path,) = [p for p in root.rglob("*.md") if IDS[2] in p.read_text()]
    text = path.read_text().replace(
        "---\n\n", 'guards:\n  - {tool: Write, glob: "migrations/**", action: warn}\n---\n\n', 1
    )
    path.write_text(text)
    git(root, "commit", "-qam", "a guard by hand")
    assert table_of(root).state != guard_table.store_state(str(root))  # stale until a read
    mem("list", "--store", str(root))
    rows = table_of(root).rows
    assert (rows[-1].id, rows[-1].tool, rows[-1].action) == (IDS[2], "Write", "warn")


def test_the_table_is_written_atomically_and_a_damaged_one_is_rewritten(tmp_path: Path) -> None:
    root = store_with_guards(tmp_path)
    path = root / ".cache" / guard_table.TABLE_FILE
    path.write_text("{not json")
    mem("list", "--store", str(root))
    assert len(table_of(root).rows) == 2
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_damaged_table_is_refused_when_read(tmp_path: Path) -> None:
    path = tmp_path / guard_table.TABLE_FILE
    for text in ("{not json", "[]", json.dumps({"format": 1, "state": "x", "guards": [[1]]})):
        path.write_text(text)
        try:
            guard_table.read(str(path))
        except guard_table.Damaged:
            continue
        raise AssertionError(f"{text!r} was read as a table")
    assert guard_table.read(str(tmp_path / "missing.json")) is None


def test_a_long_text_is_clipped_in_the_row() -> None:
    clipped = guard_table.clip("word " * 400)
    assert len(clipped) == guard_table.MAX_TEXT_CHARS and clipped.endswith("…")
