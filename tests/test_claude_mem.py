"""claude-mem's database read as memories: every type, old schemas, bad columns, read-only."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import apsw
import pytest
from hypothesis import given
from hypothesis import strategies as st

from memcli.capture.claude_mem import map_type, parse_list, project_file, read_claude_mem
from memcli.core.errors import InvalidInput, MemError
from memcli.core.model import Observation, Summary

# claude-mem's schema as its migrations leave it today (SessionStore.ts: the v21
# rebuild, then the columns later migrations add), and as its first schema (v4,
# before the hierarchical fields of v8 and the session-id renames of v17).
CURRENT_SCHEMA = """
CREATE TABLE schema_versions (id INTEGER PRIMARY KEY, version INTEGER UNIQUE NOT NULL,
  applied_at TEXT NOT NULL);
CREATE TABLE sdk_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  content_session_id TEXT NOT NULL,
  memory_session_id TEXT UNIQUE,
  project TEXT NOT NULL,
  platform_source TEXT NOT NULL DEFAULT 'claude',
  user_prompt TEXT,
  started_at TEXT NOT NULL,
  started_at_epoch INTEGER NOT NULL,
  completed_at TEXT,
  completed_at_epoch INTEGER,
  status TEXT CHECK(status IN ('active', 'completed', 'failed')) NOT NULL DEFAULT 'active',
  worker_port INTEGER, prompt_counter INTEGER DEFAULT 0, custom_title TEXT
);
CREATE TABLE observations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  memory_session_id TEXT NOT NULL,
  project TEXT NOT NULL,
  text TEXT,
  type TEXT NOT NULL,
  title TEXT,
  subtitle TEXT,
  facts TEXT,
  narrative TEXT,
  concepts TEXT,
  files_read TEXT,
  files_modified TEXT,
  prompt_number INTEGER,
  discovery_tokens INTEGER DEFAULT 0,
  created_at TEXT NOT NULL,
  created_at_epoch INTEGER NOT NULL, content_hash TEXT,
  generated_by_model TEXT, relevance_count INTEGER DEFAULT 0, merged_into_project TEXT,
  agent_type TEXT, agent_id TEXT, metadata TEXT,
  FOREIGN KEY(memory_session_id) REFERENCES sdk_sessions(memory_session_id)
    ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX idx_observations_project ON observations(project);
CREATE VIRTUAL TABLE observations_fts USING fts5(title, subtitle, narrative, text, facts,
  concepts, content='observations', content_rowid='id');
CREATE TRIGGER observations_ai AFTER INSERT ON observations BEGIN
  INSERT INTO observations_fts(rowid, title, subtitle, narrative, text, facts, concepts)
  VALUES (new.id, new.title, new.subtitle, new.narrative, new.text, new.facts, new.concepts);
