"""mem transcripts sync|search|show|status: the index of agent session transcripts."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import apsw
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memcli.capture.transcripts.locate import claude_project_dir
from memcli.service import transcripts as service
from memcli.store.files import Store

from .conftest import git, mem, mem_json

SESSION = "6f1c2d3e-0000-4000-8000-000000000001"
OTHER = "9a8b7c6d-0000-4000-8000-000000000002"


def record(
    kind: str, number: int, content: Any, *, session: str = SESSION, parent: int | None = None
) -> dict[str, Any]:
    return {
        "type": kind,
        "sessionId": session,
        "uuid": f"{session}-{number}",
        "parentUuid": f"{session}-{parent if parent is not None else number - 1}"
        if number > 1 or parent is not None
        else None,
        "timestamp": f"2026-03-0{1 + number % 9}T10:00:{number % 60:02d}.000Z",
        "isSidechain": False,
        "cwd": "/home/u/proj",
        "message": {"role": kind, "content": content},
    }


def conversation(session: str = SESSION, start: int = 1) -> list[dict[str, Any]]:
    n = start
    return [
        record("user", n, "Why does the upload keep timing out?", session=session),
        record(
            "assistant",
            n + 1,
            [
                {"type": "thinking", "thinking": "secret thoughts about zebras"},
                {"type": "text", "text": "Let me run the upload tests."},
                {
                    "type": "tool_use",
                    "id": f"t{n}",
                    "name": "Bash",
                    "input": {"command": "pytest tests/test_upload.py"},
                },
            ],
            session=session,
        ),
        record(
            "user",
            n + 2,
            [{"type": "tool_result", "tool_use_id": f"t{n}", "content": "1 failed: timeout"}],
            session=session,
        ),
        record(
            "assistant",
            n + 3,
            [{"type": "text", "text": "The socket timeout is 60 s in src/upload/client.py."}],
            session=session,
        ),
    ]


def write(path: Path, records: list[Any], *, mode: str = "w", end: str = "\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open(mode) as handle:
        for item in records:
            handle.write((item if isinstance(item, str) else json.dumps(item)) + end)
    return path


@pytest.fixture
def project(tmp_path: Path, store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git project (the current directory) whose Claude sessions live in CLAUDE_CONFIG_DIR."""
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    monkeypatch.chdir(root)
    return root


def session_file(project: Path, session: str = SESSION) -> Path:
    return claude_project_dir(project) / f"{session}.jsonl"


def db_path(store: Path) -> Path:
    return service.transcripts_path(Store(store))


def test_sync_search_show_and_status(project: Path, store: Path) -> None:
    write(session_file(project), conversation())
    write(session_file(project, OTHER), conversation(OTHER))
    report = mem_json("transcripts", "sync")
    assert report["messages_added"] == 8 and report["files_read"] == 2
    hits = mem_json("transcripts", "search", "socket timeout")
    assert {hit["session"] for hit in hits} == {SESSION, OTHER}
    assert hits[0]["role"] == "assistant" and "socket timeout" in hits[0]["snippet"]
    keys = {"kind", "session", "seq", "ref", "time", "role", "tools", "snippet", "score"}
    assert set(hits[0]) == keys | {"matched", "short"}
    # thinking is not indexed; a tool call's command and its tool name are
    assert mem_json("transcripts", "search", "zebras") == []
    assert mem_json("transcripts", "search", "pytest", "--tool", "Bash", "--session", SESSION[:6])
    assert {h["role"] for h in mem_json("transcripts", "search", "timeout", "--role", "tool")} == {
        "tool"
    }
    text = mem("transcripts", "search", "upload").stdout
    assert f"{SESSION[:8]}:" in text and "upload" in text
    shown = mem_json("transcripts", "show", f"{SESSION[:8]}:3", "--context", "1")
    assert [m["seq"] for m in shown["messages"]] == [2, 3, 4] and shown["session"] == SESSION
    assert "socket timeout" in mem("transcripts", "show", SESSION).stdout
    status = mem_json("transcripts", "status")
    assert (status["files"], status["sessions"], status["messages"]) == (2, 2, 8)
    assert status["last_sync"] and status["size_bytes"] > 0


