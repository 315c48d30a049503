"""An ONNX model's nearest memories: the codes scanned, then the exact cosine in numpy.

An ONNX model loads numpy anyway, so its search ranks with it: the ``window``
codes nearest the query's by Hamming distance (ties: the lower rowid), then the
exact cosine of the query with each of their vectors; the memory ids are read
only for the best vectors, as many as the search asks for (ties: the lower
memory id). A process that searches once reads the codes' scan from SQL
(``vectors.nearest_codes``) and the vectors it picked; a warm worker
(``hold_codes``) keeps every code and vector in memory (100k memories of 384
dimensions: 48 MB, and as much again for a moment while they are read anew).
After a change (a save), reading them all again takes a fifth of a second at
100k: a thread of its own does it while the searches meanwhile go the SQL way.
The Hamming distance is a whole number and both break its ties alike, and both
take the cosine of the same vectors in the same order (the picked ones, nearest
first), so the worker and a process of its own give the same answer, to the
last bit.
A static model's search stays in SQL and pure Python (``search.SemanticSearch``):
a hook without a worker must not pay numpy's import.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from memcli.index import vectors

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from memcli.index import Index


class HeldCodes(NamedTuple):
    state: tuple[Any, ...]
    """``vectors.codes_state`` when they were read: another state, another read."""
    rowids: NDArray[np.int64]
    """Ascending."""
    codes: NDArray[np.uint8]
    columns: NDArray[np.uint64] | None
    """The codes as 64-bit words, a row per word (``word_columns``), when they are whole
    words and numpy counts bits."""
    vectors: NDArray[np.int8]
    """Each code's int8 vector, in the same rows (zeros where the vector is gone)."""
    present: NDArray[np.bool_]
    """Whether each row's vector is there."""


_held: dict[str, HeldCodes] = {}
_reading: set[str] = set()
"""Paths whose codes a thread is reading again."""
_holding = False
_lock = threading.Lock()


def hold_codes() -> None:
    """Keep each index's codes and vectors in memory from now on (``mem serve`` calls this
    once; numpy is imported at the first search of an ONNX model, not here)."""
    global _holding
    _holding = True


def nearest(
    index: Index, unit: list[float], code: bytes, window: int, limit: int
) -> list[tuple[str, float]]:
    """The ``limit`` best (memory id, cosine with ``unit``) of the memories whose vectors'
    codes are the ``window`` nearest ``code``, best first (ties: the lower id)."""
    held = _held_now(index)
    if held is None:
        rowids = vectors.nearest_codes(index.db, code, window)
        vec_of = dict(vectors.vectors_by_rowid(index.db, rowids))
        kept = [rowid for rowid in rowids if rowid in vec_of]
        matrix = _int8_matrix([vec_of[rowid] for rowid in kept])
    else:
        positions = _nearest_positions(held, code, window)
        positions = positions[held.present[positions]]
        kept = [int(rowid) for rowid in held.rowids[positions]]
        matrix = held.vectors[positions]
    values = cosines(matrix, unit).tolist()
    return best(kept, values, limit, lambda rowids: vectors.ids_of_vectors(index.db, rowids))


def best(
    kept: list[int],
    values: list[float],
    limit: int,
    ids_of: Callable[[list[int]], list[tuple[str, int]]],
) -> list[tuple[str, float]]:
    """The ``limit`` best (memory id, cosine) of the vectors ``kept`` (cosines: ``values``;
    ``ids_of``: the memories of some vectors): ids are read for the best vectors only, as
    many as give ``limit`` memories, and every vector as close as the last of those, so that
    ties are broken by id as among them all."""
    order = sorted(range(len(kept)), key=lambda i: -values[i])
    found: list[tuple[str, float]] = []
    start = 0
    while start < len(order) and len(found) < limit:
        end = start + limit - len(found)
        while end < len(order) and values[order[end]] == values[order[end - 1]]:
            end += 1
        cosine = {kept[i]: values[i] for i in order[start:end]}
        found += [(ident, cosine[v]) for ident, v in ids_of(list(cosine))]
        start = end
    found.sort(key=lambda pair: (-pair[1], pair[0]))
    return found[:limit]