END;
CREATE TABLE session_summaries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  memory_session_id TEXT NOT NULL,
  project TEXT NOT NULL,
  request TEXT,
  investigated TEXT,
  learned TEXT,
  completed TEXT,
  next_steps TEXT,
  files_read TEXT,
  files_edited TEXT,
  notes TEXT,
  prompt_number INTEGER,
  discovery_tokens INTEGER DEFAULT 0,
  created_at TEXT NOT NULL,
  created_at_epoch INTEGER NOT NULL, merged_into_project TEXT,
  FOREIGN KEY(memory_session_id) REFERENCES sdk_sessions(memory_session_id)
    ON DELETE CASCADE ON UPDATE CASCADE
);
"""

V4_SCHEMA = """
CREATE TABLE sdk_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  claude_session_id TEXT UNIQUE NOT NULL,
  sdk_session_id TEXT UNIQUE,
  project TEXT NOT NULL,
  user_prompt TEXT,
  started_at TEXT NOT NULL,
  started_at_epoch INTEGER NOT NULL,
  completed_at TEXT,
  completed_at_epoch INTEGER,
  status TEXT CHECK(status IN ('active', 'completed', 'failed')) NOT NULL DEFAULT 'active'
);
CREATE TABLE observations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  sdk_session_id TEXT NOT NULL,
  project TEXT NOT NULL,
  text TEXT NOT NULL,
  type TEXT NOT NULL CHECK(type IN ('decision', 'bugfix', 'feature', 'refactor', 'discovery')),
  created_at TEXT NOT NULL,
  created_at_epoch INTEGER NOT NULL
);
CREATE TABLE session_summaries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  sdk_session_id TEXT UNIQUE NOT NULL,
  project TEXT NOT NULL,
  request TEXT,
  investigated TEXT,
  learned TEXT,
  completed TEXT,
  next_steps TEXT,
  files_read TEXT,
  files_edited TEXT,
  notes TEXT,
  created_at TEXT NOT NULL,
  created_at_epoch INTEGER NOT NULL
);
"""

EPOCH_MS = 1_763_800_000_000  # 2025-11-22T08:26:40Z


def make_db(path: Path, schema: str = CURRENT_SCHEMA, *, wal: bool = True) -> apsw.Connection:
    conn = apsw.Connection(str(path))
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(schema)
    return conn


def insert(conn: apsw.Connection, table: str, **values: Any) -> int:
    names = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    conn.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", tuple(values.values()))
    return int(conn.last_insert_rowid())


def observation(conn: apsw.Connection, **values: Any) -> int:
    row: dict[str, Any] = {
        "memory_session_id": "sdk-1",
        "project": "shop",
        "type": "discovery",
        "created_at": "2025-11-22T08:26:40.123Z",
        "created_at_epoch": EPOCH_MS,
    }
    row.update(values)
    return insert(conn, "observations", **row)


def summary(conn: apsw.Connection, **values: Any) -> int:
    row: dict[str, Any] = {
        "memory_session_id": "sdk-1",
        "project": "shop",
        "created_at": "2025-11-22T08:26:40.123Z",
        "created_at_epoch": EPOCH_MS,
    }
    row.update(values)
    return insert(conn, "session_summaries", **row)


def closed_db(tmp_path: Path, **kwargs: Any) -> Path:
    """A current claude-mem database with one session and a few rows, closed."""
    path = tmp_path / "claude-mem" / "claude-mem.db"
    path.parent.mkdir()
    conn = make_db(path, **kwargs)
    insert(
        conn,
        "sdk_sessions",
        content_session_id="claude-session-1",
        memory_session_id="sdk-1",
        project="shop",
        started_at="2025-11-22T08:00:00Z",
        started_at_epoch=EPOCH_MS,
    )
    observation(
        conn,
        title="Cart totals round per line",
        narrative="Totals are rounded on each line, not on the sum.",
        facts=json.dumps(["rounding happens in cart.py"]),
        concepts=json.dumps(["how-it-works"]),
        files_modified=json.dumps(["src/cart.py"]),
        files_read=json.dumps(["/home/ana/code/shop/src/tax.py", "/etc/hosts"]),
    )
    summary(conn, request="Fix the cart totals", learned="Rounding is per line")
    observation(conn, project="blog", title="Another project's row", narrative="x")
    conn.close()
    return path


def records(db: Path, project: str | None = "shop") -> list[Any]:
    return list(read_claude_mem(db, project))


def test_an_observation_becomes_a_memory_with_its_fields(tmp_path: Path) -> None:
    db = closed_db(tmp_path)
    first, second = records(db)
    assert re.fullmatch(r"claude-mem:observations:[0-9a-f]{24}", first.source_id)
    assert first.aliases == ("claude-mem:observations:1@2025-11-22T08:26:40Z",)
    assert first.problem is None and first.skip is None
    memory = first.record
    assert isinstance(memory, Observation)
    assert memory.title == "Cart totals round per line"
    assert memory.type == "discovery" and memory.extra == {"claude_mem_type": "discovery"}
    assert memory.created == "2025-11-22T08:26:40Z"
    assert memory.session == "claude-session-1"  # the agent's session, not claude-mem's own
    assert memory.facts == ["rounding happens in cart.py"]
    assert memory.concepts == ["how-it-works"]
    assert memory.files == ["src/cart.py", "src/tax.py"]
    assert memory.narrative.startswith("Totals are rounded on each line")
    assert "Other files: /etc/hosts" in memory.narrative
    assert memory.id[:10] == first.record.id[:10]
    Observation.from_markdown(memory.to_markdown(), "x.md")  # a valid memory file

    assert re.fullmatch(r"claude-mem:session_summaries:[0-9a-f]{24}", second.source_id)
    assert isinstance(second.record, Summary)
    assert second.record.request == "Fix the cart totals"
    assert second.record.learned == "Rounding is per line"
    assert second.record.title == "Fix the cart totals"
    assert "## Request" in second.record.narrative
    Summary.from_markdown(second.record.to_markdown(), "s.md")


@pytest.mark.parametrize(
    ("claude_type", "concepts", "expected"),
    [
        ("decision", [], "decision"),
        ("discovery", [], "discovery"),
        ("bugfix", [], "gotcha"),
        ("feature", [], "discovery"),  # a log of work done, not background: not context
        ("refactor", [], "pattern"),
        ("change", [], "discovery"),
        ("security_alert", [], "gotcha"),
        ("security_note", [], "gotcha"),
        ("sensitive", [], "context"),
        ("change", ["gotcha"], "gotcha"),
        ("feature", ["what-changed", "pattern"], "pattern"),
        ("bugfix", ["pattern"], "pattern"),
        ("decision", ["gotcha"], "decision"),
        ("entity", [], "discovery"),
        ("", [], "discovery"),
        (None, [], "discovery"),
        ("preference", [], "preference"),
    ],
)
def test_claude_mem_types_map_to_mems(
    claude_type: str | None, concepts: list[str], expected: str
) -> None:
    assert map_type(claude_type, concepts) == expected


def test_every_type_bad_json_and_nulls_each_give_a_record_or_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    conn = make_db(path)
    for kind in ("bugfix", "feature", "refactor", "change", "discovery", "decision",
                 "security_alert", "security_note", "sensitive", "timeline-event"):  # fmt: skip
        observation(conn, type=kind, title=f"A {kind}", narrative=f"About the {kind}.")
    bad = observation(
        conn,
        title="Bad JSON",
        facts="not [json",
        concepts='{"a": 1}',
        files_read="src/a.py",
        files_modified="[1, null",
    )
    nulls = observation(conn, title=None, subtitle=None, narrative=None, text=None)
    only_subtitle = observation(conn, subtitle="Only a subtitle here")
    only_text = observation(conn, text="Legacy text only. With a second sentence.")
    no_time = observation(conn, title="No time", created_at="whenever", created_at_epoch=-5)
    seconds = observation(conn, title="Epoch in seconds", created_at_epoch=1_700_000_000)
    nul_byte = observation(conn, title="Has\x00a NUL", narrative="text\x00here")
    bad_utf8 = observation(conn, title=b"caf\xe9 bytes", narrative="ok")
    secret = observation(conn, title="Key", narrative="token ghp_" + "a1B2" * 9)
    empty_summary = summary(conn)
    notes_only = summary(conn, notes="Only notes", files_edited='["a.py"]')
    conn.close()

    by_id = {item.label.split(":")[0]: item for item in records(path)}
    assert len(by_id) == 21
    types = [by_id[f"observation {n}"].record.type for n in range(1, 11)]
    assert types == ["gotcha", "discovery", "pattern", "discovery", "discovery", "decision",
                     "gotcha", "gotcha", "context", "discovery"]  # fmt: skip
    assert by_id["observation 10"].record.extra == {"claude_mem_type": "timeline-event"}

    kept = by_id[f"observation {bad}"].record
    assert kept.facts == ["not [json"]
    assert kept.concepts == ['{"a": 1}']
    assert kept.files == []
    # No narrative: the facts stand for it; file columns that are not JSON are kept as text.
    assert kept.narrative == "- not [json\n\nOther files: [1, null, src/a.py"

    empty = by_id[f"observation {nulls}"]
    assert empty.record is None and empty.skip == "empty in claude-mem"
    assert by_id[f"observation {only_subtitle}"].record.title == "Only a subtitle here"
    assert by_id[f"observation {only_text}"].record.title == "Legacy text only"
    failed = by_id[f"observation {no_time}"]
    assert failed.record is None and "created_at" in (failed.problem or "")
    assert by_id[f"observation {seconds}"].record.created == "2023-11-14T22:13:20Z"
    assert by_id[f"observation {nul_byte}"].record.title == "Hasa NUL"
    assert by_id[f"observation {bad_utf8}"].record.title == "caf\ufffd bytes"
    assert "ghp_" in by_id[f"observation {secret}"].record.narrative  # screened later
    assert by_id[f"summary {empty_summary}"].skip == "empty in claude-mem"
    notes = by_id[f"summary {notes_only}"].record
    assert notes.learned == "Only notes" and "## Files edited\n\n- a.py" in notes.narrative
    assert by_id[f"observation {nulls}"].record is None
    assert by_id[f"observation {only_text}"].record.session == "sdk-1"


def test_the_first_schema_without_titles_reads_from_text(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = make_db(path, V4_SCHEMA, wal=False)
    insert(
        conn,
        "sdk_sessions",
        claude_session_id="claude-1",
        sdk_session_id="sdk-old",
        project="shop",
        started_at="2024-01-01T00:00:00Z",
        started_at_epoch=1_704_067_200_000,
    )
    insert(conn, "observations", sdk_session_id="sdk-old", project="shop",
           text="Migrations run in order. Always.", type="bugfix",
           created_at="2024-01-02T10:00:00.000Z", created_at_epoch=1_704_189_600_000)  # fmt: skip
    insert(conn, "session_summaries", sdk_session_id="sdk-old", project="shop",
           request="Speed up tests", created_at="2024-01-02T11:00:00Z",
           created_at_epoch=1_704_193_200_000)  # fmt: skip
    conn.close()
    first, second = records(path)
    assert first.record.title == "Migrations run in order"
    assert first.record.type == "gotcha"
    assert first.record.session == "sdk-old"
    assert first.record.created == "2024-01-02T10:00:00Z"
    assert second.record.request == "Speed up tests"


def test_a_database_with_only_one_of_the_tables_gives_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "part.db"
    conn = apsw.Connection(str(path))
    conn.execute(
        "CREATE TABLE observations (id INTEGER PRIMARY KEY, project TEXT, title TEXT, "
        "created_at TEXT)"
    )
    insert(conn, "observations", project="shop", title="Bare row", created_at="2025-01-01")
    conn.close()
    (item,) = records(path)
    assert item.record.title == "Bare row" and item.record.created == "2025-01-01T00:00:00Z"
    assert item.record.extra == {}


def test_project_filter_and_the_projects_named_when_none_match(tmp_path: Path) -> None:
    db = closed_db(tmp_path)
    (only,) = records(db, "blog")
    assert only.record.title == "Another project's row"
    assert len(records(db, None)) == 3
    with pytest.raises(InvalidInput, match=r"no rows for project 'nope'.*shop \(2\), blog \(1\)"):
        read_claude_mem(db, "nope")


def test_rows_merged_into_a_project_belong_to_it(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    conn = make_db(path)
    observation(conn, project="shop-old", merged_into_project="shop", title="Moved row")
    conn.close()
    (item,) = records(path, "shop")
    assert item.record.title == "Moved row"


def _snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(directory.iterdir())}


@pytest.mark.parametrize("wal", [True, False])
def test_reading_changes_no_byte_and_adds_no_file(tmp_path: Path, wal: bool) -> None:
    db = closed_db(tmp_path, wal=wal)
    before = _snapshot(db.parent)
    assert list(before) == ["claude-mem.db"]
    assert len(records(db, None)) == 3
    assert _snapshot(db.parent) == before


def test_a_database_claude_mem_has_open_is_read_with_its_wal(tmp_path: Path) -> None:
    db = closed_db(tmp_path)
    writer = apsw.Connection(str(db))
    observation(writer, title="Only in the WAL so far", narrative="fresh")
    assert Path(f"{db}-wal").exists()
    titles = [item.record.title for item in records(db)]
    assert "Only in the WAL so far" in titles
    writer.close()


def crashed_db(tmp_path: Path) -> Path:
    """A database claude-mem died with: rows in its -wal, no -shm (mem reads a private copy)."""
    db = closed_db(tmp_path)
    writer = apsw.Connection(str(db))
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    observation(writer, title="Only in the WAL so far", narrative="fresh")
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    for name in ("claude-mem.db", "claude-mem.db-wal"):
        (crashed / name).write_bytes((db.parent / name).read_bytes())
    writer.close()
    return crashed / "claude-mem.db"


def test_a_crashed_claude_mem_s_wal_is_read_without_a_file_appearing(tmp_path: Path) -> None:
    """-wal left behind without -shm (claude-mem died): its rows count, no -shm is created."""
    db = crashed_db(tmp_path)
    crashed = db.parent
    before = _snapshot(crashed)
    assert list(before) == ["claude-mem.db", "claude-mem.db-wal"]
    titles = [item.record.title for item in records(db)]
    assert "Only in the WAL so far" in titles
    assert _snapshot(crashed) == before


def test_a_read_only_database_file_and_directory(tmp_path: Path) -> None:
    db = closed_db(tmp_path)
    db.chmod(0o444)
    db.parent.chmod(0o555)
    try:
        assert len(records(db)) == 2
    finally:
        db.parent.chmod(0o755)
        db.chmod(0o644)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "does not exist"),
        (b"", "is not an SQLite database"),
        (b"hello, not a database" * 10, "is not an SQLite database"),
        (b"SQLite format 3\x00" + b"\xff" * 200, "cannot be"),
    ],
)
def test_what_is_not_claude_mems_database_is_one_error(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "x.db"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(MemError, match=message) as caught:
        read_claude_mem(path, None)
    assert "\n" not in str(caught.value)


def test_a_directory_or_another_sqlite_database_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="is a directory"):
        read_claude_mem(tmp_path, None)
    other = tmp_path / "other.db"
    conn = apsw.Connection(str(other))
    conn.execute("CREATE TABLE t (a)")
    conn.close()
    with pytest.raises(InvalidInput, match="not claude-mem's database"):
        read_claude_mem(other, None)


def test_a_locked_database_is_one_error(tmp_path: Path) -> None:
    db = closed_db(tmp_path, wal=False)
    holder = apsw.Connection(str(db))
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(MemError, match="locked"):
            read_claude_mem(db, "shop", wait_ms=20)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/a.py", "src/a.py"),
        ("./src//a.py", "src/a.py"),
        ("/home/ana/code/shop/src/a.py", "src/a.py"),
        ("/home/ana/shop/x/shop/b.py", "b.py"),
        ("/etc/passwd", None),
        ("../secret", None),
        ("C:\\work\\shop\\a.py", "a.py"),
        ("", None),
    ],
)
def test_file_paths_become_project_relative_or_none(path: str, expected: str | None) -> None:
    assert project_file(path, "shop") == expected


@given(st.text(max_size=200))
def test_any_list_column_parses_to_strings_without_raising(text: str) -> None:
    items, _valid = parse_list(text)
    assert all(isinstance(item, str) and item.strip() for item in items)


@given(st.lists(st.text(min_size=1).filter(str.strip), max_size=10))
def test_a_json_list_of_strings_comes_back_whole(items: list[str]) -> None:
    assert parse_list(json.dumps(items)) == (items, True)


def _import(db: Path, *args: str, expect: int = 0) -> Any:
    from tests.conftest import mem

    result = mem("import", "claude-mem", str(db), "--project", "shop", "--json", *args,
                 expect=expect)  # fmt: skip
    return json.loads(result.stdout)


def _commits(store: Path) -> int:
    import subprocess

    done = subprocess.run(
        ["git", "-C", str(store), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def test_the_whole_import_once_searchable_idempotent_and_revertible(
    tmp_path: Path, store: Path
) -> None:
    import subprocess

    from tests.conftest import mem

    db = closed_db(tmp_path)
    conn = apsw.Connection(str(db))
    observation(conn, title="Leaked", narrative="token ghp_" + "a1B2c3D4" * 5)
    observation(conn, title="No time", created_at="never", created_at_epoch=-1)
    summary(conn)
    conn.close()
    before = _snapshot(db.parent)
    commits = _commits(store)

    dry = _import(db, "--dry-run", expect=1)
    assert (dry["imported"], dry["failed"], _commits(store)) == (2, 2, commits)

    report = _import(db, expect=1)  # failed rows: exit 1 after the import
    assert report["imported"] == 2 and _commits(store) == commits + 1
    assert report["skipped_by_reason"] == {"empty in claude-mem": 1}
    problems = {item["row"]: item["problem"] for item in report["failures"]}
    assert set(problems) == {"observation 3: Leaked", "observation 4"}
    assert "secret" in problems["observation 3: Leaked"].lower()
    assert "created_at" in problems["observation 4"]

    found = mem("search", "rounded", "--json")
    assert "Cart totals round per line" in found.output
    texts = [p.read_text() for p in store.glob("observations/**/*.md")]
    (stored,) = [text for text in texts if "Cart totals" in text]
    assert "claude_mem_type: discovery" in stored
    assert re.search(r'imported_from: "claude-mem:observations:[0-9a-f]{24}"', stored)
    mem("reindex", "--check")

    again = _import(db, expect=1)
    assert again["imported"] == 0 and again["skipped_by_reason"]["already imported"] == 2
    assert _commits(store) == commits + 1
    assert _snapshot(db.parent) == before

    subprocess.run(["git", "-C", str(store), "revert", "--no-edit", "HEAD"], check=True,
                   capture_output=True)  # fmt: skip
    assert "Cart totals" not in mem("search", "rounded").output


def test_the_command_names_a_bad_database_or_project_in_one_line(
    tmp_path: Path, store: Path
) -> None:
    from tests.conftest import mem

    missing = mem("import", "claude-mem", str(tmp_path / "none.db"), "--all-projects", expect=1)
    assert missing.output.count("\n") == 1 and "does not exist" in missing.output
    db = closed_db(tmp_path)
    wrong = mem("import", "claude-mem", str(db), "--project", "nope", expect=1)
    assert "its projects (rows): shop (2), blog (1)" in wrong.output
    assert wrong.output.count("\n") == 1


def test_the_store_s_project_is_imported_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run in the project "shop": claude-mem's rows of "shop" come, not "blog"'s."""
    from tests.conftest import git, mem

    db = closed_db(tmp_path)
    project = tmp_path / "shop"
    project.mkdir()
    git(project, "init", "-q")
    monkeypatch.delenv("MEM_STORE", raising=False)
    monkeypatch.chdir(project)
    by_default = json.loads(mem("import", "claude-mem", str(db), "--dry-run", "--json").stdout)
    every = json.loads(
        mem("import", "claude-mem", str(db), "--all-projects", "--dry-run", "--json").stdout
    )
    assert by_default["imported"] == 2 and every["imported"] == 3
    both = mem("import", "claude-mem", str(db), "--project", "blog", "--all-projects", expect=2)
    assert "exclude each other" in both.output