def test_one_file_and_one_session_are_counted_in_the_singular(project: Path, store: Path) -> None:
    write(session_file(project), conversation())
    assert "4 messages added from 1 of 1 file (" in mem("transcripts", "sync").stdout
    assert "1 file, 1 session, 4 messages" in mem("transcripts", "status").stdout


def test_only_appended_lines_are_parsed_and_a_rewritten_file_is_read_again(
    project: Path, store: Path
) -> None:
    path = write(session_file(project), conversation())
    assert mem_json("transcripts", "sync")["messages_added"] == 4
    idle = mem_json("transcripts", "sync")
    assert (idle["files_read"], idle["messages_added"]) == (0, 0)
    # a partial last line waits for its newline
    line = json.dumps(record("user", 9, "Also the retry budget please"))
    with path.open("a") as handle:
        handle.write(line[:20])
    assert mem_json("transcripts", "sync")["messages_added"] == 0
    with path.open("a") as handle:
        handle.write(line[20:] + "\n")
    appended = mem_json("transcripts", "sync")
    assert (appended["messages_added"], appended["files_restarted"]) == (1, 0)
    assert mem_json("transcripts", "status")["messages"] == 5
    # rewritten (the same size or more, another last line): parsed again, rows replaced
    write(path, [*conversation(), record("user", 9, "Also the retry quota please")])
    again = mem_json("transcripts", "sync")
    assert again["files_restarted"] == 1 and again["messages_added"] == 5
    assert mem_json("transcripts", "status")["messages"] == 5
    assert mem_json("transcripts", "search", "budget") == []
    # shrunk: read again from the start
    write(path, conversation()[:2])
    assert mem_json("transcripts", "sync")["messages_added"] == 2
    assert mem_json("transcripts", "status")["messages"] == 2
    # replaced by another file (another inode)
    replacement = path.with_suffix(".new")
    write(replacement, conversation())
    os.replace(replacement, path)
    assert mem_json("transcripts", "sync")["files_restarted"] == 1
    assert mem_json("transcripts", "status")["messages"] == 4


def test_codex_rollouts_of_other_projects_are_remembered_unread(
    project: Path, store: Path, tmp_path: Path
) -> None:
    day = tmp_path / "codex" / "sessions" / "2026" / "03" / "01"

    def rollout(name: str, cwd: str, text: str) -> Path:
        return write(
            day / f"rollout-2026-03-01T10-00-00-{name}.jsonl",
            [
                {"timestamp": "2026-03-01T10:00:00Z", "type": "session_meta",
                 "payload": {"id": name, "cwd": cwd}},
                {"timestamp": "2026-03-01T10:00:01Z", "type": "response_item",
                 "payload": {"type": "message", "role": "user",
                             "content": [{"type": "input_text", "text": text}]}},
            ],
        )  # fmt: skip

    rollout("mine", str(project / "sub"), "refactor the kiwi parser")
    other = rollout("theirs", "/elsewhere", "refactor the mango parser")
    assert mem_json("transcripts", "sync", "--source", "codex")["messages_added"] == 1
    assert mem_json("transcripts", "search", "mango") == []
    (hit,) = mem_json("transcripts", "search", "kiwi")
    assert hit["session"] == "mine"
    other.write_text("not json at all\n")  # never reopened: its cwd is remembered
    assert mem_json("transcripts", "sync")["files_read"] == 0


def codex_message(text: str, second: int = 1) -> dict[str, Any]:
    return {
        "timestamp": f"2026-03-01T10:00:{second:02d}Z",
        "type": "response_item",
        "payload": {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": text}],
        },
    }


