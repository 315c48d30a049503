"""Every project's memory read as one, when asked (``mem search --all-projects``).

``AllProjects`` is a ``Memory`` whose reads cover the layers of the project the
command runs in (read as every command reads them: brought up to date first)
and every other project's central store under ``MEM_HOME``, through one
``ProjectsIndex``: one ranking over all of them, bm25 on one scale
(``LayeredIndex``), each entry naming its project.

The other projects are only read: each index is opened read-only (no lock held, no
file created, nothing refreshed, rebuilt or embedded), and used only if it is
current, that is, it reflects its store's HEAD. A store that cannot be read so
is skipped with one line saying why and what to run: no git repository, a
write under way (its lock held), no index yet, an index behind its memories,
of another version of mem, or damaged.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import apsw

from memcli.core.errors import IndexCorrupt, IndexUnavailable, MemError, StoreError
from memcli.core.schema import KEY_ORDER
from memcli.index.layered import LayeredIndex, best_entries
from memcli.index.queries import NO_FILTERS, Filters, Ranking
from memcli.service.memory import Memory, Notify

if TYPE_CHECKING:
    from memcli.index import Entry, Index
    from memcli.service.layers import LayeredMemory
    from memcli.store.location import StoreLocation

R = TypeVar("R")
_FAILURES = (apsw.CorruptError, apsw.NotADBError, apsw.BusyError, apsw.IOError)
"""SQLite's errors that read another store's index (the semantic tables are read directly)."""
BUSY_MS = 200
"""How long a read waits on another project's index before that store counts as busy."""
FEW_MARGIN = 10
"""What a store is asked for beyond its share of a ranking's best (``ProjectsIndex``)."""


class Skip(Exception):
    """Why another project's store is not searched."""


class Failed(Exception):
    """Another project's index failed during a search (``AllProjects.searched`` finds whose)."""


def reference(entry: Entry, short_id: str) -> str:
    """The command that shows the memory from anywhere a search across projects printed it."""
    if entry.project is None or entry.layer == "user":
        return f"mem show {short_id}"
    return f"mem show {short_id} --project {entry.project}"


