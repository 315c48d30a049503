"""The optional ``[extract] command``: any program of the user's that drafts a session's lessons.

It reads one JSON object on stdin (``session_json``: instructions, the session and
agent, and its messages, the latest that fit in ``max_input_chars``; each message's
text cut, a tool result's more, ``<private>`` spans out and likely secrets redacted)
and answers with its drafts: a JSON array, or one JSON object a line, each
``{kind, title, text, files, message}`` (``title`` and ``files`` optional;
``message`` the id of a message it was given). It is run bounded
(``capture.bounded_command``). ``draft_session`` runs it when one is set (only the
user's own config.toml may set it: ``core.trust``) and falls back to mem's own
``draft_lessons`` on any failure (exit status, timeout, no JSON, a wrong shape),
with one line in mem's failure log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from memcli.capture.bounded_command import CommandFailed, run_bounded
from memcli.capture.lessons.drafting import MAX_DRAFTS, draft_lessons
from memcli.capture.lessons.session import MAX_FILES, Turn, turns
from memcli.capture.lessons.text import MAX_QUOTE_CHARS, MAX_TITLE_CHARS, title
from memcli.capture.transcripts.records import TranscriptMessage
from memcli.core.lesson import LESSON_KINDS, LessonDraft, LessonKind
from memcli.core.secrets import redact, redacted_head
from memcli.core.validate import strip_private

MAX_MESSAGE_CHARS = 2000
MAX_RESULT_CHARS = 300
"""A tool result's text given to the command: its failure matters, not its dump."""
MAX_TEXT_CHARS = 2 * MAX_QUOTE_CHARS
MAX_ANSWER_DRAFTS = 200
"""A longer answer is a wrong shape, not drafts to choose from."""
PROMPT = (
    "These are the messages of a finished coding-agent session. Draft the lessons worth "
    "keeping for the project's memory: the user's corrections of the agent and the rules "
    "the user stated, root causes of failures the agent found, decisions the user agreed "
    "to, and notes the agent flagged as worth knowing. Nothing from small talk or routine "
    "narration. Quote the session's own words. Answer with a JSON array of objects with "
    "the keys kind (correction, rule, root_cause, decision or note), title, text, files "
    "(a list) and message (the id of the message the lesson is in): nothing else."
)


class ExtractFailed(CommandFailed):
    """The command gave no usable drafts; the message says why."""


def draft_session(
    messages: Sequence[TranscriptMessage],
    *,
    session: str,
    agent: str,
    config: Mapping[str, Any],
    limit: int = 20,
) -> list[LessonDraft]:
    """The session's drafts: the ``[extract] command``'s when one is set and it answers
    well, else ``draft_lessons``'s. ``config``: the settings in effect (``config.load``)."""
    settings = config.get("extract") if isinstance(config, Mapping) else None
    command = str((settings or {}).get("command") or "").strip()
    if not command or not isinstance(settings, Mapping):
        return draft_lessons(messages, session=session, agent=agent, limit=limit)
    try:
        return run_extract_command(
            command,
            messages,
            session=session,
            agent=agent,
            timeout=float(settings["timeout"]),
            max_input=int(settings["max_input_chars"]),
            limit=limit,
        )
    except (ExtractFailed, KeyError, TypeError, ValueError) as exc:
        from memcli.core import failure_log

        failure_log.record(
            f"{agent} session end: extract command", f"{exc}; mem's own drafting was used"
        )
        return draft_lessons(messages, session=session, agent=agent, limit=limit)


def run_extract_command(
    command: str,
    messages: Sequence[TranscriptMessage],
    *,
    session: str,
    agent: str,
    timeout: float,
    max_input: int,
    limit: int = 20,
) -> list[LessonDraft]:
    """The command's drafts for the session; ``ExtractFailed`` says why there are none."""
    given = session_json(messages, session=session, agent=agent, max_input=max_input)
    try:
        answer = run_bounded(command, given["text"], timeout=timeout, max_input=max_input)
    except CommandFailed as exc:
        raise ExtractFailed(str(exc)) from None
    return parse_answer(
        answer, ids=given["ids"], session=session, agent=agent, limit=max(0, min(limit, MAX_DRAFTS))
    )


