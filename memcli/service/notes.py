"""One section of a notes file (MEMORY.md, notes/**/*.md), as search and recall cite it.

Search and recall name a note section ``notes/deploy.md:12``; ``mem show`` takes
that reference back and prints the section it points into.
"""

from __future__ import annotations

import re
from typing import Any

from memcli.core.chunks import chunk_markdown, is_note_path
from memcli.core.errors import InvalidInput
from memcli.store.files import Store

_NOTE_REF_RE = re.compile(r"(?P<path>[^:]+\.md)(?::(?P<line>[0-9]{1,9}))?")


def parse_note_ref(ref: str) -> tuple[str, int] | None:
    """``(path, line)`` for ``notes/x.md:12``, ``notes/x.md`` or ``MEMORY.md``; else None."""
    match = _NOTE_REF_RE.fullmatch(ref)
    if match is None or not is_note_path(match["path"]):
        return None
    return match["path"], int(match["line"] or 1)


def note_section(store: Store, path: str, line: int) -> dict[str, Any]:
    """The section of the note that holds ``line``: path, line, heading and text.

    ``InvalidMemoryFile`` says why when the file is missing or cannot be read, and
    ``InvalidInput`` when it has no such line.
    """
    text = store.read_note(path).decode("utf-8", errors="replace")
    lines = text.count("\n") + (not text.endswith("\n"))
    if not 1 <= line <= max(lines, 1):
        raise InvalidInput(f"{path} has no line {line}: it has {lines} (lines count from 1)")
    chunks = chunk_markdown(text, path.rsplit("/", 1)[-1].removesuffix(".md"))
    chosen = chunks[0] if chunks else None
    for chunk in chunks:
        if chunk.line <= line:
            chosen = chunk
    if chosen is None:
        return {"path": path, "line": 1, "heading": "", "text": ""}
    return {"path": path, "line": chosen.line, "heading": chosen.heading, "text": chosen.text}
