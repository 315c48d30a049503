"""Failures nobody would see otherwise: one line each in mem's cache folder.

A hook answers an agent that shows little or nothing of its stderr, and the work
hooks start in the background (the session-end capture, transcript syncs, a
reindex) has no terminal at all. Each of their failures is one line of
``failures.log`` in ``cache_dir()``: ``TIME<TAB>SOURCE<TAB>REASON`` (UTC time;
what failed, such as ``claude session end: summary capture``; why; both on one line,
likely secrets redacted). The file stays under ``MAX_BYTES``: past it, the
oldest lines go. ``mem doctor`` reports the recent ones.

Writing never raises: a log that cannot be written is no reason to fail twice.
Top-level imports stay light: ``mem``'s entry point imports this module.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False  # not typing's: hooks import this module, and typing is slow to import

if TYPE_CHECKING:
    from pathlib import Path

DETACHED_ENV = "MEM_DETACHED"
"""Set (to the source's name) in the environment of a ``mem`` process started in the
background: its failures are logged under that name (``adapters.cli.main``)."""
LOG_NAME = "failures.log"
MAX_BYTES = 64 * 1024
MAX_REASON_CHARS = 500
SCANNED_CHARS = 64 * 1024
"""Of a source or reason on one line, what the secret scanner reads (the log keeps less)."""
RECENT_DAYS = 7
FUTURE_DAYS = 1
"""A line dated further ahead than this is no recent failure (a hand edit, a clock far off)."""
_OPEN_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
"""Never through a link, never blocked on a FIFO: the log is a regular file or nothing."""


class Failure:
    """One logged failure: when (UTC), what failed, why."""

    __slots__ = ("reason", "source", "time")

    def __init__(self, time: str, source: str, reason: str) -> None:
        self.time, self.source, self.reason = time, source, reason


def cache_dir() -> Path:
    """mem's per-user cache folder: ``$XDG_CACHE_HOME/mem`` (``~/.cache/mem``), or the
    platform's own (``~/Library/Caches/mem``, ``%LOCALAPPDATA%\\mem\\Cache``)."""
    from pathlib import Path

    return Path(cache_folder())


def cache_folder() -> str:
    """``cache_dir()`` as a string, without importing pathlib (the pre-tool hook's)."""
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "mem")
    if os.name == "nt":
        local = os.environ.get("LOCALAPPDATA", os.path.join(home, "AppData", "Local"))
        return os.path.join(local, "mem", "Cache")
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"), "mem")


def log_path() -> Path:
    return cache_dir() / LOG_NAME


def record(source: str, reason: str) -> None:
    """Append one failure (never raises); the oldest lines go when the file is too big."""
    try:
        line = f"{_now()}\t{_one_line(source, 80)}\t{_one_line(reason)}\n"
        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _OPEN_FLAGS, 0o600)
        try:
            if not _regular(fd):
                return
            os.write(fd, line.encode("utf-8", "replace"))
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > MAX_BYTES:
            _trim(path)
    except Exception:  # noqa: BLE001 - a failure to log a failure is dropped
        pass


def recent(days: int = RECENT_DAYS) -> list[Failure]:
    """The failures logged in the last ``days`` days, oldest first (none if unreadable)."""
    now = _now_seconds()
    since, until = _time(now - days * 86400), _time(now + FUTURE_DAYS * 86400)
    found = []
    for line in _read(log_path()).splitlines():
        when, _, rest = line.partition("\t")
        source, _, reason = rest.partition("\t")
        if reason and since <= when <= until and _real_time(when):
            found.append(Failure(when, source, reason))
    return found


def _real_time(text: str) -> bool:
    """Whether ``text`` is a time in mem's form that exists (no 30 February, no hour 24)."""
    import datetime as dt

    from memcli.core.timeutil import CANONICAL_RE

    if not CANONICAL_RE.fullmatch(text):
        return False
    try:
        dt.datetime.fromisoformat(text[:19])
    except ValueError:
        return False
    return True


def _trim(path: Path) -> None:
    """Keep the newest lines, about half the limit (a whole line first)."""
    data = _read(path).encode("utf-8", "replace")
    kept = data[-(MAX_BYTES // 2) :]
    kept = kept[kept.find(b"\n") + 1 :] if b"\n" in kept[:-1] else kept
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _OPEN_FLAGS, 0o600)
    try:
        os.write(fd, kept)
    finally:
        os.close(fd)
    os.replace(temporary, path)


def _read(path: Path) -> str:
    """The log's text (a regular file only, at most twice the limit); "" when unreadable."""
    try:
        fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    except OSError:
        return ""
    try:
        if not _regular(fd):
            return ""
        size = os.fstat(fd).st_size
        if size > 2 * MAX_BYTES:
            os.lseek(fd, size - 2 * MAX_BYTES, os.SEEK_SET)
        data = os.read(fd, 2 * MAX_BYTES)
    except OSError:
        return ""
    finally:
        os.close(fd)
    return data.decode("utf-8", "replace")


def _regular(fd: int) -> bool:
    import stat

    return stat.S_ISREG(os.fstat(fd).st_mode)


def _one_line(text: str, limit: int = MAX_REASON_CHARS) -> str:
    """``text`` on one line of at most ``limit`` characters, likely secrets redacted first.

    Redacted before it is cut, and folded before the scanner's bound: a token cut in
    two is one the scanner no longer knows.
    """
    from memcli.core.secrets import redact

    text = redact(" ".join(text.split())[:SCANNED_CHARS]) or "(no reason given)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _now_seconds() -> float:
    """Now, as ``MEM_NOW`` pins it when set (tests, reproducible output)."""
    if os.environ.get("MEM_NOW"):
        from memcli.core.errors import MemError
        from memcli.core.timeutil import now

        try:
            return now().timestamp()
        except MemError:
            pass
    return time.time()


def _now() -> str:
    return _time(_now_seconds())


def _time(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))
