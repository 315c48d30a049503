"""Which agents' settings register mem's MCP server (``mem doctor`` checks it can start).

The places the installers write: Claude Code's ``.mcp.json`` and the user's
``.claude.json``, Gemini CLI's ``settings.json`` (project and user), Codex's
``config.toml`` (project and ``$CODEX_HOME``). A file mem cannot read counts as
registering nothing: the installers say what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memcli.core.errors import MemError


def server_registrations(cwd: Path) -> list[Path]:
    """The settings files, project's and user's, that register mem's MCP server."""
    from memcli.adapters.agents import claude_mcp, codex, gemini

    candidates: list[tuple[Path, Callable[[Path], bool]]] = []
    for user in (False, True):
        candidates.append((claude_mcp.config_path(user=user, cwd=cwd), claude_mcp.registers_server))
        candidates.append((gemini.settings_path(user=user, cwd=cwd), claude_mcp.registers_server))
        candidates.append((codex.paths(user=user, cwd=cwd)[1], codex.registers_server))
    found: list[Path] = []
    for path, registers in candidates:
        try:
            if path not in found and registers(path):
                found.append(path)
        except (MemError, OSError):
            continue
    return found
