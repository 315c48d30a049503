"""The derived search index: SQLite through apsw, FTS5 for full text.

Built from the memory files only, and disposable: a schema version mismatch
drops and rebuilds it, and so does corruption (the caller decides, on
``IndexCorrupt``). It records the commit it reflects; ``sync`` brings it up to
date from ``git diff`` between that commit and HEAD, inside one write
transaction, so concurrent readers see either the old index or the new one.

The full-text table is *contentless* (``content=''``, ``contentless_delete=1``):
rows hold what is searched (facts one per line, concepts and file paths as
words), while ``memories`` holds what is shown. bm25 needs only the index.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec, Protocol, TypeVar

import apsw

from memcli.core.crashpoints import crash_point
from memcli.core.errors import (
    Ambiguous,
    IndexCorrupt,
    IndexUnavailable,
    InvalidInput,
    InvalidMemoryFile,
    NotFound,
    QuerySyntaxError,
    StoreError,
)
from memcli.core.ids import ID_PREFIX_RE, is_ulid
from memcli.core.schema import KEY_RE
from memcli.index.fts import Term, fts_match, like_pattern, parse_terms

if TYPE_CHECKING:
    from memcli.core.model import Record

SCHEMA_VERSION = 4
"""4: created and updated always have four-digit years and name days that exist."""
BUSY_TIMEOUT_MS = 20_000
MIN_PREFIX_CHARS = 4
SHORT_ID_CHARS = 8
# bm25 weights, in the column order of memories_fts.
WEIGHTS = {"title": 10.0, "facts": 5.0, "concepts": 3.0, "files": 3.0, "narrative": 1.0}

SCHEMA_TABLES = """
CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE memories(
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT,
    key TEXT,
    importance REAL,
    session TEXT,
    path TEXT NOT NULL UNIQUE,
    digest TEXT NOT NULL,
    concepts TEXT NOT NULL,
    files TEXT NOT NULL,
    facts TEXT NOT NULL,
    narrative TEXT NOT NULL
);
CREATE TABLE tags(
    memory INTEGER NOT NULL,
    kind TEXT NOT NULL,
    value TEXT NOT NULL COLLATE NOCASE
);
CREATE VIRTUAL TABLE memories_fts USING fts5(
    title, facts, concepts, files, narrative,
    content='', contentless_delete=1,
    tokenize='porter unicode61 remove_diacritics 2'
);
"""
# Built after a bulk load: one sort at the end beats keeping them ordered row by row.
SCHEMA_INDEXES = """
CREATE INDEX memories_by_created ON memories(created, id);
CREATE INDEX memories_by_key ON memories(key) WHERE key IS NOT NULL;
CREATE INDEX memories_by_kind ON memories(kind, created, id);
CREATE INDEX tags_by_value ON tags(kind, value);
CREATE INDEX tags_by_memory ON tags(memory);
"""
SCHEMA = SCHEMA_TABLES + SCHEMA_INDEXES
DROP_ALL = """
DROP TABLE IF EXISTS memories_fts;
DROP TABLE IF EXISTS tags;
DROP TABLE IF EXISTS memories;
DROP TABLE IF EXISTS meta;
"""
GET_META = "SELECT value FROM meta WHERE name = ?"
SET_META = "INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)"
INSERT_MEMORY = """
INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(id) DO NOTHING
"""
INSERT_TAG = "INSERT INTO tags(memory, kind, value) VALUES (?, ?, ?)"
BULK_MEMORY = "INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
INSERT_FTS = """
INSERT INTO memories_fts(rowid, title, facts, concepts, files, narrative)
VALUES (?, ?, ?, ?, ?, ?)
"""
ROWID_BY_PATH = "SELECT rowid FROM memories WHERE path = ?"
PATH_BY_ID = "SELECT path FROM memories WHERE id = ?"
DELETE_FTS = "DELETE FROM memories_fts WHERE rowid = ?"
DELETE_TAGS = "DELETE FROM tags WHERE memory = ?"
DELETE_MEMORY = "DELETE FROM memories WHERE rowid = ?"

ENTRY_COLUMNS = """m.id, m.kind, m.type, m.title, m.created, m.updated, m.key, m.importance,
    m.session, m.path, m.concepts, m.files, m.facts"""
# Every filter is written once, and switched off by binding NULL.
# One condition a filter; only the filters in use go into a statement, so that SQLite
# can use an index for the kind and the time range instead of testing every row.
FILTER_CONDITIONS = {
    "kind": "m.kind = :kind",
    "types": "m.type IN (SELECT value FROM json_each(:types))",
    "since": "m.created >= :since",
    "until": "m.created < :until",
    "concepts": """m.rowid IN (
        SELECT memory FROM tags
        WHERE kind = 'concept' AND value IN (SELECT value FROM json_each(:concepts)))""",
    "files": """EXISTS (
        SELECT 1 FROM tags t, json_each(:files) f
        WHERE t.memory = m.rowid AND t.kind = 'file'
          AND (t.value = f.value OR substr(t.value, 1, length(f.value) + 1) = f.value || '/'))""",
}
BM25 = "bm25(memories_fts, {})".format(", ".join(str(w) for w in WEIGHTS.values()))
# Ranking reads only the full-text index; the join reads each hit's columns. Joining
# every match before sorting doubles the cost of a word found in most memories, so the
# best matches are ranked alone first and joined after (see Index._ranked).
RANK_FTS = f"""
SELECT rowid, {BM25} FROM memories_fts WHERE memories_fts MATCH :match
ORDER BY 2 LIMIT :window
"""
ENTRIES_BY_ROWID = f"""
SELECT {ENTRY_COLUMNS}, NULL AS score, m.rowid FROM memories m
WHERE m.rowid IN (SELECT value FROM json_each(:rowids)) {{filters}}
"""
SEARCH_FTS = f"""
SELECT {ENTRY_COLUMNS}, -{BM25} AS score
FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
WHERE memories_fts MATCH :match {{filters}}
ORDER BY {BM25}, m.created DESC, m.id DESC
LIMIT :limit
"""
RANK_WINDOW = 200
SEARCH_LIKE = f"""
SELECT {ENTRY_COLUMNS}, 0.0 AS score
FROM memories m
WHERE (m.title LIKE :pattern ESCAPE '\\' OR m.facts LIKE :pattern ESCAPE '\\'
       OR m.narrative LIKE :pattern ESCAPE '\\' OR m.concepts LIKE :pattern ESCAPE '\\'
       OR m.files LIKE :pattern ESCAPE '\\') {{filters}}
