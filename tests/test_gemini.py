"""Gemini CLI: its session files read as messages, its SessionEnd summary, its installer."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcli.adapters.agents import gemini
from memcli.capture.transcripts.records import parser_for, read_messages

from .conftest import git, mem, mem_json, run_mem

SESSION = "5e1f0c2a-7b7d-4c1e-9a43-2f0d6c7e8a91"
T = "2026-08-20T09:1{}:00.000Z"


def gemini_session(path: Path, project: str = "/home/u/app") -> Path:
    """A session file as Gemini CLI's ChatRecordingService writes it: every change appended."""
    call = {
        "id": "replace-1",
        "name": "replace",
        "args": {"file_path": f"{project}/retry.py", "old_string": "a", "new_string": "b"},
        "status": "scheduled",
        "timestamp": T.format(2),
    }
    done = {
        **call,
        "status": "success",
        "result": [
            {
                "functionResponse": {
                    "id": "replace-1",
                    "name": "replace",
                    "response": {"output": "Successfully modified file"},
                }
            }
        ],
    }
    shell = {
        "id": "shell-1",
        "name": "run_shell_command",
        "args": {"command": "pytest -q tests/test_retry.py"},
        "status": "error",
        "timestamp": T.format(3),
        "result": [
            {
                "functionResponse": {
                    "id": "shell-1",
                    "name": "run_shell_command",
                    "response": {"error": "Exit code: 1\n1 failed"},
                }
            }
        ],
    }
    answer = {"id": "g1", "timestamp": T.format(1), "type": "gemini", "model": "gemini-2.5-pro"}
    records: list[dict[str, Any]] = [
        {"sessionId": SESSION, "projectHash": "ab12", "startTime": T.format(0), "kind": "main"},
        {"id": "i0", "timestamp": T.format(0), "type": "info", "content": "Loaded GEMINI.md"},
        {
            "id": "u1",
            "timestamp": T.format(0),
            "type": "user",
            "content": [{"text": "Make the retry loop back off exponentially"}],
        },
        {"$set": {"lastUpdated": T.format(0)}},
        {**answer, "content": [{"text": "I will change retry.py."}]},
        {**answer, "content": [{"text": "I will change retry.py."}], "toolCalls": [call]},
        {**answer, "content": [{"text": "I will change retry.py."}], "toolCalls": [done]},
        {**answer, "content": [{"text": "I will change retry.py."}], "toolCalls": [done, shell]},
        {"id": "u-back", "timestamp": T.format(4), "type": "user", "content": "Undo that"},
        {"$rewindTo": "u-back"},
        {"id": "u2", "timestamp": T.format(4), "type": "user", "content": "/stats"},
        {"id": "g2", "timestamp": T.format(5), "type": "gemini", "content": "Done: it backs off."},
        {"$set": {"lastUpdated": T.format(5)}},
    ]
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def test_a_session_file_gives_each_message_and_tool_call_once(tmp_path: Path) -> None:
    messages = list(read_messages(gemini_session(tmp_path / "s.jsonl"), "gemini"))
    assert [(m.role, m.tools, m.text.split("\n")[0]) for m in messages] == [
        ("user", (), "Make the retry loop back off exponentially"),
        ("assistant", (), "I will change retry.py."),
        ("assistant", ("replace",), "replace /home/u/app/retry.py a b"),
        ("tool", ("replace",), "Successfully modified file"),
        ("assistant", ("run_shell_command",), "run_shell_command pytest -q tests/test_retry.py"),
        ("tool", ("run_shell_command",), "Exit code: 1"),
        ("assistant", (), "Done: it backs off."),
    ]
    assert {m.session for m in messages} == {SESSION} and messages[0].time == "2026-08-20T09:10:00Z"
    edit, shell, failed = messages[2], messages[4], messages[5]
    assert edit.edited == ("/home/u/app/retry.py",) and shell.commands == (
        "pytest -q tests/test_retry.py",
    )
    assert failed.failed and failed.parent == shell.uuid == "shell-1"


