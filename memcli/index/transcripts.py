"""The transcript index: agent session messages in their own SQLite file (own version).

``<index dir>/transcripts.db`` sits beside the memory index and is as disposable:
a schema version mismatch or a corrupt file is dropped and built again by the next
``mem transcripts sync`` (version 1 is migrated in place). It never enters git.

``files`` remembers, per transcript file, where the last sync stopped (the cursor of
``capture.transcripts.tail``), the parser's state and what it skipped; ``messages``
holds each message once (one row per uuid, whichever files repeat it: ``COPY_SKIP``),
its text zlib-compressed (transcripts are mostly tool output and prose, which
shrinks three to four times); ``messages_fts`` is a *contentless*
FTS5 table over (text, files, tools) keyed by the message's integer rowid, with
``contentless_delete`` so that a file parsed again can replace its rows.
The full-text index keeps positions (``detail=full``): a column-detail index would
be about 15% smaller, but without the text beside it FTS5's bm25 scores every match
0 there, and phrases would not work. Together the file stays under 1.5 times the
text it indexes (bench/transcripts.py).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import apsw

from memcli.core.errors import IndexCorrupt, IndexUnavailable, MemError, NotFound
from memcli.core.regular import NotRegularFile, require_regular
from memcli.index.readonly import open_read_only

TRANSCRIPTS_FILE = "transcripts.db"
SCHEMA_VERSION = 3
"""3: a tool result cut at its cap is redacted before the cut (an older file could keep a
part of a secret, so it is rebuilt from the transcripts, not read).

