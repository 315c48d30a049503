"""The recall gate: how much of what a prompt says its best memory covers.

Each content term of the prompt weighs what it tells apart, as bm25 weighs it:
``ln(1 + (N - n + 0.5) / (n + 0.5))`` for a term ``n`` of the store's ``N``
memories hold. A rare word (``lockfile``, ``Alembic``) outweighs several common
ones, and a word no memory holds weighs the most: that part of the prompt is
something the store does not know. A memory's *coverage* is the weighted share
of the prompt's terms it holds: in full in what the memory is about (its
title, facts, concepts, files and type), by ``NARRATIVE_SHARE`` when only its
narrative mentions them, as bm25 weighs those fields apart. Light variants of
a word count as the word: the stemmer's plurals and tenses, a noun in -sion
and its verb (decision, decide), and the short forms people type (config,
configuration).

Every prompt is taken to say a little more than its words (``UNSAID``, one
word no memory holds): a prompt made only of common words ("run the tests and
tell me what fails") cannot be covered in full by a memory that happens to
hold them all. Words no memory holds weigh ``UNKNOWN_WORDS`` such words at
most together: a prompt that pastes a log or code is full of names the store
never saw, and what it asks is in the words the store knows.

The prompt's *evidence* is its best memory's coverage plus ``margin_weight``
times that memory's lead over the next one: one memory standing out is a
better sign than many sharing the same few words. Recall answers when the
evidence reaches ``min_evidence``, or the lower ``cue_evidence`` when the prompt
has a cue (a question, a file name, a time word, length); then every memory
covering at least ``relative_score`` of what the best covers is shown, at most
``limit``. With a semantic model, a memory at least ``min_similarity`` close in
meaning is shown too. Everything but the counts is pure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

ALTERNATIONS = (("is", "id"), ("us", "ud"), ("ens", "end"), ("ans", "and"), ("iss", "it"))
"""Stem endings of a noun in -sion and of its verb: decis/decid (decision, decide),
inclus/includ, extens/extend, suspens/suspend, expans/expand, permiss/permit."""
MIN_ALTERNATING = 5
"""Shorter stems keep their ending (``sens``, sense, is no form of ``send``)."""
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "auth": ("authent", "author"),
    "config": ("configur",),
    "db": ("databas",),
    "dep": ("depend",),
    "env": ("environ",),
    "repo": ("repositori",),
}
"""Short forms people type, as index tokens, and the stems of the words they stand for."""
_EXPANSIONS = {stem: short for short, stems in ABBREVIATIONS.items() for stem in stems}
UNSAID = 1.0
"""What every prompt says beyond its words, in words no memory holds (chosen on the eval)."""
UNKNOWN_WORDS = 2.0
"""What the words no memory holds weigh together, at most, in such words (chosen on the eval)."""
NARRATIVE_SHARE = 0.5
"""What a term held only by a memory's narrative counts for (chosen on the eval)."""
Tokens = tuple[frozenset[str], frozenset[str]]
"""A memory's index tokens: of what it is about, and of its narrative."""


class Forms(NamedTuple):
    """The index tokens that count as one token of a prompt."""

    exact: frozenset[str]
    prefixes: tuple[str, ...] = ()
    """Tokens starting with one of these count too."""

    def held_by(self, tokens: frozenset[str]) -> bool:
        if not self.exact.isdisjoint(tokens):
            return True
        return any(token.startswith(self.prefixes) for token in tokens) if self.prefixes else False


class Weighed(NamedTuple):
    """A content term of the prompt, what counts as it, and what it weighs."""

    term: str
    forms: tuple[Forms, ...]
    """One for each of its tokens (a phrase has several; all must be held)."""
    holding: int
    """About how many memories hold it (its forms counted)."""
    weight: float

    def held_by(self, tokens: frozenset[str]) -> bool:
        return bool(self.forms) and all(form.held_by(tokens) for form in self.forms)


class Weights(NamedTuple):
    """A prompt's weighed terms and its whole weight, the unsaid part included."""

    terms: list[Weighed]
    total: float


class Judged(NamedTuple):
    """One candidate memory, the evidence for it, and whether it is shown."""

    id: str
    coverage: float
    held: tuple[str, ...]
    """The prompt's terms it holds."""
    margin: float
    """Its coverage minus the best other candidate's (negative unless it is the best)."""
    similarity: float | None
    evidence: float
    shown: bool
    why: str


def forms(token: str) -> Forms:
    """What counts as ``token`` (an index token, stemmed): itself and its light variants."""
    exact = {token}
    prefixes: list[str] = []
    if len(token) >= MIN_ALTERNATING:
        for noun, verb in ALTERNATIONS:
            for mine, other in ((noun, verb), (verb, noun)):
                if token.endswith(mine):
                    exact.add(token[: -len(mine)] + other)
    if len(token) > 3 and token[-1] in "iy":
        exact.add(token[:-1] + ("y" if token[-1] == "i" else "i"))  # deploi, deploy(ment)
    if token in ABBREVIATIONS:
        prefixes += ABBREVIATIONS[token]
    for stem, short in _EXPANSIONS.items():
        if token.startswith(stem):
            exact.add(short)
            prefixes.append(stem)
    return Forms(frozenset(exact), tuple(prefixes))