def test_a_parser_resumed_mid_file_does_not_repeat_what_it_read(tmp_path: Path) -> None:
    lines = gemini_session(tmp_path / "s.jsonl").read_bytes().splitlines()
    first = parser_for("gemini")
    early = [m for line in lines[:5] for m in first.feed(line)]
    later = parser_for("gemini", json.loads(json.dumps(first.state())))
    rest = [m for line in lines[5:] for m in later.feed(line)]
    one = parser_for("gemini")
    whole = [m for line in lines for m in one.feed(line)]
    assert early + rest == whole


def test_an_older_whole_session_document_on_one_line_is_read(tmp_path: Path) -> None:
    document = {
        "sessionId": "old",
        "projectHash": "ab",
        "messages": [
            {"id": "1", "timestamp": T.format(0), "type": "user", "content": "Fix the build"},
            {"id": "2", "timestamp": T.format(1), "type": "gemini", "content": "Fixed."},
        ],
    }
    path = tmp_path / "session-old.json"
    path.write_text(json.dumps(document))
    assert [(m.session, m.role, m.text) for m in read_messages(path, "gemini")] == [
        ("old", "user", "Fix the build"),
        ("old", "assistant", "Fixed."),
    ]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
KEYS = st.sampled_from(
    ["id", "type", "content", "toolCalls", "sessionId", "$set", "$rewindTo", "messages", "args"]
)
RECORDS = st.dictionaries(KEYS, JSON | st.sampled_from(["user", "gemini", "x"]), max_size=6)


@settings(max_examples=80, deadline=None)
@given(st.lists(RECORDS | JSON, max_size=6))
def test_any_json_lines_never_raise_and_the_state_resumes(records: list[Any]) -> None:
    parser = parser_for("gemini")
    parser.feed(json.dumps({"sessionId": "s"}).encode())
    for record in records:
        for message in parser.feed(json.dumps(record).encode()):
            assert message.agent == "gemini" and message.session == "s"
    parser_for("gemini", json.loads(json.dumps(parser.state())))


def test_session_end_capture_summarizes_a_gemini_session(store: Path, tmp_path: Path) -> None:
    path = gemini_session(tmp_path / "s.jsonl", project="/home/u/app")
    argv = ["--agent", "gemini", "--session", SESSION, "--transcript", str(path)]
    result = mem_json("capture", "session-end", *argv, "--cwd", str(tmp_path))
    assert result["action"] == "saved"
    shown = mem_json("show", result["id"])[0]
    assert shown["agent"] == "gemini" and shown["source"] == "session-end"
    assert shown["request"] == "Make the retry loop back off exponentially"
    assert "`pytest -q tests/test_retry.py` (failed)" in shown["investigated"]
    assert "/home/u/app/retry.py" in shown["completed"] and "backs off" in shown["completed"]


@pytest.mark.e2e
def test_the_session_end_hook_starts_the_summary_and_answers_at_once(
    store: Path, tmp_path: Path
) -> None:
    project = tmp_path / "app"
    project.mkdir()
    path = gemini_session(tmp_path / "session-2026-08-20T09-10-5e1f0c2a.jsonl", str(project))
    payload = {
        "session_id": SESSION,
        "transcript_path": str(path),
        "cwd": str(project),
        "hook_event_name": "SessionEnd",
        "timestamp": T.format(6),
        "reason": "exit",
    }
    before = git(store, "rev-parse", "HEAD")
    started = time.monotonic()
    done = run_mem("hook", "gemini", "SessionEnd", input=json.dumps(payload), cwd=project)
    assert done.returncode == 0 and done.stdout.strip() == "{}" and done.stderr == ""
    assert time.monotonic() - started < 5
    deadline = time.monotonic() + 10
    while git(store, "rev-parse", "HEAD") == before:
        assert time.monotonic() < deadline, "no summary was committed within 10 s"
        time.sleep(0.1)
    summary = mem_json("list", "--kind", "summary")[0]
    shown = mem_json("show", summary["id"])[0]
    assert (shown["agent"], shown["session"]) == ("gemini", SESSION)
    assert "retry.py" in shown["completed"]


def test_precompress_answers_nothing(store: Path, tmp_path: Path) -> None:
    payload = {"session_id": "s", "cwd": str(tmp_path), "trigger": "auto"}
    result = mem("hook", "gemini", "PreCompress", input=json.dumps(payload))
    assert json.loads(result.stdout) == {}


