"""Provenance: the agent and the project's git commit a memory was written from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from memcli.core import codec
from memcli.core.errors import InvalidMemoryFile
from memcli.core.ids import new_ulid
from memcli.core.model import Observation, Summary

from .conftest import git, mem, mem_json

agents = st.none() | st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,30}", fullmatch=True)
commits = st.none() | st.from_regex(r"[0-9a-f]{40}", fullmatch=True)


@settings(max_examples=100, deadline=None)
@given(agents, commits, st.booleans())
def test_provenance_round_trips_through_markdown_and_yaml(
    agent: str | None, commit: str | None, summary: bool
) -> None:
    record: Observation | Summary
    if summary:
        record = Summary(
            id=new_ulid(),
            title="t",
            created="2026-11-21T07:00:00Z",
            request="r",
            agent=agent,
            project_commit=commit,
        )
        back: Observation | Summary = Summary.from_markdown(record.to_markdown(), "x.md")
    else:
        record = Observation(
            id=new_ulid(),
            type="gotcha",
            title="t",
            created="2026-11-21T07:00:00Z",
            narrative="n",
            agent=agent,
            project_commit=commit,
        )
        back = Observation.from_markdown(record.to_markdown(), "x.md")
    assert back == record
    assert back.extra == {}
    head = record.to_markdown()[4:].split("\n---\n", 1)[0]
    parsed = yaml.safe_load(head)
    assert parsed.get("agent") == agent and parsed.get("project_commit") == commit
    assert codec.read_document(record.to_markdown())[0].get("project_commit") == commit


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("agent: -claude", "invalid agent"),
        ("agent: cla ude", "invalid agent"),
        ("project_commit: abc123", "invalid project_commit"),
        ("project_commit: " + "g" * 40, "invalid project_commit"),
    ],
)
def test_bad_provenance_names_the_field(line: str, problem: str) -> None:
    head = f"id: {new_ulid()}\ntype: gotcha\ntitle: t\ncreated: 2026-11-21T07:00:00Z\n{line}"
    text = f"---\n{head}\n---\nn\n"
    with pytest.raises(InvalidMemoryFile, match=problem):
        Observation.from_markdown(text, "x.md")


def _project(tmp_path: Path) -> tuple[Path, str]:
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    (project / "a.py").write_text("print(1)\n")
    git(project, "add", "a.py")
    git(project, "commit", "-qm", "first")
    return project, git(project, "rev-parse", "HEAD").strip()


def test_save_records_agent_and_project_commit_and_show_prints_them(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, head = _project(tmp_path)
    monkeypatch.chdir(project)
    monkeypatch.delenv("CLAUDECODE", raising=False)
    saved = mem_json(
        "save",
        "--agent",
        "codex",
        "--session",
        "s1",
        input='{"text": "the retry loop needs a cap"}',
    )
    assert (saved["agent"], saved["session"], saved["project_commit"]) == ("codex", "s1", head)
    shown = mem("show", saved["id"]).stdout
    assert "agent: codex" in shown and f"project commit: {head}" in shown
    assert mem_json("show", saved["id"])[0]["project_commit"] == head


def test_save_detects_claude_code_and_records_no_commit_outside_a_repository(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDECODE", "1")
    saved = mem_json("save", input='{"text": "an answer from inside the shell"}')
    assert saved["agent"] == "claude" and saved["project_commit"] is None
    monkeypatch.delenv("CLAUDECODE")
    plain = mem_json("save", input='{"text": "typed by a person"}')
    assert plain["agent"] is None
    assert "agent:" not in mem("show", plain["id"]).stdout


def test_a_bad_agent_is_one_line_error(store: Path) -> None:
    result = mem("save", "text", "--agent", "no way", expect=1)
    assert "invalid agent" in result.output and "Traceback" not in result.output


def test_resaving_an_unchanged_keyed_memory_at_a_new_commit_changes_nothing(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, head = _project(tmp_path)
    monkeypatch.chdir(project)
    first = mem_json("save", "--key", "k1", input='{"text": "same text"}')
    (project / "b.py").write_text("x\n")
    git(project, "add", "b.py")
    git(project, "commit", "-qm", "second")
    again = mem_json("save", "--key", "k1", input='{"text": "same text"}')
    assert (
        again["action"] == "unchanged"
        and again["project_commit"] == head == first["project_commit"]
    )


def test_the_post_compact_summary_records_claude_and_the_project_commit(
    store: Path, tmp_path: Path
) -> None:
    project, head = _project(tmp_path)
    event = {
        "session_id": "s-compact",
        "cwd": str(project),
        "hook_event_name": "PostCompact",
        "trigger": "auto",
        "compact_summary": "Moved the cache to plumbing commands",
    }
    mem("hook", "claude", "PostCompact", input=json.dumps(event))
    summary = mem_json("list", "--kind", "summary")[0]
    shown = mem_json("show", summary["id"])[0]
    assert (shown["agent"], shown["project_commit"], shown["session"]) == (
        "claude",
        head,
        "s-compact",
    )


@pytest.mark.parametrize(
    ("client", "agent"),
    [
        ("claude-code", "claude"),
        ("codex-mcp-client", "codex"),
        ("gemini-cli-mcp-client-mem", "gemini"),  # newer Gemini CLIs add the server's name
        ("Zed Editor", "zed-editor"),
        ("  --Cursor (VS Code)--", "cursor-vs-code"),
        ("日本語", None),
        ("", None),
        (None, None),
        ("a" * 300, "a" * 100),
    ],
)
def test_an_mcp_clients_name_becomes_an_agent_name(client: str | None, agent: str | None) -> None:
    from memcli.capture.provenance import agent_of_client

    assert agent_of_client(client) == agent
