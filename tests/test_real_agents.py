"""The real agents, from npm at pinned versions, against the installed ``mem``.

Claude Code, Codex and Gemini CLI are installed once per machine into
``~/.cache/mem-tests/agents/<package>@<version>`` (``MEM_TEST_CACHE`` moves it);
a bumped version in ``AGENTS`` installs anew. Every agent runs with the test's HOME,
so no real user setting is read or written. Without npm, with ``MEM_OFFLINE=1``, or
when the registry does not answer, the tests skip with the reason.

What runs without an account: each agent's ``mcp list`` (Claude Code and Gemini CLI
start every server and say whether it connected; Codex only lists its configuration,
it never starts a server there), and ``claude -p PROMPT --debug``, which runs the
SessionStart, UserPromptSubmit and SessionEnd hooks before it finds it has no login,
and logs what it made of each hook's answer.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import REAL_HOME, git, mem_executable, run_mem

AGENTS = {
    "claude": ("@anthropic-ai/claude-code", "2.1.328"),
    "codex": ("@openai/codex", "0.169.0"),
    "gemini": ("@google/gemini-cli", "0.61.0"),
}
"""The versions tested: one line to bump each."""

pytestmark = [pytest.mark.network, pytest.mark.e2e]

AGENT_TIMEOUT = 120
"""Seconds any one agent command may take before the test fails."""

OTHER_SERVER = """\
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method = message.get("method")
    if method == "initialize":
        version = message.get("params", {}).get("protocolVersion", "2025-06-18")
        answer = {"result": {"protocolVersion": version, "capabilities": {"tools": {}},
                  "serverInfo": {"name": "other", "version": "1"}}}
    elif method == "tools/list":
        answer = {"result": {"tools": []}}
    elif method == "ping":
        answer = {"result": {}}
    else:
        answer = {"error": {"code": -32601, "message": "unknown method"}}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], **answer}), flush=True)
"""
"""A minimal stdio MCP server with no tools: someone else's server, registered beside mem's."""


def cache_folder() -> Path:
    configured = os.environ.get("MEM_TEST_CACHE")
    return (Path(configured) if configured else REAL_HOME / ".cache" / "mem-tests") / "agents"


def _folder(package: str, version: str) -> Path:
    return cache_folder() / f"{package.replace('/', '+')}@{version}"


def _npm_env() -> dict[str, str]:
    """npm with the real user's HOME (its own cache and settings), not the test's."""
    return {**os.environ, "HOME": str(REAL_HOME), "npm_config_update_notifier": "false"}


def _install(package: str, version: str) -> None:
    """npm install into a temporary folder, renamed into place when complete."""
    final = _folder(package, version)
    temporary = Path(tempfile.mkdtemp(prefix=".install-", dir=final.parent))
    try:
        done = subprocess.run(
            ["npm", "install", "--prefix", str(temporary), "--no-audit", "--no-fund",
             "--loglevel=error", f"{package}@{version}"],
            capture_output=True, text=True, timeout=600, env=_npm_env(),
        )  # fmt: skip
        if done.returncode != 0:
            pytest.fail(f"npm install {package}@{version} failed: {done.stderr.strip()[-500:]}")
        temporary.rename(final)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def _registry_answers(package: str, version: str) -> bool:
    try:
        probe = subprocess.run(
            ["npm", "view", f"{package}@{version}", "version"],
            capture_output=True, text=True, timeout=20, env=_npm_env(),
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return False
    return probe.returncode == 0 and probe.stdout.strip() == version


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One installer at a time on this machine (parallel test runs share the cache)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def binaries() -> dict[str, Path]:
    """Each agent's command, installed first when the cache lacks its version."""
    if os.environ.get("MEM_OFFLINE"):
        pytest.skip("MEM_OFFLINE is set: the agents would come from the npm registry")
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: the real agents come from the npm registry")
    with _locked(cache_folder()):
        for package, version in AGENTS.values():
            if _folder(package, version).exists():
                continue
            if not _registry_answers(package, version):
                pytest.skip(f"the npm registry does not answer for {package}@{version}")
            _install(package, version)
    return {
        name: _folder(package, version) / "node_modules" / ".bin" / name
        for name, (package, version) in AGENTS.items()
    }


