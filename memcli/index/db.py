"""The index database: one apsw connection, its schema, and one writer at a time.

The index is derived from the memory files only, and disposable: a schema
version mismatch drops and rebuilds it, and so does corruption (the caller
decides, on ``IndexCorrupt``). What it does is mixed in: following the store
(``refresh.Refreshing``) and answering questions (``queries.Queries``, and
``notes.NoteQueries`` for the curated notes).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import apsw

from memcli.core.errors import IndexUnavailable
from memcli.index.errors import translating_errors
from memcli.index.loading import Progress
from memcli.index.notes import NoteQueries
from memcli.index.queries import Queries
from memcli.index.readonly import open_read_only
from memcli.index.refresh import Refreshing
from memcli.index.schema import DROP_ALL, GET_META, SCHEMA, SCHEMA_VERSION

BUSY_TIMEOUT_MS = 20_000


class Index(Refreshing, Queries, NoteQueries):
    """One index database. ``path`` may be ``":memory:"``."""

    @translating_errors
    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self.progress: Progress | None = None
        self.db = apsw.Connection(self.path)
        self.db.set_busy_timeout(BUSY_TIMEOUT_MS)
        if self.db.pragma("user_version") != SCHEMA_VERSION:
            self._create_schema()
        self.db.pragma("synchronous", "NORMAL")

    @classmethod
    @translating_errors
    def reading(cls, path: Path, *, busy_ms: int = 0) -> Index:
        """An existing index file opened read-only, leaving no file behind (``open_read_only``):
        nothing is created, refreshed or migrated. ``IndexUnavailable`` when it is of another
        schema version; ``IndexCorrupt`` when it is no database.
        """
        index = cls.__new__(cls)
        index.path = str(path)
        index.progress = None
        index.db = open_read_only(path)
        index.db.set_busy_timeout(busy_ms)
        found = index.db.pragma("user_version")
        if found != SCHEMA_VERSION:
            index.db.close()
            raise IndexUnavailable(f"it is of another version of mem (schema {found})")
        return index

    def close(self) -> None:
        self.db.close()

    def _create_schema(self) -> None:
        if self.path != ":memory:":
            self.db.pragma("journal_mode", "WAL")
        with self._write():
            if self.db.pragma("user_version") == SCHEMA_VERSION:
                return  # another process got there first
            self.db.execute(DROP_ALL)
            self.db.execute(SCHEMA)
            self.db.pragma("user_version", SCHEMA_VERSION)

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction, taken at once so that concurrent refreshes queue up."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if not self.db.get_autocommit():
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")


def indexed_commit_of(path: Path) -> str | None:
    """The commit an index file reflects, read without writing anything.

    None when there is no usable index there: missing, unreadable, or of
    another schema version (which the next refresh would rebuild).
    """
    try:
        db = open_read_only(path)
        try:
            if db.pragma("user_version") != SCHEMA_VERSION:
                return None
            for (value,) in db.execute(GET_META, ("commit",)):
                return str(value)
        finally:
            db.close()
    except apsw.Error:
        return None
    return None
