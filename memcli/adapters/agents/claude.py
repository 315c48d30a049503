"""Claude Code's hook protocol: its hook JSON in, its JSON out (the work is in events.py).

Every handler fails open: the caller turns any exception into an empty answer
and a one-line note on stderr, so memory trouble never blocks the agent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memcli.adapters.agents import events
from memcli.core.config import HOOK_ANSWER_LIMIT

MAX_HOOK_INPUT_BYTES = 64 << 20
"""A larger hook input is not read at all."""
CLAUDE_EVENTS = ("SessionStart", "UserPromptSubmit", "PreCompact", "PostCompact", "SessionEnd")
HOOK_CONTEXT_BUDGET = HOOK_ANSWER_LIMIT - 1000
"""Room for the JSON around the context: the answer as a whole must stay under the limit,
whatever ``[agents] claude_context`` says."""


def claude_answer(event: str, payload: Any, notify: Callable[[str], None]) -> dict[str, Any] | None:
    """The JSON answer to one Claude Code hook event, or None for no answer at all."""
    if event not in CLAUDE_EVENTS:
        raise ValueError(
            f"unknown Claude Code hook event {event!r} (known: {', '.join(CLAUDE_EVENTS)})"
        )
    if not isinstance(payload, dict):
        raise ValueError("the hook input is not a JSON object")
    cwd = payload.get("cwd")
    session = payload.get("session_id")
    if event == "PreCompact":
        return None  # nothing to block
    if event == "SessionEnd":
        # ~1.5 s at most: the summary is written by a detached process, never waited for.
        start_session_end(payload, notify)
        return None
    if event == "PostCompact":
        summary = payload.get("compact_summary")
        events.save_compaction(cwd, summary, session, agent="claude", notify=notify)
        return None
    if event == "SessionStart":
        text = events.session_start(cwd, agent="claude", notify=notify, cap=HOOK_CONTEXT_BUDGET)
    else:
        text = events.prompt_recall(
            cwd,
            payload.get("prompt"),
            session,
            agent="claude",
            notify=notify,
            cap=HOOK_CONTEXT_BUDGET,
        )
    if not text:
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def start_session_end(payload: dict[str, Any], notify: Callable[[str], None]) -> bool:
    """Start the detached capture of the session's summary; False when there is nothing to read."""
    return events.start_session_end(
        payload.get("session_id"),
        payload.get("transcript_path"),
        payload.get("cwd"),
        agent="claude",
        notify=notify,
    )
