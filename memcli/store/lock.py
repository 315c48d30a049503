"""The store's write lock.

An OS advisory lock (``flock``) on a file in the store's cache: the kernel
releases it when the holder dies, even by ``kill -9``, so a crashed mem never
leaves a lock that blocks the next one. Waiters poll until a timeout.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memcli.core.errors import LockTimeout, StoreError

DEFAULT_TIMEOUT_SECONDS = 30.0
_POLL_SECONDS = 0.02


def lock_timeout() -> float:
    """``MEM_LOCK_TIMEOUT`` in seconds, else the default."""
    try:
        return max(0.0, float(os.environ.get("MEM_LOCK_TIMEOUT", DEFAULT_TIMEOUT_SECONDS)))
    except ValueError:
        return DEFAULT_TIMEOUT_SECONDS


@contextmanager
def exclusive_lock(
    path: Path, timeout: float | None = None, *, fallback: Path | None = None
) -> Iterator[None]:
    """Hold the lock on ``path``; on ``fallback`` when ``path`` cannot be opened at all."""
    wait = lock_timeout() if timeout is None else timeout
    try:
        fd = _open(path)
    except OSError as exc:
        try:
            if fallback is None:
                raise
            fd = _open(fallback)
        except OSError:
            raise StoreError(
                f"cannot open the store's write lock {path} ({exc.strerror}); "
                f"make {path.parent} a writable folder"
            ) from None
    try:
        deadline = time.monotonic() + wait
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise LockTimeout(
                    f"another mem process has been writing to the store for over {wait:g} s; "
                    "try again (MEM_LOCK_TIMEOUT sets the wait)"
                )
            time.sleep(_POLL_SECONDS)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


def is_held(path: Path) -> bool:
    """Whether a writer holds the lock on ``path`` now (a missing file: no one does).

    Asked without waiting and without creating anything: the file is opened for
    reading, a shared lock tried and let go at once.
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        if not _try_lock(fd, shared=True):
            return True
        _unlock(fd)
        return False
    finally:
        os.close(fd)


def _open(path: Path) -> int:
    """The lock file, created if need be; an existing one even in a read-only folder."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        if not path.is_file():
            raise
        return os.open(path, os.O_RDONLY)  # flock needs no write access


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int, *, shared: bool = False) -> bool:
        # msvcrt has no shared lock: a moment's exclusive one stands for it
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


else:
    import fcntl

    def _try_lock(fd: int, *, shared: bool = False) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
