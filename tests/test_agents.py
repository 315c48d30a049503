"""Codex and Gemini CLI: their hooks through the installed command, and their installers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memcli.adapters.agents import codex, gemini

from .conftest import git, mem, mem_here, run_mem

pytestmark = pytest.mark.e2e

PROMPT = "the checkout tests fail, is the stripe mock running on its port?"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git project with memories in its central store, weeks old by MEM_NOW."""
    root = tmp_path / "webshop"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for text, kind in (
        ("Payments use idempotency keys on every retry", "decision"),
        ("Checkout tests need the Stripe mock running on port 12111", "gotcha"),
    ):
        assert mem_here("save", text, "--type", kind, cwd=root).returncode == 0  # setup
    return root


def hook(
    agent: str, event: str, payload: dict[str, Any], cwd: Path, *, later: bool = False
) -> tuple[Any, str]:
    """Run ``mem hook AGENT EVENT``; ``later``: weeks after the memories were saved."""
    env = {"MEM_NOW": "2027-01-15T10:00:00Z"} if later else None
    result = run_mem("hook", agent, event, input=json.dumps(payload), cwd=cwd, env=env)
    assert result.returncode == 0, result.stderr
    return (json.loads(result.stdout) if result.stdout.strip() else None), result.stderr


@pytest.mark.parametrize(
    ("agent", "start", "prompt_event"),
    [("codex", "SessionStart", "UserPromptSubmit"), ("gemini", "SessionStart", "BeforeAgent")],
)
def test_session_start_and_prompt_hooks_answer_as_each_agent_reads(
    project: Path, tmp_path: Path, agent: str, start: str, prompt_event: str
) -> None:
    base = {"session_id": f"{agent}-1", "cwd": str(project), "transcript_path": None}
    answer, _ = hook(
        agent, start, {**base, "hook_event_name": start, "source": "startup"}, tmp_path
    )
    output = answer["hookSpecificOutput"]
    assert output["hookEventName"] == start and "Stripe mock" in output["additionalContext"]
    # From now on session start lists memories by a line each: recall may bring their facts.
    (tmp_path / "mem-home" / "webshop" / "mem.toml").write_text("[context]\nhot_count = 0\n")
    asked = {**base, "session_id": f"{agent}-2", "prompt": PROMPT}
    recalled, _ = hook(agent, prompt_event, asked, tmp_path, later=True)
    text = recalled["hookSpecificOutput"]["additionalContext"]
    assert "Stripe mock" in text and "idempotency" not in text


@pytest.mark.parametrize(
    ("agent", "event"),
    [("claude", "UserPromptSubmit"), ("codex", "UserPromptSubmit"), ("gemini", "BeforeAgent")],
)
def test_an_instruction_without_a_cue_is_recalled_for(
    project: Path, tmp_path: Path, agent: str, event: str
) -> None:
    payload = {
        "session_id": f"{agent}-3",
        "cwd": str(project),
        "hook_event_name": event,
        "prompt": "Start the Stripe mock for the checkout tests",
    }
    env = {"MEM_NOW": "2027-01-15T10:00:00Z"}
    # Session start lists memories by a line each: recall may bring their facts.
    (tmp_path / "mem-home" / "webshop" / "mem.toml").write_text("[context]\nhot_count = 0\n")
    result = run_mem("hook", agent, event, input=json.dumps(payload), cwd=tmp_path, env=env)
    assert result.returncode == 0 and "port 12111" in result.stdout
    assert "idempotency" not in result.stdout


@pytest.mark.parametrize(
    ("agent", "event"), [("codex", "Stop"), ("gemini", "PreCompress"), ("gemini", "SessionEnd")]
)
def test_events_with_nothing_to_add_answer_nothing(
    project: Path, tmp_path: Path, agent: str, event: str
) -> None:
    payload = {"session_id": "s", "cwd": str(project), "transcript_path": "/nowhere.json"}
    nothing = {} if agent == "gemini" else None  # Gemini CLI parses stdout as JSON
    assert hook(agent, event, payload, tmp_path) == (nothing, "")