def test_a_compression_lets_recall_show_again_what_it_showed(store: Path, tmp_path: Path) -> None:
    mem("save", "Checkout tests need the Stripe mock running on port 12111", "--type", "gotcha")
    (store / "mem.toml").write_text("[context]\nhot_count = 0\n")  # recall may bring any
    asked = json.dumps(
        {
            "session_id": SESSION,
            "cwd": str(tmp_path),
            "hook_event_name": "BeforeAgent",
            "prompt": "is the stripe mock running?",
        }
    )
    assert "Stripe mock" in mem("hook", "gemini", "BeforeAgent", input=asked).stdout
    assert json.loads(mem("hook", "gemini", "BeforeAgent", input=asked).stdout) == {}  # once
    compress = {"session_id": SESSION, "cwd": str(tmp_path), "trigger": "auto"}
    assert json.loads(mem("hook", "gemini", "PreCompress", input=json.dumps(compress)).stdout) == {}
    assert "Stripe mock" in mem("hook", "gemini", "BeforeAgent", input=asked).stdout


def test_after_a_compression_recall_gives_what_session_start_had_shown(
    store: Path, tmp_path: Path
) -> None:
    """Gemini CLI runs no session start after compressing: what the first one showed is gone
    from its context, so recall may give it."""
    mem("save", "Checkout tests need the Stripe mock running on port 12111", "--type", "gotcha")
    base = {"session_id": SESSION, "cwd": str(tmp_path)}
    start = mem("hook", "gemini", "SessionStart", input=json.dumps(base)).stdout
    assert "Stripe mock" in start
    asked = json.dumps({**base, "prompt": "is the stripe mock running on its port?"})
    assert json.loads(mem("hook", "gemini", "BeforeAgent", input=asked).stdout) == {}  # shown
    mem("hook", "gemini", "PreCompress", input=json.dumps({**base, "trigger": "auto"}))
    assert "Stripe mock" in mem("hook", "gemini", "BeforeAgent", input=asked).stdout


SETTINGS = '{\n    "theme": "GitHub",\n    "hooks": {"BeforeTool": [{"matcher": "write_file", \
"hooks": [{"type": "command", "command": "./lint.sh"}]}]}\n}\n'


def test_install_registers_four_events_and_keeps_everything_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    git(tmp_path, "init", "-q")
    path = tmp_path / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(SETTINGS)
    dry = mem("install", "gemini", "--dry-run").stdout
    assert "Would have" in dry and "SessionEnd" in dry and path.read_text() == SETTINGS
    mem("install", "gemini")
    data = json.loads(path.read_text())
    assert data["theme"] == "GitHub" and data["hooks"]["BeforeTool"][0]["matcher"] == "write_file"
    # PreCompress: after a compression recall may show again what it showed before.
    for event in ("SessionStart", "BeforeAgent", "PreCompress", "SessionEnd"):
        (hook,) = data["hooks"][event][0]["hooks"]
        assert hook["command"].endswith(f"hook gemini {event}") and hook["timeout"] == 10_000
    assert data["mcpServers"]["mem"]["args"][-1] == "mcp"
    assert "Nothing to change" in mem("install", "gemini").stdout
    mem("uninstall", "gemini")
    assert path.read_text() == SETTINGS
    assert not path.with_name("settings.json.mem-backup").exists()


def test_uninstall_leaves_a_file_it_never_touched_alone(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(SETTINGS)
    assert not gemini.uninstall(path).changed and path.read_text() == SETTINGS


@pytest.mark.parametrize("event", ["SessionStart", "BeforeAgent", "PreCompress", "SessionEnd"])
@pytest.mark.parametrize("in_git", [True, False], ids=["git-without-store", "no-git"])
def test_a_folder_without_a_store_gets_an_empty_object_and_no_note(
    tmp_path: Path, event: str, in_git: bool
) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    if in_git:
        git(folder, "init", "-q")
    payload = {"session_id": "s", "cwd": str(folder), "prompt": "How do we deploy the app?"}
    done = run_mem("hook", "gemini", event, input=json.dumps(payload), cwd=folder)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "{}", "")


