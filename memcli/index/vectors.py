"""The semantic tables of the index: memories' vectors, kept apart from the lexical tables.

Embedding 100k memories takes about a minute, so these tables have their own
version (``semantic_meta``), and a lexical schema change or rebuild (which drops
only ``schema.DROP_ALL``'s tables) keeps them.

* ``semantic_vectors``: one row per distinct embedded text, keyed by the text's
  digest, holding the vector as int8 (scaled so its largest value is 127);
* ``semantic_codes``: the sign bit of each dimension, same rowid: the table a
  search scans with sqlite-vec's Hamming distance, small so the scan is fast;
* ``semantic_docs``: memory id -> the vector of its text, with the file digest
  (``memories.digest``) it was computed for: a memory whose file changed is
  looked at again, and one whose text did not is never embedded twice;
* ``semantic_vocab``: the model's WordPiece vocabulary, so a query is tokenized
  by reading only its own words;
* ``semantic_meta``: version, model name and identity, the model files' stamp,
  ``center`` (the mean of the vectors, subtracted before taking sign bits: the
  vectors of one store share a large common part, and bits of what is left tell
  them apart far better), and ``commit``, the index commit the vectors follow:
  equal, nothing to do.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import apsw

SEMANTIC_VERSION = "1"
TABLES = """
CREATE TABLE IF NOT EXISTS semantic_meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS semantic_vectors(
    rowid INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE, vec BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS semantic_codes(rowid INTEGER PRIMARY KEY, code BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS semantic_docs(
    id TEXT PRIMARY KEY, source TEXT NOT NULL, vector INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS semantic_docs_by_vector ON semantic_docs(vector);
CREATE TABLE IF NOT EXISTS semantic_vocab(
    token TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
"""
DROP = """
DROP TABLE IF EXISTS semantic_docs;
DROP TABLE IF EXISTS semantic_codes;
DROP TABLE IF EXISTS semantic_vectors;
DROP TABLE IF EXISTS semantic_vocab;
DROP TABLE IF EXISTS semantic_meta;
"""
CLEAR_VECTORS = """
DELETE FROM semantic_docs;
DELETE FROM semantic_codes;
DELETE FROM semantic_vectors;
"""
READ_META = "SELECT name, value FROM semantic_meta"
SET_META = "INSERT OR REPLACE INTO semantic_meta(name, value) VALUES (?, ?)"
# Memories whose file changed since their vector was made, or that have none: the
# lexical columns of the embedded text come along (read only for these rows).
TO_EMBED = """
SELECT m.id, m.digest FROM memories m LEFT JOIN semantic_docs d ON d.id = m.id
WHERE d.source IS NOT m.digest
"""
TEXTS = """
SELECT id, title, facts, narrative FROM memories WHERE id IN (SELECT value FROM json_each(?))
"""
# The same for the memories one update touched: (id, file digest or NULL when removed,
# the digest its vector is of, that vector).
TOUCHED = """
SELECT j.value, m.digest, d.source, d.vector FROM json_each(?) j
LEFT JOIN memories m ON m.id = j.value LEFT JOIN semantic_docs d ON d.id = j.value
"""
GONE = (
    "SELECT d.id FROM semantic_docs d WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = d.id)"
)
DELETE_DOC = "DELETE FROM semantic_docs WHERE id = ?"
VECTOR_BY_DIGEST = "SELECT rowid FROM semantic_vectors WHERE digest = ?"
INSERT_VECTOR = "INSERT INTO semantic_vectors(digest, vec) VALUES (?, ?)"
INSERT_CODE = "INSERT OR REPLACE INTO semantic_codes(rowid, code) VALUES (?, ?)"
SET_DOC = "INSERT OR REPLACE INTO semantic_docs(id, source, vector) VALUES (?, ?, ?)"
PRUNE_ONE = """
DELETE FROM semantic_vectors
WHERE rowid = :vector AND NOT EXISTS (SELECT 1 FROM semantic_docs WHERE vector = :vector);
DELETE FROM semantic_codes
WHERE rowid = :vector AND NOT EXISTS (SELECT 1 FROM semantic_vectors WHERE rowid = :vector);
"""
PRUNE = """
DELETE FROM semantic_vectors WHERE rowid NOT IN (SELECT vector FROM semantic_docs);
DELETE FROM semantic_codes WHERE rowid NOT IN (SELECT rowid FROM semantic_vectors);
"""
INSERT_VOCAB = "INSERT OR REPLACE INTO semantic_vocab(token, id) VALUES (?, ?)"
VOCAB_ID = "SELECT id FROM semantic_vocab WHERE token = ?"
# The nearest codes by Hamming distance (a plain scan: faster than vec0 here), then the
# best of those by cosine (the query as int8 too), then their memories: the caller
# computes the exact cosine of the few returned.
NEAREST = """
WITH near AS (
    SELECT rowid FROM semantic_codes
    ORDER BY vec_distance_hamming(vec_bit(code), vec_bit(:code)) LIMIT :window
), best AS (
    SELECT near.rowid AS rowid, vec_distance_cosine(vec_int8(v.vec), vec_int8(:vec)) AS distance
    FROM near JOIN semantic_vectors v ON v.rowid = near.rowid
    ORDER BY distance IS NULL, distance LIMIT :limit
)
SELECT d.id, v.vec, best.distance FROM best
JOIN semantic_docs d ON d.vector = best.rowid
JOIN semantic_vectors v ON v.rowid = best.rowid
"""
# An ONNX model's search (memcli.semantic.scan): the nearest codes, ties to the lower
# rowid, so that numpy's scan of the same codes picks the same; then every one's memories.
NEAREST_CODES = """
SELECT rowid FROM semantic_codes
ORDER BY vec_distance_hamming(vec_bit(code), vec_bit(:code)), rowid LIMIT :window
"""
VECTORS_BY_ROWID = """
SELECT rowid, vec FROM semantic_vectors WHERE rowid IN (SELECT value FROM json_each(:rowids))
"""
IDS_OF_VECTORS = """
SELECT d.id, d.vector FROM semantic_docs d WHERE d.vector IN (SELECT value FROM json_each(:rowids))
"""
ALL_CODES_AND_VECTORS = """
SELECT c.rowid, c.code, v.vec
FROM semantic_codes c LEFT JOIN semantic_vectors v ON v.rowid = c.rowid
ORDER BY c.rowid
"""
CODES_STATE = "SELECT count(*), max(rowid) FROM semantic_codes"
ALL_VECTORS = "SELECT rowid, vec FROM semantic_vectors"
VECTORS_OF = """
SELECT d.id, v.vec FROM semantic_docs d JOIN semantic_vectors v ON v.rowid = d.vector
WHERE d.id IN (SELECT value FROM json_each(:ids))
"""
COUNT_DOCS = "SELECT count(*) FROM semantic_docs"
# For `mem reindex --check`: memories without a vector, and vectors of an older file.
MISSING = """
SELECT m.path FROM memories m WHERE NOT EXISTS (SELECT 1 FROM semantic_docs d WHERE d.id = m.id)
ORDER BY m.path
"""
STALE = """
SELECT m.path FROM memories m JOIN semantic_docs d ON d.id = m.id WHERE d.source != m.digest
ORDER BY m.path
"""

Write = Callable[[], AbstractContextManager[None]]


def read_meta(db: apsw.Connection) -> dict[str, str] | None:
    """The semantic settings of this index; None without tables of this version."""
    try:
        meta = {str(name): str(value) for name, value in db.execute(READ_META)}
    except apsw.SQLError:  # no such table
        return None
    return meta if meta.get("version") == SEMANTIC_VERSION else None


def ensure_tables(db: apsw.Connection) -> None:
    """Tables of this version (call inside a write transaction); older ones are dropped."""
    try:
        found = {str(n): str(v) for n, v in db.execute(READ_META)}.get("version")
    except apsw.SQLError:
        found = None
    if found == SEMANTIC_VERSION:
        return
    db.execute(DROP)
    db.execute(TABLES)
    db.execute(SET_META, ("version", SEMANTIC_VERSION))
    codes_changed(db)


def set_meta(db: apsw.Connection, values: dict[str, str]) -> None:
    db.executemany(SET_META, list(values.items()))


def codes_changed(db: apsw.Connection) -> None:
    """Mark the codes as changed (a new random ``codes`` in the meta): a server holding them
    in memory (``memcli.semantic.scan``) reads them again. Random, not counted: tables
    made anew must not repeat an old mark."""
    db.execute(SET_META, ("codes", os.urandom(8).hex()))


def clear(db: apsw.Connection) -> None:
    """Every vector and code gone (another model)."""
    db.execute(CLEAR_VECTORS)
    codes_changed(db)


def replace_vocab(db: apsw.Connection, vocab: dict[str, int]) -> None:
    db.execute("DELETE FROM semantic_vocab")
    db.executemany(INSERT_VOCAB, vocab.items())


def vocab_lookup(db: apsw.Connection) -> Callable[[str], int | None]:
    def lookup(token: str) -> int | None:
        for (ident,) in db.execute(VOCAB_ID, (token,)):
            return int(ident)
        return None

    return lookup


def to_embed(db: apsw.Connection) -> list[tuple[str, str]]:
    """(memory id, file digest) of memories without a vector of their current file."""
    return [(str(ident), str(source)) for ident, source in db.execute(TO_EMBED)]


def texts(db: apsw.Connection, ids: list[str]) -> dict[str, tuple[str, str, str]]:
    """Title, facts (JSON) and narrative of these memories."""
    return {
        str(ident): (str(title), str(facts), str(narrative))
        for ident, title, facts, narrative in db.execute(TEXTS, (json.dumps(ids),))
    }


def touched(
    db: apsw.Connection, ids: list[str]
) -> tuple[list[tuple[str, str]], list[str], list[int]]:
    """Of these memories: those to embed, those gone, and the vectors they had."""
    todo, gone, old = [], [], []
    for ident, digest, source, vector in db.execute(TOUCHED, (json.dumps(ids),)):
        if vector is not None:
            old.append(int(vector))
        if digest is None:
            if source is not None:
                gone.append(str(ident))
        elif digest != source:
            todo.append((str(ident), str(digest)))
    return todo, gone, old


def gone(db: apsw.Connection) -> list[str]:
    return [str(ident) for (ident,) in db.execute(GONE)]


def vector_of_digest(db: apsw.Connection, digest: bytes) -> int | None:
    for (rowid,) in db.execute(VECTOR_BY_DIGEST, (digest,)):
        return int(rowid)
    return None


def store(
    db: apsw.Connection, rows: Iterable[tuple[str, str, bytes, bytes | None, bytes | None]]
) -> None:
    """(id, file digest, text digest, vector, code): a new vector, or None to reuse one."""
    added = False
    for ident, source, digest, vec, code in rows:
        rowid = vector_of_digest(db, digest)
        if rowid is None:
            assert vec is not None and code is not None
            db.execute(INSERT_VECTOR, (digest, vec))
            rowid = db.last_insert_rowid()
            db.execute(INSERT_CODE, (rowid, code))
            added = True
        db.execute(SET_DOC, (ident, source, rowid))
    if added:
        codes_changed(db)


def remove(db: apsw.Connection, ids: Iterable[str]) -> None:
    db.executemany(DELETE_DOC, ((ident,) for ident in ids))


def prune(db: apsw.Connection, old: list[int] | None = None) -> None:
    """Drop vectors no memory uses: these (after an update), or any (a scan)."""
    codes_changed(db)
    if old is None:
        db.execute(PRUNE)
        return
    for vector in old:
        db.execute(PRUNE_ONE, {"vector": vector})


def nearest(
    db: apsw.Connection, code: bytes, vec: bytes, window: int, limit: int
) -> Iterator[tuple[float, str, bytes]]:
    """(int8 cosine distance, memory id, int8 vector) of the ``limit`` nearest by that distance
    among the ``window`` nearest codes (the distance is 2 where it cannot be taken)."""
    arguments = {"code": code, "vec": vec, "window": window, "limit": limit}
    for ident, found, distance in db.execute(NEAREST, arguments):
        yield (2.0 if distance is None else float(distance)), str(ident), bytes(found)


BACKGROUND = "SELECT vec FROM semantic_vectors ORDER BY digest LIMIT ?"


def background(db: apsw.Connection, size: int) -> list[bytes]:
    """A fixed sample of the store's vectors: the first ``size`` by text digest, which
    orders them as if at random (the same sample until the texts change)."""
    return [bytes(vec) for (vec,) in db.execute(BACKGROUND, (size,))]


def nearest_codes(db: apsw.Connection, code: bytes, window: int) -> list[int]:
    """The rowids of the ``window`` codes nearest ``code`` by Hamming distance (ties: the
    lower rowid first)."""
    return [int(rowid) for (rowid,) in db.execute(NEAREST_CODES, {"code": code, "window": window})]


def vectors_by_rowid(db: apsw.Connection, rowids: list[int]) -> list[tuple[int, bytes]]:
    """(rowid, int8 vector) of each of these vectors that is there."""
    found = db.execute(VECTORS_BY_ROWID, {"rowids": json.dumps(rowids)})
    return [(int(rowid), bytes(vec)) for rowid, vec in found]


def ids_of_vectors(db: apsw.Connection, rowids: list[int]) -> list[tuple[str, int]]:
    """(memory id, vector rowid) of every memory whose vector is one of these."""
    found = db.execute(IDS_OF_VECTORS, {"rowids": json.dumps(rowids)})
    return [(str(ident), int(vector)) for ident, vector in found]


def all_codes_and_vectors(db: apsw.Connection) -> Iterator[tuple[int, bytes, bytes | None]]:
    """Every code with its int8 vector (None: the vector is gone), by rowid."""
    for rowid, code, vec in db.execute(ALL_CODES_AND_VECTORS):
        yield int(rowid), bytes(code), None if vec is None else bytes(vec)


def codes_state(db: apsw.Connection) -> tuple[Any, ...]:
    """What changes whenever the codes do: the semantic meta (its ``codes`` mark, set anew
    at every change: ``codes_changed``) and the codes' count and last rowid."""
    meta = read_meta(db) or {}
    for counted, last in db.execute(CODES_STATE):
        return (tuple(sorted(meta.items())), counted, last)
    return (tuple(sorted(meta.items())), 0, None)


def all_vectors(db: apsw.Connection) -> Iterator[tuple[int, bytes]]:
    for rowid, vec in db.execute(ALL_VECTORS):
        yield int(rowid), bytes(vec)


def replace_codes(db: apsw.Connection, codes: Iterable[tuple[int, bytes]]) -> None:
    db.executemany(INSERT_CODE, codes)
    codes_changed(db)


def vectors_of(db: apsw.Connection, ids: list[str]) -> Iterator[tuple[str, bytes]]:
    for ident, vec in db.execute(VECTORS_OF, {"ids": json.dumps(ids)}):
        yield str(ident), bytes(vec)


def count(db: apsw.Connection) -> int:
    for (value,) in db.execute(COUNT_DOCS):
        return int(value)
    return 0


def drift(db: apsw.Connection) -> tuple[list[str], list[str]]:
    """Paths of memories without a vector, and of memories whose vector is of an older file."""
    if read_meta(db) is None:
        return [str(path) for (path,) in db.execute("SELECT path FROM memories ORDER BY path")], []
    return (
        [str(path) for (path,) in db.execute(MISSING)],
        [str(path) for (path,) in db.execute(STALE)],
    )


def meta_json(meta: dict[str, str], name: str) -> Any:
    return json.loads(meta[name])
