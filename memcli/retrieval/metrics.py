"""Ranking quality measures over binary relevance (pure).

``ranked`` is what a search returned, best first; ``relevant`` the ids a person
marked as right answers. Each measure is 0 for a miss and 1 for a perfect list.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence


def recall_at(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """The share of the relevant memories found in the first ``k``."""
    if not relevant:
        return 0.0
    return len(set(ranked[:k]) & set(relevant)) / len(set(relevant))


def reciprocal_rank(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """1 / the rank of the first relevant memory in the first ``k``; 0 when there is none."""
    for rank, identity in enumerate(ranked[:k], 1):
        if identity in relevant:
            return 1.0 / rank
    return 0.0


def ndcg_at(ranked: Sequence[str], relevant: Collection[str], k: int) -> float:
    """Discounted cumulative gain of the first ``k``, over the best possible."""
    wanted = set(relevant)
    if not wanted:
        return 0.0
    gain = sum(1.0 / math.log2(rank + 1) for rank, i in enumerate(ranked[:k], 1) if i in wanted)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(wanted), k) + 1))
    return gain / ideal
