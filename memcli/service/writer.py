"""Every write to a store, each a transaction that ends in one commit.

This is the transaction core; the operations are modules of ``service.writes``
(saving, editing, merging, forgetting, records), each over it. A transaction
takes the store's write lock (:meth:`Writer.transaction`), decides what to write
and remove (refusing likely secrets and dropping ``<private>`` spans first: see
``screening``), then goes through :meth:`Writer.commit_files`, the one path that
writes files, commits them, tells the index, and puts the files back if anything
fails before the commit exists.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec, TypeVar

from memcli.core import journal
from memcli.core.chunks import is_note_path
from memcli.core.crashpoints import crash_point
from memcli.core.errors import InvalidInput
from memcli.service.screening import screening_for
from memcli.store.drafts import is_draft_path
from memcli.store.files import MAX_MEMORY_FILE_BYTES, too_large

if TYPE_CHECKING:
    from memcli.core.draft import Draft
    from memcli.core.model import Observation, Record
    from memcli.core.secrets import Policy
    from memcli.index import Entry
    from memcli.service.duplicates import Similar
    from memcli.service.index_lifecycle import Known
    from memcli.service.memory import Memory
    from memcli.store.purge import Purged


class SaveResult(NamedTuple):
    record: Record
    path: str
    action: str
    """``saved`` (new), ``updated`` (same key, changed), ``unchanged``, ``edited``, ``restored``,
    ``duplicate`` (an exact duplicate of ``record``, which is stored already: nothing written)."""
    commit: str | None
    similar: tuple[Similar, ...] = ()
    """Near-duplicates of a memory just saved (it was saved all the same)."""


class ImportCommit(NamedTuple):
    commit: str | None
    """None when nothing was left to write."""
    written: list[Record]
    taken: list[Record]
    """Memories whose id (or file) another writer stored meanwhile: left as they are."""
    notes_written: bool = False
    """The curated MEMORY.md given was written in the same commit (the store had none)."""
    imported: tuple[Record, ...] = ()
    """Memories whose source row another import stored meanwhile: left out."""


P = ParamSpec("P")
R = TypeVar("R")


def by_layer_rules(method: Callable[P, R]) -> Callable[P, R]:
    """A write (its first argument the writer) taking ``secrets=``, run with the policy its
    store allows (``screening_for``: the team layer never takes a likely secret as it is)."""
    import functools

    @functools.wraps(method)
    def write(*args: P.args, **kwargs: P.kwargs) -> R:
        writer: Any = args[0]
        asked: Any = kwargs.get("secrets", "refuse")
        with screening_for(writer.store, asked) as policy:
            kwargs["secrets"] = policy
            return method(*args, **kwargs)

    return write


SYNC_ONCE_FILES = 100
"""A commit of this many files flushes them to disk once, not file by file."""
PACK_AFTER_FILES = 1000
"""A commit of this many new files packs git's loose objects at once (see import_records)."""


