"""A session's messages as drafting reads them: the main thread's prose, in order.

Subagents' messages and compaction summaries are left out (a summary paraphrases,
drafting quotes); a user message is what the person typed (``real_request``: meta
and injected text out); an assistant message loses the lines that render its tool
calls. ``<private>`` spans go before anything is split into sentences: a span cut in
two there would leave its end with no opening tag for the screening to find. Tool
results stay, for their failure and their commands, never to be quoted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from memcli.capture.lessons.text import MAX_SENTENCES, sentences
from memcli.capture.session_summary import real_request
from memcli.capture.transcripts.records import TranscriptMessage
from memcli.core.lesson import LessonKind
from memcli.core.validate import strip_private

MAX_MESSAGES = 20_000
"""Of a longer session, the latest messages are read."""
MAX_SESSION_SENTENCES = 6_000
"""Sentences read in a whole session: a session of many long messages reads fewer of
each (at least ``MIN_SENTENCES``), so drafting's time stays bounded."""
MIN_SENTENCES = 4
MAX_FILES = 10


@dataclass(frozen=True, slots=True)
class Turn:
    """One message of the main thread with the prose drafting may quote."""

    position: int  # 1-based among the messages given
    message: TranscriptMessage
    prose: str
    said: tuple[str, ...] = ()  # the prose's sentences (``text.sentences``)

    @property
    def role(self) -> str:
        return self.message.role

    @property
    def id(self) -> str:
        """The message's id, or its 1-based position when it has none."""
        return self.message.uuid or str(self.position)


@dataclass(slots=True)
class Candidate:
    """A lesson found in one message, before duplicates merge."""

    kind: LessonKind
    parts: list[str]  # the sentences quoted
    turn: Turn
    files: list[str] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)
    type: str = ""
    reply: list[str] = field(default_factory=list)  # the person's words agreeing (a decision)


def turns(messages: Sequence[TranscriptMessage]) -> list[Turn]:
    """The main thread's messages, in order, each with its quotable prose."""
    start = max(0, len(messages) - MAX_MESSAGES)
    found: list[tuple[int, TranscriptMessage, str]] = []
    for position in range(start, len(messages)):
        message = messages[position]
        if not isinstance(message, TranscriptMessage) or message.sidechain:
            continue
        if message.role == "user":
            request = real_request(message.text) if isinstance(message.text, str) else None
            if request is not None:
                found.append((position + 1, message, request))
        elif message.role == "assistant":
            found.append((position + 1, message, _assistant_prose(message)))
        elif message.role == "tool":
            found.append((position + 1, message, ""))
    found = [(position, message, strip_private(prose)) for position, message, prose in found]
    speaking = sum(1 for _p, _m, prose in found if prose) or 1
    each = max(MIN_SENTENCES, min(MAX_SENTENCES, MAX_SESSION_SENTENCES // speaking))
    return [
        Turn(position, message, prose, tuple(sentences(prose, each)) if prose else ())
        for position, message, prose in found
    ]


def _assistant_prose(message: TranscriptMessage) -> str:
    """The assistant's words, without the paragraphs that render its tool calls."""
    text = message.text if isinstance(message.text, str) else ""
    if not message.tools:
        return text
    names = tuple(name for name in message.tools if isinstance(name, str) and name)
    kept = [
        paragraph
        for paragraph in text.split("\n\n")
        if not any(paragraph == name or paragraph.startswith(name + " ") for name in names)
    ]
    return "\n\n".join(kept)


def add_files(into: list[str], found: Sequence[str]) -> None:
    """Add paths not held yet, up to ``MAX_FILES``."""
    for path in found:
        if len(into) >= MAX_FILES:
            return
        if isinstance(path, str) and path and path not in into:
            into.append(path)
