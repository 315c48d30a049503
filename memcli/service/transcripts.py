"""Agent session transcripts of a project: synced into their index, searched, shown.

``sync`` finds the project's transcripts (Claude Code's project folder and its
subagent files, Codex rollouts whose first record's cwd is the project or inside
it; a rollout whose first record is not written yet is looked at again when it
grows), and parses only what each file gained since the last sync
(``capture.transcripts.tail``). One sync writes at a time: a second one finding
the lock held returns at once (hooks start syncs in the background). A transcript
that is later deleted takes its messages out of the index at the next sync; one
that was moved (Codex archiving a session) keeps them (``_follow_moves``). Only
regular files are read: a FIFO or device found is skipped with a notice.

Reading (``search``, ``show``, ``status``) opens the file read-only and never
writes; every text shown passes the secret scanner.
"""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.core.errors import InvalidInput, LockTimeout, MemError, NotFound
from memcli.core.regular import describe, open_regular
from memcli.index.transcripts import (
    COPY_SKIP,
    TRANSCRIPTS_FILE,
    FileRow,
    StoredMessage,
    TranscriptIndex,
)

if TYPE_CHECKING:
    from memcli.capture.transcripts.records import TranscriptMessage
    from memcli.store.files import Store

SOURCES = ("claude", "codex")
LOCK_FILE = "transcripts.lock"
HITS_PER_SESSION = 3
"""A session shows at most this many hits on a page; the best ones."""
CANDIDATES = 400
"""Ranked hits read before grouping by session."""
SNIPPET_CHARS = 200
SHORT_SESSION = 8
"""A session is shown by its first characters: this many, or more where another shares them."""
SHOW_CHARS = 4000
"""A message's text shown by ``show`` is cut to this."""
_REDACT_MARGIN = 3000
_SCAN_CHARS = 200_000
_BATCH = 2000


def transcripts_path(store: Store) -> Path:
    """``transcripts.db`` beside the memory index."""
    return store.index_path.parent / TRANSCRIPTS_FILE


def project_dir(cwd: Path, given: str | None = None) -> Path:
    """The project whose transcripts are meant: ``given``, else the git work tree of ``cwd``.

    Found by walking up to the folder holding ``.git`` (a folder, or a file in a
    worktree): no git process. Outside a repository, ``cwd`` itself.
    """
    if given is not None:
        return Path(given).expanduser().absolute()
    start = cwd.absolute()
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return start


# ---------------------------------------------------------------- sync


@dataclass
class SyncReport:
    busy: bool = False
    """Another sync held the lock: this one did nothing."""
    files_seen: int = 0
    files_read: int = 0
    files_restarted: int = 0
    files_moved: int = 0
    """Transcripts found moved (Codex archives sessions): their messages followed."""
    files_dropped: int = 0
    """Transcripts deleted since: their messages left the index."""
    messages_added: int = 0
    seconds: float = 0.0
    notices: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "busy": self.busy,
            "files_seen": self.files_seen,
            "files_read": self.files_read,
            "files_restarted": self.files_restarted,
            "files_moved": self.files_moved,
            "files_dropped": self.files_dropped,
            "messages_added": self.messages_added,
            "seconds": round(self.seconds, 3),
        }


def transcript_files(
    project: Path, source: str | None, directory: Path | None
) -> Iterator[tuple[Path, str, bool]]:
    """(file, agent, whether its cwd must be checked) for every transcript of the project."""
    from memcli.capture.transcripts import locate

    if directory is not None:
        agent = source or "claude"
        try:
            names = sorted(os.listdir(directory))
        except OSError as exc:
            raise InvalidInput(f"cannot read {directory} ({exc.strerror})") from None
        for name in names:
            if name.endswith(".jsonl"):
                yield directory / name, agent, False
        return
    if source in (None, "claude"):
        folder = locate.claude_project_dir(project)
        if folder.is_dir():
            for path in locate.claude_session_files(folder):
                yield path, "claude", False
    if source in (None, "codex"):
        home = locate.codex_home()
        if home.is_dir():
            for path in locate.codex_session_files(home):
                yield path, "codex", True