ORDER BY m.created DESC, m.id DESC
LIMIT :limit
"""
RECENT = f"""
SELECT {ENTRY_COLUMNS}, NULL AS score
FROM memories m
WHERE (:keyed = 0 OR m.key IS NOT NULL) {{filters}}
ORDER BY m.created DESC, m.id DESC
LIMIT :limit
"""
BEFORE = f"""
SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m
WHERE (m.created, m.id) < (:created, :id) AND (:kind IS NULL OR m.kind = :kind)
ORDER BY m.created DESC, m.id DESC LIMIT :limit
"""
AFTER = f"""
SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m
WHERE (m.created, m.id) > (:created, :id) AND (:kind IS NULL OR m.kind = :kind)
ORDER BY m.created, m.id LIMIT :limit
"""
BY_ID = f"SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m WHERE m.id = ?"
BY_KEY = f"SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m WHERE m.key = ? LIMIT 2"
ALL_BY_KEY = f"SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m WHERE m.key = ?"
BY_PREFIX = f"""
SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m
WHERE m.id >= :low AND m.id < :high ORDER BY m.id LIMIT 6
"""
ID_BEFORE = "SELECT id FROM memories WHERE id < ? ORDER BY id DESC LIMIT 1"
ID_AFTER = "SELECT id FROM memories WHERE id > ? ORDER BY id LIMIT 1"
TEXTS = "SELECT id, narrative FROM memories WHERE id IN (SELECT value FROM json_each(?))"
MATCHING_IDS = """
SELECT m.id FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
WHERE memories_fts MATCH :match AND m.id IN (SELECT value FROM json_each(:ids))
"""
COUNT = "SELECT count(*) FROM memories"
ALL_DIGESTS = "SELECT path, digest FROM memories"


# ------------------------------------------------------------------ values


class Entry(NamedTuple):
    """A memory as the index knows it: enough to list, rank and find its file."""

    id: str
    kind: str
    type: str
    title: str
    created: str
    updated: str | None
    key: str | None
    importance: float | None
    session: str | None
    path: str
    concepts: list[str]
    files: list[str]
    facts: list[str]
    score: float | None = None

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> Entry:
        values = list(row)
        for position in (10, 11, 12):  # concepts, files, facts are JSON arrays
            values[position] = json.loads(values[position])
        if values[13] is not None:  # 4 significant digits: tiny stores give tiny scores
            values[13] = float(f"{values[13]:.4g}")
        return cls(*values)

    def to_json(self, short_id: str | None = None) -> dict[str, Any]:
        from memcli.core.serialize import entry_dict

        return entry_dict(self, short_id or self.id[:SHORT_ID_CHARS])


class Filters(NamedTuple):
    types: tuple[str, ...] = ()
    kind: str | None = None
    """``observation`` or ``summary``; None for both."""
    since: str | None = None
    until: str | None = None
    concepts: tuple[str, ...] = ()
    files: tuple[str, ...] = ()

    def clause(self) -> str:
        """``AND`` conditions for the filters in use (empty when none is)."""
        return "".join(
            f" AND {FILTER_CONDITIONS[name]}"
            for name, value in self.params().items()
            if value is not None
        )

    def params(self) -> dict[str, Any]:
        def as_json(values: tuple[str, ...]) -> str | None:
            return json.dumps(list(values)) if values else None

        return {
            "kind": self.kind,
            "types": as_json(self.types),
            "since": self.since,
            "until": self.until,
            "concepts": as_json(self.concepts),
            "files": as_json(self.files),
        }


NO_FILTERS = Filters()


class SearchResult(NamedTuple):
    entries: list[Entry]
    strategy: str
    """How the entries were found: ``all`` words, ``any`` word, ``substring``, ``raw``."""


class SyncReport:
    """What a sync did: rebuilt from scratch or not, rows added and removed, files skipped."""

    def __init__(self) -> None:
        self.rebuilt = False
        self.added = 0
        self.removed = 0
        self.skipped: list[str] = []


class IndexSource(Protocol):
    """What the index reads: the store, seen through a narrow window."""

    def head(self) -> str | None: ...
    def memory_paths(self) -> Iterator[str]: ...
    def load(self, path: str) -> tuple[Record, str]: ...
    def changes(self, old: str, new: str) -> list[Any]: ...


Warn = Callable[[str], None]
Progress = Callable[[int, int], None]
"""Told ``(files done, files in all)`` during a rebuild."""
Loaded = tuple["Record", str]
P = ParamSpec("P")
R = TypeVar("R")


def _translating_errors(method: Callable[P, R]) -> Callable[P, R]:
    """Turn SQLite's errors into mem's: corrupt (rebuildable) or unavailable."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (apsw.CorruptError, apsw.NotADBError) as exc:
            raise IndexCorrupt(f"the index is corrupt ({exc})") from None
        except (
            apsw.CantOpenError,
            apsw.ReadOnlyError,
            apsw.IOError,
            apsw.PermissionsError,
            apsw.FullError,
            apsw.BusyError,
        ) as exc:
            raise IndexUnavailable(f"cannot use the index: {exc}") from None

    return wrapper


