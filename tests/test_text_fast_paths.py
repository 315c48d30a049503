"""The fast paths of core.text give exactly what their regex definitions give.

A full rebuild splits identifiers and folds text for every memory, so both run on
bytes when the text is ASCII; the index must hold the same words either way.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from memcli.core.text import MAX_IDENTIFIER_PARTS, exact_key, folded, identifier_words

# The definitions: a word holding a case change, its parts; words of letters and digits.
CAMEL = re.compile(r"\b(?=[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z][a-z]))[A-Za-z0-9]+")
CAMEL_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
WORDS = re.compile(r"[^\W_]+")


def defined_identifier_words(text: str) -> str:
    words: list[str] = []
    for match in CAMEL.finditer(text):
        words += CAMEL_SPLIT.sub(" ", match.group()).split()
    return " ".join(words[:MAX_IDENTIFIER_PARTS])


def defined_folded(text: str) -> str:
    return " ".join(WORDS.findall(text.lower()))


# Mostly what identifiers are made of, with the characters that bound them.
ASCII_TEXT = st.text(alphabet="aAbBzZ09_ .-`(\n\t\x1fé", max_size=120).map(
    lambda text: text.replace("é", "")
)
ANY_TEXT = st.text(alphabet=st.sampled_from("aBzZ09_ .-`\néÉßİǅ٣²ǈ\x85"), max_size=120)


@given(st.one_of(ASCII_TEXT, ANY_TEXT, st.text(max_size=80)))
def test_identifier_words_are_the_regex_definitions(text: str) -> None:
    assert identifier_words(text) == defined_identifier_words(text)


@given(st.one_of(ASCII_TEXT, ANY_TEXT, st.text(max_size=80)))
def test_folded_is_the_regex_definition(text: str) -> None:
    assert folded(text) == defined_folded(text)


def test_identifier_words_examples() -> None:
    text = "Catch UniqueViolation in parseJSON; HTTPServer, s3Bucket, _privateName, x.fooBar"
    assert identifier_words(text) == "Unique Violation parse JSON HTTP Server s3 Bucket foo Bar"
    assert identifier_words("CamelCase " * 150) == " ".join(["Camel", "Case"] * 100)


def test_an_exact_key_ignores_case_punctuation_and_spacing() -> None:
    assert exact_key("gotcha", "The Title", "Some  text, here.") == exact_key(
        "gotcha", "the title", "some text here"
    )
