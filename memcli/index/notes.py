"""Curated notes in the index: MEMORY.md and notes/**/*.md, one row a section.

Writing: a notes file's chunks (``core.chunks``) replace whatever the index held
for its path, on a full rebuild and for each notes file a commit changed.
Reading: ``NoteQueries`` (mixed into ``Index``) ranks sections by bm25 for an
FTS5 MATCH string the caller built. Notes are never written, only read.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NamedTuple

import apsw

from memcli.core.chunks import MAX_NOTE_BYTES, chunk_markdown
from memcli.core.errors import InvalidInput, InvalidMemoryFile, QuerySyntaxError
from memcli.index.errors import translating_errors
from memcli.index.loading import IndexSource, Warn, printable
from memcli.index.schema import (
    DELETE_NOTE,
    DELETE_NOTE_FTS,
    INSERT_NOTE,
    INSERT_NOTE_FTS,
    MATCHING_NOTES,
    NOTE_COUNT,
    NOTE_DIGESTS,
    NOTE_ROWIDS_BY_PATH,
    SEARCH_NOTES,
    searchable,
)

if TYPE_CHECKING:
    from memcli.index.refresh import RefreshReport


class NoteHit(NamedTuple):
    """A section of a notes file that matched: where it is, what it says, its rank."""

    path: str
    heading: str
    line: int
    text: str
    score: float
    """-bm25: higher is better, like ``Entry.score``."""
    layer: str = "project"
    """The layer whose curated notes hold it."""


# ------------------------------------------------------------------ writing


def add_note(
    db: apsw.Connection, source: IndexSource, path: str, warn: Warn, report: RefreshReport
) -> None:
    """Index one notes file's sections (none when it cannot be read: a warning says why)."""
    try:
        data = source.read_note(path)
    except (InvalidMemoryFile, InvalidInput) as exc:
        warn(f"skipped {exc}")
        report.skipped.append(printable(path))
        return
    if len(data) > MAX_NOTE_BYTES:
        warn(f"{path}: only its first {MAX_NOTE_BYTES >> 20} MB is indexed")
    data = data[:MAX_NOTE_BYTES]
    name = path.rpartition("/")[2]
    stamp = note_digest(data)
    for chunk in chunk_markdown(data.decode("utf-8", "replace"), name):
        db.execute(INSERT_NOTE, (path, chunk.heading, chunk.line, chunk.text, stamp))
        db.execute(
            INSERT_NOTE_FTS,
            (db.last_insert_rowid(), searchable(chunk.heading), searchable(chunk.text)),
        )


def remove_note(db: apsw.Connection, path: str) -> None:
    """Forget every section the index holds for this path."""
    if printable(path) != path:
        return  # a name that is not UTF-8: never indexed
    for (rowid,) in list(db.execute(NOTE_ROWIDS_BY_PATH, (path,))):
        db.execute(DELETE_NOTE_FTS, (rowid,))
        db.execute(DELETE_NOTE, (rowid,))


def note_digest(data: bytes) -> str:
    """The digest the index keeps for a notes file read as ``IndexSource.read_note`` reads it.

    SHA-1 of the bytes indexed, like a memory file's digest.
    """
    import hashlib

    return hashlib.sha1(data[:MAX_NOTE_BYTES], usedforsecurity=False).hexdigest()


def has_sections(data: bytes, path: str) -> bool:
    """Whether the index keeps any section of this notes file (an empty one has none)."""
    text = data[:MAX_NOTE_BYTES].decode("utf-8", "replace")
    return bool(chunk_markdown(text, path.rpartition("/")[2]))


# ------------------------------------------------------------------ reading


class NoteQueries:
    """Searching the curated notes (mixed into ``Index``, which opens ``db``)."""

    db: apsw.Connection

    @translating_errors
    def search_notes(self, match: str, limit: int = 10) -> list[NoteHit]:
        """Sections matching an FTS5 MATCH string (``"upload" OR "timeout"``), best first."""
        try:
            rows = list(self.db.execute(SEARCH_NOTES, {"match": match, "limit": limit}))
        except apsw.SQLError as exc:
            raise QuerySyntaxError(f"invalid FTS5 query {match!r}: {exc}") from None
        return [
            NoteHit(path, heading, line, text, float(f"{score:.4g}"))
            for path, heading, line, text, score in rows
        ]

    @translating_errors
    def note_terms(self, hits: list[NoteHit], terms: list[str]) -> list[int]:
        """For each hit, how many of the FTS5 terms (``"upload"``) its section contains."""
        paths = json.dumps(sorted({hit.path for hit in hits}))
        counts = dict.fromkeys(((hit.path, hit.line) for hit in hits), 0)
        for term in terms:
            try:
                found = list(self.db.execute(MATCHING_NOTES, {"match": term, "paths": paths}))
            except apsw.SQLError as exc:
                raise QuerySyntaxError(f"invalid FTS5 query {term!r}: {exc}") from None
            for path, line in found:
                if (path, line) in counts:
                    counts[(path, line)] += 1
        return [counts[(hit.path, hit.line)] for hit in hits]

    @translating_errors
    def note_count(self) -> int:
        """How many sections of notes the index holds."""
        return int(next(iter(self.db.execute(NOTE_COUNT)))[0])

    @translating_errors
    def note_digests(self) -> dict[str, str]:
        """The digest of each indexed notes file, by path."""
        return {path: digest for path, digest in self.db.execute(NOTE_DIGESTS)}
