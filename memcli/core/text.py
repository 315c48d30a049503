"""Cutting text to a length the way people read it (pure)."""

from __future__ import annotations

import re

# C0 and C1 control characters and DEL: a terminal would act on them (colours, titles,
# the clipboard), and a NUL ends strings in C.
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]+")


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut after a whole word, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"


def one_line(text: str, limit: int) -> str:
    """``text`` as one printable line of at most ``limit`` characters."""
    return clip(" ".join(_CONTROL_RE.sub(" ", text[: limit * 4]).split()), limit)


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """``1 memory``, ``2 memories``, ``1,000 files``: a number and its noun, agreed."""
    noun = singular if number == 1 else (plural or f"{singular}s")
    return f"{number:,} {noun}"
