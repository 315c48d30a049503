"""Several layers' indexes read as one: each query asked of every layer, the answers merged.

A ``LayeredIndex`` answers the read queries of ``Index`` (those retrieval and
the read commands use) over the index of each layer present: the user's, the
project's and the team's (``memcli.store.layers``). Each answer is merged the
way one index would have answered it (best bm25 first, newest first, counts
summed), so that the ranking above it (``retrieval.ranking``) runs once over the
candidates of every layer: one ranking, not one per layer. Every entry carries
its layer (``Entry.layer``), set by the index it came from.

Ids are unique across layers (an id two layers hold by mistake is listed in
each, and refused where one memory must be named); keys are resolved in the
nearest layer first (``KEY_ORDER``: project, then team, then user).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

from memcli.core.errors import Ambiguous, InvalidInput, NotFound
from memcli.core.schema import KEY_ORDER
from memcli.index.fts import fts_match, parse_terms
from memcli.index.queries import NO_FILTERS, Entry, Filters, Ranking, SearchResult

if TYPE_CHECKING:
    from memcli.index import Index
    from memcli.index.fts import Term
    from memcli.index.notes import NoteHit

T = TypeVar("T")
TWIN = "\t"
"""Parts an id from its layer where two layers hold that id (``twin_key``)."""


def twin_key(identity: str, layer: str) -> str:
    """How ``standing`` and ``texts`` key a second layer's memory of an id another gave."""
    return f"{identity}{TWIN}{layer}"


def twin_id(key: str) -> str:
    """The memory id of a ``standing`` key."""
    return key.partition(TWIN)[0]


_NEWEST = attrgetter("created", "id")


_QUOTED = re.compile(r'"((?:[^"]|"")*)"(\*?)')
"""A quoted term of an FTS5 MATCH expression mem built, and its prefix star."""


def _idf(size: int, holding: int) -> float:
    """FTS5's own bm25 IDF for a word ``holding`` of ``size`` rows hold (floored as it does)."""
    value = math.log((size - holding + 0.5) / (holding + 0.5))
    return value if value > 0 else 1e-6


def _holding(index: Index, text: str, prefix: bool) -> int:
    """How many of the index's memories hold a term (a phrase: its rarest word, at most)."""
    tokens = index.tokens(text)
    if not tokens:
        return 0
    if prefix:
        return index.holding(tokens[-1], prefix=True)
    return min(index.holding(token) for token in tokens)


def best_entries(lists: Iterable[list[Entry]], limit: int) -> list[Entry]:
    """Best score first and, among equal scores, newest first: the order of one index."""
    merged = sorted((e for entries in lists for e in entries), key=_NEWEST, reverse=True)
    merged.sort(key=lambda entry: -(entry.score or 0.0))
    return merged[:limit]


