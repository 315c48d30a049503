"""Cutting text to a length the way people read it (pure)."""

from __future__ import annotations


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut after a whole word, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"
