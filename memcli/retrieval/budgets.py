"""Fitting text to a budget of characters: clip one value, drop whole items, cut at last."""

from __future__ import annotations

from collections.abc import Callable

from memcli.core.fences import open_fence
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
    room = limit - 1
    while room > 0:
        newline = text.rfind("\n", 0, room)
        if newline <= 0:
            break
        kept = text[:newline].rstrip()
        fence = open_fence(kept)
        closed = f"{kept}\n{fence}\n…" if fence else f"{kept}\n…"
        if len(closed) <= limit:
            return closed
        room = newline  # the closing fence did not fit: cut a line earlier
    head = clip(text, limit)  # not a line fits: cut at a word
    return "…" if open_fence(head) else head


def cut_to_budget(text: str, budget: int) -> str:
    """The last resort: drop the end of the text, at a line boundary, never mid-word.

    A budget too small for the mark gives nothing at all (``budget = 0`` turns a context off).
    """
    if len(text) <= budget:
        return text
    if budget <= len(CUT_MARK):
        return ""
    room = budget - len(CUT_MARK)
    while room > 0:
        boundary = text.rfind("\n", 0, room)
        if boundary <= 0:
            boundary = text.rfind(" ", 0, room)
        kept = text[:boundary].rstrip() if boundary > 0 else ""
        fence = open_fence(kept)  # the mark is not code: a fence the cut leaves open is closed
        cut = f"{kept}\n{fence}{CUT_MARK}" if fence else kept + CUT_MARK
        if len(cut) <= budget:
            return cut
        room = boundary  # no room for the closing fence: cut earlier
    return CUT_MARK


def fit(render: Callable[[], str], trimmers: list[Callable[[], bool]], budget: int) -> str:
    """Render; while over budget, let the first trimmer that still can drop something."""
    text = render()
    while len(text) > budget:
        if not any(trim() for trim in trimmers):
            return cut_to_budget(text, budget)
        text = render()
    return text
