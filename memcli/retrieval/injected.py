"""What each agent session was already given (by recall, or in full at session start),
so that no prompt repeats it; what session start showed in full is kept apart (``started``).

One small JSON file per session in the store's cache folder (derived data, like
the index): the ids given so far, oldest first. A compaction forgets them
(``forget``): what the agent was shown before it is gone from its context.
Bounded: at most ``MAX_IDS`` ids and ``MAX_FILE_BYTES`` a session (the oldest go
first), and the least recently
written session files are removed past ``MAX_SESSIONS``. The folder must be a
real folder of the store: a link in its place is never followed (nothing is
remembered then, and nothing outside the store is read, written or removed).

A warm worker answers a hook on the caller's behalf, and the caller may have
given up waiting and answered itself: so inside ``deferred()`` the writes are
kept, in order, and made by ``apply`` once the caller has taken the answer.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from memcli.core.regular import open_regular
from memcli.store.files import Store

FOLDER = "recall-sessions"
MAX_IDS = 2000
MAX_SESSIONS = 200
MAX_FILE_BYTES = 256 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

Write = Callable[[], None]
_deferred: contextvars.ContextVar[list[Write] | None] = contextvars.ContextVar(
    "injected_deferred", default=None
)


@contextlib.contextmanager
def deferred() -> Iterator[list[Write]]:
    """Within it (this thread or task), ``note`` and ``forget`` are kept, not made:
    the list yielded holds them, in order, for ``apply``."""
    kept: list[Write] = []
    token = _deferred.set(kept)
    try:
        yield kept
    finally:
        _deferred.reset(token)


def apply(writes: list[Write]) -> None:
    """Make the writes ``deferred()`` kept, in the order they were asked for."""
    for write in writes:
        write()


def _kept(write: Write) -> bool:
    """True when the write is kept for later (inside ``deferred()``), False: make it now."""
    kept = _deferred.get()
    if kept is None:
        return False
    kept.append(write)
    return True


def _folder(store: Store) -> Path | None:
    """The sessions folder, if it is missing or a real folder; None for anything else
    (and for a store not made yet: a record never makes a half store)."""
    if not store.exists():
        return None
    path = store.cache_dir / FOLDER
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return path
    except OSError:
        return None
    return path if stat.S_ISDIR(mode) else None


def _path(folder: Path, session: str) -> Path:
    name = hashlib.sha256(session.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return folder / f"{name}.json"


def _record(store: Store, session: str) -> dict[str, object]:
    """The session's record as stored (empty when missing or unreadable)."""
    folder = _folder(store)
    if folder is None:
        return {}
    try:
        with open_regular(_path(folder, session), follow_links=False) as handle:
            data = json.loads(handle.read(MAX_FILE_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _strings(value: object) -> list[str]:
    return [i for i in value if isinstance(i, str)] if isinstance(value, list) else []


def state(store: Store, session: str) -> tuple[list[str], list[str] | None]:
    """From one read of the session's record: the ids recall gave it so far, oldest first
    (none when unreadable), and what its start showed in full as it noted it (None: it
    noted nothing)."""
    record = _record(store, session)
    started = _strings(record["context"]) if "context" in record else None
    return _strings(record.get("ids")), started


def note(store: Store, session: str, ids: list[str], *, context: bool = False) -> None:
    """Add ``ids`` to what this session was given; a cache that cannot be written is skipped.

    ``context``: they are what session start showed in full (``started``).
    """
    if _kept(lambda: note(store, session, list(ids), context=context)):
        return
    folder = _folder(store)
    if folder is None:
        return
    record = _record(store, session)
    kept = list(dict.fromkeys([*_strings(record.get("ids")), *ids]))[-MAX_IDS:]
    shown = ids[:MAX_IDS] if context else _strings(record.get("context"))[:MAX_IDS]
    start = {"context": shown} if context or "context" in record else {}
    encoded = json.dumps({"ids": kept, **start}).encode("utf-8")
    while len(encoded) > MAX_FILE_BYTES and kept:
        kept = kept[len(kept) // 4 + 1 :]  # the oldest quarter goes
        encoded = json.dumps({"ids": kept, **start}).encode("utf-8")
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        path = _path(folder, session)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(encoded)
        os.replace(temporary, path)
        _prune(folder)


def forget(store: Store, session: str, *, restarted: bool = True) -> None:
    """Forget what this session was given: after a compaction the agent no longer has it.

    ``restarted``: the agent runs session start again after a compaction (Claude Code,
    Codex), which notes what it shows anew. Otherwise (Gemini CLI) nothing of the first
    session start is left in the agent's context either: noted as an empty start, so
    recall does not fall back to withholding what a session start would show.
    """
    if _kept(lambda: forget(store, session, restarted=restarted)):
        return
    folder = _folder(store)
    if folder is None:
        return
    with contextlib.suppress(OSError):
        os.unlink(_path(folder, session))
    if not restarted:
        note(store, session, [], context=True)


def _prune(folder: Path) -> None:
    """Remove the least recently written session files beyond ``MAX_SESSIONS``."""
    if not stat.S_ISDIR(folder.lstat().st_mode):
        return
    files = []
    for entry in os.scandir(folder):
        if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False):
            files.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
    if len(files) <= MAX_SESSIONS:
        return
    files.sort()
    for _, stale in files[: len(files) - MAX_SESSIONS]:
        with contextlib.suppress(OSError):
            os.unlink(stale)