class ProjectsIndex(LayeredIndex):
    """The indexes of every project read as one (the home project's layers first).

    Ids are shown at one length unique among every store read, counted for the
    ids asked only (each one's neighbours in each index), so that nothing is
    written to any store.
    """

    def ranking(
        self,
        match: str,
        filters: Filters = NO_FILTERS,
        *,
        limit: int = 10,
        newest: int | None = None,
        needed: int | None = None,
    ) -> Ranking:
        """``LayeredIndex.ranking``, each store first asked for its share and a margin only:
        a store whose last answer would still be among the best is asked for ``limit``
        again. The same answer, without reading ``limit`` entries of every store."""
        few = min(limit, 2 * limit // max(len(self.layers), 1) + FEW_MARGIN)

        def ask(index: Index, count: int) -> Ranking:
            return index.ranking(match, filters, limit=count, newest=newest, needed=needed)

        found = [ask(index, few) for index in self.layers]
        scaled = self._on_one_scale([f.entries for f in found], match)
        best = best_entries(scaled, limit)
        bar = (best[-1].score or 0.0) if len(best) == limit else None
        again = [
            n
            for n, entries in enumerate(scaled)
            if few < limit
            and len(entries) == few
            and (bar is None or (entries[-1].score or 0.0) >= bar)
        ]
        if again:
            for n in again:
                found[n] = ask(self.layers[n], limit)
            best = best_entries(self._on_one_scale([f.entries for f in found], match), limit)
        return Ranking(best, any(f.newest_only for f in found))

    def _by_key_order(self) -> list[Index]:
        return sorted(self.layers, key=lambda index: KEY_ORDER.index(index.layer))

    def short_ids(self, ids: list[str]) -> dict[str, str]:
        from memcli.index.short_ids import length_among

        length = length_among(self.layers, ids)
        return {identity: identity[:length] for identity in ids}


class AllProjects(Memory):
    """The home project's memory (``home``: its layers, as found) and every other project's
    central store, read as one; ``notify`` tells of each store skipped, once."""

    def __init__(self, home: LayeredMemory) -> None:
        super().__init__(home.location, home.notify)
        self.home = home
        self._others: list[Index] | None = None

    def others(self) -> list[Index]:
        """Each other project's index, open read-only (the stores skipped said once)."""
        if self._others is None:
            from memcli.store.location import central_projects

            own = {_resolved(where.root) for where in self.home.layers.locations.values()}
            self._others = []
            for name, root in central_projects():
                if _resolved(root) in own:
                    continue
                try:
                    self._others.append(open_other(name, root))
                except Skip as exc:
                    self.notify(f"skipped project {name}: {exc}")
        return self._others

    def read(self, query: Callable[[Index], R]) -> R:
        others = self.others()
        if not self.home.layers.present():
            if not others:
                self.home.require_store()
            return self._merged(query, [], others)
        project = self.home.location.project or _central_name(self.home.location.root)
        return self.home.read(lambda index: self._merged(query, _labelled(index, project), others))

    def _merged(self, query: Callable[[Index], R], own: list[Index], others: list[Index]) -> R:
        """``query`` over the home layers and the others. A failure with others read is
        ``Failed`` (``searched`` finds whose); the home layers' alone are left to their own
        memory, which rebuilds a corrupt index as every read does."""
        try:
            return query(ProjectsIndex([*own, *others]))  # type: ignore[arg-type]
        except (IndexCorrupt, IndexUnavailable, *_FAILURES) as exc:
            if not others:
                raise
            raise Failed(str(exc)) from None

    def searched(self, run: Callable[[Notify], R]) -> R:
        """``run(notify)``: a whole search (its own ``Searcher``) over every store. When one
        fails mid-search (a page damaged that opening it did not read), the search is run
        again with each store alone beside the home layers (its notices kept back) to find
        which; those are skipped with a line each, and the search is run once more."""
        try:
            return run(self.notify)
        except Failed:
            pass
        everyone, failing = list(self.others()), []
        try:
            self._others = []
            if self.home.layers.present():
                run(_quiet)  # the home layers alone: a corrupt index of theirs is rebuilt
            for index in everyone:
                self._others = [index]
                try:
                    run(_quiet)
                except Failed:
                    failing.append(index)
        finally:
            self._others = [index for index in everyone if index not in failing]
        for index in failing:
            _close(index)
            reindex = f"run `mem reindex --project {index.project}`"
            self.notify(f"skipped project {index.project}: its index is damaged; {reindex}")
        try:
            return run(self.notify)
        except Failed as exc:
            raise IndexUnavailable(f"a project's index failed while searching ({exc})") from None

    def close(self) -> None:
        """Close the other projects' indexes (the home memory is its owner's to close)."""
        for index in self._others or []:
            _close(index)
        self._others = None


def open_other(name: str, root: Path) -> Index:
    """Another project's index, read-only and current; ``Skip`` says why it cannot be."""
    from memcli.index import Index
    from memcli.store.files import LOCK_FILE, Store
    from memcli.store.lock import is_held

    reindex = f"run `mem reindex --project {name}`"
    store = Store(root)
    if not store.exists():
        raise Skip("it is no memory store (not a git repository)")
    try:
        if is_held(store.cache_dir / LOCK_FILE):
            raise Skip("busy: a write to it is under way; search again in a moment")
        path = store.index_path
        head = store.head() or ""
    except StoreError as exc:
        raise Skip(str(exc)) from None
    if not path.is_file():
        raise Skip(f"it has no index yet; {reindex}")
    try:
        index = Index.reading(path, busy_ms=BUSY_MS)
    except IndexUnavailable as exc:
        raise Skip(f"{str(exc).removeprefix('cannot use the index: ')}; {reindex}") from None
    except IndexCorrupt:
        raise Skip(f"its index is damaged; {reindex}") from None
    index.project = name
    try:
        if index.indexed_commit() != head:
            raise Skip(f"its index is behind its memories; {reindex}")
        index.store_size()
    except Skip:
        _close(index)
        raise
    except (MemError, apsw.Error) as exc:
        _close(index)
        raise Skip(f"its index is damaged ({type(exc).__name__}); {reindex}") from None
    return index


def hit_dict(entry: Entry, short_id: str) -> dict[str, Any]:
    """A hit's entry shape, with its ``project`` and the ``show`` command for it."""
    return entry.to_json(short_id) | {"project": entry.project, "show": reference(entry, short_id)}


def hit_dicts(reader: Memory, entries: list[Entry]) -> list[dict[str, Any]]:
    """``hit_dict`` of each, their short ids unique among every store read."""
    short_ids = reader.read(lambda index: index.short_ids([e.id for e in entries]))
    return [hit_dict(entry, short_ids[entry.id]) for entry in entries]


def home_location(store: str | None, project: str | None, cwd: Path) -> StoreLocation:
    """The store a search across projects starts from: the one found from here, else (outside
    any project) the user's."""
    from memcli.store.layers import user_store_root
    from memcli.store.location import StoreLocation, locate

    try:
        return locate(store, project, cwd)
    except StoreError:
        return StoreLocation(user_store_root(), "user")


def _quiet(message: str) -> None:
    """The notices of a search run only to find a failing store: kept back."""


def _labelled(index: Index, project: str | None) -> list[Index]:
    """The home project's indexes (one, or a LayeredIndex's layers), each naming the project
    (the user's layer is no project's)."""
    layers = list(getattr(index, "layers", [index]))
    for layer in layers:
        layer.project = None if layer.layer == "user" else project
    return layers


def _central_name(root: Path) -> str | None:
    """The project a store named by its path (``--store``) is, when it is a central one."""
    from memcli.store.location import central_projects

    found = _resolved(root)
    return next((name for name, where in central_projects() if _resolved(where) == found), None)


def _resolved(path: Path) -> Path:
    with contextlib.suppress(OSError):
        return path.resolve()
    return path


def _close(index: Index) -> None:
    with contextlib.suppress(Exception):
        index.close()
