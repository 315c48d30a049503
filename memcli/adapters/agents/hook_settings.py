"""mem's hooks in an agent's hook settings, added and taken out again exactly.

Claude Code, Codex and Gemini CLI read hooks in one shape: ``{"hooks": {EVENT:
[{"matcher": ..., "hooks": [{"type": "command", "command": ..., "timeout": ...}]}]}}``.
Only entries whose command is ``mem hook AGENT ...`` are ever added or removed;
every other setting and hook is left as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
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

WORKER_EVENT = "SessionStart"
"""The hook that starts the store's warm worker, when installed with ``--worker``."""
PLACE_KEPT: dict[str, Any] = {"hooks": []}
"""The empty group left where mem's was (``keep_positions``)."""


@dataclass(frozen=True)
class HookSettings:
    """The hooks ``mem hook AGENT EVENT`` answers, with the timeout each gets."""

    agent: str
    events: dict[str, int]
    """Event name -> timeout, in the agent's unit (seconds; Gemini CLI: milliseconds)."""
    keep_positions: bool = False
    """Uninstall leaves ``{"hooks": []}`` where mem's group was when groups follow it, and
    install puts mem's hook back there: an agent that trusts hooks by their position
    (Codex) then still trusts the groups after mem's."""
    names: dict[str, str] = field(default_factory=dict)
    """Event -> the hook's ``name`` (Gemini CLI shows it in /hooks and its messages)."""
    matchers: dict[str, str] = field(default_factory=dict)
    """Event -> the ``matcher`` of mem's group: the pre-tool hook runs only for the tools
    mem guards (``adapters.agents.pretool.MATCHERS``)."""
    _ours: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pattern = rf"(?:^|[\s/\\])(?:mem|memcli)['\"]?\s+hook\s+{re.escape(self.agent)}\s"
        object.__setattr__(self, "_ours", re.compile(pattern))

    def is_ours(self, hook: Any) -> bool:
        command = hook.get("command", "") if isinstance(hook, dict) else ""
        return bool(self._ours.search(str(command) + " "))

    def install(
        self, path: Path, *, dry_run: bool = False, worker: bool = False, shared: bool = False
    ) -> SettingsChange:
        """mem's hooks into the settings at ``path`` (``shared``: a file the project
        commits, whose commands name no path of this machine)."""
        real = resolve_links(path)
        original, data = read_json(real)
        # Only the first install backs the file up: the backup then holds it as it was
        # before mem, which an uninstall gives back, however often mem's hooks were updated.
        first = not self.installed(data)
        self.add(real, data, worker=worker, shared=shared)
        return write_json(real, original, data, dry_run=dry_run, keep_backup=first)._replace(
            path=path
        )

    def installed(self, data: dict[str, Any]) -> bool:
        """Whether ``data`` (a settings file's JSON) holds any hook of mem's."""
        return bool(self.events_held(data))

    def events_held(self, data: dict[str, Any]) -> set[str]:
        """The events ``data`` (a settings file's JSON) holds a hook of mem's for."""
        hooks = data.get("hooks")
        if not isinstance(hooks, dict):
            return set()
        return {
            event
            for event, groups in hooks.items()
            if isinstance(groups, list)
            for group in groups
            if isinstance(group, dict) and isinstance(group.get("hooks"), list)
            for hook in group["hooks"]
            if self.is_ours(hook)
        }

    def holds(self, path: Path) -> bool:
        """Whether the settings file at ``path`` holds any hook of mem's (reading only)."""
        return self.installed(read_json(resolve_links(path))[1])

    def holds_event(self, event: str, path: Path) -> bool:
        """Whether the settings file at ``path`` holds mem's hook for ``event``."""
        return event in self.events_held(read_json(resolve_links(path))[1])

    def uninstall(self, path: Path, *, dry_run: bool = False) -> SettingsChange:
        real = resolve_links(path)
        if not real.exists():
            return SettingsChange(path, "", False)
        original, data = read_json(real)
        assert original is not None
        self.remove(data)
        return finish_uninstall(real, original, data, dry_run=dry_run)._replace(path=path)

    def add(
        self, path: Path, data: dict[str, Any], *, worker: bool = False, shared: bool = False
    ) -> None:
        """mem's hooks into ``data`` (``path``'s JSON); those there already are kept current.

        ``worker``: the session start's hook starts the store's warm worker (``--worker``);
        ``shared``: plain ``mem`` (``config_file.mem_argv``).
        """
        hooks = data.setdefault("hooks", {})
        if not isinstance(hooks, dict):
            raise MemError(f"{path}: 'hooks' is not an object; fix the file by hand first")
        command = mem_command(shared=shared)
        for event, timeout in self.events.items():
            groups = hooks.setdefault(event, [])
            if not isinstance(groups, list):
                raise MemError(f"{path}: hooks.{event} is not a list; fix the file by hand first")
            entry: dict[str, Any] = {
                "type": "command",
                "command": f"{command} hook {self.agent} {event}"
                + (" --worker" if worker and event == WORKER_EVENT else ""),
                "timeout": timeout,
            }
            if event in self.names:
                entry["name"] = self.names[event]
            matcher = {"matcher": self.matchers[event]} if event in self.matchers else {}
            ours = [
                (group, hook)
                for group in groups
                if isinstance(group, dict) and isinstance(group.get("hooks"), list)
                for hook in group["hooks"]
                if self.is_ours(hook)
            ]
            if ours:
                for group, hook in ours:  # already there: keep it current
                    hook.update(entry)
                    group.update(matcher)
            elif self.keep_positions and PLACE_KEPT in groups:
                groups[groups.index(PLACE_KEPT)] = {**matcher, "hooks": [entry]}  # where it was
            else:
                groups.append({**matcher, "hooks": [entry]})

    def remove(self, data: dict[str, Any]) -> None:
        """mem's hooks out of ``data``; a group or event left empty by that goes too."""
        hooks = data.get("hooks")
        if not isinstance(hooks, dict):
            return
        for event in list(hooks):
            groups = hooks[event]
            if not isinstance(groups, list):
                continue
            kept: list[Any] = []
            for group in groups:
                inner = group.get("hooks") if isinstance(group, dict) else None
                if isinstance(inner, list) and any(self.is_ours(h) for h in inner):
                    inner = [h for h in inner if not self.is_ours(h)]
                    if not inner:
                        kept.append(None)  # the group only held mem's hook
                        continue
                    group = {**group, "hooks": inner}
                kept.append(group)
            while kept and kept[-1] is None:
                kept.pop()  # nothing after it to keep in place
            kept = [
                {"hooks": []} if group is None and self.keep_positions else group
                for group in kept
                if group is not None or self.keep_positions
            ]
            if kept or not groups:
                hooks[event] = kept
            else:
                del hooks[event]
        if not hooks:
            del data["hooks"]
