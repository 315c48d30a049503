"""Bringing the index up to date with the store's HEAD.

The index records the commit it reflects. ``refresh`` applies ``git diff``
between that commit and HEAD, or the changes a write just committed, or
rebuilds from every file; always inside one write transaction, so concurrent
readers see either the old index or the new one.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import apsw

from memcli.core.chunks import is_note_path
from memcli.core.crashpoints import crash_point
from memcli.core.errors import InvalidInput, InvalidMemoryFile, StoreError
from memcli.index.errors import translating_errors
from memcli.index.loading import (
    IndexSource,
    Loaded,
    Progress,
    Warn,
    loaded_batches,
    printable,
)
from memcli.index.loops import mark_loops
from memcli.index.notes import add_note, remove_note
from memcli.index.schema import (
    BULK_MEMORY,
    DELETE_FTS,
    DELETE_MEMORY,
    DELETE_TAGS,
    DROP_ALL,
    GET_META,
    INSERT_FTS,
    INSERT_MEMORY,
    INSERT_TAG,
    PATH_BY_ID,
    ROWID_BY_PATH,
    SCHEMA_INDEXES,
    SCHEMA_TABLES,
    SET_META,
    memory_rows,
)
from memcli.index.short_ids import keep_counted_length, short_id_meta


class RefreshReport:
    """What a refresh did: rebuilt from scratch or not, rows added and removed, files skipped."""

    def __init__(self) -> None:
        self.rebuilt = False
        self.added = 0
        self.removed = 0
        self.skipped: list[str] = []
        self.base: str | None = None
        """The commit the index reflected before, when it was updated rather than rebuilt."""
        self.ids: set[str] = set()
        """Ids of the memories an update added or removed (what follows the index reads it)."""


class Refreshing:
    """How an ``Index`` follows the store (mixed into ``Index``, which opens ``db``)."""

    db: apsw.Connection
    progress: Progress | None
    _write: Callable[[], AbstractContextManager[None]]

    def indexed_commit(self) -> str | None:
        """The commit the index reflects ('' for an empty repository), None if never built."""
        for (value,) in self.db.execute(GET_META, ("commit",)):
            return str(value)
        return None

    @translating_errors
    def refresh(
        self,
        source: IndexSource,
        warn: Warn,
        *,
        full: bool = False,
        known: tuple[str | None, dict[str, Loaded | None]] | None = None,
    ) -> RefreshReport | None:
        """Bring the index to the source's HEAD; None when it already was.

        ``known`` is ``(parent, {path: (observation, digest) or None})`` from a
        write that just committed on top of ``parent``: when the index reflects
        ``parent`` those changes are applied without asking git for a diff.
        """
        head = source.head() or ""
        if not full and self.indexed_commit() == head:
            keep_counted_length(self.db)  # an index an older mem built: counted once
            return None
        with self._write():
            current = self.indexed_commit()
            if not full and current == head:
                return None
            report = RefreshReport()
            report.base = current
            if full or current is None:
                self._rebuild(source, warn, report)
            elif (
                known is not None
                and (known[0] or "") == current
                and not any(map(is_note_path, known[1]))  # notes are read from git's diff
            ):
                self._apply_known(known[1], source, warn, report)
            else:
                try:
                    changes = (
                        source.changes(current, head, notes=True) if current and head else None
                    )
                except StoreError:
                    changes = None  # that commit is gone (history rewritten): rebuild
                if changes is None:
                    self._rebuild(source, warn, report)
                else:
                    self._apply_changes(changes, source, warn, report)
            if report.added or report.removed:
                mark_loops(self.db)
            crash_point("index-written")
            self.db.execute(SET_META, ("commit", head))
            self.db.execute(SET_META, short_id_meta(self.db, report))
            return report

    def _rebuild(self, source: IndexSource, warn: Warn, report: RefreshReport) -> None:
        """Every memory file again, into fresh tables; secondary indexes built at the end."""
        report.rebuilt = True
        report.base = None
        self.db.execute(DROP_ALL)
        self.db.execute(SCHEMA_TABLES)
        first_path: dict[str, str] = {}
        rowid = 0
        for batch in loaded_batches(source, warn, report.skipped, self.progress):
            memories, tags, texts = [], [], []
            for path, identity, parts, _ in batch:
                assert parts is not None
                if identity in first_path:
                    warn(f"skipped {path}: id {identity} is already used by {first_path[identity]}")
                    report.skipped.append(path)
                    continue
                first_path[identity] = path
                rowid += 1
                memory, tag_parts, text = parts
                memories.append((rowid, *memory))
                tags += [(rowid, kind, value) for kind, value in tag_parts]
                texts.append((rowid, *text))
            self.db.executemany(BULK_MEMORY, memories)
            if tags:
                self.db.executemany(INSERT_TAG, tags)
            self.db.executemany(INSERT_FTS, texts)
            report.added += len(memories)
            crash_point("rebuild-inserting")
        for path in source.note_paths():
            add_note(self.db, source, path, warn, report)
        self.db.execute(SCHEMA_INDEXES)

    def _apply_changes(
        self, changes: list[Any], source: IndexSource, warn: Warn, report: RefreshReport
    ) -> None:
        # Deletions first: a renamed file is a deletion and an addition of one id.
        for change in sorted(changes, key=lambda c: c.status != "D"):
            if is_note_path(change.path):
                remove_note(self.db, change.path)
                if change.status != "D":
                    add_note(self.db, source, change.path, warn, report)
                continue
            self._remove(change.path, report)
            if change.status != "D":
                self._add(change.path, self._load(source, change.path, warn, report), warn, report)

    def _apply_known(
        self,
        known: dict[str, Loaded | None],
        source: IndexSource,
        warn: Warn,
        report: RefreshReport,
    ) -> None:
        for path in known:
            self._remove(path, report)
        for path, loaded in known.items():
            if loaded is not None:
                self._add(path, loaded, warn, report)

    @staticmethod
    def _load(source: IndexSource, path: str, warn: Warn, report: RefreshReport) -> Loaded | None:
        try:
            return source.load(path)
        except (InvalidMemoryFile, InvalidInput) as exc:
            warn(f"skipped {exc}")
            report.skipped.append(printable(path))
            return None

    def _add(self, path: str, loaded: Loaded | None, warn: Warn, report: RefreshReport) -> None:
        if loaded is None:
            return
        record, digest = loaded
        memory, _, _ = memory_rows(None, path, record, digest)
        self.db.execute(INSERT_MEMORY, memory)
        if self.db.changes() == 0:
            other = next(iter(self.db.execute(PATH_BY_ID, (record.id,))), ("?",))[0]
            warn(f"skipped {path}: id {record.id} is already used by {other}")
            report.skipped.append(path)
            return
        _, tags, text = memory_rows(self.db.last_insert_rowid(), path, record, digest)
        if tags:
            self.db.executemany(INSERT_TAG, tags)
        self.db.execute(INSERT_FTS, text)
        report.added += 1
        report.ids.add(record.id)

    def _remove(self, path: str, report: RefreshReport) -> None:
        if printable(path) != path:
            return  # a name that is not UTF-8: never indexed (loading it is refused)
        for rowid, identity in list(self.db.execute(ROWID_BY_PATH, (path,))):
            report.ids.add(identity)
            self.db.execute(DELETE_FTS, (rowid,))
            self.db.execute(DELETE_TAGS, (rowid,))
            self.db.execute(DELETE_MEMORY, (rowid,))
            report.removed += 1
