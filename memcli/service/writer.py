"""Every write to a store, each a transaction that ends in one commit.

A transaction takes the store's write lock, decides what to write and remove
(refusing likely secrets and dropping ``<private>`` spans first: see
``screening``), then goes through :meth:`Writer._commit_files`, the one path
that writes files, commits them, tells the index, and puts the files back if
anything fails before the commit exists.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec, TypeVar

from memcli.core import journal
from memcli.core.chunks import is_note_path
from memcli.core.crashpoints import crash_point
from memcli.core.errors import InvalidInput, InvalidMemoryFile, SecretsFound, StoreError
from memcli.core.ids import new_ulid
from memcli.core.timeutil import format_timestamp, now
from memcli.service.screening import (
    new_secrets,
    screened,
    screened_file,
    screening_for,
    without_private,
)
from memcli.store.drafts import is_draft_path
from memcli.store.files import MAX_MEMORY_FILE_BYTES, digest, too_large

if TYPE_CHECKING:
    from memcli.core.draft import Draft
    from memcli.core.model import Observation, Record
    from memcli.core.secrets import Policy
    from memcli.index import Entry
    from memcli.service.duplicates import Similar
    from memcli.service.memory import Known, Memory
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
    """A write taking ``secrets=``, run with the policy its store allows (``screening_for``:
    the team layer never takes a likely secret as it is)."""
    import functools

    @functools.wraps(method)
    def write(*args: P.args, **kwargs: P.kwargs) -> R:
        writer: Any = args[0]
        asked: Any = kwargs.get("secrets", "refuse")
        with screening_for(writer.store, asked) as policy:
            kwargs["secrets"] = policy
            return method(*args, **kwargs)

    return write


def still_as_found(memory: Memory, entries: list[Entry]) -> list[Entry]:
    """Those of ``entries`` still current as they were found: present, unchanged and
    superseded by nothing (a merge re-checks its cluster under the lock)."""
    from memcli.core.errors import NotFound

    current = []
    for entry in entries:
        try:
            now_entry = memory.resolve(entry.id)
        except NotFound:
            continue
        if now_entry.updated != entry.updated:
            continue
        if _superseded(memory, entry.id):
            continue
        current.append(now_entry)
    return current


def _superseded(memory: Memory, identity: str) -> bool:
    return bool(memory.read(lambda index: index.replacing(identity)))


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

    @by_layer_rules
    def save(
        self,
        draft: Draft,
        *,
        secrets: Policy = "refuse",
        removing: Sequence[str] = (),
        trailer: str = "",
    ) -> SaveResult:
        """Write one memory and commit it; a known ``key`` updates that memory instead.

        Likely secrets in it are refused (or redacted, or allowed: ``secrets``),
        before anything is written. ``removing``: files (a lesson draft accepted)
        removed in the same commit, whose message ends with ``trailer`` lines.
        """
        stamp = format_timestamp(now())
        # Without a key, or without a store yet, it is surely new: refuse bad input
        # before creating anything (with a key, the lock decides: new or an update).
        fresh = (
            None
            if draft.key and self.store.exists()
            else screened(draft.new_observation(new_ulid(), stamp), None, secrets)
        )
        self.memory.ensure_store()
        with self._transaction():
            existing = self.memory.entry_for_key(draft.key) if draft.key else None
            similar: tuple[Similar, ...] = ()
            if existing is not None:
                from memcli.core.model import Observation

                old = self.memory.load(existing)
                if not isinstance(old, Observation):
                    raise StoreError(f"the key {draft.key!r} belongs to a summary, not a memory")
                observation = self._replacing(
                    screened(draft.update(old, stamp), old, secrets), draft
                )
                if observation == old:
                    return SaveResult(old, existing.path, "unchanged", None)
                path, action = existing.path, "updated"
            else:
                observation = self._replacing(
                    fresh or screened(draft.new_observation(new_ulid(), stamp), None, secrets),
                    draft,
                )
                duplicate, similar = self._likeness(observation, draft)
                if duplicate is not None:
                    return duplicate
                path, action = self.store.new_path(observation), "saved"
            verb = "save" if action == "saved" else "update"
            message = journal.commit_message(verb, [observation]) + trailer
            commit = self._commit_files({path: observation.to_markdown()}, list(removing), message)
            return SaveResult(observation, path, action, commit, similar)

    def _replacing(self, observation: Observation, draft: Draft) -> Observation:
        """The observation, replacing also the memories ``draft.supersedes`` names."""
        if not draft.supersedes:
            return observation
        from memcli.service.supersede import resolve_replaced

        ids = resolve_replaced(self.memory, draft.supersedes, observation.id)
        return observation.replace(supersedes=list(dict.fromkeys([*observation.supersedes, *ids])))

    def _likeness(
        self, observation: Observation, draft: Draft
    ) -> tuple[SaveResult | None, tuple[Similar, ...]]:
        """An exact duplicate already stored (as the result of this save), or the near ones.

        A save that names a key or memories it supersedes is never refused as a
        duplicate: it says what it is for. Hooks that leave the index alone skip both.
        """
        if self.memory.index_deferred:
            return None, ()
        from memcli.service.duplicates import exact_duplicate, similar_memories

        if not draft.key and not draft.supersedes:
            twin = exact_duplicate(self.seen, observation)
            if twin is not None:
                return SaveResult(self.seen.load(twin), twin.path, "duplicate", None), ()
        near = similar_memories(self.seen, observation)
        return None, tuple(s for s in near if s.entry.id not in observation.supersedes)

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
        """Record a session summary, its body rendered through ``compaction.md.j2``."""
        from memcli.service.summaries import SummaryInput

        given = SummaryInput(sections, title, session, text, secrets)
        self.memory.ensure_store()
        with self._transaction():
            summary = given.summary(self.store.root, extra or {}, self.memory.notify)
            path = self.store.new_path(summary)
            message = journal.commit_message("summarize", [summary])
            commit = self._commit_files({path: summary.to_markdown()}, [], message)
            return SaveResult(summary, path, "saved", commit)

    def restore(self, ref: str) -> SaveResult:
        """Bring a forgotten memory back from history, as it was last, in a new commit."""
        from memcli.core.errors import NotFound
        from memcli.store.history import find_forgotten

        self.memory.require_store()
        with self._transaction():
            try:
                present = self.memory.resolve(ref)
            except NotFound:
                present = None
            if present is not None:
                raise StoreError(f"{present.id} is not forgotten: it is at {present.path}")
            path, data, record = find_forgotten(self.store, ref)
            holder = self.memory.entry_for_key(record.key) if record.key else None
            if holder is not None:
                raise StoreError(
                    f"the key {record.key!r} of {record.id} is already used by {holder.id} "
                    f"({holder.title[:60]}) since it was forgotten: give that memory another "
                    "key (`mem edit ... --set key=...`) or forget it, then restore"
                )
            if self.store.resolve(path).exists():
                path = self.store.new_path(record)
            message = journal.commit_message("restore", [record])
            commit = self._commit_files({path: data}, [], message)
            return SaveResult(record, path, "restored", commit)

    @by_layer_rules
    def replace_file(
        self,
        entry: Entry,
        text: str | Callable[[Record], str],
        *,
        base: bytes | None = None,
        secrets: Policy = "refuse",
    ) -> SaveResult:
        """Write an edited memory file after checking it, in one commit (``edit: …``).

        ``text`` is the new file, or a function making it from the memory as it
        is under the write lock (so changes made meanwhile are kept). ``base``:
        the bytes the edit started from; if the file changed since, the edit is
        refused (``EditConflict``) rather than undoing that change.
        """
        from memcli.core.errors import EditConflict, InvalidInput
        from memcli.core.secrets import scan
        from memcli.store.files import parse_memory_file

        with self._transaction():
            try:
                data = self.store.read_bytes(entry.path)
            except InvalidMemoryFile:
                full = self.store.resolve(entry.path)
                if full.is_symlink() or full.exists():
                    raise
                raise EditConflict(
                    f"{entry.path} was removed while it was being edited (forgotten, or "
                    "moved); nothing was written"
                ) from None
            if base is not None and data != base:
                raise EditConflict(
                    f"{entry.path} changed while it was being edited (another mem wrote it); "
                    "nothing was written"
                )
            held: Record | None = None
            if callable(text):
                held = self.store.parse(entry.path, data)
                wanted = text(held)
            else:
                wanted = text
                with contextlib.suppress(InvalidMemoryFile):
                    held = self.store.parse(entry.path, data)
            wanted = without_private(entry.path, wanted)
            current = data.decode("utf-8", "replace")
            before = list(scan(current, entry.path))
            new = screened_file(entry.path, wanted, before, secrets)
            record = parse_memory_file(entry.path, new.encode("utf-8"))
            if record.id != entry.id:
                raise InvalidInput(
                    f"the id changed ({entry.id} -> {record.id}); an id is the "
                    "memory's identity: save a new memory instead"
                )
            self.memory.refresh_index()  # the index as of HEAD, under the lock
            # Only a key being taken must be free: one shared already (two clones
            # saved it, then synced) may stay while the rest of the memory is edited.
            if held is None or record.key != held.key:
                self.memory.check_key_free(record)
            if record.supersedes and (held is None or record.supersedes != held.supersedes):
                from memcli.service.supersede import check_record

                check_record(self.memory, record)
            if current == new:
                return SaveResult(record, entry.path, "unchanged", None)
            message = journal.commit_message("edit", [record])
            commit = self._commit_files({entry.path: new}, [], message)
            return SaveResult(record, entry.path, "edited", commit)

    def merge(
        self,
        keeper: Entry,
        others: list[Entry],
        merge: Callable[[Observation, list[Observation]], tuple[Observation, str]],
    ) -> SaveResult:
        """Merge ``others`` into ``keeper`` in one commit (``merge: N memories``).

        ``merge`` makes the merged keeper from the memories as they are under the
        lock, and says how (a line of the commit message). The keeper alone is
        written: it supersedes the others, which stay as they are. Under the lock,
        a memory changed, removed or superseded since the cluster was found is left
        out (another merge got there first): with the keeper or every other left
        out, nothing is written (action ``unchanged``, no commit).
        """
        from memcli.core.model import Observation
        from memcli.core.model import without_private as visible_part
        from memcli.core.secrets import report
        from memcli.service.supersede import check_no_cycle

        with self._transaction():
            self.memory.refresh_index()
            current = still_as_found(self.memory, [keeper, *others])
            if not current or current[0].id != keeper.id or len(current) < 2:
                where = self.memory.read(lambda index: index.path_of(keeper.id))
                return SaveResult(self.memory.load_or_stub(keeper), where or "", "unchanged", None)
            records = [self.memory.load(entry) for entry in current]
            if not all(isinstance(r, Observation) for r in records):
                raise InvalidInput("only memories are merged, not session summaries")
            kept, *rest = (r for r in records if isinstance(r, Observation))
            merged, how = merge(kept, rest)
            replaced = [o.id for o in rest]
            check_no_cycle(self.memory, kept.id, replaced)
            merged = merged.replace(
                id=kept.id,
                supersedes=list(dict.fromkeys([*kept.supersedes, *replaced])),
                updated=format_timestamp(now()),
            )
            visible = visible_part(merged)
            merged = visible if isinstance(visible, Observation) else merged
            found = new_secrets(merged, [kept, *rest])
            if found:
                raise SecretsFound(f"the merge would add likely secrets: {report(found)}")
            message = journal.commit_message("merge", [merged, *rest])
            subject, _, body = message.partition("\n\n")
            message = f"{subject}\n\nInto {kept.id}; {how}\n\n{body}"
            path = self.memory.resolve(kept.id).path
            commit = self._commit_files({path: merged.to_markdown()}, [], message)
            return SaveResult(merged, path, "merged", commit)

    def forget(self, refs: Iterable[str], *, verb: str = "forget") -> tuple[list[Entry], str]:
        """Remove memories from the work tree in one commit; history keeps them.

        ``verb``: the commit's action (``promote`` when the memory moves to another layer).
        """
        with self._transaction():
            entries: dict[str, Entry] = {}
            for ref in refs:
                entry = self.memory.resolve(ref)
                entries.setdefault(entry.id, entry)
            chosen = list(entries.values())
            records = [self.memory.load_or_stub(entry) for entry in chosen]
            message = journal.commit_message(verb, records)
            commit = self._commit_files({}, [entry.path for entry in chosen], message)
            return chosen, commit

    def adopt(self, record: Record) -> SaveResult:
        """Write a memory another layer held until now, its id kept, in one commit (promote).

        Refused when this store holds its id, or another memory holds its key.
        """
        self.memory.ensure_store()
        with self._transaction():
            if self.memory.read(lambda index: index.path_of(record.id)) is not None:
                raise InvalidInput(f"the {self.memory.layer} layer holds {record.id} already")
            self.memory.check_key_free(record)
            path = self.store.new_path(record)
            data = record.to_markdown().encode("utf-8")
            message = journal.commit_message("promote", [record])
            commit = self._commit_files(
                {path: data}, [], message, loaded={path: (record, digest(data))}, create_only=[path]
            )
        return SaveResult(record, path, "promoted", commit)

    def import_records(
        self,
        rows: list[tuple[str, str, Record]],
        *,
        source: str,
        notes: str | None = None,
        imported: Callable[[Record], bool] | None = None,
    ) -> ImportCommit:
        """Write many new memory files (path, text, record) in ONE commit (``import: …``).

        The rows are checked already (``capture.importing``); under the lock,
        any whose id or path was stored meanwhile is left out, not overwritten.
        ``notes``: a curated MEMORY.md written in the same commit when the store
        has none. ``imported``: asked under the lock, whether a row's source row
        was imported meanwhile (another import of the same source); such a row
        is left out too. A large import packs git's loose objects after its commit:
        otherwise the next porcelain git command in the store starts a long ``gc --auto``.
        """
        from memcli.core.chunks import MEMORY_MD

        self.memory.ensure_store()
        with self._transaction():
            self.memory.refresh_index()  # what was committed since the rows were checked
            index = self.memory.index()
            kept: list[tuple[str, str, Record]] = []
            taken: list[Record] = []
            before: list[Record] = []
            for path, text, record in rows:
                if imported is not None and imported(record):
                    before.append(record)
                elif index.path_of(record.id) is not None or self.store.resolve(path).exists():
                    taken.append(record)
                else:
                    kept.append((path, text, record))
            with_notes = notes is not None and not os.path.lexists(self.store.root / MEMORY_MD)
            if not kept and not with_notes:
                return ImportCommit(None, [], taken, imported=tuple(before))
            written = [record for _, _, record in kept]
            message = journal.import_message(source, written, notes=with_notes)
            files = {path: text.encode("utf-8") for path, text, _ in kept}
            loaded = {path: (record, digest(files[path])) for path, _, record in kept}
            if with_notes:
                assert notes is not None
                files[MEMORY_MD] = notes.encode("utf-8")
            create_only = (MEMORY_MD,) if with_notes else ()
            commit = self._commit_files(files, [], message, loaded=loaded, create_only=create_only)
        if len(kept) >= PACK_AFTER_FILES and self.store.own_repository:  # never the project's
            self._pack_loose_objects()
        return ImportCommit(commit, written, taken, with_notes, tuple(before))

    def _pack_loose_objects(self) -> None:
        """Loose objects into one pack (``repack -d``), so no ``gc --auto`` waits for them."""
        git = self.store.git
        if git.run(["repack", "-d", "-q"], check=False).returncode == 0:
            git.run(["prune-packed", "-q"], check=False)

    def commit_drafts(
        self, plan: Callable[[], tuple[dict[str, bytes], list[str], str] | None]
    ) -> str | None:
        """Write and remove lesson draft files (never memories) in one commit.

        ``plan`` decides under the write lock what to write, what to remove and the
        message (None: nothing to commit, and None is returned).
        """
        self.memory.ensure_store()
        with self._transaction():
            planned = plan()
            if planned is None:
                return None
            writes, removals, message = planned
            return self._commit_files(writes, removals, message)

    def commit_uncommitted(
        self, files: dict[str, bytes], removed: list[str], ids: list[str]
    ) -> str:
        """Commit memory files changed outside mem (``mem doctor --fix``), as checked."""
        with self.store.write_lock():
            message = journal.uncommitted_message(len(files) + len(removed), ids)
            return self._commit_files(files, removed, message)

    def purge(self, refs: Iterable[str]) -> tuple[list[Record], Purged]:
        """Remove memories from the store's whole history (``mem forget --purge``).

        Present or already forgotten; the index is rebuilt from scratch after,
        so no trace of them stays in its pages either.
        """
        from memcli.core.errors import NotFound
        from memcli.store.history import find_forgotten
        from memcli.store.purge import history_paths, rewrite

        self.memory.require_store()
        self.store.check_purgeable()
        with self._transaction():
            dirty = self.store.git.out(["status", "--porcelain", "--untracked-files=no"])
            if dirty:
                raise StoreError(
                    "the store has uncommitted changes (`git status` shows them): commit or "
                    "discard them before a purge rewrites history"
                )
            records: dict[str, Record] = {}
            for ref in refs:
                try:
                    record = self.memory.load_or_stub(self.memory.resolve(ref))
                except NotFound:
                    record = find_forgotten(self.store, ref)[2]
                records.setdefault(record.id, record)
            paths = sorted({p for i in records for p in history_paths(self.store, i)})
            result = rewrite(self.store, list(records), paths)
            self.memory.rebuild_index_file()
        return list(records.values()), result

    def finish_purge(self) -> None:
        """Prune the old history a purge interrupted by a crash left behind."""
        from memcli.store import purge

        with self.store.write_lock():
            purge.finish(self.store)
            self.memory.rebuild_index_file()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
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

    def _commit_files(
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