class Writer:
    """The write transactions of one :class:`~memcli.service.memory.Memory`."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.store = memory.store
        self.seen: Memory = memory
        """Where a save looks for its duplicates: this store, or a reader of every layer."""

    def save(
        self,
        draft: Draft,
        *,
        secrets: Policy = "refuse",
        removing: Sequence[str] = (),
        trailer: str = "",
    ) -> SaveResult:
        """Write one memory and commit it; a known ``key`` updates that memory instead."""
        from memcli.service.writes import saving

        return saving.save(self, draft, secrets=secrets, removing=removing, trailer=trailer)

    @by_layer_rules
    def summarize(
        self,
        sections: Mapping[str, object],
        *,
        title: str | None = None,
        session: str | None = None,
        text: str = "",
        extra: dict[str, str] | None = None,
        secrets: Policy = "refuse",
    ) -> SaveResult:
        """Record a session summary, its body rendered through ``compaction.md.j2``.

        Likely secrets and an empty summary are refused before the store is touched.
        """
        from memcli.service.summaries import SummaryInput
        from memcli.service.writes import saving

        given = SummaryInput(sections, title, session, text, secrets)
        return saving.summarize(self, given, extra or {})

    def replace_file(
        self,
        entry: Entry,
        text: str | Callable[[Record], str],
        *,
        base: bytes | None = None,
        secrets: Policy = "refuse",
    ) -> SaveResult:
        """Write an edited memory file after checking it, in one commit (``edit: …``)."""
        from memcli.service.writes import editing

        return editing.replace_file(self, entry, text, base=base, secrets=secrets)

    def merge(
        self,
        keeper: Entry,
        others: list[Entry],
        merge: Callable[[Observation, list[Observation]], tuple[Observation, str]],
    ) -> SaveResult:
        """Merge ``others`` into ``keeper`` in one commit (``merge: N memories``)."""
        from memcli.service.writes import merging

        return merging.merge(self, keeper, others, merge)

    def forget(self, refs: Iterable[str], *, verb: str = "forget") -> tuple[list[Entry], str]:
        """Remove memories from the work tree in one commit; history keeps them."""
        from memcli.service.writes import forgetting

        return forgetting.forget(self, refs, verb=verb)

    def restore(self, ref: str) -> SaveResult:
        """Bring a forgotten memory back from history, as it was last, in a new commit."""
        from memcli.service.writes import forgetting

        return forgetting.restore(self, ref)

    def purge(self, refs: Iterable[str]) -> tuple[list[Record], Purged]:
        """Remove memories from the store's whole history (``mem forget --purge``)."""
        from memcli.service.writes import forgetting

        return forgetting.purge(self, refs)

    def finish_purge(self) -> None:
        """Prune the old history a purge interrupted by a crash left behind."""
        from memcli.service.writes import forgetting

        forgetting.finish_purge(self)

    def adopt(self, record: Record) -> SaveResult:
        """Write a memory another layer held until now, its id kept, in one commit (promote)."""
        from memcli.service.writes import records

        return records.adopt(self, record)

    def import_records(
        self,
        rows: list[tuple[str, str, Record]],
        *,
        source: str,
        notes: str | None = None,
        imported: Callable[[Record], bool] | None = None,
    ) -> ImportCommit:
        """Write many new memory files (path, text, record) in ONE commit (``import: …``)."""
        from memcli.service.writes import records

        return records.import_records(self, rows, source=source, notes=notes, imported=imported)

    def commit_drafts(
        self, plan: Callable[[], tuple[dict[str, bytes], list[str], str] | None]
    ) -> str | None:
        """Write and remove lesson draft files (never memories) in one commit.

        ``plan`` decides under the write lock what to write, what to remove and the
        message (None: nothing to commit, and None is returned).
        """
        self.memory.ensure_store()
        with self.transaction():
            planned = plan()
            if planned is None:
                return None
            writes, removals, message = planned
            return self.commit_files(writes, removals, message)

    def commit_uncommitted(
        self, files: dict[str, bytes], removed: list[str], ids: list[str]
    ) -> str:
        """Commit memory files changed outside mem (``mem doctor --fix``), as checked."""
        with self.store.write_lock():
            message = journal.uncommitted_message(len(files) + len(removed), ids)
            return self.commit_files(files, removed, message)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """The write lock, on a store fit to commit to, with any write a crash left settled.

        A write killed half way (see ``store.pending``) is finished or undone
        first, so what follows sees the store as if it had run whole or not at all.
        """
        with self.store.write_lock():
            self.store.check_writable()
            outcome = self._recover()
            if outcome is not None:
                self.memory.notify(outcome)
            yield

    def settle(self) -> str | None:
        """Finish or undo a write a crash left half done (``mem doctor --fix``, an import
        before it reads the store); what was done, or None when nothing was waiting."""
        from memcli.store import pending

        if not self.store.exists() or not pending.exists(self.store):
            return None
        with self.store.write_lock():
            self.store.check_writable()
            return self._recover()

    def _recover(self) -> str | None:
        from memcli.store import pending

        outcome = pending.recover(self.store)
        if outcome is not None:
            self.memory.catch_up()
        return outcome

    def commit_files(
        self,
        writes: Mapping[str, str | bytes],
        removals: list[str],
        message: str,
        *,
        loaded: Mapping[str, tuple[Record, str]] | None = None,
        create_only: Collection[str] = (),
    ) -> str:
        """Write and delete files, commit them, and tell the index; undo the files on failure.

        Callers hold the write lock. ``loaded``: each written path's memory and
        digest when the caller has them (else every file is read back).
        ``create_only``: paths written only if nothing is there when their turn
        comes (a file someone made meanwhile stops the commit and stays as it is).
        Only what this call wrote or removed is undone.
        """
        from memcli.store import pending

        data = {
            path: content.encode("utf-8") if isinstance(content, str) else content
            for path, content in writes.items()
        }
        if any(len(content) > MAX_MEMORY_FILE_BYTES for content in data.values()):
            raise InvalidInput(f"the memory file {too_large()}")
        backups = {path: self._backup(path) for path in [*writes, *removals]}
        # Current with the parent, so that the commit applies without a diff.
        index = None if self.memory.index_deferred else self.memory.index()
        parent = self.store.head()
        pending.begin(self.store, parent, message, data, removals, backups)
        touched: list[str] = []
        try:
            crash_point("lock-held")
            many = len(writes) >= SYNC_ONCE_FILES
            for path, content in data.items():
                exclusive = path in create_only
                self.store.write_file(path, content, sync=not many, exclusive=exclusive)
                touched.append(path)
            for path in removals:
                touched.append(path)
                self.store.remove_file(path)
            if many:
                os.sync()  # one flush for all: an fsync each costs 0.2-4 ms a file
            crash_point("files-written")
            if any(map(is_draft_path, writes)):
                crash_point("drafts-written")
            commit = self.store.commit(list(writes), removals, message)
        except BaseException:
            for path in touched:
                old = backups[path]
                if old is None:
                    self.store.remove_file(path)
                else:
                    self.store.write_file(path, old)
            pending.end(self.store)
            raise
        pending.end(self.store)
        if index is not None:
            known: Known = {path: None for path in removals if not is_draft_path(path)}
            for path in writes:
                if is_draft_path(path):
                    continue  # a lesson draft: no memory, never indexed
                if is_note_path(path):
                    known[path] = None  # the index reads notes itself (from git's diff)
                else:
                    known[path] = loaded[path] if loaded is not None else self.store.load(path)
            self.memory.apply_commit(index, parent, known)
        return commit

    def _backup(self, path: str) -> bytes | None:
        try:
            return self.store.resolve_written(path).read_bytes()
        except FileNotFoundError:
            return None