@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_unknown_events_and_bad_input_fail_open(tmp_path: Path, agent: str) -> None:
    nothing = "{}\n" if agent == "gemini" else ""  # Gemini CLI parses stdout as JSON
    result = run_mem("hook", agent, "Nope", input="{}", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == nothing
    assert "unknown" in result.stderr and "SessionStart" in result.stderr
    broken = run_mem("hook", agent, "SessionStart", input="[1, 2", cwd=tmp_path)
    assert broken.returncode == 0 and broken.stdout == nothing and broken.stderr.count("\n") == 1


def test_codex_gets_its_smaller_budget(project: Path, tmp_path: Path) -> None:
    for n in range(12):
        fact = f"run make stage-{n} first {'y' * 150}"
        title = f"Deploy step {n} needs the staging flag {'x' * 150}"
        assert run_mem("save", title, "--fact", fact, cwd=project).returncode == 0
    (tmp_path / "mem-home" / "webshop" / "mem.toml").write_text("[agents]\ncodex_context = 900\n")
    payload = {"session_id": "s", "cwd": str(project)}
    (codex_answer, _), (claude_answer, _) = (
        hook("codex", "SessionStart", payload, tmp_path),
        hook("claude", "SessionStart", payload, tmp_path),
    )
    assert len(codex_answer["hookSpecificOutput"]["additionalContext"]) <= 900
    assert len(claude_answer["hookSpecificOutput"]["additionalContext"]) > 900


CODEX_CONFIG = '# my settings\nmodel = "gpt-5"   # keep\n\n[mcp_servers.other]\ncommand = "x"\n'


def test_codex_install_then_uninstall_gives_back_the_exact_bytes(tmp_path: Path) -> None:
    hooks, config = tmp_path / "hooks.json", tmp_path / "config.toml"
    config.write_text(CODEX_CONFIG)
    hooks.write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}\n')
    before = hooks.read_bytes()
    assert codex.install_server(config, dry_run=True).changed
    assert config.read_text() == CODEX_CONFIG  # a dry run writes nothing
    codex.CODEX_HOOKS.install(hooks)
    codex.install_server(config)
    import tomllib

    parsed = tomllib.loads(config.read_text())
    assert parsed["mcp_servers"]["mem"]["args"][-1] == "mcp"
    assert parsed["mcp_servers"]["other"] == {"command": "x"} and "# keep" in config.read_text()
    events = json.loads(hooks.read_text())["hooks"]
    assert set(events) == {"Stop", "SessionStart", "UserPromptSubmit", "SessionEnd", "PreToolUse"}
    assert not codex.install_server(config).changed  # twice: nothing more
    codex.CODEX_HOOKS.uninstall(hooks)
    codex.uninstall_server(config)
    assert config.read_text() == CODEX_CONFIG and hooks.read_bytes() == before
    assert not (tmp_path / "config.toml.mem-backup").exists()


