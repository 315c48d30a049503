"""Codex: its hook inputs as Codex sends them, the answers' limits, and the installer."""

from __future__ import annotations

import json
import os
import subprocess
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memcli.adapters.agents.protocol import ANSWER_BYTE_CAPS, answer, fit_bytes

from .conftest import git, mem, mem_executable, mem_json, run_mem

SESSION = "019a1b2c-3d4e-7f00-8a9b-0c1d2e3f4a5b"


def codex_input(event: str, cwd: Path, **extra: Any) -> dict[str, Any]:
    """A hook input with the fields Codex's schemas require (hooks/schema/generated/)."""
    return {
        "session_id": SESSION,
        "transcript_path": None,
        "cwd": str(cwd),
        "hook_event_name": event,
        "model": "gpt-5-codex",
        "permission_mode": "default",
        **extra,
    }


def hook(event: str, payload: dict[str, Any]) -> Any:
    out = mem("hook", "codex", event, input=json.dumps(payload)).stdout
    return json.loads(out) if out.strip() else None


def test_session_start_and_prompt_answer_codex_inputs(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem("save", "Checkout tests need the Stripe mock running on port 12111", "--type", "gotcha")
    start = hook("SessionStart", codex_input("SessionStart", tmp_path, source="startup"))
    # From now on session start lists memories by a line each: recall may bring their facts.
    (store / "mem.toml").write_text("[context]\nhot_count = 0\n")
    assert start["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "Stripe mock" in start["hookSpecificOutput"]["additionalContext"]
    monkeypatch.setenv("MEM_NOW", "2027-01-15T10:00:00Z")  # weeks later, another session
    asked = codex_input(
        "UserPromptSubmit", tmp_path, turn_id="t1", prompt="is the stripe mock running?"
    )
    asked["session_id"] = "019a1b2c-0000-7f00-8a9b-0c1d2e3f4a5b"
    recalled = hook("UserPromptSubmit", asked)
    assert "Stripe mock" in recalled["hookSpecificOutput"]["additionalContext"]


def test_a_compaction_lets_recall_show_again_what_it_showed(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem("save", "Checkout tests need the Stripe mock running on port 12111", "--type", "gotcha")
    (store / "mem.toml").write_text("[context]\nhot_count = 0\n")  # recall may bring any
    asked = codex_input("UserPromptSubmit", tmp_path, turn_id="t1", prompt="is the stripe mock up?")
    assert (
        "Stripe mock" in hook("UserPromptSubmit", asked)["hookSpecificOutput"]["additionalContext"]
    )
    assert hook("UserPromptSubmit", asked) is None  # never twice in a session
    hook("SessionStart", codex_input("SessionStart", tmp_path, source="compact"))
    again = hook("UserPromptSubmit", asked)
    assert "Stripe mock" in again["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize(
    ("event", "extra"),
    [
        ("Stop", {"turn_id": "t1", "stop_hook_active": False, "last_assistant_message": "ok"}),
        ("PreCompact", {"turn_id": "t1", "trigger": "auto"}),
        ("PostCompact", {"turn_id": "t1", "trigger": "manual"}),
        ("SessionEnd", {"reason": "prompt_input_exit"}),  # transcript_path null: nothing
    ],
)
def test_events_without_an_answer(
    store: Path, tmp_path: Path, event: str, extra: dict[str, Any]
) -> None:
    assert hook(event, codex_input(event, tmp_path, **extra)) is None


def test_answer_stays_within_codex_budget_in_bytes(store: Path, tmp_path: Path) -> None:
    # Three UTF-8 bytes a character: within 6,000 characters, yet over Codex's 10,000 bytes.
    lines = "".join(f"- 项目说明第{n}条：部署前先运行预发布检查\n" for n in range(400))
    (store / "MEMORY.md").write_text(lines)
    start = hook("SessionStart", codex_input("SessionStart", tmp_path, source="resume"))
    text = start["hookSpecificOutput"]["additionalContext"]
    assert len(text) <= 6000 and len(text.encode()) <= ANSWER_BYTE_CAPS["codex"]
    assert len(text.encode()) <= 2500 * 4  # Codex's cut: a token per 4 bytes
    assert text.endswith("部署前先运行预发布检查") and "第150条" in text  # whole lines, most kept


@given(st.lists(st.text(max_size=40), max_size=30), st.integers(min_value=0, max_value=400))
def test_fit_bytes_keeps_whole_lines_within_the_limit(lines: list[str], limit: int) -> None:
    text = "\n".join(lines)
    fitted = fit_bytes(text, limit)
    assert len(fitted.encode()) <= limit
    if len(text.encode()) <= limit:
        assert fitted == text
    elif fitted:  # whole lines: only blanks between what is kept and the next line break
        rest = text[len(fitted) :]
        assert text.startswith(fitted) and "\n" in rest and not rest.split("\n", 1)[0].strip()


def test_bad_input_answers_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="known: SessionStart"):
        answer("codex", "Nope", {}, print)
    result = mem("hook", "codex", "UserPromptSubmit", input="[1, 2")
    assert result.stdout == "" and result.exit_code == 0


@pytest.mark.e2e
def test_session_end_summarizes_the_rollout_in_the_background(store: Path, tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    git(project, "init", "-q")
    rollout = tmp_path / f"rollout-2026-11-22T10-00-00-{SESSION}.jsonl"
    records = [
        ("session_meta", {"id": SESSION, "cwd": str(project), "cli_version": "0.130.0"}),
        ("response_item", _message("user", "input_text", "Make the retry loop back off")),
        ("event_msg", {"type": "user_message", "message": "Make the retry loop back off"}),
        ("response_item", _message("assistant", "output_text", "Done: exponential backoff.")),
    ]
    rollout.write_text(
        "".join(
            json.dumps({"timestamp": f"2026-11-22T10:00:0{i}Z", "type": kind, "payload": p}) + "\n"
            for i, (kind, p) in enumerate(records)
        )
    )
    payload = codex_input("SessionEnd", project, reason="other")
    payload["transcript_path"] = str(rollout)
    before = git(store, "rev-parse", "HEAD")
    done = run_mem("hook", "codex", "SessionEnd", input=json.dumps(payload), cwd=project)
    assert done.returncode == 0 and done.stdout == "", done.stderr
    deadline = time.monotonic() + 10
    while git(store, "rev-parse", "HEAD") == before:
        assert time.monotonic() < deadline, "no summary was committed within 10 s"
        time.sleep(0.1)
    summary = mem_json("list", "--kind", "summary")[0]
    shown = mem_json("show", summary["id"])[0]
    assert (shown["session"], shown["agent"]) == (SESSION, "codex")
    assert shown["request"].startswith("Make the retry loop")


@pytest.mark.e2e
def test_installed_command_answers_as_codex_runs_it(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hooks.json's own command through a shell, in the session's directory, input on stdin."""
    project = tmp_path / "app"
    project.mkdir()
    git(project, "init", "-q")
    monkeypatch.chdir(project)
    mem("save", "Release builds need the signing key from the vault", "--type", "gotcha")
    # The project's hooks run plain `mem`: the one on the user's PATH.
    monkeypatch.setenv("PATH", f"{Path(mem_executable()).parent}{os.pathsep}{os.environ['PATH']}")
    mem("install", "codex", "--no-mcp")
    groups = json.loads((project / ".codex" / "hooks.json").read_text())["hooks"]["SessionStart"]
    command = groups[-1]["hooks"][0]["command"]
    payload = codex_input("SessionStart", project, source="startup")
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    # session-start.command.output: no other property, hookEventName the event's own.
    assert set(answer) == {"hookSpecificOutput"}
    assert set(answer["hookSpecificOutput"]) == {"hookEventName", "additionalContext"}
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "signing key" in answer["hookSpecificOutput"]["additionalContext"]


def _message(role: str, kind: str, text: str) -> dict[str, Any]:
    return {"type": "message", "role": role, "content": [{"type": kind, "text": text}]}


HOOKS = {
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-me", "timeout": 3}]}],
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "x"}]}],
    }
}
CONFIG = '# mine\nmodel = "gpt-5"  # keep\n\n[projects."/p"]\ntrust_level = "trusted"\n'


def _codex_files(root: Path) -> tuple[Path, Path]:
    folder = root / ".codex"
    folder.mkdir(parents=True, exist_ok=True)
    hooks, config = folder / "hooks.json", folder / "config.toml"
    hooks.write_text(json.dumps(HOOKS, indent=2) + "\n")
    config.write_text(CONFIG)
    return hooks, config


def test_install_round_trip_keeps_everything_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    hooks, config = _codex_files(tmp_path)
    before = hooks.read_bytes(), config.read_bytes()
    dry = mem("install", "codex", "--dry-run").stdout
    assert "+++" in dry and "[mcp_servers.mem]" in dry and "trust" in dry
    assert (hooks.read_bytes(), config.read_bytes()) == before
    mem("install", "codex")
    data = json.loads(hooks.read_text())["hooks"]
    assert data["Stop"] == HOOKS["hooks"]["Stop"]
    assert data["SessionStart"][0] == HOOKS["hooks"]["SessionStart"][0]  # theirs stays first
    assert {"SessionStart", "UserPromptSubmit", "SessionEnd"} <= set(data)
    assert all("timeout" in group["hooks"][0] for group in data["SessionEnd"])
    text = config.read_text()
    assert text.startswith(CONFIG) and "[mcp_servers.mem]" in text
    assert "Nothing to change" in mem("install", "codex").stdout  # twice: nothing more
    mem("uninstall", "codex")
    assert (hooks.read_bytes(), config.read_bytes()) == before


def test_upgrade_adds_session_end_and_keeps_the_trusted_entries_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex keys trust by hooks.json, event, group and handler: mem's old entries stay put."""
    monkeypatch.chdir(tmp_path)
    hooks, _ = _codex_files(tmp_path)
    mem("install", "codex", "--no-mcp")
    data = json.loads(hooks.read_text())
    del data["hooks"]["SessionEnd"]  # as an older mem installed it
    hooks.write_text(json.dumps(data, indent=2) + "\n")
    mem("install", "codex", "--no-mcp")
    again = json.loads(hooks.read_text())["hooks"]
    assert again["SessionStart"] == data["hooks"]["SessionStart"]
    assert again["UserPromptSubmit"] == data["hooks"]["UserPromptSubmit"]
    assert "hook codex SessionEnd" in again["SessionEnd"][0]["hooks"][0]["command"]


def test_no_mcp_and_someone_elses_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    hooks, config = _codex_files(tmp_path)
    mem("install", "codex", "--no-mcp")
    assert config.read_text() == CONFIG and "mem hook codex" in hooks.read_text()
    mem("uninstall", "codex")
    theirs = CONFIG + '\n[mcp_servers.mem]\ncommand = "their-mem"\n'
    config.write_text(theirs)
    before = hooks.read_bytes()
    refused = mem("install", "codex", expect=1)
    assert "another server" in refused.output
    assert (hooks.read_bytes(), config.read_text()) == (before, theirs)  # nothing written


@pytest.mark.parametrize("inline", ["mcp_servers = {}", 'mcp_servers = { x = { command = "x" } }'])
def test_servers_written_inline_are_not_called_invalid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inline: str
) -> None:
    """Valid TOML where mem's block cannot go: the refusal says so, not that the file is broken."""
    monkeypatch.chdir(tmp_path)
    hooks, config = _codex_files(tmp_path)
    config.write_text(f"{inline}\n{CONFIG}")
    refused = mem("install", "codex", expect=1).output
    assert "not valid TOML" not in refused and "add it by hand" in refused
    assert config.read_text() == f"{inline}\n{CONFIG}"


def test_user_scope_uses_codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.chdir(tmp_path)
    result = mem("install", "codex", "--user")
    assert "/hooks" in result.stdout and "trusted project" not in result.stdout
    assert (home / "hooks.json").is_file() and (home / "config.toml").is_file()
    mem("uninstall", "codex", "--user")
    assert not (home / "hooks.json").exists() and not (home / "config.toml").exists()


def test_reinstall_keeps_mem_current_and_uninstall_gives_back_the_first_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older mem's entries are brought up to date; the backup stays the file before mem."""
    monkeypatch.chdir(tmp_path)
    hooks, config = _codex_files(tmp_path)
    hooks.write_text(json.dumps(HOOKS) + "\n")  # one line: a rewrite would show
    before = hooks.read_bytes(), config.read_bytes()
    mem("install", "codex")
    data = json.loads(hooks.read_text())
    del data["hooks"]["SessionEnd"]  # as an older mem installed them
    hooks.write_text(json.dumps(data, indent=2) + "\n")
    old_block = config.read_text().replace("startup_timeout_sec = 30\n", "enabled = false\n")
    config.write_text(old_block.replace('args = ["mcp"]', 'args = ["mcp", "--old"]'))
    updated = mem("install", "codex").stdout
    assert '-args = ["mcp", "--old"]' in updated and "+startup_timeout_sec = 30" in updated
    table = tomllib.loads(config.read_text())["mcp_servers"]["mem"]
    assert table["args"] == ["mcp"] and table["startup_timeout_sec"] == 30
    assert table["enabled"] is False  # a line someone added to mem's table stays
    assert config.read_text().startswith(CONFIG)
    assert "SessionEnd" in json.loads(hooks.read_text())["hooks"]
    assert mem("install", "codex").stdout.count("Nothing to change") == 2
    mem("uninstall", "codex")
    assert (hooks.read_bytes(), config.read_bytes()) == before
    assert sorted(p.name for p in hooks.parent.iterdir()) == ["config.toml", "hooks.json"]


def test_install_says_when_config_toml_declares_hooks_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _, config = _codex_files(tmp_path)
    config.write_text(CONFIG + '\n[hooks.state."/p/hooks.json:stop:0:0"]\ntrusted_hash = "x"\n')
    assert "two places" not in mem("install", "codex", "--dry-run").output  # Codex's trust only
    config.write_text(
        CONFIG + '\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "ding"\n'
    )
    said = mem("install", "codex", "--no-mcp").output
    assert "declares hooks too (Stop)" in said and "two places" in said


def test_uninstall_keeps_later_groups_at_their_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex trusts a hook by its group's index: a group added after mem's keeps its place."""
    monkeypatch.chdir(tmp_path)
    hooks, _ = _codex_files(tmp_path)
    mem("install", "codex", "--no-mcp")
    data = json.loads(hooks.read_text())
    later = {"hooks": [{"type": "command", "command": "other-tool start"}]}
    data["hooks"]["SessionStart"].append(later)  # another installer, after mem
    hooks.write_text(json.dumps(data, indent=2) + "\n")
    mem("uninstall", "codex")
    left = json.loads(hooks.read_text())["hooks"]
    assert left["SessionStart"] == [HOOKS["hooks"]["SessionStart"][0], {"hooks": []}, later]
    assert "UserPromptSubmit" not in left and left["Stop"] == HOOKS["hooks"]["Stop"]
    mem("install", "codex", "--no-mcp")  # back into its old place
    groups = json.loads(hooks.read_text())["hooks"]["SessionStart"]
    assert groups[2] == later and "hook codex SessionStart" in groups[1]["hooks"][0]["command"]
