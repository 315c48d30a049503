"""Memories forgotten (history keeps them), brought back, or purged from history."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from memcli.core import journal
from memcli.core.errors import NotFound, StoreError
from memcli.service.writer import SaveResult

if TYPE_CHECKING:
    from memcli.core.model import Record
    from memcli.index import Entry
    from memcli.service.writer import Writer
    from memcli.store.purge import Purged


def forget(writer: Writer, refs: Iterable[str], *, verb: str = "forget") -> tuple[list[Entry], str]:
    """Remove memories from the work tree in one commit; history keeps them.

    ``verb``: the commit's action (``promote`` when the memory moves to another layer).
    """
    memory = writer.memory
    with writer.transaction():
        entries: dict[str, Entry] = {}
        for ref in refs:
            entry = memory.resolve(ref)
            entries.setdefault(entry.id, entry)
        chosen = list(entries.values())
        records = [memory.load_or_stub(entry) for entry in chosen]
        message = journal.commit_message(verb, records)
        commit = writer.commit_files({}, [entry.path for entry in chosen], message)
        return chosen, commit


def restore(writer: Writer, ref: str) -> SaveResult:
    """Bring a forgotten memory back from history, as it was last, in a new commit."""
    from memcli.store.history import find_forgotten

    memory, store = writer.memory, writer.store
    memory.require_store()
    with writer.transaction():
        try:
            present = memory.resolve(ref)
        except NotFound:
            present = None
        if present is not None:
            raise StoreError(f"{present.id} is not forgotten: it is at {present.path}")
        path, data, record = find_forgotten(store, ref)
        holder = memory.entry_for_key(record.key) if record.key else None
        if holder is not None:
            raise StoreError(
                f"the key {record.key!r} of {record.id} is already used by {holder.id} "
                f"({holder.title[:60]}) since it was forgotten: give that memory another "
                "key (`mem edit ... --set key=...`) or forget it, then restore"
            )
        if store.resolve(path).exists():
            path = store.new_path(record)
        message = journal.commit_message("restore", [record])
        commit = writer.commit_files({path: data}, [], message)
        return SaveResult(record, path, "restored", commit)


def purge(writer: Writer, refs: Iterable[str]) -> tuple[list[Record], Purged]:
    """Remove memories from the store's whole history (``mem forget --purge``).

    Present or already forgotten; the index is rebuilt from scratch after,
    so no trace of them stays in its pages either.
    """
    from memcli.store.history import find_forgotten
    from memcli.store.purge import history_paths, rewrite

    memory, store = writer.memory, writer.store
    memory.require_store()
    store.check_purgeable()
    with writer.transaction():
        dirty = store.git.out(["status", "--porcelain", "--untracked-files=no"])
        if dirty:
            raise StoreError(
                "the store has uncommitted changes (`git status` shows them): commit or "
                "discard them before a purge rewrites history"
            )
        records: dict[str, Record] = {}
        for ref in refs:
            try:
                record = memory.load_or_stub(memory.resolve(ref))
            except NotFound:
                record = find_forgotten(store, ref)[2]
            records.setdefault(record.id, record)
        paths = sorted({p for i in records for p in history_paths(store, i)})
        result = rewrite(store, list(records), paths)
        memory.rebuild_index_file()
    return list(records.values()), result


def finish_purge(writer: Writer) -> None:
    """Prune the old history a purge interrupted by a crash left behind."""
    from memcli.store import purge

    with writer.store.write_lock():
        purge.finish(writer.store)
        writer.memory.rebuild_index_file()