2: a message is held once (its uuid unique)."""
READABLE_VERSIONS = (SCHEMA_VERSION,)
"""Versions a reader can use as they are."""
COPY_SKIP = "copy of a message another transcript holds"
"""The skip reason counting a message a file repeats (a resumed session's file repeats
the earlier one's lines, uuids and all): the file indexed first keeps it."""
BUSY_TIMEOUT_MS = 20_000
WEIGHTS = {"text": 4.0, "files": 2.0, "tools": 1.0}
"""bm25 weights in the column order of messages_fts: text above file paths above tool names."""

SCHEMA = """
CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE files(
    path TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    session TEXT,
    matched INTEGER NOT NULL,
    cwd TEXT,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    inode INTEGER NOT NULL,
    device INTEGER NOT NULL,
    consumed INTEGER NOT NULL,
    last_start INTEGER NOT NULL,
    last_digest TEXT,
    state TEXT,
    skips TEXT NOT NULL,
    messages INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE messages(
    rowid INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    agent TEXT NOT NULL,
    session TEXT NOT NULL,
    seq INTEGER NOT NULL,
    time TEXT,
    role TEXT NOT NULL,
    text BLOB NOT NULL,
    chars INTEGER NOT NULL,
    files TEXT NOT NULL,
    tools TEXT NOT NULL,
    commands TEXT NOT NULL,
    failed INTEGER NOT NULL,
    uuid TEXT,
    parent TEXT,
    sidechain INTEGER NOT NULL
);
CREATE UNIQUE INDEX messages_session_seq ON messages(session, seq);
CREATE INDEX messages_file ON messages(file);
CREATE UNIQUE INDEX messages_uuid ON messages(uuid) WHERE uuid IS NOT NULL;
CREATE VIRTUAL TABLE messages_fts USING fts5(
    text, files, tools,
    content='', contentless_delete=1,
    tokenize='porter unicode61 remove_diacritics 2'
);
"""
DROP_ALL = """
DROP TABLE IF EXISTS messages_fts;
DROP TABLE IF EXISTS messages;
DROP TABLE IF EXISTS files;
DROP TABLE IF EXISTS meta;
"""

GET_META = "SELECT value FROM meta WHERE name = ?"
SET_META = "INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)"
# What a sync compares with each file's stat: the parser's state is read only for a file that grew.
GET_FILES = "SELECT path, agent, session, matched, cwd, size, mtime_ns, inode, device, consumed, last_start, last_digest, messages FROM files"  # noqa: E501
GET_FILE_STATE = "SELECT state, skips FROM files WHERE path = ?"
PUT_FILE = """
INSERT OR REPLACE INTO files(path, agent, session, matched, cwd, size, mtime_ns, inode, device,
    consumed, last_start, last_digest, state, skips, messages)
VALUES (:path, :agent, :session, :matched, :cwd, :size, :mtime_ns, :inode, :device,
    :consumed, :last_start, :last_digest, :state, :skips, :messages)
"""
NEXT_SEQ = "SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE session = ?"
NEXT_ROWID = "SELECT coalesce(max(rowid), 0) + 1 FROM messages"
INSERT_MESSAGE = """
INSERT INTO messages(rowid, file, agent, session, seq, time, role, text, chars, files, tools,
    commands, failed, uuid, parent, sidechain)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(uuid) WHERE uuid IS NOT NULL DO NOTHING
"""
INSERT_FTS = "INSERT INTO messages_fts(rowid, text, files, tools) VALUES (?, ?, ?, ?)"
DELETE_FILE_FTS = (
    "DELETE FROM messages_fts WHERE rowid IN (SELECT rowid FROM messages WHERE file = ?)"
)
DELETE_FILE_MESSAGES = "DELETE FROM messages WHERE file = ?"
FILE_UUIDS = "SELECT uuid FROM messages WHERE file = ? AND uuid IS NOT NULL"
COUNT_MISSING = """
SELECT count(*) FROM json_each(?) AS wanted
WHERE NOT EXISTS (SELECT 1 FROM messages WHERE uuid = wanted.value)
"""
# The cursor of a file that skipped copies, reset: the next sync reads it from its start.
REOPEN_COPIES = """
UPDATE files SET size = -1, consumed = 0, last_start = 0, last_digest = NULL
WHERE matched AND path != ? AND json_extract(skips, ?) > 0
"""
DELETE_FILE = "DELETE FROM files WHERE path = ?"
RENAME_FILE = "UPDATE files SET path = ? WHERE path = ?"
RENAME_FILE_MESSAGES = "UPDATE messages SET file = ? WHERE file = ?"
COUNTS = """
SELECT (SELECT count(*) FROM files WHERE matched),
       (SELECT count(DISTINCT session) FROM messages),
       (SELECT count(*) FROM messages),
       (SELECT coalesce(sum(chars), 0) FROM messages)
"""
REWOUND = """
SELECT count(*) FROM (
    SELECT 1 FROM messages WHERE parent IS NOT NULL AND uuid IS NOT NULL
    GROUP BY session, parent HAVING count(DISTINCT uuid) > 1
)
"""
SKIPS = "SELECT skips FROM files WHERE skips != '{}'"
# Ranked on rowids and scores alone; the few rows shown are read afterwards.
SEARCH = """
SELECT messages_fts.rowid, bm25(messages_fts, {weights}) AS score
FROM messages_fts{join}
WHERE messages_fts MATCH ?{where}
ORDER BY score
LIMIT ?
"""
SEARCH_JOIN = " JOIN messages AS m ON m.rowid = messages_fts.rowid"
MESSAGE = "SELECT rowid, session, seq, time, role, text, tools, files FROM messages WHERE rowid = ?"
SESSIONS_FROM = "SELECT DISTINCT session FROM messages WHERE session >= ? ORDER BY session LIMIT 2"
SESSION_EXISTS = "SELECT 1 FROM messages WHERE session = ? LIMIT 1"
SESSION_BEFORE = "SELECT max(session) FROM messages WHERE session < ?"
SESSION_AFTER = "SELECT min(session) FROM messages WHERE session > ?"
AROUND = """
SELECT rowid, session, seq, time, role, text, tools, files FROM messages
WHERE session = ? AND seq BETWEEN ? AND ? ORDER BY seq
"""
LAST_SEQ = "SELECT max(seq) FROM messages WHERE session = ?"


@dataclass
class FileRow:
    """What the index remembers of one transcript file."""

    path: str
    agent: str
    session: str | None
    matched: bool
    """The file belongs to the project (a Codex rollout from elsewhere is remembered, unread)."""
    cwd: str | None
    """An unmatched rollout's working directory; None: not known yet (looked at again when the
    file changes)."""
    size: int
    mtime_ns: int
    inode: int
    device: int
    consumed: int
    """Bytes of whole lines parsed so far (where the next sync starts)."""
    last_start: int
    """Where the last consumed line starts (its digest checks the file was only appended)."""
    last_digest: str | None
    state: dict[str, Any] | None
    """The parser's state (``files()`` leaves it None: see ``file_state``)."""
    skips: dict[str, int]
    messages: int

    def params(self) -> dict[str, Any]:
        return {
            **self.__dict__,
            "matched": int(self.matched),
            "state": json.dumps(self.state) if self.state is not None else None,
            "skips": json.dumps(self.skips, sort_keys=True),
        }


@dataclass(frozen=True)
class StoredMessage:
    """A message as the index returns it."""

    rowid: int
    session: str
    seq: int
    time: str | None
    role: str
    text: str
    tools: tuple[str, ...]
    files: tuple[str, ...]
    score: float = 0.0


def join_list(values: Sequence[str]) -> str:
    """A list stored as lines (tool names and paths hold no newline that matters)."""
    return "\n".join(value.replace("\n", " ") for value in values)


def split_list(value: str) -> tuple[str, ...]:
    return tuple(value.split("\n")) if value else ()


def pack(text: str) -> bytes:
    """A message's text as stored: UTF-8, zlib at its fastest level."""
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 1)


