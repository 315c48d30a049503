"""Whether a tool result failed, told by its output when its status says nothing.

A command piped through ``| tail`` or ``| grep error:`` exits 0 while its output shows
the failure. Only signs a passing run never prints count: a compiler's or linker's
``error:``, a traceback, an exception's name with its message, ``FAILED``, a test
summary with failures, a failed probe. Only the output's last part is read.
"""

from __future__ import annotations

import re

MAX_READ_CHARS = 2000
_FAILED_OUTPUT = re.compile(
    r"\berror(?:\[\w+\])?: |\bFAILED\b|\bFAILURE\b|\bTraceback \(most recent call last\)"
    r"|\w(?:Error|Exception): |\b[1-9]\d* (?:failed|failing)\b|\bFailures: [1-9]"
    r"|(?i:probe failed\b)|\bAborted with [1-9]|\bundefined reference to\b"
)

_WORDS = ("rror", "xception", "FAIL", "ail", "Abort", "undefined")
"""One of these is in every output ``_FAILED_OUTPUT`` matches: a cheap test first."""


def looks_failed(output: str) -> bool:
    """Whether ``output`` shows a failure (conservatively: a clean run never says so)."""
    tail = output[-MAX_READ_CHARS:]
    return any(word in tail for word in _WORDS) and bool(_FAILED_OUTPUT.search(tail))
