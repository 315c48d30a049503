"""What tells two memories of nearly the same words apart (pure): a negation, an
opposite, or a name, number or path put in place of another.

"Integration tests use the staging database" and "… do not use the staging
database" share every content word, as do "The alpha service restarts nightly" and
"The beta service restarts nightly": word overlap alone calls them duplicates.

- *Negated words*: the first content word after a negation (``not``, ``never``,
  ``cannot``, ``without``, ``rather than``, ``instead of``…) in the same clause,
  past words such as ``longer`` (``no longer uses``); ``not only`` negates nothing.
  A word negated on one side, said on the other where nothing is negated, is a
  contradiction.
- *Polarity*: words with an opposite (``enabled``/``disabled``,
  ``allowed``/``forbidden``…); one side saying one and the other only its opposite
  is a contradiction.
- *Substitution*: each side holds a rare word (few memories of the store hold it)
  the other has no form of (``night`` is a form of ``nightly``: one is the start
  of the other, or they share their first ``SAME_START`` letters). Rare is the
  caller's to say (from its store's counts); words of any kind count: names,
  numbers, paths.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable

from memcli.retrieval.stopwords import ENGLISH

SAME_START = 4
"""Two words sharing this many first letters are taken as forms of one word."""
_TOKEN_RE = re.compile(r"[^\W_]+|[.,;:!?()\[\]]")
_CLAUSE_END = frozenset(".,;:!?()[]")
_NEGATIONS = frozenset({"not", "no", "never", "cannot", "without", "nor", "neither"})
_NEGATING_PAIRS = frozenset({("rather", "than"), ("instead", "of")})
_AFTER_NEGATION = frozenset(
    {"longer", "anymore", "more", "ever", "even", "yet", "always", "really"}
)
"""Words that follow a negation without being what it bears on ("no longer uses")."""
_CONTRACTED = re.compile(r"n[’']t\b")
_OPPOSITES = (
    ("enable", "enabled", "enables", "enabling"),
    ("disable", "disabled", "disables", "disabling"),
    ("allow", "allowed", "allows", "permitted", "permit"),
    ("forbid", "forbidden", "forbids", "disallowed", "prohibited", "denied", "deny"),
    ("true",),
    ("false",),
    ("required", "mandatory"),
    ("optional",),
    ("include", "includes", "included", "including"),
    ("exclude", "excludes", "excluded", "excluding"),
    ("accept", "accepts", "accepted"),
    ("reject", "rejects", "rejected"),
    ("increase", "increases", "increased"),
    ("decrease", "decreases", "decreased"),
    ("public",),
    ("private",),
    ("sync", "synchronous", "synchronously"),
    ("async", "asynchronous", "asynchronously"),
    ("valid",),
    ("invalid",),
    ("minimum", "min"),
    ("maximum", "max"),
)
_POLARITY = {
    word: f"{group // 2}{'+-'[group % 2]}"
    for group, words in enumerate(_OPPOSITES)
    for word in words
}
"""Each word with an opposite: its pair's number and its side (``3+``, ``3-``)."""


def negated_words(text: str, stem: Callable[[str], str]) -> tuple[str, ...]:
    """The stemmed content words negations bear on (the first after each, same clause),
    one for each negation: how many there are counts too."""
    tokens = _TOKEN_RE.findall(_CONTRACTED.sub(" not", text.lower()))
    found: list[str] = []
    pending = False
    for n, token in enumerate(tokens):
        if token in _CLAUSE_END:
            pending = False
        elif (token, tokens[n + 1] if n + 1 < len(tokens) else "") == ("not", "only"):
            continue  # "not only … but also" negates nothing
        elif token in _NEGATIONS or (token, tokens[n + 1] if n + 1 < len(tokens) else "") in (
            _NEGATING_PAIRS
        ):
            pending = True
        elif pending and token not in ENGLISH and token not in _AFTER_NEGATION:
            found.append(stem(token))
            pending = False
    return tuple(found)


def polarity(text: str) -> frozenset[str]:
    """The sides of the opposites the text says (``3+`` for ``allowed``)."""
    return frozenset(
        _POLARITY[token] for token in _TOKEN_RE.findall(text.lower()) if token in _POLARITY
    )


def contradicts(
    words: tuple[frozenset[str], frozenset[str]],
    negated: tuple[tuple[str, ...], tuple[str, ...]],
    sides: tuple[frozenset[str], frozenset[str]],
) -> bool:
    """One side negates and the other never does, and a word negated is said on the other;
    or one says a word whose opposite alone the other says.

    Only a side without any negation counts as saying the plain contrary: between two
    texts that both negate, a negation more or less is as likely a word left out."""
    (words_a, words_b), (neg_a, neg_b), (side_a, side_b) = words, negated, sides
    if neg_a and not neg_b and any(w in words_b for w in neg_a):
        return True
    if neg_b and not neg_a and any(w in words_a for w in neg_b):
        return True
    only_a, only_b = side_a - side_b, side_b - side_a
    return any(_opposite(side) in only_b for side in only_a)


def _opposite(side: str) -> str:
    return side[:-1] + ("-" if side.endswith("+") else "+")


def substituted(a: frozenset[str], b: frozenset[str], rare: Callable[[str], bool]) -> bool:
    """Each side holds a rare word the other has no form of."""
    return _rare_unmatched(a, b, rare) and _rare_unmatched(b, a, rare)


def _rare_unmatched(
    mine: Iterable[str], other: frozenset[str], rare: Callable[[str], bool]
) -> bool:
    has_form = _form_finder(other)
    return any(not has_form(word) and rare(word) for word in mine if word not in other)


def _form_finder(words: frozenset[str]) -> Callable[[str], bool]:
    """Whether ``words`` hold a form of a word (``night``, ``nightly``; ``60``, ``60s``),
    each asked in time linear in the word's length, not in how many ``words`` there are.

    A word holding digits is a form of another holding the same numbers; else of a word
    it starts, or that starts it, both of at least 3 letters; or of one sharing its first
    ``SAME_START`` letters, both longer than that."""
    numbers = {tuple(_DIGITS.findall(w)) for w in words if _DIGITS.search(w)}
    plain = sorted(w for w in words if not _DIGITS.search(w))
    held = set(plain)
    starts = {w[:SAME_START] for w in plain if len(w) > SAME_START}

    def has_form(word: str) -> bool:
        if _DIGITS.search(word):
            return tuple(_DIGITS.findall(word)) in numbers
        if len(word) > SAME_START and word[:SAME_START] in starts:
            return True
        if len(word) < 3:
            return False
        if any(word[:end] in held for end in range(3, len(word) + 1)):
            return True  # a word it starts with
        at = bisect_left(plain, word)
        return at < len(plain) and plain[at].startswith(word)  # a word starting with it

    return has_form


_DIGITS = re.compile(r"\d+")
