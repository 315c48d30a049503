"""Gemini CLI sessions: JSONL under ``~/.gemini/tmp/<project>/chats/session-*.jsonl``.

As its ``ChatRecordingService`` writes them (packages/core/src/services/
chatRecordingService.ts and chatRecordingTypes.ts): the first line is the
session's metadata ``{sessionId, projectHash, startTime, lastUpdated, kind}``;
then each message ``{id, timestamp, type, content, displayContent?}`` with
``type`` one of user, gemini, info, error, warning. A message is appended again,
whole, whenever it changes (a gemini message gains its tool calls, their results,
its token counts), so the same ``id`` comes back: its text is taken once and
each tool call (``toolCalls: [{id, name, args, result, status}]``) once when
called and once when it finished (status success, error or cancelled).
``{"$set": {...}}`` updates the metadata (``$set.messages`` is a checkpoint of
every message: those not seen yet are read). ``{"$rewindTo": id}`` marks a rewind
(``/rewind``): that message and every message first recorded after it are taken
back, all of them when the id is not one of the file's (``loadConversationRecord``).
A line-by-line reader cannot take back what it gave; a whole file's reader
(``whole_session_parser``, the session-end summary) looks for rewinds first and
leaves those messages out. ``content`` is Gemini's PartListUnion: a string,
a part (``{text}``, ``{functionCall}``, ``{functionResponse}``...) or a list of
them. Older versions wrote one whole JSON document (``session-*.json``): when it
is on one line it is read as a metadata record holding ``messages``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memcli.capture.transcripts.records import (
    MAX_TOOL_RESULT_CHARS,
    BaseParser,
    TranscriptMessage,
    clean,
    cut,
    iter_lines,
    utc_time,
)
from memcli.core.regular import open_regular

MAX_REMEMBERED_IDS = 5000
"""Message and tool-call ids kept to tell a repeated record from a new one."""
_MAX_CALL_CHARS = 400
_FINISHED = frozenset({"success", "error", "cancelled"})
_SHELL_TOOLS = frozenset({"run_shell_command"})
_EDIT_TOOLS = frozenset({"write_file", "replace", "edit"})
_PATH_KEYS = ("file_path", "absolute_path", "path", "dir_path")
_IGNORED_PROMPT_PREFIXES = ("/", "?", "<session_context>", "<hook_context>")
"""User text Gemini CLI itself does not count as the person's (sessionUtils.ts)."""


class GeminiParser(BaseParser):
    """Parses a Gemini CLI session file a line at a time (the session id is in its first line)."""

    agent = "gemini"

    def __init__(
        self, state: dict[str, Any] | None = None, rewound: frozenset[str] = frozenset()
    ) -> None:
        super().__init__()
        self._rewound = rewound
        """Ids of messages a rewind took back: left out (``rewound_messages``)."""
        self.restore_calls(state)
        known = state if isinstance(state, dict) else {}
        session = known.get("session")
        self.session: str | None = session if isinstance(session, str) and session else None
        seen = known.get("seen")
        self._seen: dict[str, None] = {}
        if isinstance(seen, list):
            for key in seen[-MAX_REMEMBERED_IDS:]:
                if isinstance(key, str):
                    self._seen[key] = None

    def state(self) -> dict[str, Any]:
        return {**self.base_state(), "session": self.session, "seen": list(self._seen)}

    def record(self, data: dict[str, Any]) -> list[TranscriptMessage]:
        if "$rewindTo" in data:
            self.skips["rewind"] += 1
            return []
        if "$set" in data:
            update = data["$set"]
            if isinstance(update, dict) and isinstance(update.get("messages"), list):
                return self._all(update["messages"])
            self.skips["metadata update"] += 1
            return []
        if isinstance(data.get("sessionId"), str) and "type" not in data:
            self.session = clean(data["sessionId"]) or None
            messages = data.get("messages")
            if isinstance(messages, list):  # an older whole-session document on one line
                return self._all(messages)
            self.skips["session metadata"] += 1
            return []
        return self._message_record(data)

    def _all(self, messages: list[Any]) -> list[TranscriptMessage]:
        found: list[TranscriptMessage] = []
        for message in messages:
            if isinstance(message, dict):
                found += self._message_record(message)
        return found

    def _message_record(self, data: dict[str, Any]) -> list[TranscriptMessage]:
        if self.session is None:
            self.skips["no session id"] += 1
            return []
        kind, key = data.get("type"), data.get("id")
        if kind not in ("user", "gemini"):
            self.skips["info, error or warning" if isinstance(kind, str) else "unknown record"] += 1
            return []
        if not isinstance(key, str) or not key:
            self.skips["message without an id"] += 1
            return []
        if key in self._rewound:
            self.skips["rewound"] += 1
            return []
        time = utc_time(data.get("timestamp"))
        found: list[TranscriptMessage] = []
        if not self._first(f"m\0{key}"):
            pass  # its text was taken the first time it had some
        elif kind == "user":
            text = _user_text(data)
            if text:
                found.append(self._message("user", text, time, key))
            else:
                self._forget(f"m\0{key}")
        else:
            text = _text(data.get("content")).strip()
            if text:
                found.append(self._message("assistant", clean(text), time, key))
            else:
                self._forget(f"m\0{key}")  # a tool-call message: its text may come later
        calls = data.get("toolCalls") if kind == "gemini" else None
        if isinstance(calls, list):
            for call in calls:
                if isinstance(call, dict):
                    found += self._call(call, time)
        if not found:
            self.skips["repeated message"] += 1
        return found

    def _call(self, call: dict[str, Any], time: str | None) -> list[TranscriptMessage]:
        key, name = call.get("id"), call.get("name")
        if not isinstance(key, str) or not key or not isinstance(name, str) or not name:
            return []
        found: list[TranscriptMessage] = []
        args = call.get("args") if isinstance(call.get("args"), dict) else {}
        assert isinstance(args, dict)
        if self._first(f"c\0{key}"):
            self.remember_call(key, name)
            found.append(self._call_message(name, args, time, key))
        status = call.get("status")
        if status in _FINISHED and self._first(f"r\0{key}"):
            text = _result_text(call.get("result")) or str(status)
            found.append(
                self._message(
                    "tool",
                    clean(cut(text.strip(), MAX_TOOL_RESULT_CHARS)),
                    utc_time(call.get("timestamp")) or time,
                    None,
                    tools=(name,),
                    failed=status == "error",
                    parent=clean(key),
                )
            )
        return found

    def _call_message(
        self, name: str, args: dict[str, Any], time: str | None, key: str
    ) -> TranscriptMessage:
        commands: tuple[str, ...] = ()
        files: tuple[str, ...] = ()
        command = args.get("command") if name in _SHELL_TOOLS else None
        if isinstance(command, str) and command:
            commands = (clean(command),)
            text = f"{name} {cut(command, _MAX_CALL_CHARS)}"
        else:
            for path_key in _PATH_KEYS:
                value = args.get(path_key)
                if isinstance(value, str) and value:
                    files = (clean(value),)
                    break
            text = _render_args(name, args)
        return self._message(
            "assistant",
            clean(text),
            time,
            key,
            tools=(name,),
            files=files,
            commands=commands,
            edited=files if name in _EDIT_TOOLS else (),
        )

    def _first(self, key: str) -> bool:
        """True the first time ``key`` is seen (the newest ids are remembered)."""
        if key in self._seen:
            return False
        self._seen[key] = None
        if len(self._seen) > MAX_REMEMBERED_IDS:
            del self._seen[next(iter(self._seen))]
        return True

    def _forget(self, key: str) -> None:
        self._seen.pop(key, None)

    def _message(
        self, role: str, text: str, time: str | None, uuid: str | None, **fields: Any
    ) -> TranscriptMessage:
        assert self.session is not None
        return TranscriptMessage(
            agent="gemini",
            session=self.session,
            time=time,
            role=role,
            text=text,
            uuid=clean(uuid) if uuid else None,
            **fields,
        )


