"""The index on its own: schema, ranking, filters, id resolution, hostile queries."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import apsw
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memcli.core.errors import Ambiguous, InvalidInput, NotFound, QuerySyntaxError
from memcli.core.model import Observation
from memcli.index import Filters, Index
from memcli.index.fts import Term, fts_match, parse_terms
from memcli.index.schema import SCHEMA_VERSION


class ListSource:
    """An in-memory stand-in for the store: the index only needs these six calls."""

    def __init__(
        self, observations: list[Observation], notes: dict[str, str] | None = None
    ) -> None:
        self.files = {f"observations/2026/11/{o.id}.md": o for o in observations}
        self.notes = notes or {}

    def head(self) -> str:
        return "c" * 40

    def memory_paths(self) -> Iterator[str]:
        return iter(sorted(self.files))

    def load(self, path: str) -> tuple[Observation, str]:
        return self.files[path], path

    def changes(self, old: str, new: str, *, notes: bool = False) -> list[Any]:
        return []

    def note_paths(self) -> Iterator[str]:
        return iter(sorted(self.notes))

    def read_note(self, path: str) -> bytes:
        return self.notes[path].encode()


def obs(
    id_suffix: str, title: str, created: str = "2026-11-01T00:00:00Z", **fields: Any
) -> Observation:
    identity = ("01JD" + "0" * 22)[: 26 - len(id_suffix)] + id_suffix
    return Observation(
        id=identity, type=fields.pop("type", "discovery"), title=title, created=created, **fields
    )


@pytest.fixture
def index() -> Index:
    idx = Index(":memory:")
    idx.refresh(
        ListSource(
            [
                obs(
                    "1",
                    "Quoting search terms",
                    narrative="FTS5 is picky about hyphens",
                    concepts=["sqlite"],
                    files=["memcli/query.py"],
                    type="gotcha",
                ),
                obs(
                    "2",
                    "Unrelated title",
                    narrative="we talk about quoting here only in passing",
                    created="2026-11-05T00:00:00Z",
                ),
                obs(
                    "3",
                    "Git plumbing",
                    facts=["quoting is not needed for git"],
                    concepts=["git"],
                    files=["memcli/store.py"],
                    type="decision",
                    created="2026-11-10T00:00:00Z",
                    key="plumbing",
                ),
                obs(
                    "A4",
                    "Indexes and indexing",
                    narrative="porter stemming",
                    created="2026-11-12T00:00:00Z",
                ),
                obs("A5", "Another index note", created="2026-11-13T00:00:00Z"),
            ]
        ),
        lambda message: None,
    )
    return idx


def titles(entries: Any) -> list[str]:
    return [e.title for e in entries]


def test_built_from_blank_has_tables_and_version() -> None:
    idx = Index(":memory:")
    names = {row[0] for row in idx.db.execute("SELECT name FROM sqlite_master")}
    assert {"memories", "tags", "meta", "memories_fts"} <= names
    assert idx.db.pragma("user_version") == SCHEMA_VERSION
    assert idx.indexed_commit() is None


def test_title_outranks_facts_outranks_narrative(index: Index) -> None:
    assert titles(index.search("quoting").entries) == [
        "Quoting search terms",
        "Git plumbing",
        "Unrelated title",
    ]


def test_stemming_and_prefix(index: Index) -> None:
    assert set(titles(index.search("index").entries)) == {
        "Indexes and indexing",
        "Another index note",
    }
    assert titles(index.search("plumb*").entries) == ["Git plumbing"]


def test_all_words_then_any_word_then_substring(index: Index) -> None:
    both = index.search("quoting hyphens")
    assert (both.strategy, titles(both.entries)) == ("all", ["Quoting search terms"])
    either = index.search("hyphens plumbing")
    assert either.strategy == "any" and len(either.entries) == 2
    substring = index.search("lumbi")
    assert (substring.strategy, titles(substring.entries)) == ("substring", ["Git plumbing"])


def test_filters(index: Index) -> None:
    assert titles(index.search("quoting", Filters(types=("decision",))).entries) == ["Git plumbing"]
    assert titles(index.search("quoting", Filters(since="2026-11-04T00:00:00Z")).entries) == [
        "Git plumbing",
        "Unrelated title",
    ]
    assert titles(index.search("quoting", Filters(until="2026-11-02T00:00:00Z")).entries) == [
        "Quoting search terms"
    ]
    assert titles(index.recent(Filters(concepts=("SQLite",)))) == ["Quoting search terms"]
    assert titles(index.recent(Filters(files=("memcli",)))) == [
        "Git plumbing",
        "Quoting search terms",
    ]
    assert titles(index.recent(keyed=True)) == ["Git plumbing"]


def test_resolve_by_id_prefix_key_and_errors(index: Index) -> None:
    assert index.resolve("plumbing").title == "Git plumbing"
    assert index.resolve("01jd" + "0" * 20 + "a4").title == "Indexes and indexing"
    with pytest.raises(Ambiguous, match="matches several memories"):
        index.resolve("01JD0000")
    with pytest.raises(NotFound):
        index.resolve("01JDZZZZ")
    with pytest.raises(NotFound, match="an id prefix needs at least 4 characters"):
        index.resolve("01J")
    with pytest.raises(InvalidInput, match="not a memory id or key"):
        index.resolve("../etc/passwd")


def test_short_ids_are_unique_prefixes(index: Index) -> None:
    ids = [e.id for e in index.recent()]
    short = index.short_ids(ids)
    assert len(set(short.values())) == len(ids)
    assert all(len(s) >= 8 and i.startswith(s) for i, s in short.items())


def test_timeline_is_chronological_around_the_anchor(index: Index) -> None:
    anchor = index.resolve("plumbing")
    assert titles(index.around(anchor, before=1, after=1)) == [
        "Unrelated title",
        "Git plumbing",
        "Indexes and indexing",
    ]


def test_rows_become_entries_by_column_name(index: Index) -> None:
    """Whatever order a statement selects the columns in, each lands in its field."""
    from memcli.index.schema import ENTRY_COLUMNS

    reordered = ", ".join(reversed(ENTRY_COLUMNS.split(", ")))
    sql = f"SELECT 1.5 AS score, {reordered} FROM memories m ORDER BY m.created DESC, m.id DESC"
    expected = [entry._replace(score=1.5) for entry in index.recent()]
    assert expected and index._entries(sql, ()) == expected


def test_raw_queries_pass_through_with_a_helpful_error(index: Index) -> None:
    assert titles(index.search("title:plumbing OR title:quoting", raw=True).entries)
    with pytest.raises(QuerySyntaxError, match="drop --raw"):
        index.search("a OR", raw=True)


def test_duplicate_ids_are_skipped_with_a_warning() -> None:
    twin = obs("9", "first")
    source = ListSource([twin])
    source.files["observations/2026/11/zzz.md"] = twin.replace(title="second copy")
    warnings: list[str] = []
    idx = Index(":memory:")
    idx.refresh(source, warnings.append)
    assert idx.count() == 1
    assert "is already used by" in warnings[0]


PLUMBING, QUOTING, INDEXES = "Git plumbing", "Quoting search terms", "Indexes and indexing"
HOSTILE: list[tuple[str, list[str]]] = [
    # (query, the titles it finds, best first)
    ('"', [PLUMBING, QUOTING]),  # the substring fallback sees the JSON quotes of facts and concepts
    ('""', []),
    ("*", []),
    ("foo*bar", []),
    ("NEAR(a b)", []),
    ("title:x", []),
    ("-x", []),
    ("a OR", []),
    ("(", []),
    ("^", []),
    ("AND", [INDEXES]),
    ("🙂", []),
    ("日本語", []),
    ("x" * 10_000, []),
    ("a" + " b" * 5000, []),
    ("'; DROP TABLE memories; --", []),
    ("\\", []),
    # The same syntax around words the memories hold: the words are still found.
    ('"quoting', [QUOTING, PLUMBING, "Unrelated title"]),
    ("quoting OR", [QUOTING, PLUMBING, "Unrelated title"]),
    ("NEAR(git plumbing)", [PLUMBING]),
    ("(git", [PLUMBING]),
    ("-porter", [INDEXES]),
    ("porter^", [INDEXES]),
    ("stemming*", [INDEXES]),
    ("plumbing\\", [PLUMBING]),
    ("git; DROP TABLE memories; --", [PLUMBING]),
]


@pytest.mark.parametrize(
    ("query", "found"), HOSTILE, ids=[f"{i}-{query[:20]}" for i, (query, _) in enumerate(HOSTILE)]
)
def test_hostile_queries_are_searched_as_words(index: Index, query: str, found: list[str]) -> None:
    assert titles(index.search(query).entries) == found
    assert index.count() == 5


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_sanitised_queries_never_fail_in_fts5(text: str) -> None:
    db = apsw.Connection(":memory:")
    db.execute("CREATE VIRTUAL TABLE f USING fts5(a, tokenize='porter unicode61')")
    db.execute("INSERT INTO f VALUES ('some words here')")
    for any_term in (False, True):
        match = fts_match(parse_terms(text), any_term=any_term)
        if match is not None:
            list(db.execute("SELECT * FROM f WHERE f MATCH ?", (match,)))


def test_terms_keep_phrases_and_prefixes() -> None:
    assert fts_match(parse_terms('"exact phrase" pre* NOT (x')) == (
        '"exact phrase" "pre"* "NOT" "(x"'
    )


def test_two_phase_ranking_equals_the_plain_join() -> None:
    """Ranking alone then joining must answer exactly what one big join answers."""
    from memcli.core.schema import OBSERVATION_TYPES
    from memcli.index.schema import SEARCH_FTS

    words = ["alpha", "beta", "gamma", "delta"]
    docs = [
        obs(
            f"B{n:04d}",
            f"{words[n % 4]} note {n % 3}",
            created=f"2026-11-{1 + n % 28:02d}T00:00:00Z",
            type=OBSERVATION_TYPES[n % 7],
            narrative=" ".join(words[: 1 + n % 4]) if n % 5 else "alpha alpha",
        )
        for n in range(300)  # many identical scores, more matches than the window
    ]
    idx = Index(":memory:")
    idx.refresh(ListSource(docs), lambda message: None)
    for match in ['"alpha"', '"beta"', '"gamma" OR "delta"', '"note"', '"alpha" "beta"']:
        for filters in (
            Filters(),
            Filters(types=("gotcha",)),
            Filters(since="2026-11-25T00:00:00Z"),
            Filters(kind="summary"),
        ):
            for limit in (1, 10, 50):
                expected = idx._entries(
                    SEARCH_FTS.format(filters=filters.clause()),
                    {**filters.params(), "limit": limit, "match": match, "floor": 0},
                )
                got = idx._ranked(match, filters, limit).entries
                assert got == expected, (match, filters, limit)


def test_ranking_the_newest_matches_only() -> None:
    """``newest=N`` ranks the N matches indexed last, as the plain join of those alone would;
    when filters leave fewer than ``needed`` there, every match is ranked after all, and the
    ranking says which it did."""
    from memcli.index.schema import SEARCH_FTS

    docs = [
        obs(
            f"C{n:04d}",
            f"alpha note {n % 7}",
            created=f"2026-{1 + n // 28 % 12:02d}-{1 + n % 28:02d}T00:00:00Z",
            type="decision" if n < 20 else "gotcha",
            narrative="alpha " * (1 + n % 5) + ("beta" if n % 3 else "gamma"),
        )
        for n in range(400)
    ]
    idx = Index(":memory:")
    idx.refresh(ListSource(docs), lambda message: None)

    def joined(match: str, filters: Filters, limit: int, rows: list[int]) -> list[str]:
        cursor = idx.db.execute(
            SEARCH_FTS.format(filters=filters.clause()),
            {**filters.params(), "limit": 10_000, "match": match, "floor": 0},
        )
        columns = [d[0] for d in cursor.getdescription()]
        kept = set(rows)
        ids = {row[columns.index("id")]: row for row in cursor}
        rowid_of = dict(idx.db.execute("SELECT id, rowid FROM memories"))
        return [i for i in ids if rowid_of[i] in kept][:limit]

    for match in ['"alpha"', '"beta" OR "gamma"', '"note"']:
        matching = sorted(
            (
                r
                for (r,) in idx.db.execute(
                    "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?", (match,)
                )
            ),
            reverse=True,
        )
        for newest in (5, 60, 250, 1000):
            for filters in (Filters(), Filters(types=("decision",))):
                for limit, needed in ((1, 1), (10, 10), (50, 50), (50, 3), (300, 2)):
                    got = idx.ranking(match, filters, limit=limit, newest=newest, needed=needed)
                    expected = joined(match, filters, limit, matching[:newest])
                    capped = len(matching) > newest and len(expected) >= needed
                    if not capped:
                        expected = joined(match, filters, limit, matching)
                    case = (match, newest, filters, limit, needed)
                    assert [e.id for e in got.entries] == expected, case
                    assert got.newest_only == capped, case


# Words that stem alike, CamelCase, diacritics (composed and combining), digits, and
# characters JSON escapes: what a memory's text and a query can hold.
_WORDS = ["index", "indexes", "indexing", "run", "running", "runner", "lock", "Locks"]
_WORDS += ["lockfile", "Unique", "UniqueViolation", "café", "cafe\u0301", "caf", "naïve"]
_WORDS += ["v2", "x86_64", "ß", "ǅ"]
_SEPARATORS = [" ", "\n", "-", ".", '"', "\\", "/", "_", "é", "\u0301", ", ", "\t", ""]
_word = st.one_of(st.sampled_from(_WORDS), st.text(max_size=3))
_texts = st.lists(st.tuples(_word, st.sampled_from(_SEPARATORS)), max_size=8).map(
    lambda pieces: "".join(word + separator for word, separator in pieces)
)


def _old_matched_terms(idx: Index, ids: list[str], terms: list[Term]) -> dict[str, int]:
    """What ``matched_terms`` answered before it read each memory's text in one piece:
    the reference the faster one must equal."""
    from memcli.index.schema import SEARCHED_TEXTS, TOKENIZER

    tokenize = idx.db.fts5_tokenizer(TOKENIZER[0], TOKENIZER[1])

    def tokens(text: str, reason: int) -> list[str]:
        return [t[2] for t in tokenize(text.encode("utf-8", "replace"), reason, None)]

    def holds(tokens: list[str], pattern: list[str], prefix: bool) -> bool:
        last = len(pattern) - 1
        for start in range(len(tokens) - last):
            if tokens[start : start + last] == pattern[:last] and (
                tokens[start + last].startswith(pattern[last])
                if prefix
                else tokens[start + last] == pattern[last]
            ):
                return True
        return False

    wanted = [(tokens(t.text, apsw.FTS5_TOKENIZE_QUERY), t.prefix) for t in terms]
    counts = dict.fromkeys(ids, 0)
    for identity, *fields, narrative in idx.db.execute(SEARCHED_TEXTS, (json.dumps(ids),)):
        held = tokens("\n".join(fields), apsw.FTS5_TOKENIZE_DOCUMENT)
        held += tokens(narrative, apsw.FTS5_TOKENIZE_DOCUMENT)
        counts[identity] = sum(1 for p, prefix in wanted if p and holds(held, p, prefix))
    return counts


@settings(max_examples=100, deadline=None)
@given(
    memories=st.lists(
        st.tuples(_texts, st.lists(_texts, max_size=3), st.lists(_texts, max_size=2), _texts),
        min_size=1,
        max_size=4,
    ),
    query=st.lists(
        st.tuples(st.sampled_from(["{}", '"{}"', "{}*", '"{} {}"', '"{} {}*"']), _word, _word),
        min_size=1,
        max_size=5,
    ).map(lambda parts: " ".join(form.format(a, b) for form, a, b in parts)),
)
@example(memories=[("Lock runner", [], [], "")], query='"lock run" "lock run*"')  # a whole word
@example(memories=[("running", [], [], "runs")], query="run running")  # two terms, one stem
@example(memories=[("Unique", ["lock"], [], "")], query='"unique lock"')  # across two fields
@example(memories=[("UniqueViolation", [], [], "")], query="Unique*")  # a prefix of one token
def test_matched_terms_counts_what_it_counted_word_by_word(
    memories: list[tuple[str, list[str], list[str], str]], query: str
) -> None:
    observations = [
        obs(f"M{n}", title or "untitled", facts=facts, concepts=concepts, narrative=narrative)
        for n, (title, facts, concepts, narrative) in enumerate(memories)
    ]
    idx = Index(":memory:")
    idx.refresh(ListSource(observations), lambda message: None)
    ids = [o.id for o in observations] + ["01JD0000000000000000MISSING"]
    terms = parse_terms(query)
    assert idx.matched_terms(ids, terms) == _old_matched_terms(idx, ids, terms)


WORDS = st.sampled_from(
    ["alpha", "beta", "gamma", "UniqueViolation", "naïve", "日本", "café", "x", "porter", "runs"]
)
TEXTS = st.lists(WORDS, max_size=6).map(" ".join)
OBSERVATIONS = st.builds(
    lambda title, narrative, facts, concepts, files: dict(
        title=title or "t",
        narrative=narrative,
        facts=facts,
        concepts=concepts,
        files=files,
    ),
    TEXTS,
    TEXTS,
    st.lists(TEXTS, max_size=3),
    st.lists(WORDS, max_size=3),
    st.lists(WORDS.map(lambda w: f"src/{w}.py"), max_size=2),
)


class VersionedSource(ListSource):
    """A ListSource at a given version of its files, for a refresh given the changes."""

    def __init__(self, observations: list[Observation], version: int) -> None:
        super().__init__(observations)
        self.version = version

    def head(self) -> str:
        return f"{self.version:040d}"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(OBSERVATIONS, min_size=1, max_size=8),
    st.lists(st.tuples(st.integers(0, 7), st.one_of(st.none(), OBSERVATIONS)), max_size=8),
)
def test_an_index_updated_change_by_change_is_the_one_a_rebuild_makes(
    first: list[dict[str, Any]], edits: list[tuple[int, dict[str, Any] | None]]
) -> None:
    """Edits and deletions applied one by one leave the scores of a full rebuild: a row
    left behind in memories_fts would still count in bm25's document frequencies."""
    current = {n: obs(f"{n}", **fields) for n, fields in enumerate(first)}
    updated = Index(":memory:")
    updated.refresh(VersionedSource(list(current.values()), 0), lambda message: None)
    for version, (n, fields) in enumerate(edits, 1):
        path = f"observations/2026/11/{obs(str(n), 't').id}.md"
        if fields is None:
            current.pop(n, None)
        else:
            current[n] = obs(f"{n}", **fields)
        change = None if fields is None else (current[n], path)
        source = VersionedSource(list(current.values()), version)
        updated.refresh(source, lambda message: None, known=(f"{version - 1:040d}", {path: change}))
    rebuilt = Index(":memory:")
    rebuilt.refresh(VersionedSource(list(current.values()), 0), lambda message: None)
    assert updated.count() == rebuilt.count()
    words = ["alpha", "beta", "gamma", "unique", "violation", "naive", "日本", "cafe", "src", "run"]
    for word in words:
        got = [(e.id, round(e.score or 0, 9)) for e in updated.ranked(word, limit=20)]
        assert got == [(e.id, round(e.score or 0, 9)) for e in rebuilt.ranked(word, limit=20)]
