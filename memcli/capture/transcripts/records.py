"""One transcript message, the line-parser protocol, and reading a whole file.

Every agent's transcript is JSONL: a parser takes one line (bytes) at a time and
returns the messages it holds, never raising; what it cannot use it counts in
``skips`` by reason. A line gives at most one message (a record's text, tool calls
and tool results together), so a message's ``uuid`` names one line. ``state()`` is
what a later run needs to resume in the middle of a file (after the last line
read) with ``parser_for(agent, state)``.
"""

from __future__ import annotations

import collections
import datetime as dt
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from memcli.core.regular import open_regular

MAX_TOOL_RESULT_CHARS = 4000
MAX_LINE_BYTES = 8 * 1024 * 1024  # a longer line is skipped as "line too long", never parsed
AGENTS = ("claude", "codex", "gemini")
_CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class TranscriptMessage:
    """One indexed message of an agent session."""

    agent: str  # "claude" | "codex" | "gemini"
    session: str  # the session id (never empty: such a record is skipped)
    time: str | None  # "YYYY-MM-DDTHH:MM:SSZ" (UTC), None when the record has none
    role: str  # "user" | "assistant" | "tool" (a tool result) | "summary" (a compaction summary)
    text: str  # the message's text; a tool call's input, shortly; a result cut to the cap
    tools: tuple[str, ...] = ()  # names of the tools this message calls (or whose result it is)
    files: tuple[str, ...] = ()  # file paths a tool call touched, as written in its input
    commands: tuple[str, ...] = ()  # shell commands run (Bash's command; Codex argv joined)
    failed: bool = False  # a tool result that reports an error or a non-zero exit
    edited: tuple[str, ...] = ()  # the subset of `files` the call wrote
    uuid: str | None = None
    parent: str | None = None  # Claude's parentUuid: several children of one = a rewound branch
    sidechain: bool = False  # a subagent's message


class LineParser(Protocol):
    """Parses one agent's JSONL transcript a line at a time."""

    agent: str
    skips: collections.Counter[str]  # reason -> count

    def feed(self, line: bytes) -> list[TranscriptMessage]:
        """The messages of one JSONL line; never raises."""
        ...

    def state(self) -> dict[str, Any]:
        """JSON-serializable; ``parser_for(agent, state)`` resumes after the last line fed."""
        ...


def parser_for(agent: str, state: dict[str, Any] | None = None) -> LineParser:
    """A new parser for ``agent`` (one of ``AGENTS``), resumed from ``state`` if given."""
    if agent == "claude":
        from memcli.capture.transcripts.claude import ClaudeParser

        return ClaudeParser(state)
    if agent == "codex":
        from memcli.capture.transcripts.codex import CodexParser

        return CodexParser(state)
    if agent == "gemini":
        from memcli.capture.transcripts.gemini import GeminiParser

        return GeminiParser(state)
    raise ValueError(f"unknown transcript agent {agent!r} (known: {', '.join(AGENTS)})")


def read_messages(
    path: Path, agent: str, *, max_bytes: int | None = None
) -> Iterator[TranscriptMessage]:
    """Every message of one transcript file, streamed line by line (bounded memory).

    ``max_bytes`` stops after that many bytes of whole lines.
    """
    if agent == "gemini":  # a rewind takes back messages recorded before it
        from memcli.capture.transcripts.gemini import whole_session_parser

        parser: LineParser = whole_session_parser(path, max_bytes=max_bytes)
    else:
        parser = parser_for(agent)
    with open_regular(path) as handle:
        for line, _end in iter_lines(handle, max_bytes=max_bytes):
            yield from parser.feed(line)


def iter_lines(
    handle: BinaryIO, *, max_bytes: int | None = None, partial: bool = True
) -> Iterator[tuple[bytes, int]]:
    """Each line of a binary file from its current position, with the offset after it.

    The line comes without its newline. A line longer than ``MAX_LINE_BYTES`` comes
    as its first ``MAX_LINE_BYTES + 1`` bytes (a parser skips it as too long), so
    memory stays bounded whatever the file holds. ``partial=False`` leaves out a
    last line with no newline (a writer may still be appending to it): resuming at
    the last offset yielded then reads it whole later. ``max_bytes`` stops before
    the first line that would end past that many bytes from the start position.
    """
    offset = handle.tell()
    start = offset
    pending = bytearray()
    overlong = False
    while True:
        chunk = handle.read(_CHUNK)
        if not chunk:
            break
        begin = 0
        while True:
            newline = chunk.find(b"\n", begin)
            if newline < 0:
                if not overlong:
                    pending += chunk[begin:]
                    if len(pending) > MAX_LINE_BYTES:
                        del pending[MAX_LINE_BYTES + 1 :]
                        overlong = True
                break
            if not overlong:
                pending += chunk[begin:newline]
                if len(pending) > MAX_LINE_BYTES:
                    del pending[MAX_LINE_BYTES + 1 :]
            end = offset + newline + 1
            if max_bytes is not None and end - start > max_bytes:
                return
            yield bytes(pending), end
            pending.clear()
            overlong = False
            begin = newline + 1
        offset += len(chunk)
    if partial and (pending or overlong):
        if max_bytes is not None and offset - start > max_bytes:
            return
        yield bytes(pending), offset


