"""The derived search index: SQLite through apsw, FTS5 for full text.

``schema`` holds the tables and every SQL statement; ``db`` the ``Index`` (the
connection); ``refresh`` brings it up to date from git, reading files through
``loading``; ``queries`` answers searches and listings, a module a question
(``ranking``, ``terms``, ``lookup``, ``listings``, over ``entries``); ``notes``
indexes and searches the curated notes (MEMORY.md, notes/) by section; ``fts``
turns what people type into FTS5 queries. Callers import from here.
"""

from memcli.index.db import Index
from memcli.index.loading import IndexSource, Progress
from memcli.index.notes import NoteHit
from memcli.index.queries import NO_FILTERS, Entry, Filters, SearchResult
from memcli.index.refresh import RefreshReport

__all__ = [
    "NO_FILTERS",
    "Entry",
    "Filters",
    "Index",
    "IndexSource",
    "NoteHit",
    "Progress",
    "RefreshReport",
    "SearchResult",
]
