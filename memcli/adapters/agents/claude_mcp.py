"""Registering ``mem mcp`` with Claude Code, and taking exactly that registration out again.

Claude Code reads a project's MCP servers from ``.mcp.json`` at the project's top
and the user's from the top-level ``mcpServers`` of ``~/.claude.json`` (in
``$CLAUDE_CONFIG_DIR`` when that is set); both hold
``{"mcpServers": {NAME: {"type": "stdio", "command": ..., "args": [...], "env": {...}}}}``;
mem's ``env`` names its data folder (``MEM_HOME``, and ``MEM_STORE`` when set), for
a host that starts servers with a stripped environment. ``.mcp.json`` is committed
and shared: there the server is plain ``mem mcp`` with no ``env`` (Claude Code gives
it the session's environment, with the ``env`` of ``.claude/settings.local.json``).
A server of the local scope, this user's in one project, is in ``~/.claude.json``
under ``projects`` and the project's path; it wins over ``.mcp.json``'s.
mem adds one server named ``mem`` and touches nothing else, with the hooks'
installer's merge, diff, backup and exact uninstall (config_file.py).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from memcli.adapters.agents.claude_settings import project_top
from memcli.adapters.agents.config_file import (
    SettingsChange,
    backup_path,
    finish_uninstall,
    mem_argv,
    merged_entry,
    read_json,
    resolve_links,
    server_env,
    shared_entry,
    write_json,
)
from memcli.core.errors import MemError

SERVER_NAME = "mem"
_OURS_RE = re.compile(r"(?:^|[\s/\\])(?:mem|memcli)\s+mcp(?:\s|$)")


def config_path(*, user: bool, cwd: Path) -> Path:
    """The user's ``.claude.json``, or ``.mcp.json`` at the top of the project's git repository.

    Where Claude Code keeps its global config (``getGlobalClaudeFile``): a legacy
    ``.config.json`` in its config folder when there is one, else ``.claude.json``
    in ``$CLAUDE_CONFIG_DIR`` when that is set, else in the home directory (beside
    ``~/.claude``, not in it).
    """
    if not user:
        return project_top(cwd) / ".mcp.json"
    from memcli.capture.transcripts.locate import claude_home

    legacy = claude_home() / ".config.json"
    if legacy.exists():
        return legacy
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return (Path(configured).expanduser() if configured else Path.home()) / ".claude.json"


def server_entry(*, shared: bool = False) -> dict[str, Any]:
    """How Claude Code starts ``mem mcp``: this installation's mem (``mem_argv``);
    ``shared``: plain ``mem``, and no ``env`` (nothing of this machine's)."""
    command, *args = mem_argv(shared=shared)
    entry = {"type": "stdio", "command": command, "args": [*args, "mcp"]}
    return entry if shared else {**entry, "env": server_env()}


def is_ours(entry: Any) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("args", []), list):
        return False
    words = [str(entry.get("command", "")), *map(str, entry.get("args", []))]
    return bool(_OURS_RE.search(" ".join(words)))


def install(
    path: Path, *, dry_run: bool = False, shared: bool = False, project: str | None = None
) -> SettingsChange:
    """mem's server into ``path``'s ``mcpServers`` (``project``: those of that project in
    ``~/.claude.json``; ``shared``: a file the project commits, as ``server_entry``)."""
    real = resolve_links(path)
    original, data = read_json(real)
    servers = mcp_servers(real, _holder(real, data, project, create=True), create=True)
    current = servers.get(SERVER_NAME)
    if current is not None and not is_ours(current):
        raise MemError(
            f"{path}: mcpServers.{SERVER_NAME} is another server; mem leaves it untouched"
        )
    entry = merged_entry(current, server_entry(shared=shared))
    servers[SERVER_NAME] = shared_entry(entry) if shared else entry
    # Only the first install backs the file up: the file as it was before mem.
    change = write_json(real, original, data, dry_run=dry_run, keep_backup=current is None)
    return change._replace(path=path)


def uninstall(path: Path, *, dry_run: bool = False, project: str | None = None) -> SettingsChange:
    real = resolve_links(path)
    if not real.exists():
        return SettingsChange(path, "", False)
    original, data = read_json(real)
    assert original is not None
    holder = _holder(real, data, project, create=False)
    servers = mcp_servers(real, holder, create=False)
    if not is_ours(servers.get(SERVER_NAME)):
        backup = backup_path(real)
        return SettingsChange(path, "", False, backup if backup.exists() else None)
    del servers[SERVER_NAME]
    if not servers:
        del holder["mcpServers"]
    if project is not None and not holder:
        del data["projects"][project]  # mem's server was all that project held
        if not data["projects"]:
            del data["projects"]
    return finish_uninstall(real, original, data, dry_run=dry_run)._replace(path=path)


def _holder(path: Path, data: dict[str, Any], project: str | None, *, create: bool) -> Any:
    """What holds ``mcpServers``: the file's top, or (``project``) that project's object."""
    if project is None:
        return data
    projects = data.setdefault("projects", {}) if create else data.get("projects", {})
    if not isinstance(projects, dict):
        raise MemError(f"{path}: 'projects' is not an object; fix the file by hand first")
    holder = projects.setdefault(project, {}) if create else projects.get(project, {})
    if not isinstance(holder, dict):
        raise MemError(f"{path}: projects.{project} is not an object; fix the file by hand first")
    return holder


def registers_server(path: Path, *, project: str | None = None) -> bool:
    """Whether the JSON settings at ``path`` hold mem's entry in ``mcpServers`` (``project``:
    in that project's, in ``~/.claude.json``)."""
    real = resolve_links(path)
    if not real.is_file():
        return False
    _original, data = read_json(real)
    holder = _holder(real, data, project, create=False)
    return is_ours(mcp_servers(real, holder, create=False).get(SERVER_NAME))


def mcp_servers(path: Path, data: dict[str, Any], *, create: bool) -> dict[str, Any]:
    """The ``mcpServers`` object of an agent's settings (Claude Code's and Gemini CLI's)."""
    servers = data.setdefault("mcpServers", {}) if create else data.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise MemError(f"{path}: 'mcpServers' is not an object; fix the file by hand first")
    return servers