def _held_now(index: Index) -> HeldCodes | None:
    """What a search reads from memory: the held codes and vectors when they are current;
    the first time, read now; after a change, None (SQL answers) while a thread reads
    them again, so that the search after a save does not wait for 100k rows."""
    if not _holding or index.path == ":memory:":
        return None
    if index.path not in _held:
        return _codes(index)
    held = _current(index)
    if held is None:
        _read_later(index.path)
    return held


def held_nearest_codes(index: Index, code: bytes, window: int) -> list[int]:
    """``vectors.nearest_codes`` from the codes held in memory (read again when they changed)."""
    held = _codes(index)
    return [int(rowid) for rowid in held.rowids[_nearest_positions(held, code, window)]]


def _nearest_positions(held: HeldCodes, code: bytes, window: int) -> NDArray[np.intp]:
    """The rows of the ``window`` held codes nearest ``code``, nearest first (ties: the lower
    rowid)."""
    import numpy as np

    if not len(held.rowids):
        return np.zeros(0, dtype=np.intp)
    query = np.frombuffer(code, dtype=np.uint8)
    if held.columns is not None:
        distance = hamming_columns(held.columns, query)
    else:
        distance = hamming(held.codes, query)
    if window < len(distance):
        # Those under the window's distance, then the lowest rowids of those at it.
        edge = np.partition(distance, window - 1)[window - 1]
        under = np.flatnonzero(distance < edge)
        at = np.flatnonzero(distance == edge)[: window - len(under)]
        chosen = np.concatenate([under, at])
    else:
        chosen = np.arange(len(distance))
    order = np.lexsort((held.rowids[chosen], distance[chosen]))
    return chosen[order]


def ranked(unit: list[float], found: list[tuple[str, bytes]]) -> list[tuple[str, float]]:
    """(memory id, cosine of ``unit`` with its int8 vector), best first, ties by id."""
    values = cosines(_int8_matrix([vec for _, vec in found]), unit).tolist()
    scored = [(ident, value) for (ident, _), value in zip(found, values, strict=True)]
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored


