"""How alike two memories are, by their words (pure): duplicates refused, near-duplicates named.

An *exact duplicate* has the same type and the same folded text (narrative and
facts, with case, whitespace and punctuation folded): ``core.text.exact_key`` is the same.

*Near-duplicates* are told by ``similarity``: the Jaccard overlap of the pairs of
neighbouring content words (stop words out, plural and verb endings cut) of the
title, facts and narrative, weighted ``1 - TITLE_WEIGHT``, plus the overlap of
the title's content words. Pairs survive a word dropped or two words swapped
better than longer runs do, and tell "tabs over spaces" from "spaces over tabs"
better than single words. ``THRESHOLD`` was chosen on eval/similar_pairs.jsonl
(``python bench/similar_pairs.py`` reports it): the lowest value with a precision
of at least 0.9.

``Sketch`` is a MinHash of the same pairs, for finding candidates among many
memories without comparing every two (``retrieval.dedupe``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import NamedTuple
from zlib import crc32

from memcli.retrieval.stopwords import ENGLISH

THRESHOLD = 0.55
TITLE_WEIGHT = 0.3
_WORD_RE = re.compile(r"[^\W_]+")
_ENDINGS = ("ing", "ed", "es", "s")


def stem(word: str) -> str:
    """A plural or a verb ending cut (``uploads``, ``uploaded``, ``uploading``: ``upload``)."""
    for ending in _ENDINGS:
        if len(word) > len(ending) + 2 and word.endswith(ending):
            return word[: -len(ending)]
    return word


def raw_content_words(text: str) -> set[str]:
    """The content words as written, lowercased (the full-text index stems them itself)."""
    return {w for w in _WORD_RE.findall(text.lower()) if w not in ENGLISH}


def content_words(text: str) -> list[str]:
    """The words that carry meaning, in order: lowercased, stop words out, stemmed."""
    return [stem(w) for w in _WORD_RE.findall(text.lower()) if w not in ENGLISH]


class Features(NamedTuple):
    """What ``similarity`` compares of one memory."""

    title: frozenset[str]
    pairs: frozenset[str]


def features(title: str, facts: Sequence[str], narrative: str) -> Features:
    words = content_words("\n".join([title, *facts, narrative]))
    return Features(frozenset(content_words(title)), frozenset(word_pairs(words)))


def word_pairs(words: list[str]) -> list[str]:
    """Neighbouring words as pairs (the one word when there is only one)."""
    if len(words) < 2:
        return words[:]
    return [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]


def similarity(a: Features, b: Features) -> float:
    """From 0 (nothing shared) to 1 (the same words in the same order)."""
    return (1 - TITLE_WEIGHT) * _jaccard(a.pairs, b.pairs) + TITLE_WEIGHT * _jaccard(
        a.title, b.title
    )


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    both = len(a & b)
    return both / (len(a) + len(b) - both)


# ------------------------------------------------------------------- MinHash

SKETCH_SIZE = 30
BAND_ROWS = 3
"""A sketch is cut into bands of this many values; two memories whose sketches agree on
a whole band are candidates. With 10 bands of 3, a pair whose word pairs overlap by
0.6 is a candidate 9 times in 10, by 0.7 almost always, by 0.02 once in 12,000."""
_MASKS = tuple(
    int.from_bytes(hashlib.sha1(f"mem-sketch-{n}".encode()).digest()[:4], "big")
    for n in range(SKETCH_SIZE)
)


def sketch(pairs: frozenset[str]) -> tuple[int, ...]:
    """A MinHash of the word pairs: for each mask, the least hash XOR mask."""
    if not pairs:
        return ()
    hashes = [crc32(pair.encode()) for pair in pairs]
    return tuple(min(map(mask.__xor__, hashes)) for mask in _MASKS)


def bands(values: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The sketch's bands, each tagged with its number (equal bands: a candidate pair)."""
    return [
        (n, *values[start : start + BAND_ROWS])
        for n, start in enumerate(range(0, len(values), BAND_ROWS))
    ]
