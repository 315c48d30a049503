"""Capture at session end: one summary per session, written by a detached process.

The agent's SessionEnd hook only starts ``mem capture session-end`` detached
(``start_detached``) and returns. That process reads the transcript once and
commits one summary through the writer (secrets redacted: nobody is there to
decide), with ``source: session-end`` and the session's provenance; then it
brings the transcript index up to date (``transcripts_sync``, best effort).

Once per session: a capture lock in the store's cache serializes concurrent runs,
and under it a per-session marker (the fast answer) or a summary of this session
with ``source: session-end`` already committed (the durable one, found with
``git grep``) means there is nothing to do.

Nobody reads a detached process's stderr: why it failed goes to mem's failure
log (``core.failure_log``), which ``mem doctor`` reports.

Top-level imports stay light: the hook imports this module within its time limit.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.core.own_command import own_command

if TYPE_CHECKING:
    from memcli.capture.transcripts.records import TranscriptMessage
    from memcli.service.memory import Memory

SOURCE = "session-end"
CAPTURE_LOCK = "session-end.lock"
MARKER_DIR = "session-end"
SYNC_TIMEOUT = 120.0
"""Seconds the capture process waits for ``mem transcripts sync`` before going on."""
MAX_TRANSCRIPT_BYTES = 1 << 30
"""A transcript is read up to this many bytes (streamed: memory stays bounded)."""
MAX_DRAFTED_MESSAGES = 4000
"""Lessons are drafted from a session's latest messages, this many at most."""
MAX_DRAFTED_TEXT = 16_000
"""Of each message kept for drafting, the text's head (drafting reads 6,000 characters):
what is kept stays bounded however long the transcript's messages are."""


