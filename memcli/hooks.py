"""Agent hook protocols: Claude Code's hook JSON in, its JSON out.

Every handler fails open: the caller turns any exception into an empty answer
and a one-line note on stderr, so memory trouble never blocks the agent.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memcli.config import HOOK_ANSWER_LIMIT
from memcli.memory import Memory
from memcli.store import locate

MAX_HOOK_INPUT_BYTES = 64 << 20
"""A larger hook input is not read at all."""
MAX_SUMMARY_CHARS = 200_000
"""A longer compact summary is kept cut to this, with a mark saying so."""
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""NUL, and halves of surrogate pairs (JSON can carry them; UTF-8 cannot)."""
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
                text=_kept_summary(summary),
                session=_kept_session(session, notify) if isinstance(session, str) else None,
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


def _kept_summary(summary: str) -> str:
    """The summary as it can be stored: never dropped, cut (and marked) when huge."""
    if len(summary) > MAX_SUMMARY_CHARS:
        more = len(summary) - MAX_SUMMARY_CHARS
        summary = (
            summary[:MAX_SUMMARY_CHARS].rstrip()
            + f"\n\n[…{more} more characters of the compact summary were cut]"
        )
    return _UNSTORABLE.sub("\ufffd", summary)


def _kept_session(session: str, notify: Callable[[str], None]) -> str:
    from memcli.model import MAX_SESSION_CHARS

    session = " ".join(_UNSTORABLE.sub("\ufffd", session).split())
    if len(session) > MAX_SESSION_CHARS:
        notify(f"the session id is over {MAX_SESSION_CHARS} characters; its start is kept")
        session = session[:MAX_SESSION_CHARS]
    return session
