"""Reading the index: every read model, one module a question, composed as ``Queries``.

``ranking`` (search, ranked matches, substring), ``terms`` (tokens and their counts),
``lookup`` (a memory by id, key or prefix; duplicates; supersedes; counts) and
``listings`` (newest, neighbours, session start's candidates), all over
``entries.IndexReads`` (rows as ``Entry`` values). What the statements are is in ``schema``.
"""

from __future__ import annotations

from memcli.index.entries import (
    NO_FILTERS,
    Entry,
    EntryColumns,
    Filters,
    Ranking,
    SearchResult,
    columns_of,
)
from memcli.index.listings import ListingQueries
from memcli.index.lookup import LookupQueries
from memcli.index.ranking import RankingQueries
from memcli.index.terms import TermQueries

__all__ = [
    "NO_FILTERS",
    "Entry",
    "EntryColumns",
    "Filters",
    "Queries",
    "Ranking",
    "SearchResult",
    "columns_of",
]


class Queries(RankingQueries, TermQueries, LookupQueries, ListingQueries):
    """The read queries of an ``Index`` (mixed into ``Index``, which opens ``db``)."""
