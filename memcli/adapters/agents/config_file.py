"""Agents' settings files: read, merge, show the diff, back up, write, and restore exactly.

Every installer (Claude Code, Codex, Gemini CLI) changes someone else's file, so
the same care applies to all: the file keeps its indentation and final newline,
a backup of the previous bytes is kept beside it, the write is atomic and keeps
the file's mode, a file that is a symbolic link (dotfile managers) is written
through (the file it points to changes, the link stays), and an uninstall that
leaves nothing of mem behind restores the original bytes.
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
from memcli.core.regular import NotRegularFile, open_regular

BACKUP_SUFFIX = ".mem-backup"


class SettingsChange(NamedTuple):
    path: Path
    diff: str
    changed: bool


def mem_command() -> str:
    """``mem`` when it is on PATH, else the full path of this installation's entry point."""
    if shutil.which("mem"):
        return "mem"
    beside = Path(sys.executable).parent / "mem"
    if beside.exists():
        return shlex.quote(str(beside))
    return f"{shlex.quote(sys.executable)} -m memcli"


def resolve_links(path: Path) -> Path:
    """The file ``path`` names after following every symbolic link (it may not exist yet)."""
    if not path.is_symlink():
        return path
    real = Path(os.path.realpath(path))
    if real.is_symlink():
        raise MemError(f"{path} is a symbolic link that loops; mem leaves it untouched")
    return real


def finish_uninstall(
    path: Path, original: bytes, data: dict[str, Any], *, dry_run: bool
) -> SettingsChange:
    """Write ``data`` (``path``'s JSON with mem's part taken out) as exactly as can be.

    Nothing of mem's taken out: the file is left as it is.
    Nothing left and no backup: mem's install created the file, so it goes.
    Nothing else changed since the install: the backup's exact bytes come back.
    Otherwise the remaining JSON is written, indented like the file.
    """
    if _parsed(original) == data:
        return SettingsChange(path, "", False)  # nothing of mem's was there: not even reformatted
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
    if backup.exists() and parse_json(backup) == data:
        restored = backup.read_bytes()  # nothing else changed since install: the exact bytes
        return write_bytes(path, original, restored, dry_run=dry_run, remove_backup=backup)
    return write_json(path, original, data, dry_run=dry_run, keep_backup=False)


def _parsed(original: bytes) -> Any:
    try:
        return json.loads(original.decode("utf-8")) if original.strip() else {}
    except (ValueError, UnicodeDecodeError):
        return None


def parse_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def read_settings(path: Path) -> bytes:
    """An agent's settings file, read only if it is a regular file (a FIFO would hang mem)."""
    try:
        with open_regular(path) as handle:
            return handle.read()
    except NotRegularFile as exc:
        raise MemError(f"{path} {exc.reason}; mem leaves it untouched") from None


def read_json(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    if not path.exists():
        return None, {}
    original = read_settings(path)
    try:
        data = json.loads(original.decode("utf-8")) if original.strip() else {}
    except (ValueError, UnicodeDecodeError) as exc:
        raise MemError(f"{path} is not valid JSON ({exc}); mem leaves it untouched") from None
    if not isinstance(data, dict):
        raise MemError(f"{path} does not hold a JSON object; mem leaves it untouched")
    return original, data


def serialise_json(data: dict[str, Any], like: bytes | None) -> bytes:
    """JSON indented like the file it replaces (two spaces by default), same final newline."""
    text = like.decode("utf-8") if like else ""
    found = re.search(r"\n([ \t]+)\S", text)
    indent = found.group(1) if found else "  "
    newline = "\n" if not text or text.endswith("\n") else ""
    return (json.dumps(data, indent=indent, ensure_ascii=False) + newline).encode("utf-8")


def write_json(
    path: Path, original: bytes | None, data: dict[str, Any], *, dry_run: bool, keep_backup: bool
) -> SettingsChange:
    if original is None and not data:
        return SettingsChange(path, "", False)
    new = serialise_json(data, original)
    backup = path.with_name(path.name + BACKUP_SUFFIX) if keep_backup and original else None
    return write_bytes(path, original, new, dry_run=dry_run, backup=backup)


def write_bytes(
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