# ---- what both parsers share ------------------------------------------------------

_FAST_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>\s*", re.DOTALL)
MAX_REMEMBERED_CALLS = 1000  # tool-call ids kept to name their results (state stays small)


def utc_time(value: object) -> str | None:
    """A record's timestamp as ``YYYY-MM-DDTHH:MM:SSZ`` (UTC), or None if it is none.

    An impossible time (month 13, 30 February, hour 24) is none: every reader
    stores a message without a time rather than one that sorts nowhere real.
    """
    if not isinstance(value, str) or len(value) > 64:
        return None
    try:
        if _FAST_TIME.fullmatch(value):
            dt.datetime.fromisoformat(value[:19])  # the shape is right; is it a real moment?
            return value[:19] + "Z"
        from memcli.core.timeutil import format_timestamp, parse_timestamp

        return format_timestamp(parse_timestamp(value))
    except (ValueError, OverflowError):
        return None


def clean(text: str) -> str:
    """Text safe to store: lone surrogates (valid in JSON, not in UTF-8) replaced."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def without_reminders(text: str) -> str:
    """Text with the ``<system-reminder>`` blocks an agent injects taken out."""
    if "<system-reminder>" not in text:
        return text
    return _REMINDER.sub("", text).strip()


def cut(text: str, limit: int = MAX_TOOL_RESULT_CHARS) -> str:
    """At most ``limit`` characters, an ellipsis marking a cut (what is cut is redacted first)."""
    from memcli.core.secrets import redacted_head

    return text if len(text) <= limit else redacted_head(text, limit - 1) + "…"


def strings(value: object) -> tuple[str, ...]:
    """The non-empty strings of a JSON list (anything else gives none)."""
    if not isinstance(value, list):
        return ()
    return tuple(item for item in value if isinstance(item, str) and item)


class BaseParser:
    """Line handling both agents share: size, UTF-8, JSON, an object; then ``record``."""

    agent = ""

    def __init__(self) -> None:
        self.skips: collections.Counter[str] = collections.Counter()
        self._calls: dict[str, str] = {}

    def feed(self, line: bytes) -> list[TranscriptMessage]:
        if len(line) > MAX_LINE_BYTES:
            self.skips["line too long"] += 1
            return []
        if not line or line.isspace():  # isspace stops at the first other byte: no copy
            self.skips["blank line"] += 1
            return []
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            self.skips["not UTF-8"] += 1
            return []
        try:
            data = json.loads(text)
        except RecursionError:
            self.skips["JSON nested too deeply"] += 1
            return []
        except ValueError:
            self.skips["not JSON"] += 1
            return []
        if not isinstance(data, dict):
            self.skips["not a JSON object"] += 1
            return []
        try:
            return self.record(data)
        except Exception as exc:  # a record shaped in a way no check foresaw: skip it
            self.skips[f"unreadable record ({type(exc).__name__})"] += 1
            return []

    def record(self, data: dict[str, Any]) -> list[TranscriptMessage]:
        raise NotImplementedError

    def remember_call(self, call_id: object, name: str) -> None:
        """Keep a tool call's name so its result can carry it (the newest calls only)."""
        if isinstance(call_id, str) and call_id:
            self._calls[call_id] = name
            if len(self._calls) > MAX_REMEMBERED_CALLS:
                del self._calls[next(iter(self._calls))]

    def call_name(self, call_id: object) -> str | None:
        return self._calls.get(call_id) if isinstance(call_id, str) else None

    def base_state(self) -> dict[str, Any]:
        return {"calls": [[key, value] for key, value in self._calls.items()]}

    def restore_calls(self, state: dict[str, Any] | None) -> None:
        calls = state.get("calls") if isinstance(state, dict) else None
        if isinstance(calls, list):
            for pair in calls[-MAX_REMEMBERED_CALLS:]:
                if isinstance(pair, list) and len(pair) == 2:
                    key, value = pair
                    if isinstance(key, str) and isinstance(value, str):
                        self._calls[key] = value