def test_an_archived_codex_session_keeps_its_messages_and_a_deleted_one_leaves(
    project: Path, store: Path, tmp_path: Path
) -> None:
    codex = tmp_path / "codex"
    day = codex / "sessions" / "2026" / "03" / "01"

    def rollout(name: str, text: str) -> Path:
        meta = {"id": name, "cwd": str(project)}
        return write(
            day / f"rollout-2026-03-01T10-00-00-{name}.jsonl",
            [
                {"timestamp": "2026-03-01T10:00:00Z", "type": "session_meta", "payload": meta},
                codex_message(text),
            ],
        )

    kept = rollout("kept", "tune the kiwi cache eviction")
    dropped = rollout("dropped", "rotate the mango credentials")
    assert mem_json("transcripts", "sync", "--source", "codex")["messages_added"] == 2
    archived = codex / "archived_sessions" / kept.name
    archived.parent.mkdir()
    os.replace(kept, archived)  # what Codex does when a session is archived
    dropped.unlink()  # someone removed a transcript: its text must not stay searchable
    report = mem_json("transcripts", "sync", "--source", "codex")
    assert (report["files_moved"], report["files_dropped"]) == (1, 1)
    assert report["messages_added"] == 0  # followed, not read again
    (hit,) = mem_json("transcripts", "search", "kiwi")
    assert hit["session"] == "kept"
    assert mem_json("transcripts", "search", "mango") == []
    write(archived, [codex_message("and the papaya", 2)], mode="a")  # its position followed it
    assert mem_json("transcripts", "sync", "--source", "codex")["messages_added"] == 1
    assert mem_json("transcripts", "status")["messages"] == 2


def _codex_rollout(day: Path, name: str, cwd: Path, text: str) -> tuple[Path, list[str]]:
    """A rollout's path and its lines (not written yet)."""
    meta = {"timestamp": "2026-03-01T10:00:00Z", "type": "session_meta",
            "payload": {"id": name, "cwd": str(cwd)}}  # fmt: skip
    lines = [json.dumps(meta), json.dumps(codex_message(text))]
    return day / f"rollout-2026-03-01T10-00-00-{name}.jsonl", lines


@pytest.mark.parametrize("first_sync_sees", ["nothing", "half a first line"])
def test_a_codex_rollout_empty_or_half_written_at_the_first_sync_is_indexed_later(
    project: Path, store: Path, tmp_path: Path, first_sync_sees: str
) -> None:
    """The session-start hook syncs as Codex creates the rollout: its project is not known yet."""
    day = tmp_path / "codex" / "sessions" / "2026" / "03" / "01"
    day.mkdir(parents=True)
    path, lines = _codex_rollout(day, "fresh", project, "tune the kiwi cache")
    whole = "".join(line + "\n" for line in lines)
    path.write_text("" if first_sync_sees == "nothing" else whole[:30])
    assert mem_json("transcripts", "sync", "--source", "codex")["messages_added"] == 0
    assert mem_json("transcripts", "sync", "--source", "codex")["files_read"] == 0  # unchanged
    path.write_text(whole)
    assert mem_json("transcripts", "sync", "--source", "codex")["messages_added"] == 1
    (hit,) = mem_json("transcripts", "search", "kiwi")
    assert hit["session"] == "fresh"


def test_an_index_holding_an_undecided_rollout_recovers_without_being_deleted(
    project: Path, store: Path, tmp_path: Path
) -> None:
    """A transcripts.db written before the fix: the rollout's row says 'another project'."""
    day = tmp_path / "codex" / "sessions" / "2026" / "03" / "01"
    day.mkdir(parents=True)
    path, lines = _codex_rollout(day, "fresh", project, "tune the kiwi cache")
    path.write_text("")
    assert mem_json("transcripts", "sync", "--source", "codex")["files_seen"] == 1
    info = path.stat()
    connection = apsw.Connection(str(db_path(store)))
    connection.execute("DELETE FROM files")
    connection.execute(  # the row earlier versions stored: unmatched, no cwd, an empty file
        "INSERT INTO files(path, agent, session, matched, cwd, size, mtime_ns, inode, device, "
        "consumed, last_start, last_digest, state, skips, messages) "
        "VALUES (?, 'codex', NULL, 0, NULL, 0, ?, ?, ?, 0, 0, NULL, NULL, '{}', 0)",
        (str(path), info.st_mtime_ns, info.st_ino, info.st_dev),
    )
    connection.close()
    path.write_text("".join(line + "\n" for line in lines))
    assert mem_json("transcripts", "sync", "--source", "codex")["messages_added"] == 1
    assert [hit["session"] for hit in mem_json("transcripts", "search", "kiwi")] == ["fresh"]


