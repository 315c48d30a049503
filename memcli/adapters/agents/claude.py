"""Agent hook protocols: Claude Code's hook JSON in, its JSON out.

Every handler fails open: the caller turns any exception into an empty answer
and a one-line note on stderr, so memory trouble never blocks the agent.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.core.config import HOOK_ANSWER_LIMIT

if TYPE_CHECKING:  # imported when used: SessionEnd must answer within ~1.5 s, at once
    from memcli.service.memory import Memory

REBUILD_LIMIT = 5000
HOOK_EMBED_LIMIT = 64
"""Memories a hook embeds itself, in pure Python; more are left to a detached reindex."""
"""More memory files to index than this (``MEM_HOOK_REBUILD_LIMIT``) take too long for a hook:
the index is brought up to date by a detached ``mem reindex`` instead."""
BACKGROUND_PID_FILE = "background-reindex.pid"
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
    if event == "PreCompact":
        return None  # nothing to block
    if event == "SessionEnd":
        # ~1.5 s at most: the summary is written by a detached process, never waited for.
        start_session_end(payload, notify)
        return None
    from memcli.service.memory import Memory
    from memcli.store.location import locate

    cwd = payload.get("cwd")
    memory = Memory(locate(None, None, Path(cwd) if isinstance(cwd, str) else Path.cwd()), notify)
    memory.embed_limit = HOOK_EMBED_LIMIT  # more would import numpy: a detached reindex does it
    if event == "PostCompact":
        summary = payload.get("compact_summary")
        if isinstance(summary, str) and summary.strip():
            # Far behind, the index is left alone: a detached process catches it up after.
            memory.index_deferred = (
                memory.store.exists() and memory.files_to_index() > rebuild_limit()
            )
            session = payload.get("session_id")
            memory.writer.summarize(
                {},
                text=_kept_summary(summary),
                session=_kept_session(session, notify) if isinstance(session, str) else None,
                extra=_provenance(memory, cwd, {"source": "compact"}),
                secrets="redact",  # nobody is there to decide: never refuse, never leak
            )
            if memory.index_deferred:
                started = reindex_in_background(memory)
                notify(
                    "the index is far behind the store; "
                    + ("rebuilding it in the background" if started else "a rebuild is under way")
                )
        return None
    if not memory.store.exists():
        return None  # no memory for this project yet: nothing to add
    if event == "SessionStart":
        from memcli.capture.session_end import transcripts_sync

        # Detached, never waited for; in the session's directory, whose project it indexes.
        transcripts_sync("claude", cwd=Path(cwd) if isinstance(cwd, str) else None)
    behind = memory.files_to_index()
    if behind > rebuild_limit():
        started = reindex_in_background(memory)
        notify(
            f"the index is {behind} memory files behind the store; "
            + ("rebuilding it in the background" if started else "a rebuild is under way")
            + (", so this session starts with MEMORY.md only" if event == "SessionStart" else "")
        )
        if event != "SessionStart":
            return None
    if event == "SessionStart":
        from memcli.retrieval.context import SessionContext

        with_index = behind <= rebuild_limit()
        context = SessionContext.gather(
            memory,
            with_index=with_index,
            project=Path(cwd) if isinstance(cwd, str) and "\x00" not in cwd else None,
        )
        if not with_index and not context.memory_md_lines:
            return None
        context.budget = min(context.budget, HOOK_CONTEXT_BUDGET)
        text = context.render()
    else:
        from memcli.retrieval.recall import Recall

        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            return None
        session = payload.get("session_id")
        recall = Recall.gather(
            memory,
            prompt,
            session=_kept_session(session, notify) if isinstance(session, str) else None,
        )
        recall.budget = min(recall.budget, HOOK_CONTEXT_BUDGET)
        text = recall.render()
    if memory.vectors_waiting:
        reindex_in_background(memory)
    if not text:
        return None
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def start_session_end(payload: dict[str, Any], notify: Callable[[str], None]) -> bool:
    """Start the detached capture of the session's summary; False when there is nothing to read.

    Only the hook's own input is looked at here (no store, no index, no transcript):
    the hook returns within milliseconds whatever the transcript's size.
    """
    from memcli.capture.session_end import detached_capture_argv, start_detached

    session = payload.get("session_id")
    transcript = payload.get("transcript_path")
    cwd = payload.get("cwd")
    if not isinstance(session, str) or not session.strip():
        return False  # nothing to name the summary by: quietly nothing
    if not isinstance(transcript, str) or "\x00" in transcript or not os.path.isfile(transcript):
        return False  # no transcript (or not yet written): nothing to summarize
    where = cwd if isinstance(cwd, str) and cwd and "\x00" not in cwd else None
    argv = detached_capture_argv("claude", _kept_session(session, notify), transcript, where)
    return start_detached(argv, Path(where) if where else None)


def _provenance(memory: Memory, cwd: object, extra: dict[str, str]) -> dict[str, str]:
    """``extra`` with the agent (claude) and the project's commit, where it has one."""
    from memcli.capture.provenance import project_commit

    found = {**extra, "agent": "claude"}
    directory = Path(cwd) if isinstance(cwd, str) and cwd and "\x00" not in cwd else None
    commit = project_commit(directory, store_root=memory.store.root) if directory else None
    if commit:
        found["project_commit"] = commit
    return found


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
    from memcli.core.validate import MAX_SESSION_CHARS

    session = " ".join(_UNSTORABLE.sub("\ufffd", session).split())
    if len(session) > MAX_SESSION_CHARS:
        notify(f"the session id is over {MAX_SESSION_CHARS} characters; its start is kept")
        session = session[:MAX_SESSION_CHARS]
    return session


def rebuild_limit() -> int:
    try:
        return max(0, int(os.environ.get("MEM_HOOK_REBUILD_LIMIT", REBUILD_LIMIT)))
    except ValueError:
        return REBUILD_LIMIT


def reindex_in_background(memory: Memory) -> bool:
    """Start ``mem reindex`` fully detached (False: one started earlier is still running)."""
    cache = memory.store.index_path.parent
    pid_file = cache / BACKGROUND_PID_FILE
    try:
        pid = int(pid_file.read_text(encoding="ascii"))
        if time.time() - pid_file.stat().st_mtime < 3600:
            os.kill(pid, 0)
            return False
    except (OSError, ValueError):
        pass  # none recorded, or it is gone
    cache.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "memcli", "reindex", "--store", str(memory.store.root)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        cwd=memory.store.root,
    )
    pid_file.write_text(str(process.pid), encoding="ascii")
    process.returncode = 0  # never waited for: it outlives this hook on purpose
    return True
