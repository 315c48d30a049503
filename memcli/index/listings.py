"""Listings: the newest memories, a memory's neighbours in time, and session start's
candidates (newest, most important, touching the work at hand).
"""

from __future__ import annotations

import json

from memcli.index.entries import NO_FILTERS, Entry, Filters, IndexReads
from memcli.index.errors import translating_errors
from memcli.index.schema import AFTER, BEFORE, IMPORTANT, NEWEST, RECENT, TOUCHING


class ListingQueries(IndexReads):
    """Memories listed by time and standing rather than by a query."""

    @translating_errors
    def recent(
        self, filters: Filters = NO_FILTERS, *, limit: int = 20, keyed: bool = False
    ) -> list[Entry]:
        """Newest first; ``keyed``: only memories that have a key."""
        filters = self._current(filters)
        sql = RECENT.format(filters=filters.clause())
        return self._entries(sql, {**filters.params(), "limit": limit, "keyed": int(keyed)})

    @translating_errors
    def standing(
        self,
        *,
        types: tuple[str, ...],
        floor: float,
        files: list[str],
        words: list[str],
        limit: int,
        superseded: bool = False,
    ) -> dict[str, tuple[str, str, float | None, str]]:
        """Session start's candidates: id -> (type, created, importance, touches).

        The newest ``limit`` observations, the newest of ``types``, the most
        important (at least ``floor``), and the newest naming one of ``files`` or
        having one of ``words`` as a concept (``touches``: ``file`` or
        ``concept``; '' for the others). ``superseded``: memories another one
        supersedes are candidates too.
        """
        found: dict[str, tuple[str, str, float | None, str]] = {}
        old = int(superseded)
        rows = [
            *self.db.execute(NEWEST, {"types": None, "limit": limit, "superseded": old}),
            *self.db.execute(
                NEWEST, {"types": json.dumps(list(types)), "limit": limit, "superseded": old}
            ),
            *self.db.execute(IMPORTANT, {"floor": floor, "limit": limit, "superseded": old}),
        ]
        for identity, kind, created, importance in rows:
            found[identity] = (kind, created, importance, "")
        if files or words:
            params = {
                "files": json.dumps(files),
                "words": json.dumps(words),
                "limit": limit,
                "superseded": old,
            }
            for identity, kind, created, importance, by_file in self.db.execute(TOUCHING, params):
                found[identity] = (kind, created, importance, "file" if by_file else "concept")
        return found

    @translating_errors
    def around(
        self, anchor: Entry, *, before: int, after: int, kind: str | None = None
    ) -> list[Entry]:
        """The anchor with up to ``before`` and ``after`` neighbours, oldest first."""
        params = {"created": anchor.created, "id": anchor.id, "kind": kind}
        earlier = self._entries(BEFORE, {**params, "limit": before})
        later = self._entries(AFTER, {**params, "limit": after})
        return [*reversed(earlier), anchor, *later]
