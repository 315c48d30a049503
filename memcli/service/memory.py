"""A project's memory: its store (the truth) and its index (derived), read together.

The data flow is one way: a write goes to a file, then a commit, then the index
(``memcli.service.writer``); a read first brings the index up to date with git,
then queries it. ``Memory`` answers reads; opening the store and the index and
keeping the index usable (a corrupt one is rebuilt, an unusable one replaced by
a temporary one) is ``IndexLifecycle``'s (``memcli.service.index_lifecycle``),
comparing it with the files ``index_check``'s. Nothing here prints: notices and
warnings go to the ``notify`` callback.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from memcli.core.errors import InvalidInput, InvalidMemoryFile, NotFound
from memcli.index import Entry, Progress
from memcli.service.index_lifecycle import IndexLifecycle
from memcli.service.index_lifecycle import Notify as Notify
from memcli.store.location import StoreLocation
from memcli.store.team import store_for

if TYPE_CHECKING:
    from memcli.core.model import Record
    from memcli.index import Index
    from memcli.service.index_check import Drift
    from memcli.service.writer import Writer


class Memory(IndexLifecycle):
    """One store and its index, for reading; ``writer`` holds the write transactions."""

    def __init__(
        self, location: StoreLocation, notify: Notify, progress: Progress | None = None
    ) -> None:
        self.location = location
        self.store = store_for(location)
        self.layer = location.source if location.source in ("user", "team") else "project"
        """The layer this store is of (``memcli.store.layers``): every entry read carries it."""
        self.notify = notify
        self.progress = progress
        self._index: Index | None = None
        self.index_problem: str | None = None
        """Why the index file could not serve this command (a temporary index did)."""
        self.index_deferred = False
        """Writes leave the index alone (a hook with no time to rebuild it); reads catch up."""
        self.embedding_progress: Progress | None = None
        """Called with (done, total) while memories are embedded for semantic search."""
        self.semantic_problem: str | None = None
        """Why the vectors could not be kept in step in this command (search is lexical)."""
        self.embed_limit: int | None = None
        """At most this many memories are embedded by a refresh (a hook's); None: all."""
        self.vectors_waiting = 0
        """Memories the last refresh left without a vector, over ``embed_limit``."""
        self.model: str | None = None
        """A semantic model the command was given itself (``mem eval --model``), over the
        settings' ``[semantic] model``."""
        self.model_downloads = "named"
        """Whether a read may download the hub model mem.toml names: "named" (yes) or
        "none" (a hook never waits for one)."""

    @property
    def writer(self) -> Writer:
        """The write transactions (save, summarize, edit, forget, restore, purge).

        A new, stateless writer each time: holding one here would make a reference
        cycle, and a Memory in a cycle keeps its index connection (and SQLite's
        locks) open until the garbage collector happens to run.
        """
        from memcli.service.writer import Writer

        return Writer(self)

    # --------------------------------------------------------------- reading

    def resolve(self, ref: str) -> Entry:
        """A memory by id, unique id prefix, or key."""
        return self.read(lambda index: index.resolve(ref))

    def resolve_each(self, ref: str) -> list[Entry]:
        """A memory by id, unique id prefix, or key: as each layer read holds it (one, unless
        two layers hold its id)."""
        return [self.resolve(ref)]

    def resolve_all(self, refs: Iterable[str], *, each_layer: bool = False) -> list[Entry]:
        """Memories by id, unique id prefix or key, in the order asked.

        ``NotFound`` names every reference that matches nothing (one alone keeps
        its own message, which says why). ``each_layer``: an id two layers hold
        gives both (a read); else it is ``Ambiguous`` (a write must name one).
        """
        entries: list[Entry] = []
        missing: list[tuple[str, NotFound]] = []
        for ref in refs:
            try:
                entries.extend(self.resolve_each(ref) if each_layer else [self.resolve(ref)])
            except NotFound as exc:
                missing.append((ref, exc))
        if len(missing) == 1:
            raise missing[0][1]
        if missing:
            names = ", ".join(repr(ref) for ref, _ in missing)
            raise NotFound(f"no memory has the id, id prefix or key {names}")
        return entries

    def entry_dicts(self, entries: list[Entry], *, anchor: str = "") -> list[dict[str, Any]]:
        """The entry shape of each, with its shortest unique id; ``anchor`` marks one."""
        short_ids = self.read(lambda index: index.short_ids([e.id for e in entries]))
        documents = [entry.to_json(short_ids[entry.id]) for entry in entries]
        if anchor:
            for document in documents:
                document["anchor"] = document["id"] == anchor
        return documents

    def load(self, entry: Entry) -> Record:
        observation, _ = self.store.load(entry.path)
        return observation

    def check_key_free(self, record: Record) -> None:
        """Refuse a key another memory already has: a key names one memory."""
        key = record.key
        if not key:
            return
        others = [e for e in self.read(lambda index: index.with_key(key)) if e.id != record.id]
        if others:
            raise InvalidInput(
                f"the key {key!r} is already used by {others[0].id} ({others[0].title}); "
                "a key names one memory: choose another"
            )

    def entry_for_key(self, key: str) -> Entry | None:
        from memcli.core.validate import check_key

        return self.read(lambda index: index.by_key(check_key(key)))

    def check(self) -> Drift:
        """Compare the index with the memory and notes files in the work tree."""
        from memcli.service.index_check import check

        return check(self)

    def load_or_stub(self, entry: Entry) -> Record:
        """The memory, or what the index knows of it when its file is invalid."""
        from memcli.core.model import Observation

        try:
            return self.load(entry)
        except InvalidMemoryFile:
            return Observation(
                id=entry.id, type=entry.type, title=entry.title, created=entry.created
            )
