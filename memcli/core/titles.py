"""Titles mem derives when none is given, and the file-name slug a title gives."""

from __future__ import annotations

import re
import unicodedata

from memcli.core.validate import clean_title, strip_private

_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s")


def default_title(narrative: str) -> str:
    """The first line of the text, cut at its first sentence end and at a word boundary."""
    for line in narrative.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            break
    else:
        return ""
    line = _SENTENCE_END_RE.split(line, maxsplit=1)[0].rstrip(".")
    from memcli.core.secrets import redacted_head

    if len(line) <= 80:
        return line
    head = redacted_head(line, 80)  # never a part of a secret: the title is cut through it
    cut = head.rsplit(" ", 1)[0]
    return (cut if len(cut) >= 20 else head).rstrip(" ,;:") + "…"


def summary_title(sections: dict[str, str | None], given: str | None) -> str:
    """The given title, else the first line of the request or of what was learned."""
    visible = strip_private(given or "")
    if visible.strip():
        return clean_title(visible)
    for name in ("request", "learned", "completed", "investigated", "next_steps"):
        line = default_title(sections.get(name) or "")
        if line:
            return clean_title(line)
    return "Session summary"


def slugify(title: str, max_chars: int = 50) -> str:
    """An ASCII file-name slug for a title (``memory`` when nothing is left)."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")
    if len(slug) > max_chars:
        slug = slug[:max_chars].rsplit("-", 1)[0] or slug[:max_chars]
    return slug or "memory"
