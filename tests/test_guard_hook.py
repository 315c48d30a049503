"""The pre-tool hooks: a call checked against every layer's guards, answered in each agent's form.

The installed ``mem`` runs in a subprocess, as the agents run it. Each answer is
checked against the agent's documented output schema (``docs/agents.md``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from memcli.core import guard_table
from memcli.core.failure_log import log_path
from memcli.core.guards import Guard
from memcli.core.model import Observation
from memcli.store.files import Store

from .conftest import git, guarded, mem, run_mem
from .conftest import write_store as write_new_store


def write_store(root: Path, memories: list[Observation]) -> Path:
    root.parent.mkdir(parents=True, exist_ok=True)
    return write_new_store(root, memories)


NPM = Guard("Bash", "npm *", "deny")
ENV = Guard("Read", ".env", "ask")
MIGRATIONS = Guard("Edit", "migrations/**", "warn")
IDS = ("01JD0000000000000000000001", "01JD0000000000000000000002", "01JD0000000000000000000003")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project's git repository; its central store holds three guarded memories."""
    root = tmp_path / "app"
    git(tmp_path, "init", "-q", "-b", "main", str(root))
    git(root, "commit", "-q", "--allow-empty", "-m", "start")
    write_store(
        Path(os.environ["MEM_HOME"]) / "app",
        [
            guarded(IDS[0], "Use pnpm, never npm", NPM),
            guarded(IDS[1], "Never read .env files", ENV),
            guarded(IDS[2], "Migrations are generated", MIGRATIONS),
        ],
    )
    return root


def hook(agent: str, payload: dict[str, Any], event: str | None = None) -> Any:
    """The installed hook's answer (None: no output), after checking it exits 0."""
    event = event or {"gemini": "BeforeTool"}.get(agent, "PreToolUse")
    result = run_mem("hook", agent, event, input=json.dumps(payload))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout) if result.stdout.strip() else None


def bash(cwd: Path, command: str, agent: str = "claude") -> dict[str, Any]:
    name = "run_shell_command" if agent == "gemini" else "Bash"
    return {
        "hook_event_name": "x",
        "cwd": str(cwd),
        "tool_name": name,
        "tool_input": {"command": command},
    }


# ---------------------------------------------------------------- the schemas

CLAUDE_DECISIONS = {"allow", "deny", "ask", "defer"}
COMMON_KEYS = {"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason"}


SPECIFIC_KEYS = {
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
    "additionalContext",
    "updatedInput",
}
"""PreToolUse's hookSpecificOutput fields, in Claude Code's and Codex's schemas alike."""


