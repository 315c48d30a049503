"""What every agent's hooks do, whatever the agent: its protocol module only translates.

An agent's hook module (claude.py, codex.py, gemini.py) reads its JSON, calls one
of these with the raw values it found (each is checked here: a hook input is
untrusted), and writes the agent's answer around the text returned. The four
moments are the same for every agent: the session starts (the context),
a prompt is submitted (recall), the agent compacts its context (its summary is
kept), the session ends (a detached capture summarizes the transcript).

Budgets are per agent (``[agents]`` in mem.toml): each agent cuts a hook
answer at its own size. Nothing here ever waits for a slow step: an index far
behind the store, vectors to embed and the session's summary are left to
detached processes.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.core.own_command import own_command

if TYPE_CHECKING:  # imported when used: a session end must answer at once
    from memcli.service.layers import LayeredMemory
    from memcli.service.memory import Memory

Notify = Callable[[str], None]
TRANSCRIPT_READERS = ("claude", "codex")
"""Agents whose transcripts ``mem transcripts sync`` indexes (a session start syncs them).
Those summarized at session end are ``capture.transcripts.records.AGENTS``."""
REBUILD_LIMIT = 5000
"""More memory files to index than this (``MEM_HOOK_REBUILD_LIMIT``) take too long for a hook:
the index is brought up to date by a detached ``mem reindex`` instead."""
HOOK_EMBED_LIMIT = 64
"""Memories a hook embeds itself, in pure Python; more are left to a detached reindex."""
BACKGROUND_PID_FILE = "background-reindex.pid"
MAX_SUMMARY_CHARS = 200_000
"""A longer compaction summary is kept cut to this, with a mark saying so."""
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""NUL, and halves of surrogate pairs (JSON can carry them; UTF-8 cannot)."""


def directory(cwd: object) -> Path | None:
    """The hook's working directory when it names one mem can use."""
    if isinstance(cwd, str) and cwd and "\x00" not in cwd:
        return Path(cwd)
    return None


def open_memory(cwd: object, notify: Notify) -> LayeredMemory:
    """The store of the hook's project (found from its directory), for hooks to use."""
    from memcli.service.layers import Layers
    from memcli.store.location import locate

    where = directory(cwd) or Path.cwd()
    layers = Layers(locate(None, None, where), where, notify)
    layers.model_downloads = "none"  # a hook never waits for a model to download
    memory = layers.reader(borrow=True)
    memory.embed_limit = HOOK_EMBED_LIMIT  # more would import numpy: a detached reindex does it
    return memory


def existing_memory(cwd: object, notify: Notify) -> LayeredMemory | None:
    """The memory of the hook's project when it has a store; None: nothing to add.

    A folder outside any git repository has no store either: that is no trouble to
    report (an agent may show a hook's note at every prompt), only nothing to add.
    """
    from memcli.core.errors import StoreError

    try:
        memory = open_memory(cwd, notify)
    except StoreError:  # no project to find a store for
        return None
    return memory if memory.store.exists() else None  # the found store, or another layer's


def session_start(
    cwd: object,
    *,
    agent: str,
    notify: Notify,
    cap: int | None = None,
    session: object = None,
) -> str | None:
    """The session-start context within ``agent``'s budget (and ``cap``); None: nothing to add.

    Starts a detached transcript sync of the project when mem reads the agent's
    transcripts. With the index far behind the store, a detached rebuild starts
    and the context holds MEMORY.md only. What it shows whole is noted for
    ``session``: recall never repeats it in that session.
    """
    from memcli.core import config
    from memcli.retrieval.context import SessionContext

    memory = existing_memory(cwd, notify)
    if memory is None:
        return None  # no memory for this project yet: nothing to add
    if agent in TRANSCRIPT_READERS:
        from memcli.capture.session_end import transcripts_sync

        # Detached, never waited for; in the session's directory, whose project it indexes.
        transcripts_sync(agent, f"{agent} session start: transcript sync", cwd=directory(cwd))
    budget = _budget(config.agent_budget(config.load(memory.store.root), agent, "context"), cap)
    with_index = _index_usable(memory, notify, ", so this session starts with MEMORY.md only")
    context = SessionContext.gather(memory, budget, with_index=with_index, project=directory(cwd))
    if not with_index and not context.memory_md_lines:
        return None
    text = context.render()
    kept = _session(session, notify)
    if kept:  # even none: recall then knows, and never guesses what this start showed
        from memcli.retrieval import injected

        injected.note(memory.store, kept, context.shown_whole() if text else [], context=True)
    if memory.vectors_waiting:
        reindex_in_background(memory)
    return text or None


def prompt_recall(
    cwd: object,
    prompt: object,
    session: object,
    *,
    agent: str,
    notify: Notify,
    cap: int | None = None,
) -> str | None:
    """The memories recalled for one prompt, within ``agent``'s recall budget; None: none."""
    from memcli.core import config
    from memcli.retrieval.recall import Recall

    if not isinstance(prompt, str):
        return None
    memory = existing_memory(cwd, notify)
    if memory is None or not _index_usable(memory, notify, ""):
        return None
    settings = config.load(memory.store.root)
    budget = _budget(config.agent_budget(settings, agent, "recall"), cap)
    recall = Recall.gather(
        memory,
        prompt,
        budget,
        session=_session(session, notify),
        settings=settings,
        project=directory(cwd),
    )
    text = recall.render()
    if memory.vectors_waiting:
        reindex_in_background(memory)
    return text or None


