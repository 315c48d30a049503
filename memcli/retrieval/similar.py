"""Near-identical memories, told apart by their words (pure): each is shown once.

Two memories are near-identical when their normalised text (title and facts:
lowercased, words only) is the same, or when the sets of their word shingles
(runs of ``SHINGLE`` words) overlap by at least ``THRESHOLD`` (Jaccard), or when
their content words (stemmed, each word a negation bears on marked as negated)
overlap by at least ``WORDS_THRESHOLD`` (and their shingles by ``SOME_SHINGLES``):
the same fact said in another order is shown once, while "use" and "do not use"
stay two. Neither holds when each holds a content word the other has no form of
(``contrast.substituted``): "the timeout is 30 s" and "… 60 s", or another path or
name in the same long sentence, are two facts. Cheap enough for the few dozen
memories a context or a recall shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

SHINGLE = 3
THRESHOLD = 0.8
WORDS_THRESHOLD = 0.9
SOME_SHINGLES = 0.3
"""Alike by content words counts only with this share of the shingles in common too:
"tabs over spaces" and "spaces over tabs" have the same words."""
_WORD_RE = re.compile(r"[^\W_]+")
_WORD = "\x00"
"""The first character of a signature's content-word items (never that of a shingle)."""
T = TypeVar("T")


def signature(title: str, facts: Sequence[str] = ()) -> frozenset[str]:
    """The word shingles of a memory's title and facts (its words, when it has few),
    and its content words (``_WORD`` first; ``!`` after it for a negated one)."""
    from memcli.retrieval.contrast import negated_words, polarity
    from memcli.retrieval.likeness import content_words, stem

    text = " ".join([title, *facts])
    words = _WORD_RE.findall(text.lower())
    if len(words) < SHINGLE:
        shingles = frozenset([" ".join(words)]) if words else frozenset()
    else:
        shingles = frozenset(map(" ".join, zip(*(words[n:] for n in range(SHINGLE)), strict=False)))
    negated = set(negated_words(text, stem))
    marked = {_WORD + ("!" if w in negated else "") + w for w in content_words(text)}
    marked |= {_WORD + "~" + side for side in polarity(text)}
    return shingles | marked


def words(text: str) -> set[str]:
    """The distinct words of ``text``, lowercased."""
    return set(_WORD_RE.findall(text.lower()))


def says_more(text: str, *shown: str) -> bool:
    """Whether ``text`` holds a word none of ``shown`` holds: reading them is not reading it."""
    return not words(text) <= words(" ".join(shown))


def near_identical(a: frozenset[str], b: frozenset[str], threshold: float = THRESHOLD) -> bool:
    if not a or not b:
        return False
    if a == b:
        return True
    (words_a, shingles_a), (words_b, shingles_b) = _split(a), _split(b)
    shared = len(a & b)
    return _alike(
        words_a, shingles_a, words_b, shingles_b, len(words_a & words_b), shared, threshold
    )


def _split(signature: frozenset[str]) -> tuple[frozenset[str], int]:
    """The content-word items of a signature, and how many shingles it has."""
    words = frozenset(item for item in signature if item.startswith(_WORD))
    return words, len(signature) - len(words)


def _alike(
    words_a: frozenset[str],
    shingles_a: int,
    words_b: frozenset[str],
    shingles_b: int,
    words_shared: int,
    shared: int,
    threshold: float,
) -> bool:
    """By shingles at least ``threshold`` alike, or by content words ``WORDS_THRESHOLD``;
    and neither holding a word the other has no form of."""
    shingles_shared = shared - words_shared
    if not shingles_a or not shingles_b:
        return False
    by_shingles = shingles_shared / (shingles_a + shingles_b - shingles_shared)
    if by_shingles < threshold:
        if by_shingles < SOME_SHINGLES or not words_a or not words_b:
            return False  # the same words in another order may say the opposite
        if words_shared / (len(words_a) + len(words_b) - words_shared) < WORDS_THRESHOLD:
            return False
    return not _substituted(words_a, words_b)


def _substituted(words_a: frozenset[str], words_b: frozenset[str]) -> bool:
    """Each holds a content word the other has no form of (another number, path or name)."""
    from memcli.retrieval.contrast import substituted
    from memcli.retrieval.likeness import every_word

    return substituted(_plain(words_a), _plain(words_b), every_word)


def _plain(words: frozenset[str]) -> frozenset[str]:
    """The content words of a signature's word items, negated or not (opposites left out)."""
    return frozenset(item[1:].lstrip("!") for item in words if not item.startswith(_WORD + "~"))


def distinct(
    items: Iterable[T],
    sign: Callable[[T], frozenset[str]],
    seen: Iterable[frozenset[str]] = (),
    *,
    limit: int | None = None,
) -> tuple[list[T], list[T]]:
    """``items`` in order without those near-identical to an earlier one (or to ``seen``).

    Returns what is kept and what was left out; ``limit``: stop once this many are
    kept (the items after are in neither list). Only memories sharing a shingle
    are compared.
    """
    kept: list[T] = []
    dropped: list[T] = []
    shown = Shingles()
    for signature_seen in seen:
        shown.add(signature_seen)
    for item in items:
        if limit is not None and len(kept) >= limit:
            break
        mine = sign(item)
        if shown.twin(mine):
            dropped.append(item)
            continue
        shown.add(mine)
        kept.append(item)
    return kept, dropped


class Shingles:
    """Signatures already shown, found again by the shingles they share."""

    def __init__(self) -> None:
        self.signatures: list[tuple[frozenset[str], int]] = []
        self.holders: dict[str, list[int]] = {}

    def add(self, signature: frozenset[str]) -> None:
        number = len(self.signatures)
        self.signatures.append(_split(signature))
        for shingle in signature:
            self.holders.setdefault(shingle, []).append(number)

    def twin(self, signature: frozenset[str], threshold: float = THRESHOLD) -> bool:
        """Whether a signature added before is near-identical to this one."""
        if not signature:
            return False
        shared: dict[int, int] = {}
        for shingle in signature:
            for number in self.holders.get(shingle, ()):
                shared[number] = shared.get(number, 0) + 1
        words, shingles = _split(signature)
        for number, both in shared.items():
            their_words, their_shingles = self.signatures[number]
            words_shared = len(words & their_words)
            if _alike(words, shingles, their_words, their_shingles, words_shared, both, threshold):
                return True
        return False