class LayeredIndex:
    """The indexes of every layer present, read as one (``layers``: nearest layer first)."""

    def __init__(self, layers: Sequence[Index]) -> None:
        self.layers = list(layers)
        self.by_name = {index.layer: index for index in self.layers}

    @property
    def home(self) -> Index:
        """The project's index (tokenizer, settings), else the first layer's."""
        return self.by_name.get("project", self.layers[0])

    def _by_key_order(self) -> list[Index]:
        return [self.by_name[name] for name in KEY_ORDER if name in self.by_name]

    def _each(self, query: Callable[[Index], T]) -> list[T]:
        return [query(index) for index in self.layers]

    @staticmethod
    def _first(indexes: list[Index], query: Callable[[Index], T | None]) -> T | None:
        """The first answer that is not None, asking ``indexes`` in their order."""
        for index in indexes:
            found = query(index)
            if found is not None:
                return found
        return None

    def _merged_twins(self, query: Callable[[Index], dict[str, T]]) -> dict[str, T]:
        """Each layer's answer by id, merged; an id an earlier layer gave already is keyed
        ``twin_key(id, layer)``, so that an id two layers hold keeps both answers."""
        merged: dict[str, T] = {}
        for index in self.layers:
            for identity, value in query(index).items():
                merged[twin_key(identity, index.layer) if identity in merged else identity] = value
        return merged

    def _merged_dicts(self, query: Callable[[Index], dict[str, T]]) -> dict[str, T]:
        merged: dict[str, T] = {}
        for part in self._each(query):
            merged.update(part)
        return merged

    # ---------------------------------------------------------------- ranking

    def ranked(self, match: str, filters: Filters = NO_FILTERS, *, limit: int = 10) -> list[Entry]:
        return self.ranking(match, filters, limit=limit).entries

    def ranking(
        self,
        match: str,
        filters: Filters = NO_FILTERS,
        *,
        limit: int = 10,
        newest: int | None = None,
        needed: int | None = None,
    ) -> Ranking:
        """Each layer's ranking (of its own newest matches), merged as one index's."""
        found = self._each(
            lambda index: index.ranking(match, filters, limit=limit, newest=newest, needed=needed)
        )
        entries = best_entries(self._on_one_scale([f.entries for f in found], match), limit)
        return Ranking(entries, any(f.newest_only for f in found))

    def _on_one_scale(self, found: list[list[Entry]], match: str) -> list[list[Entry]]:
        """Each layer's bm25 scores put on the scale of all layers' joint statistics.

        bm25 weighs a word by how rare it is in ITS index: in a small layer (the
        user's), a word half its memories hold weighs almost nothing (FTS5 floors
        it at 1e-6), and its memories would sink below any project match. Each
        layer's scores are scaled by the ratio of the query words' IDF over all
        layers to their IDF in that layer (exact for one word; for several, the
        sum over the words the layer holds), so the layers rank as one index would.
        """
        phrases = [
            (m.group(1).replace('""', '"'), bool(m.group(2))) for m in _QUOTED.finditer(match)
        ]
        if len(self.layers) < 2 or not phrases or not any(found):
            return found
        sizes = [index.store_size() for index in self.layers]
        holding = [
            [_holding(index, text, prefix) for text, prefix in phrases] for index in self.layers
        ]
        joint = [sum(column) for column in zip(*holding, strict=True)]
        total = sum(sizes)
        scaled = []
        for entries, size, counts in zip(found, sizes, holding, strict=True):
            own = sum(_idf(size, n) for n in counts if n)
            wide = sum(_idf(total, j) for n, j in zip(counts, joint, strict=True) if n)
            factor = wide / own if own > 0 else 1.0
            scaled.append(
                [e._replace(score=float(f"{(e.score or 0.0) * factor:.4g}")) for e in entries]
            )
        return scaled

    def search(
        self, text: str, filters: Filters = NO_FILTERS, *, limit: int = 10, raw: bool = False
    ) -> SearchResult:
        results = self._each(lambda index: index.search(text, filters, limit=limit, raw=raw))
        # The strictest strategy any layer answered with wins, as one index would have.
        order = ("raw", "all", "any", "substring")
        answered = [r for r in results if r.entries] or results
        strategy = min((r.strategy for r in answered), key=order.index)
        chosen = [r.entries for r in results if r.strategy == strategy]
        if strategy == "substring":
            return SearchResult(self._newest(chosen, limit), strategy)
        if strategy != "raw":
            chosen = self._on_one_scale(chosen, fts_match(parse_terms(text)) or "")
        return SearchResult(best_entries(chosen, limit), strategy)

    def substring(
        self, text: str, filters: Filters = NO_FILTERS, *, limit: int = 10
    ) -> list[Entry]:
        return self._newest(self._each(lambda i: i.substring(text, filters, limit=limit)), limit)

    @staticmethod
    def _newest(lists: list[list[Entry]], limit: int) -> list[Entry]:
        merged = sorted((e for entries in lists for e in entries), key=_NEWEST, reverse=True)
        return merged[:limit]

    def with_ids(self, ids: list[str], filters: Filters = NO_FILTERS) -> list[Entry]:
        return [e for index in self.layers for e in index.with_ids(ids, filters)]

    def matched_terms(self, ids: list[str], terms: list[Term]) -> dict[str, int]:
        counts = dict.fromkeys(ids, 0)
        for index in self.layers:
            counts.update(
                {i: n for i, n in index.matched_terms(ids, terms).items() if n or i not in counts}
            )
        return counts

    def token_sets(self, ids: list[str]) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
        return self._merged_dicts(lambda index: index.token_sets(ids))

    def tokens(self, text: str) -> list[str]:
        return self.home.tokens(text)

    def holding(self, token: str, *, prefix: bool = False) -> int:
        return sum(self._each(lambda index: index.holding(token, prefix=prefix)))

    def store_size(self) -> int:
        return sum(self._each(lambda index: index.store_size()))

    def term_counts(self, terms: list[Term], cap: int) -> list[int]:
        counts = self._each(lambda index: index.term_counts(terms, cap))
        return [min(sum(column), cap) for column in zip(*counts, strict=True)]

    def count(self) -> int:
        return sum(self._each(lambda index: index.count()))

    def current_count(self) -> int:
        return sum(self._each(lambda index: index.current_count()))

    def commits(self, ids: list[str]) -> dict[str, str]:
        return self._merged_dicts(lambda index: index.commits(ids))

    def texts(self, ids: list[str]) -> dict[str, str]:
        return self._merged_twins(lambda index: index.texts(ids))

    # -------------------------------------------------------------- listings

    def recent(
        self, filters: Filters = NO_FILTERS, *, limit: int = 20, keyed: bool = False
    ) -> list[Entry]:
        found = self._each(lambda index: index.recent(filters, limit=limit, keyed=keyed))
        return self._newest(found, limit)

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
        """Session start's candidates of every layer: each layer gives its own ``limit``, so a
        busy layer cannot crowd the others out before the one score chooses among them.

        An id another layer gave already is keyed ``twin_key`` (``twin_id`` reads it
        back): both memories are candidates, not the last layer's alone.
        """
        return self._merged_twins(
            lambda index: index.standing(
                types=types,
                floor=floor,
                files=files,
                words=words,
                limit=limit,
                superseded=superseded,
            )
        )

    def around(
        self, anchor: Entry, *, before: int, after: int, kind: str | None = None
    ) -> list[Entry]:
        earlier: list[Entry] = []
        later: list[Entry] = []
        for index in self.layers:
            found = index.around(anchor, before=before, after=after, kind=kind)
            at = next(n for n, e in enumerate(found) if e.id == anchor.id)
            earlier += [e for e in found[:at] if e.id != anchor.id]
            later += [e for e in found[at + 1 :] if e.id != anchor.id]
        earlier = sorted(earlier, key=_NEWEST)[-before:] if before else []
        later = sorted(later, key=_NEWEST)[:after]
        return [*earlier, anchor, *later]

    # ------------------------------------------------------------- resolving

    def resolve(self, ref: str) -> Entry:
        """By full id (any layer), key (nearest layer first), or an id prefix unique in all.

        An id two layers hold (a promotion cut short, a file copied by hand) names no
        one memory: ``Ambiguous``, naming the layers to choose from with ``--layer``.
        """
        found = self.resolve_every(ref)
        if len(found) > 1:
            layers = [entry.layer for entry in found]
            raise Ambiguous(
                f"{found[0].id} is in the {' and the '.join(layers)} layers: "
                f"say which with --layer ({' or '.join(layers)})"
            )
        return found[0]

    def resolve_every(self, ref: str) -> list[Entry]:
        """What ``resolve`` finds, as every layer holds it: one entry, or one per layer
        holding its id (reads show each)."""
        problems: list[NotFound] = []
        exact = ref.strip().upper()
        if len(exact) == 26:
            held = [entry for index in self.layers for entry in index.with_ids([exact])]
            if held:
                return held
        entry = self.by_key(ref.strip()) if ref.strip() else None
        if entry is not None:
            return [entry]
        matches: list[Entry] = []
        for index in self.layers:
            try:
                matches.append(index.resolve(ref))
            except NotFound as exc:
                problems.append(exc)
            except InvalidInput:
                raise
        if len({entry.id for entry in matches}) > 1:
            shown = ", ".join(f"{e.id[:12]} ({e.title[:40]}, {e.layer})" for e in matches[:5])
            raise Ambiguous(
                f"id prefix {ref!r} matches several memories: {shown}; give more characters"
            )
        if matches:
            return matches
        raise problems[0]

    def path_of(self, identity: str) -> str | None:
        return self._first(self.layers, lambda index: index.path_of(identity))

    def exact_duplicate(self, exact: str) -> Entry | None:
        """A current memory with this folded text, nearest layer first."""
        return self._first(self._by_key_order(), lambda index: index.exact_duplicate(exact))

    def replaced_by(self, identity: str) -> list[str]:
        """What the memory supersedes (within its own layer: a supersede names its store's)."""
        return [old for index in self.layers for old in index.replaced_by(identity)]

    def replacing(self, identity: str) -> list[str]:
        """What supersedes the memory, in any layer."""
        return [new for index in self.layers for new in index.replacing(identity)]

    def by_key(self, key: str) -> Entry | None:
        return self._first(self._by_key_order(), lambda index: index.by_key(key))

    def with_key(self, key: str) -> list[Entry]:
        return [e for index in self._by_key_order() for e in index.with_key(key)]

    def short_ids(self, ids: list[str]) -> dict[str, str]:
        """Each id's prefix at one length, unique among the ids of every layer."""
        from memcli.index.short_ids import layered_length

        length = layered_length(self.layers)
        return {identity: identity[:length] for identity in ids}

    # ------------------------------------------------------------------ notes

    def search_notes(self, match: str, limit: int = 10) -> list[NoteHit]:
        found = [
            [hit._replace(layer=index.layer) for hit in index.search_notes(match, limit=limit)]
            for index in self.layers
        ]
        return sorted((hit for hits in found for hit in hits), key=lambda hit: -hit.score)[:limit]

    def note_terms(self, hits: list[NoteHit], terms: list[str]) -> list[int]:
        counts: dict[int, int] = {}
        for index in self.layers:
            mine = [(n, hit) for n, hit in enumerate(hits) if hit.layer == index.layer]
            if mine:
                found = index.note_terms([hit for _, hit in mine], terms)
                counts.update({n: c for (n, _), c in zip(mine, found, strict=True)})
        return [counts.get(n, 0) for n in range(len(hits))]


class OneLayer:
    """One layer's index (a ``--layer`` read) whose short ids are unique in every layer
    present, so that an id it prints is one `mem show` finds without ``--layer``."""

    def __init__(self, index: Index, others: Callable[[], list[Index]]) -> None:
        self.index = index
        self.others = others

    def __getattr__(self, name: str) -> Any:
        return getattr(self.index, name)

    def short_ids(self, ids: list[str]) -> dict[str, str]:
        return LayeredIndex([self.index, *self.others()]).short_ids(ids)
