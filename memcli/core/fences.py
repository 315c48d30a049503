"""Code fences in markdown: which lines are code, and the fence a cut leaves open (pure).

A fence is a line of three or more backticks or tildes (CommonMark), indented by
spaces: in mem's own output a memory's text sits in a list item, so its fences are
indented. It is closed by a line of the same character, at least as long, with
nothing after it; a fence never closed runs to the end of the text. Fences inside
block quotes are not looked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_FENCE_RE = re.compile(r"([ \t]*)(`{3,}|~{3,})(.*)")


def code_flags(lines: list[str]) -> Iterator[tuple[str, bool, str]]:
    """Each line, whether it is code (inside a fence, or a fence's own line), and the
    fence open after it: the line that would close it, indented as it was opened
    ('' when none)."""
    indent, marker = "", ""
    for line in lines:
        match = _FENCE_RE.fullmatch(line.rstrip("\r")) if "``" in line or "~~" in line else None
        if not marker:
            if match and not (match.group(2)[0] == "`" and "`" in match.group(3)):
                indent, marker = match.group(1), match.group(2)
                yield line, True, indent + marker
                continue
            yield line, False, ""
            continue
        if (
            match
            and match.group(2)[0] == marker[0]
            and len(match.group(2)) >= len(marker)
            and not match.group(3).strip()
        ):
            marker = ""
        yield line, True, indent + marker if marker else ""


def open_fence(text: str) -> str:
    """The fence still open at the end of ``text`` ('' when every fence is closed)."""
    if not has_fences(text):
        return ""
    fences = [fence for _, _, fence in code_flags(text.split("\n"))]
    return fences[-1] if fences else ""


def has_fences(text: str) -> bool:
    """Whether ``text`` may hold a fence at all (most text holds none: a quick look)."""
    return "```" in text or "~~~" in text


def closed(text: str) -> str:
    """``text`` with the fence it leaves open closed."""
    fence = open_fence(text)
    return f"{text}\n{fence}" if fence else text


def line_ends(text: str) -> Iterator[tuple[int, int, str]]:
    """For each line of ``text`` followed by a newline: where that newline is, where the
    text before it ends without trailing blanks, and the fence open there. One pass."""
    position = 0
    content_end = 0
    for line, _, fence in code_flags(text.split("\n")):
        end = position + len(line)
        if line.strip():
            content_end = position + len(line.rstrip())
        if end < len(text):
            yield end, content_end, fence
        position = end + 1
