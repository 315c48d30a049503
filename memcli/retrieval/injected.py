"""What recall has already given each agent session, so no prompt repeats it.

One small JSON file per session in the store's cache folder (derived data, like
the index): the ids given so far. Bounded: at most ``MAX_IDS`` ids a session,
and the oldest session files are removed past ``MAX_SESSIONS``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from memcli.store.files import Store

FOLDER = "recall-sessions"
MAX_IDS = 2000
MAX_SESSIONS = 200
MAX_FILE_BYTES = 64 * 1024


def _path(store: Store, session: str) -> Path:
    name = hashlib.sha256(session.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return store.cache_dir / FOLDER / f"{name}.json"


def given(store: Store, session: str) -> frozenset[str]:
    """The ids recall gave this session so far (none when the file is missing or unreadable)."""
    path = _path(store, session)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            data = json.loads(handle.read(MAX_FILE_BYTES))
    except (OSError, ValueError):
        return frozenset()
    ids = data.get("ids") if isinstance(data, dict) else None
    if not isinstance(ids, list):
        return frozenset()
    return frozenset(i for i in ids if isinstance(i, str))


def note(store: Store, session: str, ids: list[str]) -> None:
    """Add ``ids`` to what this session was given; a cache that cannot be written is skipped."""
    path = _path(store, session)
    kept = [*sorted(given(store, session)), *ids][-MAX_IDS:]
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"ids": kept}), encoding="utf-8")
        os.replace(temporary, path)
        _prune(path.parent)


def _prune(folder: Path) -> None:
    """Remove the least recently written session files beyond ``MAX_SESSIONS``."""
    files = list(folder.glob("*.json"))
    if len(files) <= MAX_SESSIONS:
        return
    files.sort(key=lambda f: f.stat().st_mtime)
    for stale in files[: len(files) - MAX_SESSIONS]:
        with contextlib.suppress(OSError):
            stale.unlink()
