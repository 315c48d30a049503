"""The index's tables and every SQL statement run on them, as named constants.

The index is disposable: ``PRAGMA user_version`` holds ``SCHEMA_VERSION``, and
on a mismatch these tables are dropped and built again from the memory files.
Tables that are costly to rebuild (embeddings, transcript offsets) belong in
modules of their own, with their own version, so that a change here never
throws them away: ``DROP_ALL`` drops only the tables defined here.

The full-text table is *contentless* (``content=''``, ``contentless_delete=1``):
rows hold what is searched (facts one per line, concepts and file paths as
words), while ``memories`` holds what is shown. bm25 needs only the index.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from memcli.core.text import exact_key, identifier_words

if TYPE_CHECKING:
    from memcli.core.model import Record

SCHEMA_VERSION = 10
"""10: each guard of a memory, as a tag of kind 'guard' (its JSON ``[tool, glob, action]``),
from which the guard table beside the index is written (``memcli.service.guard_table``).

9: the supersedes tags of a loop written by hand are of kind 'supersedes-loop' (a memory
in a loop is not hidden by the other members).

8: each observation's exact-duplicate key (its type and folded text, ``exact``); the
ids a memory supersedes, as tags of kind 'supersedes' (superseded memories are left out
of reads by default).

7: session start's candidates are read from indexes alone (type and importance beside
kind and date; an index of important observations); the project commit a memory was
written at (for staleness, without reading its file); a summary's sections are searched
(and held) as its facts.

6: the words inside CamelCase identifiers are indexed beside the text.

5: curated notes (MEMORY.md, notes/**/*.md) by section, in notes and notes_fts.

4: created and updated always have four-digit years and name days that exist."""
# How memories_fts splits text into tokens: (tokenizer, its arguments).
TOKENIZER = ("porter", ["unicode61", "remove_diacritics", "2"])
# bm25 weights, in the column order of memories_fts.
WEIGHTS = {"title": 10.0, "facts": 5.0, "concepts": 3.0, "files": 3.0, "narrative": 1.0}
# bm25 weights, in the column order of notes_fts.
NOTE_WEIGHTS = {"heading": 5.0, "text": 1.0}

# ------------------------------------------------------------------ tables

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
    narrative TEXT NOT NULL,
    project_commit TEXT,
    exact TEXT
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
CREATE TABLE notes(
    rowid INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    heading TEXT NOT NULL,
    line INTEGER NOT NULL,
    text TEXT NOT NULL,
    digest TEXT NOT NULL
);
CREATE VIRTUAL TABLE notes_fts USING fts5(
    heading, text,
    content='', contentless_delete=1,
    tokenize='porter unicode61 remove_diacritics 2'
);
"""
# Built after a bulk load: one sort at the end beats keeping them ordered row by row.
SCHEMA_INDEXES = """
CREATE INDEX memories_by_created ON memories(created, id);
CREATE INDEX memories_by_key ON memories(key) WHERE key IS NOT NULL;
CREATE INDEX memories_by_kind ON memories(kind, created, id, type, importance);
CREATE INDEX memories_by_importance ON memories(importance, created, id, kind, type)
    WHERE importance IS NOT NULL;
CREATE INDEX memories_by_exact ON memories(exact) WHERE exact IS NOT NULL;
CREATE INDEX tags_by_value ON tags(kind, value);
CREATE INDEX tags_by_memory ON tags(memory);
CREATE INDEX notes_by_path ON notes(path);
"""
SCHEMA = SCHEMA_TABLES + SCHEMA_INDEXES
DROP_ALL = """
DROP TABLE IF EXISTS notes_fts;
DROP TABLE IF EXISTS notes;
DROP TABLE IF EXISTS memories_fts;
DROP TABLE IF EXISTS tags;
DROP TABLE IF EXISTS memories;
DROP TABLE IF EXISTS meta;
"""

# ------------------------------------------------------------------ writes

