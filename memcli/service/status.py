"""What ``mem status`` reports of each layer's store, found and read without writing anything.

Each layer (the project's, the team's folder, the user's own: ``memcli.service.layers``)
is one store: where it is and how it was found, its counts, its index against
HEAD (a team folder's index is in the user's cache, against the folder's staged
state), its transcripts index, semantic search, its git remote and uncommitted
changes. Nothing is created, rebuilt or fixed: git runs with
``--no-optional-locks``, SQLite files are opened read-only
(:func:`memcli.index.readonly.open_read_only`) and a team folder's cached
fingerprint is not written.
"""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memcli.core.errors import InvalidMemoryFile, MemError
from memcli.store.files import MEMORY_DIRS, Store
from memcli.store.location import StoreLocation
from memcli.store.team import TeamStore, store_for

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
    """How it was found: ``--store``, ``--project``, ``MEM_STORE``, ``.mem/``, ``central``;
    ``user`` or ``MEM_USER_STORE`` for the user's store, ``team`` for the team folder."""
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
    """One line: semantic search with its model, or why search is lexical only."""
    model: str | None = None
    """The semantic model in use ("bundled": the one inside mem), None when search is lexical."""
    remotes: list[dict[str, str]] = field(default_factory=list)
    uncommitted: list[str] = field(default_factory=list)
    staged: list[str] = field(default_factory=list)
    """The team folder's files staged and not committed yet: what awaits review."""
    problems: list[str] = field(default_factory=list)


@dataclass
class LayersStatus:
    layers: list[LayerStatus]
    """The home layer first (the project's), then the others nearest first (team, user)."""
    writes_to: str
    """The layer a plain ``mem save`` writes to (``Layers.home``)."""
    by_type: dict[str, str] = field(default_factory=dict)
    """``[layers]`` of the project's mem.toml: the types whose saves go to another layer."""
    settings: list[str] = field(default_factory=list)
    """Settings not taken, and folders passed over, one line each (``settings_report``)."""


def layers_status(location: StoreLocation, cwd: Path, *, by_project: bool) -> LayersStatus:
    """Every layer found for ``cwd`` with the store at ``location`` as the home layer."""
    from memcli.core.schema import KEY_ORDER
    from memcli.service.layers import Layers

    layers = Layers(location, cwd, notify=lambda _message: None)
    home = layers.home
    names = [home, *(name for name in KEY_ORDER if name != home and name in layers.locations)]
    found = [
        layer_status(layers.locations[name], layer=name, by_project=by_project and name == home)
        for name in names
    ]
    from memcli.service.settings_report import settings_report

    report = settings_report([Path(layer.path) for layer in found if layer.exists], cwd)
    by_type = _by_type(found[0]) if home == "project" else {}
    return LayersStatus(found, home, by_type, [*report.problems, *report.ignored])


def _by_type(project: LayerStatus) -> dict[str, str]:
    """The types ``[layers]`` sends to another layer than the project (none if unreadable)."""
    if not project.exists:
        return {}
    from memcli.core import config

    chosen = config.load(Path(project.path))["layers"]
    return {kind: str(layer) for kind, layer in chosen.items() if layer != "project"}


def layer_status(
    location: StoreLocation, *, layer: str = "project", by_project: bool
) -> LayerStatus:
    """The layer ``layer`` at ``location`` (``by_project``: chosen with ``--project``)."""
    source = "--project" if by_project else _source(location)
    store = store_for(location)
    status = LayerStatus(
        layer, str(location.root), source, store.exists(), project=location.project
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


def _source(location: StoreLocation) -> str:
    if location.source == "user":
        import os

        return "MEM_USER_STORE" if os.environ.get("MEM_USER_STORE") else "user"
    return SOURCES.get(location.source, location.source)


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
    head = store.head(remember=False) if isinstance(store, TeamStore) else store.head()
    against = "the folder's staged state" if isinstance(store, TeamStore) else "HEAD"
    state = IndexState("current", str(path), f"up to date with {against}", head=head)
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
            f"behind {against}{_behind(store, indexed, head)}: the next read brings it "
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

    found = semantic_status(store.root, config.load(store.root))
    status.semantic = found.reason
    status.model = found.model if found.enabled else None


def _git(store: Store, status: LayerStatus) -> None:
    from memcli.store.remote import list_remotes

    status.remotes = [{"name": name, "url": url} for name, url in list_remotes(store)]
    status.uncommitted = store.unrecorded_paths()
    if isinstance(store, TeamStore):
        status.staged = store.staged_paths()
