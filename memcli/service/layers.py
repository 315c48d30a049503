"""Every layer of a project's memory: a ``Memory`` per layer, reads merged, writes routed.

``Layers`` finds the stores of the three layers (``memcli.store.layers``) for the
project a command runs in: the user's own, the project's, the team's folder in
the project's repository. Each is a plain ``Memory`` (one store, one index),
opened only when used. ``reader()`` gives a ``LayeredMemory``: the project's
memory whose reads cover every layer present, through one ``LayeredIndex``, so
that search, list, timeline, context and recall rank the layers' memories with
one ranking. Writes never go through the reader: a command asks for the layer's
own ``Memory`` (``memory(layer)``), whose key checks and resolving stay in that
layer.

Every adapter (the commands, hooks, MCP, HTTP, the Python API) opens its memory
here, so they cannot disagree about which layers exist.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from memcli.core.errors import IndexCorrupt, InvalidInput, MemError, NoLayer
from memcli.core.schema import KEY_ORDER, LAYERS
from memcli.index import Progress
from memcli.service.memory import Memory, Notify
from memcli.store.layers import find_team_folder, user_store_root
from memcli.store.location import StoreLocation

if TYPE_CHECKING:
    from memcli.core.draft import Draft
    from memcli.core.model import Record
    from memcli.index import Entry, Index
    from memcli.index.layered import LayeredIndex
    from memcli.service.writer import Writer

R = TypeVar("R")


def layer_of(location: StoreLocation) -> str:
    """The layer a store location is of (a store named directly is the project's)."""
    if location.source in ("user", "team"):
        return location.source
    return "project"


def check_layer(name: str | None) -> str | None:
    if name is not None and name not in LAYERS:
        raise InvalidInput(f"unknown layer {name!r}: use {', '.join(LAYERS)}")
    return name


class Layers:
    """The layers of the project ``location`` is the store of, found from ``cwd``."""

    def __init__(
        self,
        location: StoreLocation,
        cwd: Path,
        notify: Notify,
        progress: Progress | None = None,
    ) -> None:
        self.notify = notify
        self.progress = progress
        self.cwd = cwd
        self.model_downloads = "named"
        """Given to each layer's memory (``Memory.model_downloads``)."""
        own = layer_of(location)
        self.locations: dict[str, StoreLocation] = {own: location}
        user = user_store_root()
        if "user" not in self.locations and not _same(user, location.root):
            self.locations["user"] = StoreLocation(user, "user")
        team = find_team_folder(cwd) if _of_this_project(location, cwd) else None
        if "team" not in self.locations and team is not None and not _same(team, location.root):
            self.locations["team"] = StoreLocation(team, "team", location.project)
        self._memories: dict[str, Memory] = {}
        # No reference to a reader here: a reader holds its Layers, and a Memory in a
        # reference cycle keeps its index connection (and SQLite's locks) open until
        # the garbage collector happens to run.

    @property
    def home(self) -> str:
        """The layer of the store the command found (the project's, unless named directly)."""
        return next(iter(self.locations))

    def memory(self, layer: str | None = None) -> Memory:
        """The layer's own memory (its store and index alone); the home layer by default."""
        name = layer or self.home
        if name not in self.locations:
            raise NoLayer(_no_layer(name, self.cwd))
        if name not in self._memories:
            memory = _open(self.locations[name], self.notify, self.progress)
            memory.model_downloads = self.model_downloads
            self._memories[name] = memory
        return self._memories[name]

    def present(self) -> list[str]:
        """The layers whose store exists, in ``LAYERS`` order."""
        return [name for name in LAYERS if name in self.locations and self._exists(name)]

    def _exists(self, name: str) -> bool:
        """Whether the layer's store exists (asked before its memory is opened, if it is)."""
        if name in self._memories:
            return self._memories[name].store.exists()
        from memcli.store.team import store_for

        return store_for(self.locations[name]).exists()

    def reader(self, only: str | None = None, *, borrow: bool = False) -> LayeredMemory:
        """The home layer's memory reading every layer present (``only``: that layer).

        ``borrow``: when the home layer has no store yet, the first layer present
        lends its settings, templates and session records (session start and
        recall in a project with no memory yet still give the user's). Commands
        that act on the found store itself never borrow.
        """
        check_layer(only)
        if only is not None and only not in self.locations:
            raise NoLayer(_no_layer(only, self.cwd))
        return LayeredMemory(self, only, borrow=borrow)

    def close(self) -> None:
        for memory in self._memories.values():
            memory.close()


def _of_this_project(location: StoreLocation, cwd: Path) -> bool:
    """Whether the store found is the project ``cwd`` is in (``--project`` may name another,
    whose team folder is not this one)."""
    if location.source != "central" or location.project is None:
        return True
    from memcli.store.location import project_name

    return project_name(cwd) == location.project


def _same(a: Path, b: Path) -> bool:
    with contextlib.suppress(OSError):
        return a.resolve() == b.resolve()
    return a == b


def _no_layer(name: str, cwd: Path) -> str:
    if name == "team":
        return (
            f"{cwd} is not in a git work tree with a team folder; "
            "run `mem init --layer team` inside the project"
        )
    if name == "user":
        return (
            "there is no user layer yet: `mem init --layer user` or "
            "`mem save --layer user` creates it"
        )
    return f"there is no {name} layer here"


def _open(location: StoreLocation, notify: Notify, progress: Progress | None) -> Memory:
    return Memory(location, notify, progress)


class LayeredMemory(Memory):
    """The home layer's memory whose reads merge every layer present, with one ranking.

    Search, listings, context and recall read through ``read``, which hands the
    query a ``LayeredIndex`` over each present layer's index; ``load`` reads a
    memory's file from its own layer's store. Settings, templates, MEMORY.md and
    the per-session records are the home layer's. Writes go to a layer's own
    memory (``Layers.memory``), never through this one.
    """

    def __init__(self, layers: Layers, only: str | None, *, borrow: bool = False) -> None:
        home = only or layers.home
        location = layers.locations[home]
        if borrow and not only and not layers._exists(home):
            # A project without memory yet still reads the user's (and the team's): the
            # first layer present lends its settings, templates and session records.
            home = next(iter(layers.present()), home)
            location = layers.locations[home]._replace(project=location.project)
        super().__init__(location, layers.notify, layers.progress)
        self.layer = home
        self.layers = layers
        self.only = only
        self.model_downloads = layers.model_downloads

    def _reading(self) -> list[Memory]:
        """The memories read: each present layer (only the chosen one with ``only``)."""
        chosen = [self.only] if self.only else [n for n in LAYERS if n in self.layers.locations]
        found: list[Memory] = []
        for name in chosen:
            memory = self if name == self.layer else self.layers.memory(name)
            if memory.store.exists():
                found.append(memory)
        return found

    def _named_and_missing(self) -> bool:
        """The store was named directly (--store, MEM_STORE) and does not exist: reading the
        other layers instead would pass them off as that store's."""
        return self.location.source in ("--store", "MEM_STORE") and not self.store.exists()

    def _others(self) -> list[Memory]:
        """With ``only``: the other layers present (ids printed must be unique in them too)."""
        if not self.only:
            return []
        return [self.layers.memory(name) for name in self.layers.present() if name != self.only]

    def require_store(self) -> None:
        if self._named_and_missing():
            super().require_store()
        if not self._reading():
            if self.only and self.only != "project":
                raise NoLayer(_no_layer(self.only, self.layers.cwd))
            super().require_store()

    def _layered(self) -> tuple[list[Memory], LayeredIndex | None]:
        from memcli.index.layered import LayeredIndex

        memories = self._reading()
        if not memories or self._named_and_missing():
            self.require_store()
        if len(memories) == 1 and memories[0] is self:
            return memories, None
        return memories, LayeredIndex([_own_index(m, self) for m in memories])

    def read(self, query: Callable[[Index], R]) -> R:
        memories, layered = self._layered()
        if layered is None:
            others = self._others()
            if not others:
                return super().read(query)
            from memcli.index.layered import OneLayer

            def indexes() -> list[Index]:
                return [memory.index() for memory in others]

            return super().read(lambda index: query(OneLayer(index, indexes)))  # type: ignore[arg-type]
        try:
            return query(layered)  # type: ignore[arg-type]
        except IndexCorrupt as exc:
            self.notify(f"{exc}; rebuilding it from the memory files")
            for memory in memories:
                with contextlib.suppress(MemError):
                    memory.rebuild_index_file()
            _, layered = self._layered()
            return query(layered)  # type: ignore[arg-type]

    def resolve_each(self, ref: str) -> list[Entry]:
        from memcli.index.layered import LayeredIndex

        def each(index: Index) -> list[Entry]:
            if isinstance(index, LayeredIndex):
                return index.resolve_every(ref)
            return [index.resolve(ref)]

        return self.read(each)

    def layer_memory(self, layer: str) -> Memory:
        """The layer's own memory (for writes: key checks and resolving stay in it)."""
        return self.layers.memory(layer)

    def load(self, entry: Entry) -> Record:
        if entry.layer == self.layer:
            return super().load(entry)
        return self.layer_memory(entry.layer).load(entry)

    @property
    def writer(self) -> Writer:
        """The found store's writer (its own memory: key checks stay in that layer)."""
        return self.layers.memory().writer

    def ensure_store(self) -> None:
        self.layers.memory().ensure_store()

    def close(self) -> None:
        super().close()
        self.layers.close()

    def catch_up(self) -> None:
        for memory in self._reading():
            if memory is self:
                super().catch_up()
            else:
                memory.catch_up()

    def save_target(self, draft: Draft, layer: str | None) -> Memory:
        """The memory a save of ``draft`` goes to.

        ``layer`` when given; else the layer already holding the draft's key (the
        nearest first), so that saving a key updates it where it is, except the team's:
        its folder comes with the project's repository, and a key someone committed
        there must not draw a save into it (see ``team_key``); else the store named
        directly (``--store`` a team or user store); else ``[layers] <type>`` of the
        project's settings (the project by default).
        """
        name = check_layer(layer)
        if name is None and draft.key and self._reading() and not self._named_and_missing():
            name = self._key_holder(draft.key)
        if name is None and self.layers.home != "project":
            name = self.layers.home  # a user or team store named directly (--store)
        if name is None:
            from memcli.core import config
            from memcli.core.schema import DEFAULT_TYPE

            settings = config.load(self.store.root)
            name = str(settings["layers"].get(draft.type or DEFAULT_TYPE, self.layer))
        target = self.layers.memory(name)
        if name == "team" and self.layers.home != "team":
            target.require_store()  # a team folder is made on purpose: `mem init --layer team`
        return target  # the writer makes any other store, once the draft is found good

    def _key_holder(self, key: str) -> str | None:
        """The nearest layer holding ``key`` that a save may update without being told to:
        not the team's, unless its store is the one named (``--store .mem-team``)."""
        held = self.read(lambda index: index.with_key(key))
        asked = [e for e in held if e.layer != "team" or self.layers.home == "team"]
        return asked[0].layer if asked else None

    def team_key(self, key: str | None, target: Memory) -> Entry | None:
        """The team's memory holding ``key`` when a save of it goes to another layer (the
        answer says so: that save did not change the team's)."""
        if not key or target.layer == "team" or "team" not in self.layers.present():
            return None
        return self.layers.memory("team").entry_for_key(key)

    def shared_across_layers(self) -> tuple[list[str], list[str]]:
        """Ids (problems) and keys (warnings) in more than one layer, a line each (doctor).

        An id names one memory everywhere (a promotion cut short may leave one in
        two layers); a key in two layers is allowed, but the nearer one hides the
        other from every read by key, which a person should know.
        """
        seen_ids: dict[str, list[str]] = {}
        seen_keys: dict[str, list[str]] = {}
        for memory in self._reading():
            own = memory if memory is not self else None
            pairs = (own.read if own else super().read)(lambda index: index.ids_and_keys())
            for identity, key in pairs.items():
                seen_ids.setdefault(identity, []).append(memory.layer)
                if key:
                    seen_keys.setdefault(key, []).append(memory.layer)
        ids = [
            f"the id {identity} is in the {' and the '.join(layers)} layers; "
            "keep one (mem forget --layer LAYER ID removes the other)"
            for identity, layers in seen_ids.items()
            if len(layers) > 1
        ]
        keys = [
            f"the key {key!r} is in the {' and the '.join(layers)} layers; reads by key find "
            f"the {min(layers, key=KEY_ORDER.index)} one"
            for key, layers in seen_keys.items()
            if len(layers) > 1
        ]
        return ids, keys

    def owners(self, refs: list[str]) -> dict[str, list[str]]:
        """The ids of ``refs``, by the layer holding each (every ref must be found)."""
        found: dict[str, list[str]] = {}
        for ref, entry in zip(refs, self.resolve_all(refs), strict=True):
            found.setdefault(entry.layer, []).append(self.to_write(ref, entry).id)
        return found

    def to_write(self, ref: str, entry: Entry) -> Entry:
        """``entry``, which ``ref`` resolved to, checked for a write: a key the team holds
        and another layer holds too names no one memory (the team's, found first, is not
        necessarily the one meant, and its folder goes out with the project's next
        commit); ``Ambiguous``, naming ``--layer``."""
        from memcli.core.errors import Ambiguous

        if entry.layer != "team" or not entry.key or entry.key != ref.strip():
            return entry
        held = self.read(lambda index: index.with_key(entry.key or ""))
        layers = sorted({e.layer for e in held}, key=KEY_ORDER.index)
        if len(layers) > 1:
            raise Ambiguous(
                f"the key {entry.key!r} is in the {' and the '.join(layers)} layers: "
                f"say which with --layer ({' or '.join(layers)})"
            )
        return entry


def _own_index(memory: Memory, reader: LayeredMemory) -> Index:
    """A layer's index, open and current (it labels each entry with its layer)."""
    return Memory.index(memory) if memory is reader else memory.index()