GET_META = "SELECT value FROM meta WHERE name = ?"
SET_META = "INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)"
INSERT_MEMORY = """
INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT(id) DO NOTHING
"""
INSERT_TAG = "INSERT INTO tags(memory, kind, value) VALUES (?, ?, ?)"
BULK_MEMORY = "INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
INSERT_FTS = """
INSERT INTO memories_fts(rowid, title, facts, concepts, files, narrative)
VALUES (?, ?, ?, ?, ?, ?)
"""
ROWID_BY_PATH = "SELECT rowid, id FROM memories WHERE path = ?"
PATH_BY_ID = "SELECT path FROM memories WHERE id = ?"
DELETE_FTS = "DELETE FROM memories_fts WHERE rowid = ?"
DELETE_TAGS = "DELETE FROM tags WHERE memory = ?"
DELETE_MEMORY = "DELETE FROM memories WHERE rowid = ?"

INSERT_NOTE = "INSERT INTO notes(path, heading, line, text, digest) VALUES (?, ?, ?, ?, ?)"
INSERT_NOTE_FTS = "INSERT INTO notes_fts(rowid, heading, text) VALUES (?, ?, ?)"
NOTE_ROWIDS_BY_PATH = "SELECT rowid FROM notes WHERE path = ?"
DELETE_NOTE_FTS = "DELETE FROM notes_fts WHERE rowid = ?"
DELETE_NOTE = "DELETE FROM notes WHERE rowid = ?"

# ------------------------------------------------------------------- reads

# Named, so that rows are read by column name (entries.EntryColumns), not position.
ENTRY_COLUMNS = ", ".join(
    f"m.{name} AS {name}"
    for name in (
        "id",
        "kind",
        "type",
        "title",
        "created",
        "updated",
        "key",
        "importance",
        "session",
        "path",
        "concepts",
        "files",
        "facts",
    )
)
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
    "current": "NOT EXISTS (SELECT 1 FROM tags s WHERE s.kind = 'supersedes' AND s.value = m.id)",
}
# Not superseded by a memory in the store, unless :superseded (session start's candidates).
CURRENT = """(:superseded OR NOT EXISTS (
    SELECT 1 FROM tags s WHERE s.kind = 'supersedes' AND s.value = m.id))"""
