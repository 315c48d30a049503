"""Where each agent's settings are, and which of them hold mem's hooks and MCP server.

The places the installers write: Claude Code's ``.claude/settings.json`` (hooks) and
``.mcp.json`` / the user's ``.claude.json`` (server), Codex's ``hooks.json`` and
``config.toml`` (project and ``$CODEX_HOME``), Gemini CLI's ``settings.json`` (both,
project and user). ``mem doctor`` checks that a registered server can start; ``mem
status`` lists them all. Everything here only reads. A file mem cannot read counts as
holding nothing: the installers say what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from memcli.core.errors import MemError

AGENT_NAMES = {"claude": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI"}
SCOPES = ("project", "user")
"""The scopes of every agent; Claude Code has a third, ``local`` (the project's, for this
user only: ``.claude/settings.local.json`` and the project's entry in ``~/.claude.json``)."""


@dataclass(frozen=True)
class Place:
    """One agent's settings in one scope: where its hooks and its MCP server would be."""

    agent: str
    scope: str
    hooks_path: Path
    has_hooks: Callable[[Path], bool]
    server_path: Path
    has_server: Callable[[Path], bool]
    has_guard_hook: Callable[[Path], bool]
    """Whether the hooks' file holds mem's pre-tool hook (the one that enforces guards)."""


@dataclass(frozen=True)
class Setup:
    """What one agent's settings in one scope hold of mem's."""

    agent: str
    scope: str
    hooks_path: Path
    hooks: bool
    server_path: Path
    server: bool
    problem: str | None = None
    """Why a settings file could not be read (then it counts as holding nothing)."""
    guards: bool = False
    """Whether mem's pre-tool hook is among its hooks (guards are enforced)."""


def places(cwd: Path) -> list[Place]:
    """Every agent's settings, the project's (``cwd``'s) then the user's."""
    from memcli.adapters.agents import claude_mcp, claude_settings, codex, gemini
    from memcli.adapters.agents.pretool import EVENTS

    claude_guards = partial(claude_settings.CLAUDE_HOOKS.holds_event, EVENTS["claude"])
    found = []
    for scope in SCOPES:
        user = scope == "user"
        codex_hooks, codex_config = codex.paths(user=user, cwd=cwd)
        gemini_settings = gemini.settings_path(user=user, cwd=cwd)
        found += [
            Place(
                "claude",
                scope,
                claude_settings.settings_path(user=user, cwd=cwd),
                claude_settings.CLAUDE_HOOKS.holds,
                claude_mcp.config_path(user=user, cwd=cwd),
                claude_mcp.registers_server,
                claude_guards,
            ),
            Place(
                "codex",
                scope,
                codex_hooks,
                codex.CODEX_HOOKS.holds,
                codex_config,
                codex.registers_server,
                partial(codex.CODEX_HOOKS.holds_event, EVENTS["codex"]),
            ),
            Place(
                "gemini",
                scope,
                gemini_settings,
                gemini.GEMINI_HOOKS.holds,
                gemini_settings,
                claude_mcp.registers_server,
                partial(gemini.GEMINI_HOOKS.holds_event, EVENTS["gemini"]),
            ),
        ]
    top = str(claude_settings.project_top(cwd).resolve())
    found.append(
        Place(
            "claude",
            "local",
            claude_settings.settings_path(user=False, cwd=cwd, local=True),
            claude_settings.CLAUDE_HOOKS.holds,
            claude_mcp.config_path(user=True, cwd=cwd),
            partial(claude_mcp.registers_server, project=top),
            claude_guards,
        )
    )
    return found


def plain_mem_problems(found: list[Setup]) -> list[str]:
    """Per agent whose project settings hold mem's hooks or server: that their plain
    ``mem`` is not this installation here, and what to do (none when it is)."""
    from memcli.adapters.agents.config_file import other_mem_on_path

    agents = dict.fromkeys(
        setup.agent for setup in found if setup.scope == "project" and (setup.hooks or setup.server)
    )
    return [note for agent in agents if (note := other_mem_on_path(agent))]


def guard_hook_problems(found: list[Setup]) -> list[str]:
    """Settings holding mem's hooks but not its pre-tool hook (installed by an older mem):
    guards are not enforced there until ``mem install`` runs again."""
    return [
        f"{AGENT_NAMES[setup.agent]}'s {setup.scope} settings ({setup.hooks_path}) hold mem's "
        f"hooks but not its pre-tool hook, so guards are not enforced there: run "
        f"`mem install {setup.agent}` again"
        for setup in found
        if setup.hooks and not setup.guards
    ]


def setups(cwd: Path) -> list[Setup]:
    """What each agent's settings, project's and user's, hold of mem's."""
    found = []
    for place in places(cwd):
        problems: list[str] = []
        hooks = _holds(place.has_hooks, place.hooks_path, problems)
        server = _holds(place.has_server, place.server_path, problems)
        guards = hooks and _holds(place.has_guard_hook, place.hooks_path, problems)
        problem = "; ".join(dict.fromkeys(problems)) or None
        found.append(
            Setup(
                place.agent,
                place.scope,
                place.hooks_path,
                hooks,
                place.server_path,
                server,
                problem,
                guards,
            )
        )
    return found


def _holds(check: Callable[[Path], bool], path: Path, problems: list[str]) -> bool:
    try:
        return check(path)
    except MemError as exc:
        problems.append(str(exc))
    except OSError as exc:
        problems.append(f"{path} cannot be read ({exc.strerror})")
    return False


def server_registrations(cwd: Path) -> list[Path]:
    """The settings files, project's and user's, that register mem's MCP server."""
    found: list[Path] = []
    for place in places(cwd):
        try:
            if place.server_path not in found and place.has_server(place.server_path):
                found.append(place.server_path)
        except (MemError, OSError):
            continue
    return found
