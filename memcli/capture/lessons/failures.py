"""Whether a tool result failed, told by its output when its status says nothing.

A command piped through ``| tail`` or ``| grep error:`` exits 0 while its output shows
the failure. Only signs a passing run never prints count: a compiler's or linker's
``error:``, a traceback, an exception's name with its message, ``FAILED``, a test
summary with failures, a failed probe. Only the output's last part is read.
"""

from __future__ import annotations

import re

MAX_READ_CHARS = 2000
_SIGNS: tuple[tuple[str, re.Pattern[str] | None], ...] = (
    ("error", re.compile(r"\berror(?:\[\w+\])?: ")),
    ("FAIL", re.compile(r"\bFAIL(?:ED|URE)\b")),
    ("Traceback (most recent call last)", None),
    ("Error: ", re.compile(r"\wError: ")),
    ("Exception: ", re.compile(r"\wException: ")),
    (" fail", re.compile(r"\b[1-9]\d* fail(?:ed|ing)\b")),
    ("Failures: ", re.compile(r"Failures: [1-9]")),
    ("robe failed", None),
    ("Aborted with ", re.compile(r"\bAborted with [1-9]")),
    ("undefined reference to", None),
)
"""Each sign of a failure: a substring that must be there (a quick test), then the
pattern that tells it, if the substring alone does not."""


def looks_failed(output: str) -> bool:
    """Whether ``output`` shows a failure (conservatively: a clean run never says so)."""
    tail = output[-MAX_READ_CHARS:]
    return any(
        needle in tail and (pattern is None or pattern.search(tail) is not None)
        for needle, pattern in _SIGNS
    )