def whole_session_parser(path: Path, *, max_bytes: int | None = None) -> GeminiParser:
    """A parser for reading ``path`` whole: it leaves out the messages rewinds took back."""
    return GeminiParser(rewound=rewound_messages(path, max_bytes=max_bytes))


def rewound_messages(path: Path, *, max_bytes: int | None = None) -> frozenset[str]:
    """Ids of the messages the session's rewinds took back, as Gemini CLI loads the file.

    Messages are kept in the order each id was first recorded; ``{"$rewindTo": ID}``
    removes ID and every message after it (all of them for an unknown ID), and a
    message recorded again later is back. Most files have no rewind: one scan of the
    bytes finds that out before any JSON is parsed.
    """
    if not _mentions(path, b'"$rewindTo"', max_bytes):
        return frozenset()
    order: dict[str, None] = {}
    taken: set[str] = set()
    with open_regular(path) as handle:
        for line, _end in iter_lines(handle, max_bytes=max_bytes):
            record = _json_object(line)
            target = record.get("$rewindTo")
            if isinstance(target, str):
                ids = list(order)
                back = ids[ids.index(target) :] if target in order else ids
                taken.update(back)
                for key in back:
                    del order[key]
            elif isinstance(record.get("id"), str):
                order[record["id"]] = None
                taken.discard(record["id"])
    return frozenset(taken)


def _mentions(path: Path, needle: bytes, max_bytes: int | None) -> bool:
    with open_regular(path) as handle:
        return any(needle in line for line, _end in iter_lines(handle, max_bytes=max_bytes))


def _json_object(line: bytes) -> dict[str, Any]:
    """The line's JSON object, or an empty one (any other line)."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _user_text(data: dict[str, Any]) -> str:
    """What the person typed: displayContent when recorded, else content; injected parts cut."""
    shown = data.get("displayContent")
    text = _text(shown if shown else data.get("content"))
    for marker in ("<hook_context>", "<session_context>"):
        at = text.find(marker)
        if at > 0:
            text = text[:at]
    text = text.strip()
    if not text or text.startswith(_IGNORED_PROMPT_PREFIXES):
        return ""
    return clean(text)


def _text(content: object) -> str:
    """The text of a PartListUnion (strings and ``{text}`` parts; thoughts left out)."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        text = content.get("text")
        return text if isinstance(text, str) and not content.get("thought") else ""
    if isinstance(content, list):
        return "".join(_text(part) for part in content if isinstance(part, (str, dict)))
    return ""


def _result_text(result: object) -> str:
    """A tool call's result: its text parts, else each functionResponse's output."""
    text = _text(result)
    if text.strip():
        return text
    parts = result if isinstance(result, list) else [result]
    found = []
    for part in parts:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        body = response.get("response") if isinstance(response, dict) else None
        if isinstance(body, dict):
            for key in ("output", "error", "llmContent"):
                value = body.get(key)
                if isinstance(value, str) and value:
                    found.append(value)
                    break
            else:
                found.append(cut(json.dumps(body, ensure_ascii=False), MAX_TOOL_RESULT_CHARS))
    return "\n".join(found)


def _render_args(name: str, args: dict[str, Any]) -> str:
    parts = [name]
    for value in args.values():
        if isinstance(value, str) and value:
            parts.append(value)
        if sum(len(part) for part in parts) > _MAX_CALL_CHARS:
            break
    return cut(" ".join(parts), _MAX_CALL_CHARS)