def test_a_store_without_a_project_name_asks_which(tmp_path: Path, store: Path) -> None:
    from tests.conftest import mem

    db = closed_db(tmp_path)
    result = mem("import", "claude-mem", str(db), expect=2)
    assert "--project NAME or --all-projects" in result.output


def _waiting_for(pid: int, lock: Path) -> bool:
    """Whether the process has the store's write lock file open (it is waiting for it)."""
    try:
        links = [os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()]
    except OSError:
        return False
    return str(lock) in links


def test_two_imports_of_one_database_at_once_import_each_row_once(
    tmp_path: Path, store: Path
) -> None:
    """Both check the rows, then wait for the lock: the second finds the first's rows."""
    import subprocess
    import time

    from memcli.store.files import Store
    from tests.conftest import mem, mem_executable

    db = tmp_path / "claude-mem.db"
    conn = make_db(db)
    for n in range(50):
        observation(conn, title=f"Row {n} of claude-mem", narrative=f"Narrative {n}.")
    conn.close()
    mem("save", "Before the imports")
    args = [mem_executable(), "import", "claude-mem", str(db), "--project", "shop"]
    lock = store / ".cache" / "write.lock"
    with Store(store).write_lock():
        imports = [
            subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        deadline = time.monotonic() + 60
        while not all(_waiting_for(p.pid, lock) for p in imports):
            assert time.monotonic() < deadline and all(p.poll() is None for p in imports)
            time.sleep(0.01)
    outputs = [p.communicate(timeout=60) for p in imports]
    assert [p.returncode for p in imports] == [0, 0], outputs
    reports = sorted(out.splitlines()[0] for out, _ in outputs)
    assert reports == ["50 rows: imported 0, skipped 50, failed 0",
                       "50 rows: imported 50, skipped 0, failed 0"]  # fmt: skip
    assert len(list(store.glob("observations/**/*.md"))) == 51


def _one_row_db(path: Path, title: str, epoch: int = EPOCH_MS) -> Path:
    conn = make_db(path)
    observation(conn, title=title, narrative=f"{title}, in detail.", created_at_epoch=epoch)
    conn.close()
    return path


def test_row_one_of_a_second_database_is_imported_too(tmp_path: Path, store: Path) -> None:
    first = _one_row_db(tmp_path / "first.db", "Row one of the first database")
    second = _one_row_db(tmp_path / "second.db", "Row one of the second database")
    assert _import(first)["imported"] == 1
    assert _import(second)["imported"] == 1
    assert len(list(store.glob("observations/**/*.md"))) == 2


def test_a_moved_database_is_still_recognised(tmp_path: Path, store: Path) -> None:
    db = closed_db(tmp_path)
    assert _import(db)["imported"] == 2
    moved = tmp_path / "elsewhere" / "renamed.db"
    moved.parent.mkdir()
    db.rename(moved)
    again = _import(moved)
    assert again["imported"] == 0 and again["skipped_by_reason"] == {"already imported": 2}


def test_rows_without_an_id_are_each_imported_once(tmp_path: Path, store: Path) -> None:
    db = tmp_path / "no-ids.db"
    conn = apsw.Connection(str(db))
    conn.execute(
        "CREATE TABLE observations (id INTEGER, project TEXT, title TEXT, created_at TEXT)"
    )
    for n in range(3):
        insert(conn, "observations", project="shop", title=f"Row {n}", created_at="2025-01-01")
    conn.close()
    assert _import(db)["imported"] == 3
    again = _import(db)
    assert again["imported"] == 0 and again["skipped_by_reason"] == {"already imported": 3}


def test_a_store_imported_under_the_row_id_alone_is_not_imported_again(
    tmp_path: Path, store: Path
) -> None:
    """mem once named a row ``claude-mem:<table>:<id>``: those imports are still known."""
    from tests.conftest import git

    db = closed_db(tmp_path)
    assert _import(db)["imported"] == 2
    tables = {
        "Cart totals round per line": "observations:1",
        "Fix the cart totals": "session_summaries:1",
    }
    for path in store.glob("*/**/*.md"):
        text = path.read_text()
        title = next(t for t in tables if t in text)
        old = f'imported_from: "claude-mem:{tables[title]}"'
        path.write_text(re.sub(r"imported_from: .*", old, text))
    git(store, "commit", "-qam", "as an older mem wrote them", "--no-verify", "--allow-empty")
    again = _import(db)
    assert again["imported"] == 0 and again["skipped_by_reason"] == {"already imported": 2}
    other = _one_row_db(tmp_path / "other.db", "Another database's row 1", EPOCH_MS + 60_000)
    assert _import(other)["imported"] == 1


def test_a_refused_row_is_reported_without_its_secret(tmp_path: Path, store: Path) -> None:
    from tests.conftest import mem

    token = "ghp_" + "a1B2c3D4e5F6" * 3
    db = tmp_path / "claude-mem.db"
    conn = make_db(db)
    # The report names each row by its title's first 60 characters: the token is cut there.
    observation(conn, title=f"The deploy job reads its GitHub token {token}", narrative="x")
    conn.close()
    result = mem("import", "claude-mem", str(db), "--project", "shop", expect=1)
    assert "refusing to store likely secrets" in result.output
    assert token[:8] not in result.output and "[REDACTED:" in result.output