# ------------------------------------------------------------------- index


class Index:
    """One index database. ``path`` may be ``":memory:"``."""

    @_translating_errors
    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self.progress: Progress | None = None
        self.db = apsw.Connection(self.path)
        self.db.set_busy_timeout(BUSY_TIMEOUT_MS)
        if self.db.pragma("user_version") != SCHEMA_VERSION:
            self._create_schema()
        self.db.pragma("synchronous", "NORMAL")

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
        """One write transaction, taken at once so that concurrent syncs queue up."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if not self.db.get_autocommit():
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ----------------------------------------------------------------- sync

    def indexed_commit(self) -> str | None:
        """The commit the index reflects ('' for an empty repository), None if never built."""
        for (value,) in self.db.execute(GET_META, ("commit",)):
            return str(value)
        return None

    @_translating_errors
    def sync(
        self,
        source: IndexSource,
        warn: Warn,
        *,
        full: bool = False,
        known: tuple[str | None, dict[str, Loaded | None]] | None = None,
    ) -> SyncReport | None:
        """Bring the index to the source's HEAD; None when it already was.

        ``known`` is ``(parent, {path: (observation, digest) or None})`` from a
        write that just committed on top of ``parent``: when the index reflects
        ``parent`` those changes are applied without asking git for a diff.
        """
        head = source.head() or ""
        if not full and self.indexed_commit() == head:
            return None
        with self._write():
            current = self.indexed_commit()
            if not full and current == head:
                return None
            report = SyncReport()
            if full or current is None:
                self._rebuild(source, warn, report)
            elif known is not None and (known[0] or "") == current:
                self._apply_known(known[1], source, warn, report)
            else:
                try:
                    changes = source.changes(current, head) if current and head else None
                except StoreError:
                    changes = None  # that commit is gone (history rewritten): rebuild
                if changes is None:
                    self._rebuild(source, warn, report)
                else:
                    self._apply_changes(changes, source, warn, report)
            crash_point("index-written")
            self.db.execute(SET_META, ("commit", head))
            return report

    def _rebuild(self, source: IndexSource, warn: Warn, report: SyncReport) -> None:
        """Every memory file again, into fresh tables; secondary indexes built at the end."""
        report.rebuilt = True
        self.db.execute(DROP_ALL)
        self.db.execute(SCHEMA_TABLES)
        first_path: dict[str, str] = {}
        rowid = 0
        for batch in _loaded_batches(source, warn, report, self.progress):
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
        self.db.execute(SCHEMA_INDEXES)

    def _apply_changes(
        self, changes: list[Any], source: IndexSource, warn: Warn, report: SyncReport
    ) -> None:
        # Deletions first: a renamed file is a deletion and an addition of one id.
        for change in sorted(changes, key=lambda c: c.status != "D"):
            self._remove(change.path, report)
            if change.status != "D":
                self._add(change.path, self._load(source, change.path, warn, report), warn, report)

    def _apply_known(
        self,
        known: dict[str, Loaded | None],
        source: IndexSource,
        warn: Warn,
        report: SyncReport,
    ) -> None:
        for path in known:
            self._remove(path, report)
        for path, loaded in known.items():
            if loaded is not None:
                self._add(path, loaded, warn, report)

    @staticmethod
    def _load(source: IndexSource, path: str, warn: Warn, report: SyncReport) -> Loaded | None:
        try:
            return source.load(path)
        except (InvalidMemoryFile, InvalidInput) as exc:
            warn(f"skipped {exc}")
            report.skipped.append(path)
            return None

    def _add(self, path: str, loaded: Loaded | None, warn: Warn, report: SyncReport) -> None:
        if loaded is None:
            return
        record, digest = loaded
        memory, _, _ = _rows(None, path, record, digest)
        self.db.execute(INSERT_MEMORY, memory)
        if self.db.changes() == 0:
            other = next(iter(self.db.execute(PATH_BY_ID, (record.id,))), ("?",))[0]
            warn(f"skipped {path}: id {record.id} is already used by {other}")
            report.skipped.append(path)
            return
        _, tags, text = _rows(self.db.last_insert_rowid(), path, record, digest)
        if tags:
            self.db.executemany(INSERT_TAG, tags)
        self.db.execute(INSERT_FTS, text)
        report.added += 1

    def _remove(self, path: str, report: SyncReport) -> None:
        for (rowid,) in list(self.db.execute(ROWID_BY_PATH, (path,))):
            self.db.execute(DELETE_FTS, (rowid,))
            self.db.execute(DELETE_TAGS, (rowid,))
            self.db.execute(DELETE_MEMORY, (rowid,))
            report.removed += 1

    # -------------------------------------------------------------- queries

    def _entries(self, sql: str, params: Any) -> list[Entry]:
        return [Entry.from_row(row) for row in self.db.execute(sql, params)]

    @_translating_errors
    def search(
        self, text: str, filters: Filters = NO_FILTERS, *, limit: int = 10, raw: bool = False
    ) -> SearchResult:
        """Full text first (all words, then any word), then a substring match."""
        params = {**filters.params(), "limit": limit}
        if raw:
            try:
                return SearchResult(self._ranked(text, filters, limit), "raw")
            except apsw.SQLError as exc:
                raise QuerySyntaxError(
                    f"invalid FTS5 query {text!r}: {exc}; drop --raw to search the words as typed"
                ) from None
        terms = parse_terms(text)
        attempts = [("all", fts_match(terms))]
        if len(terms) > 1:
            attempts.append(("any", fts_match(terms, any_term=True)))
        for strategy, match in attempts:
            if match is None:
                continue
            entries = self._ranked(match, filters, limit)
            if entries:
                return SearchResult(entries, strategy)
        pattern = like_pattern(" ".join(text.split()))
        like = SEARCH_LIKE.format(filters=filters.clause())
        return SearchResult(self._entries(like, {**params, "pattern": pattern}), "substring")

    @_translating_errors
    def search_terms(
        self, terms: list[Term], filters: Filters = NO_FILTERS, *, limit: int = 10
    ) -> list[Entry]:
        """Memories with any of these terms, best bm25 first."""
        match = fts_match(terms, any_term=True)
        if match is None:
            return []
        return self._ranked(match, filters, limit)

    def _ranked(self, match: str, filters: Filters, limit: int) -> list[Entry]:
        """The best ``limit`` matches: ranked in the full-text index alone, then joined.

        Exactly what SEARCH_FTS answers (the same order, ties broken by newest),
        which it falls back to when the window of best matches cannot tell:
        filters left too few of them, or equal scores run to its edge.
        """
        params = {**filters.params(), "limit": limit, "match": match}
        clause = filters.clause()
        window = max(RANK_WINDOW, limit * 20)
        ranked = list(self.db.execute(RANK_FTS, {"match": match, "window": window}))
        if not ranked:
            return []
        full = len(ranked) == window
        if full and ranked[-1][1] == ranked[min(limit, len(ranked)) - 1][1]:
            return self._entries(SEARCH_FTS.format(filters=clause), params)
        score = {rowid: value for rowid, value in ranked}
        rows = list(
            self.db.execute(
                ENTRIES_BY_ROWID.format(filters=clause),
                {**params, "rowids": json.dumps(list(score))},
            )
        )
        if full and len(rows) < limit:
            return self._entries(SEARCH_FTS.format(filters=clause), params)
        # Newest first among equals (created, then id, descending), then by score: the
        # second sort is stable, so it keeps that order within one score.
        rows.sort(key=lambda row: (row[4], row[0]), reverse=True)
        rows.sort(key=lambda row: score[row[-1]])
        return [Entry.from_row((*row[:-2], -score[row[-1]])) for row in rows[:limit]]

    @_translating_errors
    def matched_terms(self, ids: list[str], terms: list[Term]) -> dict[str, int]:
        """For each id, how many of the terms its memory contains (stemmed, like search)."""
        counts = dict.fromkeys(ids, 0)
        encoded = json.dumps(ids)
        for term in terms:
            for (identity,) in self.db.execute(
                MATCHING_IDS, {"match": term.to_fts(), "ids": encoded}
            ):
                counts[identity] += 1
        return counts

    @_translating_errors
    def texts(self, ids: list[str]) -> dict[str, str]:
        """The markdown text of each memory, from the index (no file is read)."""
        return dict(self.db.execute(TEXTS, (json.dumps(ids),)))

    @_translating_errors
    def recent(
        self, filters: Filters = NO_FILTERS, *, limit: int = 20, keyed: bool = False
    ) -> list[Entry]:
        """Newest first; ``keyed``: only memories that have a key."""
        sql = RECENT.format(filters=filters.clause())
        return self._entries(sql, {**filters.params(), "limit": limit, "keyed": int(keyed)})

    @_translating_errors
    def around(
        self, anchor: Entry, *, before: int, after: int, kind: str | None = None
    ) -> list[Entry]:
        """The anchor with up to ``before`` and ``after`` neighbours, oldest first."""
        params = {"created": anchor.created, "id": anchor.id, "kind": kind}
        earlier = self._entries(BEFORE, {**params, "limit": before})
        later = self._entries(AFTER, {**params, "limit": after})
        return [*reversed(earlier), anchor, *later]

    @_translating_errors
    def resolve(self, ref: str) -> Entry:
        """A memory by full id, key, or unique id prefix (like git's abbreviated hashes)."""
        ref = ref.strip()
        if not KEY_RE.fullmatch(ref):
            raise InvalidInput(f"{ref!r} is not a memory id or key")
        upper = ref.upper()
        if is_ulid(upper):
            found = self._entries(BY_ID, (upper,))
            if found:
                return found[0]
        by_key = self._entries(BY_KEY, (ref,))
        if by_key:
            return by_key[0]
        if not ID_PREFIX_RE.fullmatch(ref):
            raise NotFound(f"no memory has the key {ref!r}")
        if len(ref) < MIN_PREFIX_CHARS:
            raise NotFound(
                f"no memory has the key {ref!r}, and an id prefix needs at least "
                f"{MIN_PREFIX_CHARS} characters"
            )
        matches = self._entries(BY_PREFIX, {"low": upper, "high": upper + "\x7f"})
        if not matches:
            raise NotFound(f"no memory has the id or key {ref!r}")
        if len(matches) > 1:
            shown = ", ".join(f"{e.id[:12]} ({e.title[:40]})" for e in matches[:5])
            raise Ambiguous(
                f"id prefix {ref!r} matches several memories: {shown}; give more characters"
            )
        return matches[0]

    @_translating_errors
    def path_of(self, identity: str) -> str | None:
        for (path,) in self.db.execute(PATH_BY_ID, (identity,)):
            return str(path)
        return None

    @_translating_errors
    def by_key(self, key: str) -> Entry | None:
        found = self._entries(BY_KEY, (key,))
        return found[0] if found else None

    @_translating_errors
    def with_key(self, key: str) -> list[Entry]:
        """Every memory holding ``key`` (one, unless files were committed past mem's checks)."""
        return self._entries(ALL_BY_KEY, (key,))

    @_translating_errors
    def short_ids(self, ids: list[str]) -> dict[str, str]:
        """The shortest unique prefix of each id, at least ``SHORT_ID_CHARS`` long."""
        result = {}
        for identity in ids:
            longest = 0
            for sql in (ID_BEFORE, ID_AFTER):
                for (other,) in self.db.execute(sql, (identity,)):
                    longest = max(longest, _common_prefix(identity, other))
            result[identity] = identity[: max(SHORT_ID_CHARS, longest + 1)]
        return result

    @_translating_errors
    def count(self) -> int:
        return int(next(iter(self.db.execute(COUNT)))[0])

    @_translating_errors
    def digests(self) -> dict[str, str]:
        return {path: digest for path, digest in self.db.execute(ALL_DIGESTS)}


def _rows(
    rowid: int | None, path: str, record: Record, digest: str
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]], tuple[Any, ...]]:
    """A memory's row, its tag rows, and what the full-text index searches."""
    memory = (
        rowid,
        record.id,
        record.kind,
        record.type,
        record.title,
        record.created,
        record.updated,
        record.key,
        record.importance,
        record.session,
        path,
        digest,
        _to_json(record.concepts),
        _to_json(record.files),
        _to_json(record.facts),
        record.narrative,
    )
    tags = [(rowid, "concept", c) for c in record.concepts]
    tags += [(rowid, "file", f) for f in record.files]
    text = (
        rowid,
        record.title,
        "\n".join(record.facts),
        " ".join(record.concepts),
        " ".join(record.files),
        record.narrative,
    )
    return memory, tags, text