CONTINUATION = "0c0ffee0-0000-4000-8000-00000000000c"


def test_a_message_copied_into_another_transcript_is_indexed_once(
    project: Path, store: Path
) -> None:
    """A resumed session's file repeats the earlier file's lines (same uuids): one message each.

    The file indexed first keeps a message; a copy in another file is counted as skipped.
    When the file holding a message is deleted, a file with its copy is read again.
    """
    original = write(session_file(project), conversation())
    write(session_file(project, CONTINUATION), [*conversation(), record("user", 5, "and papaya")])
    report = mem_json("transcripts", "sync")
    assert report["messages_added"] == 5
    status = mem_json("transcripts", "status")
    assert status["messages"] == 5 and status["sessions"] == 1
    assert sum(status["skipped"].values()) >= 4
    assert len(mem_json("transcripts", "search", "socket")) == 1
    original.unlink()
    assert mem_json("transcripts", "sync")["files_dropped"] == 1
    assert mem_json("transcripts", "status")["messages"] == 5
    (hit,) = mem_json("transcripts", "search", "socket")
    assert hit["session"] == SESSION


def test_an_index_with_messages_indexed_twice_keeps_one_of_each(project: Path, store: Path) -> None:
    """A transcripts.db written before the fix, holding a message twice, is rebuilt."""
    write(session_file(project), conversation())
    mem("transcripts", "sync")
    connection = apsw.Connection(str(db_path(store)))
    connection.execute("DROP INDEX IF EXISTS messages_uuid")
    connection.execute(
        "INSERT INTO messages SELECT rowid + 100, file || '.copy', agent, session, seq + 100, "
        "time, role, text, chars, files, tools, commands, failed, uuid, parent, sidechain "
        "FROM messages"
    )
    connection.execute(
        "INSERT INTO messages_fts(rowid, text, files, tools) "
        "SELECT rowid, 'socket timeout', '', '' FROM messages WHERE seq = 104"
    )
    connection.pragma("user_version", 1)
    connection.close()
    refused = mem("transcripts", "search", "socket timeout", expect=1)
    assert "run `mem transcripts sync`" in refused.stderr  # an older index is not read
    mem("transcripts", "sync")
    assert mem_json("transcripts", "status")["messages"] == 4
    after = [hit["seq"] for hit in mem_json("transcripts", "search", "socket timeout")]
    assert after and all(seq < 100 for seq in after)


def test_the_session_shown_is_a_prefix_no_other_session_shares(project: Path, store: Path) -> None:
    near = SESSION[:-1] + "9"  # the same first 35 characters
    write(session_file(project), conversation())
    write(session_file(project, near), conversation(near))
    write(session_file(project, OTHER), conversation(OTHER))
    mem("transcripts", "sync")
    hits = mem_json("transcripts", "search", "socket timeout")
    shown = {hit["session"]: hit["short"] for hit in hits}
    assert shown[SESSION] == SESSION and shown[near] == near  # nothing shorter is theirs alone
    assert shown[OTHER] == OTHER[:8]
    lines = mem("transcripts", "search", "socket timeout").stdout.splitlines()
    refs = [line.split()[0] for line in lines]
    assert sorted(refs) == sorted(f"{hit['short']}:{hit['seq']}" for hit in hits)
    for ref in refs:  # each shown reference opens its own session
        session = mem_json("transcripts", "show", ref)["session"]
        assert session.startswith(ref.partition(":")[0])
    header = mem("transcripts", "show", f"{shown[near]}:4").stdout.splitlines()[0]
    assert f"{near}:1" in header


def test_snippets_and_shown_messages_are_redacted(project: Path, store: Path) -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    write(session_file(project), [record("user", 1, f"the deploy token is {token} for staging")])
    mem("transcripts", "sync")
    (hit,) = mem_json("transcripts", "search", "deploy staging")
    assert token not in hit["snippet"] and "[REDACTED:" in hit["snippet"]
    shown = mem("transcripts", "show", SESSION).stdout
    assert token not in shown and "[REDACTED:" in shown