def check_claude(answer: dict[str, Any]) -> None:
    """Claude Code's PreToolUse output: hookSpecificOutput with hookEventName, and
    permissionDecision (allow/deny/ask/defer) with a reason, or additionalContext."""
    assert set(answer) <= COMMON_KEYS | {"hookSpecificOutput"}
    specific = answer["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse" and set(specific) <= SPECIFIC_KEYS
    if "permissionDecision" in specific:
        assert specific["permissionDecision"] in CLAUDE_DECISIONS
        assert isinstance(specific["permissionDecisionReason"], str)


def check_codex(answer: dict[str, Any]) -> None:
    """Codex's pre-tool-use output schema and its parser's rules: no continue:false, no
    stopReason, no suppressOutput; permissionDecision deny only, with a non-empty reason."""
    assert set(answer) <= COMMON_KEYS | {"hookSpecificOutput"}
    assert answer.get("continue", True) is True and "stopReason" not in answer
    assert not answer.get("suppressOutput", False)
    specific = answer.get("hookSpecificOutput")
    if specific is not None:
        assert specific["hookEventName"] == "PreToolUse" and set(specific) <= SPECIFIC_KEYS
        if "permissionDecision" in specific:
            assert specific["permissionDecision"] == "deny"
            assert specific["permissionDecisionReason"].strip()
        else:
            assert "permissionDecisionReason" not in specific


def check_gemini(answer: dict[str, Any]) -> None:
    """Gemini CLI's hook output: JSON always; decision (ask/block/deny/approve/allow) with
    a reason, or a systemMessage."""
    assert set(answer) <= COMMON_KEYS | {"hookSpecificOutput"}
    if "decision" in answer:
        assert answer["decision"] in {"ask", "block", "deny", "approve", "allow"}
        assert answer["reason"].strip()


CHECKS = {"claude": check_claude, "codex": check_codex, "gemini": check_gemini}


# ---------------------------------------------------------------- the answers


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_a_denied_call_is_refused_with_the_memory_and_its_id(project: Path, agent: str) -> None:
    answer = hook(agent, bash(project, "cd web && npm install left-pad", agent))
    CHECKS[agent](answer)
    if agent == "gemini":
        assert answer["decision"] == "deny"
        why = answer["reason"]
    else:
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
        why = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert "Use pnpm, never npm" in why and "as agreed" in why
    assert f"mem show {IDS[0]}" in why


@pytest.mark.parametrize("agent", ["claude", "gemini"])
def test_an_ask_guard_asks_the_person(project: Path, agent: str) -> None:
    payload = {
        "cwd": str(project),
        "tool_name": "read_file" if agent == "gemini" else "Read",
        "tool_input": {"file_path": str(project / "config" / ".env")},
    }
    answer = hook(agent, payload)
    CHECKS[agent](answer)
    if agent == "claude":
        assert answer["hookSpecificOutput"]["permissionDecision"] == "ask"
        assert "Never read .env files" in answer["hookSpecificOutput"]["permissionDecisionReason"]
    else:
        assert answer["decision"] == "ask" and "Never read .env files" in answer["reason"]


def test_codex_gets_a_refusal_for_an_ask_guard(project: Path) -> None:
    # Codex refuses permissionDecision "ask": the call is refused, saying why
    write_store(
        Path(os.environ["MEM_HOME"]) / "_user",
        [
            guarded(
                "01JD0000000000000000000009",
                "Ask before any push",
                Guard("Bash", "git push*", "ask"),
            )
        ],
    )
    answer = hook("codex", bash(project, "git push origin main", "codex"))
    check_codex(answer)
    specific = answer["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "Ask before any push" in specific["permissionDecisionReason"]


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_a_warn_guard_allows_the_call_with_the_memory_as_context(project: Path, agent: str) -> None:
    target = str(project / "migrations" / "0001_init.sql")
    if agent == "codex":
        patch = f"*** Begin Patch\n*** Update File: {target}\n@@\n-a\n+b\n*** End Patch\n"
        payload = {
            "cwd": str(project),
            "tool_name": "apply_patch",
            "tool_input": {"command": patch},
        }
    else:
        name = "replace" if agent == "gemini" else "Edit"
        payload = {"cwd": str(project), "tool_name": name, "tool_input": {"file_path": target}}
    answer = hook(agent, payload)
    CHECKS[agent](answer)
    assert "Migrations are generated" in answer["systemMessage"]
    assert "decision" not in answer
    if agent != "gemini":
        specific = answer["hookSpecificOutput"]
        assert "permissionDecision" not in specific
        assert "Migrations are generated" in specific["additionalContext"]


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_a_call_no_guard_matches_gets_no_decision(project: Path, agent: str) -> None:
    answer = hook(agent, bash(project, "pnpm install", agent))
    assert answer == ({} if agent == "gemini" else None)
    other = {"cwd": str(project), "tool_name": "Glob", "tool_input": {"pattern": "**/.env"}}
    assert hook(agent, other) == ({} if agent == "gemini" else None)


def test_the_strictest_action_wins_across_layers(project: Path) -> None:
    user = Path(os.environ["MEM_HOME"]) / "_user"
    write_store(
        user,
        [guarded("01JD0000000000000000000008", "npm asks me first", Guard("Bash", "npm*", "warn"))],
    )
    answer = hook("claude", bash(project, "npm ci"))
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    answer = hook("claude", bash(project, "npmx run"))  # only the user's guard matches
    assert "npm asks me first" in answer["hookSpecificOutput"]["additionalContext"]
    listed = json.loads(
        mem("guards", "--json", "--store", str(Path(os.environ["MEM_HOME"]) / "app")).stdout
    )
    assert {row["layer"] for row in listed} == {"user", "project"}


def test_a_forgotten_memory_stops_at_once(project: Path) -> None:
    assert hook("claude", bash(project, "npm ci")) is not None
    mem("forget", IDS[0], "--store", str(Path(os.environ["MEM_HOME"]) / "app"))
    assert hook("claude", bash(project, "npm ci")) is None


def test_a_damaged_table_fails_open_and_is_logged(project: Path) -> None:
    table = Path(os.environ["MEM_HOME"]) / "app" / ".cache" / guard_table.TABLE_FILE
    table.write_text('{"format": 1, "state": 7}')
    assert hook("claude", bash(project, "npm ci")) is None
    assert hook("gemini", bash(project, "npm ci", "gemini")) == {}
    assert "PreToolUse hook" in log_path().read_text() and "guards.json" in log_path().read_text()


def test_a_table_that_is_a_fifo_fails_open_at_once(project: Path) -> None:
    table = Path(os.environ["MEM_HOME"]) / "app" / ".cache" / guard_table.TABLE_FILE
    table.unlink()
    os.mkfifo(table)  # an open() would wait for a writer for ever
    result = run_mem("hook", "claude", "PreToolUse", input=json.dumps(bash(project, "npm ci")))
    assert result.returncode == 0 and result.stdout == ""
    assert "not a regular file" in log_path().read_text()


def test_input_that_is_no_tool_call_fails_open(project: Path) -> None:
    for text in ("[1, 2]", "{not json", ""):
        result = run_mem("hook", "claude", "PreToolUse", input=text)
        assert result.returncode == 0 and result.stdout == ""


def wait_for(predicate: Any, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "the detached refresh never came"
        time.sleep(0.1)


def test_a_stale_table_is_used_and_refreshed_in_the_background(project: Path) -> None:
    root = Path(os.environ["MEM_HOME"]) / "app"
    (path,) = [p for p in root.rglob("*.md") if IDS[0] in p.read_text()]
    git(root, "rm", "-q", str(path))
    git(root, "commit", "-qm", "forgotten by hand")
    # the table is stale: still used this time, and a refresh is started
    assert (
        hook("claude", bash(project, "npm ci"))["hookSpecificOutput"]["permissionDecision"]
        == "deny"
    )
    table = str(root / ".cache" / guard_table.TABLE_FILE)
    wait_for(lambda: guard_table.read(table).state == guard_table.store_state(str(root)))
    assert hook("claude", bash(project, "npm ci")) is None


def team_memory(folder: Path, observation: Observation) -> None:
    path = folder / Store(folder).new_path(observation)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(observation.to_markdown())


def test_a_teammates_clone_is_refused_by_the_team_guard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    origin = tmp_path / "origin"
    git(tmp_path, "init", "-q", "-b", "main", str(origin))
    team_memory(
        origin / ".mem-team",
        guarded(IDS[0], "Never force-push", Guard("Bash", "git push*--force*", "deny")),
    )
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "team memory")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    monkeypatch.setenv("MEM_HOME", str(tmp_path / "teammate-home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "teammate-cache"))
    call = bash(clone / "src", "git push --force origin main")
    (clone / "src").mkdir()
    first = hook("claude", call)  # no table yet in the teammate's cache: a refresh starts
    team_table = Path(guard_table.team_cache_dir(str(clone / ".mem-team"))) / guard_table.TABLE_FILE
    if first is None:
        wait_for(team_table.exists)
    answer = hook("claude", call)
    why = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "a team memory" in why and "Never force-push" in why
    assert hook("claude", bash(clone, "git push origin main")) is None


# ---------------------------------------------------------------- the imports

IMPORTS = """
import sys
from memcli.adapters.cli.entry import main
sys.argv = ["mem", "hook", sys.argv[1], sys.argv[2]]
try:
    main()
except SystemExit:
    pass
loaded = sorted(m for m in sys.modules if m.startswith("memcli"))
print("LOADED:" + ",".join(loaded), file=sys.stderr)
heavy = ("apsw", "sqlite3", "click", "jinja2", "yaml", "subprocess", "pathlib", "tomllib", "typing")
print("HEAVY:" + ",".join(m for m in heavy if m in sys.modules), file=sys.stderr)
"""
NEEDED = {
    "memcli",
    "memcli.adapters",
    "memcli.adapters.agents",
    "memcli.adapters.agents.pretool",
    "memcli.adapters.cli",
    "memcli.adapters.cli.entry",
    "memcli.core",
    "memcli.core.failure_log",
    "memcli.core.globs",
    "memcli.core.guard_table",
    "memcli.core.places",
}


@pytest.mark.parametrize(("agent", "command"), [("claude", "npm ci"), ("gemini", "ls")])
def test_the_hook_imports_only_what_it_needs(project: Path, agent: str, command: str) -> None:
    event = "BeforeTool" if agent == "gemini" else "PreToolUse"
    result = subprocess.run(
        [sys.executable, "-c", IMPORTS, agent, event],
        input=json.dumps(bash(project, command, agent)),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    lines = dict(
        line.split(":", 1)
        for line in result.stderr.splitlines()
        if line[:6] in ("LOADED", "HEAVY:")
    )
    assert set(lines["LOADED"].split(",")) == NEEDED
    assert lines["HEAVY"] == ""


def test_the_readme_example_from_save_to_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "web"
    git(tmp_path, "init", "-q", "-b", "main", str(project))
    monkeypatch.chdir(project)
    saved = mem("save", "Use pnpm, never npm", "--guard", "Bash:npm *", "--guard-action", "deny")
    identity = saved.stdout.strip()
    call = bash(project, "npm install left-pad")
    specific = hook("claude", call)["hookSpecificOutput"]
    assert (
        specific["permissionDecision"] == "deny"
        and f"mem show {identity}" in specific["permissionDecisionReason"]
    )
    mem("edit", identity, "--guard-action", "warn")
    assert "Use pnpm" in hook("claude", call)["hookSpecificOutput"]["additionalContext"]
    mem("edit", identity, "--no-guards")
    assert hook("claude", call) is None


def test_a_relative_path_is_taken_from_the_calls_folder(project: Path) -> None:
    (project / "db").mkdir()
    patch = "*** Begin Patch\n*** Update File: {}\n@@\n-a\n+b\n*** End Patch\n"

    def call(path: str) -> dict[str, Any]:
        given = {"command": patch.format(path)}
        return {"cwd": str(project / "db"), "tool_name": "apply_patch", "tool_input": given}

    assert hook("codex", call("migrations/0001.sql")) is None  # db/migrations: not guarded
    answer = hook("codex", call("../migrations/0001.sql"))
    assert "Migrations are generated" in answer["hookSpecificOutput"]["additionalContext"]
