"""Turning what people type into FTS5 queries that cannot fail (pure).

By default every word is quoted, so ``NOT``, ``-``, ``:``, ``(``, ``NEAR`` and
``*`` inside a word are just text. Two forms keep their meaning because people
expect them: ``"an exact phrase"`` and a trailing ``*`` for a prefix (``index*``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

MAX_TERMS = 64
_TOKEN_RE = re.compile(r'"([^"]*)"|(\S+)')
_WORD_CHAR_RE = re.compile(r"[^\W_]", re.UNICODE)
# FTS5 ends a string at NUL; no control character is part of a word anyway.
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


class Term(NamedTuple):
    text: str
    prefix: bool = False
    phrase: bool = False

    def to_fts(self) -> str:
        quoted = '"' + self.text.replace('"', '""') + '"'
        return quoted + "*" if self.prefix else quoted


def parse_terms(query: str, limit: int = MAX_TERMS) -> list[Term]:
    """The first ``limit`` searchable terms of a query (words with no letter or digit dropped)."""
    terms: list[Term] = []
    for match in _TOKEN_RE.finditer(_CONTROL_RE.sub(" ", query)):
        phrase, word = match.group(1), match.group(2)
        if phrase is not None:
            text, prefix, is_phrase = phrase.strip(), False, True
        else:
            text = word.strip('"')
            prefix = text.endswith("*") and len(text.rstrip("*")) > 0
            text = text.rstrip("*") if prefix else text
            is_phrase = False
        if _WORD_CHAR_RE.search(text):
            terms.append(Term(text, prefix, is_phrase))
        if len(terms) == limit:
            break
    return terms


def fts_match(terms: list[Term], *, any_term: bool = False) -> str | None:
    """All terms (implicit AND), or any of them; None when nothing is searchable."""
    if not terms:
        return None
    return (" OR " if any_term else " ").join(term.to_fts() for term in terms)


def like_pattern(text: str) -> str:
    """A LIKE pattern matching ``text`` anywhere, with ``\\`` as the escape character."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"
