"""Adding mem's hooks to Claude Code's settings.json, and taking exactly them out again.

The hooks' shape and merge are hook_settings.py's; writing follows config_file.py
(diff, backup, atomic write, links written through, exact restore).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memcli.adapters.agents.config_file import SettingsChange
from memcli.adapters.agents.hook_settings import HookSettings

INSTALLED_EVENTS = {"SessionStart": 10, "UserPromptSubmit": 10, "PostCompact": 30, "SessionEnd": 5}
"""The events mem answers, with the timeout (seconds) Claude Code gives each."""
CLAUDE_HOOKS = HookSettings("claude", INSTALLED_EVENTS)


def settings_path(*, user: bool, cwd: Path) -> Path:
    """The user's ``settings.json`` (``$CLAUDE_CONFIG_DIR``, else ``~/.claude``), or
    ``.claude/settings.json`` at the project's top."""
    if user:
        from memcli.capture.transcripts.locate import claude_home

        return claude_home() / "settings.json"
    return project_top(cwd) / ".claude" / "settings.json"


def project_top(cwd: Path) -> Path:
    """The top of ``cwd``'s git work tree (a ``.git`` found upwards), else ``cwd``."""
    for directory in (cwd, *cwd.parents):
        if (directory / ".git").exists():
            return directory
    return cwd


def is_ours(hook: Any) -> bool:
    return CLAUDE_HOOKS.is_ours(hook)


def install(path: Path, *, dry_run: bool = False, worker: bool = False) -> SettingsChange:
    return CLAUDE_HOOKS.install(path, dry_run=dry_run, worker=worker)


def uninstall(path: Path, *, dry_run: bool = False) -> SettingsChange:
    return CLAUDE_HOOKS.uninstall(path, dry_run=dry_run)
