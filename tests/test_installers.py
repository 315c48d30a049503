"""``mem install`` / ``mem uninstall`` for every agent: what they leave behind and where."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from .conftest import git, mem, mem_executable, mem_here, run_mem

# What mem says to add an extra: memcli is not on PyPI, so it names mem's checkout.
REINSTALL_MCP = "reinstall mem with the mcp extra: pipx install --force './mem[mcp]'"

INSTALLED = {
    "claude": [".claude/settings.json", ".mcp.json"],
    "codex": [".codex/hooks.json", ".codex/config.toml"],
    "gemini": [".gemini/settings.json"],
}
"""The files each agent's project install changes (claude: with --mcp)."""
CONTENT = {".json": '{\n  "theirs": 1\n}\n', ".toml": '# mine\nmodel = "gpt-5"\n'}


def _install_args(agent: str, *scope: str) -> list[str]:
    return [agent, *scope, *(["--mcp"] if agent == "claude" else [])]


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    monkeypatch.chdir(project)
    return project


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _backup(path: Path) -> Path:
    return path.with_name(path.name + ".mem-backup")


def _agent_files(project: Path, agent: str, *, empty: bool = False) -> list[Path]:
    """The agent's settings files in ``project``, written (empty, or private with content)."""
    files = [project / name for name in INSTALLED[agent]]
    for path in files:
        path.parent.mkdir(exist_ok=True)
        path.write_text("" if empty else CONTENT[path.suffix])
        path.chmod(0o644 if empty else 0o600)
    return files


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_a_backup_is_as_private_as_its_file_and_goes_with_uninstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    files = _agent_files(_project(tmp_path, monkeypatch), agent)
    mem("install", *_install_args(agent))
    for path in files:
        assert _mode(_backup(path)) == 0o600, path
        assert _mode(path) == 0o600 and _backup(path).read_text() == CONTENT[path.suffix]
        # The user changes the file afterwards: the uninstall cannot give back the bytes.
        text = path.read_text()
        path.write_text(text.replace('"theirs": 1', '"theirs": 2').replace("gpt-5", "o3"))
    mem("uninstall", *_install_args(agent))
    for path in files:
        assert not _backup(path).exists(), path
        assert _mode(path) == 0o600


def test_user_scope_backups_of_claude_files_are_private(isolated_env: Path) -> None:
    settings, state = isolated_env / ".claude" / "settings.json", isolated_env / ".claude.json"
    settings.parent.mkdir()
    for path in (settings, state):
        path.write_text('{"oauthAccount": {"emailAddress": "me@example.com"}}\n')
        path.chmod(0o600)
    mem("install", "claude", "--user", "--mcp")
    assert (_mode(_backup(settings)), _mode(_backup(state))) == (0o600, 0o600)
    mem("uninstall", "claude", "--user", "--mcp")
    assert not _backup(settings).exists() and not _backup(state).exists()


def test_uninstall_says_where_a_backup_it_cannot_use_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _agent_files(_project(tmp_path, monkeypatch), "claude")[0]
    mem("install", "claude")
    settings.write_text(CONTENT[".json"])  # mem's hooks taken out by hand
    said = mem("uninstall", "claude").stdout
    assert str(_backup(settings)) in said and _backup(settings).exists()


def test_codex_config_with_crlf_comes_back_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, monkeypatch)
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    original = b'# mine\r\nmodel = "gpt-5"\r\n\r\n[tools]\r\nweb_search = true\r\n'
    config.write_bytes(original)
    mem("install", "codex")
    installed = config.read_bytes()
    assert b"[mcp_servers.mem]\r\n" in installed  # mem's block in the file's line endings
    assert b"\n" not in installed.replace(b"\r\n", b"")
    mem("uninstall", "codex")
    assert config.read_bytes() == original
    assert not _backup(config).exists()


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_an_empty_settings_file_comes_back_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    files = _agent_files(_project(tmp_path, monkeypatch), agent, empty=True)
    mem("install", *_install_args(agent))
    assert all(path.read_bytes() for path in files)
    mem("uninstall", *_install_args(agent))
    for path in files:
        assert path.exists() and path.read_bytes() == b"", path
        assert not _backup(path).exists()


