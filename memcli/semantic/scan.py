"""An ONNX model's nearest memories: the codes scanned, then the exact cosine in numpy.

An ONNX model loads numpy anyway, so its search ranks with it: the ``window``
codes nearest the query's by Hamming distance (ties: the lower rowid), then the
exact cosine of the query with each of their vectors, best first (ties: the
lower memory id). The first step is SQL's scan (``vectors.nearest_codes``) in a
process that searches once; a warm worker (``hold_codes``) keeps every code in
one array and scans it in numpy, a third of SQL's time at 100k memories. The
Hamming distance is a whole number and both break its ties alike, so the worker
and a process of its own pick the same candidates and give the same answer.
A static model's search stays in SQL and pure Python (``search.SemanticSearch``):
a hook without a worker must not pay numpy's import.
"""

from __future__ import annotations

import functools
import threading
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


_held: dict[str, HeldCodes] = {}
_holding = False
_lock = threading.Lock()


def hold_codes() -> None:
    """Keep each index's codes in memory from now on (``mem serve`` calls this once; numpy
    is imported at the first search of an ONNX model, not here)."""
    global _holding
    _holding = True


def nearest_codes(index: Index, code: bytes, window: int) -> list[int]:
    """The rowids of the ``window`` codes nearest ``code`` (ties: the lower rowid first)."""
    if not _holding or index.path == ":memory:":
        return vectors.nearest_codes(index.db, code, window)
    return held_nearest_codes(index, code, window)


def held_nearest_codes(index: Index, code: bytes, window: int) -> list[int]:
    """``nearest_codes`` from the codes held in memory (read again when they changed)."""
    import numpy as np

    held = _codes(index)
    if not len(held.rowids):
        return []
    distance = hamming(held.codes, np.frombuffer(code, dtype=np.uint8))
    if window < len(distance):
        # Those under the window's distance, then the lowest rowids of those at it.
        edge = np.partition(distance, window - 1)[window - 1]
        under = np.flatnonzero(distance < edge)
        at = np.flatnonzero(distance == edge)[: window - len(under)]
        chosen = np.concatenate([under, at])
    else:
        chosen = np.arange(len(distance))
    order = np.lexsort((held.rowids[chosen], distance[chosen]))
    return [int(rowid) for rowid in held.rowids[chosen[order]]]


def ranked(unit: list[float], found: list[tuple[str, bytes]]) -> list[tuple[str, float]]:
    """(memory id, cosine of ``unit`` with its int8 vector), best first, ties by id."""
    import numpy as np

    if not found:
        return []
    matrix = np.frombuffer(b"".join(vec for _, vec in found), dtype=np.int8)
    matrix = matrix.reshape(len(found), -1).astype(np.float64)
    norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))
    dots = matrix @ np.asarray(unit, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        cosines = np.where(norms > 0, np.clip(dots / norms, -1.0, 1.0), 0.0)
    scored = [(ident, float(value)) for (ident, _), value in zip(found, cosines, strict=True)]
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored


def hamming(codes: NDArray[np.uint8], query: NDArray[np.uint8]) -> NDArray[np.int64]:
    """The Hamming distance of each code (a row) to ``query``."""
    import numpy as np

    count_bits = getattr(np, "bitwise_count", None)  # numpy 2
    if count_bits is None:
        return _popcount()[codes ^ query].sum(axis=1, dtype=np.int64)  # type: ignore[no-any-return]
    if codes.shape[1] % 8 == 0:  # 64 bits at a time: a third of the time of bytes
        codes, query = codes.view(np.uint64), query.view(np.uint64)
    return count_bits(codes ^ query).sum(axis=1, dtype=np.int64)  # type: ignore[no-any-return]


@functools.cache
def _popcount() -> NDArray[np.uint16]:
    """Set bits of each byte value (numpy before 2.0 has no ``bitwise_count``)."""
    import numpy as np

    return np.array([bin(byte).count("1") for byte in range(256)], dtype=np.uint16)


def _codes(index: Index) -> HeldCodes:
    """The index's codes, held; checked against the database only when it changed since this
    connection last looked (SQLite's data version and the connection's own changes)."""
    import numpy as np

    db = index.db
    mark = (next(iter(db.execute("PRAGMA data_version")))[0], db.total_changes())
    held = _held.get(index.path)
    if held is not None and getattr(index, "_codes_mark", None) == (mark, held.state):
        return held
    state = vectors.codes_state(db)
    if held is None or held.state != state:
        rows = list(vectors.all_codes(db))
        width = len(rows[0][1]) if rows else 0
        codes = np.frombuffer(b"".join(code for _, code in rows), dtype=np.uint8)
        held = HeldCodes(
            state,
            np.fromiter((rowid for rowid, _ in rows), dtype=np.int64, count=len(rows)),
            codes.reshape(len(rows), width),
        )
        with _lock:
            _held[index.path] = held
    index._codes_mark = (mark, state)  # type: ignore[attr-defined]
    return held