_to_json = json.JSONEncoder(ensure_ascii=False).encode
LOAD_BATCH = 512
WORKER_THRESHOLD = 2000
"""From this many files on, worker processes read and parse while this one inserts."""
WORKERS = 2
Parts = tuple[tuple[Any, ...], list[tuple[str, str]], tuple[Any, ...]]
LoadedRow = tuple[str, str, "Parts | None", str]  # path, id, row parts, problem


def _row_parts(path: str, record: Record, digest: str) -> Parts:
    """``_rows`` without the rowid, which only the inserting process can assign."""
    memory, tags, text = _rows(0, path, record, digest)
    return memory[1:], [(kind, value) for _, kind, value in tags], text[1:]


def _load_into(source: IndexSource, chunks: list[list[str]], send: Callable[[Any], None]) -> None:
    """Read and parse each chunk of paths, sending one batch of row parts per chunk."""
    for chunk in chunks:
        batch: list[LoadedRow] = []
        for path in chunk:
            try:
                record, digest = source.load(path)
                batch.append((path, record.id, _row_parts(path, record, digest), ""))
            except (InvalidMemoryFile, InvalidInput) as exc:
                batch.append((path, "", None, str(exc)))
        send(batch)


def _worker(
    source: IndexSource, chunks: list[list[str]], connection: Any, inherited: list[Any]
) -> None:
    """Send the parsed chunks to the parent; die with it.

    ``inherited``: the read ends of the pipes, which a forked worker holds
    copies of. They are closed first: while a worker holds a read end, its
    writes never fail, and a worker whose parent was killed would wait forever.
    """
    for receiver in inherited:
        receiver.close()
    try:
        _load_into(source, chunks, connection.send)
    except OSError:
        pass  # the parent is gone (broken pipe): nobody is waiting for the rest
    except BaseException as exc:  # reported to the parent, which raises it there
        with contextlib.suppress(OSError):
            connection.send(f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()


def _loaded_batches(
    source: IndexSource, warn: Warn, report: SyncReport, progress: Progress | None = None
) -> Iterator[list[LoadedRow]]:
    """Every memory file as row parts, in path order; unreadable ones warned about.

    On a large store worker processes read and parse the files while this one
    inserts (threads would not help: parsing holds the GIL between SQLite's
    steps). Worker k takes every k-th chunk and they are received in turn, so
    the order stays the paths' order. A pipe blocks when full: memory stays flat.
    """
    paths = list(source.memory_paths())
    chunks = [paths[i : i + LOAD_BATCH] for i in range(0, len(paths), LOAD_BATCH)]
    workers: list[Any] = []
    if len(paths) < WORKER_THRESHOLD:
        collected: list[Any] = []
        _load_into(source, chunks, collected.append)
        batches: Iterator[Any] = iter(collected)
    else:
        import multiprocessing

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context: Any = multiprocessing.get_context(method)
        count = max(1, min(WORKERS, os.cpu_count() or 1))
        receivers = []
        for k in range(count):
            receiver, sender = context.Pipe(duplex=False)
            receivers.append(receiver)
            worker = context.Process(
                target=_worker,
                args=(source, chunks[k::count], sender, list(receivers)),
                daemon=True,
            )
            worker.start()
            sender.close()
            workers.append(worker)
        batches = _received(receivers, len(chunks))
    done = 0
    try:
        for batch in batches:
            if isinstance(batch, str):
                raise StoreError(f"reading the memory files failed: {batch}")
            done += len(batch)
            if progress is not None:
                progress(done, len(paths))
            for path, _, parts, problem in batch:
                if parts is None:
                    warn(f"skipped {problem}")
                    report.skipped.append(path)
            yield [item for item in batch if item[2] is not None]
    finally:
        for worker in workers:
            worker.join(timeout=5)
            if worker.is_alive():
                worker.kill()


def _received(receivers: list[Any], count: int) -> Iterator[Any]:
    """``count`` batches, taken from the workers in turn."""
    try:
        for n in range(count):
            yield receivers[n % len(receivers)].recv()
    except EOFError:
        raise StoreError("a process reading memory files died") from None
    finally:
        for receiver in receivers:
            receiver.close()


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