def test_claude_user_scope_follows_claude_config_dir(
    isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code reads settings.json and .claude.json from CLAUDE_CONFIG_DIR when it is set."""
    config = tmp_path / "claude-config"
    config.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    (config / ".claude.json").write_text('{"numStartups": 3}\n')
    said = mem("install", "claude", "--user", "--mcp").stdout
    assert str(config / "settings.json") in said and str(config / ".claude.json") in said
    assert "hook claude SessionStart" in (config / "settings.json").read_text()
    assert json.loads((config / ".claude.json").read_text())["mcpServers"]["mem"]
    assert not (isolated_env / ".claude").exists() and not (isolated_env / ".claude.json").exists()
    mem("uninstall", "claude", "--user", "--mcp")
    assert not (config / "settings.json").exists()
    assert (config / ".claude.json").read_text() == '{"numStartups": 3}\n'


def _without_mcp(tmp_path: Path, module: str = "mcp") -> dict[str, str]:
    """An environment whose Python cannot import ``module``, as without its extra installed."""
    shim = tmp_path / f"no-{module}"
    (shim / module).mkdir(parents=True, exist_ok=True)
    (shim / module / "__init__.py").write_text(
        f'raise ModuleNotFoundError("No module named \'{module}\'", name="{module}")\n'
    )
    return {"PYTHONPATH": str(shim)}


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_no_server_is_registered_that_cannot_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    project = _project(tmp_path, monkeypatch)
    files = _agent_files(project, agent)
    before = [path.read_bytes() for path in files]
    asked = run_mem("install", agent, "--mcp", cwd=project, env=_without_mcp(tmp_path))
    assert asked.returncode == 1 and asked.stdout == ""
    assert len(asked.stderr.splitlines()) == 1 and REINSTALL_MCP in asked.stderr
    assert [path.read_bytes() for path in files] == before  # nothing written
    # Not asked for: the hooks alone, and one line saying how to add the server.
    hooks_only = run_mem("install", agent, cwd=project, env=_without_mcp(tmp_path))
    assert hooks_only.returncode == 0, hooks_only.stderr
    assert REINSTALL_MCP in hooks_only.stderr
    written = _written(files)
    assert "mcpServers" not in written and "mcp_servers" not in written


def test_mem_mcp_and_serve_without_their_extra_say_how_to_add_it(tmp_path: Path) -> None:
    served = run_mem("mcp", cwd=tmp_path, env=_without_mcp(tmp_path), input="")
    assert served.returncode == 1 and served.stdout == ""
    assert len(served.stderr.splitlines()) == 1 and REINSTALL_MCP in served.stderr
    without_serve = _without_mcp(tmp_path, "starlette")
    served = run_mem("serve", "--store", str(tmp_path / "store"), cwd=tmp_path, env=without_serve)
    assert served.returncode == 1 and len(served.stderr.splitlines()) == 1
    assert REINSTALL_MCP.replace("mcp", "serve") in served.stderr


def _written(files: list[Path]) -> str:
    """What an agent's settings files hold, together."""
    return "".join(path.read_text() for path in files if path.exists())


def _has_server(text: str) -> bool:
    return "mcpServers" in text or "mcp_servers" in text


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_the_mcp_server_is_registered_by_default_where_it_can_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    project = _project(tmp_path, monkeypatch)
    files = _agent_files(project, agent)
    mem("install", agent)
    assert _has_server(_written(files))
    mem("uninstall", agent, "--no-mcp")  # the hooks go, the server stays
    left = _written(files)
    assert "mem hook" not in left
    assert _has_server(left)
    mem("install", agent)
    mem("uninstall", agent)
    left = _written(files)
    assert not _has_server(left) and "mem hook" not in left


def test_doctor_says_when_a_registered_server_cannot_start(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, monkeypatch)
    # This mem is the one on PATH (doctor says so otherwise: test below).
    monkeypatch.setenv("PATH", f"{Path(mem_executable()).parent}{os.pathsep}{os.environ['PATH']}")
    mem("install", "claude", "--mcp")
    healthy = run_mem("doctor", cwd=project)
    assert healthy.returncode == 0 and "MCP" not in healthy.stdout
    sick = run_mem("doctor", cwd=project, env=_without_mcp(tmp_path))
    assert sick.returncode == 1
    (line,) = [line for line in sick.stdout.splitlines() if "MCP server" in line]
    assert line.startswith("problem:") and str(project / ".mcp.json") in line
    assert REINSTALL_MCP in line


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_scope_user_is_what_user_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    _project(tmp_path, monkeypatch)
    by_scope = mem("install", agent, "--scope", "user", "--dry-run").output
    assert by_scope == mem("install", agent, "--user", "--dry-run").output
    assert by_scope != mem("install", agent, "--dry-run").output
    assert "Would have" in by_scope


def _not_a_file(path: Path, kind: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()


@pytest.mark.parametrize("kind", ["fifo", "folder"])
@pytest.mark.parametrize(
    ("agent", "name"),
    [(agent, name) for agent, names in INSTALLED.items() for name in names]
    + [("claude", ".claude/settings.json.mem-backup")],
)
def test_a_settings_path_that_is_no_file_is_refused_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str, name: str, kind: str
) -> None:
    """A FIFO is never opened for a blocking read (mem would wait forever), a folder never read."""
    project = _project(tmp_path, monkeypatch)
    if name.endswith(".mem-backup"):
        _agent_files(project, agent)
        mem("install", *_install_args(agent))
        (project / name).unlink()
    _not_a_file(project / name, kind)
    for command in ("install", "uninstall"):
        if kind == "folder":  # nothing to wait on: in this process
            done = mem_here(command, *_install_args(agent))
        else:  # a process of its own, ended if it waits
            try:
                done = subprocess.run(
                    [mem_executable(), command, *_install_args(agent)],
                    capture_output=True,
                    text=True,
                    timeout=20,
                    stdin=subprocess.DEVNULL,
                )
            except subprocess.TimeoutExpired:
                pytest.fail(f"mem {command} {agent} waited on a {kind} at {name}")
        if command == "install" and name.endswith(".mem-backup"):
            continue  # the backup is only read by the uninstall
        assert done.returncode == 1, (command, done.stdout, done.stderr)
        assert f"{project / name} is not a regular file" in done.stderr
        assert "internal error" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert (project / name).is_dir() if kind == "folder" else (project / name).is_fifo()


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_hooks_and_server_run_this_mem_not_another_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    """Another ``mem`` first on PATH (older, without the MCP extra) would answer the agent."""
    project = _project(tmp_path, monkeypatch)
    files = _agent_files(project, agent)
    other = tmp_path / "other-bin"
    other.mkdir()
    (other / "mem").write_text("#!/bin/sh\necho 'an older mem' >&2\nexit 2\n")
    (other / "mem").chmod(0o755)
    path = f"{other}{os.pathsep}{os.environ['PATH']}"
    # The project's files are committed: plain `mem`, and a line saying it is another one.
    done = mem_here("install", agent, "--mcp", cwd=project, env={"PATH": path})
    assert done.returncode == 0, done.stderr
    assert mem_executable() not in "".join(path.read_text() for path in files)
    assert f"the first `mem` on PATH is {other / 'mem'}" in done.stderr
    mem_here("uninstall", agent, cwd=project, env={"PATH": path})
    # The user's own files name this one.
    scope = "local" if agent == "claude" else "user"
    done = mem_here("install", agent, "--mcp", "--scope", scope, cwd=project, env={"PATH": path})
    assert done.returncode == 0, done.stderr
    home = Path(os.environ["HOME"])
    mine = [path for path in [*project.rglob("*"), *home.rglob("*")] if path.is_file()]
    written = "".join(path.read_text(errors="replace") for path in mine)
    assert mem_executable() in written and '"mem hook' not in written
    assert '"command": "mem"' not in written and 'command = "mem"' not in written
    mem_here("uninstall", agent, "--scope", scope, cwd=project, env={"PATH": path})
    # The mem on PATH is this one (a link to it, as pipx makes): plain `mem` is kept.
    (other / "mem").unlink()
    (other / "mem").symlink_to(mem_executable())
    done = mem_here("install", agent, "--mcp", "--scope", scope, cwd=project, env={"PATH": path})
    assert done.returncode == 0 and "first `mem` on PATH" not in done.stderr
    mine = [path for path in [*project.rglob("*"), *home.rglob("*")] if path.is_file()]
    assert mem_executable() not in "".join(path.read_text(errors="replace") for path in mine)


@pytest.mark.parametrize(
    "value",
    ["1e999", "-1e400", "NaN", "Infinity", "[" * 100_000 + "]" * 100_000],
    ids=["huge", "huge-negative", "nan", "infinity", "deep"],
)
def test_settings_mem_cannot_read_back_as_they_are_are_left_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """A number read back would be written as Infinity (no agent could read the file then);
    lists nested past Python's stack cannot be read at all."""
    settings = _project(tmp_path, monkeypatch) / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = f'{{"theirs": {value}}}\n'
    settings.write_text(original)
    refused = run_mem("install", "claude", "--no-mcp")
    assert refused.returncode == 1 and "mem leaves it untouched" in refused.stderr
    assert settings.read_text() == original and not _backup(settings).exists()


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_a_settings_folder_that_is_a_file_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    project = _project(tmp_path, monkeypatch)
    folder = project / f".{agent}"
    folder.write_text("not a folder\n")
    for command in ("install", "uninstall"):
        done = mem_here(command, agent)
        assert "internal error" not in done.stderr, done.stderr
        assert done.returncode in (0, 1) and len(done.stderr.splitlines()) <= 1
    assert folder.read_text() == "not a folder\n"


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_uninstall_leaves_no_empty_folder_install_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    project = _project(tmp_path, monkeypatch)
    before = sorted(p.name for p in project.iterdir())
    mem("install", agent)
    mem("uninstall", agent)
    assert sorted(p.name for p in project.iterdir()) == before


def _project_files(project: Path) -> dict[str, str]:
    """Every file of the project's work tree but git's own, by relative path."""
    return {
        str(path.relative_to(project)): path.read_text()
        for path in sorted(project.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(project).parts
    }


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_a_project_install_names_nothing_of_this_machine_in_committed_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_env: Path, agent: str
) -> None:
    project = _project(tmp_path, monkeypatch)
    elsewhere = tmp_path / "data" / "mem-elsewhere"
    monkeypatch.setenv("MEM_HOME", str(elsewhere))
    done = mem_here("install", agent, "--mcp", cwd=project, env={"MEM_HOME": str(elsewhere)})
    assert done.returncode == 0, done.stderr
    written = _project_files(project)
    local = written.pop(".claude/settings.local.json", None)
    assert set(written) == set(INSTALLED[agent])
    shared = "".join(written.values())
    assert "mem hook" in shared and "mcp" in shared
    for machine in (str(elsewhere), str(isolated_env), str(tmp_path), mem_executable()):
        assert machine not in shared, (machine, shared)
    if agent == "claude":  # what must name this machine is in the file kept out of git
        assert local is not None and json.loads(local)["env"] == {"MEM_HOME": str(elsewhere)}
    done = mem_here("uninstall", agent, cwd=project, env={"MEM_HOME": str(elsewhere)})
    assert done.returncode == 0, done.stderr
    assert _project_files(project) == {}


def test_claude_local_scope_writes_nothing_the_project_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_env: Path
) -> None:
    project = _project(tmp_path, monkeypatch)
    state = isolated_env / ".claude.json"
    before = '{\n  "numStartups": 3,\n  "projects": {"/elsewhere": {"allowedTools": []}}\n}\n'
    state.write_text(before)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(CONTENT[".json"])
    done = mem_here("install", "claude", "--scope", "local", "--mcp", cwd=project)
    assert done.returncode == 0, done.stderr
    written = _project_files(project)
    assert written.pop(".claude/settings.json") == CONTENT[".json"]  # committed: untouched
    assert set(written) == {".claude/settings.local.json"}
    hooks = json.loads(written[".claude/settings.local.json"])["hooks"]
    assert set(hooks) == {
        "SessionStart",
        "UserPromptSubmit",
        "PostCompact",
        "SessionEnd",
        "PreToolUse",
    }
    servers = json.loads(state.read_text())["projects"][str(project.resolve())]["mcpServers"]
    assert servers["mem"]["args"][-1] == "mcp"
    done = mem_here("uninstall", "claude", "--scope", "local", cwd=project)
    assert done.returncode == 0, done.stderr
    assert _project_files(project) == {".claude/settings.json": CONTENT[".json"]}
    assert state.read_text() == before


