"""Claude Code and Codex transcripts read as messages: real JSONL files, bad lines, resuming."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcli.capture.transcripts.locate import (
    claude_home,
    claude_project_dir,
    claude_session_files,
    codex_home,
    codex_session_cwd,
    codex_session_files,
)
from memcli.capture.transcripts.records import (
    MAX_LINE_BYTES,
    MAX_TOOL_RESULT_CHARS,
    TranscriptMessage,
    iter_lines,
    parser_for,
    read_messages,
)

SESSION = "6f1c2d3e-0000-4000-8000-000000000001"
T0 = "2026-03-01T10:00:00.123Z"


def claude(kind: str, uuid: str | None, parent: str | None, content: Any, **extra: Any) -> dict:
    record: dict[str, Any] = {
        "type": kind,
        "sessionId": SESSION,
        "uuid": uuid,
        "parentUuid": parent,
        "timestamp": T0,
        "isSidechain": False,
        "cwd": "/home/u/proj",
        "userType": "external",
        "version": "2.0.14",
        "message": {"role": kind, "content": content},
    }
    record.update(extra)
    return record


def tool_use(call_id: str, name: str, **inputs: Any) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": inputs}


def tool_result(call_id: str, content: Any, is_error: bool = False) -> dict:
    return {"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": is_error}


def claude_session() -> list[dict]:
    """A session as Claude Code writes it: every kind of record and block it uses."""
    return [
        {"type": "queue-operation", "operation": "dequeue", "timestamp": T0, "sessionId": SESSION},
        claude(
            "user",
            "u1",
            None,
            "<command-name>/clear</command-name>\n<command-message>clear</command-message>",
        ),
        claude("user", "u2", "u1", "Caveat: ignore this", isMeta=True),
        claude(
            "user",
            "u3",
            "u2",
            "Why does the deploy fail on arm64?\n"
            "<system-reminder>Todo list is empty</system-reminder>",
        ),
        claude(
            "assistant",
            "a1",
            "u3",
            [
                {"type": "thinking", "thinking": "secret musing", "signature": "sig"},
                {"type": "text", "text": "Let me look at the build script."},
            ],
        ),
        claude("assistant", "a2", "a1", [tool_use("t1", "Read", file_path="/home/u/proj/b.sh")]),
        claude(
            "user",
            "u4",
            "a2",
            [tool_result("t1", "     1→#!/bin/sh\n     2→docker build --platform amd64")],
            toolUseResult={"type": "text"},
        ),
        claude(
            "assistant",
            "a3",
            "u4",
            [
                tool_use(
                    "t2", "Edit", file_path="/home/u/proj/b.sh", old_string="a", new_string="b"
                ),
                tool_use("t3", "Bash", command="make test", description="Run the tests"),
            ],
        ),
        claude("user", "u5", "a3", [tool_result("t2", [{"type": "text", "text": "Updated"}])]),
        claude("user", "u6", "u5", [tool_result("t3", "Exit code 2\nFAIL", is_error=True)]),
        claude("assistant", "a4", "u6", [tool_use("t4", "Grep", pattern="platform", path="src")]),
        claude("assistant", "a5", "u6", [{"type": "text", "text": "A rewound answer."}]),
        claude(
            "user",
            "u7",
            "a5",
            [
                {"type": "image", "source": {"type": "base64", "data": "iVBORw0KGgo="}},
                {"type": "text", "text": "See the screenshot"},
            ],
        ),
        {
            "type": "system",
            "subtype": "compact_boundary",
            "content": "Conversation compacted",
            "sessionId": SESSION,
            "uuid": "s1",
            "parentUuid": None,
            "timestamp": T0,
            "compactMetadata": {"trigger": "auto", "preTokens": 155000},
        },
        claude("user", "u8", "s1", "Summary: we fixed the arm64 build.", isCompactSummary=True),
        {"type": "summary", "summary": "Fixing arm64 builds", "leafUuid": "u8"},
        {"type": "file-history-snapshot", "messageId": "m", "snapshot": {}},
        claude(
            "assistant",
            "a6",
            "u8",
            [
                tool_use("t5", "Write", file_path="/home/u/proj/NOTES.md", content="x" * 9000),
                tool_use("t6", "MultiEdit", file_path="/home/u/proj/c.py", edits=[{}, {}]),
                tool_use("t7", "NotebookEdit", notebook_path="/home/u/proj/n.ipynb"),
                tool_use("t8", "Glob", pattern="**/*.py", path="/home/u/proj"),
            ],
            isSidechain=True,
        ),
    ]


def write_jsonl(path: Path, records: list[Any], *, end: bytes = b"\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [r if isinstance(r, bytes) else json.dumps(r).encode() for r in records]
    path.write_bytes(b"\n".join(lines) + end)
    return path


def by_uuid(messages: list[TranscriptMessage]) -> dict[str | None, TranscriptMessage]:
    return {m.uuid: m for m in messages}


def test_a_claude_session_file_reads_as_its_messages(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / f"{SESSION}.jsonl", claude_session())
    messages = list(read_messages(path, "claude"))
    got = by_uuid(messages)
    assert [m.role for m in messages] == [
        "user",
        "assistant",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "assistant",
        "user",
        "summary",
        "assistant",
    ]
    assert all(m.agent == "claude" and m.session == SESSION for m in messages)
    assert got["u3"].text == "Why does the deploy fail on arm64?"
    assert got["u3"].time == "2026-03-01T10:00:00Z"
    assert got["a1"].text == "Let me look at the build script."  # no thinking
    assert got["a2"].tools == ("Read",) and got["a2"].files == ("/home/u/proj/b.sh",)
    assert got["a2"].edited == ()
    assert got["u4"].role == "tool" and got["u4"].tools == ("Read",)
    assert "docker build" in got["u4"].text
    assert got["a3"].tools == ("Edit", "Bash")
    assert got["a3"].edited == ("/home/u/proj/b.sh",)
    assert got["a3"].commands == ("make test",)
    assert got["u5"].text == "Updated" and not got["u5"].failed
    assert got["u6"].failed and got["u6"].tools == ("Bash",)
    assert got["a4"].files == ("src",) and "platform" in got["a4"].text
    # A rewound branch: both children of u6 are kept, each naming its parent.
    assert got["a4"].parent == got["a5"].parent == "u6"
    assert got["u7"].text == "See the screenshot"
    assert got["u8"].role == "summary" and "arm64" in got["u8"].text
    a6 = got["a6"]
    assert a6.sidechain
    assert a6.tools == ("Write", "MultiEdit", "NotebookEdit", "Glob")
    assert a6.edited == ("/home/u/proj/NOTES.md", "/home/u/proj/c.py", "/home/u/proj/n.ipynb")
    assert a6.files == (*a6.edited, "/home/u/proj")
    assert "x" * 100 not in a6.text  # a tool call is rendered shortly, not its content


def test_claude_skips_are_counted_by_reason() -> None:
    parser = parser_for("claude")
    for record in claude_session():
        parser.feed(json.dumps(record).encode())
    assert parser.skips == {
        "queue operation": 1,
        "no text of the person's": 1,
        "meta message": 1,
        "compaction boundary": 1,
        "session title summary": 1,
        "file history snapshot": 1,
    }


def test_a_tool_result_is_cut_to_the_cap() -> None:
    parser = parser_for("claude")
    long = "line of output\n" * 2000
    (message,) = parser.feed(
        json.dumps(claude("user", "u", None, [tool_result("t", long)])).encode()
    )
    assert len(message.text) <= MAX_TOOL_RESULT_CHARS
    blocks = [{"type": "text", "text": long}, {"type": "text", "text": long}]
    (message,) = parser.feed(
        json.dumps(claude("user", "v", None, [tool_result("t", blocks)])).encode()
    )
    assert len(message.text) <= MAX_TOOL_RESULT_CHARS


def rollout(*records: tuple[str, Any]) -> list[dict]:
    return [
        {"timestamp": f"2026-03-01T10:00:{i:02d}.5Z", "type": kind, "payload": payload}
        for i, (kind, payload) in enumerate(records)
    ]


def item(**payload: Any) -> tuple[str, Any]:
    return ("response_item", payload)


def call(name: str, call_id: str, **arguments: Any) -> tuple[str, Any]:
    return item(type="function_call", name=name, arguments=json.dumps(arguments), call_id=call_id)


def output(call_id: str, text: str) -> tuple[str, Any]:
    return item(type="function_call_output", call_id=call_id, output=text)


PATCH = (
    "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n"
    "*** Add File: docs/new.md\n+hello\n*** Delete File: old.txt\n*** End Patch\n"
)


def codex_session() -> list[dict]:
    def text(role: str, kind: str, value: str) -> tuple[str, Any]:
        return item(type="message", role=role, content=[{"type": kind, "text": value}])

    return rollout(
        ("session_meta", {"id": "019a-codex", "cwd": "/home/u/proj", "cli_version": "0.46.0"}),
        text("developer", "input_text", "<permissions instructions>"),
        text("user", "input_text", "<environment_context>\n<cwd>/home/u/proj</cwd>"),
        text("user", "input_text", "# AGENTS.md instructions for /home/u/proj\n..."),
        text("user", "input_text", "Make the tests pass"),
        ("event_msg", {"type": "user_message", "message": "Make the tests pass"}),
        ("turn_context", {"cwd": "/home/u/proj", "model": "gpt-5-codex"}),
        item(type="reasoning", summary=[{"type": "summary_text", "text": "hm"}], content=None),
        call("shell", "c1", command=["bash", "-lc", "pytest -q"], workdir="/home/u/proj"),
        output("c1", json.dumps({"output": "1 failed", "metadata": {"exit_code": 1}})),
        call("shell", "c2", command=["rg", "-n", "two words"]),
        output("c2", json.dumps({"output": "src/app.py:3", "metadata": {"exit_code": 0}})),
        call("shell_command", "c3", command="git status --short"),
        output("c3", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n M src/app.py\n"),
        call("exec_command", "c4", cmd="make lint"),
        output("c4", "Chunk ID: 1\nWall time: 2s\nProcess exited with code 2\nOutput:\nE501"),
        item(type="custom_tool_call", name="apply_patch", call_id="c5", input=PATCH),
        item(type="custom_tool_call_output", call_id="c5", output="Success. Updated files"),
        item(
            type="local_shell_call",
            call_id="c6",
            status="completed",
            action={"type": "exec", "command": ["ls", "-la"]},
        ),
        call("update_plan", "c7", explanation="Plan the fix", plan=[]),
        text("assistant", "output_text", "The tests pass now."),
        ("compacted", {"message": "Summary: tests fixed in src/app.py", "replacement_history": []}),
        item(type="ghost_snapshot", ghost_commit={}),
        ("unheard_of", {}),
    )


def test_a_codex_rollout_reads_as_its_messages(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "rollout-2026-03-01T10-00-00-019a.jsonl", codex_session())
    messages = list(read_messages(path, "codex"))
    assert all(m.agent == "codex" and m.session == "019a-codex" for m in messages)
    assert [(m.role, m.text) for m in messages][:1] == [("user", "Make the tests pass")]
    calls = [m for m in messages if m.role == "assistant" and m.tools]
    assert [m.tools for m in calls] == [
        ("shell",),
        ("shell",),
        ("shell_command",),
        ("exec_command",),
        ("apply_patch",),
        ("local_shell",),
        ("update_plan",),
    ]
    assert [m.commands for m in calls] == [
        ("pytest -q",),
        ("rg -n 'two words'",),
        ("git status --short",),
        ("make lint",),
        (),
        ("ls -la",),
        (),
    ]
    patch = calls[4]
    assert patch.files == patch.edited == ("src/app.py", "docs/new.md", "old.txt")
    assert "Plan the fix" in calls[6].text
    results = [m for m in messages if m.role == "tool"]
    assert [(m.tools, m.failed) for m in results] == [
        (("shell",), True),
        (("shell",), False),
        (("shell_command",), False),
        (("exec_command",), True),
        (("apply_patch",), False),
    ]
    assert results[0].text == "1 failed"
    assert messages[-2].role == "assistant" and messages[-2].text == "The tests pass now."
    assert messages[-1].role == "summary" and "src/app.py" in messages[-1].text
    assert messages[0].time == "2026-03-01T10:00:04Z"


def test_codex_skips_are_counted_by_reason() -> None:
    parser = parser_for("codex")
    for record in codex_session():
        parser.feed(json.dumps(record).encode())
    assert parser.skips == {
        "session meta": 1,
        "developer or system message": 1,
        "injected context": 2,
        "event message (repeats the items)": 1,
        "turn context": 1,
        "reasoning": 1,
        "unknown response item": 1,
        "unknown record type": 1,
    }


def test_a_rollout_from_before_the_wrapper_is_read(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "rollout-old.jsonl",
        [
            {"id": "old-session", "timestamp": "2025-06-01T09:00:00Z", "instructions": None},
            {"record_type": "state"},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps(
                    {"command": ["apply_patch", "*** Begin Patch\n*** Update File: a.py\n"]}
                ),
                "call_id": "c1",
            },
            {"type": "function_call_output", "call_id": "c1", "output": "Done"},
        ],
    )
    messages = list(read_messages(path, "codex"))
    assert [(m.session, m.role, m.time) for m in messages] == [
        ("old-session", "user", None),
        ("old-session", "assistant", None),
        ("old-session", "tool", None),
    ]
    assert messages[1].edited == ("a.py",) and messages[1].commands == ()


def test_codex_lines_before_the_session_meta_are_skipped() -> None:
    parser = parser_for("codex")
    line = json.dumps(codex_session()[4]).encode()
    assert parser.feed(line) == []
    assert parser.skips == {"no session id": 1}


BAD_LINES = {
    b"not json at all": "not JSON",
    b'{"type": "user", "sessionId": "s", "mess': "not JSON",
    b"\xff\xfe{}": "not UTF-8",
    b"[1, 2]": "not a JSON object",
    b"null": "not a JSON object",
    b"   ": "blank line",
    b"[" * 100_000 + b"]" * 100_000: "JSON nested too deeply",
}


@pytest.mark.parametrize("agent", ["claude", "codex"])
@pytest.mark.parametrize("line", list(BAD_LINES), ids=list(BAD_LINES.values()))
def test_a_bad_line_is_skipped_with_its_reason(agent: str, line: bytes) -> None:
    parser = parser_for(agent)
    assert parser.feed(line) == []
    assert parser.skips == {BAD_LINES[line]: 1}


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_line_over_the_cap_is_skipped_unparsed(agent: str) -> None:
    parser = parser_for(agent)
    assert parser.feed(b'{"a": "' + b"x" * MAX_LINE_BYTES + b'"}') == []
    assert parser.skips == {"line too long": 1}


def test_iter_lines_bounds_a_huge_line_and_keeps_offsets() -> None:
    data = b'{"a": 1}\n' + b"x" * (MAX_LINE_BYTES + 10) + b"\n" + b'{"b": 2}\n' + b'{"c":'
    lines = list(iter_lines(io.BytesIO(data)))
    assert [len(line) for line, _ in lines] == [8, MAX_LINE_BYTES + 1, 8, 5]
    assert [end for _, end in lines] == [9, 9 + MAX_LINE_BYTES + 11, len(data) - 5, len(data)]
    complete = list(iter_lines(io.BytesIO(data), partial=False))
    assert complete == lines[:3]
    assert list(iter_lines(io.BytesIO(data), max_bytes=20)) == lines[:1]


def test_a_partial_last_line_is_counted_and_resumed_whole(tmp_path: Path) -> None:
    records = claude_session()
    text = b"".join(json.dumps(r).encode() + b"\n" for r in records)
    cut_at = len(text) - 40
    path = tmp_path / "live.jsonl"
    path.write_bytes(text[:cut_at])
    parser = parser_for("claude")
    with path.open("rb") as handle:
        done = list(iter_lines(handle, partial=False))
    resume_at = done[-1][1]
    first = [m for line, _ in done for m in parser.feed(line)]
    assert parser_for("claude").feed(text[resume_at:cut_at]) == []  # what a writer is mid-way
    path.write_bytes(text)  # the writer finishes the line
    resumed = parser_for("claude", json.loads(json.dumps(parser.state())))
    with path.open("rb") as handle:
        handle.seek(resume_at)
        rest = [m for line, _ in iter_lines(handle) for m in resumed.feed(line)]
    assert first + rest == list(read_messages(path, "claude"))


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_resuming_after_any_line_gives_the_same_messages(agent: str) -> None:
    records = claude_session() if agent == "claude" else codex_session()
    lines = [json.dumps(r).encode() for r in records]
    one_pass = parser_for(agent)
    expected = [m for line in lines for m in one_pass.feed(line)]
    for split in range(len(lines) + 1):
        first = parser_for(agent)
        got = [m for line in lines[:split] for m in first.feed(line)]
        state = json.loads(json.dumps(first.state()))
        second = parser_for(agent, state)
        got += [m for line in lines[split:] for m in second.feed(line)]
        assert got == expected, split


def test_empty_null_and_string_content() -> None:
    parser = parser_for("claude")
    for content in (None, [], "", 42, {"text": "x"}):
        assert parser.feed(json.dumps(claude("user", "u", None, content)).encode()) == []
    assert parser.skips == {"empty content": 4, "no text of the person's": 1}
    (message,) = parser.feed(json.dumps(claude("assistant", "a", None, "plain string")).encode())
    assert message.text == "plain string"


def test_a_lone_surrogate_becomes_storable_text() -> None:
    parser = parser_for("claude")
    (message,) = parser.feed(json.dumps(claude("user", "u", None, "bad \ud800 char")).encode())
    message.text.encode("utf-8")
    assert message.text.startswith("bad ")


WRONG = [None, True, 0, -1, 1.5, "", "x", [], [None], {}, {"a": [1]}]


def _set(record: dict, path: tuple[str, ...], value: Any) -> dict:
    record = json.loads(json.dumps(record))
    target = record
    for key in path[:-1]:
        target = target[key] if isinstance(target, dict) else target[int(key)]
    if isinstance(target, dict):
        target[path[-1]] = value
    else:
        target[int(path[-1])] = value
    return record


def _paths(value: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every field of a record, nested ones too (list items by index)."""
    found = []
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in items:
        path = (*prefix, str(key))
        found.append(path)
        if isinstance(child, dict | list):
            found.extend(_paths(child, path))
    return found


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_wrong_type_in_any_field_never_raises(agent: str) -> None:
    records = claude_session() if agent == "claude" else codex_session()
    parser = parser_for(agent)
    if agent == "codex":
        parser.feed(json.dumps(records[0]).encode())
    for record in records:
        for path in _paths(record):
            for value in WRONG:
                parser.feed(json.dumps(_set(record, path, value)).encode())
    assert not [reason for reason in parser.skips if reason.startswith("unreadable")]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_feed_never_raises_on_any_bytes(line: bytes) -> None:
    for agent in ("claude", "codex"):
        parser = parser_for(agent)
        messages = parser.feed(line)
        assert len(messages) + sum(parser.skips.values()) == 1


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)
KEYS = st.sampled_from(
    [
        "type",
        "sessionId",
        "uuid",
        "parentUuid",
        "timestamp",
        "isSidechain",
        "isMeta",
        "isCompactSummary",
        "message",
        "role",
        "content",
        "text",
        "name",
        "input",
        "id",
        "tool_use_id",
        "is_error",
        "payload",
        "arguments",
        "call_id",
        "output",
        "command",
        "file_path",
        "action",
    ]
)
TYPES = st.sampled_from(
    [
        "user",
        "assistant",
        "system",
        "text",
        "tool_use",
        "tool_result",
        "session_meta",
        "response_item",
        "message",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "local_shell_call",
        "compacted",
        "input_text",
    ]
)
SHAPED = st.recursive(
    st.none() | st.booleans() | st.integers() | TYPES | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(KEYS, children, max_size=6),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(JSON, SHAPED))
