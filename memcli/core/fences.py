"""Code fences in markdown: which lines are code, and the fence a cut leaves open (pure).

A fence is a line of three or more backticks or tildes, indented by at most three
spaces (CommonMark). It is closed by a line of the same character, at least as long,
with nothing after it; a fence never closed runs to the end of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_FENCE_RE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")


def code_flags(lines: list[str]) -> Iterator[tuple[str, bool, str]]:
    """Each line, whether it is code (inside a fence, or a fence's own line), and the
    fence open after it ('' when none)."""
    fence = ""
    for line in lines:
        match = _FENCE_RE.fullmatch(line.rstrip("\r"))
        if not fence:
            if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
                fence = match.group(1)
                yield line, True, fence
                continue
            yield line, False, ""
            continue
        marker = match.group(1) if match else ""
        closes = bool(
            match
            and marker[0] == fence[0]
            and len(marker) >= len(fence)
            and not match.group(2).strip()
        )
        if closes:
            fence = ""
        yield line, True, fence


def open_fence(text: str) -> str:
    """The fence still open at the end of ``text`` ('' when every fence is closed)."""
    fences = [fence for _, _, fence in code_flags(text.split("\n"))]
    return fences[-1] if fences else ""