def idf(holding: int, size: int) -> float:
    """bm25's inverse document frequency: always above zero, largest for a word nobody holds."""
    holding = min(max(holding, 0), size)
    return math.log(1.0 + (size - holding + 0.5) / (holding + 0.5))


def weigh(
    terms: Sequence[tuple[str, list[str], bool]],
    size: int,
    holding: Callable[[str, bool], int],
) -> Weights:
    """Each term (its text, its index tokens, whether it is a prefix) with its weight.

    ``holding(token, prefix)``: how many memories hold the token, or a token it starts.
    A term's count is that of its rarest token, its forms summed (at most ``size``).
    """
    weighed = []
    for text, tokens, prefix in terms:
        all_forms = tuple(
            Forms(frozenset(), (token,)) if prefix and n == len(tokens) - 1 else forms(token)
            for n, token in enumerate(tokens)
        )
        counts = [
            sum(holding(token, False) for token in form.exact)
            + sum(holding(start, True) for start in form.prefixes)
            for form in all_forms
        ]
        held = min(min(counts, default=0), size)
        weighed.append(Weighed(text, all_forms, held, idf(held, size)))
    most = idf(0, size)
    known = sum(term.weight for term in weighed if term.holding)
    unknown = sum(term.weight for term in weighed if not term.holding)
    return Weights(weighed, known + min(unknown, UNKNOWN_WORDS * most) + UNSAID * most)


def coverage(prompt: Weights, tokens: Tokens) -> tuple[float, tuple[str, ...]]:
    """The weighted share of the prompt a memory's tokens hold, and which of its terms."""
    about, narrative = tokens
    held: list[str] = []
    weight = 0.0
    for term in prompt.terms:
        if term.held_by(about):
            weight += term.weight
        elif term.held_by(narrative):
            weight += NARRATIVE_SHARE * term.weight
        else:
            continue
        held.append(term.term)
    return (weight / prompt.total if prompt.total > 0 else 0.0), tuple(held)


def judge(
    candidates: Sequence[tuple[str, Tokens, float | None]],
    prompt: Weights,
    settings: dict[str, Any],
    cued: bool,
    left_out: frozenset[str] = frozenset(),
) -> list[Judged]:
    """Every candidate (id, tokens, similarity; in ranking order) judged, best covered first.

    Ties keep the ranking's order. The evidence of the best decides whether
    recall answers at all; the others follow it when close enough. Those in
    ``left_out`` (the agent has them already) are never shown, but still weigh as
    rivals: a lone weak match is no answer because its equals were left out.
    """
    scored = [(ident, *coverage(prompt, tokens), sim) for ident, tokens, sim in candidates]
    scored.sort(key=lambda row: -row[1])  # stable: ranking order among equals
    need = settings["cue_evidence"] if cued else settings["min_evidence"]
    weight, relative = settings["margin_weight"], settings["relative_score"]
    shares = [row[1] for row in scored]
    best = shares[0] if shares else 0.0
    floor = settings["min_similarity"]
    close = [sim for *_, sim in scored if sim is not None and sim >= floor]
    best_meaning = max(close, default=0.0)
    second = shares[1] if len(shares) > 1 else 0.0
    answers = best > 0 and best + weight * (best - second) >= need
    judged: list[Judged] = []
    shown = 0
    for n, (ident, share, held, sim) in enumerate(scored):
        margin = share - (second if n == 0 else best)  # the best other one
        evidence = share + weight * margin
        if n == 0:
            passed, why = _best_verdict(share, margin, evidence, need, weight)
        elif not answers:
            passed, why = False, "the best memory's evidence is too weak"
        elif share <= 0 or share < relative * best:
            passed = False
            why = f"coverage {share:.2f} is below {relative:.0%} of the best's {best:.2f}"
        else:
            passed = True
            why = f"coverage {share:.2f} is at least {relative:.0%} of the best's {best:.2f}"
        if not passed and sim is not None and sim >= floor and sim >= relative * best_meaning:
            passed, why = True, f"similarity {sim:.2f} reaches {floor:.2f}"
        if ident in left_out:
            passed, why = False, "left out: the agent has it already"
        if passed and shown >= settings["limit"]:
            passed, why = False, f"beyond the limit of {settings['limit']}"
        shown += passed
        judged.append(Judged(ident, share, held, margin, sim, evidence, passed, why))
    return judged


def _best_verdict(
    share: float, margin: float, evidence: float, need: float, weight: float
) -> tuple[bool, str]:
    parts = f"evidence {evidence:.2f} (coverage {share:.2f} + {weight:g} x margin {margin:.2f})"
    if share > 0 and evidence >= need:
        return True, f"{parts} reaches {need:.2f}"
    return False, f"{parts} is below {need:.2f}"
