"""Ranking by the full-text index: search as people type, ranked FTS5 matches (of only the
newest, when a word is common), a substring search, and the memories of given ids.
"""

from __future__ import annotations

import json
from operator import itemgetter

import apsw

from memcli.core.errors import QuerySyntaxError
from memcli.index.entries import (
    NO_FILTERS,
    Entry,
    Filters,
    IndexReads,
    Ranking,
    SearchResult,
    columns_of,
)
from memcli.index.errors import translating_errors
from memcli.index.fts import fts_match, like_pattern, parse_terms
from memcli.index.schema import (
    ENTRIES_BY_ID,
    ENTRIES_BY_ROWID,
    NEWEST_MATCHES_FROM,
    RANK_FTS,
    SEARCH_FTS,
    SEARCH_LIKE,
)

MAX_SUBSTRING_BYTES = 1000

RANK_WINDOW = 200


class RankingQueries(IndexReads):
    """Which memories answer a query, best first."""

    @translating_errors
    def search(
        self, text: str, filters: Filters = NO_FILTERS, *, limit: int = 10, raw: bool = False
    ) -> SearchResult:
        """Full text first (all words, then any word), then a substring match."""
        filters = self._current(filters)
        if raw:
            try:
                return SearchResult(self._ranked(text, filters, limit).entries, "raw")
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
            entries = self._ranked(match, filters, limit).entries
            if entries:
                return SearchResult(entries, strategy)
        return SearchResult(self.substring(text, filters, limit=limit), "substring")

    @translating_errors
    def ranked(self, match: str, filters: Filters = NO_FILTERS, *, limit: int = 10) -> list[Entry]:
        """The best ``limit`` memories for an FTS5 MATCH expression, by bm25 (``score``)."""
        return self._ranked(match, self._current(filters), limit).entries

    @translating_errors
    def ranking(
        self,
        match: str,
        filters: Filters = NO_FILTERS,
        *,
        limit: int = 10,
        newest: int | None = None,
        needed: int | None = None,
    ) -> Ranking:
        """``ranked``, of only the newest ``newest`` matches (by row number: the order they
        were indexed in, which a rebuild makes the files' date order), so that a word nearly
        every memory holds costs what that many do. When filters leave fewer than ``needed``
        (default: ``limit``) of them, every match is ranked after all."""
        # A store of no more rows than ``newest`` has no older matches to leave out.
        floor = self._newest_floor(match, newest) if newest and self.store_size() > newest else 0
        return self._ranked(match, self._current(filters), limit, floor, needed)

    def _newest_floor(self, match: str, newest: int) -> int:
        """The lowest row number of the ``newest`` newest matches; 0 if there are no more."""
        params = {"match": match, "newest": newest}
        rows = [row[0] for row in self.db.execute(NEWEST_MATCHES_FROM, params)]
        return int(rows[0]) if len(rows) == 2 else 0

    @translating_errors
    def substring(
        self, text: str, filters: Filters = NO_FILTERS, *, limit: int = 10
    ) -> list[Entry]:
        """Memories containing ``text`` (spaces collapsed) anywhere, newest first.

        None for a text over ``MAX_SUBSTRING_BYTES``: SQLite refuses a LIKE pattern
        over 50,000 bytes, and a text that long is no one's substring search.
        """
        if len(text.encode("utf-8", "replace")) > MAX_SUBSTRING_BYTES:
            return []
        filters = self._current(filters)
        params = {
            **filters.params(),
            "limit": limit,
            "pattern": like_pattern(" ".join(text.split())),
        }
        return self._entries(SEARCH_LIKE.format(filters=filters.clause()), params)

    @translating_errors
    def with_ids(self, ids: list[str], filters: Filters = NO_FILTERS) -> list[Entry]:
        """The memories with these ids that pass the filters, in no particular order."""
        filters = self._current(filters)
        sql = ENTRIES_BY_ID.format(filters=filters.clause())
        return self._entries(sql, {**filters.params(), "ids": json.dumps(ids)})

    def _ranked(
        self,
        match: str,
        filters: Filters,
        limit: int,
        floor: int = 0,
        needed: int | None = None,
    ) -> Ranking:
        """The best ``limit`` matches from row ``floor`` on (from the first when filters leave
        fewer than ``needed`` there): ranked in the full-text index alone, then joined.

        Exactly what SEARCH_FTS answers (the same order, ties broken by newest),
        which it falls back to when the window of best matches cannot tell:
        equal scores run to its edge, or filters left too few of them.
        """
        needed = limit if needed is None else min(needed, limit)
        clause = filters.clause()
        # Filters may drop many of the best matches: rank more of them to choose from.
        window = max(RANK_WINDOW, limit * (20 if clause else 2))
        ranked = list(self.db.execute(RANK_FTS, {"match": match, "window": window, "floor": floor}))
        if not ranked:
            return Ranking([], False)
        full = len(ranked) == window
        last = ranked[min(limit, len(ranked)) - 1][1]
        if full and ranked[-1][1] == last:
            return self._joined_ranking(match, filters, limit, floor, needed)
        if not clause:  # only the best ``limit`` and their equals can be answers
            ranked = [row for row in ranked if row[1] <= last]
        score = {rowid: value for rowid, value in ranked}
        params = {**filters.params(), "rowids": json.dumps(list(score))}
        cursor = self.db.execute(ENTRIES_BY_ROWID.format(filters=clause), params)
        columns = columns_of(cursor)
        rows = list(cursor)
        if full and len(rows) < limit:  # the filters' answers may lie past the window
            return self._joined_ranking(match, filters, limit, floor, needed)
        if floor and len(rows) < needed:  # every newest match was ranked: too few pass
            return self._joined_ranking(match, filters, limit, 0, needed)
        if columns is None:
            return Ranking([], False)
        at = columns.position
        rowid = at["rowid"]
        # Newest first among equals (created, then id, descending), then by score: the
        # second sort is stable, so it keeps that order within one score.
        rows.sort(key=itemgetter(at["created"], at["id"]), reverse=True)
        rows.sort(key=lambda row: score[row[rowid]])
        layer, project = self.layer, self.project
        entries = [columns.entry(row, -score[row[rowid]], layer, project) for row in rows[:limit]]
        return Ranking(entries, bool(floor))

    def _joined_ranking(
        self, match: str, filters: Filters, limit: int, floor: int, needed: int
    ) -> Ranking:
        """SEARCH_FTS from row ``floor`` on; from the first row if that leaves too few."""
        params = {**filters.params(), "limit": limit, "match": match, "floor": floor}
        found = self._entries(SEARCH_FTS.format(filters=filters.clause()), params)
        if floor and len(found) < needed:
            return self._joined_ranking(match, filters, limit, 0, needed)
        return Ranking(found, bool(floor))
