"""Adding mem's hooks to Claude Code's settings.json, and taking exactly them out again.

Only hook entries whose command is mem's are ever added or removed; every other
setting, and every other hook, is left as it is. Writing follows
config_file.py: diff, backup, atomic write, links written through, and an
uninstall that leaves nothing of mem behind restores the original bytes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from memcli.adapters.agents.config_file import (
    SettingsChange,
    finish_uninstall,
    mem_command,
    read_json,
    resolve_links,
    write_json,
)
from memcli.core.errors import MemError

INSTALLED_EVENTS = {"SessionStart": 10, "UserPromptSubmit": 10, "PostCompact": 30, "SessionEnd": 5}
"""The events mem answers, with the timeout (seconds) Claude Code gives each."""
_OURS_RE = re.compile(r"(?:^|[\s/\\])(?:mem|memcli)['\"]?\s+hook\s+claude\s")


def settings_path(*, user: bool, cwd: Path) -> Path:
    """``~/.claude/settings.json``, or ``.claude/settings.json`` at the project's top."""
    if user:
        return Path.home() / ".claude" / "settings.json"
    for directory in (cwd, *cwd.parents):
        if (directory / ".git").exists():
            return directory / ".claude" / "settings.json"
    return cwd / ".claude" / "settings.json"


def is_ours(hook: Any) -> bool:
    return isinstance(hook, dict) and bool(_OURS_RE.search(str(hook.get("command", "")) + " "))


def install(path: Path, *, dry_run: bool = False) -> SettingsChange:
    real = resolve_links(path)
    return _install(real, dry_run=dry_run)._replace(path=path)


def _install(path: Path, *, dry_run: bool) -> SettingsChange:
    original, data = read_json(path)
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise MemError(f"{path}: 'hooks' is not an object; fix the file by hand first")
    command = mem_command()
    for event, timeout in INSTALLED_EVENTS.items():
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise MemError(f"{path}: hooks.{event} is not a list; fix the file by hand first")
        entry = {"type": "command", "command": f"{command} hook claude {event}", "timeout": timeout}
        ours = [h for g in groups if isinstance(g, dict) for h in g.get("hooks", []) if is_ours(h)]
        if ours:
            for hook in ours:  # already there: keep it current
                hook.update(entry)
        else:
            groups.append({"hooks": [entry]})
    return write_json(path, original, data, dry_run=dry_run, keep_backup=True)


def uninstall(path: Path, *, dry_run: bool = False) -> SettingsChange:
    real = resolve_links(path)
    return _uninstall(real, dry_run=dry_run)._replace(path=path)


def _uninstall(path: Path, *, dry_run: bool) -> SettingsChange:
    if not path.exists():
        return SettingsChange(path, "", False)
    original, data = read_json(path)
    assert original is not None
    hooks = data.get("hooks")
    if isinstance(hooks, dict):
        for event in list(hooks):
            groups = hooks[event]
            if not isinstance(groups, list):
                continue
            kept = []
            for group in groups:
                inner = group.get("hooks") if isinstance(group, dict) else None
                if isinstance(inner, list) and any(is_ours(h) for h in inner):
                    inner = [h for h in inner if not is_ours(h)]
                    if not inner:
                        continue  # the group only held mem's hook
                    group = {**group, "hooks": inner}
                kept.append(group)
            if kept or not groups:
                hooks[event] = kept
            else:
                del hooks[event]
        if not hooks:
            del data["hooks"]
    return finish_uninstall(path, original, data, dry_run=dry_run)
