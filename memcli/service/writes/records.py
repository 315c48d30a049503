"""Memories written as given, their ids kept: an import's rows, a promoted memory."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from memcli.core import journal
from memcli.core.errors import InvalidInput
from memcli.service.writer import PACK_AFTER_FILES, ImportCommit, SaveResult
from memcli.store.files import digest

if TYPE_CHECKING:
    from memcli.core.model import Record
    from memcli.service.writer import Writer


def import_records(
    writer: Writer,
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

    memory, store = writer.memory, writer.store
    memory.ensure_store()
    with writer.transaction():
        memory.refresh_index()  # what was committed since the rows were checked
        index = memory.index()
        kept: list[tuple[str, str, Record]] = []
        taken: list[Record] = []
        before: list[Record] = []
        for path, text, record in rows:
            if imported is not None and imported(record):
                before.append(record)
            elif index.path_of(record.id) is not None or store.resolve(path).exists():
                taken.append(record)
            else:
                kept.append((path, text, record))
        with_notes = notes is not None and not os.path.lexists(store.root / MEMORY_MD)
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
        commit = writer.commit_files(files, [], message, loaded=loaded, create_only=create_only)
    if len(kept) >= PACK_AFTER_FILES and store.own_repository:  # never the project's
        _pack_loose_objects(writer)
    return ImportCommit(commit, written, taken, with_notes, tuple(before))


def _pack_loose_objects(writer: Writer) -> None:
    """Loose objects into one pack (``repack -d``), so no ``gc --auto`` waits for them."""
    git = writer.store.git
    if git.run(["repack", "-d", "-q"], check=False).returncode == 0:
        git.run(["prune-packed", "-q"], check=False)


def adopt(writer: Writer, record: Record) -> SaveResult:
    """Write a memory another layer held until now, its id kept, in one commit (promote).

    Refused when this store holds its id, or another memory holds its key.
    """
    memory = writer.memory
    memory.ensure_store()
    with writer.transaction():
        if memory.read(lambda index: index.path_of(record.id)) is not None:
            raise InvalidInput(f"the {memory.layer} layer holds {record.id} already")
        memory.check_key_free(record)
        path = writer.store.new_path(record)
        data = record.to_markdown().encode("utf-8")
        message = journal.commit_message("promote", [record])
        commit = writer.commit_files(
            {path: data}, [], message, loaded={path: (record, digest(data))}, create_only=[path]
        )
    return SaveResult(record, path, "promoted", commit)
