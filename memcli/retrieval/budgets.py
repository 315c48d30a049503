"""Fitting text to a budget of characters: clip one value, drop whole items, cut at last."""

from __future__ import annotations

from collections.abc import Callable

from memcli.core.fences import line_ends, open_fence
from memcli.core.text import clip

__all__ = ["clip", "clip_lines", "cut_to_budget", "fit"]

MAX_FACT_CHARS = 300
MAX_SUMMARY_CHARS = 1500
MAX_EXCERPT_CHARS = 600
"""How much of one fact, one summary's body and one recalled memory's text is shown."""
CUT_MARK = "\n[…cut to fit the context budget]"


def clip_lines(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at the end of a line (or a word, for one long line).

    A cut inside a code fence closes it, so that the text after it is not read as code.
    """
    if len(text) <= limit:
        return text
    kept = _last_line_end(text[: limit - 1], limit - len("\n…"))
    if kept is not None:
        return f"{kept}\n…"
    head = clip(text, limit)  # not a line fits: cut at a word
    return "…" if open_fence(head) else head


def cut_to_budget(text: str, budget: int) -> str:
    """The last resort: drop the end of the text, at a line boundary, never mid-word.

    A fence the cut leaves open is closed first: the mark is not code. A budget too
    small for the mark gives nothing at all (``budget = 0`` turns a context off).
    """
    if len(text) <= budget:
        return text
    if budget <= len(CUT_MARK):
        return ""
    room = budget - len(CUT_MARK)
    kept = _last_line_end(text[:room], room)
    if kept is None:  # not a line fits: the first, cut at a word
        boundary = text.rfind(" ", 0, room)
        kept = text[:boundary].rstrip() if boundary > 0 else ""
        if open_fence(kept):
            kept = ""
    return kept + CUT_MARK


def _last_line_end(head: str, room: int) -> str | None:
    """The longest part of ``head`` that ends a line (trailing blanks dropped), with the
    fence it leaves open closed, in at most ``room`` characters; None when none fits.
    One pass over ``head``, however many lines it steps back."""
    best: tuple[int, str] | None = None
    for _, content_end, fence in line_ends(head):
        if content_end > 0 and content_end + (len(fence) + 1 if fence else 0) <= room:
            best = (content_end, fence)
    if best is None:
        return None
    end, fence = best
    return f"{head[:end]}\n{fence}" if fence else head[:end]


def fit(render: Callable[[], str], trimmers: list[Callable[[], bool]], budget: int) -> str:
    """Render; while over budget, let the first trimmer that still can drop something."""
    text = render()
    while len(text) > budget:
        if not any(trim() for trim in trimmers):
            return cut_to_budget(text, budget)
        text = render()
    return text