def test_a_tool_result_cut_through_a_token_shows_none_of_it(project: Path, store: Path) -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    output = ("x " * 2000)[:3980] + token + " and more output"
    use = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "env"}}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": output}
    write(session_file(project), [record("assistant", 1, [use]), record("user", 2, [result])])
    mem("transcripts", "sync")
    shown = mem("transcripts", "show", f"{SESSION}:2").stdout
    assert "[REDACTED:" in shown and token[:8] not in shown


def test_one_session_does_not_fill_the_page(project: Path, store: Path) -> None:
    many = [record("user", n, f"flaky upload number {n}") for n in range(1, 12)]
    write(session_file(project), many)
    write(session_file(project, OTHER), [record("user", 1, "an upload", session=OTHER)])
    mem("transcripts", "sync")
    hits = mem_json("transcripts", "search", "upload")
    sessions = [hit["session"] for hit in hits]
    assert sessions.count(SESSION) == service.HITS_PER_SESSION and OTHER in sessions


def test_skips_and_rewound_branches_are_counted(project: Path, store: Path) -> None:
    records = [
        *conversation(),
        "{not json",
        record("user", 7, "first try", parent=4),
        record("user", 8, "second try", parent=4),
    ]
    write(session_file(project), records)
    mem("transcripts", "sync")
    status = mem_json("transcripts", "status")
    assert status["skipped"].get("not JSON") == 1
    assert status["rewound_branches"] == 1
    text = mem("transcripts", "status").stdout
    assert "skipped: 1 not JSON" in text and "rewound branches: 1" in text


def test_bad_references_and_a_missing_index_are_one_line_errors(project: Path, store: Path) -> None:
    missing = mem("transcripts", "search", "upload", expect=1)
    assert "mem transcripts sync" in missing.output and len(missing.output.splitlines()) == 1
    assert mem_json("transcripts", "status")["messages"] == 0
    write(session_file(project), conversation())
    write(session_file(project, SESSION[:4] + "ffff"), conversation(SESSION[:4] + "ffff"))
    mem("transcripts", "sync")
    for ref, words in [
        ("nosuch", "no indexed session"),
        (SESSION[:4], "more than one session"),
        (f"{SESSION}:99", "messages 1 to 4"),
        (f"{SESSION}:x", "message number"),
        (":3", "SESSION"),
    ]:
        result = mem("transcripts", "show", ref, expect=1)
        assert words in result.output and len(result.output.strip().splitlines()) == 1, ref
    assert mem("transcripts", "search", " ", expect=2).exit_code == 2


def test_any_session_prefix_and_a_folder_in_the_index_s_place_are_one_line_errors(
    project: Path, store: Path
) -> None:
    write(session_file(project), conversation())
    mem("transcripts", "sync")
    for prefix in ("\U0010ffff", f"{SESSION[:4]}\U0010ffff", "\ud7ff", SESSION[:4] + "\ud7ff"):
        result = mem("transcripts", "show", prefix, expect=1)
        assert "no indexed session starts with" in result.stderr
    assert mem_json("transcripts", "show", SESSION[:4])["session"] == SESSION
    path = db_path(store)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.mkdir()
    for args in (["sync"], ["status"], ["search", "upload"], ["show", SESSION[:8]]):
        result = mem("transcripts", *args, expect=1)
        assert f"the transcript index {path} is a folder" in result.stderr
    assert path.is_dir()  # a person's folder: left for them


def test_a_damaged_index_is_rebuilt_with_a_notice(project: Path, store: Path) -> None:
    write(session_file(project), conversation())
    mem("transcripts", "sync")
    path = db_path(store)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"this is not a database" * 100)
    result = mem("transcripts", "sync")
    assert "damaged" in result.stderr and "4 messages added" in result.stdout
    assert mem_json("transcripts", "status")["messages"] == 4