def forget_recalled(
    cwd: object, session: object, *, notify: Notify, restarted: bool = True
) -> None:
    """After a compaction, recall may show the session again what it showed before
    (``restarted``: as ``injected.forget``)."""
    from memcli.retrieval import injected

    kept = _session(session, notify)
    if not kept:
        return
    memory = existing_memory(cwd, notify)
    if memory is not None:
        injected.forget(memory.store, kept, restarted=restarted)


def save_compaction(
    cwd: object, summary: object, session: object, *, agent: str, notify: Notify
) -> None:
    """Commit the summary an agent wrote when it compacted its context (redacted, never refused)."""
    if not isinstance(summary, str) or not summary.strip():
        return
    memory = open_memory(cwd, notify).layers.memory()  # the project's: summaries go there
    # Far behind, the index is left alone: a detached process catches it up after.
    memory.index_deferred = memory.store.exists() and memory.files_to_index() > rebuild_limit()
    memory.writer.summarize(
        {},
        text=_kept_summary(summary),
        session=_session(session, notify),
        extra=_provenance(memory, cwd, agent, {"source": "compact"}),
        secrets="redact",  # nobody is there to decide: never refuse, never leak
    )
    if memory.index_deferred:
        started = reindex_in_background(memory)
        notify(
            "the index is far behind the store; "
            + ("rebuilding it in the background" if started else "a rebuild is under way")
        )


def start_session_end(
    session: object,
    transcript: object,
    cwd: object,
    *,
    agent: str,
    notify: Notify,
    summary: bool = True,
) -> bool:
    """Start the detached capture of the session's summary and lesson drafts (``summary=False``:
    the drafts only, after a compaction); False when there is nothing to read.

    Only the hook's own input is looked at here (no store, no index, no transcript):
    the hook returns within milliseconds whatever the transcript's size.
    """
    from memcli.capture.session_end import detached_capture_argv, start_detached
    from memcli.capture.transcripts.records import AGENTS

    if agent not in AGENTS:
        return False  # mem cannot read this agent's transcript
    if not isinstance(session, str) or not session.strip():
        return False  # nothing to name the summary by: quietly nothing
    if not isinstance(transcript, str) or "\x00" in transcript or not os.path.isfile(transcript):
        return False  # no transcript (or not yet written): nothing to summarize
    where = directory(cwd)
    kept = _session(session, notify) or ""
    argv = detached_capture_argv(
        agent, kept, transcript, str(where) if where else None, summary=summary
    )
    what = "summary capture" if summary else "lesson drafts"
    return start_detached(argv, where, f"{agent} session end: {what}")


def _budget(configured: int, cap: int | None) -> int:
    return configured if cap is None else min(configured, cap)


def _index_usable(memory: Memory, notify: Notify, consequence: str) -> bool:
    """False when the index is too far behind for a hook: a detached rebuild is started."""
    behind = memory.files_to_index()
    if behind <= rebuild_limit():
        return True
    started = reindex_in_background(memory)
    notify(
        f"the index is {behind} memory files behind the store; "
        + ("rebuilding it in the background" if started else "a rebuild is under way")
        + consequence
    )
    return False


def _provenance(memory: Memory, cwd: object, agent: str, extra: dict[str, str]) -> dict[str, str]:
    """``extra`` with the agent and the project's commit, where it has one."""
    from memcli.capture.provenance import project_commit

    found = {**extra, "agent": agent}
    where = directory(cwd)
    commit = project_commit(where, store_root=memory.store.root) if where else None
    if commit:
        found["project_commit"] = commit
    return found


def _kept_summary(summary: str) -> str:
    """The summary as it can be stored: never dropped, cut (and marked) when huge."""
    from memcli.core.secrets import redacted_head

    if len(summary) > MAX_SUMMARY_CHARS:
        more = len(summary) - MAX_SUMMARY_CHARS
        summary = (
            redacted_head(summary, MAX_SUMMARY_CHARS).rstrip()
            + f"\n\n[…{more} more characters of the compact summary were cut]"
        )
    return _UNSTORABLE.sub("\ufffd", summary)


def _session(session: object, notify: Notify) -> str | None:
    """The session id as it can be stored (one line, bounded), or None for none."""
    from memcli.core.schema import MAX_SESSION_CHARS

    if not isinstance(session, str):
        return None
    session = " ".join(_UNSTORABLE.sub("\ufffd", session).split())
    if len(session) > MAX_SESSION_CHARS:
        from memcli.core.secrets import redacted_head  # many patterns: only when needed

        notify(f"the session id is over {MAX_SESSION_CHARS} characters; its start is kept")
        session = redacted_head(session, MAX_SESSION_CHARS)
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
    from memcli.core.failure_log import DETACHED_ENV

    process = subprocess.Popen(
        [*own_command(), "reindex", "--store", str(memory.store.root)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        cwd=memory.store.root,
        env={**os.environ, DETACHED_ENV: "hook: background reindex"},  # it logs its failure
    )
    pid_file.write_text(str(process.pid), encoding="ascii")
    process.returncode = 0  # never waited for: it outlives this hook on purpose
    return True