def test_codex_config_without_a_final_newline_comes_back_exactly(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('model = "gpt-5"')
    codex.install_server(config)
    codex.uninstall_server(config)
    assert config.read_text() == 'model = "gpt-5"'


def test_codex_install_creates_and_uninstall_removes_new_files(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    codex.install_server(config)
    codex.uninstall_server(config)
    assert not config.exists()


def test_codex_leaves_someone_elses_mem_server_and_bad_toml_alone(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[mcp_servers.mem]\ncommand = "other-tool"\n')
    with pytest.raises(Exception, match="another server"):
        codex.install_server(config)
    config.write_text("model = [unclosed\n")
    with pytest.raises(Exception, match="not valid TOML"):
        codex.install_server(config)
    assert config.read_text() == "model = [unclosed\n"


def test_codex_cli_install_in_the_project(project: Path) -> None:
    result = run_mem("install", "codex", "--dry-run", cwd=project)
    assert result.returncode == 0 and "Would have registered" in result.stdout
    assert not (project / ".codex").exists()
    assert run_mem("install", "codex", cwd=project).returncode == 0
    assert (project / ".codex" / "hooks.json").exists()
    assert "[mcp_servers.mem]" in (project / ".codex" / "config.toml").read_text()
    assert run_mem("uninstall", "codex", cwd=project).returncode == 0
    assert not (project / ".codex").exists()  # the folder install made goes with it


GEMINI_SETTINGS = {
    "theme": "Dracula",
    "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"command": "x"}]}]},
    "mcpServers": {"github": {"command": "gh-mcp"}},
}


@pytest.mark.parametrize("indent", [2, 4])
def test_gemini_install_then_uninstall_gives_back_the_exact_bytes(
    tmp_path: Path, indent: int
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(GEMINI_SETTINGS, indent=indent) + "\n")
    before = path.read_bytes()
    gemini.install(path)
    data = json.loads(path.read_text())
    assert data["theme"] == "Dracula" and data["mcpServers"]["github"] == {"command": "gh-mcp"}
    assert data["mcpServers"]["mem"]["args"][-1] == "mcp"
    assert set(data["hooks"]) == {
        "BeforeTool",
        "SessionStart",
        "BeforeAgent",
        "PreCompress",
        "SessionEnd",
    }
    assert data["hooks"]["SessionStart"][0]["hooks"][0]["timeout"] == 10_000  # milliseconds
    gemini.uninstall(path)
    assert path.read_bytes() == before


def test_gemini_refuses_settings_with_comments_and_others_mem_server(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{\n  // my theme\n  "theme": "Dracula"\n}\n')
    with pytest.raises(Exception, match="comments"):
        gemini.install(path)
    path.write_text('{"mcpServers": {"mem": {"command": "other"}}}')
    with pytest.raises(Exception, match="another server"):
        gemini.install(path)
    assert path.read_text() == '{"mcpServers": {"mem": {"command": "other"}}}'


def test_gemini_cli_user_scope(isolated_env: Path) -> None:
    result = mem("install", "gemini", "--user")
    path = isolated_env / ".gemini" / "settings.json"
    assert path.exists() and "Installed" in result.output
    mem("uninstall", "gemini", "--user")
    assert not path.exists()


@pytest.mark.parametrize(
    ("agent", "event"), [("claude", "UserPromptSubmit"), ("gemini", "SessionStart")]
)
def test_a_hook_answers_the_same_bytes_with_or_without_click(
    project: Path, tmp_path: Path, agent: str, event: str
) -> None:
    """``mem hook AGENT EVENT`` skips click (entry.py); an option before the event goes
    through it: both answer the same bytes, each for a session of its own."""
    env = {"MEM_NOW": "2027-01-15T10:00:00Z", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"}
    (tmp_path / "mem-home" / "webshop" / "mem.toml").write_text("[context]\nhot_count = 0\n")
    saved = run_mem(
        "save", "Stripe mock — the checkout tests’ port", "--type", "gotcha", cwd=project
    )
    assert saved.returncode == 0
    answers = []
    for n, command in enumerate((["hook", agent, event], ["hook", agent, "--worker", event])):
        payload = {"session_id": f"same-{n}", "cwd": str(project), "prompt": PROMPT}
        result = run_mem(*command, input=json.dumps(payload), cwd=tmp_path, env=env)
        assert result.returncode == 0, result.stderr
        answers.append((result.stdout, result.stderr))
    assert answers[0] == answers[1] and "Stripe mock — the checkout tests’ port" in answers[0][0]


@pytest.mark.parametrize(
    "command",
    [["hook", "claude"], ["hook", "nobody", "SessionStart"], ["hook", "claude", "X", "--nope"]],
)
def test_a_hook_command_line_of_another_shape_is_clicks_usage_error(command: list[str]) -> None:
    result = run_mem(*command, input="{}")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("Usage: mem hook") and "Traceback" not in result.stderr