def test_feed_never_raises_on_any_json(value: Any) -> None:
    line = json.dumps(value).encode()
    for agent in ("claude", "codex"):
        parser = parser_for(agent, {"session": "s", "calls": [["t", "Bash"]]})
        for message in parser.feed(line):
            assert message.session and message.role in ("user", "assistant", "tool", "summary")
            assert isinstance(message.text, str)
        assert not [reason for reason in parser.skips if reason.startswith("unreadable")]
        json.dumps(parser.state())


@settings(max_examples=50, deadline=None)
@given(JSON)
def test_any_state_resumes_a_parser(state: Any) -> None:
    for agent in ("claude", "codex"):
        parser = parser_for(agent, state if isinstance(state, dict) else None)
        parser.feed(json.dumps(claude_session()[3]).encode())
        json.dumps(parser.state())


def test_an_unknown_agent_is_refused() -> None:
    with pytest.raises(ValueError, match="aider"):
        parser_for("aider")


def test_claude_project_dir_mangles_the_path(isolated_env: Path) -> None:
    assert claude_home() == isolated_env / ".claude"
    expected = isolated_env / ".claude" / "projects" / "-home-u-my-proj"
    assert claude_project_dir(Path("/home/u/my.proj")) == expected
    assert claude_project_dir(Path("/srv/a_b c/é")).name == "-srv-a-b-c--"


