"""What ``mem status`` reports of a store, found and read without writing anything.

Each layer is one store (today only the project's): where it is and how it was
found, its counts, its index against HEAD, its transcripts index, semantic search,
its git remote and uncommitted changes. Nothing is created, rebuilt or fixed:
git runs with ``--no-optional-locks`` and SQLite files are opened read-only
(:func:`memcli.index.readonly.open_read_only`).
"""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass, field
from typing import Any

from memcli.core.errors import InvalidMemoryFile, MemError
from memcli.store.files import MEMORY_DIRS, Store
from memcli.store.location import StoreLocation
from memcli.store.team import store_for

SOURCES = {".mem": ".mem/"}
"""How a location's source is shown, where it differs from ``StoreLocation.source``."""
_DATED = re.compile(r"(\d{4}-\d{2}-\d{2})-")


@dataclass
class IndexState:
    state: str
    """``current``, ``stale``, ``missing`` or ``unusable``."""
    path: str
    detail: str
    """One line: what the state means, and what to run when it is not current."""
    indexed_commit: str | None = None
    head: str | None = None


@dataclass
class LayerStatus:
    layer: str
    path: str
    source: str
    """How it was found: ``--store``, ``--project``, ``MEM_STORE``, ``.mem/``, ``central``."""
    exists: bool
    project: str | None = None
    memories: int = 0
    summaries: int = 0
    notes_sections: int = 0
    newest: str | None = None
    """When the newest memory or summary was created (ISO), or None."""
    newest_age: str | None = None
    """How long ago that was: ``now``, ``5min``, ``3h``, ``2d``, ``3w``, ``4mo``, ``2y``."""
    index: IndexState | None = None
    transcripts: dict[str, Any] | None = None
    semantic: str | None = None
    remotes: list[dict[str, str]] = field(default_factory=list)
    uncommitted: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def layer_status(location: StoreLocation, *, by_project: bool) -> LayerStatus:
    """The project layer at ``location`` (``by_project``: chosen with ``--project``)."""
    source = "--project" if by_project else SOURCES.get(location.source, location.source)
    store = store_for(location)
    status = LayerStatus(
        "project", str(location.root), source, store.exists(), project=location.project
    )
    if not status.exists:
        return status
    for part in (_counts, _index, _transcripts, _semantic, _git):
        try:
            part(store, status)
        except MemError as exc:
            status.problems.append(str(exc))
        except OSError as exc:
            status.problems.append(f"{exc.filename or store.root}: {exc.strerror}")
    status.problems = list(dict.fromkeys(status.problems))  # a .cache link is named once
    return status


def _counts(store: Store, status: LayerStatus) -> None:
    newest: list[str] = []
    newest_day = ""
    for path in store.memory_paths():
        if path.startswith(MEMORY_DIRS[1] + "/"):
            status.summaries += 1
        else:
            status.memories += 1
        dated = _DATED.match(path.rsplit("/", 1)[-1])
        if dated and dated.group(1) > newest_day:
            newest_day, newest = dated.group(1), [path]
        elif dated and dated.group(1) == newest_day:
            newest.append(path)
    day = f"{newest_day}T00:00:00Z" if newest_day else None  # a file no longer parses
    status.newest = _newest_created(store, newest) or day
    status.newest_age = _age(status.newest)
    status.notes_sections = _notes_sections(store)


def _age(created: str | None) -> str | None:
    from memcli.core.timeutil import age

    try:
        return age(created) if created else None
    except (MemError, ValueError, OverflowError):
        return None


def _newest_created(store: Store, paths: list[str]) -> str | None:
    """The latest ``created`` among the files of the newest day (named by mem so)."""
    created = []
    for path in paths:
        try:
            created.append(store.parse(path, store.read_bytes(path)).created)
        except (InvalidMemoryFile, MemError, OSError):
            continue
    return max(created, default=None)


def _notes_sections(store: Store) -> int:
    from memcli.core.chunks import chunk_markdown

    sections = 0
    for path in store.note_paths():
        try:
            data = store.read_note(path)
        except (MemError, OSError):
            continue
        sections += len(chunk_markdown(data.decode("utf-8", "replace"), path))
    return sections


def _index(store: Store, status: LayerStatus) -> None:
    from memcli.index.db import indexed_commit_of

    path = store.index_path
    head = store.head()
    state = IndexState("current", str(path), "up to date with HEAD", head=head)
    status.index = state
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        state.state = "missing"
        state.detail = "not built yet: the next read builds it (or run `mem reindex`)"
        return
    if not stat.S_ISREG(mode):  # a folder, a FIFO: never opened (SQLite would wait on a FIFO)
        state.state = "unusable"
        state.detail = "not a regular file: remove it, and the next read builds the index again"
        return
    indexed = indexed_commit_of(path)
    state.indexed_commit = indexed
    if indexed is None:
        state.state = "unusable"
        state.detail = (
            "cannot be read, or of another version: the next read rebuilds it "
            "(or run `mem reindex --full`)"
        )
    elif indexed != (head or ""):
        state.state = "stale"
        state.detail = (
            f"behind HEAD{_behind(store, indexed, head)}: the next read brings it "
            "up to date (or run `mem reindex`)"
        )


def _behind(store: Store, indexed: str, head: str | None) -> str:
    """`` (N files changed)`` between the indexed commit and HEAD, when git can tell."""
    if not indexed or not head:
        return ""
    try:
        changed = len(store.changes(indexed, head, notes=True))
    except MemError:
        return ""
    return f" ({changed} file{'' if changed == 1 else 's'} changed)"


def _transcripts(store: Store, status: LayerStatus) -> None:
    from memcli.service.transcripts import status as transcripts_status
    from memcli.service.transcripts import transcripts_path

    path = transcripts_path(store)
    if not path.exists():
        return
    found = transcripts_status(path)
    status.transcripts = {
        "path": found["path"],
        "sessions": found["sessions"],
        "messages": found["messages"],
        "last_sync": found["last_sync"],
    }


def _semantic(store: Store, status: LayerStatus) -> None:
    """The line ``mem doctor`` prints: the model in use, or why search is lexical only."""
    from memcli.core import config
    from memcli.semantic import semantic_status

    status.semantic = semantic_status(store.root, config.load(store.root)).reason


def _git(store: Store, status: LayerStatus) -> None:
    from memcli.store.remote import list_remotes

    status.remotes = [{"name": name, "url": url} for name, url in list_remotes(store)]
    status.uncommitted = store.unrecorded_paths()
