"""Reading the index: search, listings, neighbours, and finding one memory by reference.

Rows become ``Entry`` values by column name: each statement's columns are
looked up once (``EntryColumns``), so a row costs what reading it by position
would. What the statements are is in ``schema``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from operator import itemgetter
from typing import Any, NamedTuple

import apsw

from memcli.core.errors import Ambiguous, InvalidInput, NotFound, QuerySyntaxError
from memcli.core.ids import ID_PREFIX_RE, is_ulid
from memcli.core.schema import KEY_RE
from memcli.index.errors import translating_errors
from memcli.index.fts import Term, fts_match, like_pattern, parse_terms
from memcli.index.schema import (
    AFTER,
    ALL_BY_KEY,
    ALL_DIGESTS,
    ANY_SUPERSEDED,
    BEFORE,
    BY_EXACT,
    BY_ID,
    BY_KEY,
    BY_PREFIX,
    COMMITS,
    COUNT,
    COUNT_CURRENT,
    ENTRIES_BY_ID,
    ENTRIES_BY_ROWID,
    FILTER_CONDITIONS,
    HOLDING_PREFIX,
    HOLDING_TOKEN,
    IDS_AND_KEYS,
    IMPORTANT,
    LAST_ROWID,
    MATCHES_UP_TO,
    NEWEST,
    NEWEST_MATCHES_FROM,
    OBSERVATION_TEXTS,
    PATH_BY_ID,
    RANK_FTS,
    RECENT,
    REPLACED_BY,
    REPLACING,
    SEARCH_FTS,
    SEARCH_LIKE,
    SEARCHED_TEXT,
    SEARCHED_TEXTS,
    TEXTS,
    TOKENIZER,
    TOUCHING,
    VOCABULARY,
)

MIN_PREFIX_CHARS = 4
MAX_SUBSTRING_BYTES = 1000

RANK_WINDOW = 200

# ------------------------------------------------------------------ values


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


# ----------------------------------------------------------------- queries


class Queries:
    """The read queries of an ``Index`` (mixed into ``Index``, which opens ``db``)."""

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

    @translating_errors
    def matched_terms(self, ids: list[str], terms: list[Term]) -> dict[str, int]:
        """For each id, how many of the terms its memory contains (stemmed, like search).

        The memories' text is split by the index's own tokenizer, here, rather
        than asking the full-text index once a term: that would read the whole
        list of memories holding each word, costly for a common one. Each memory's
        searched text is read and split in one piece; a term of one whole word is
        then looked up in its tokens, a phrase or a prefix in their spaced text.
        """
        tokenize = self._tokenizer()
        words: list[str] = []  # a term each: two terms may stem alike, and both count
        runs: list[tuple[list[str], bool]] = []
        for term in terms:
            pattern = _tokens(tokenize, term.text, query=True)
            if len(pattern) == 1 and not term.prefix:
                words.append(pattern[0])
            elif pattern:
                runs.append((pattern, term.prefix))
        counts = dict.fromkeys(ids, 0)
        for identity, text in self.db.execute(SEARCHED_TEXT, (json.dumps(ids),)):
            tokens = _tokens(tokenize, text, query=False)
            count = sum(1 for word in words if word in tokens)
            if runs:
                spaced = " " + " ".join(tokens) + " "
                count += sum(1 for pattern, prefix in runs if _holds(spaced, pattern, prefix))
            counts[identity] = count
        return counts

    @translating_errors
    def token_sets(self, ids: list[str]) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
        """Each memory's tokens (stemmed, like search): of what it is about (title, facts,
        concepts, files), and of its narrative."""
        return {
            identity: (frozenset(about), frozenset(narrative))
            for identity, about, narrative in self._searched_tokens(ids)
        }

    def _searched_tokens(self, ids: list[str]) -> Iterator[tuple[str, list[str], list[str]]]:
        tokenize = self._tokenizer()
        for identity, *fields, narrative in self.db.execute(SEARCHED_TEXTS, (json.dumps(ids),)):
            about = _tokens(tokenize, "\n".join(str(f) for f in fields), query=False)
            yield identity, about, _tokens(tokenize, str(narrative), query=False)

    def tokens(self, text: str) -> list[str]:
        """``text`` as the index's tokens, split and stemmed the way a query is."""
        return _tokens(self._tokenizer(), text, query=True)

    @translating_errors
    def holding(self, token: str, *, prefix: bool = False) -> int:
        """How many memories hold ``token`` (an index token); ``prefix``: a token it starts.

        Read from the full-text index's own counts, not by matching: a common
        token costs what its list of memories takes to walk, once.
        """
        if not getattr(self, "_vocabulary", False):
            self.db.execute(VOCABULARY)
            self._vocabulary = True
        if prefix:
            bounds = {"low": token, "high": token + "\U0010ffff"}
            return int(next(iter(self.db.execute(HOLDING_PREFIX, bounds)))[0])
        row = next(iter(self.db.execute(HOLDING_TOKEN, (token,))), None)
        return int(row[0]) if row else 0

    def _tokenizer(self) -> Any:
        tokenizer = getattr(self, "_fts_tokenizer", None)
        if tokenizer is None:
            tokenizer = self.db.fts5_tokenizer(TOKENIZER[0], TOKENIZER[1])
            self._fts_tokenizer = tokenizer
        return tokenizer

    @translating_errors
    def store_size(self) -> int:
        """About how many memories the index holds (the largest row number: no count is run)."""
        return int(next(iter(self.db.execute(LAST_ROWID)))[0] or 0)

    @translating_errors
    def term_counts(self, terms: list[Term], cap: int) -> list[int]:
        """How many memories hold each term, counted only up to ``cap`` (cheap for any word)."""
        return [
            int(next(iter(self.db.execute(MATCHES_UP_TO, {"match": t.to_fts(), "limit": cap})))[0])
            for t in terms
        ]

    @translating_errors
    def commits(self, ids: list[str]) -> dict[str, str]:
        """The project commit each of these memories was written at, where it has one."""
        return dict(self.db.execute(COMMITS, (json.dumps(ids),)))

    @translating_errors
    def texts(self, ids: list[str]) -> dict[str, str]:
        """The markdown text of each memory, from the index (no file is read)."""
        return dict(self.db.execute(TEXTS, (json.dumps(ids),)))

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

    @translating_errors
    def resolve(self, ref: str) -> Entry:
        """A memory by full id, key, or unique id prefix (like git's abbreviated hashes)."""
        ref = ref.strip()
        if not KEY_RE.fullmatch(ref):
            raise InvalidInput(f"{ref!r} is not a memory id or key")
        upper = ref.upper()
        if is_ulid(upper):
            found = self._entries(BY_ID, (upper,))
            if found:
                return found[0]
        by_key = self._entries(BY_KEY, (ref,))
        if by_key:
            return by_key[0]
        if not ID_PREFIX_RE.fullmatch(ref):
            raise NotFound(f"no memory has the key {ref!r}")
        if len(ref) < MIN_PREFIX_CHARS:
            raise NotFound(
                f"no memory has the key {ref!r}, and an id prefix needs at least "
                f"{MIN_PREFIX_CHARS} characters"
            )
        matches = self._entries(BY_PREFIX, {"low": upper, "high": upper + "\x7f"})
        if not matches:
            raise NotFound(f"no memory has the id or key {ref!r}")
        if len(matches) > 1:
            shown = ", ".join(f"{e.id[:12]} ({e.title[:40]})" for e in matches[:5])
            raise Ambiguous(
                f"id prefix {ref!r} matches several memories: {shown}; give more characters"
            )
        return matches[0]

    @translating_errors
    def path_of(self, identity: str) -> str | None:
        for (path,) in self.db.execute(PATH_BY_ID, (identity,)):
            return str(path)
        return None

    @translating_errors
    def by_key(self, key: str) -> Entry | None:
        found = self._entries(BY_KEY, (key,))
        return found[0] if found else None

    @translating_errors
    def with_key(self, key: str) -> list[Entry]:
        """Every memory holding ``key`` (one, unless files were committed past mem's checks)."""
        return self._entries(ALL_BY_KEY, (key,))

    @translating_errors
    def exact_duplicate(self, exact: str) -> Entry | None:
        """The oldest current observation with this exact-duplicate key (``text.exact_key``)."""
        found = self._entries(BY_EXACT, {"exact": exact, "superseded": 0})
        return found[0] if found else None

    def observation_texts(self) -> Iterator[tuple[str, str, str, str, str]]:
        """Every current observation's id, type, title, facts (JSON) and narrative."""
        yield from self.db.execute(OBSERVATION_TEXTS, {"superseded": 0})

    @translating_errors
    def replaced_by(self, identity: str) -> list[str]:
        """The ids the memory ``identity`` supersedes."""
        return [str(value) for (value,) in self.db.execute(REPLACED_BY, (identity,))]

    @translating_errors
    def replacing(self, identity: str) -> list[str]:
        """The ids of the memories that supersede ``identity``, oldest first."""
        return [str(value) for (value,) in self.db.execute(REPLACING, (identity,))]

    @translating_errors
    def short_id_chars(self) -> int:
        """How many characters of an id this store shows (see ``short_ids``)."""
        from memcli.index.short_ids import stored_length

        return stored_length(self.db)

    def short_ids(self, ids: list[str]) -> dict[str, str]:
        """Each id's prefix at the store's one length, unique among all its ids."""
        length = self.short_id_chars()
        return {identity: identity[:length] for identity in ids}

    @translating_errors
    def count(self) -> int:
        return int(next(iter(self.db.execute(COUNT)))[0])

    @translating_errors
    def current_count(self) -> int:
        """How many memories no other supersedes (every one, in most stores: one count)."""
        if next(iter(self.db.execute(ANY_SUPERSEDED)), None) is None:
            return self.count()
        return int(next(iter(self.db.execute(COUNT_CURRENT)))[0])

    @translating_errors
    def ids_and_keys(self) -> dict[str, str | None]:
        """Every memory's id and its key (None when it has none)."""
        return dict(self.db.execute(IDS_AND_KEYS))

    @translating_errors
    def digests(self) -> dict[str, str]:
        return {path: digest for path, digest in self.db.execute(ALL_DIGESTS)}


def _tokens(tokenize: Any, text: str, *, query: bool) -> list[str]:
    """The tokens of ``text`` as the full-text index stores them (stemmed, folded).

    Without their offsets, and only the first of tokens at one place (the porter
    and unicode61 tokenizers put one at each): the tokenizer then makes no tuples.
    """
    reason = apsw.FTS5_TOKENIZE_QUERY if query else apsw.FTS5_TOKENIZE_DOCUMENT
    tokens: list[str] = tokenize(
        text.encode("utf-8", "replace"),
        reason,
        None,
        include_offsets=False,
        include_colocated=False,
    )
    return tokens


def _holds(spaced: str, pattern: list[str], prefix: bool) -> bool:
    """Whether the tokens hold ``pattern`` in a row (its last token as a prefix, if asked).

    ``spaced``: the tokens each after a space, and a space at the end. No token
    holds a space (it separates them), so a match of the spaced pattern is a match
    of whole tokens.
    """
    return " " + " ".join(pattern) + ("" if prefix else " ") in spaced
