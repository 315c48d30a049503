"""Curated markdown (MEMORY.md, notes/**/*.md) cut into sections by heading (pure).

A chunk is one section: its heading path (``Deploy > Rollback``), the line it
starts on (1-based: the heading's line, or where a later part of a long section
starts) and its text, the lines up to the next heading of any level, heading
lines themselves left out. ATX headings only (``#`` to ``######``); a ``#`` line
inside a fenced code block (``` or ~~~) is text. Text before the first heading is
a chunk titled by the file's first heading, or its name when it has none.

Bounded: only the first ``MAX_NOTE_BYTES`` of a file are read, a section longer
than ``MAX_CHUNK_CHARS`` is split at blank lines (then at lines, then inside a
line), and a file gives at most ``MAX_CHUNKS`` chunks. One pass over the lines,
with anchored regular expressions that cannot backtrack.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import chain
from typing import NamedTuple

from memcli.core.text import one_line

MEMORY_MD = "MEMORY.md"
NOTES_DIR = "notes"
MAX_NOTE_BYTES = 1 << 20
"""Only so much of a notes file is read and indexed."""
MAX_CHUNK_CHARS = 2000
MAX_CHUNKS = 2000
HEADING_SEPARATOR = " > "
EXCERPT_CHARS = 300

_HEADING_RE = re.compile(r" {0,3}(#{1,6})(?:[ \t](.*))?$")
_MARKS = ("#", "`", "~")
_FENCE_RE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)$")


class Chunk(NamedTuple):
    heading: str
    """The heading path, outermost first: ``Deploy > Rollback``."""
    line: int
    """Where the chunk starts, 1-based."""
    text: str


def is_note_path(path: str) -> bool:
    """``MEMORY.md`` at the store's root, or a markdown file at any depth under ``notes/``."""
    if path == MEMORY_MD:
        return True
    parts = path.split("/")
    return (
        len(parts) >= 2
        and parts[0] == NOTES_DIR
        and path.endswith(".md")
        and all(part and not part.startswith(".") for part in parts)
        and "\\" not in path
        and "\x00" not in path
    )


def heading_of(line: str) -> tuple[int, str] | None:
    """``(level, text)`` when the line is an ATX heading, else None."""
    match = _HEADING_RE.match(line)
    if match is None:
        return None
    text = (match.group(2) or "").strip(" \t")
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        text = bare.rstrip(" \t")  # a closing sequence: ``## Title ##``
    return len(match.group(1)), text


def chunk_markdown(text: str, name: str) -> list[Chunk]:
    """The sections of a markdown text; ``name`` titles text that comes before any heading."""
    sections = _sections([line.removesuffix("\r") for line in text.split("\n")])
    preamble = next(sections)
    following = next(sections, None)  # the first heading titles the preamble
    first_heading = following[0] if following is not None else ""
    chunks: list[Chunk] = []
    for heading, start, lines in chain([preamble], [following] if following else [], sections):
        title = (first_heading or name) if start == 0 else (heading or name)
        for line, part in _parts(max(start, 1), lines):
            chunks.append(Chunk(title, line, part))
            if len(chunks) == MAX_CHUNKS:
                return chunks  # the sections after are never cut
    return chunks


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """A section's text on one line: at most ``limit`` characters, cut after a whole word."""
    return one_line(text, limit)


def _sections(lines: list[str]) -> Iterator[tuple[str, int, list[tuple[int, str]]]]:
    """``(heading path, heading line, [(line number, text)])`` each.

    The text before the first heading comes first, always, as line 0, then the
    first heading's section, always (it titles the text before it); later
    sections with no line under them are not yielded.
    """
    path: list[tuple[int, str]] = []
    start = 0
    body_lines: list[tuple[int, str]] = []
    fence: str | None = None
    sections = 0
    for number, line in enumerate(lines, 1):
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and stripped == fence[0] * len(stripped):
                fence = None
            body_lines.append((number, line))
            continue
        mark = line[:4].lstrip(" ")[:1]
        if mark not in _MARKS:
            body_lines.append((number, line))  # the common case: no heading, no fence
            continue
        if mark != "#":
            opening = _FENCE_RE.match(line)
            if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
                fence = opening.group(1)
            body_lines.append((number, line))
            continue
        found = heading_of(line)
        if found is None:
            body_lines.append((number, line))
            continue
        if body_lines or sections < 2:
            yield _joined_path(path), start, body_lines
            sections += 1
        level = found[0]
        path = [item for item in path if item[0] < level]
        path.append(found)
        start, body_lines = number, []
    yield _joined_path(path), start, body_lines


def _joined_path(path: list[tuple[int, str]]) -> str:
    return HEADING_SEPARATOR.join(text for _, text in path if text)


def _parts(start: int, lines: list[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """The section's text in pieces of at most MAX_CHUNK_CHARS; blank ones dropped.

    Cut at blank lines where it can, else between lines, else inside a line.
    The first piece starts at the heading's line, later ones where they start.
    """
    lines = _trimmed(lines)
    if not lines:
        return
    text = "\n".join(line for _, line in lines)
    if len(text) <= MAX_CHUNK_CHARS:
        yield start, text
        return
    piece: list[tuple[int, str]] = []
    first = True
    size = -1  # the characters of the piece joined by newlines
    for number, line in lines:
        for cut in _cut_line(line):
            while piece and size + 1 + len(cut) > MAX_CHUNK_CHARS:
                blanks = [n for n, (_, text) in enumerate(piece) if n and not text.strip()]
                at = blanks[-1] if blanks else len(piece)
                done = _trimmed(piece[:at])
                yield (start if first else done[0][0]), _joined(done)
                first = False
                piece = _trimmed(piece[at:])
                size = len(_joined(piece)) if piece else -1
            if piece or cut.strip():
                piece.append((number, cut))
                size += 1 + len(cut)
    if piece:
        yield (start if first else piece[0][0]), _joined(piece)


def _trimmed(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Without the blank lines at either end."""
    first, last = 0, len(lines)
    while first < last and not lines[first][1].strip():
        first += 1
    while last > first and not lines[last - 1][1].strip():
        last -= 1
    return lines[first:last]


def _joined(lines: list[tuple[int, str]]) -> str:
    return "\n".join(text for _, text in lines)


def _cut_line(line: str) -> list[str]:
    """A line no longer than MAX_CHUNK_CHARS, or its pieces (cut at a space where one is)."""
    pieces = []
    while len(line) > MAX_CHUNK_CHARS:
        space = line.rfind(" ", MAX_CHUNK_CHARS // 2, MAX_CHUNK_CHARS)
        at = space + 1 if space > 0 else MAX_CHUNK_CHARS
        pieces.append(line[:at])
        line = line[at:]
    pieces.append(line)
    return pieces
