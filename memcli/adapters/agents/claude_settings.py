"""Adding mem's hooks to Claude Code's settings.json, and taking exactly them out again.

The hooks' shape and merge are hook_settings.py's; writing follows config_file.py
(diff, backup, atomic write, links written through, exact restore).

A project's ``.claude/settings.json`` is committed and shared, so it names no path
of this machine: its hooks run plain ``mem``, and the folders mem was told of
(``MEM_HOME``, ``MEM_STORE``) go to the ``env`` of ``.claude/settings.local.json``,
the project's settings that Claude Code keeps for this user only (it applies their
``env`` to the session, its hooks and its MCP servers). ``--scope local`` puts the
hooks there too.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from memcli.adapters.agents.config_file import (
    MACHINE_VARIABLES,
    SettingsChange,
    backup_path,
    finish_uninstall,
    read_json,
    read_regular,
    resolve_links,
    write_json,
)
from memcli.adapters.agents.hook_settings import HookSettings
from memcli.adapters.agents.pretool import MATCHERS as GUARDED_TOOLS
from memcli.core.errors import MemError

INSTALLED_EVENTS = {
    "SessionStart": 10,
    "UserPromptSubmit": 10,
    "PostCompact": 30,
    "SessionEnd": 5,
    "PreToolUse": 5,
}
"""The events mem answers, with the timeout (seconds) Claude Code gives each."""
CLAUDE_HOOKS = HookSettings(
    "claude", INSTALLED_EVENTS, matchers={"PreToolUse": GUARDED_TOOLS["claude"]}
)


def settings_path(*, user: bool, cwd: Path, local: bool = False) -> Path:
    """The user's ``settings.json`` (``$CLAUDE_CONFIG_DIR``, else ``~/.claude``), or
    ``.claude/settings.json`` at the project's top (``local``: ``settings.local.json``,
    the project's settings for this user only, which Claude Code keeps out of git)."""
    if user:
        from memcli.capture.transcripts.locate import claude_home

        return claude_home() / "settings.json"
    return project_top(cwd) / ".claude" / ("settings.local.json" if local else "settings.json")


def project_top(cwd: Path) -> Path:
    """The top of ``cwd``'s git work tree (a ``.git`` found upwards), else ``cwd``."""
    for directory in (cwd, *cwd.parents):
        if (directory / ".git").exists():
            return directory
    return cwd


def is_ours(hook: Any) -> bool:
    return CLAUDE_HOOKS.is_ours(hook)


def install(
    path: Path,
    *,
    dry_run: bool = False,
    worker: bool = False,
    shared: bool = False,
    hooks: bool = True,
    env: dict[str, str] | None = None,
) -> SettingsChange:
    """mem's hooks (``hooks``) and the variables ``env`` into the settings at ``path``, in
    one write (``shared``: a file the project commits, as ``HookSettings.install``)."""
    real = resolve_links(path)
    original, data = read_json(real)
    env = env or {}
    # Only the first install backs the file up: the file as it was before mem.
    first = not CLAUDE_HOOKS.installed(data) and not _holds_env(data, env)
    if hooks:
        CLAUDE_HOOKS.add(real, data, worker=worker, shared=shared)
    if env:
        current = data.setdefault("env", {})
        if not isinstance(current, dict):
            raise MemError(f"{path}: 'env' is not an object; fix the file by hand first")
        current.update(env)
    return write_json(real, original, data, dry_run=dry_run, keep_backup=first)._replace(path=path)


def uninstall(
    path: Path, *, dry_run: bool = False, env: bool = False, hooks: bool = True
) -> SettingsChange:
    """mem's hooks and (``env``: a local settings file) the variables mem added to its
    ``env`` out of the settings at ``path``, in one write: the original bytes when
    nothing else changed."""
    real = resolve_links(path)
    if not real.exists():
        return SettingsChange(path, "", False)
    original, data = read_json(real)
    assert original is not None
    if hooks:
        CLAUDE_HOOKS.remove(data)
    if env:
        _remove_env(real, data)
    return finish_uninstall(real, original, data, dry_run=dry_run)._replace(path=path)


def _holds_env(data: dict[str, Any], env: dict[str, str]) -> bool:
    current = data.get("env")
    return isinstance(current, dict) and any(current.get(k) == v for k, v in env.items())


def _remove_env(path: Path, data: dict[str, Any]) -> None:
    """mem's variables out of ``env``: those the file did not hold before mem's install
    (its backup), or all of them when mem made the file; one it held with another
    value gets that value back."""
    current = data.get("env")
    if not isinstance(current, dict):
        return
    saved = read_regular(backup_path(path))
    before: Any = None
    if saved is not None:
        with contextlib.suppress(ValueError, UnicodeDecodeError):
            before = json.loads(saved.decode("utf-8") or "{}")
    before_env = before.get("env") if isinstance(before, dict) else None
    kept = before_env if isinstance(before_env, dict) else {}
    for name in MACHINE_VARIABLES:
        if name in current and kept.get(name) != current[name]:
            if name in kept:  # the file's own value, which mem's install replaced
                current[name] = kept[name]
            else:
                del current[name]
    if not current and not isinstance(before_env, dict):
        del data["env"]