def start_detached(argv: list[str], cwd: Path | None, who: str) -> bool:
    """Start ``mem ARGV...`` fully detached: its own session, no inherited pipes, never waited.

    ``who`` names it in mem's failure log, where it writes why it failed (nobody
    reads its stderr); a process that cannot be started is logged here.
    """
    from memcli.core import failure_log

    try:
        process = subprocess.Popen(
            [*own_command(), *argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            cwd=cwd if cwd is not None and cwd.is_dir() else None,
            env={**os.environ, failure_log.DETACHED_ENV: who},
        )
    except OSError as exc:
        failure_log.record(who, f"could not start `mem {argv[0]}` ({exc.strerror or exc})")
        return False
    process.returncode = 0  # never waited for: it outlives the caller on purpose
    return True


def transcripts_sync(
    source: str, who: str, *, wait: float | None = None, cwd: Path | None = None
) -> bool:
    """``mem transcripts sync --source SOURCE``, best effort; False when it did not succeed.

    Detached when ``wait`` is None (hooks), else run and waited for up to ``wait``
    seconds (the capture process). Its failure never stops anything else: it is
    written to mem's failure log under ``who``.
    """
    from memcli.capture.transcripts.locate import claude_home, codex_home
    from memcli.core import failure_log

    if source not in ("claude", "codex"):
        return False  # read at session end, not indexed (Gemini CLI)
    folder = claude_home() / "projects" if source == "claude" else codex_home() / "sessions"
    if not folder.is_dir():
        return False  # the agent has written no transcript here: nothing to sync
    argv = ["transcripts", "sync", "--source", source]
    if wait is None:
        return start_detached(argv, cwd, who)
    try:
        done = subprocess.run(
            [*own_command(), *argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=wait,
            check=False,
            env={**os.environ, failure_log.DETACHED_ENV: who},  # it logs its own failure
        )
    except subprocess.TimeoutExpired:
        failure_log.record(who, f"the transcript sync took over {wait:.0f} s and was stopped")
        return False
    except (OSError, subprocess.SubprocessError) as exc:
        failure_log.record(who, f"could not run the transcript sync ({exc})")
        return False
    return done.returncode == 0


@dataclass
class CaptureResult:
    action: str
    """``saved``, ``already`` (captured before) or ``nothing`` (no real request, or no work)."""
    summary_id: str | None = None
    commit: str | None = None
    fallback: str | None = None
    """Why the ``[summarize] command`` was not used, when it is set and failed."""
    drafts: int = 0
    """Lesson drafts the session left for ``mem review`` (one commit)."""


def capture_session_end(
    memory: Memory,
    *,
    agent: str,
    session: str,
    transcript: Path,
    cwd: Path | None,
    summary: bool = True,
) -> CaptureResult:
    """Write the session's summary from its transcript, unless done before, and the
    lessons it taught as drafts for ``mem review`` (one commit; a lesson drafted
    before is never drafted again). ``summary=False``: the drafts only (after a
    compaction: the session goes on)."""
    from memcli.capture.provenance import project_commit
    from memcli.capture.session_summary import SessionFacts
    from memcli.capture.transcripts.records import read_messages
    from memcli.core.validate import clean_session
    from memcli.store.lock import exclusive_lock

    session = clean_session(session) or ""
    if not session:
        return CaptureResult("nothing")
    if summary and memory.store.exists() and _already_captured(memory, session):
        return CaptureResult("already")
    # Every message of the file: it is this session's (a resumed one repeats earlier ones).
    # The latest are kept for drafting (streamed: memory stays bounded).
    latest: deque[TranscriptMessage] = deque(maxlen=MAX_DRAFTED_MESSAGES)
    messages = read_messages(transcript, agent, max_bytes=MAX_TRANSCRIPT_BYTES)
    root = str(cwd) if cwd else None
    facts = SessionFacts.gather(None, _kept_in(messages, latest) if summary else (), root)
    if not summary:
        latest.extend(map(_for_drafting, messages))
    drafts = draft_lessons(memory, list(latest), agent=agent, session=session, cwd=cwd)
    if not summary:
        return CaptureResult("drafted" if drafts else "nothing", drafts=drafts)
    if facts.request is None or facts.did_nothing():
        return CaptureResult("nothing", drafts=drafts)
    memory.ensure_store()
    cache = memory.store.cache_dir
    marker = cache / MARKER_DIR / hashlib.sha256(f"{agent}\0{session}".encode()).hexdigest()[:32]
    cache.mkdir(parents=True, exist_ok=True)
    with exclusive_lock(cache / CAPTURE_LOCK):
        if marker.exists() or _already_captured(memory, session):
            return CaptureResult("already", drafts=drafts)
        extra = {"source": SOURCE, "agent": agent}
        commit = project_commit(cwd, store_root=memory.store.root) if cwd else None
        if commit:
            extra["project_commit"] = commit
        sections: dict[str, object] = dict(facts.sections())
        text, fallback = _summarized(memory, facts)
        if text:
            sections = {"request": facts.request}
            extra["summarized_by"] = "command"
        elif fallback:
            from memcli.core import failure_log

            extra["summarize_fallback"] = fallback
            failure_log.record(
                f"{agent} session end: summarize command",
                f"{fallback}; the extractive summary was kept",
            )
        result = memory.writer.summarize(
            sections, session=session, text=text, extra=extra, secrets="redact"
        )
        marker.parent.mkdir(exist_ok=True)
        marker.write_text(result.record.id + "\n", encoding="ascii")
        return CaptureResult("saved", result.record.id, result.commit, fallback, drafts)


def _kept_in(
    messages: Iterable[TranscriptMessage], kept: deque[TranscriptMessage]
) -> Iterator[TranscriptMessage]:
    """``messages``, each also appended to ``kept``."""
    for message in messages:
        kept.append(_for_drafting(message))
        yield message


def _for_drafting(message: TranscriptMessage) -> TranscriptMessage:
    """The message with at most ``MAX_DRAFTED_TEXT`` characters of its text; a user's
    with what they typed only (``real_request``: its injected blocks out while whole)."""
    text = message.text
    if not isinstance(text, str) or len(text) <= MAX_DRAFTED_TEXT:
        return message
    import dataclasses

    from memcli.capture.session_summary import real_request

    if message.role == "user":
        text = real_request(text) or ""
    return dataclasses.replace(message, text=text[:MAX_DRAFTED_TEXT])


def draft_lessons(
    memory: Memory, messages: list[TranscriptMessage], *, agent: str, session: str, cwd: Path | None
) -> int:
    """Draft the session's lessons into the store in one commit; how many were written.

    Best effort: a failure is written to mem's failure log and stops nothing else.
    """
    from memcli.capture.lessons import draft_session
    from memcli.core import config, failure_log
    from memcli.core.errors import MemError
    from memcli.service.layers import Layers
    from memcli.service.lesson_drafts import drafts_for

    try:
        lessons = draft_session(
            messages, session=session, agent=agent, config=config.load(memory.store.root)
        )
        if not lessons:
            return 0
        reader = Layers(memory.location, cwd or Path.cwd(), memory.notify).reader()
        try:
            return len(drafts_for(memory, reader).add(lessons).added)
        finally:
            reader.close()
    except Exception as exc:  # best effort: the summary is written all the same
        what = str(exc) if isinstance(exc, MemError | OSError) else f"{type(exc).__name__}: {exc}"
        failure_log.record(f"{agent} session end: lesson drafts", what)
        return 0


def _summarized(memory: Memory, facts: object) -> tuple[str, str | None]:
    """The ``[summarize] command``'s answer, or "" and why not (None: none is set)."""
    from memcli.capture.session_summary import SessionFacts
    from memcli.capture.summarize_command import SummarizeFailed, run_summarize_command
    from memcli.core import config

    assert isinstance(facts, SessionFacts)
    settings = config.load(memory.store.root)["summarize"]  # the command: the user's own
    command = settings["command"].strip()
    if not command:
        return "", None
    limit = settings["max_input_chars"]
    try:
        answer = run_summarize_command(
            command, facts.as_text(limit), timeout=float(settings["timeout"]), max_input=limit
        )
    except SummarizeFailed as exc:
        memory.notify(f"{exc}; the extractive summary is kept")
        return "", str(exc)
    return answer, None


def _already_captured(memory: Memory, session: str) -> bool:
    """A committed summary of ``session`` with ``source: session-end`` exists.

    ``git grep`` finds the few files naming the session; their frontmatter decides.
    """
    from memcli.core import codec
    from memcli.core.errors import InvalidMemoryFile
    from memcli.core.model import Summary

    done = memory.store.git.run(
        [
            "grep",
            "-l",
            "-F",
            "--all-match",
            "-e",
            f"source: {SOURCE}",
            "-e",
            f"session: {codec.emit_scalar(session)}",
            "--",
            "*.md",
        ],
        check=False,
    )
    for path in done.stdout.decode("utf-8", "replace").splitlines()[:100]:
        try:
            record = memory.store.load(path)[0]
        except (InvalidMemoryFile, OSError):
            continue
        if (
            isinstance(record, Summary)
            and record.session == session
            and record.extra.get("source") == SOURCE
        ):
            return True
    return False


def detached_capture_argv(
    agent: str, session: str, transcript: str, cwd: str | None, *, summary: bool = True
) -> list[str]:
    """The ``mem`` arguments of the detached capture process (``summary=False``: the
    lesson drafts only)."""
    argv = ["capture", "session-end", "--agent", agent, "--session", session]
    argv += ["--transcript", transcript]
    if cwd:
        argv += ["--cwd", cwd]
    if not summary:
        argv.append("--drafts-only")
    return argv
