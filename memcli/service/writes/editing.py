"""A stored memory's file replaced by an edited one, checked first (``mem edit``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from memcli.core import journal
from memcli.core.errors import EditConflict, InvalidInput, InvalidMemoryFile
from memcli.service.screening import screened_file, without_private
from memcli.service.writer import SaveResult, by_layer_rules

if TYPE_CHECKING:
    from memcli.core.model import Record
    from memcli.core.secrets import Policy
    from memcli.index import Entry
    from memcli.service.writer import Writer


@by_layer_rules
def replace_file(
    writer: Writer,
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
    from memcli.core.secrets import scan
    from memcli.store.files import parse_memory_file

    memory, store = writer.memory, writer.store
    with writer.transaction():
        try:
            data = store.read_bytes(entry.path)
        except InvalidMemoryFile:
            full = store.resolve(entry.path)
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
            held = store.parse(entry.path, data)
            wanted = text(held)
        else:
            wanted = text
            with contextlib.suppress(InvalidMemoryFile):
                held = store.parse(entry.path, data)
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
        memory.refresh_index()  # the index as of HEAD, under the lock
        # Only a key being taken must be free: one shared already (two clones
        # saved it, then synced) may stay while the rest of the memory is edited.
        if held is None or record.key != held.key:
            memory.check_key_free(record)
        if record.supersedes and (held is None or record.supersedes != held.supersedes):
            from memcli.service.supersede import check_record

            check_record(memory, record)
        if current == new:
            return SaveResult(record, entry.path, "unchanged", None)
        message = journal.commit_message("edit", [record])
        commit = writer.commit_files({entry.path: new}, [], message)
        return SaveResult(record, entry.path, "edited", commit)
