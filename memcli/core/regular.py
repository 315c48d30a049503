"""Files that come from outside mem: read as regular files only, written without replacing.

A path named by a user, found in a folder or read from an agent's settings may
be a FIFO (opening it for reading blocks until a writer comes, reading it blocks
again), a device (``/dev/zero`` never ends) or a link to either. ``open_regular``
opens without blocking (``O_NONBLOCK``), then asks the open file what it is
(``fstat``): there is no moment between the check and the read for the file to
be swapped. Anything but a regular file is refused with ``NotRegularFile``, an
``OSError``, so a caller's ``except OSError`` already covers it.

``write_through`` writes a path a user named (``mem export -o``) the way a
shell's ``>`` would: through a link, into a FIFO or device, keeping a file's mode.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from io import BufferedReader
from pathlib import Path

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class NotRegularFile(OSError):
    """A path that is a folder, FIFO, socket or device where a regular file is needed.

    Its ``reason`` (also its ``strerror``) says what the path is: "is a FIFO, not a
    regular file".
    """

    def __init__(self, path: str | os.PathLike[str], mode: int) -> None:
        self.reason = f"{describe(mode)}, not a regular file"
        super().__init__(errno.EINVAL, self.reason, str(path))
        self.mode = mode


def describe(mode: int) -> str:
    """What a file of ``mode`` is, in a few words ("is a FIFO")."""
    kinds = (
        (stat.S_ISDIR, "is a folder"),
        (stat.S_ISFIFO, "is a FIFO"),
        (stat.S_ISCHR, "is a character device"),
        (stat.S_ISBLK, "is a block device"),
        (stat.S_ISSOCK, "is a socket"),
        (stat.S_ISLNK, "is a symbolic link"),
    )
    return next((words for test, words in kinds if test(mode)), "is not a regular file")


def open_regular(path: str | os.PathLike[str], *, follow_links: bool = True) -> BufferedReader:
    """``path`` opened for binary reading if it is a regular file; else ``NotRegularFile``.

    Never blocks on a FIFO. With ``follow_links=False`` a symbolic link fails to
    open (``ELOOP``, an ``OSError``).
    """
    flags = os.O_RDONLY | _NONBLOCK | (0 if follow_links else _NOFOLLOW)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, mode)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def require_regular(path: str | os.PathLike[str]) -> None:
    """Refuse ``path`` unless it is missing or a regular file (links followed).

    For files another library opens by name (an SQLite database): checked just
    before that library opens it.
    """
    try:
        mode = Path(path).stat().st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, mode)


def write_through(path: str | os.PathLike[str], chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` to ``path`` as a user naming it means, never replacing what is there.

    A symbolic link is followed: its target is written and the link stays. A FIFO
    or a device is opened and written in place (nothing could be renamed over
    it without destroying it). A regular file, or nothing yet, gets a temporary
    file beside it, synced, then renamed over it: a reader never sees half an
    output; an existing file keeps its mode (and owner, where allowed).
    """
    target = Path(os.path.realpath(path))
    try:
        existing: os.stat_result | None = target.stat()
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        if stat.S_ISDIR(existing.st_mode):
            raise NotRegularFile(path, existing.st_mode)
        with open(target, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
        return
    _replace_atomically(target, chunks, existing)


def _replace_atomically(
    target: Path, chunks: Iterable[bytes], existing: os.stat_result | None
) -> None:
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            if existing is not None:
                _keep_owner_and_mode(handle.fileno(), existing)
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _keep_owner_and_mode(fd: int, existing: os.stat_result) -> None:
    try:
        os.fchown(fd, existing.st_uid, existing.st_gid)
    except OSError:
        pass  # not allowed (not root): the writer owns the new file
    os.fchmod(fd, stat.S_IMODE(existing.st_mode))