def cosines(matrix: NDArray[np.int8], unit: list[float]) -> NDArray[np.float64]:
    """The cosine of ``unit`` (a unit vector) with each row (0 for a row of zeros)."""
    import numpy as np

    if not len(matrix):
        return np.zeros(0)
    rows = matrix.astype(np.float64)
    norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))
    dots = rows @ np.asarray(unit, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(norms > 0, np.clip(dots / norms, -1.0, 1.0), 0.0)


def _held_vectors(found: list[bytes | None], dims: int) -> NDArray[np.int8]:
    import numpy as np

    if not dims:
        return np.zeros((len(found), 0), dtype=np.int8)
    return _int8_matrix([vec or bytes(dims) for vec in found])


def _int8_matrix(blobs: list[bytes]) -> NDArray[np.int8]:
    import numpy as np

    if not blobs:
        return np.zeros((0, 0), dtype=np.int8)
    return np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(len(blobs), -1)


def hamming(codes: NDArray[np.uint8], query: NDArray[np.uint8]) -> NDArray[np.int64]:
    """The Hamming distance of each code (a row) to ``query``."""
    import numpy as np

    count_bits = getattr(np, "bitwise_count", None)  # numpy 2
    if count_bits is None:
        return _popcount()[codes ^ query].sum(axis=1, dtype=np.int64)  # type: ignore[no-any-return]
    return count_bits(codes ^ query).sum(axis=1, dtype=np.int64)  # type: ignore[no-any-return]


def word_columns(codes: NDArray[np.uint8]) -> NDArray[np.uint64] | None:
    """The codes (a row each) as 64-bit words, a row per word: XOR and bit counts then run
    over long rows, four times faster than over the codes' short ones. None when a code is
    not whole words or numpy (before 2.0) cannot count bits."""
    import numpy as np

    if not hasattr(np, "bitwise_count") or codes.shape[1] % 8:
        return None
    return np.ascontiguousarray(codes.view(np.uint64).T)


def hamming_columns(columns: NDArray[np.uint64], query: NDArray[np.uint8]) -> NDArray[np.int64]:
    """``hamming`` of the codes ``word_columns`` made."""
    import numpy as np

    words = query.view(np.uint64)[:, np.newaxis]
    return np.bitwise_count(columns ^ words).sum(axis=0, dtype=np.int64)  # type: ignore[no-any-return]


@functools.cache
def _popcount() -> NDArray[np.uint16]:
    """Set bits of each byte value (numpy before 2.0 has no ``bitwise_count``)."""
    import numpy as np

    return np.array([bin(byte).count("1") for byte in range(256)], dtype=np.uint16)


def _codes(index: Index) -> HeldCodes:
    """The index's codes and vectors, held, read now if they changed."""
    held = _current(index)
    if held is None:
        held = _read_held(index.db)
        with _lock:
            _held[index.path] = held
        _mark(index, held)
    return held


def _current(index: Index) -> HeldCodes | None:
    """The held codes and vectors if they are the database's now, else None; checked
    against the database only when it changed since this connection last looked (SQLite's
    data version and the connection's own changes)."""
    held = _held.get(index.path)
    if held is None:
        return None
    if getattr(index, "_codes_mark", None) == (_change_mark(index), held.state):
        return held
    if vectors.codes_state(index.db) != held.state:
        return None
    _mark(index, held)
    return held


def _change_mark(index: Index) -> tuple[Any, int]:
    return next(iter(index.db.execute("PRAGMA data_version")))[0], index.db.total_changes()


def _mark(index: Index, held: HeldCodes) -> None:
    index._codes_mark = (_change_mark(index), held.state)  # type: ignore[attr-defined]


def _read_later(path: str) -> None:
    """Read the codes and vectors of the index at ``path`` again, in a thread of its own
    (with a connection of its own); searches until then read the picked vectors from SQL."""
    with _lock:
        if path in _reading:
            return
        _reading.add(path)
    threading.Thread(target=_read_again, args=(path,), name="mem-hold-codes", daemon=True).start()


def _read_again(path: str) -> None:
    import apsw

    try:
        db = apsw.Connection(path, flags=apsw.SQLITE_OPEN_READONLY)
        try:
            db.set_busy_timeout(5000)
            db.execute("BEGIN")  # the state and the rows of one moment
            held = _read_held(db)
            db.execute("COMMIT")
        finally:
            db.close()
        with _lock:
            _held[path] = held
    except Exception:  # a thread's failure would reach no one: the next search reads them
        with _lock:
            _held.pop(path, None)
    finally:
        with _lock:
            _reading.discard(path)


def _read_held(db: Any) -> HeldCodes:
    import numpy as np

    state = vectors.codes_state(db)
    rows = list(vectors.all_codes_and_vectors(db))
    width = len(rows[0][1]) if rows else 0
    dims = max((len(vec) for _, _, vec in rows if vec is not None), default=0)
    codes = np.frombuffer(b"".join(code for _, code, _ in rows), dtype=np.uint8)
    codes = codes.reshape(len(rows), width)
    return HeldCodes(
        state,
        np.fromiter((rowid for rowid, _, _ in rows), dtype=np.int64, count=len(rows)),
        codes,
        word_columns(codes) if width else None,
        _held_vectors([vec for _, _, vec in rows], dims),
        np.fromiter((vec is not None for _, _, vec in rows), dtype=np.bool_, count=len(rows)),
    )