@dataclass
class World:
    """A project, an isolated HOME and the environment the agents and mem run in."""

    home: Path
    project: Path
    env: dict[str, str]
    other_server: dict[str, object]

    def mem(self, *args: str) -> str:
        done = run_mem(*args, cwd=self.project, env=self.env)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout

    def run(self, command: list[str | Path]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(word) for word in command],
            cwd=self.project, env=self.env, capture_output=True, text=True,
            timeout=AGENT_TIMEOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip


@pytest.fixture
def world(isolated_env: Path, tmp_path: Path) -> World:
    home = isolated_env
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    git(project, "-c", "user.name=T", "-c", "user.email=t@e.com", "commit", "-qm", "start",
        "--allow-empty")  # fmt: skip
    script = tmp_path / "other_server.py"
    script.write_text(OTHER_SERVER)
    secrets = ("ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_")
    env = {name: value for name, value in os.environ.items() if not name.startswith(secrets)}
    env |= {
        "PATH": f"{Path(mem_executable()).parent}{os.pathsep}{os.environ['PATH']}",
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "CODEX_HOME": str(home / ".codex"),
        "DISABLE_AUTOUPDATER": "1",
        "NO_UPDATE_NOTIFIER": "1",
    }
    (home / ".codex").mkdir()
    (home / ".gemini").mkdir()
    run_mem("init", cwd=project, env=env)
    other = {"command": sys.executable, "args": [str(script)]}
    return World(home, project, env, other)


def snapshot(paths: list[Path]) -> dict[Path, bytes | None]:
    return {path: path.read_bytes() if path.exists() else None for path in paths}


def _write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def listed(output: str, name: str) -> str:
    """The line of ``mcp list``'s output about the server ``name`` ('' when none)."""
    for line in output.splitlines():
        if re.match(rf"\W*{re.escape(name)}\b", line.strip()):
            return line
    return ""


# Claude Code and Gemini CLI mark a server they started and spoke to as "Connected"
# (Claude Code with ✔, Gemini CLI with ✓); a failed one says "Failed"/"Disconnected",
# and Gemini CLI's untrusted folder "Disabled". Only those words are relied on.
def connected(line: str) -> bool:
    return line.rstrip().endswith("Connected") and "Disconnected" not in line


@pytest.mark.parametrize("scope", ["project", "user"])
def test_claude_code_connects_mem_and_uninstall_restores_its_settings(
    binaries: dict[str, Path], world: World, scope: str
) -> None:
    claude = binaries["claude"]
    servers = world.home / ".claude.json" if scope == "user" else world.project / ".mcp.json"
    _write_json(servers, {"mcpServers": {"other": world.other_server}})
    settings = [
        world.project / ".claude" / "settings.json",
        world.project / ".claude" / "settings.local.json",
        world.home / ".claude" / "settings.json",
        world.project / ".mcp.json",
    ]
    if scope == "project":
        # A project's .mcp.json servers run once the user trusted the project and approved
        # them (Claude Code keeps the trust in ~/.claude.json, and moves the approval into
        # .claude/settings.local.json): this is that trust and approval.
        approval = {"enabledMcpjsonServers": ["mem", "other"]}
        trust = {"hasTrustDialogAccepted": True, **approval}
        _write_json(world.home / ".claude.json", {"projects": {str(world.project): trust}})
        _write_json(world.project / ".claude" / "settings.local.json", approval)
    before = snapshot(settings)
    world.mem("install", "claude", "--scope", scope)
    listing = world.run([claude, "mcp", "list"])
    assert connected(listed(listing.stdout, "mem")), listing.stdout + listing.stderr
    assert connected(listed(listing.stdout, "other")), listing.stdout
    servers_before = json.loads(servers.read_text())["mcpServers"]
    assert "mem" in servers_before
    world.mem("uninstall", "claude", "--scope", scope)
    # Claude Code writes its own state into ~/.claude.json as it runs: of that file only
    # the servers are compared; every other settings file must be byte for byte as before.
    assert snapshot(settings) == before
    assert json.loads(servers.read_text())["mcpServers"] == {"other": world.other_server}
    listing = world.run([claude, "mcp", "list"])
    assert listing.returncode == 0, listing.stderr
    assert connected(listed(listing.stdout, "other")), listing.stdout
    assert listed(listing.stdout, "mem") == ""


@dataclass
class HookVerdict:
    """What Claude Code made of one hook command's answer, from its debug log."""

    ran: bool
    accepted: bool
    context_chars: int | None
    """The size of the additionalContext Claude Code took, as it logged it."""
    answer: dict[str, object] | None
    """The JSON answer of the hook for that event, as Claude Code logged it."""

    @property
    def verdict(self) -> str:
        return "not run" if not self.ran else "accepted" if self.accepted else "rejected"


