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
    return frozenset(" ".join(words[n : n + SHINGLE]) for n in range(len(words) - SHINGLE + 1))


def near_identical(a: frozenset[str], b: frozenset[str], threshold: float = THRESHOLD) -> bool:
    if not a or not b:
        return False
    if a == b:
        return True
    return len(a & b) / len(a | b) >= threshold


def distinct(
    items: Iterable[T],
    sign: Callable[[T], frozenset[str]],
    seen: Iterable[frozenset[str]] = (),
) -> tuple[list[T], list[T]]:
    """``items`` in order without those near-identical to an earlier one (or to ``seen``).

    Returns what is kept and what was left out.
    """
    kept: list[T] = []
    dropped: list[T] = []
    signatures = list(seen)
    for item in items:
        mine = sign(item)
        if any(near_identical(mine, other) for other in signatures):
            dropped.append(item)
            continue
        signatures.append(mine)
        kept.append(item)
    return kept, dropped
