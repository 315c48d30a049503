"""Sentences of a message, and the lesson quoted from them: cleaned, bounded, titled.

A message is read as prose only: fenced code, quoted tool output and markdown
tables are left out, and each line of a list is a sentence of its own. What is
quoted keeps the transcript's words; only markup and surrounding space go. No cut
keeps part of a secret, which would no longer look like one and pass the screening:
a quote's or a title's cut redacts it (``core.secrets.redacted_head``), a long
message's cut sentence is left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memcli.capture.lessons import patterns
from memcli.core.secrets import redacted_head

MAX_SCANNED_CHARS = 6000
"""Of one message, what drafting reads (a longer one: its head)."""
MAX_SENTENCES = 60
"""Of one message, the sentences read."""
MAX_SENTENCE_CHARS = 400
"""A longer "sentence" is a dump, not a lesson."""
MAX_QUOTE_CHARS = 500
MAX_TITLE_CHARS = 80

_FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_TABLE_OR_QUOTE = re.compile(r"^\s*(?:\||>).*$", re.MULTILINE)
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)]|[A-Za-z][.)])\s+")
_MARK = re.compile(r"^\s*[-*+•]\s+")
"""Of a one-line message, only a mark is a bullet: "b. creds shouldn't live in the image"
answers with an option's label."""
_HEADING = re.compile(r"^\s*#{1,6}\s+")
_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[`*A-Z0-9])")
_LOOSE_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[`*A-Za-z0-9])")
"""Also before a lower-case word: people type "ok. also pin it" in chat."""
_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|aka|a\.k\.a|no|fig|ca)|\b\w|\.\.)\.$",
    re.IGNORECASE,
)
_EMPHASIS = re.compile(r"(\*\*|__)(.+?)\1")
_SPACE = re.compile(r"\s+")
_PATH = re.compile(
    r"(?<![\w/.-])((?:\.{0,2}/)?(?:[\w@.-]+/)*[\w@-][\w@.-]*\.(?:py|pyi|js|jsx|ts|tsx|mjs|cjs|json|"
    r"toml|ya?ml|md|rs|go|rb|java|kt|c|h|cc|cpp|hpp|cs|sh|sql|html|css|scss|vue|svelte|lock|"
    r"cfg|ini|txt|env|swift|php|ex|exs|tf|gradle|xml)|Dockerfile|Makefile|\.env(?:\.\w+)?)"
    r"(?![\w/])"
)
_URL = re.compile(r"\bhttps?://\S+")


def prose(text: str) -> str:
    """The message's prose: its head, code fences, tables and quoted blocks out."""
    if len(text) > MAX_SCANNED_CHARS:
        # The cut sentence is left out: unfinished, and maybe through a secret that no
        # longer looks like one (redacting each long message instead costs seconds).
        text = text[:MAX_SCANNED_CHARS]
        text = text[: max(text.rfind("\n"), text.rfind(". ") + 1, 0)]
    if "```" in text or "~~~" in text:
        text = _FENCE.sub("\n", text)
    if "|" in text or ">" in text:
        text = _TABLE_OR_QUOTE.sub("", text)
    return text


def sentences(text: str, limit: int = MAX_SENTENCES) -> list[str]:
    """The prose's sentences, each on one line, markup trimmed (at most ``limit``)."""
    out: list[str] = []
    lines = prose(text).splitlines()
    bullet = _BULLET if sum(1 for line in lines if line.strip()) > 1 else _MARK
    for line in lines:
        line = _HEADING.sub("", bullet.sub("", line)).strip()
        if not line:
            continue
        for part in _split(line):
            if len(part) > 2 * MAX_SENTENCE_CHARS:
                continue  # a dump, whatever its spacing
            part = _SPACE.sub(" ", _EMPHASIS.sub(r"\2", part)).strip()
            if part and len(part) <= MAX_SENTENCE_CHARS:
                out.append(part)
                if len(out) >= limit:
                    return out
    return out


