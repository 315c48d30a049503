"""Agents' settings files: read, merge, show the diff, back up, write, and restore exactly.

Every installer (Claude Code, Codex, Gemini CLI) changes someone else's file, so
the same care applies to all: the file keeps its indentation and final newline,
a backup of the previous bytes is kept beside it, the write is atomic and keeps
the file's mode, a file that is a symbolic link (dotfile managers) is written
through (the file it points to changes, the link stays), and an uninstall that
leaves nothing of mem behind restores the original bytes.

Settings files hold secrets (API keys, an OAuth account): every file mem writes
beside one, the backup and the temporary file renamed over it, is created with
the original's mode, so no copy is ever readable by more people than the file.
The backup goes when the uninstall takes mem's part out; one the uninstall
cannot use is named in its report.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import re
import shlex
import shutil
import stat
import sys
from pathlib import Path
from typing import Any, NamedTuple

from memcli.core.errors import InvalidInput, MemError
from memcli.core.own_command import own_command

BACKUP_SUFFIX = ".mem-backup"


class SettingsChange(NamedTuple):
    path: Path
    diff: str
    changed: bool
    backup_left: Path | None = None
    """A backup of mem's that this uninstall left where it is (nothing of mem's to take out)."""


def mem_command(*, shared: bool = False) -> str:
    """``mem_argv`` as one shell command line."""
    return " ".join(shlex.quote(word) for word in mem_argv(shared=shared))


def mem_argv(*, shared: bool = False) -> list[str]:
    """How an agent starts this mem: ``mem`` when the ``mem`` on PATH is this installation,
    else the full path of this installation's entry point.

    Another ``mem`` first on PATH (an older one, one without the MCP extra) would
    otherwise answer the hooks and serve MCP in this one's place. ``shared``: for a
    file the project commits, which names no path of this machine: ``mem`` always
    (``other_mem_on_path`` says when that is not this one).
    """
    if shared:
        return ["mem"]
    on_path = shutil.which("mem")
    own = _own_entry_point()
    if on_path and (own is None or _same_file(on_path, own)):
        return ["mem"]
    if own is not None:
        return [str(own)]
    return own_command()


def other_mem_on_path(agent: str) -> str | None:
    """What goes wrong when the project's plain ``mem`` is not this installation here,
    and what to do about it, in one line (None: it is this one)."""
    if mem_argv() == ["mem"]:
        return None
    found = shutil.which("mem")
    if found:
        where = f"the first `mem` on PATH is {found}, which answers them in this one's place"
    else:
        where = "no `mem` is on PATH, so they cannot run"
    own = _own_entry_point()
    put = f"add {own.parent} to PATH" if own else "put this mem's `mem` command on PATH"
    scope = "local" if agent == "claude" else "user"
    return (
        f"the project's {agent} settings run plain `mem` and {where}: {put} where the agent"
        f" is started, or run `mem uninstall {agent}` then `mem install {agent} --scope"
        f" {scope}`, which names this mem"
    )


def _own_entry_point() -> Path | None:
    """This installation's ``mem`` script: beside its Python, or the one running."""
    beside = Path(sys.executable).parent / "mem"
    if beside.exists():
        return beside
    running = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if running is not None and running.name == "mem" and running.is_file():
        return running.absolute()
    return None


def _same_file(first: str | Path, second: str | Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def server_env() -> dict[str, str]:
    """Where mem's data is, for the ``env`` of the ``mem mcp`` an agent starts.

    Agents may start MCP servers with a stripped environment (Codex passes a few
    variables only): without these, the server would look for the store, and create
    one on a save, somewhere the user's other mem commands never look.
    """
    from memcli.store.location import mem_home

    return {"MEM_HOME": str(mem_home().absolute()), **machine_env()}


MACHINE_VARIABLES = ("MEM_HOME", "MEM_STORE")


def machine_env() -> dict[str, str]:
    """The folders of this machine that mem was told of (``MEM_HOME``, ``MEM_STORE``).

    Never in a file the project commits: they go to the agent's own local settings.
    Without them mem uses its default, which each machine finds by itself.
    """
    env = {}
    for name in MACHINE_VARIABLES:
        value = os.environ.get(name)
        if value:
            env[name] = str(Path(value).expanduser().absolute())
    return env


def merged_entry(current: Any, entry: dict[str, Any]) -> dict[str, Any]:
    """mem's server ``entry`` over the one registered: other keys and ``env`` variables stay."""
    if not isinstance(current, dict):
        return entry
    merged = {**current, **entry}
    if isinstance(current.get("env"), dict) and "env" in entry:
        merged["env"] = {**current["env"], **entry["env"]}
    return merged


def shared_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """mem's server ``entry`` for a file the project commits: the variables naming this
    machine's folders (an older install wrote them there) taken out of its ``env``."""
    env = entry.get("env")
    if not isinstance(env, dict):
        return entry
    kept = {k: v for k, v in env.items() if k not in MACHINE_VARIABLES}
    return {k: v for k, v in entry.items() if k != "env"} | ({"env": kept} if kept else {})


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

    Nothing of mem's taken out: the file is left as it is (a backup of mem's is reported).
    Nothing left and no backup: mem's install created the file, so it goes.
    Nothing else changed since the install: the backup's exact bytes come back.
    Otherwise the remaining JSON is written, indented like the file. The backup goes.
    """
    backup = backup_path(path)
    if _parsed(original) == data:  # nothing of mem's was there: not even reformatted
        return SettingsChange(path, "", False, backup if backup.exists() else None)
    if not data and not backup.exists():
        # mem's install created this file: nothing of anyone else's is in it.
        return remove_file(path, original, dry_run=dry_run)
    restored = read_regular(backup)
    if restored is not None and _parsed(restored) == data:
        # nothing else changed since install: the exact bytes
        return write_bytes(path, original, restored, dry_run=dry_run, remove_backup=backup)
    new = serialise_json(data, original)
    return write_bytes(path, original, new, dry_run=dry_run, remove_backup=backup)


AGENT_FOLDERS = frozenset({".claude", ".codex", ".gemini"})
"""The agents' own folders, which install may have made to hold a settings file."""


