"""How alike two memories are, by their words (pure): duplicates refused, near-duplicates named.

An *exact duplicate* has the same type and the same folded text (title, narrative and
facts, with case, whitespace and punctuation folded): ``core.text.exact_key`` is the same.

*Near-duplicates* are told by ``similarity``: the Jaccard overlap of the pairs of
neighbouring content words (stop words out, plural and verb endings cut) of the
title, facts and narrative (``PAIRS_WEIGHT``), of those words themselves
(``WORDS_WEIGHT``: the same fact said in another order), and of the title's
content words (``TITLE_WEIGHT``). Pairs tell "tabs over spaces" from "spaces over
tabs". Two memories that contradict each other (a negation or an opposite on one
side only) or each hold a rare word the other lacks (another service, number or
path) are ``APART`` less alike (``contrast``). ``THRESHOLD`` was chosen on
eval/similar_pairs.jsonl (``python bench/similar_pairs.py`` reports it): the
lowest value with a precision of at least 0.9.

``sketch`` is a MinHash of the same pairs, for finding candidates among many
memories without comparing every two (``service.dedupe``).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Sequence
from typing import NamedTuple

from memcli.retrieval.contrast import contradicts, negated_words, polarity, substituted
from memcli.retrieval.stopwords import ENGLISH

THRESHOLD = 0.6
TITLE_WEIGHT = 0.3
WORDS_WEIGHT = 0.3
PAIRS_WEIGHT = 1 - TITLE_WEIGHT - WORDS_WEIGHT
APART = 0.5
"""Two memories that contradict each other, or name different things, are this much less alike."""
RARE_SHARE = 0.002
RARE_HOLDERS = 5
"""A word held by at most this many memories, or this share of the store's, is rare."""
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
    cache = _STEMS
    if len(cache) > MAX_CACHED_WORDS:
        cache.clear()
    out = []
    for word in _WORD_RE.findall(text.lower()):
        stemmed = cache.get(word)
        if stemmed is None:
            stemmed = cache[word] = "" if word in ENGLISH else stem(word)
        if stemmed:
            out.append(stemmed)
    return out


_STEMS: dict[str, str] = {}
"""Each word seen, stemmed ('' for a stop word): a store repeats its words."""
MAX_CACHED_WORDS = 200_000


class Features(NamedTuple):
    """What ``similarity`` compares of one memory."""

    title: frozenset[str]
    pairs: frozenset[str]
    words: frozenset[str] = frozenset()
    negated: tuple[str, ...] = ()
    """The word each negation bears on (``contrast.negated_words``)."""
    sides: frozenset[str] = frozenset()
    """The sides of opposites it says (``contrast.polarity``)."""


def features(title: str, facts: Sequence[str], narrative: str) -> Features:
    text = "\n".join([title, *facts, narrative])
    words = content_words(text)
    return Features(
        frozenset(content_words(title)),
        frozenset(word_pairs(words)),
        frozenset(words),
        negated_words(text, stem),
        polarity(text),
    )


def text_pairs(title: str, facts: Sequence[str], narrative: str) -> frozenset[str]:
    """The word pairs of a memory's title, facts and narrative."""
    return frozenset(word_pairs(content_words("\n".join([title, *facts, narrative]))))


def word_pairs(words: list[str]) -> list[str]:
    """Neighbouring words as pairs (the one word when there is only one)."""
    if len(words) < 2:
        return words[:]
    return list(map(" ".join, zip(words, words[1:], strict=False)))


def every_word(word: str) -> bool:
    """Rare, when nothing is known of the store."""
    return True


def similarity(a: Features, b: Features, rare: Callable[[str], bool] = every_word) -> float:
    """From 0 (nothing shared) to 1 (the same words in the same order).

    Word pairs, words and title words overlapping; cut by ``APART`` when the two
    contradict each other (a negation or an opposite on one side only) or each holds
    a rare word the other lacks (another name, number or path: ``contrast``).
    ``rare``: whether a stemmed word is rare in the store (by default every word is).
    """
    alike = (
        PAIRS_WEIGHT * _jaccard(a.pairs, b.pairs)
        + WORDS_WEIGHT * _jaccard(a.words, b.words)
        + TITLE_WEIGHT * _jaccard(a.title, b.title)
    )
    if contradicts((a.words, b.words), (a.negated, b.negated), (a.sides, b.sides)):
        return alike * APART
    if substituted(a.words, b.words, rare):
        return alike * APART
    return alike


def is_rare(word: str, held_by: int, memories: int) -> bool:
    """Whether a word held by ``held_by`` of a store's ``memories`` is rare there (a
    number always is: another number is another fact)."""
    return held_by <= max(RARE_HOLDERS, RARE_SHARE * memories) or _DIGIT_RE.search(word) is not None


_DIGIT_RE = re.compile(r"\d")


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
_EMPTY = 1 << 32


def sketch(title: str, facts: Sequence[str], narrative: str) -> tuple[int, ...]:
    """A MinHash of the memory's word pairs by one permutation.

    Each stemmed word is a number of 24 bits (from its CRC-32: the same in every
    run, so a store's candidates are too), a pair two such numbers, hashed by
    multiplication. Each
    hash falls in one of ``SKETCH_SIZE`` bins, whose least value is kept; an empty
    bin takes the next full bin's (densified), so that short memories have whole
    sketches too.
    """
    return sketch_numbers(word_numbers("\n".join([title, *facts, narrative])))


def sketch_numbers(numbers: list[int]) -> tuple[int, ...]:
    """``sketch`` of a text's ``word_numbers``."""
    if not numbers:
        return ()
    if len(numbers) == 1:
        shingles = {numbers[0]}
    else:
        shingles = {a << 24 | b for a, b in zip(numbers, numbers[1:], strict=False)}
    size = SKETCH_SIZE
    bins = [_EMPTY] * size
    for shingle in shingles:
        value = (shingle * _MULTIPLIER & _MASK64) >> 32
        slot = value % size
        value //= size
        if value < bins[slot]:
            bins[slot] = value
    if _EMPTY in bins:
        full = [n for n in range(size) if bins[n] != _EMPTY]
        for n in range(size):
            if bins[n] == _EMPTY:
                donor = next((f for f in full if f > n), full[0])
                bins[n] = bins[donor] + _EMPTY * ((donor - n) % size)
    return tuple(bins)


_MULTIPLIER = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1
_NUMBERS: dict[str, int] = {}
"""Each word seen, as the number of its stem (0 for a stop word)."""


def stem_number(word: str) -> int:
    """The number of a stemmed word (never 0)."""
    return (zlib.crc32(word.encode("utf-8")) & 0xFFFFFF) or 1


def word_numbers(text: str) -> list[int]:
    """The text's content words, in order, each as the number of its stem."""
    numbers = _NUMBERS
    out = []
    for word in _WORD_RE.findall(text.lower()):
        number = numbers.get(word)
        if number is None:
            if len(numbers) > MAX_CACHED_WORDS:
                numbers.clear()
            number = 0 if word in ENGLISH else stem_number(stem(word))
            numbers[word] = number
        if number:
            out.append(number)
    return out


def bands(values: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The sketch's bands, each tagged with its number (equal bands: a candidate pair)."""
    return [
        (n, *values[start : start + BAND_ROWS])
        for n, start in enumerate(range(0, len(values), BAND_ROWS))
    ]