def test_path_indexes_a_folder_of_transcripts(project: Path, store: Path, tmp_path: Path) -> None:
    folder = tmp_path / "old"
    write(folder / "a.jsonl", conversation())
    assert mem_json("transcripts", "sync", "--path", str(folder))["messages_added"] == 4
    assert mem("transcripts", "sync", "--path", str(tmp_path / "none"), expect=2)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=st.text(min_size=1, max_size=40))
def test_any_query_searches_without_failing(project: Path, store: Path, query: str) -> None:
    if not db_path(store).exists():
        write(session_file(project), conversation())
        mem("transcripts", "sync")
    hits, _ = service.search(db_path(store), query)
    assert all(hit.session == SESSION for hit in hits)


def test_the_benchmark_generator_writes_sessions_mem_indexes(project: Path, store: Path) -> None:
    from bench.transcripts import append, generate

    paths = generate(claude_project_dir(project), 1000, 5)
    first = mem_json("transcripts", "sync")
    assert first["files_read"] == 5 and first["messages_added"] >= 500
    append(paths[0], 50)
    assert mem_json("transcripts", "sync")["messages_added"] == 50
    assert mem_json("transcripts", "search", "index query")


def test_search_with_transcripts_adds_marked_hits_below_the_memories(
    project: Path, store: Path
) -> None:
    mem("save", "The upload client retries three times", "--type", "gotcha")
    absent = mem("search", "upload", "--transcripts")
    assert "no transcripts are indexed yet" in absent.stderr
    write(session_file(project), conversation())
    mem("transcripts", "sync")
    lines = mem("search", "upload", "--transcripts").stdout.splitlines()
    assert "retries three times" in lines[0]
    assert lines[1].startswith(f"transcript  {SESSION[:8]}:")
    found = mem_json("search", "upload", "--transcripts")
    assert found[0]["kind"] != "transcript" and found[-1]["kind"] == "transcript"
    assert all(hit["kind"] != "transcript" for hit in mem_json("search", "upload"))


def test_recall_adds_a_strong_transcript_hit_only_when_no_memory_answers(
    project: Path, store: Path
) -> None:
    write(session_file(project), conversation())
    write(session_file(project, OTHER), [record("user", 1, "lunch menu", session=OTHER)])
    mem("transcripts", "sync")
    prompt = "why is the socket timeout of the upload client so short?"
    found = json.loads(mem("recall", prompt, "--format", "json").stdout)
    (hit,) = found["transcripts"]
    assert hit["session"] == SESSION and hit["matched"] >= 2
    text = mem("recall", prompt).stdout
    assert f"### Session {SESSION[:8]}:" in text and "mem transcripts show" in text
    # the session's own messages are not recalled to it, nor weak matches to anyone
    assert mem("recall", prompt, "--session", SESSION).stdout == ""
    assert mem("recall", "why is the lunch menu of the canteen so short?").stdout == ""
    # a note (or a memory) that answers leaves the transcripts out
    (store / "notes").mkdir()
    (store / "notes" / "upload.md").write_text(
        "# Upload client\n\nThe socket timeout of the upload client is 60 s, too short.\n"
    )
    git(store, "add", "notes")
    git(store, "commit", "-qm", "notes")
    answered = json.loads(mem("recall", prompt, "--format", "json").stdout)
    assert answered["notes"] and answered["transcripts"] == []


def test_an_index_a_first_sync_is_still_creating_reads_as_empty(project: Path, store: Path) -> None:
    """Between the file's creation and its schema's commit, readers see "nothing yet"."""
    path = db_path(store)
    path.parent.mkdir(parents=True, exist_ok=True)
    apsw.Connection(str(path)).execute("PRAGMA journal_mode = WAL").fetchall()
    assert mem_json("transcripts", "status")["messages"] == 0
    result = mem("transcripts", "search", "anything", expect=1)
    assert "no transcripts are indexed yet" in result.output


def test_a_sync_reports_its_progress_file_by_file(project: Path, store: Path) -> None:
    write(session_file(project), conversation())
    write(session_file(project, OTHER), conversation(OTHER))
    told: list[tuple[int, int]] = []
    report = service.sync(db_path(store), project, progress=lambda *seen: told.append(seen))
    assert report.files_read == 2 and told == [(1, 2), (2, 2)]