def remove_file(path: Path, original: bytes, *, dry_run: bool) -> SettingsChange:
    """The file mem's install created, deleted (its diff: every line goes); an agent's
    folder left empty by it goes too."""
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
        if path.parent.name in AGENT_FOLDERS:
            with contextlib.suppress(OSError):  # not empty: something else lives there
                path.parent.rmdir()
    return SettingsChange(path, diff, True)


def backup_path(path: Path) -> Path:
    """Where mem keeps the file as it was before its first install."""
    return path.with_name(path.name + BACKUP_SUFFIX)


def _parsed(original: bytes) -> Any:
    try:
        return _loads(original.decode("utf-8")) if original.strip() else {}
    except (ValueError, UnicodeDecodeError):
        return None


def _loads(text: str) -> Any:
    """JSON as an agent reads it; ValueError for what mem could not write back as it is.

    NaN, Infinity and numbers past a double's range: Python reads them, and would write
    ``Infinity`` or ``NaN``, which no JSON parser (nor the agent) reads, so the whole
    settings file would be lost to it. Nesting past Python's stack cannot be read at all.
    """
    from memcli.core.serialize import from_json

    try:
        return from_json(text)
    except InvalidInput as exc:
        raise ValueError(str(exc)) from None
    except RecursionError:
        raise ValueError("nested deeper than mem can read") from None


def read_regular(path: Path, max_bytes: int | None = None) -> bytes | None:
    """A settings file's bytes; None when there is none.

    Opened without waiting (a FIFO would block the read forever) and refused unless
    it is a regular file (of at most ``max_bytes``): mem never reads a folder, a FIFO
    or a device as settings.
    """
    from memcli.core.regular import NotRegularFile, open_regular

    try:
        handle = open_regular(path)
    except FileNotFoundError:
        return None
    except NotRegularFile:
        raise MemError(f"{path} is not a regular file; mem leaves it untouched") from None
    except OSError as exc:
        raise MemError(f"{path} cannot be read ({exc.strerror}); mem leaves it untouched") from None
    with handle:
        if max_bytes is not None and os.fstat(handle.fileno()).st_size > max_bytes:
            raise MemError(f"{path} is larger than {max_bytes >> 20} MB; mem leaves it untouched")
        return handle.read()


def read_json(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    original = read_regular(path)
    if original is None:
        return None, {}
    try:
        data = _loads(original.decode("utf-8")) if original.strip() else {}
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
    try:
        serialised = json.dumps(data, indent=indent, ensure_ascii=False)
    except RecursionError:
        raise MemError(
            "the settings are nested deeper than mem can write; mem leaves them untouched"
        ) from None
    return (serialised + newline).encode("utf-8")


def write_json(
    path: Path, original: bytes | None, data: dict[str, Any], *, dry_run: bool, keep_backup: bool
) -> SettingsChange:
    if original is None and not data:
        return SettingsChange(path, "", False)
    new = serialise_json(data, original)
    backup = backup_path(path) if keep_backup and original is not None else None
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
    mode = stat.S_IMODE(path.stat().st_mode) if original is not None else None
    if backup is not None and original is not None:
        replace_with(backup, original, mode)  # as private as the file it copies
    replace_with(path, new, mode)
    if remove_backup is not None:
        remove_backup.unlink(missing_ok=True)
    return SettingsChange(path, diff, changed)


def replace_with(path: Path, data: bytes, mode: int | None) -> None:
    """``path`` holds ``data``, atomically: a temporary file beside it, renamed over it.

    The temporary file is created with ``mode`` (the file's own; None: a new file's
    default), so the bytes are never readable by anyone the file does not let read them.
    """
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temp.unlink(missing_ok=True)  # a crashed run's: never written through
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(temp, flags, 0o666 if mode is None else mode & 0o777)
    try:
        if mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, mode)  # the umask may have narrowed it: exactly the file's
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