def test_installed_hooks_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    git(tmp_path, "init", "-q")
    mem("install", "gemini")
    hooks = json.loads((tmp_path / ".gemini" / "settings.json").read_text())["hooks"]
    names = {event: hooks[event][0]["hooks"][0]["name"] for event in hooks}
    assert names == {
        "SessionStart": "mem-context",
        "BeforeAgent": "mem-recall",
        "PreCompress": "mem-compression",
        "SessionEnd": "mem-summary",
        "BeforeTool": "mem-guards",
    }


def test_rewound_turns_are_left_out_of_the_session_summary(store: Path, tmp_path: Path) -> None:
    """``{"$rewindTo": ID}`` drops that message and every one after it (loadConversationRecord)."""
    path = gemini_session(tmp_path / "s.jsonl", project="/home/u/app")
    kept = path.read_text().splitlines()[:3]  # metadata, info, the first request
    rewound = [
        {"id": "u9", "timestamp": T.format(6), "type": "user", "content": "Delete the tests"},
        {
            "id": "g9",
            "timestamp": T.format(7),
            "type": "gemini",
            "content": "Deleting them.",
            "toolCalls": [
                {
                    "id": "w9",
                    "name": "write_file",
                    "args": {"file_path": "/home/u/app/tests/gone.py", "content": ""},
                    "status": "success",
                    "result": [{"text": "written"}],
                }
            ],
        },
        {"$rewindTo": "u9"},
        {"id": "g2", "timestamp": T.format(8), "type": "gemini", "content": "Backed off."},
    ]
    path.write_text("\n".join(kept + [json.dumps(record) for record in rewound]) + "\n")
    argv = ["--agent", "gemini", "--session", SESSION, "--transcript", str(path)]
    result = mem_json("capture", "session-end", *argv, "--cwd", str(tmp_path))
    shown = mem_json("show", result["id"])[0]
    assert shown["request"] == "Make the retry loop back off exponentially"
    assert "Backed off." in shown["completed"]
    text = json.dumps(shown)
    assert "gone.py" not in text and "Deleting them" not in text and "Delete the tests" not in text


def test_a_rewind_to_an_unknown_message_drops_everything_before_it(tmp_path: Path) -> None:
    path = gemini_session(tmp_path / "s.jsonl")
    lines = path.read_text().splitlines()
    rewind = json.dumps({"$rewindTo": "not-a-message"})
    after = json.dumps({"id": "u5", "timestamp": T.format(9), "type": "user", "content": "Hi"})
    path.write_text("\n".join([*lines, rewind, after]) + "\n")
    assert [m.text for m in read_messages(path, "gemini")] == ["Hi"]


def test_install_and_status_say_when_gemini_cli_does_not_trust_the_folder(
    isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (
        "GEMINI_CLI_HOME",
        "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
        "GEMINI_CLI_TRUST_WORKSPACE",
    ):
        monkeypatch.delenv(name, raising=False)
    project = tmp_path / "app"
    project.mkdir()
    git(project, "init", "-q")
    monkeypatch.chdir(project)
    folders = isolated_env / ".gemini" / "trustedFolders.json"
    folders.parent.mkdir()
    # Folder trust is on unless settings turn it off; no rule for this folder: not trusted.
    done = mem("install", "gemini")
    (line,) = [line for line in done.stderr.splitlines() if "trust" in line]
    assert str(project) in line and "trustedFolders.json" in line
    assert "trust" in mem("status").stdout.split("agents:")[1]

    folders.write_text(json.dumps({str(project / "sub"): "TRUST_PARENT"}))  # its parent: app
    assert "trust" not in mem("install", "gemini").stderr
    assert "trust" not in mem("status").stdout.split("agents:")[1]
    folders.write_text(json.dumps({str(tmp_path): "TRUST_FOLDER", str(project): "DO_NOT_TRUST"}))
    assert "trust" in mem("install", "gemini").stderr  # the longest rule decides
    settings = isolated_env / ".gemini" / "settings.json"
    settings.write_text(json.dumps({"security": {"folderTrust": {"enabled": False}}}))
    assert "trust" not in mem("install", "gemini").stderr
    assert "trust" not in mem("status").stdout.split("agents:")[1]
