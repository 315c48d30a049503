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


def _byte_table(source: str, target: str) -> bytes:
    """A ``bytes.translate`` table: each character of ``source`` to the one at its place in
    ``target``, every other byte to a space."""
    table = bytearray(b" " * 256)
    for char, kind in zip(source, target, strict=True):
        table[ord(char)] = ord(kind)
    return bytes(table)


# ASCII text's characters by kind, for finding case changes without a regex: a
# lowercase letter, an uppercase one, a digit, the underscore, anything else a space.
_LOWER, _DIGITS = "abcdefghijklmnopqrstuvwxyz", "0123456789"  # (string's, not imported)
_KINDS = _byte_table(_LOWER + _LOWER.upper() + _DIGITS + "_", "a" * 26 + "U" * 26 + "d" * 10 + "_")
_CASE_CHANGES = (b"aU", b"dU", b"UUa")  # _CAMEL_RE's [a-z0-9][A-Z] and [A-Z][A-Z][a-z]


def identifier_words(text: str) -> str:
    """The words inside the CamelCase identifiers of ``text``, space-separated.

    The full-text index stores them beside the text, so that "unique violation"
    finds ``UniqueViolation`` (snake_case needs nothing: ``_`` already separates
    words). At most ``MAX_IDENTIFIER_PARTS`` words, so a file of identifiers
    cannot double the index.
    """
    if text[1:].islower():  # no uppercase letter after the first: no case change
        return ""
    if text.isascii():
        spans = _ascii_identifiers(text)
    else:
        spans = [match.span() for match in _CAMEL_RE.finditer(text)]
    words: list[str] = []
    for start, end in spans:
        words += _CAMEL_SPLIT_RE.sub(" ", text[start:end]).split()
        if len(words) >= MAX_IDENTIFIER_PARTS:
            break
    return " ".join(words[:MAX_IDENTIFIER_PARTS])


def _ascii_identifiers(text: str) -> list[tuple[int, int]]:
    """Where ``_CAMEL_RE`` matches in ASCII ``text``, found with bytes' C-speed searches
    (the regex tries its lookahead at every word's start: most of a rebuild's parsing).

    A match is a run of letters and digits holding a case change, not preceded by a
    word character (``\\b``): after a non-word character or at the start.
    """
    kinds = text.encode("ascii").translate(_KINDS)
    changes = [at for change in _CASE_CHANGES for at in _occurrences(kinds, change)]
    spans: list[tuple[int, int]] = []
    end = 0
    for at in sorted(changes):
        if at < end:
            continue  # in the run already seen
        start = max(kinds.rfind(b" ", 0, at), kinds.rfind(b"_", 0, at)) + 1
        ends = [found for found in (kinds.find(b" ", at), kinds.find(b"_", at)) if found >= 0]
        end = min(ends, default=len(kinds))
        if start == 0 or kinds[start - 1] != ord("_"):
            spans.append((start, end))
    return spans


def _occurrences(data: bytes, part: bytes) -> list[int]:
    """Where ``part`` starts in ``data``, overlaps included."""
    found: list[int] = []
    at = data.find(part)
    while at >= 0:
        found.append(at)
        at = data.find(part, at + 1)
    return found


_WORDS_RE = re.compile(r"[^\W_]+")
# ASCII letters lowercased, digits kept, every other byte a space (``folded``'s fast path).
_FOLD = _byte_table(_LOWER + _LOWER.upper() + _DIGITS, _LOWER * 2 + _DIGITS)


def folded(text: str) -> str:
    """``text`` lowercased, its punctuation and runs of white space as one space."""
    if text.isascii():  # the same words, split by bytes' C code instead of a regex
        return " ".join(text.encode("ascii").translate(_FOLD).decode("ascii").split())
    return " ".join(_WORDS_RE.findall(text.lower()))


def exact_key(
    type_: str, title: str, narrative: str, facts: list[str] | tuple[str, ...] = ()
) -> str:
    """What two exact duplicates share: their type and their folded title, narrative, facts."""
    import hashlib

    text = "\n".join([title, narrative, *facts])
    if text.isascii():  # ``folded``'s fast path, kept in bytes
        data = b" ".join(text.encode("ascii").translate(_FOLD).split())
    else:
        data = folded(text).encode()
    return hashlib.sha1(type_.encode() + b"\0" + data).hexdigest()[:20]
