"""A query's terms as the index sees them: its tokens, how many memories hold each, and
how many of them each memory holds (the recall gate's and the ranking's evidence).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import apsw

from memcli.index.entries import IndexReads
from memcli.index.errors import translating_errors
from memcli.index.fts import Term
from memcli.index.schema import (
    HOLDING_PREFIX,
    HOLDING_TOKEN,
    MATCHES_UP_TO,
    SEARCHED_TEXT,
    SEARCHED_TEXTS,
    TOKENIZER,
    VOCABULARY,
)


class TermQueries(IndexReads):
    """Terms and tokens: what the index's tokenizer makes of a text, and counts of them."""

    @translating_errors
    def matched_terms(self, ids: list[str], terms: list[Term]) -> dict[str, int]:
        """For each id, how many of the terms its memory contains (stemmed, like search).

        The memories' text is split by the index's own tokenizer, here, rather
        than asking the full-text index once a term: that would read the whole
        list of memories holding each word, costly for a common one. Each memory's
        searched text is read and split in one piece; a term of one whole word is
        then looked up in its tokens, a phrase or a prefix in their spaced text.
        """
        tokenize = self._tokenizer()
        words: list[str] = []  # a term each: two terms may stem alike, and both count
        runs: list[tuple[list[str], bool]] = []
        for term in terms:
            pattern = _tokens(tokenize, term.text, query=True)
            if len(pattern) == 1 and not term.prefix:
                words.append(pattern[0])
            elif pattern:
                runs.append((pattern, term.prefix))
        counts = dict.fromkeys(ids, 0)
        for identity, text in self.db.execute(SEARCHED_TEXT, (json.dumps(ids),)):
            tokens = _tokens(tokenize, text, query=False)
            count = sum(1 for word in words if word in tokens)
            if runs:
                spaced = " " + " ".join(tokens) + " "
                count += sum(1 for pattern, prefix in runs if _holds(spaced, pattern, prefix))
            counts[identity] = count
        return counts

    @translating_errors
    def token_sets(self, ids: list[str]) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
        """Each memory's tokens (stemmed, like search): of what it is about (title, facts,
        concepts, files), and of its narrative."""
        return {
            identity: (frozenset(about), frozenset(narrative))
            for identity, about, narrative in self._searched_tokens(ids)
        }

    def _searched_tokens(self, ids: list[str]) -> Iterator[tuple[str, list[str], list[str]]]:
        tokenize = self._tokenizer()
        for identity, *fields, narrative in self.db.execute(SEARCHED_TEXTS, (json.dumps(ids),)):
            about = _tokens(tokenize, "\n".join(str(f) for f in fields), query=False)
            yield identity, about, _tokens(tokenize, str(narrative), query=False)

    def tokens(self, text: str) -> list[str]:
        """``text`` as the index's tokens, split and stemmed the way a query is."""
        return _tokens(self._tokenizer(), text, query=True)

    @translating_errors
    def holding(self, token: str, *, prefix: bool = False) -> int:
        """How many memories hold ``token`` (an index token); ``prefix``: a token it starts.

        Read from the full-text index's own counts, not by matching: a common
        token costs what its list of memories takes to walk, once.
        """
        if not getattr(self, "_vocabulary", False):
            self.db.execute(VOCABULARY)
            self._vocabulary = True
        if prefix:
            bounds = {"low": token, "high": token + "\U0010ffff"}
            return int(next(iter(self.db.execute(HOLDING_PREFIX, bounds)))[0])
        row = next(iter(self.db.execute(HOLDING_TOKEN, (token,))), None)
        return int(row[0]) if row else 0

    def _tokenizer(self) -> Any:
        tokenizer = getattr(self, "_fts_tokenizer", None)
        if tokenizer is None:
            tokenizer = self.db.fts5_tokenizer(TOKENIZER[0], TOKENIZER[1])
            self._fts_tokenizer = tokenizer
        return tokenizer

    @translating_errors
    def term_counts(self, terms: list[Term], cap: int) -> list[int]:
        """How many memories hold each term, counted only up to ``cap`` (cheap for any word)."""
        return [
            int(next(iter(self.db.execute(MATCHES_UP_TO, {"match": t.to_fts(), "limit": cap})))[0])
            for t in terms
        ]


def _tokens(tokenize: Any, text: str, *, query: bool) -> list[str]:
    """The tokens of ``text`` as the full-text index stores them (stemmed, folded).

    Without their offsets, and only the first of tokens at one place (the porter
    and unicode61 tokenizers put one at each): the tokenizer then makes no tuples.
    """
    reason = apsw.FTS5_TOKENIZE_QUERY if query else apsw.FTS5_TOKENIZE_DOCUMENT
    tokens: list[str] = tokenize(
        text.encode("utf-8", "replace"),
        reason,
        None,
        include_offsets=False,
        include_colocated=False,
    )
    return tokens


def _holds(spaced: str, pattern: list[str], prefix: bool) -> bool:
    """Whether the tokens hold ``pattern`` in a row (its last token as a prefix, if asked).

    ``spaced``: the tokens each after a space, and a space at the end. No token
    holds a space (it separates them), so a match of the spaced pattern is a match
    of whole tokens.
    """
    return " " + " ".join(pattern) + ("" if prefix else " ") in spaced
