"""Claude Code's hook protocol (the events' table and answer are in protocol.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memcli.adapters.agents import events, protocol

MAX_HOOK_INPUT_BYTES = protocol.MAX_HOOK_INPUT_BYTES
CLAUDE_EVENTS = tuple(protocol.MOMENTS["claude"])
HOOK_CONTEXT_BUDGET = protocol.ANSWER_CAPS["claude"]


def claude_answer(event: str, payload: Any, notify: Callable[[str], None]) -> dict[str, Any] | None:
    """The JSON answer to one Claude Code hook event, or None for no answer at all."""
    return protocol.answer("claude", event, payload, notify)


def start_session_end(payload: dict[str, Any], notify: Callable[[str], None]) -> bool:
    """Start the detached capture of the session's summary; False when there is nothing to read."""
    return events.start_session_end(
        payload.get("session_id"),
        payload.get("transcript_path"),
        payload.get("cwd"),
        agent="claude",
        notify=notify,
    )
