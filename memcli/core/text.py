"""Cutting text to a length the way people read it (pure)."""

from __future__ import annotations

import re

# C0 and C1 control characters and DEL: a terminal would act on them (colours, titles,
# the clipboard), and a NUL ends strings in C.
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]+")


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut after a whole word, marked with an ellipsis.

    What is cut is redacted first: a secret the cut goes through is kept in none of its part.
    """
    from memcli.core.secrets import redacted_head

    if len(text) <= limit:
        return text
    cut = redacted_head(text, limit - 1)
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"


def one_line(text: str, limit: int) -> str:
    """``text`` as one printable line of at most ``limit`` characters."""
    from memcli.core.secrets import redacted_head

    head = text if len(text) <= limit * 4 else redacted_head(text, limit * 4)
    return clip(" ".join(_CONTROL_RE.sub(" ", head).split()), limit)