@pytest.mark.parametrize("agent", list(INSTALLED))
def test_a_project_install_that_plain_mem_cannot_run_is_reported_with_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    """pipx or an unactivated venv: no ``mem`` on PATH, so the project's plain ``mem``
    hooks would fail silently; install, doctor and status say so and what to do."""
    project = _project(tmp_path, monkeypatch)
    assert mem_here("init", cwd=project).returncode == 0
    bare = {"PATH": os.pathsep.join(["/usr/bin", "/bin"])}
    folder = str(Path(mem_executable()).parent)
    other = "local" if agent == "claude" else "user"
    done = mem_here("install", *_install_args(agent), cwd=project, env=bare)
    assert done.returncode == 0, done.stderr
    assert "warning:" in done.stderr and folder in done.stderr
    assert f"--scope {other}" in done.stderr
    doctor = mem_here("doctor", cwd=project, env=bare)
    assert doctor.returncode == 1, doctor.stdout
    assert "problem:" in doctor.stdout and folder in doctor.stdout
    status = mem_here("status", cwd=project, env=bare)
    assert status.returncode == 0 and folder in status.stdout
    # With this mem first on PATH, nothing to say.
    found = {"PATH": os.pathsep.join([folder, "/usr/bin", "/bin"])}
    doctor = mem_here("doctor", cwd=project, env=found)
    assert doctor.returncode == 0, doctor.stdout
    assert folder not in mem_here("status", cwd=project, env=found).stdout