def _split(line: str) -> Iterator[str]:
    """The line's sentences, lazily: a caller wanting a few reads no further."""
    start = 0
    for boundary in _LOOSE_SPLIT.finditer(line):
        end = boundary.start()
        if line[boundary.end()].islower() and _ABBREVIATION.search(line, max(start, end - 8), end):
            continue  # "e.g. the", "etc. no": the sentence goes on
        yield line[start:end]
        start = boundary.end()
    yield line[start:]


def words(text: str) -> list[str]:
    """Lower-case words (letters, digits, apostrophes)."""
    return re.findall(r"[a-z0-9][a-z0-9']*", text.lower())


_STOP_WORDS = frozenset(
    "a an the and or but if then so to of in on at by for with from as is are was were be been "
    "it its this that these those we you i he she they them our your my me us do does did not no "
    "yes please also just here there what which who when where how all any can will would should "
    "could has have had i'm i'll it's that's don't again mean really ever one thing remember "
    "note like okay ok said told".split()
)
_SUFFIX = re.compile(r"(?:ing|ed|es|s)$")


def content_words(text: str) -> frozenset[str]:
    """The words that carry a sentence's meaning, roughly stemmed ("raising", "raise": one),
    common ones left out."""
    return frozenset(
        _SUFFIX.sub("", word).rstrip("e") if len(word) > 4 else word
        for word in words(text)
        if word not in _STOP_WORDS
    )


def quote(parts: list[str], limit: int = MAX_QUOTE_CHARS) -> str:
    """Sentences joined into the quoted lesson, at most ``limit`` characters (cut at a word)."""
    text = " ".join(part.strip() for part in parts if part.strip())
    if len(text) <= limit:
        return text
    return _cut(text, limit)


_TITLE_LEAD = re.compile(
    r"^(?:(?:no|nope|nah|wait|actually|hmm|ok|okay|so|also|and|but|well|oh|yes|yeah|right|"
    r"please|fyi|note(?: that)?|gotcha|heads up|important|careful|keep in mind(?: that)?|"
    r"worth (?:knowing|noting)|the (?:root cause|problem|issue|cause|culprit|reason) (?:is|was)"
    r"(?: that)?)\b[\s,:;.!-]*)+",
    re.IGNORECASE,
)


def title(text: str) -> str:
    """A title from the quoted lesson: its first sentence, leading fillers out, short."""
    first = _SPLIT.split(text, maxsplit=1)[0].strip()
    stripped = _TITLE_LEAD.sub("", first).strip(" \"'`") or first
    stripped = stripped.rstrip(".!;:, ")
    if len(stripped) > MAX_TITLE_CHARS:
        stripped = _cut(stripped, MAX_TITLE_CHARS)
    return stripped[:1].upper() + stripped[1:] if stripped else "Lesson"


def paths(text: str, limit: int = 10) -> list[str]:
    """File paths the text names (URLs left out), in order, each once."""
    text = _URL.sub(" ", text[:MAX_SCANNED_CHARS])
    found: dict[str, None] = {}
    for match in _PATH.finditer(text):
        path = match.group(1).rstrip(".")
        if "/" not in path and path[:1].isupper() and path.endswith(".js"):
            continue  # Node.js, Vue.js: a name, not a file
        found.setdefault(path, None)
        if len(found) >= limit:
            break
    return list(found)


def _cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, at a space past its middle
    when there is one; a secret the cut goes through is redacted, not kept in part."""
    head = redacted_head(text, limit - 1)
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip(" ,;:") + "…"


def aside(sentence: str) -> bool:
    """A question or narration ("Let me check", "Adding the test now"): no account of a
    cause. A long sentence that starts with a step ("Adding the column bumped the
    version, but …") may be one."""
    if sentence.rstrip().endswith("?"):
        return True
    narration = patterns.NARRATION.match(sentence)
    if narration is None:
        return False
    return not narration.group().lower().endswith("ing") or len(words(sentence)) < LONG_STEP_WORDS


LONG_STEP_WORDS = 14
