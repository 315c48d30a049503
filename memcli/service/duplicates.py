"""Is a memory already stored? Exact duplicates and near-duplicates, asked of one layer.

Both questions take a :class:`~memcli.service.memory.Memory` (one store, one
layer) and an observation, so that a reader of several layers asks each in turn.
The exact question is one indexed lookup (``memories.exact``); the near one
reads a few candidates from the full-text index (the memories best matching the
observation's rarest words) and compares each with ``retrieval.likeness``: never
the whole store. With a ``[semantic] model`` whose vectors are in the index, the
near one is the cosine of the observation's embedding with its nearest memories
instead (``COSINE_THRESHOLD``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from memcli.retrieval.likeness import (
    THRESHOLD,
    features,
    is_rare,
    raw_content_words,
    similarity,
    stem,
)

if TYPE_CHECKING:
    from memcli.core.model import Observation
    from memcli.index import Entry, Index
    from memcli.service.memory import Memory

RARE_WORDS = 8
"""The observation's rarest words that the full-text index is asked for."""
MAX_WORDS = 24
"""Of a long memory, its longest words only are counted."""
COMMON = 100
"""A word held by this many memories is common: its count stops there."""
ALL_OF = 4
CANDIDATES = 20
"""The best matches of those words compared in full."""
MAX_SIMILAR = 3
COSINE_THRESHOLD = 0.9
"""With a model on, memories at least this close (cosine) are near-duplicates. Not tuned
on eval/similar_pairs.jsonl, which needs a real model (``bench/similar_pairs.py --model``
reports it): a cautious value, above what static models give related but distinct texts."""


class Similar(NamedTuple):
    entry: Entry
    similarity: float

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.entry.id,
            "key": self.entry.key,
            "type": self.entry.type,
            "title": self.entry.title,
            "similarity": round(self.similarity, 3),
        }


def exact_duplicate(memory: Memory, observation: Observation) -> Entry | None:
    """The current observation with the same type and folded text, if one is stored."""
    from memcli.core.text import exact_key

    key = exact_key(observation.type, observation.title, observation.narrative, observation.facts)
    found = memory.read(lambda index: index.exact_duplicate(key))
    return found if found is not None and found.id != observation.id else None


def similar_memories(
    memory: Memory, observation: Observation, *, threshold: float = THRESHOLD
) -> list[Similar]:
    """The current observations of the same type at least ``threshold`` alike, most alike first.

    By cosine when a semantic model chosen in the settings is on (and its vectors are
    current), else by words. mem's bundled model is not asked: its cosine does not tell
    the same words stating different facts ("port 8080" and "port 9090") from a
    rewording, and the word check was tuned on such pairs.
    """
    from memcli.core.model_choice import BUNDLED

    model = memory.semantic_model()
    if model and model != BUNDLED and not memory.semantic_problem:
        near = memory.read(lambda index: _by_cosine(memory, index, observation))
        if near is not None:
            return near
    return memory.read(lambda index: _similar(index, observation, threshold))


def _by_cosine(memory: Memory, index: Index, observation: Observation) -> list[Similar] | None:
    """The nearest memories by the model's cosine; None when semantic search cannot open."""
    import json

    from memcli.core import config
    from memcli.index import Filters
    from memcli.semantic import SemanticSearch
    from memcli.semantic.sync import embedded_text

    search = SemanticSearch.open(index, memory.store.root, config.load(memory.store.root))
    if search is None:
        return None
    text = embedded_text(observation.title, json.dumps(observation.facts), observation.narrative)
    nearest = {i: c for i, c in search.nearest(text, CANDIDATES) if c >= COSINE_THRESHOLD}
    if not nearest:
        return []
    filters = Filters(types=(observation.type,), kind="observation")
    found = [
        Similar(entry, nearest[entry.id])
        for entry in index.with_ids(list(nearest), filters)
        if entry.id != observation.id
    ]
    found.sort(key=lambda s: (-s.similarity, s.entry.created, s.entry.id))
    return found[:MAX_SIMILAR]


def _similar(index: Index, observation: Observation, threshold: float) -> list[Similar]:
    from memcli.index import Filters

    match = _rare_words_match(index, observation)
    if match is None:
        return []
    # Ranked without filters (a filtered ranking joins many more rows), then chosen here.
    ranked = index.ranked(match, Filters(superseded=True), limit=CANDIDATES)
    entries = [
        e
        for e in ranked
        if e.kind == "observation"
        and e.type == observation.type
        and e.id != observation.id
        and not index.replacing(e.id)
    ]
    if not entries:
        return []
    narratives = index.texts([e.id for e in entries])
    mine = features(observation.title, observation.facts, observation.narrative)
    texts = [_text(observation.title, observation.facts, observation.narrative)]
    texts += [_text(e.title, e.facts, narratives[e.id]) for e in entries]
    rare = store_rarity(index, texts)
    scored = [
        Similar(
            entry, similarity(mine, features(entry.title, entry.facts, narratives[entry.id]), rare)
        )
        for entry in entries
    ]
    found = [s for s in scored if s.similarity >= threshold]
    found.sort(key=lambda s: (-s.similarity, s.entry.created, s.entry.id))
    return found[:MAX_SIMILAR]


def _text(title: str, facts: Sequence[str], narrative: str) -> str:
    return "\n".join([title, *facts, narrative])


def store_rarity(index: Index, texts: Sequence[str]) -> Callable[[str], bool]:
    """Whether a stemmed word of these texts is rare in the store (``likeness.is_rare``),
    counted in the full-text index when first asked, up to ``COMMON``."""
    from memcli.index.fts import Term

    written: dict[str, str] = {}
    for text in texts:
        for word in raw_content_words(text):
            written.setdefault(stem(word), word)
    memories = index.count()
    known: dict[str, bool] = {}

    def rare(word: str) -> bool:
        if word not in known:
            raw = written.get(word, word)
            (held,) = index.term_counts([Term(raw)], COMMON)
            known[word] = is_rare(raw, held, memories)
        return known[word]

    return rare


def _rare_words_match(index: Index, observation: Observation) -> str | None:
    """An FTS5 query for the memories sharing the observation's rarest words (None: no words).

    How many memories hold a word is counted only up to ``COMMON`` (a common word's
    full count would walk its whole list). Words held by fewer: any of the rarest.
    Every word common: all of the ``ALL_OF`` longest (a near-duplicate has most words).
    """
    from memcli.index.fts import Term

    text = "\n".join([observation.title, *observation.facts, observation.narrative])
    words = sorted(raw_content_words(text), key=lambda w: (-len(w), w))[:MAX_WORDS]
    if not words:
        return None
    counts = index.term_counts([Term(w) for w in words], COMMON)
    rare = sorted((count, word) for count, word in zip(counts, words, strict=True))
    chosen = [word for count, word in rare if 0 < count < COMMON][:RARE_WORDS]
    joint = " OR "
    if not chosen:
        chosen, joint = (
            [w for count, w in zip(counts, words, strict=True) if count][:ALL_OF],
            " AND ",
        )
    if not chosen:
        return None
    return joint.join('"' + word.replace('"', '""') + '"' for word in chosen)