def test_env_overrides_the_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "cx"))
    assert claude_home() == tmp_path / "cc"
    assert claude_project_dir(Path("/p")) == tmp_path / "cc" / "projects" / "-p"
    assert codex_home() == tmp_path / "cx"
    monkeypatch.delenv("CODEX_HOME")
    assert codex_home() == Path.home() / ".codex"


def test_session_files_are_found(tmp_path: Path) -> None:
    project = tmp_path / "projects" / "-p"
    main = write_jsonl(project / "a.jsonl", [{}])
    sub = write_jsonl(project / "a" / "subagents" / "agent-1.jsonl", [{}])
    write_jsonl(project / "a" / "tool-results" / "x.jsonl", [{}])
    (project / "notes.txt").write_text("x")
    assert claude_session_files(project) == [main, sub]
    assert claude_session_files(tmp_path / "missing") == []

    home = tmp_path / "codex"
    day = home / "sessions" / "2026" / "03" / "01"
    rollout_file = write_jsonl(day / "rollout-2026-03-01T10-00-00-019a.jsonl", codex_session())
    write_jsonl(day / "other.jsonl", [{}])
    assert codex_session_files(home) == [rollout_file]
    assert codex_session_files(tmp_path / "missing") == []
    assert codex_session_cwd(rollout_file) == "/home/u/proj"


