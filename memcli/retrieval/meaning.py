"""Evidence from meaning for the recall gate, calibrated in the store it is measured in.

A cosine means different things in different stores and under different models:
a static model gives unrelated text of a store 0.2 to 0.4, a sentence encoder
nearer 0, and an in-domain prompt that nothing answers comes as close to its
nearest memory as a prompt that one memory answers. So no cosine is a threshold
here. What counts is how far the prompt's nearest memory stands above what the
same model gives the same prompt against a fixed sample of this store's texts
(the *background*, ``BACKGROUND`` of them: ``semantic.search.background``), in
units of that sample's spread:

* ``z``: the nearest memory's cosine minus the background's mean, over its
  standard deviation: how unlike the store at large the nearest memory is;
* ``lead``: the nearest memory's cosine minus the ``LEAD_RANK``-th nearest's,
  over the same deviation: whether one memory stands out, or many are as close.

The gate (``retrieval.gate``) judges the words; this module adds two ways for a
memory to be shown that the words alone withhold:

1. *agreement*: the memory the words cover best is also the one nearest in
   meaning, and its evidence reaches ``agree_evidence`` (well below
   ``min_evidence``): two unlike rankings choosing the same memory is evidence
   neither gives alone ("Keep the exchange rates in Redis for an hour");
2. *meaning alone*: the nearest memory's ``z`` reaches ``meaning_z`` and its
   ``lead`` ``meaning_lead``, and the words rank it among their first
   ``LEXICAL_PLACES`` at least: a prompt in other words than the memory's.

The settings were chosen on the tune half of both labelled suites of ``mem eval``
(generated distractors, and real release notes) and are reported on the other.
``read`` asks the index; the rest is pure.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from memcli.retrieval.gate import Judged

if TYPE_CHECKING:
    from memcli.index import Index
    from memcli.retrieval.search import Searcher

BACKGROUND = 200
"""Texts of the store in the background sample."""
NEAREST = 12
"""Nearest memories asked for (the ``LEAD_RANK``-th among them, what the agent has left out)."""
LEAD_RANK = 10
LEXICAL_PLACES = 3
"""Meaning alone shows a memory only if the words' ranking has it this high."""
MIN_BACKGROUND = 20
"""A smaller store has no background to measure against: the words decide alone."""


class Meaning(NamedTuple):
    """The prompt's nearest memory, measured against the store's background."""

    best: str
    similarity: float
    z: float
    lead: float

    def describe(self) -> str:
        return f"similarity {self.similarity:.2f}, {self.z:.1f} deviations above the store's"


def read(searcher: Searcher, index: Index, prompt: str, left_out: frozenset[str]) -> Meaning | None:
    """The prompt's ``Meaning`` in this index; None without a model."""
    semantic = searcher.semantic(index)
    if semantic is None:
        return None
    nearest = semantic.nearest(prompt, NEAREST + len(left_out))
    return measure(nearest, semantic.background(prompt, BACKGROUND), left_out)


def floor(background: Sequence[float], deviations: float) -> float | None:
    """The cosine ``deviations`` standard deviations above the background's mean: what a
    memory must reach to count as near in meaning at all (None: too small a sample)."""
    if len(background) < MIN_BACKGROUND:
        return None
    return statistics.fmean(background) + deviations * statistics.pstdev(background)


def measure(
    nearest: Sequence[tuple[str, float]],
    background: Sequence[float],
    left_out: frozenset[str] = frozenset(),
) -> Meaning | None:
    """The nearest memory the agent does not have, and how far it stands out; None when
    the store is too small to say."""
    ranked = [(ident, value) for ident, value in nearest if ident not in left_out]
    if len(background) < MIN_BACKGROUND or len(ranked) < LEAD_RANK:
        return None
    mean = statistics.fmean(background)
    spread = statistics.pstdev(background)
    if not math.isfinite(spread) or spread <= 1e-9:
        return None
    best, value = ranked[0]
    z = (value - mean) / spread
    lead = (value - ranked[LEAD_RANK - 1][1]) / spread
    return Meaning(best, value, z, lead)


def weigh_in(
    judged: list[Judged],
    meaning: Meaning | None,
    lexical_rank: dict[str, int | None],
    settings: dict[str, Any],
    left_out: frozenset[str] = frozenset(),
) -> list[Judged]:
    """``judged`` (the gate's verdicts, best covered first) with what meaning adds shown."""
    if meaning is None or not judged:
        return judged
    shown = sum(j.shown for j in judged)
    out = []
    for n, verdict in enumerate(judged):
        why = _reason(n, verdict, meaning, lexical_rank, settings)
        if (
            why
            and not verdict.shown
            and verdict.id not in left_out
            and shown < settings["limit"]
            and "left out" not in verdict.why
        ):
            verdict = verdict._replace(shown=True, why=why)
            shown += 1
        out.append(verdict)
    return out


def _reason(
    n: int,
    verdict: Judged,
    meaning: Meaning,
    lexical_rank: dict[str, int | None],
    settings: dict[str, Any],
) -> str:
    """Why meaning shows this candidate ('' when it does not)."""
    if verdict.id != meaning.best:
        return ""
    if n == 0 and verdict.coverage > 0 and verdict.evidence >= settings["agree_evidence"]:
        return (
            f"the words and the meaning agree: evidence {verdict.evidence:.2f} reaches "
            f"{settings['agree_evidence']:.2f}, and it is the nearest in meaning"
        )
    place = lexical_rank.get(verdict.id)
    if (
        place is not None
        and place <= LEXICAL_PLACES
        and meaning.z >= settings["meaning_z"]
        and meaning.lead >= settings["meaning_lead"]
    ):
        return (
            f"it stands out in meaning: {meaning.describe()} (reaches {settings['meaning_z']:g}), "
            f"{meaning.lead:.1f} above the {LEAD_RANK}th nearest (reaches "
            f"{settings['meaning_lead']:g})"
        )
    return ""
