"""Is a memory already stored? Exact duplicates and near-duplicates, asked of one layer.

Both questions take a :class:`~memcli.service.memory.Memory` (one store, one
layer) and an observation, so that a reader of several layers asks each in turn.
The exact question is one indexed lookup (``memories.exact``); the near one
reads a few candidates from the full-text index (the memories best matching the
observation's rarest words) and compares each with ``retrieval.likeness``: never
the whole store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from memcli.retrieval.likeness import THRESHOLD, features, raw_content_words, similarity

if TYPE_CHECKING:
    from memcli.core.model import Observation
    from memcli.index import Entry, Index
    from memcli.service.memory import Memory

RARE_WORDS = 8
"""The observation's rarest words that the full-text index is asked for."""
CANDIDATES = 20
"""The best matches of those words compared in full."""
MAX_SIMILAR = 3


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
    """The current observations of the same type at least ``threshold`` alike, most alike first."""
    return memory.read(lambda index: _similar(index, observation, threshold))


def _similar(index: Index, observation: Observation, threshold: float) -> list[Similar]:
    from memcli.index import Filters

    match = _rare_words_match(index, observation)
    if match is None:
        return []
    filters = Filters(types=(observation.type,), kind="observation")
    entries = [e for e in index.ranked(match, filters, limit=CANDIDATES) if e.id != observation.id]
    if not entries:
        return []
    narratives = index.texts([e.id for e in entries])
    mine = features(observation.title, observation.facts, observation.narrative)
    scored = [
        Similar(entry, similarity(mine, features(entry.title, entry.facts, narratives[entry.id])))
        for entry in entries
    ]
    found = [s for s in scored if s.similarity >= threshold]
    found.sort(key=lambda s: (-s.similarity, s.entry.created, s.entry.id))
    return found[:MAX_SIMILAR]


def _rare_words_match(index: Index, observation: Observation) -> str | None:
    """An FTS5 query for any of the observation's rarest content words (None: it has none)."""
    text = "\n".join([observation.title, *observation.facts, observation.narrative])
    counted = []
    for word in sorted(raw_content_words(text)):
        tokens = index.tokens(word)
        if len(tokens) == 1:
            counted.append((index.holding(tokens[0]), word))
    if not counted:
        return None
    counted.sort()
    rare = [word for count, word in counted if count > 0][:RARE_WORDS]
    if not rare:
        return None
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in rare)