BM25 = "bm25(memories_fts, {})".format(", ".join(str(w) for w in WEIGHTS.values()))
# Ranking reads only the full-text index; the join reads each hit's columns. Joining
# every match before sorting doubles the cost of a word found in most memories, so the
# best matches are ranked alone first and joined after (see ranking.RankingQueries._ranked).
RANK_FTS = f"""
SELECT rowid, {BM25} FROM memories_fts WHERE memories_fts MATCH :match AND rowid >= :floor
ORDER BY 2 LIMIT :window
"""
# The row number of a query's ``:newest``-th newest match and of the one before it: the
# second row says there are more matches than that (walked without reading positions).
NEWEST_MATCHES_FROM = """
SELECT rowid FROM memories_fts WHERE memories_fts MATCH :match
ORDER BY rowid DESC LIMIT 2 OFFSET :newest - 1
"""
ENTRIES_BY_ROWID = f"""
SELECT {ENTRY_COLUMNS}, NULL AS score, m.rowid AS rowid FROM memories m
WHERE m.rowid IN (SELECT value FROM json_each(:rowids)) {{filters}}
"""
SEARCH_FTS = f"""
SELECT {ENTRY_COLUMNS}, -{BM25} AS score
FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
WHERE memories_fts MATCH :match AND memories_fts.rowid >= :floor {{filters}}
ORDER BY {BM25}, m.created DESC, m.id DESC
LIMIT :limit
"""
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
# Session start's candidates: only what scores them (the chosen are read whole after).
STANDING_COLUMNS = "m.id, m.type, m.created, m.importance"
NEWEST = f"""
SELECT {STANDING_COLUMNS} FROM memories m
WHERE m.kind = 'observation' AND (:types IS NULL OR m.type IN (SELECT value FROM json_each(:types)))
  AND {CURRENT}
ORDER BY m.created DESC, m.id DESC
LIMIT :limit
"""
# "+m.kind": the importance index, not the kind one (every observation has that kind).
IMPORTANT = f"""
SELECT {STANDING_COLUMNS} FROM memories m
WHERE m.importance IS NOT NULL AND m.importance >= :floor AND +m.kind = 'observation'
  AND {CURRENT}
ORDER BY m.importance DESC, m.created DESC, m.id DESC
LIMIT :limit
"""
# Observations naming one of :files (or a folder holding one) or one of :words as a concept,
# with whether a file matched (else only a concept did). The latest indexed first (row
# numbers grow as memories are added, and a rebuild adds them in date order): chosen from
# the tags alone, so that only those are read from the memories.
TOUCHING = f"""
WITH touched(memory, by_file) AS (
    SELECT memory, 1 FROM tags
    WHERE kind = 'file' AND value IN (SELECT value FROM json_each(:files))
    UNION ALL
    SELECT memory, 0 FROM tags
    WHERE kind = 'concept' AND value IN (SELECT value FROM json_each(:words))
),
latest(memory, by_file) AS (
    SELECT memory, max(by_file) FROM touched GROUP BY memory ORDER BY memory DESC LIMIT :limit
)
SELECT {STANDING_COLUMNS}, l.by_file
FROM latest l CROSS JOIN memories m ON m.rowid = l.memory
WHERE +m.kind = 'observation' AND {CURRENT}
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
ENTRIES_BY_ID = f"""
SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m
WHERE m.id IN (SELECT value FROM json_each(:ids)) {{filters}}
"""
BY_ID = f"SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m WHERE m.id = ?"
BY_KEY = f"SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m WHERE m.key = ? LIMIT 2"
ALL_BY_KEY = f"SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m WHERE m.key = ?"
BY_PREFIX = f"""
SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m
WHERE m.id >= :low AND m.id < :high ORDER BY m.id LIMIT 6
"""
BY_EXACT = f"""
SELECT {ENTRY_COLUMNS}, NULL AS score FROM memories m
WHERE m.exact = :exact AND {CURRENT} ORDER BY m.created, m.id LIMIT 1
"""
# Supersedes: what a memory replaces (its tags), and what replaces it.
REPLACED_BY = """
SELECT t.value FROM tags t JOIN memories m ON m.rowid = t.memory
WHERE m.id = ? AND t.kind = 'supersedes'
"""
REPLACING = """
SELECT m.id FROM tags t JOIN memories m ON m.rowid = t.memory
WHERE t.kind = 'supersedes' AND t.value = ? ORDER BY m.created, m.id
"""
# The guards of the memories no memory supersedes (the guard table's rows).
ACTIVE_GUARDS = """
SELECT m.id, m.title, m.narrative, m.facts, t.value
FROM tags t JOIN memories m ON m.rowid = t.memory
WHERE t.kind = 'guard' AND NOT EXISTS (
    SELECT 1 FROM tags s WHERE s.kind = 'supersedes' AND s.value = m.id)
ORDER BY m.created, m.id
"""
OBSERVATION_TEXTS = f"""
SELECT m.id, m.type, m.title, m.facts, m.narrative FROM memories m
WHERE m.kind = 'observation' AND {CURRENT}
"""
# Supersede loops (memcli.core.loops): their tags are of another kind, which no read filters by.
LOOP_KIND = "supersedes-loop"
SUPERSEDE_EDGES = f"""
SELECT m.id, t.value, t.kind FROM tags t JOIN memories m ON m.rowid = t.memory
WHERE t.kind IN ('supersedes', '{LOOP_KIND}')
"""
SET_SUPERSEDE_KIND = """
UPDATE tags SET kind = :new WHERE kind = :old AND value = :value
AND memory = (SELECT rowid FROM memories WHERE id = :id)
"""
ANY_SUPERSEDED = "SELECT 1 FROM tags WHERE kind = 'supersedes' LIMIT 1"
COUNT_CURRENT = """
SELECT count(*) FROM memories m
WHERE NOT EXISTS (SELECT 1 FROM tags s WHERE s.kind = 'supersedes' AND s.value = m.id)
"""
TEXTS = "SELECT id, narrative FROM memories WHERE id IN (SELECT value FROM json_each(?))"
COMMITS = """
SELECT id, project_commit FROM memories
WHERE id IN (SELECT value FROM json_each(?)) AND project_commit IS NOT NULL
"""
# What search counts a memory's words in: its searched fields, in one piece.
SEARCHED_TEXT = """
SELECT id, title || char(10) || facts || char(10) || concepts || char(10) || files
    || char(10) || narrative
