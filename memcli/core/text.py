"""Cutting text to a length the way people read it; text folded for comparing (pure)."""

from __future__ import annotations

import re

# C0 and C1 control characters and DEL: a terminal would act on them (colours, titles,
# the clipboard), and a NUL ends strings in C.
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]+")


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut after a whole word, marked with an ellipsis.

    What is cut is redacted first: a secret the cut goes through is kept in none of its part.
    """
    if len(text) <= limit:
        return text
    from memcli.core.secrets import redacted_head  # only for a cut (its patterns cost ~15 ms)

    cut = redacted_head(text, limit - 1)
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"


def one_line(text: str, limit: int) -> str:
    """``text`` as one printable line of at most ``limit`` characters."""
    head = text
    if len(text) > limit * 4:
        from memcli.core.secrets import redacted_head

        head = redacted_head(text, limit * 4)
    return clip(" ".join(_CONTROL_RE.sub(" ", head).split()), limit)


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """``1 memory``, ``2 memories``, ``1,000 files``: a number and its noun, agreed."""
    noun = singular if number == 1 else (plural or f"{singular}s")
    return f"{number:,} {noun}"


# A word with a case change inside: UniqueViolation, parseJSON, HTTPServer, s3Bucket.
_CAMEL_RE = re.compile(r"\b(?=[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z][a-z]))[A-Za-z0-9]+")
_CAMEL_SPLIT_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
MAX_IDENTIFIER_PARTS = 200


def identifier_words(text: str) -> str:
    """The words inside the CamelCase identifiers of ``text``, space-separated.

    The full-text index stores them beside the text, so that "unique violation"
    finds ``UniqueViolation`` (snake_case needs nothing: ``_`` already separates
    words). At most ``MAX_IDENTIFIER_PARTS`` words, so a file of identifiers
    cannot double the index.
    """
    if text.isascii() and text.islower():
        return ""
    words: list[str] = []
    for match in _CAMEL_RE.finditer(text):
        words += _CAMEL_SPLIT_RE.sub(" ", match.group()).split()
        if len(words) >= MAX_IDENTIFIER_PARTS:
            break
    return " ".join(words[:MAX_IDENTIFIER_PARTS])


_WORDS_RE = re.compile(r"[^\W_]+")


def folded(text: str) -> str:
    """``text`` lowercased, its punctuation and runs of white space as one space."""
    return " ".join(_WORDS_RE.findall(text.lower()))


def exact_key(
    type_: str, title: str, narrative: str, facts: list[str] | tuple[str, ...] = ()
) -> str:
    """What two exact duplicates share: their type and their folded title, narrative, facts."""
    import hashlib

    text = folded("\n".join([title, narrative, *facts]))
    return hashlib.sha1(f"{type_}\0{text}".encode()).hexdigest()[:20]
