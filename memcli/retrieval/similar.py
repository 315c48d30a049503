"""Near-identical memories, told apart by their words (pure): each is shown once.

Two memories are near-identical when their normalised text (title and facts:
lowercased, words only) is the same, or when the sets of their word shingles
(runs of ``SHINGLE`` words) overlap by at least ``THRESHOLD`` (Jaccard). Cheap
enough for the few dozen memories a context or a recall shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

SHINGLE = 3
THRESHOLD = 0.8
_WORD_RE = re.compile(r"[^\W_]+")
T = TypeVar("T")


def signature(title: str, facts: Sequence[str] = ()) -> frozenset[str]:
    """The word shingles of a memory's title and facts (its words, when it has few)."""
    words = _WORD_RE.findall(" ".join([title, *facts]).lower())
    if len(words) < SHINGLE:
        return frozenset([" ".join(words)]) if words else frozenset()
    return frozenset(map(" ".join, zip(*(words[n:] for n in range(SHINGLE)), strict=False)))


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
    if min(len(a), len(b)) < threshold * max(len(a), len(b)):
        return False  # the overlap cannot reach the threshold
    return len(a & b) / len(a | b) >= threshold


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
        self.sizes: list[int] = []
        self.holders: dict[str, list[int]] = {}

    def add(self, signature: frozenset[str]) -> None:
        number = len(self.sizes)
        self.sizes.append(len(signature))
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
        mine = len(signature)
        return any(
            both / (mine + self.sizes[number] - both) >= threshold
            for number, both in shared.items()
        )