def unpack(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    return zlib.decompress(data).decode("utf-8", "replace")


def _stored(row: Sequence[Any], score: float = 0.0) -> StoredMessage:
    rowid, session, seq, time, role, text, tools, files = row
    return StoredMessage(
        rowid, session, seq, time, role, unpack(text), split_list(tools), split_list(files), score
    )


class TranscriptIndex:
    """One transcripts.db. Writers hold the sync lock (``service.transcripts``) around writes."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        self.rebuilt: str | None = None
        """Why the file was dropped and built again when opened (None: it was fine)."""
        try:
            require_regular(path)  # a folder, a FIFO: never opened (SQLite would wait on a FIFO)
        except NotRegularFile as exc:
            raise IndexUnavailable(
                f"the transcript index {path} {exc.reason}: remove it, and "
                "`mem transcripts sync` builds it again"
            ) from None
        try:
            self._open(create)
        except (apsw.CorruptError, apsw.NotADBError) as exc:
            if not create:
                raise IndexCorrupt(f"the transcript index {path} is damaged ({exc})") from None
            self._discard()
            self.rebuilt = f"the transcript index was damaged ({exc}); rebuilding it"
            self._open(create)

    def _open(self, create: bool) -> None:
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = apsw.Connection(str(self.path))
        else:
            self.db = open_read_only(self.path)  # a reader leaves no -wal or -shm behind
        self.db.set_busy_timeout(BUSY_TIMEOUT_MS)
        version = self.db.pragma("user_version")
        if version == SCHEMA_VERSION or (not create and version in READABLE_VERSIONS):
            self.db.execute("SELECT count(*) FROM files").fetchall()
        elif not create:
            if not version:  # a first sync is creating it right now
                raise NotFound("no transcripts are indexed yet; run `mem transcripts sync`")
            raise MemError("the transcript index is of another version; run `mem transcripts sync`")
        else:
            if version:
                self.rebuilt = "the transcript index is of another version; rebuilding it"
            self.db.pragma("journal_mode", "WAL")
            with self.write():
                self.db.execute(DROP_ALL)
                self.db.execute(SCHEMA)
                self.db.pragma("user_version", SCHEMA_VERSION)
        self.db.pragma("synchronous", "NORMAL")

    def _discard(self) -> None:
        try:
            self.db.close()
        except (apsw.Error, AttributeError):
            pass
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def write(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if not self.db.get_autocommit():
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ------------------------------------------------------------ writing

    def files(self) -> dict[str, FileRow]:
        rows: dict[str, FileRow] = {}
        for row in self.db.execute(GET_FILES):
            (path, agent, session, matched, cwd, size, mtime_ns, inode, device) = row[:9]
            consumed, last_start, last_digest, messages = row[9:]
            rows[path] = FileRow(
                path,
                agent,
                session,
                bool(matched),
                cwd,
                size,
                mtime_ns,
                inode,
                device,
                consumed,
                last_start,
                last_digest,
                None,
                {},
                messages,
            )
        return rows

    def file_state(self, path: str) -> tuple[dict[str, Any] | None, dict[str, int]]:
        """The parser's state after the file's last consumed line, and what it skipped."""
        for state, skips in self.db.execute(GET_FILE_STATE, (path,)):
            return (json.loads(state) if state else None), json.loads(skips)
        return None, {}

    def put_file(self, row: FileRow) -> None:
        self.db.execute(PUT_FILE, row.params())

    def forget_file(self, path: str) -> list[str]:
        """The file's messages out of the index; the uuids they had."""
        uuids = [uuid for (uuid,) in self.db.execute(FILE_UUIDS, (path,))]
        self.db.execute(DELETE_FILE_FTS, (path,))
        self.db.execute(DELETE_FILE_MESSAGES, (path,))
        return uuids

    def drop_file(self, path: str) -> list[str]:
        """The file's row and messages out of the index; the uuids they had."""
        uuids = self.forget_file(path)
        self.db.execute(DELETE_FILE, (path,))
        return uuids

    def reopen_copies(self, uuids: list[str], keep: str = "") -> bool:
        """When one of ``uuids`` left the index, files that skipped copies are read again.

        Their cursors are reset (``keep`` excepted): the next sync reads them from the
        start, and a copy whose message is gone is indexed from them. True if any were.
        """
        if not uuids:
            return False
        (missing,) = next(self.db.execute(COUNT_MISSING, (json.dumps(uuids),)))
        if not missing:
            return False
        self.db.execute(REOPEN_COPIES, (keep, f'$."{COPY_SKIP}"'))
        return self.db.changes() > 0

    def rename_file(self, old: str, new: str) -> None:
        """A transcript moved (Codex archives a session): its row and messages follow it."""
        self.db.execute(RENAME_FILE, (new, old))
        self.db.execute(RENAME_FILE_MESSAGES, (new, old))

    def add_messages(self, file: str, messages: Iterable[Any]) -> tuple[int, int]:
        """Insert ``TranscriptMessage``s read from ``file``: how many, and how many copies.

        A message whose uuid the index holds already (from this file or another) is
        a copy: left out, its first reading kept.
        """
        cursor = self.db.cursor()
        (rowid,) = next(cursor.execute(NEXT_ROWID))
        seqs: dict[str, int] = {}
        count = copies = 0
        for message in messages:
            seq = seqs.get(message.session)
            if seq is None:
                (seq,) = next(cursor.execute(NEXT_SEQ, (message.session,)))
            files, tools = join_list(message.files), join_list(message.tools)
            encoded = message.text.encode("utf-8", "surrogatepass")
            cursor.execute(
                INSERT_MESSAGE,
                (
                    rowid,
                    file,
                    message.agent,
                    message.session,
                    seq,
                    message.time,
                    message.role,
                    zlib.compress(encoded, 1),
                    len(encoded),
                    files,
                    tools,
                    join_list(message.commands),
                    int(message.failed),
                    message.uuid,
                    message.parent,
                    int(message.sidechain),
                ),
            )
            if not self.db.changes():
                copies += 1
                continue
            seqs[message.session] = seq + 1
            cursor.execute(INSERT_FTS, (rowid, message.text, files, tools))
            rowid += 1
            count += 1
        return count, copies

    def set_meta(self, name: str, value: str) -> None:
        self.db.execute(SET_META, (name, value))

    def optimize(self) -> None:
        """Merge the full-text index's segments into one (after a large first sync)."""
        self.db.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")

    # ------------------------------------------------------------ reading

    def meta(self, name: str) -> str | None:
        for (value,) in self.db.execute(GET_META, (name,)):
            return str(value)
        return None

    def counts(self) -> dict[str, int]:
        files, sessions, messages, text_bytes = next(self.db.execute(COUNTS))
        (rewound,) = next(self.db.execute(REWOUND))
        return {
            "files": files,
            "sessions": sessions,
            "messages": messages,
            "text_bytes": text_bytes,
            "rewound_branches": rewound,
        }

    def skips(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for (value,) in self.db.execute(SKIPS):
            for reason, count in json.loads(value).items():
                total[reason] = total.get(reason, 0) + int(count)
        return dict(sorted(total.items()))

    def search(
        self, match: str, where: str, params: Sequence[Any], limit: int
    ) -> list[tuple[int, float]]:
        """(rowid, bm25) of the best matches, best first; ``where`` filters on ``m``."""
        weights = ", ".join(str(w) for w in WEIGHTS.values())
        join = SEARCH_JOIN if where else ""
        sql = SEARCH.format(weights=weights, join=join, where=where)
        return [(rowid, score) for rowid, score in self.db.execute(sql, (match, *params, limit))]

    def message(self, rowid: int, score: float = 0.0) -> StoredMessage | None:
        for row in self.db.execute(MESSAGE, (rowid,)):
            return _stored(row, score)
        return None

    def resolve_session(self, prefix: str) -> list[str]:
        """Sessions whose id is ``prefix`` or starts with it (at most two: enough to say so)."""
        if next(iter(self.db.execute(SESSION_EXISTS, (prefix,))), None):
            return [prefix]
        # The sessions that start with ``prefix`` come first among those from it on.
        found = [row[0] for row in self.db.execute(SESSIONS_FROM, (prefix,))]
        return [session for session in found if session.startswith(prefix)]

    def session_neighbours(self, session: str) -> list[str]:
        """The indexed sessions just before and just after ``session`` in sorted order."""
        found = []
        for sql in (SESSION_BEFORE, SESSION_AFTER):
            (value,) = next(self.db.execute(sql, (session,)))
            if value is not None:
                found.append(str(value))
        return found

    def last_seq(self, session: str) -> int:
        for (value,) in self.db.execute(LAST_SEQ, (session,)):
            return int(value or 0)
        return 0

    def around(self, session: str, first: int, last: int) -> list[StoredMessage]:
        return [_stored(row) for row in self.db.execute(AROUND, (session, first, last))]