def hook_verdict(log: str, event: str, command: str) -> HookVerdict:
    """Claude Code's debug log's account of the hook ``command`` for ``event``.

    The log's stable fragments relied on: the command in brackets on the line that says
    it finished (``[COMMAND] finished with status 0``, SessionEnd: ``completed with
    status 0``); ``(COMMAND) provided additionalContext (N chars)``, logged only for an
    answer that was parsed and validated; and the answer itself, logged as JSON after
    ``Parsed initial response:``.
    """
    ran = any(
        f"[{command}]" in line and re.search(r"(finished|completed) with status 0", line)
        for line in log.splitlines()
    )
    took = re.search(rf"\({re.escape(command)}\) provided additionalContext \((\d+) chars\)", log)
    answer = None
    for line in log.splitlines():
        _, found, text = line.partition("Parsed initial response: ")
        if not found:
            continue
        with contextlib.suppress(ValueError):
            data = json.loads(text)
            if data.get("hookSpecificOutput", {}).get("hookEventName") == event:
                answer = data
    return HookVerdict(ran, took is not None, int(took.group(1)) if took else None, answer)


def settings_refused(log: str) -> list[str]:
    """The lines of Claude Code's debug log refusing a settings file (its own validation:
    an invalid entry makes it skip the file's hooks). The fragments relied on: an
    ``[ERROR]`` line that names a ``.claude/settings`` file."""
    return [line for line in log.splitlines() if "[ERROR]" in line and ".claude/settings" in line]


PELICAN = "The pelican service deploys with the zebracrossing-42 script."
HERON = (
    "The heron cache warms with quokkaseventeen before each release; this longer note"
    " does not fit in the session start budget of this store."
)


def claude_session(claude: Path, world: World, prompt: str) -> str:
    """``claude -p PROMPT --debug`` run to its end (no login: it stops at the model); its log."""
    done = world.run([claude, "-p", prompt, "--debug"])
    assert done.returncode != 0  # no account here, so it ends at the model's request
    return (world.home / ".claude" / "debug" / "latest").read_text()


def _memories_and_budget(world: World) -> None:
    """Two memories, and a session-start budget that holds the important one only: the
    other is then for UserPromptSubmit to recall (recall never repeats what the start
    showed)."""
    world.mem("save", "--importance", "1", "--title", "Pelican deploy", PELICAN)
    world.mem("save", "--importance", "0.1", "--title", "Heron cache", HERON)
    store = Path(world.env["MEM_HOME"]) / world.project.name
    (store / "mem.toml").write_text("[agents]\nclaude_context = 330\n")


def context_of(verdict: HookVerdict) -> str:
    assert verdict.answer is not None
    output = verdict.answer["hookSpecificOutput"]
    assert isinstance(output, dict)
    return str(output["additionalContext"])


def test_claude_code_accepts_mems_hook_answers(binaries: dict[str, Path], world: World) -> None:
    _memories_and_budget(world)
    world.mem("install", "claude", "--no-mcp")
    settings = json.loads((world.project / ".claude" / "settings.json").read_text())
    assert "PreToolUse" in settings["hooks"]  # the guards' hook, validated with the rest
    log = claude_session(binaries["claude"], world, "how does the heron cache warm")
    assert settings_refused(log) == []
    start = hook_verdict(log, "SessionStart", "mem hook claude SessionStart")
    assert start.verdict == "accepted", log
    assert PELICAN in context_of(start) and HERON not in context_of(start)
    assert start.context_chars == len(context_of(start))
    prompt = hook_verdict(log, "UserPromptSubmit", "mem hook claude UserPromptSubmit")
    assert prompt.verdict == "accepted", log
    assert HERON in context_of(prompt)
    assert prompt.context_chars == len(context_of(prompt))
    assert hook_verdict(log, "SessionEnd", "mem hook claude SessionEnd").ran


