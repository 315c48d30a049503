"""What the index answers: ``Entry`` values read from rows by column name, the filters a
read takes, and ``IndexReads``, the base of every read model (``queries.Queries``).

Each statement's columns are looked up once (``EntryColumns``), so a row costs
what reading it by position would.
"""

from __future__ import annotations

import functools
import json
from operator import itemgetter
from typing import Any, NamedTuple

import apsw

from memcli.index.errors import translating_errors
from memcli.index.schema import ANY_SUPERSEDED, FILTER_CONDITIONS, LAST_ROWID


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
    layer: str = "project"
    """The layer whose store holds it: ``user``, ``project`` or ``team`` (``store.layers``)."""
    project: str | None = None
    """The project whose store holds it, when a search read several (``--all-projects``)."""

    def to_json(self, short_id: str | None = None) -> dict[str, Any]:
        from memcli.core.serialize import entry_dict

        return entry_dict(self, short_id)


class Ranking(NamedTuple):
    entries: list[Entry]
    newest_only: bool
    """Only the newest matches were ranked (``Queries.ranking``): older ones were left out."""


_FIELDS = len(Entry._fields) - 2
"""The fields a statement selects (all but ``layer`` and ``project``, which the index knows,
not a row)."""
_CONCEPTS, _FILES, _FACTS, _SCORE = (
    Entry._fields.index(name) for name in ("concepts", "files", "facts", "score")
)
_loads = json.loads
_make = Entry._make


class EntryColumns:
    """Where each field of an ``Entry`` is in the rows of one statement, found by column name."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.position = {name: n for n, name in enumerate(names)}
        positions = tuple(self.position[field] for field in Entry._fields[:_FIELDS])
        # Statements that select the fields first, in order, are read by a slice (the fastest).
        self._pick = None if positions == tuple(range(_FIELDS)) else itemgetter(*positions)

    def entry(
        self,
        row: tuple[Any, ...],
        score: float | None = None,
        layer: str = "project",
        project: str | None = None,
    ) -> Entry:
        """The row as an Entry of ``layer`` (and ``project``); ``score``: instead of the row's
        own."""
        values = list(row[:_FIELDS] if self._pick is None else self._pick(row))
        # concepts, files and facts are JSON arrays
        values[_CONCEPTS] = _loads(values[_CONCEPTS])
        values[_FILES] = _loads(values[_FILES])
        values[_FACTS] = _loads(values[_FACTS])
        if score is not None:
            values[_SCORE] = score
        if values[_SCORE] is not None:  # 4 significant digits: tiny stores give tiny scores
            values[_SCORE] = float(f"{values[_SCORE]:.4g}")
        values.append(layer)
        values.append(project)
        return _make(values)


@functools.lru_cache(maxsize=64)
def _entry_columns(description: tuple[tuple[str, str | None], ...]) -> EntryColumns:
    return EntryColumns(tuple(name for name, _ in description))


def columns_of(cursor: apsw.Cursor) -> EntryColumns | None:
    """How to read the cursor's rows as entries; None when it has no rows."""
    try:
        return _entry_columns(cursor.get_description())
    except apsw.ExecutionCompleteError:
        return None


class Filters(NamedTuple):
    types: tuple[str, ...] = ()
    kind: str | None = None
    """``observation`` or ``summary``; None for both."""
    since: str | None = None
    until: str | None = None
    concepts: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    superseded: bool = False
    """Memories another one supersedes are left out unless this is True."""

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
            "current": None if self.superseded else 1,
        }


NO_FILTERS = Filters()


class SearchResult(NamedTuple):
    entries: list[Entry]
    strategy: str
    """How the entries were found: ``all`` words, ``any`` word, ``substring``, ``raw``."""


class IndexReads:
    """What every read model of an ``Index`` stands on: its connection, its layer, and rows
    made entries of it."""

    db: apsw.Connection
    layer: str = "project"
    """The layer this index is of: every entry it answers carries it."""
    project: str | None = None
    """The project this index is of, when a search reads several: every entry carries it."""

    def _current(self, filters: Filters) -> Filters:
        """The filters, without the superseded test when nothing is superseded (most stores)."""
        if filters.superseded:
            return filters
        if next(iter(self.db.execute(ANY_SUPERSEDED)), None) is None:
            return filters._replace(superseded=True)
        return filters

    def _entries(self, sql: str, params: Any) -> list[Entry]:
        cursor = self.db.execute(sql, params)
        columns = columns_of(cursor)
        if columns is None:
            return []
        layer, project = self.layer, self.project
        return [columns.entry(row, None, layer, project) for row in cursor]

    @translating_errors
    def store_size(self) -> int:
        """About how many memories the index holds (the largest row number: no count is run)."""
        return int(next(iter(self.db.execute(LAST_ROWID)))[0] or 0)
