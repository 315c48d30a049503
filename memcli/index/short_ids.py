"""How long a short id is: one length for a whole store, the shortest that is unique.

Every memory of a store is shown with the same number of id characters: at
least ``SHORT_ID_CHARS``, and one more than the longest prefix two ids share.
So the ids of a listing line up, and a memory's short id stays what it was
until a new id makes the whole store's longer (git's abbreviations grow alike).

The length is kept in the index's meta table, set on each refresh: counted
over every id after a rebuild, a removal or a large change (one ordered scan of
the id index), else grown by the neighbours of the ids that came in. Layers read
together also compare the ids of each layer with the others' (one query per
pair of layers, the smaller layer's ids probed in the other's index), once for
each state of the layers: the result is kept in the nearest layer's meta table,
beside the commit and length of every layer it was counted for.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from memcli.core.schema import SHORT_ID_CHARS
from memcli.index.errors import translating_errors
from memcli.index.schema import GET_META, SET_META

if TYPE_CHECKING:
    import apsw

    from memcli.index.db import Index
    from memcli.index.refresh import RefreshReport

META = "short_id_chars"
"""The meta row holding the store's short id length."""
LAYERED_META = "short_id_chars_layers"
"""The meta row (in the nearest layer's index) holding the length of layers read together:
the state of the layers it was counted for, then the length."""
SCAN_OVER = 1000
"""Past this many changed ids a refresh counts every id again rather than probing each."""
ALL_IDS = "SELECT id FROM memories ORDER BY id"
LAST_ROWID = "SELECT max(rowid) FROM memories"
HAS_ID = "SELECT 1 FROM memories WHERE id = ?"
NEIGHBOURS = """
SELECT (SELECT id FROM memories WHERE id < ?1 ORDER BY id DESC LIMIT 1),
       (SELECT id FROM memories WHERE id > ?1 ORDER BY id LIMIT 1)
"""
SHARING = """
SELECT j.value, m.id FROM json_each(?1) AS j
JOIN memories AS m ON m.id >= substr(j.value, 1, ?2) AND m.id < substr(j.value, 1, ?2) || '~'
"""
"""Pairs (an id given, an id of this index) alike in their first ?2 characters."""


def unique_length(ids: Iterable[str], floor: int = SHORT_ID_CHARS) -> int:
    """The shortest length, at least ``floor``, at which sorted ``ids`` all differ."""
    need, before = floor, ""
    for identity in ids:
        if before[:need] == identity[:need]:  # rarely: most neighbours differ sooner
            need = max(need, _shared(before, identity) + 1)
        before = identity
    return need


def short_id_meta(db: apsw.Connection, report: RefreshReport) -> tuple[str, str]:
    """The meta row of the store's length after the refresh ``report`` tells of."""
    return META, str(refreshed_length(db, report.ids, rebuilt=report.rebuilt))


def refreshed_length(db: apsw.Connection, changed: set[str], *, rebuilt: bool) -> int:
    """The store's length after a refresh that added or removed ``changed``."""
    known = kept_length(db)
    if rebuilt or known is None or len(changed) > SCAN_OVER:
        return counted_length(db)
    present = [i for i in changed if next(iter(db.execute(HAS_ID, (i,))), None) is not None]
    if len(present) < len(changed):  # a memory left: the length may shrink
        return counted_length(db)
    need = known
    for identity in present:
        for other in next(iter(db.execute(NEIGHBOURS, (identity,)))):
            if other is not None:
                need = max(need, _shared(identity, other) + 1)
    return need


def counted_length(db: apsw.Connection) -> int:
    """The length counted over every id of the index (one ordered scan)."""
    return unique_length(str(identity) for (identity,) in db.execute(ALL_IDS))


def kept_length(db: apsw.Connection) -> int | None:
    """The length the last refresh kept, or None (an index an older mem built)."""
    for (value,) in db.execute(GET_META, (META,)):
        return int(value)
    return None


def keep_counted_length(db: apsw.Connection) -> None:
    """Keep the length of an index without it (one an older mem built), so that reads do
    not count it again; an index that cannot be written now is left as it is."""
    if kept_length(db) is None:
        _keep(db, META, str(counted_length(db)))


def stored_length(db: apsw.Connection) -> int:
    """The store's length: as kept, else counted now."""
    kept = kept_length(db)
    return kept if kept is not None else counted_length(db)


@translating_errors
def layered_length(layers: Sequence[Index]) -> int:
    """The length for layers read together: each layer's, or more where two layers' ids meet.

    Counted when a layer changed since it was last kept, else read from the nearest layer.
    """
    own = [index.short_id_chars() for index in layers]
    if len(layers) == 1:
        return own[0]
    state = _layers_state(layers, own)
    home = layers[0].db
    for (value,) in home.execute(GET_META, (LAYERED_META,)):
        kept_state, _, length = str(value).partition(" ")
        if kept_state == state and length.isdigit():
            return int(length)
    need = counted_layered_length(layers, max(own))
    _keep(home, LAYERED_META, f"{state} {need}")
    return need


@translating_errors
def length_among(layers: Sequence[Index], ids: Iterable[str]) -> int:
    """The length at which each of ``ids`` differs from every other id of ``layers``: the
    layers' own lengths, or more where an id's neighbour in one shares more. Asked of the
    ids given only (two lookups each in each layer), and nothing is written: for many
    stores read together once (``--all-projects``)."""
    need = max([index.short_id_chars() for index in layers], default=SHORT_ID_CHARS)
    for identity in ids:
        for index in layers:
            for other in next(iter(index.db.execute(NEIGHBOURS, (identity,)))):
                if other is not None and other != identity:
                    need = max(need, _shared(identity, other) + 1)
    return need


def _layers_state(layers: Sequence[Index], lengths: list[int]) -> str:
    """What the layers' ids depend on: each index's file and the commit it reflects."""
    parts = sorted(
        f"{index.path}\n{index.indexed_commit()}\n{n}"
        for index, n in zip(layers, lengths, strict=True)
    )
    return hashlib.sha256("\n\n".join(parts).encode()).hexdigest()[:32]


def _keep(db: apsw.Connection, name: str, value: str) -> None:
    """Keep a meta row when the index can be written; else the next read counts again."""
    import apsw

    try:
        db.execute(SET_META, (name, value))
    except (apsw.BusyError, apsw.ReadOnlyError):
        pass


def counted_layered_length(layers: Sequence[Index], need: int) -> int:
    """``need``, or more where two layers' ids meet: of each pair of layers, the smaller
    one's ids looked up in the other's index."""
    sizes = [_size(index.db) for index in layers]
    listed: dict[int, str] = {}
    for pair in combinations(range(len(layers)), 2):
        small, big = sorted(pair, key=lambda n: sizes[n])
        if small not in listed:
            listed[small] = json.dumps([i for (i,) in layers[small].db.execute(ALL_IDS)])
        for given, other in layers[big].db.execute(SHARING, (listed[small], need)):
            if given != other:  # one id in two layers: no prefix tells them apart
                need = max(need, _shared(given, other) + 1)
    return need


def _size(db: apsw.Connection) -> int:
    """About how many memories the index holds (at least as many rows were ever added)."""
    return int(next(iter(db.execute(LAST_ROWID)))[0] or 0)


def _shared(a: str, b: str) -> int:
    """How many leading characters ``a`` and ``b`` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