FROM memories WHERE id IN (SELECT value FROM json_each(?))
"""
SEARCHED_TEXTS = """
SELECT id, title, facts, concepts, files, narrative FROM memories
WHERE id IN (SELECT value FROM json_each(?))
"""
# Whether a term is in more than :limit memories, without counting them all.
MATCHES_UP_TO = """
SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH :match LIMIT :limit)
"""
# How many memories hold a token: the full-text index's own counts, read through a
# temporary fts5vocab view of it (made once a connection; nothing is stored).
VOCABULARY = """
CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_vocab USING fts5vocab(main, memories_fts, row)
"""
HOLDING_TOKEN = "SELECT doc FROM temp.memories_vocab WHERE term = ?"
HOLDING_PREFIX = (
    "SELECT coalesce(sum(doc), 0) FROM temp.memories_vocab WHERE term >= :low AND term < :high"
)
LAST_ROWID = "SELECT coalesce(max(rowid), 0) FROM memories"
COUNT = "SELECT count(*) FROM memories"
ALL_DIGESTS = "SELECT path, digest FROM memories"
IDS_AND_KEYS = "SELECT id, key FROM memories"
NOTE_BM25 = "bm25(notes_fts, {})".format(", ".join(str(w) for w in NOTE_WEIGHTS.values()))
SEARCH_NOTES = f"""
SELECT n.path, n.heading, n.line, n.text, -{NOTE_BM25} AS score
FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid
WHERE notes_fts MATCH :match
ORDER BY {NOTE_BM25}, n.path, n.line
LIMIT :limit
"""
MATCHING_NOTES = """
SELECT n.path, n.line FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid
WHERE notes_fts MATCH :match AND n.path IN (SELECT value FROM json_each(:paths))
"""
NOTE_COUNT = "SELECT count(*) FROM notes"
NOTE_DIGESTS = "SELECT DISTINCT path, digest FROM notes"

# -------------------------------------------------------------------- rows

MemoryRows = tuple[tuple[Any, ...], list[tuple[Any, ...]], tuple[Any, ...]]
_to_json = json.JSONEncoder(ensure_ascii=False).encode


def memory_rows(rowid: int | None, path: str, record: Record, digest: str) -> MemoryRows:
    """A memory's row, its tag rows, and what the full-text index searches.

    In the column order of ``memories``, ``tags`` and ``memories_fts`` above. A
    summary's sections (request, learned, ...) are held and searched as its facts.
    """
    facts = searched_facts(record)
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
        _to_json(facts),
        record.narrative,
        getattr(record, "project_commit", None),
        exact_key(record.type, record.title, record.narrative, facts)
        if record.kind == "observation"
        else None,
    )
    tags = [(rowid, "concept", c) for c in record.concepts]
    tags += [(rowid, "file", f) for f in record.files]
    tags += [(rowid, "supersedes", old) for old in record.supersedes]
    tags += [(rowid, "guard", _to_json(list(guard))) for guard in record.guards]
    text = (
        rowid,
        searchable(record.title),
        searchable("\n".join(facts)),
        searchable(" ".join(record.concepts)),
        searchable(" ".join(record.files)),
        searchable(record.narrative),
    )
    return memory, tags, text


def searched_facts(record: Record) -> list[str]:
    """An observation's facts; a summary's filled-in sections, in their order."""
    sections = getattr(record, "sections", None)
    if record.kind == "summary" and callable(sections):
        return [str(value) for value in sections().values()]
    return list(record.facts)


def searchable(text: str) -> str:
    """What the full-text index stores of a field: the text, and the words inside its
    CamelCase identifiers (``UniqueViolation`` is also ``Unique Violation``)."""
    words = identifier_words(text)
    return f"{text}\n{words}" if words else text