def test_mem_status_sees_a_claude_local_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_env: Path
) -> None:
    project = _project(tmp_path, monkeypatch)
    done = mem_here("install", "claude", "--scope", "local", "--mcp", cwd=project)
    assert done.returncode == 0, done.stderr
    status = mem_here("status", "--json", cwd=project)
    agents = json.loads(status.stdout)["agents"]
    local = [a for a in agents if a["agent"] == "claude" and a["scope"] == "local"]
    assert local and local[0]["hooks"] and local[0]["mcp"], agents
    assert local[0]["hooks_path"] == str(project / ".claude" / "settings.local.json")
    claude = mem_here("status", cwd=project).stdout.split("Claude Code")[1].splitlines()[0]
    assert "local: hooks in" in claude and "not installed" not in claude


def test_uninstall_gives_back_a_mem_home_the_local_settings_held_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, monkeypatch)
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir()
    local.write_text('{"env": {"MEM_HOME": "/theirs", "FOO": "1"}, "permissions": {}}\n')
    mine = {"MEM_HOME": str(tmp_path / "mine")}
    assert mem_here("install", "claude", "--no-mcp", cwd=project, env=mine).returncode == 0
    assert json.loads(local.read_text())["env"]["MEM_HOME"] == mine["MEM_HOME"]
    changed = json.loads(local.read_text()) | {"permissions": {"allow": ["Bash(ls)"]}}
    local.write_text(json.dumps(changed))  # the agent changed something meanwhile
    assert mem_here("uninstall", "claude", "--no-mcp", cwd=project, env=mine).returncode == 0
    after = json.loads(local.read_text())
    assert after["env"] == {"MEM_HOME": "/theirs", "FOO": "1"}
    assert after["permissions"] == {"allow": ["Bash(ls)"]}
