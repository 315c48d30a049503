"""BERT's WordPiece tokenization in pure Python, as the ``tokenizers`` library does it.

Queries are embedded on every search; importing ``tokenizers`` (and numpy) would
cost more than the search. This module reproduces, for a ``tokenizer.json`` made
of a ``BertNormalizer`` (or none), a ``BertPreTokenizer`` and a ``WordPiece``
model, the ids ``Tokenizer.encode(text, add_special_tokens=False)`` gives:
added tokens split out of the raw text first, then clean-up (control characters
dropped, white space made a space), CJK characters set apart, accents stripped
(NFD, non-spacing marks dropped), lower case one character at a time, words split
at white space and punctuation, and each word matched greedily, longest piece
first, a word with any unmatchable part becoming the unknown token as a whole.

Any other kind of tokenizer is not ``supported``; the caller uses the library.
Vocabulary look-ups go through a function, so the vocabulary may be a dict or a
table in the index (read only for the words of a query).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

Lookup = Callable[[str], "int | None"]

# Rust's char::is_whitespace (Unicode White_Space), which the tokenizers library uses.
_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_OTHER = frozenset({"Cc", "Cf", "Cs", "Co"})
_PUNCTUATION = frozenset({"Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps"})
_CJK = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
# The tokenizers library's Unicode tables are older than Python's: characters assigned
# (or given another category) since then are treated as it treats them, so that the ids
# are the same for every character (tests/test_semantic.py compares them all).
_AS_LETTER = (
    (0x61D, 0x61D),
    (0x7FD, 0x7FD),
    (0x890, 0x891),
    (0x898, 0x89F),
    (0x8CA, 0x8E2),
    (0x9FD, 0x9FE),
    (0xA76, 0xA76),
    (0xAFA, 0xAFF),
    (0xB55, 0xB55),
    (0xC04, 0xC04),
    (0xC3C, 0xC3C),
    (0xC77, 0xC77),
    (0xC84, 0xC84),
    (0xD00, 0xD00),
    (0xD3B, 0xD3C),
    (0xD81, 0xD81),
    (0xEBA, 0xEBA),
    (0x180F, 0x180F),
    (0x1885, 0x1886),
    (0x1ABF, 0x1ACE),
    (0x1B7D, 0x1B7E),
    (0x1DF6, 0x1DFB),
    (0x2E43, 0x2E4F),
    (0x2E52, 0x2E5D),
    (0xA82C, 0xA82C),
    (0xA8C5, 0xA8C5),
    (0xA8FF, 0xA8FF),
    (0xA9BD, 0xA9BD),
    (0x10D24, 0x10D27),
    (0x10EAB, 0x10EAD),
    (0x10F46, 0x10F50),
    (0x10F55, 0x10F59),
    (0x10F82, 0x10F89),
    (0x11070, 0x11070),
    (0x11073, 0x11074),
    (0x110C2, 0x110C2),
    (0x110CD, 0x110CD),
    (0x111CF, 0x111CF),
    (0x1123E, 0x1123E),
    (0x1133B, 0x1133B),
    (0x11438, 0x1143F),
    (0x11442, 0x11444),
    (0x11446, 0x11446),
    (0x1144B, 0x1144F),
    (0x1145A, 0x1145B),
    (0x1145D, 0x1145E),
    (0x11660, 0x1166C),
    (0x116B9, 0x116B9),
    (0x1182F, 0x11837),
    (0x11839, 0x1183B),
    (0x1193B, 0x1193C),
    (0x1193E, 0x1193E),
    (0x11943, 0x11946),
    (0x119D4, 0x119D7),
    (0x119DA, 0x119DB),
    (0x119E0, 0x119E0),
    (0x119E2, 0x119E2),
    (0x11A01, 0x11A0A),
    (0x11A33, 0x11A38),
    (0x11A3B, 0x11A47),
    (0x11A51, 0x11A56),
    (0x11A59, 0x11A5B),
    (0x11A8A, 0x11A96),
    (0x11A98, 0x11A9C),
    (0x11A9E, 0x11AA2),
    (0x11C30, 0x11C36),
    (0x11C38, 0x11C3D),
    (0x11C3F, 0x11C3F),
    (0x11C41, 0x11C45),
    (0x11C70, 0x11C71),
    (0x11C92, 0x11CA7),
    (0x11CAA, 0x11CB0),
    (0x11CB2, 0x11CB3),
    (0x11CB5, 0x11CB6),
    (0x11D31, 0x11D36),
    (0x11D3A, 0x11D3A),
    (0x11D3C, 0x11D3D),
    (0x11D3F, 0x11D45),
    (0x11D47, 0x11D47),
    (0x11D90, 0x11D91),
    (0x11D95, 0x11D95),
    (0x11D97, 0x11D97),
    (0x11EF3, 0x11EF4),
    (0x11EF7, 0x11EF8),
    (0x11FFF, 0x11FFF),
    (0x12FF1, 0x12FF2),
    (0x13430, 0x13438),
    (0x16E97, 0x16E9A),
    (0x16F4F, 0x16F4F),
    (0x16FE2, 0x16FE2),
    (0x16FE4, 0x16FE4),
    (0x1CF00, 0x1CF2D),
    (0x1CF30, 0x1CF46),
    (0x1E000, 0x1E006),
    (0x1E008, 0x1E018),
    (0x1E01B, 0x1E021),
    (0x1E023, 0x1E024),
    (0x1E026, 0x1E02A),
    (0x1E130, 0x1E136),
    (0x1E2AE, 0x1E2AE),
    (0x1E2EC, 0x1E2EF),
    (0x1E944, 0x1E94A),
    (0x1E95E, 0x1E95F),
)
_AS_PUNCTUATION = (
    (0x166D, 0x166D),
    (0x111C9, 0x111C9),
)
_AS_MARK = ((0x1734, 0x1734),)


def _overrides() -> dict[str, str]:
    found: dict[str, str] = {}
    for category, ranges in (("Lo", _AS_LETTER), ("Po", _AS_PUNCTUATION), ("Mn", _AS_MARK)):
        for low, high in ranges:
            found.update((chr(code), category) for code in range(low, high + 1))
    return found


_CATEGORY_OVERRIDES = _overrides()


def _category(c: str) -> str:
    return _CATEGORY_OVERRIDES.get(c) or unicodedata.category(c)


# What the pure-Python path needs to know of an ASCII text: its control characters.
_ASCII_CLEAN: dict[int, str | None] = {c: None for c in range(32) if chr(c) not in "\t\n\r"}
_ASCII_CLEAN.update({ord("\t"): " ", ord("\n"): " ", ord("\r"): " ", 127: None})


class Unsupported(Exception):
    """The tokenizer is not BERT WordPiece: the ``tokenizers`` library must do it."""


class AddedToken(NamedTuple):
    content: str
    id: int
    normalized: bool


class WordPieceSpec(NamedTuple):
    """What a WordPiece ``tokenizer.json`` says, apart from its vocabulary (JSON-able)."""

    clean_text: bool = True
    handle_chinese_chars: bool = True
    strip_accents: bool = True
    lowercase: bool = True
    unk_token: str = "[UNK]"
    prefix: str = "##"
    max_input_chars_per_word: int = 100
    max_token_chars: int = 100
    added: tuple[AddedToken, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = self._asdict()
        data["added"] = [[a.content, a.id, a.normalized] for a in self.added]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WordPieceSpec:
        values = dict(data)
        values["added"] = tuple(AddedToken(str(c), int(i), bool(n)) for c, i, n in data["added"])
        return cls(**values)


def spec_of(tokenizer: dict[str, Any]) -> WordPieceSpec:
    """The spec of a parsed ``tokenizer.json``; ``Unsupported`` unless it is BERT WordPiece."""
    model = tokenizer.get("model")
    if not isinstance(model, dict) or model.get("type") != "WordPiece":
        raise Unsupported("the tokenizer is not WordPiece")
    pre = tokenizer.get("pre_tokenizer")
    if not isinstance(pre, dict) or pre.get("type") != "BertPreTokenizer":
        raise Unsupported("the pre-tokenizer is not BertPreTokenizer")
    normalizer = tokenizer.get("normalizer")
    if normalizer is None:
        flags = (False, False, False, False)
    elif isinstance(normalizer, dict) and normalizer.get("type") == "BertNormalizer":
        lowercase = bool(normalizer.get("lowercase", True))
        strip = normalizer.get("strip_accents")
        flags = (
            bool(normalizer.get("clean_text", True)),
            bool(normalizer.get("handle_chinese_chars", True)),
            lowercase if strip is None else bool(strip),
            lowercase,
        )
    else:
        raise Unsupported("the normalizer is not BertNormalizer")
    vocab = model.get("vocab")
    if not isinstance(vocab, dict):
        raise Unsupported("the WordPiece vocabulary is not a mapping")
    added = []
    for token in tokenizer.get("added_tokens") or []:
        if not isinstance(token, dict) or token.get("single_word") or token.get("lstrip"):
            raise Unsupported("an added token has options the pure-Python path lacks")
        if token.get("rstrip"):
            raise Unsupported("an added token has options the pure-Python path lacks")
        content, ident = token.get("content"), token.get("id")
        if not isinstance(content, str) or not content or not isinstance(ident, int):
            raise Unsupported("an added token is malformed")
        added.append(AddedToken(content, ident, bool(token.get("normalized", False))))
    prefix = model.get("continuing_subword_prefix", "##")
    unk = model.get("unk_token", "[UNK]")
    max_chars = model.get("max_input_chars_per_word", 100)
    if not isinstance(prefix, str) or not isinstance(unk, str) or not isinstance(max_chars, int):
        raise Unsupported("the WordPiece settings are malformed")
    longest = max((len(token) for token in vocab), default=0)
    return WordPieceSpec(
        *flags,
        unk_token=unk,
        prefix=prefix,
        max_input_chars_per_word=max_chars,
        max_token_chars=longest,
        # Longest first: where two added tokens start at one place, the longer wins.
        added=tuple(sorted(added, key=lambda a: -len(a.content))),
    )


class WordPiece:
    """Text to token ids, with a vocabulary behind ``lookup`` (token to id, or None)."""

    def __init__(self, spec: WordPieceSpec, lookup: Lookup) -> None:
        self.spec = spec
        self._lookup = lookup
        self._words: dict[str, list[int]] = {}
        self.unk_id = lookup(spec.unk_token)

    def encode(self, text: str) -> list[int]:
        ids: list[int] = []
        for piece, added in self._split_added(text, normalized=False):
            if added is not None:
                ids.append(added)
                continue
            for inner, inner_added in self._split_added(self.normalize(piece), normalized=True):
                if inner_added is not None:
                    ids.append(inner_added)
                    continue
                for word in pre_tokenize(inner):
                    ids += self._word(word)
        return ids

    def _split_added(self, text: str, *, normalized: bool) -> Iterator[tuple[str, int | None]]:
        tokens = [a for a in self.spec.added if a.normalized == normalized]
        if not tokens:
            if text:
                yield text, None
            return
        start = 0
        while start < len(text):
            best: tuple[int, AddedToken] | None = None
            for token in tokens:
                at = text.find(token.content, start)
                if at >= 0 and (best is None or at < best[0]):
                    best = (at, token)
            if best is None:
                break
            at, token = best
            if at > start:
                yield text[start:at], None
            yield token.content, token.id
            start = at + len(token.content)
        if start < len(text):
            yield text[start:], None

    def normalize(self, text: str) -> str:
        spec = self.spec
        if text.isascii():  # the common case, without a look at each character
            if spec.clean_text:
                text = text.translate(_ASCII_CLEAN)
            return text.lower() if spec.lowercase else text
        if spec.clean_text:
            text = "".join(
                " " if c in _WHITESPACE else c
                for c in text
                if not (c in "\x00\ufffd" or _is_control(c))
            )
        if spec.handle_chinese_chars:
            text = "".join(f" {c} " if _is_cjk(c) else c for c in text)
        if spec.strip_accents:
            text = "".join(c for c in unicodedata.normalize("NFD", text) if _category(c) != "Mn")
        if spec.lowercase:
            text = "".join(c.lower() for c in text)  # one character at a time, as Rust does
        return text

    def _word(self, word: str) -> list[int]:
        known = self._words.get(word)
        if known is None:
            known = self._pieces(word)
            if len(self._words) < 100_000:
                self._words[word] = known
        return known

    def _pieces(self, word: str) -> list[int]:
        spec, lookup = self.spec, self._lookup
        unk = [] if self.unk_id is None else [self.unk_id]
        if len(word) > spec.max_input_chars_per_word:
            return unk
        ids: list[int] = []
        start = 0
        while start < len(word):
            end = min(len(word), start + spec.max_token_chars)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else spec.prefix + word[start:end]
                found = lookup(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return unk
            ids.append(found)
            start = end
        return ids


_ASCII_WORDS = re.compile(r"[^\t\n\x0b\x0c\r !-/:-@\[-`{-~]+|[!-/:-@\[-`{-~]")


def pre_tokenize(text: str) -> list[str]:
    """Words: split at white space (dropped) and at punctuation (kept, one a word)."""
    if text.isascii():
        return _ASCII_WORDS.findall(text)
    words: list[str] = []
    current: list[str] = []
    for c in text:
        if c in _WHITESPACE:
            if current:
                words.append("".join(current))
                current = []
        elif _is_punctuation(c):
            if current:
                words.append("".join(current))
                current = []
            words.append(c)
        else:
            current.append(c)
    if current:
        words.append("".join(current))
    return words


def _is_control(c: str) -> bool:
    return c not in "\t\n\r" and _category(c) in _OTHER


def _is_punctuation(c: str) -> bool:
    if c in _ASCII_PUNCTUATION:
        return True
    return c >= "\x80" and _category(c) in _PUNCTUATION


def _is_cjk(c: str) -> bool:
    code = ord(c)
    return any(low <= code <= high for low, high in _CJK)
