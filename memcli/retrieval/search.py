"""Search as people and agents use it: a sentence in, the right memories out, explained.

``Searcher.search`` plans the query (``retrieval.query``), takes the best
candidates of each ranking (bm25 over the content words; the semantic one when a
model is on), and orders them by ``retrieval.ranking``. When full text and
semantics find nothing, a substring match answers. ``plain_bm25`` is the
baseline ``mem eval`` prints beside it: every word OR'ed, ranked by bm25 alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from memcli.core import config
from memcli.core.model_choice import choose, model_name
from memcli.core.timeutil import now, parse_timestamp
from memcli.index import NO_FILTERS, Entry, Filters, Index
from memcli.index.fts import Term, fts_match, parse_terms
from memcli.index.notes import NoteHit
from memcli.index.schema import RANK_FTS
from memcli.retrieval.query import QueryPlan, plan_query
from memcli.retrieval.ranking import (
    Parts,
    Weights,
    coverage_boosted,
    fused,
    importance_factor,
    keep_lead,
    recency_factor,
)
from memcli.retrieval.stopwords import stop_words

if TYPE_CHECKING:
    import datetime as dt

    from memcli.service.memory import Memory

MODES = ("lexical", "semantic", "hybrid")
CANDIDATES = 100
"""How many of each ranking's best are fused: enough that the boosts can reorder them."""
COMMON_SHARE = 0.1
COMMON_MINIMUM = 20_000
"""In a store of this many memories or more, words over ``COMMON_SHARE`` of them do not pick
candidates (when the query has rarer words); they still count for coverage."""


class Hit(NamedTuple):
    entry: Entry
    parts: Parts


class Outcome(NamedTuple):
    hits: list[Hit]
    strategy: str
    """``ranked`` (fused rankings), ``all`` (``--all``), ``raw``, ``substring`` or ``none``."""
    plan: QueryPlan
    mode: str
    """The mode used: ``lexical`` when semantic ranking was asked for but is not available."""
    semantic: str
    """Why semantic ranking was not used though asked for ('' otherwise: the status of a
    model costs a look at its files and vectors, which a search need not pay)."""
    match: str | None
    """The FTS5 MATCH expression run (for ``--explain``)."""
    common: tuple[str, ...] = ()
    """Words too common to pick candidates by (``COMMON_SHARE``)."""
    newest_only: int | None = None
    """How many matches bm25 ranked, the newest, when older ones were left out
    (``[search] ranked_matches``)."""

    @property
    def entries(self) -> list[Entry]:
        return [hit.entry for hit in self.hits]


def semantic_floor(semantic: Any, text: str, settings: dict[str, Any]) -> float:
    """How similar a memory must be to count as a semantic match: ``min_similarity``, or
    ``min_deviations`` above what the model gives this query against the store's
    background sample (``retrieval.meaning``), whichever is higher."""
    from memcli.retrieval import meaning

    sample = semantic.background(text, meaning.BACKGROUND)
    calibrated = meaning.floor(sample, float(settings["min_deviations"]))
    return max(float(settings["min_similarity"]), calibrated or 0.0)