@pytest.mark.parametrize(
    ("first", "cwd"),
    [
        (b'{"id": "x", "timestamp": "t", "cwd": "/old"}\n', "/old"),
        (b'{"type": "session_meta", "payload": {"id": "x"}}\n', None),
        (b"garbage\n", None),
        (b"\xff\n", None),
        (b"[1]\n", None),
        (b"", None),
        (b'{"payload": {"cwd": "' + b"x" * (5 * 1024 * 1024) + b'"}}\n', None),
    ],
)
def test_codex_session_cwd_is_a_bounded_read(tmp_path: Path, first: bytes, cwd: str | None) -> None:
    path = tmp_path / "rollout-x.jsonl"
    path.write_bytes(first + b'{"more": 1}\n')
    assert codex_session_cwd(path) == cwd
    assert codex_session_cwd(tmp_path / "missing.jsonl") is None


IMPOSSIBLE_TIMES = [
    "9999-99-99T00:00:00Z",
    "2026-02-30T10:00:00Z",
    "2026-03-01T24:00:00Z",
    "2026-03-01T10:60:00.5Z",
    "2026-13-01T10:00:00+02:00",
]


def _one_timed_message(agent: str, timestamp: str) -> list[TranscriptMessage]:
    """The messages of a one-message transcript of ``agent`` stamped ``timestamp``."""
    if agent == "claude":
        records: list[dict[str, Any]] = [
            {**claude("user", "u1", None, "hello"), "timestamp": timestamp}
        ]
    elif agent == "codex":
        records = [
            {"timestamp": T0, "type": "session_meta", "payload": {"id": "s", "cwd": "/p"}},
            {
                "timestamp": timestamp,
                "type": "response_item",
                "payload": {"type": "message", "role": "user", "content": "hello"},
            },
        ]
    else:
        records = [
            {"sessionId": "s", "projectHash": "h", "startTime": T0, "kind": "main"},
            {"id": "m1", "timestamp": timestamp, "type": "user", "content": "hello"},
        ]
    parser = parser_for(agent)
    return [m for record in records for m in parser.feed(json.dumps(record).encode())]


@pytest.mark.parametrize("timestamp", IMPOSSIBLE_TIMES)
@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_an_impossible_timestamp_is_taken_as_missing(agent: str, timestamp: str) -> None:
    messages = _one_timed_message(agent, timestamp)
    assert [(m.text, m.time) for m in messages] == [("hello", None)]
    assert _one_timed_message(agent, "2026-03-01T10:00:00.5Z")[0].time == "2026-03-01T10:00:00Z"
