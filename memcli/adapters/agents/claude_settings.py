"""Adding mem's hooks to Claude Code's settings.json, and taking exactly them out again.

Only hook entries whose command is mem's are ever added or removed; every other
setting, and every other hook, is left as it is. The file keeps its indentation
and final newline, a backup of the previous file is kept beside it, and an
uninstall that leaves nothing of mem behind restores the original bytes. A
settings file that is a symbolic link (dotfile managers) is written through:
the file it points to changes, the link stays, the backup goes beside the file.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any, NamedTuple

from memcli.core.errors import MemError

INSTALLED_EVENTS = {"SessionStart": 10, "UserPromptSubmit": 10, "PostCompact": 30, "SessionEnd": 5}
"""The events mem answers, with the timeout (seconds) Claude Code gives each."""
BACKUP_SUFFIX = ".mem-backup"
_OURS_RE = re.compile(r"(?:^|[\s/\\])(?:mem|memcli)['\"]?\s+hook\s+claude\s")


class SettingsChange(NamedTuple):
    path: Path
    diff: str
    changed: bool


def settings_path(*, user: bool, cwd: Path) -> Path:
    """``~/.claude/settings.json``, or ``.claude/settings.json`` at the project's top."""
    if user:
        return Path.home() / ".claude" / "settings.json"
    for directory in (cwd, *cwd.parents):
        if (directory / ".git").exists():
            return directory / ".claude" / "settings.json"
    return cwd / ".claude" / "settings.json"


def mem_command() -> str:
    """``mem`` when it is on PATH, else the full path of this installation's entry point."""
    if shutil.which("mem"):
        return "mem"
    beside = Path(sys.executable).parent / "mem"
    if beside.exists():
        return shlex.quote(str(beside))
    return f"{shlex.quote(sys.executable)} -m memcli"


def is_ours(hook: Any) -> bool:
    return isinstance(hook, dict) and bool(_OURS_RE.search(str(hook.get("command", "")) + " "))


def _through_links(path: Path) -> Path:
    """The file ``path`` names after following every symbolic link (it may not exist yet)."""
    if not path.is_symlink():
        return path
    real = Path(os.path.realpath(path))
    if real.is_symlink():
        raise MemError(f"{path} is a symbolic link that loops; mem leaves it untouched")
    return real


def install(path: Path, *, dry_run: bool = False) -> SettingsChange:
    real = _through_links(path)
    return _install(real, dry_run=dry_run)._replace(path=path)


def _install(path: Path, *, dry_run: bool) -> SettingsChange:
    original, data = _read(path)
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
    return _write(path, original, data, dry_run=dry_run, keep_backup=True)


def uninstall(path: Path, *, dry_run: bool = False) -> SettingsChange:
    real = _through_links(path)
    return _uninstall(real, dry_run=dry_run)._replace(path=path)


def _uninstall(path: Path, *, dry_run: bool) -> SettingsChange:
    if not path.exists():
        return SettingsChange(path, "", False)
    original, data = _read(path)
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


def finish_uninstall(
    path: Path, original: bytes, data: dict[str, Any], *, dry_run: bool
) -> SettingsChange:
    """Write ``data`` (``path``'s JSON with mem's part taken out) as exactly as can be.

    Nothing left and no backup: mem's install created the file, so it goes.
    Nothing else changed since the install: the backup's exact bytes come back.
    Otherwise the remaining JSON is written, indented like the file.
    """
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    if not data and not backup.exists():
        # mem's install created this file: nothing of anyone else's is in it.
        diff = "".join(
            difflib.unified_diff(
                original.decode("utf-8").splitlines(keepends=True),
                [],
                fromfile=str(path),
                tofile="/dev/null",
            )
        )
        if not dry_run:
            path.unlink()
        return SettingsChange(path, diff, True)
    if backup.exists() and _parse(backup) == data:
        restored = backup.read_bytes()  # nothing else changed since install: the exact bytes
        return _write_bytes(path, original, restored, dry_run=dry_run, remove_backup=backup)
    return _write(path, original, data, dry_run=dry_run, keep_backup=False)


def _parse(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def _read(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    if not path.exists():
        return None, {}
    original = path.read_bytes()
    try:
        data = json.loads(original.decode("utf-8")) if original.strip() else {}
    except (ValueError, UnicodeDecodeError) as exc:
        raise MemError(f"{path} is not valid JSON ({exc}); mem leaves it untouched") from None
    if not isinstance(data, dict):
        raise MemError(f"{path} does not hold a JSON object; mem leaves it untouched")
    return original, data


def _serialise(data: dict[str, Any], like: bytes | None) -> bytes:
    """JSON indented like the file it replaces (two spaces by default), same final newline."""
    text = like.decode("utf-8") if like else ""
    found = re.search(r"\n([ \t]+)\S", text)
    indent = found.group(1) if found else "  "
    newline = "\n" if not text or text.endswith("\n") else ""
    return (json.dumps(data, indent=indent, ensure_ascii=False) + newline).encode("utf-8")


def _write(
    path: Path, original: bytes | None, data: dict[str, Any], *, dry_run: bool, keep_backup: bool
) -> SettingsChange:
    if original is None and not data:
        return SettingsChange(path, "", False)
    new = _serialise(data, original)
    backup = path.with_name(path.name + BACKUP_SUFFIX) if keep_backup and original else None
    return _write_bytes(path, original, new, dry_run=dry_run, backup=backup)


def _write_bytes(
    path: Path,
    original: bytes | None,
    new: bytes,
    *,
    dry_run: bool,
    backup: Path | None = None,
    remove_backup: Path | None = None,
) -> SettingsChange:
    old_text = (original or b"").decode("utf-8")
    diff = "".join(
        difflib.unified_diff(
            old_text.splitlines(keepends=True),
            new.decode("utf-8").splitlines(keepends=True),
            fromfile=f"{path} (before)",
            tofile=f"{path} (after)",
        )
    )
    changed = new != (original or b"")
    if dry_run or not changed:
        return SettingsChange(path, diff, changed)
    path.parent.mkdir(parents=True, exist_ok=True)
    if backup is not None and original is not None:
        backup.write_bytes(original)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temp.write_bytes(new)
    if original is not None:
        os.chmod(temp, path.stat().st_mode & 0o7777)  # a private file stays private
    os.replace(temp, path)
    if remove_backup is not None:
        remove_backup.unlink(missing_ok=True)
    return SettingsChange(path, diff, changed)