class Searcher:
    """Searches one store with its settings; ``mode``: lexical, semantic or hybrid."""

    semantic_candidates = CANDIDATES
    """How many of the semantic ranking's best are fused."""

    def __init__(self, memory: Memory, settings: dict[str, dict[str, Any]] | None = None) -> None:
        self.memory = memory
        self.settings = settings if settings is not None else config.load(memory.store.root)
        self.weights = Weights.from_settings(self.settings["ranking"])
        self.stop_words = stop_words(self.settings["search"])
        self._semantic: Any = None
        self._semantic_line: str | None = None

    def plan(self, text: str, *, strict: bool = False) -> QueryPlan:
        return plan_query(text, self.stop_words, strict=strict)

    def ranked_matches(self) -> int | None:
        """How many of a query's matches bm25 ranks at most, the newest; None: every one.

        bm25 reads every match's length, so a word nearly every memory holds
        would make a search's cost grow with the store. Only the newest
        ``[search] ranked_matches`` are ranked (the candidates fused and boosted
        after are a hundred); semantic ranking still looks at every memory.
        """
        return int(self.settings["search"]["ranked_matches"]) or None

    def semantic_line(self) -> str:
        """Whether semantic ranking is available, in one line (``mem doctor``, ``--explain``)."""
        if self._semantic_line is None:
            self._semantic_line = self._semantic_status()
        return self._semantic_line

    def _semantic_status(self) -> str:
        choice = choose(str(self.settings["semantic"]["model"]))
        if not choice.name:
            return choice.reason
        try:
            from memcli.semantic import semantic_status
        except ImportError:
            return "lexical only: semantic retrieval is not part of this mem"
        status = semantic_status(self.memory.store.root, self.settings)
        return str(status.reason)

    def semantic(self, index: Index) -> Any:
        """The semantic searcher for ``index`` (``SemanticSearch``), or None without a model."""
        if not model_name(str(self.settings["semantic"]["model"])):
            return None
        try:
            from memcli.semantic import SemanticSearch
        except ImportError:
            return None
        if self._semantic is None:
            self._semantic = SemanticSearch.open(index, self.memory.store.root, self.settings)
            if self._semantic is None:
                self._semantic = False
        return self._semantic or None

    def search(
        self,
        text: str,
        filters: Filters = NO_FILTERS,
        *,
        limit: int = 10,
        mode: str | None = None,
        strict: bool = False,
        raw: bool = False,
        moment: dt.datetime | None = None,
        exclude: frozenset[str] = frozenset(),
        fallback: bool = True,
    ) -> Outcome:
        """The best ``limit`` memories for ``text``; ``exclude``: ids never returned.

        ``fallback``: when nothing is ranked, a substring match answers (not for
        recall, which never shows one).
        """
        # Text the terminal could not decode arrives as lone surrogates: SQLite takes UTF-8.
        text = text.encode("utf-8", "replace").decode("utf-8")
        wanted = mode or self.settings["search"]["mode"]
        plan = self.plan(text, strict=strict)
        at = moment or now()
        if raw:
            return self.memory.read(lambda index: self._raw(index, text, filters, limit, plan))

        def run(index: Index) -> Outcome:
            semantic = None if strict or wanted == "lexical" else self.semantic(index)
            used = wanted if semantic is not None else "lexical"
            line = self.semantic_line() if used != wanted else ""
            hits, match, common, newest = self._rank(
                index, text, plan, filters, limit, used, semantic, at, exclude
            )
            if hits:
                strategy = "all" if strict else "ranked"
                return Outcome(hits, strategy, plan, used, line, match, common, newest)
            found = index.substring(text, filters, limit=limit + len(exclude)) if fallback else []
            found = [e for e in found if e.id not in exclude][:limit]
            strategy = "substring" if found else "none"
            return Outcome(
                [Hit(e, Parts()) for e in found],
                strategy,
                plan,
                used,
                line,
                match,
                common,
            )

        return self.memory.read(run)

    def _raw(
        self, index: Index, text: str, filters: Filters, limit: int, plan: QueryPlan
    ) -> Outcome:
        entries = index.search(text, filters, limit=limit, raw=True).entries
        hits = [
            Hit(e, Parts(bm25=e.score, lexical=e.score, lexical_rank=n, score=e.score or 0.0))
            for n, e in enumerate(entries, 1)
        ]
        return Outcome(hits, "raw", plan, "lexical", "", text)

    def _rank(
        self,
        index: Index,
        text: str,
        plan: QueryPlan,
        filters: Filters,
        limit: int,
        mode: str,
        semantic: Any,
        moment: dt.datetime,
        exclude: frozenset[str],
    ) -> tuple[list[Hit], str | None, tuple[str, ...], int | None]:
        """The best hits, the MATCH expression that found the candidates, the common words,
        and how many matches were ranked when older ones were left out."""
        weights = self.weights
        window = max(CANDIDATES, limit) + len(exclude)
        entries: dict[str, Entry] = {}
        lexical_rank: dict[str, int] = {}
        bm25: dict[str, float] = {}
        matched: dict[str, int] = {}
        lexical: dict[str, float] = {}
        twins: list[Entry] = []
        match: str | None = None
        common: list[Term] = []
        if mode != "semantic":
            match, common = self._candidate_match(index, plan, window)
        newest = self.ranked_matches()
        newest_only: int | None = None
        if match is not None:
            needed = limit + len(exclude)
            ranking = index.ranking(match, filters, limit=window, newest=newest, needed=needed)
            found = [e for e in ranking.entries if e.id not in exclude]
            if common and len(found) < limit and len(plan.terms) > 1:
                # Too few memories hold every (common) word: any of them, after all.
                match = plan.match()
                assert match is not None
                ranking = index.ranking(match, filters, limit=window, newest=newest, needed=needed)
                found = [e for e in ranking.entries if e.id not in exclude]
            newest_only = newest if ranking.newest_only else None
            terms = len(plan.terms)
            if plan.strict or terms == 1:
                matched = dict.fromkeys((e.id for e in found), terms)
            else:
                matched = index.matched_terms([e.id for e in found], plan.terms)
            for entry in found:
                if entry.id in entries:  # an id two layers hold: each memory is a hit
                    twins.append(entry)
                    continue
                entries[entry.id] = entry
                bm25[entry.id] = entry.score or 0.0
                lexical[entry.id] = coverage_boosted(
                    bm25[entry.id], matched[entry.id], terms, weights.coverage
                )
            order = sorted(found, key=lambda e: -lexical[e.id])  # stable: newest first on ties
            lexical_rank = {e.id: n for n, e in enumerate(order, 1)}
        similarity: dict[str, float] = {}
        semantic_rank: dict[str, int] = {}
        if semantic is not None and mode != "lexical":
            wanted = self.semantic_candidates + len(exclude)
            nearest = [(i, s) for i, s in semantic.nearest(text, wanted) if i not in exclude]
            missing = [i for i, _ in nearest if i not in entries]
            passing = {e.id: e for e in index.with_ids(missing, filters)} if missing else {}
            rank = 0
            floor = semantic_floor(semantic, text, self.settings["search"])
            for identity, value in nearest:
                if value < floor:
                    break  # best first: the rest are as far from the query
                if identity not in entries and identity not in passing:
                    continue  # filtered out
                entries.setdefault(identity, passing.get(identity))  # type: ignore[arg-type]
                rank += 1
                similarity[identity] = value
                semantic_rank[identity] = rank
        hits = []
        for entry in [*entries.values(), *twins]:
            identity = entry.id
            own = entry is entries[identity]  # else a twin: its own bm25, boosted alike
            score = bm25.get(identity) if own else entry.score or 0.0
            boosted = coverage_boosted(
                score or 0.0, matched.get(identity, 0), len(plan.terms), weights.coverage
            )
            parts = self._parts(
                entry,
                moment,
                bm25=score,
                matched=matched.get(identity, 0),
                lexical=lexical.get(identity) if own else boosted,
                lexical_rank=lexical_rank.get(identity),
                similarity=similarity.get(identity),
                semantic_rank=semantic_rank.get(identity),
            )
            hits.append(Hit(entry, parts))
        # Newest first among equal scores: the second sort is stable.
        hits.sort(key=lambda h: (h.entry.created, h.entry.id), reverse=True)
        hits.sort(key=lambda h: -h.parts.score)
        if semantic_rank:
            hits = with_lead_kept(hits, weights.lexical_lead)
        best = [Hit(h.entry._replace(score=round(h.parts.score, 6)), h.parts) for h in hits[:limit]]
        return best, match, tuple(term.text for term in common), newest_only

    @staticmethod
    def _candidate_match(
        index: Index, plan: QueryPlan, window: int
    ) -> tuple[str | None, list[Term]]:
        """The MATCH expression that picks candidates, and the words too common to pick by.

        bm25 scores every memory an OR query matches, so a word most memories
        hold makes a query slow while adding almost nothing to its ranking. In a
        large store such words pick no candidates when rarer ones exist (they
        still count for coverage); when every word is that common, the memories
        holding all of them are the candidates (``_rank`` falls back to any of
        them when those are too few).
        """
        match = plan.match()
        if match is None or plan.strict or len(plan.terms) < 2:
            return match, []
        size = index.store_size()
        if size < COMMON_MINIMUM:
            return match, []
        cap = int(size * COMMON_SHARE) + 1
        counts = index.term_counts(plan.terms, cap)
        present = [t for t, n in zip(plan.terms, counts, strict=True) if n > 0]
        rare = [t for t, n in zip(plan.terms, counts, strict=True) if 0 < n < cap]
        common = [t for t in present if t not in rare]
        if not common:
            return match, []
        if rare:
            return fts_match(rare, any_term=True), common
        return fts_match(present), common

    def _parts(self, entry: Entry, moment: dt.datetime, **found: Any) -> Parts:
        weights = self.weights
        base = fused(found["lexical_rank"], found["semantic_rank"], weights)
        age = (moment - parse_timestamp(entry.created)).total_seconds()
        recency = recency_factor(age, entry.type, weights)
        importance = importance_factor(entry.importance, weights)
        return Parts(
            **found,
            fused=base,
            recency=recency,
            importance=importance,
            score=base * recency * importance,
        )

    def notes(
        self, text: str, *, limit: int = 3, skip: Callable[[NoteHit], bool] | None = None
    ) -> list[tuple[NoteHit, int]]:
        """The best sections of the curated notes for ``text``, with how many terms each has.

        Ranked by bm25 with the same coverage boost as memories; ``skip``: sections
        never returned (those session start shows, for recall).
        """
        plan = self.plan(text)
        match = plan.match()
        if match is None:
            return []

        def run(index: Index) -> list[tuple[NoteHit, int]]:
            found = [
                h for h in index.search_notes(match, limit=limit * 5 + 10) if not (skip and skip(h))
            ]
            if not found:
                return []
            matched = index.note_terms(found, [term.to_fts() for term in plan.terms])
            terms, coverage = len(plan.terms), self.weights.coverage
            scored = sorted(
                zip(found, matched, strict=True),
                key=lambda pair: -coverage_boosted(pair[0].score, pair[1], terms, coverage),
            )
            return scored[:limit]

        return self.memory.read(run)

    def plain_bm25(self, text: str, *, limit: int = 10) -> list[Entry]:
        """Every word of ``text`` OR'ed, ranked by bm25 alone: the baseline of ``mem eval``."""
        match = fts_match(parse_terms(text), any_term=True)
        if match is None:
            return []
        return self.memory.read(lambda index: index.ranked(match, limit=limit))


def explain_sql(match: str | None, newest_only: int | None = None) -> str:
    """The full-text statement a search ran, with its parameters."""
    statement = " ".join(RANK_FTS.split())
    if not match:
        return "(no full-text query)"
    floor = f"the row of the {newest_only:,}th newest match" if newest_only else "0"
    return f"{statement}  -- :match = {match!r}, :floor = {floor}"


def with_lead_kept(hits: list[Hit], lead: int) -> list[Hit]:
    """``hits`` with bm25's first ``lead`` in front (``keep_lead``); each that then stands
    above a hit of a higher score is marked so."""
    kept = keep_lead(hits, lambda h: h.parts.lexical_rank, lead)
    marked = []
    highest_below = -math.inf
    for hit in reversed(kept):
        if hit.parts.score < highest_below:
            hit = Hit(hit.entry, hit.parts._replace(held_by_lead=True))
        highest_below = max(highest_below, hit.parts.score)
        marked.append(hit)
    return marked[::-1]
