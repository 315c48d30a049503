"""Agent hook protocols: Claude Code's hook JSON in, its JSON out.

Every handler fails open: the caller turns any exception into an empty answer
and a one-line note on stderr, so memory trouble never blocks the agent.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from memcli.config import HOOK_ANSWER_LIMIT
from memcli.memory import Memory
from memcli.store import locate

CLAUDE_EVENTS = ("SessionStart", "UserPromptSubmit", "PreCompact", "PostCompact", "SessionEnd")
# Room for the JSON around the context: the answer as a whole must stay under the limit.
HOOK_CONTEXT_BUDGET = HOOK_ANSWER_LIMIT - 1000


def claude_answer(event: str, payload: Any, notify: Callable[[str], None]) -> dict[str, Any] | None:
    """The JSON answer to one Claude Code hook event, or None for no answer at all."""
    if event not in CLAUDE_EVENTS:
        raise ValueError(
            f"unknown Claude Code hook event {event!r} (known: {', '.join(CLAUDE_EVENTS)})"
        )
    if not isinstance(payload, dict):
        raise ValueError("the hook input is not a JSON object")
    if event in ("PreCompact", "SessionEnd"):
        return None  # nothing to block, and SessionEnd has ~1.5 s: no work at all
    cwd = payload.get("cwd")
    memory = Memory(locate(None, None, Path(cwd) if isinstance(cwd, str) else Path.cwd()), notify)
    if event == "PostCompact":
        summary = payload.get("compact_summary")
        if isinstance(summary, str) and summary.strip():
            session = payload.get("session_id")
            memory.summarize(
                {},
                text=summary,
                session=session if isinstance(session, str) else None,
                extra={"source": "compact"},
                secrets="redact",  # nobody is there to decide: never refuse, never leak
            )
        return None
    if not memory.store.exists():
        return None  # no memory for this project yet: nothing to add
    if event == "SessionStart":
        from memcli.context import SessionContext

        context = SessionContext(memory)
        context.budget = min(context.budget, HOOK_CONTEXT_BUDGET)
        text = context.render()
    else:
        from memcli.recall import Recall

        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            return None
        recall = Recall(memory, prompt)
        recall.budget = min(recall.budget, HOOK_CONTEXT_BUDGET)
        text = recall.render()
    if not text:
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