def test_the_check_sees_a_broken_answer_rejected(binaries: dict[str, Path], world: World) -> None:
    """mem's UserPromptSubmit answer cut short (invalid JSON) by a wrapper: rejected; and
    a pre-tool hook entry Claude Code's validation refuses is seen refused."""
    _memories_and_budget(world)
    world.mem("install", "claude", "--no-mcp")
    settings = world.project / ".claude" / "settings.json"
    broken = "mem hook claude UserPromptSubmit | head -c 60"
    text = settings.read_text().replace('"mem hook claude UserPromptSubmit"', json.dumps(broken))
    settings.write_text(text)
    invalid = {
        "matcher": 5,
        "hooks": [{"type": "command", "command": "mem hook claude PreToolUse"}],
    }
    _write_json(world.home / ".claude" / "settings.json", {"hooks": {"PreToolUse": [invalid]}})
    log = claude_session(binaries["claude"], world, "how does the heron cache warm")
    assert hook_verdict(log, "UserPromptSubmit", broken).verdict == "rejected"
    refused = settings_refused(log)
    assert refused and all(str(world.home) in line for line in refused), refused
    assert hook_verdict(log, "SessionStart", "mem hook claude SessionStart").accepted


def _codex_servers(codex: Path, world: World) -> dict[str, dict[str, object]]:
    listing = world.run([codex, "mcp", "list", "--json"])
    assert listing.returncode == 0, listing.stderr
    return {server["name"]: server for server in json.loads(listing.stdout)}


@pytest.mark.parametrize("scope", ["project", "user"])
def test_codex_lists_mem_and_uninstall_restores_its_settings(
    binaries: dict[str, Path], world: World, scope: str
) -> None:
    """Codex's ``mcp list`` shows the configuration only: it starts no server offline."""
    codex = binaries["codex"]
    user = world.home / ".codex" / "config.toml"
    # Codex reads a project's .codex/ only in a project the user trusts.
    user.write_text(f'[projects."{world.project}"]\ntrust_level = "trusted"\n')
    folder = user.parent if scope == "user" else world.project / ".codex"
    folder.mkdir(exist_ok=True)
    config = folder / "config.toml"
    other = world.other_server
    with config.open("a") as handle:
        handle.write(f"\n[mcp_servers.other]\ncommand = {json.dumps(other['command'])}\n")
        handle.write(f"args = {json.dumps(other['args'])}\n")
    files = [user, world.project / ".codex" / "config.toml", folder / "hooks.json"]
    before = snapshot(files)
    world.mem("install", "codex", "--scope", scope)
    servers = _codex_servers(codex, world)
    assert servers["mem"]["enabled"] is True
    transport = servers["mem"]["transport"]
    assert isinstance(transport, dict)
    assert transport["command"] == "mem" or Path(str(transport["command"])).name == "mem"
    assert servers["other"]["enabled"] is True
    world.mem("uninstall", "codex", "--scope", scope)
    assert snapshot(files) == before
    assert set(_codex_servers(codex, world)) == {"other"}


def gemini_list(gemini: Path, world: World) -> str:
    """``gemini mcp list``'s report (it writes it to stderr)."""
    done = world.run([gemini, "mcp", "list"])
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


@pytest.mark.parametrize("scope", ["project", "user"])
def test_gemini_cli_connects_mem_in_a_trusted_folder_and_uninstall_restores_it(
    binaries: dict[str, Path], world: World, scope: str
) -> None:
    gemini = binaries["gemini"]
    folder = world.home if scope == "user" else world.project
    settings = folder / ".gemini" / "settings.json"
    _write_json(settings, {"mcpServers": {"other": world.other_server}})
    files = [world.home / ".gemini" / "settings.json", world.project / ".gemini" / "settings.json"]
    before = snapshot(files)
    installed = run_mem("install", "gemini", "--scope", scope, cwd=world.project, env=world.env)
    assert installed.returncode == 0, installed.stderr
    listing = gemini_list(gemini, world)
    line = listed(listing, "mem")
    assert line and not connected(line), listing  # listed, but not trusted yet
    # As mem's note says: the folder in trustedFolders.json as TRUST_FOLDER.
    assert "TRUST_FOLDER" in installed.stdout + installed.stderr
    rules = world.home / ".gemini" / "trustedFolders.json"
    _write_json(rules, {str(world.project): "TRUST_FOLDER"})
    listing = gemini_list(gemini, world)
    assert connected(listed(listing, "mem")), listing
    assert connected(listed(listing, "other")), listing
    world.mem("uninstall", "gemini", "--scope", scope)
    assert snapshot(files) == before
    listing = gemini_list(gemini, world)
    assert connected(listed(listing, "other")), listing
    assert listed(listing, "mem") == ""