def session_json(
    messages: Sequence[TranscriptMessage], *, session: str, agent: str, max_input: int
) -> dict[str, Any]:
    """What the command reads (``text``: JSON within ``max_input`` characters) and the ids
    of the messages it holds (``ids``). The latest messages are kept when not all fit."""
    head = {"instructions": PROMPT, "session": session, "agent": agent, "messages": []}
    budget = max_input - len(json.dumps(head, ensure_ascii=False))
    kept: list[str] = []
    ids: set[str] = set()
    for turn in reversed(turns(messages)):
        message = turn.message
        limit = MAX_RESULT_CHARS if turn.role == "tool" else MAX_MESSAGE_CHARS
        item: dict[str, Any] = {"id": turn.id, "role": turn.role, "text": _given(turn, limit)}
        for name in ("files", "commands"):
            values = getattr(message, name)
            if values:
                item[name] = list(values[:MAX_FILES])
        if message.failed:
            item["failed"] = True
        encoded = json.dumps(item, ensure_ascii=False)
        if len(encoded) + 2 > budget:
            break
        budget -= len(encoded) + 2
        kept.append(encoded)
        ids.add(turn.id)
    body = json.dumps(head, ensure_ascii=False)[: -len("[]}")]
    text = body + "[" + ", ".join(reversed(kept)) + "]}"
    return {"text": text, "ids": ids}


def _given(turn: Turn, limit: int) -> str:
    """What the command reads of one message: at most ``limit`` characters, its
    ``<private>`` spans out and its likely secrets redacted, as a save would store it."""
    if turn.role != "tool":
        text = turn.prose  # its private spans out already
    else:
        text = turn.message.text if isinstance(turn.message.text, str) else ""
        text = strip_private(redacted_head(text, 4 * limit))
    return redact(redacted_head(text, limit))


def parse_answer(
    answer: str, *, ids: set[str], session: str, agent: str, limit: int
) -> list[LessonDraft]:
    """The drafts of the command's answer (a JSON array or JSON lines), each checked."""
    items = _items(answer)
    if len(items) > MAX_ANSWER_DRAFTS:
        raise ExtractFailed(f"the command's answer holds over {MAX_ANSWER_DRAFTS} drafts")
    drafts: dict[str, LessonDraft] = {}
    for number, item in enumerate(items, 1):
        draft = _draft(item, number, ids=ids, session=session, agent=agent)
        drafts.setdefault(draft.draft_id, draft)
    return list(drafts.values())[:limit]


def _items(answer: str) -> list[Any]:
    stripped = answer.strip()
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        lines = [line for line in stripped.splitlines() if line.strip()]
        items = []
        for number, line in enumerate(lines, 1):
            try:
                items.append(json.loads(line))
            except (ValueError, RecursionError):
                raise ExtractFailed(f"the command's answer is not JSON (line {number})") from None
        return items
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return [value]
    raise ExtractFailed("the command's answer is not a JSON array of drafts")


def _draft(item: Any, number: int, *, ids: set[str], session: str, agent: str) -> LessonDraft:
    where = f"draft {number} of the command's answer"
    if not isinstance(item, dict):
        raise ExtractFailed(f"{where} is not a JSON object")
    kind = item.get("kind")
    if kind not in LESSON_KINDS:
        raise ExtractFailed(f"{where} has no known kind (one of {', '.join(LESSON_KINDS)})")
    text = item.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ExtractFailed(f"{where} has no text")
    message = item.get("message")
    if isinstance(message, int) and not isinstance(message, bool):
        message = str(message)
    if not isinstance(message, str) or message not in ids:
        raise ExtractFailed(f"{where} names no message of the session")
    given_title = item.get("title")
    files = item.get("files", [])
    if given_title is not None and not isinstance(given_title, str):
        raise ExtractFailed(f"{where} has a title that is not text")
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise ExtractFailed(f"{where} has files that are not a list of paths")
    text = redacted_head(" ".join(text.split()), MAX_TEXT_CHARS)
    chosen: LessonKind = kind
    return LessonDraft(
        kind=chosen,
        title=(
            redacted_head(" ".join(given_title.split()), MAX_TITLE_CHARS)
            if given_title
            else title(text)
        ),
        text=text,
        session=session,
        message=message,
        agent=agent,
        files=tuple(dict.fromkeys(f for f in files if f.strip()))[:MAX_FILES],
        extra={"drafted_by": "command"},
    )