def _inside(cwd: str | None, project: Path) -> bool:
    if not cwd:
        return False
    path = Path(cwd)
    return path == project or project in path.parents


def sync(
    db_path: Path,
    project: Path,
    *,
    source: str | None = None,
    directory: Path | None = None,
    wait: float = 0.0,
    progress: Callable[[int, int], None] | None = None,
) -> SyncReport:
    """Bring the transcript index up to date with the files; only new bytes are parsed.

    ``progress`` is told ``(files done, files in all)`` after each file.
    """
    from memcli.store.lock import exclusive_lock

    started = time.monotonic()
    report = SyncReport()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with exclusive_lock(db_path.parent / LOCK_FILE, timeout=wait):
            _sync_locked(db_path, project, source, directory, report, progress)
    except LockTimeout:
        report.busy = True
    report.seconds = time.monotonic() - started
    return report


def _sync_locked(
    db_path: Path,
    project: Path,
    source: str | None,
    directory: Path | None,
    report: SyncReport,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    index = TranscriptIndex(db_path)
    try:
        if index.rebuilt:
            report.notices.append(index.rebuilt)
        known = index.files()
        listed = list(transcript_files(project, source, directory))
        if _follow_moves(index, known, listed, report):
            known = index.files()  # files holding copies of what left are read again
        for number, (path, agent, check_cwd) in enumerate(listed, 1):
            report.files_seen += 1
            _sync_file(index, path, agent, check_cwd, project, known.get(str(path)), report)
            if progress is not None:
                progress(number, len(listed))
        with index.write():
            index.set_meta("last_sync", _utc_now())
    finally:
        index.close()


def _follow_moves(
    index: TranscriptIndex,
    known: dict[str, FileRow],
    listed: list[tuple[Path, str, bool]],
    report: SyncReport,
) -> bool:
    """Known transcripts that are gone: moved ones (same file) follow, deleted ones leave.

    A transcript someone deleted takes its messages out of the index with it; one
    that was moved (Codex archiving a session) keeps them and its read position.
    A reused inode is no risk: the tail's check of the last line read finds a
    different file and reads it anew. True when files holding copies of the
    messages that left are to be read again.
    """
    names = {str(path) for path, _, _ in listed}
    gone: dict[tuple[int, int], FileRow] = {}
    for name, row in known.items():
        if name not in names and not os.path.lexists(name):
            gone[(row.device, row.inode)] = row
    if not gone:
        return False
    for path, _, _ in listed:
        name = str(path)
        if name in known:
            continue
        try:
            info = path.stat()
        except OSError:
            continue
        moved = gone.pop((info.st_dev, info.st_ino), None)
        if moved is not None:
            with index.write():
                index.rename_file(moved.path, name)
            del known[moved.path]
            moved.path = name
            known[name] = moved
            report.files_moved += 1
    reopened = False
    for row in gone.values():
        with index.write():
            reopened = index.reopen_copies(index.drop_file(row.path)) or reopened
        del known[row.path]
        report.files_dropped += 1
    return reopened


def _sync_file(
    index: TranscriptIndex,
    path: Path,
    agent: str,
    check_cwd: bool,
    project: Path,
    row: FileRow | None,
    report: SyncReport,
) -> None:
    from memcli.capture.transcripts.tail import Cursor, plan

    try:
        info = path.stat()
    except OSError:
        return
    if not stat.S_ISREG(info.st_mode):
        report.notices.append(f"skipped {path}: {describe(info.st_mode)}, not a regular file")
        return
    if row is not None and not row.matched:
        if row.cwd is not None or plan(path, _cursor(row), info) == "same":
            return  # a rollout of another project (never opened again), or one unchanged
        row = None  # its project was not known yet (empty, or a half-written first line)
    if row is None and check_cwd:
        from memcli.capture.transcripts.locate import codex_session_cwd

        cwd = codex_session_cwd(path)
        if not _inside(cwd, project):
            with index.write():
                index.put_file(_row(path, agent, info, Cursor(), cwd=cwd, matched=False))
            return
        cwd_seen: str | None = cwd
    else:
        cwd_seen = row.cwd if row is not None else None
    cursor = _cursor(row)
    decision = plan(path, cursor, info)
    if decision == "same":
        return
    state: dict[str, Any] | None = None
    skips: dict[str, int] = {}
    total = 0
    if decision == "restart" or row is None:
        cursor = Cursor()
        if row is not None:
            report.files_restarted += 1
    else:
        state, skips = index.file_state(row.path)
        total = row.messages
    _read_file(index, path, agent, info, cursor, state, skips, total, cwd_seen, row, report)


def _read_file(
    index: TranscriptIndex,
    path: Path,
    agent: str,
    info: os.stat_result,
    cursor: Any,
    state: dict[str, Any] | None,
    skips: dict[str, int],
    total: int,
    cwd: str | None,
    row: FileRow | None,
    report: SyncReport,
) -> None:
    from memcli.capture.transcripts.records import parser_for
    from memcli.capture.transcripts.tail import read_lines

    parser = parser_for(agent, state)
    session = row.session if row is not None and cursor.consumed else None
    try:
        handle = open_regular(path)
    except OSError:
        return
    with handle, index.write():
        fresh = os.fstat(handle.fileno())
        cursor.size, cursor.mtime_ns = fresh.st_size, fresh.st_mtime_ns
        cursor.inode, cursor.device = fresh.st_ino, fresh.st_dev
        forgotten = index.forget_file(str(path)) if cursor.consumed == 0 and row else []
        batch: list[TranscriptMessage] = []
        added = copies = 0
        for line in read_lines(handle, cursor):
            batch += parser.feed(line)
            if len(batch) >= _BATCH:
                session = session or batch[0].session
                added, copies = _add(index, path, batch, added, copies)
                batch = []
        if batch:
            session = session or batch[0].session
            added, copies = _add(index, path, batch, added, copies)
        index.reopen_copies(forgotten, keep=str(path))  # read again: what left held no more
        for reason, count in [*parser.skips.items(), (COPY_SKIP, copies)]:
            if count:
                skips[reason] = skips.get(reason, 0) + count
        new_row = _row(path, agent, info, cursor, cwd=cwd, matched=True)
        new_row.session, new_row.state, new_row.skips = session, parser.state(), skips
        new_row.messages = total + added
        index.put_file(new_row)
    report.files_read += 1
    report.messages_added += added


def _add(
    index: TranscriptIndex, path: Path, batch: list[TranscriptMessage], added: int, copies: int
) -> tuple[int, int]:
    """Messages added and copies left out so far, ``batch`` included."""
    more, repeated = index.add_messages(str(path), batch)
    return added + more, copies + repeated


def _cursor(row: FileRow | None) -> Any:
    from memcli.capture.transcripts.tail import Cursor

    if row is None:
        return None
    return Cursor(
        row.size,
        row.mtime_ns,
        row.inode,
        row.device,
        row.consumed,
        row.last_start,
        row.last_digest,
    )


def _row(
    path: Path, agent: str, info: os.stat_result, cursor: Any, *, cwd: str | None, matched: bool
) -> FileRow:
    return FileRow(
        path=str(path),
        agent=agent,
        session=None,
        matched=matched,
        cwd=cwd,
        size=cursor.size or info.st_size,
        mtime_ns=cursor.mtime_ns or info.st_mtime_ns,
        inode=cursor.inode or info.st_ino,
        device=cursor.device or info.st_dev,
        consumed=cursor.consumed,
        last_start=cursor.last_start,
        last_digest=cursor.last_digest,
        state=None,
        skips={},
        messages=0,
    )


def _utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# ---------------------------------------------------------------- reading


def open_index(db_path: Path) -> TranscriptIndex:
    """The index for reading; a clear error when there is none yet."""
    if not db_path.exists():
        raise NotFound("no transcripts are indexed yet; run `mem transcripts sync`")
    return TranscriptIndex(db_path, create=False)


def status(db_path: Path) -> dict[str, Any]:
    """What the index holds: files, sessions, messages, size, last sync, skips by reason."""
    try:
        index = open_index(db_path)
    except NotFound:  # none yet, or a first sync is creating it
        return {
            "path": str(db_path),
            "files": 0,
            "sessions": 0,
            "messages": 0,
            "text_bytes": 0,
            "size_bytes": 0,
            "last_sync": None,
            "skipped": {},
            "rewound_branches": 0,
        }
    try:
        counts = index.counts()
        size = sum(
            Path(f"{db_path}{suffix}").stat().st_size
            for suffix in ("", "-wal")
            if Path(f"{db_path}{suffix}").exists()
        )
        return {
            "path": str(db_path),
            "files": counts["files"],
            "sessions": counts["sessions"],
            "messages": counts["messages"],
            "text_bytes": counts["text_bytes"],
            "size_bytes": size,
            "last_sync": index.meta("last_sync"),
            "skipped": index.skips(),
            "rewound_branches": counts["rewound_branches"],
        }
    finally:
        index.close()


@dataclass(frozen=True)
class TranscriptHit:
    session: str
    seq: int
    time: str | None
    role: str
    snippet: str
    tools: tuple[str, ...]
    score: float
    matched: int = 0
    """How many of the query's terms the message holds (in its text, paths or tool names)."""
    short: str = ""
    """The session's start as shown: no other indexed session starts with it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "transcript",
            "session": self.session,
            "short": self.short or self.session[:SHORT_SESSION],
            "seq": self.seq,
            "ref": f"{self.session}:{self.seq}",
            "time": self.time,
            "role": self.role,
            "tools": list(self.tools),
            "snippet": self.snippet,
            "score": round(self.score, 4),
            "matched": self.matched,
        }


@dataclass(frozen=True)
class SearchFilters:
    since: str | None = None
    until: str | None = None
    session: str | None = None
    role: str | None = None
    tool: str | None = None
    file: str | None = None


_TOKEN_RE = re.compile(r"[^\W_]+", re.UNICODE)


def search(
    db_path: Path,
    query: str,
    filters: SearchFilters = SearchFilters(),
    *,
    limit: int = 10,
    per_session: int = HITS_PER_SESSION,
) -> tuple[list[TranscriptHit], list[str]]:
    """The best messages for ``query``, at most ``per_session`` from one session; the terms.

    Messages with every term rank first (bm25, text above file paths above tool
    names), then those with some of them.
    """
    from memcli.retrieval.query import plan_query
    from memcli.retrieval.stopwords import ENGLISH

    plan = plan_query(query, ENGLISH)
    terms = [term.to_fts() for term in plan.terms]
    if not terms:
        return [], []
    index = open_index(db_path)
    try:
        where, params = _where(index, filters)
        ranked = index.search(" ".join(terms), where, params, CANDIDATES)
        if len(terms) > 1 and len(ranked) < CANDIDATES:
            seen = {rowid for rowid, _ in ranked}
            more = index.search(" OR ".join(terms), where, params, CANDIDATES)
            ranked += [(rowid, score) for rowid, score in more if rowid not in seen]
        words = [term.text for term in plan.terms]
        patterns = [_words_pattern([word]) for word in words]
        hits: list[TranscriptHit] = []
        shown: dict[str, int] = {}
        for rowid, score in ranked:
            row = index.message(rowid, score)
            if row is None or shown.get(row.session, 0) >= per_session:
                continue
            shown[row.session] = shown.get(row.session, 0) + 1
            text = snippet(row.text, words)
            haystack = " ".join([row.text[:_SCAN_CHARS], *row.files, *row.tools])
            matched = sum(1 for pattern in patterns if pattern and pattern.search(haystack))
            hits.append(
                TranscriptHit(
                    row.session, row.seq, row.time, row.role, text, row.tools, -score, matched
                )
            )
            if len(hits) == limit:
                break
        shorts = {session: short_session(index, session) for session in shown}
    finally:
        index.close()
    return [replace(hit, short=shorts[hit.session]) for hit in hits], words


def short_session(index: TranscriptIndex, session: str) -> str:
    """The shortest start of ``session`` (``SHORT_SESSION`` characters at least) that is its own.

    Only the sessions next to it in sorted order can share a longer start with it,
    so two lookups decide; ``show`` and ``--session`` resolve what is returned to
    this session alone.
    """
    length = SHORT_SESSION
    for other in index.session_neighbours(session):
        length = max(length, len(os.path.commonprefix([session, other])) + 1)
    return session[:length]


def _where(index: TranscriptIndex, filters: SearchFilters) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if filters.since:
        clauses.append("m.time >= ?")
        params.append(filters.since)
    if filters.until:
        clauses.append("m.time < ?")
        params.append(filters.until)
    if filters.session:
        clauses.append("m.session = ?")
        params.append(_one_session(index, filters.session))
    if filters.role:
        clauses.append("m.role = ?")
        params.append(filters.role)
    if filters.tool:
        clauses.append("instr(char(10) || m.tools || char(10), ?) > 0")
        params.append(f"\n{filters.tool}\n")
    if filters.file:
        clauses.append("instr(m.files, ?) > 0")
        params.append(filters.file)
    return "".join(f" AND {clause}" for clause in clauses), params


def _one_session(index: TranscriptIndex, prefix: str) -> str:
    if not prefix.strip():
        raise InvalidInput("the session is empty")
    found = index.resolve_session(prefix)
    if not found:
        raise NotFound(f"no indexed session starts with {prefix!r}")
    if len(found) > 1:
        raise InvalidInput(f"{prefix!r} starts more than one session; give more of it")
    return found[0]


def snippet(text: str, words: list[str], width: int = SNIPPET_CHARS) -> str:
    """A bounded piece of ``text`` around the first word matched, secrets redacted."""
    from memcli.core.secrets import redact, redacted_head

    text = redacted_head(text, _SCAN_CHARS)
    pattern = _words_pattern(words)
    found = pattern.search(text) if pattern else None
    position = found.start() if found else 0
    start = max(0, position - _REDACT_MARGIN)
    window = redact(text[start : position + _REDACT_MARGIN])
    again = pattern.search(window, max(0, position - start - 200)) if pattern else None
    centre = again.start() if again else position - start
    begin = max(0, centre - width // 3)
    piece = window[begin : begin + width]
    piece = " ".join(piece.split())
    prefix = "…" if start + begin > 0 else ""
    suffix = "…" if start + begin + width < len(text) else ""
    return prefix + piece + suffix


def _words_pattern(words: list[str]) -> re.Pattern[str] | None:
    stems = []
    for word in words:
        for part in _TOKEN_RE.findall(word):
            stems.append(re.escape(part[: max(4, len(part) - 2)]))
    if not stems:
        return None
    return re.compile(r"(?<![^\W_])(?:" + "|".join(stems) + ")", re.IGNORECASE)


@dataclass(frozen=True)
class Shown:
    """What ``show`` found: the session, its start as shown, message N and those around."""

    session: str
    short: str
    seq: int | None
    messages: list[StoredMessage]


def show(db_path: Path, ref: str, *, context: int = 3) -> Shown:
    """The messages around ``SESSION[:N]`` (the session's start without N)."""
    session_part, _, number = ref.rpartition(":") if ":" in ref else (ref, "", "")
    if not session_part:
        raise InvalidInput(f"{ref!r} is not SESSION or SESSION:N")
    seq: int | None = None
    if number:
        if not number.isdigit():
            raise InvalidInput(f"{ref!r}: N after ':' must be a message number")
        seq = int(number)
    index = open_index(db_path)
    try:
        session = _one_session(index, session_part)
        last = index.last_seq(session)
        if seq is not None and not 1 <= seq <= last:
            raise NotFound(f"session {session} has messages 1 to {last}, not {seq}")
        first, end = (seq - context, seq + context) if seq is not None else (1, 1 + 2 * context)
        messages = index.around(session, max(1, first), end)
        return Shown(session, short_session(index, session), seq, messages)
    finally:
        index.close()


def shown_text(text: str, limit: int = SHOW_CHARS) -> str:
    """A message's text as shown: secrets redacted, cut to ``limit``."""
    from memcli.core.secrets import redact, redacted_head

    shown = redact(redacted_head(text, limit + _REDACT_MARGIN))
    return shown if len(shown) <= limit else shown[:limit] + "…"


def check_source(source: str | None) -> None:
    if source is not None and source not in SOURCES:
        raise MemError(f"unknown source {source!r} (known: {', '.join(SOURCES)})")
