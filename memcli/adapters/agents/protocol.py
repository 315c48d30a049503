"""Which of mem's four moments each agent's hook events are, and the answer each gets.

Claude Code, Codex and Gemini CLI send a hook its event as JSON on stdin and
read ``{"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}}``
back, so one answer fits all three; only the events' names and what each agent
offers differ:

- Claude Code: SessionStart (context), UserPromptSubmit (recall), PostCompact
  (its compaction summary is kept; the lessons so far drafted, detached), SessionEnd
  (a detached summary of the transcript and its lesson drafts); PreCompact needs nothing.
- Codex: SessionStart (context; it fires again after a compaction, with
  ``source: "compact"``), UserPromptSubmit (recall) and SessionEnd (a detached
  summary of the rollout named by ``transcript_path``), read from
  ``hooks.json``. ``Stop`` ends every turn, not the session, and PreCompact /
  PostCompact carry no summary: all three are answered with nothing (PostCompact,
  like a SessionStart with ``source: "compact"``, lets recall repeat itself). A Codex
  without SessionEnd ignores that entry; its sessions are still indexed, from
  the rollout files, by the sync a session start begins.
- Gemini CLI: SessionStart (context), BeforeAgent (recall), SessionEnd (a
  detached summary of its JSONL session file, capture/transcripts/gemini.py).
  Its PreCompress is advisory, fires before the summary exists and carries
  none; the summary only replaces the model's history while the session file
  keeps the whole conversation, so the session-end summary loses nothing by
  it: answered with nothing (recall may then repeat what it showed before).

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
MOMENTS: dict[str, dict[str, str | None]] = {
    "claude": {
        "SessionStart": "context",
        "UserPromptSubmit": "recall",
        "PreCompact": None,
        "PostCompact": "compaction",
        "SessionEnd": "session-end",
    },
    "codex": {
        "SessionStart": "context",
        "UserPromptSubmit": "recall",
        "PreCompact": None,
        "PostCompact": "compacted",
        "Stop": None,
        "SessionEnd": "session-end",
    },
    "gemini": {
        "SessionStart": "context",
        "BeforeAgent": "recall",
        "PreCompress": "compacted",
        "SessionEnd": "session-end",
    },
}
"""Agent -> its hook events -> mem's moment (None: a known event, answered with nothing).
``compacted``: the agent compacted its context, so recall may show again what it showed
before (answered with nothing); a SessionStart whose ``source`` is ``compact`` does that too."""
AGENT_NAMES = {"claude": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI"}
ANSWER_CAPS: dict[str, int] = {"claude": HOOK_ANSWER_LIMIT - 1000}
"""Characters an agent takes at most whatever mem.toml says (Claude Code cuts a hook
answer over 10,000 characters, and the JSON around the text needs room)."""
ANSWER_BYTE_CAPS: dict[str, int] = {"codex": 9_600}
"""UTF-8 bytes of hook text an agent takes whole: Codex counts a token per 4 bytes and
moves hook text over 2,500 tokens to a file, leaving the model a cut preview."""
NOTHING_TO_ADD: dict[str, dict[str, Any]] = {"gemini": {}}
"""The answer meaning "nothing to add", for an agent that wants one: Gemini CLI parses a
hook's stdout as JSON (docs/hooks/reference.md), so it gets an empty object."""


def answer(
    agent: str, event: str, payload: Any, notify: Callable[[str], None]
) -> dict[str, Any] | None:
    """The JSON answer to one hook event of ``agent``, or None for no answer at all
    (Gemini CLI: ``{}`` when there is nothing to add)."""
    moments = MOMENTS[agent]
    if event not in moments:
        raise ValueError(
            f"unknown {AGENT_NAMES[agent]} hook event {event!r} (known: {', '.join(moments)})"
        )
    if not isinstance(payload, dict):
        raise ValueError("the hook input is not a JSON object")
    moment = moments[event]
    cwd, session = payload.get("cwd"), payload.get("session_id")
    cap = ANSWER_CAPS.get(agent)
    text: str | None = None
    if moment == "context":
        if payload.get("source") == "compact":
            events.forget_recalled(cwd, session, notify=notify)
        text = events.session_start(cwd, agent=agent, notify=notify, cap=cap, session=session)
    elif moment == "recall":
        prompt = payload.get("prompt")
        text = events.prompt_recall(cwd, prompt, session, agent=agent, notify=notify, cap=cap)
    elif moment == "compaction":
        summary = payload.get("compact_summary")
        events.forget_recalled(cwd, session, notify=notify)
        events.save_compaction(cwd, summary, session, agent=agent, notify=notify)
        # The lessons so far, drafted by a detached process (never waited for).
        transcript = payload.get("transcript_path")
        events.start_session_end(
            session, transcript, cwd, agent=agent, notify=notify, summary=False
        )
    elif moment == "compacted":
        # Gemini CLI runs no session start after compressing: its first one is gone too.
        restarted = agent != "gemini"
        events.forget_recalled(cwd, session, notify=notify, restarted=restarted)
    elif moment == "session-end":
        # At once: the summary is written by a detached process, never waited for.
        transcript = payload.get("transcript_path")
        events.start_session_end(session, transcript, cwd, agent=agent, notify=notify)
    byte_cap = ANSWER_BYTE_CAPS.get(agent)
    if text and byte_cap is not None:
        text = fit_bytes(text, byte_cap)
    if not text:
        return nothing_to_add(agent)
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def nothing_to_add(agent: str) -> dict[str, Any] | None:
    """What ``agent`` is answered when mem has nothing for it (None: no answer at all)."""
    empty = NOTHING_TO_ADD.get(agent)
    return None if empty is None else dict(empty)


def fit_bytes(text: str, limit: int) -> str:
    """``text`` within ``limit`` UTF-8 bytes: whole lines dropped from the end, as needed."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    kept = data[: limit + 1].decode("utf-8", errors="ignore")
    cut = kept.rfind("\n")
    return kept[:cut].rstrip() if cut > 0 else ""
