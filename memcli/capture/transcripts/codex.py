"""Codex rollouts: ``{timestamp, type, payload}`` records, one per line.

``session_meta`` comes first (payload.id, payload.cwd); ``response_item`` holds
what the model saw and said: ``message`` (role user/assistant, content blocks
input_text/output_text), ``function_call`` (name, ``arguments`` a JSON string:
``shell`` has a ``command`` argv, ``shell_command`` and ``exec_command`` a command
line), ``local_shell_call``, ``function_call_output`` (a string, in older versions a
JSON object with ``metadata.exit_code``), ``custom_tool_call`` (``apply_patch``
with the patch text naming its files), ``reasoning`` (not indexed).
``compacted`` holds a compaction's summary; ``event_msg`` repeats the messages
for the UI and ``turn_context`` the settings, so neither is indexed.

Rollouts from before the wrapper start with a bare ``{id, timestamp, …}`` line and
hold bare response items (and ``{"record_type": "state"}`` lines): read too.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from memcli.capture.transcripts.records import (
    MAX_TOOL_RESULT_CHARS,
    BaseParser,
    TranscriptMessage,
    clean,
    cut,
    strings,
    utc_time,
)

# Text Codex puts in a user turn that the person did not type.
_INJECTED_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "<user_shell_command>",
    "<INSTRUCTIONS>",
    "<turn_aborted>",
    "# AGENTS.md instructions for",
)
_PATCH_FILE = re.compile(
    r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$"
)
_EXIT_LINE = re.compile(r"(?:Exit code:|Process exited with code) (-?\d+)")
_SHELLS = frozenset({"bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/bin/zsh"})
_SHELL_TOOLS = frozenset({"shell", "container.exec", "local_shell"})
_LINE_TOOLS = frozenset({"shell_command", "exec_command"})
_RESPONSE_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
    }
)
_SKIPPED = {
    "event_msg": "event message (repeats the items)",
    "turn_context": "turn context",
}
_MAX_CALL_CHARS = 400
_MAX_OUTPUT_JSON = 4 * 1024 * 1024


class CodexParser(BaseParser):
    """Parses a Codex rollout file a line at a time (the session id is in its first line)."""

    agent = "codex"

    def __init__(self, state: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.restore_calls(state)
        session = state.get("session") if isinstance(state, dict) else None
        self.session: str | None = session if isinstance(session, str) and session else None

    def state(self) -> dict[str, Any]:
        return {**self.base_state(), "session": self.session}

    def record(self, data: dict[str, Any]) -> list[TranscriptMessage]:
        kind = data.get("type")
        payload = data.get("payload")
        if "payload" not in data:
            return self._bare(data)
        if kind == "session_meta":
            self._meta(payload)
            return []
        if not isinstance(payload, dict):
            self.skips["no payload"] += 1
            return []
        if kind == "response_item":
            return self._item(payload, utc_time(data.get("timestamp")))
        if kind == "compacted":
            return self._compacted(payload, utc_time(data.get("timestamp")))
        if isinstance(kind, str) and kind in _SKIPPED:
            self.skips[_SKIPPED[kind]] += 1
        else:
            self.skips["unknown record type"] += 1
        return []

    def _bare(self, data: dict[str, Any]) -> list[TranscriptMessage]:
        """A line of a rollout written before the ``{timestamp, type, payload}`` wrapper."""
        kind = data.get("type")
        if isinstance(kind, str) and kind in _RESPONSE_TYPES:
            return self._item(data, utc_time(data.get("timestamp")))
        if kind is None and "id" in data and "timestamp" in data:
            self._meta(data)
            return []
        if data.get("record_type") == "state":
            self.skips["state record"] += 1
        else:
            self.skips["unknown record type"] += 1
        return []

    def _meta(self, payload: object) -> None:
        meta = payload.get("meta", payload) if isinstance(payload, dict) else None
        session = meta.get("id") if isinstance(meta, dict) else None
        if isinstance(session, str) and session:
            self.session = clean(session)
            self.skips["session meta"] += 1
        else:
            self.skips["session meta without an id"] += 1

    def _message(self, role: str, text: str, time: str | None, **fields: Any) -> TranscriptMessage:
        assert self.session is not None
        return TranscriptMessage(
            agent="codex", session=self.session, time=time, role=role, text=text, **fields
        )

    def _item(self, item: dict[str, Any], time: str | None) -> list[TranscriptMessage]:
        if self.session is None:
            self.skips["no session id"] += 1
            return []
        kind = item.get("type")
        if kind == "message":
            return self._text_message(item, time)
        if kind == "reasoning":
            self.skips["reasoning"] += 1
            return []
        if kind in ("function_call", "custom_tool_call", "local_shell_call"):
            return self._call(item, time)
        if kind in ("function_call_output", "custom_tool_call_output"):
            return self._output(item, time)
        if kind == "web_search_call":
            action = item.get("action")
            query = action.get("query") if isinstance(action, dict) else None
            if isinstance(query, str) and query:
                text = clean(cut(f"web_search {query}", _MAX_CALL_CHARS))
                return [self._message("assistant", text, time, tools=("web_search",))]
            self.skips["web search without a query"] += 1
            return []
        self.skips["unknown response item"] += 1
        return []

    def _text_message(self, item: dict[str, Any], time: str | None) -> list[TranscriptMessage]:
        role = item.get("role")
        if role not in ("user", "assistant"):
            self.skips["developer or system message"] += 1
            return []
        content = item.get("content")
        if isinstance(content, str):
            content = [{"type": "input_text", "text": content}]
        if not isinstance(content, list) or not content:
            self.skips["empty content"] += 1
            return []
        texts = []
        for block in content:
            if isinstance(block, dict) and block.get("type") in ("input_text", "output_text"):
                text = block.get("text")
                if isinstance(text, str):
                    text = text.strip()
                    if text and not (role == "user" and text.startswith(_INJECTED_PREFIXES)):
                        texts.append(text)
        if not texts:
            self.skips["injected context" if role == "user" else "empty content"] += 1
            return []
        return [self._message(role, clean("\n\n".join(texts)), time)]

    def _call(self, item: dict[str, Any], time: str | None) -> list[TranscriptMessage]:
        kind = item.get("type")
        name = item.get("name")
        if kind == "local_shell_call":
            name = "local_shell"
            action = item.get("action")
            args: Any = {"command": action.get("command")} if isinstance(action, dict) else {}
        elif not isinstance(name, str) or not name:
            self.skips["tool call without a name"] += 1
            return []
        elif kind == "custom_tool_call":
            raw = item.get("input")
            args = {"input": raw} if isinstance(raw, str) else {}
        else:
            args = _arguments(item.get("arguments"))
        self.remember_call(item.get("call_id"), name)
        commands: tuple[str, ...] = ()
        files: tuple[str, ...] = ()
        command = _command(name, args)
        patch = args.get("input") if name == "apply_patch" else None
        if command is not None:
            argv = args.get("command")
            if isinstance(argv, list) and argv[:1] == ["apply_patch"] and len(argv) > 1:
                patch = argv[1]
            else:
                commands = (clean(command),)
        if isinstance(patch, str):
            files = _patched_files(patch)
            text = f"{name} {', '.join(files)}" if files else name
        elif command is not None:
            text = f"{name} {cut(command, _MAX_CALL_CHARS)}"
        else:
            text = _render_args(name, args)
        return [
            self._message(
                "assistant",
                clean(text),
                time,
                tools=(name,),
                files=files,
                commands=commands,
                edited=files,
            )
        ]

    def _output(self, item: dict[str, Any], time: str | None) -> list[TranscriptMessage]:
        name = self.call_name(item.get("call_id"))
        output = item.get("output")
        failed = False
        if isinstance(output, dict):  # {content, success} as some versions wrote it
            failed = output.get("success") is False
            output = output.get("content")
        if isinstance(output, list):
            output = "\n".join(
                block["text"]
                for block in output
                if isinstance(block, dict) and isinstance(block.get("text"), str)
            )
        if not isinstance(output, str):
            self.skips["tool output without text"] += 1
            return []
        text, code = _exit_status(output)
        failed = failed or (code is not None and code != 0)
        return [
            self._message(
                "tool",
                clean(cut(text.strip(), MAX_TOOL_RESULT_CHARS)),
                time,
                tools=(name,) if name else (),
                failed=failed,
            )
        ]

    def _compacted(self, payload: dict[str, Any], time: str | None) -> list[TranscriptMessage]:
        if self.session is None:
            self.skips["no session id"] += 1
            return []
        text = payload.get("message")
        if not isinstance(text, str) or not text.strip():
            self.skips["compaction without a summary"] += 1
            return []
        return [self._message("summary", clean(text.strip()), time)]


def _arguments(raw: object) -> dict[str, Any]:
    """A function call's arguments: a JSON string holding an object (else nothing)."""
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str) or not raw.startswith("{"):
        return {}
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _command(name: str, args: dict[str, Any]) -> str | None:
    """The shell command a call runs, as one line, or None for a call that runs none."""
    if name in _SHELL_TOOLS:
        argv = strings(args.get("command"))
        if not argv:
            return None
        if len(argv) == 3 and argv[0] in _SHELLS and argv[1] in ("-lc", "-c"):
            return argv[2]
        return shlex.join(argv)
    if name in _LINE_TOOLS:
        for key in ("command", "cmd"):
            value = args.get(key)
            if isinstance(value, str) and value:
                return value
    return None


def _patched_files(patch: str) -> tuple[str, ...]:
    files = []
    for line in patch.splitlines():
        if line.startswith("*** "):
            match = _PATCH_FILE.match(line)
            if match:
                files.append(clean(match.group(1) or match.group(2)))
    return tuple(dict.fromkeys(files))


def _render_args(name: str, args: dict[str, Any]) -> str:
    parts = [name]
    for value in args.values():
        if isinstance(value, str) and value:
            parts.append(value)
        if sum(len(part) for part in parts) > _MAX_CALL_CHARS:
            break
    return cut(" ".join(parts), _MAX_CALL_CHARS)


def _exit_status(output: str) -> tuple[str, int | None]:
    """A tool output's text and exit code, from the JSON form or the header lines."""
    if output.startswith('{"') and len(output) <= _MAX_OUTPUT_JSON:
        try:
            value = json.loads(output)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict) and isinstance(value.get("output"), str):
            metadata = value.get("metadata")
            code = metadata.get("exit_code") if isinstance(metadata, dict) else None
            exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
            return value["output"], exit_code
    match = _EXIT_LINE.search(output, 0, 400)
    return output, int(match.group(1)) if match else None
