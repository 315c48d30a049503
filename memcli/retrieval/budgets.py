"""Fitting text to a budget of characters: clip one value, drop whole items, cut at last."""

from __future__ import annotations

from collections.abc import Callable

from memcli.core.text import clip

__all__ = ["clip", "clip_lines", "cut_to_budget", "fit"]

MAX_FACT_CHARS = 300
MAX_SUMMARY_CHARS = 1500
MAX_EXCERPT_CHARS = 600
"""How much of one fact, one summary's body and one recalled memory's text is shown."""
CUT_MARK = "\n[…cut to fit the context budget]"


def clip_lines(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at the end of a line (or a word, for one long line)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    newline = cut.rfind("\n")
    if newline > 0:
        return cut[:newline].rstrip() + "\n…"
    return clip(text, limit)


def cut_to_budget(text: str, budget: int) -> str:
    """The last resort: drop the end of the text, at a line boundary, never mid-word.

    A budget too small for the mark gives nothing at all (``budget = 0`` turns a context off).
    """
    if len(text) <= budget:
        return text
    if budget <= len(CUT_MARK):
        return ""
    room = max(budget - len(CUT_MARK), 0)
    cut = text[:room]
    boundary = cut.rfind("\n")
    if boundary <= 0:
        boundary = cut.rfind(" ")
    return (cut[:boundary] if boundary > 0 else "").rstrip() + CUT_MARK


def fit(render: Callable[[], str], trimmers: list[Callable[[], bool]], budget: int) -> str:
    """Render; while over budget, let the first trimmer that still can drop something."""
    text = render()
    while len(text) > budget:
        if not any(trim() for trim in trimmers):
            return cut_to_budget(text, budget)
        text = render()
    return text
