"""What a query asks for: its content terms, the stop words dropped, how to match (pure).

People and agents type sentences ("why does the upload keep failing after a
minute?"). Requiring every word of such a sentence finds nothing, so by default
the content words are OR'ed and bm25 ranks them, with a boost for matching more
of them (``retrieval.ranking``). Phrases and ``prefix*`` keep their meaning and
are never dropped as stop words. A query made only of stop words keeps them all:
it still answers.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memcli.index.fts import MAX_TERMS, Term, fts_match, parse_terms

_EDGE_PUNCTUATION = "'`\".,;:!?()[]{}<>"
# Words as the index's tokenizer splits them (letters and digits; "_", ".", "/" separate),
# keeping an apostrophe inside a word so that "don't" meets the stop-word list whole.
_WORD_RE = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


class QueryPlan(NamedTuple):
    terms: list[Term]
    """The terms searched, in the order typed, each once."""
    dropped: list[str]
    """The stop words left out."""
    strict: bool = False
    """Every term must match (``--all``), instead of any of them."""

    def match(self) -> str | None:
        """The FTS5 MATCH expression; None when nothing is searchable."""
        return fts_match(self.terms, any_term=not self.strict)


def normalized(word: str) -> str:
    """A word as stop-word lists and term counting see it: lowercase, no edge punctuation."""
    return word.lower().strip(_EDGE_PUNCTUATION)


MAX_PLANNED_CHARS = 20_000
"""Of a longer prompt, the end is read: that is where people put the question."""


def plan_query(text: str, stop_words: frozenset[str], *, strict: bool = False) -> QueryPlan:
    """The terms of ``text`` worth searching; all of them if every one is a stop word.

    At most ``MAX_TERMS`` terms, the last ones when a long prompt has more: after a
    paragraph of context, the question comes at the end.
    """
    kept: list[Term] = []
    dropped: list[str] = []
    seen: set[tuple[str, bool, bool]] = set()
    every: list[Term] = []
    for term in _words(parse_terms(text[-MAX_PLANNED_CHARS:], limit=MAX_PLANNED_CHARS)):
        word = normalized(term.text) if not term.phrase else " ".join(term.text.lower().split())
        identity = (word, term.prefix, term.phrase)
        if not word or identity in seen:
            continue
        seen.add(identity)
        cleaned = Term(word if not term.phrase else term.text, term.prefix, term.phrase)
        every.append(cleaned)
        if not term.phrase and not term.prefix and word in stop_words:
            dropped.append(word)
        else:
            kept.append(cleaned)
    if not kept:
        return QueryPlan(every[-MAX_TERMS:], [], strict)
    return QueryPlan(kept[-MAX_TERMS:], dropped[-MAX_TERMS:], strict)


def _words(terms: list[Term]) -> list[Term]:
    """Compound words (``psycopg.errors.UniqueViolation``, ``src/upload/client.py``) as their parts.

    Each part is a term of its own, so a memory holding some of them still
    matches; phrases and prefixes are kept as typed.
    """
    words: list[Term] = []
    for term in terms:
        if term.phrase or term.prefix:
            words.append(term)
            continue
        parts = _WORD_RE.findall(term.text)
        words += [Term(part) for part in parts] if parts else [term]
    return words
