"""claude-mem's SQLite database as a source of memories, read without writing to it.

claude-mem keeps ``observations`` (title, subtitle, narrative, facts, concepts,
files, a type of its own) and ``session_summaries`` (request, investigated,
learned, completed, next steps) in ``~/.claude-mem/claude-mem.db``. Each row
becomes an ``Incoming``: an ``Observation`` or a ``Summary`` named by a stable
``source_id`` (``claude-mem:<table>:<digest of the row>``, see :func:`row_identity`),
or a ``problem`` saying why it cannot be imported.

Reading never writes: a database in WAL mode whose ``-wal`` file is absent (no
claude-mem process has it open) is opened ``immutable=1``, since even a
read-only connection would leave ``-wal`` and ``-shm`` files beside it; one with
a ``-wal`` file is opened ``mode=ro`` so that what claude-mem committed there is
seen; a database in rollback-journal mode is opened ``mode=ro``. Columns are
found with ``PRAGMA table_info``: older schemas lack some, and what is absent
is simply empty.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.capture.importing import Incoming
from memcli.core.errors import InvalidInput, MemError
from memcli.core.ids import new_ulid
from memcli.core.model import SUMMARY_FIELDS, Observation, Summary
from memcli.core.regular import NotRegularFile, open_regular, require_regular
from memcli.core.schema import MAX_SESSION_CHARS, OBSERVATION_TYPES
from memcli.core.secrets import redact, redacted_head
from memcli.core.text import clip
from memcli.core.timeutil import format_timestamp, parse_timestamp
from memcli.core.titles import default_title, summary_title
from memcli.core.validate import (
    MAX_TITLE_CHARS,
    check_file_ref,
    clean_list,
    clean_narrative,
    clean_section,
    clean_session,
    clean_title,
    strip_private,
)

if TYPE_CHECKING:
    import apsw

DEFAULT_DB = Path("~/.claude-mem/claude-mem.db")
SOURCE = "claude-mem"

TYPE_MAP = {
    "decision": "decision",
    "discovery": "discovery",
    "bugfix": "gotcha",
    "security_alert": "gotcha",
    "security_note": "gotcha",
    "refactor": "pattern",
    "feature": "discovery",  # a log of work done: context is background, which ranks first
    "change": "discovery",
    "sensitive": "context",
}
"""claude-mem's observation types (its ``code`` mode) as mem's; the original is kept."""

CONCEPT_TYPES = {"gotcha": "gotcha", "pattern": "pattern"}
"""For a type mem has no equivalent of (feature, change, ...), a concept that names one."""

_FALLBACK_TYPE = "discovery"
_MAX_FIELD_BYTES = 8_000_000
_MAX_LIST_ITEMS = 1000
_BUSY_TIMEOUT_MS = 2000
_SQLITE_MAGIC = b"SQLite format 3\x00"

_OBSERVATION_COLUMNS = (
    "title",
    "subtitle",
    "narrative",
    "text",
    "facts",
    "concepts",
    "files_modified",
    "files_read",
    "type",
    "project",
    "created_at",
    "created_at_epoch",
)
_SUMMARY_COLUMNS = (
    "request",
    "investigated",
    "learned",
    "completed",
    "next_steps",
    "notes",
    "files_read",
    "files_edited",
    "project",
    "created_at",
    "created_at_epoch",
)
_SESSION_COLUMNS = ("memory_session_id", "sdk_session_id")
"""The session id column: renamed from ``sdk_session_id`` in claude-mem's schema 17."""
_CONTENT_SESSION_COLUMNS = ("content_session_id", "claude_session_id")
"""``sdk_sessions``' column naming the agent's own session (what mem calls a session)."""


def read_claude_mem(
    db: Path, project: str | None, *, wait_ms: int = _BUSY_TIMEOUT_MS
) -> Iterator[Incoming]:
    """Every observation and session summary of claude-mem's database, opened read-only.

    ``project`` keeps the rows of that claude-mem project (also those merged into
    it); None keeps every row. The database is opened and checked before this
    returns: a missing file, one that is not claude-mem's database, a lock held
    longer than ``wait_ms``, and a project no row has are ``MemError``s. The rows
    are then read as they are consumed.
    """
    path = db.expanduser()
    conn = _open(path, wait_ms)
    try:
        source = _Source.inspect(conn, path)
        if project is not None:
            source.check_project(conn, project)
    except BaseException:
        conn.close()
        raise
    return _rows(conn, source, project)


def map_type(claude_type: str | None, concepts: list[str]) -> str:
    """mem's type for a claude-mem observation type (and its concepts)."""

    name = (claude_type or "").strip().lower()
    if name in ("decision", "discovery") or name in OBSERVATION_TYPES:
        return name
    for concept in concepts:
        found = CONCEPT_TYPES.get(concept.strip().lower())
        if found:
            return found
    return TYPE_MAP.get(name, _FALLBACK_TYPE)


def parse_list(value: str | None) -> tuple[list[str], bool]:
    """A JSON-array column as strings, and whether it was valid JSON.

    claude-mem writes these columns with ``JSON.stringify``; text that is not
    JSON is kept whole as the one item of the list, never dropped.
    """
    if value is None or not value.strip():
        return [], True
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):
        return [value.strip()], False
    if parsed is None:
        return [], True
    items = parsed if isinstance(parsed, list) else [parsed]
    result: list[str] = []
    for item in items[:_MAX_LIST_ITEMS]:
        if item is None:
            continue
        if isinstance(item, str):
            text = item
        elif isinstance(item, bool | int | float):
            text = json.dumps(item)
        else:
            text = json.dumps(item, ensure_ascii=False)
        if text.strip():
            result.append(text)
    return result, True


def project_file(path: str, project: str | None) -> str | None:
    """A file path as a project-relative path, or None when it cannot be one.

    claude-mem records paths as the agent gave them, often absolute. An absolute
    path containing the project's directory name is taken from after its last
    occurrence (``/home/a/src/mem/memcli/x.py`` in project ``mem`` is
    ``memcli/x.py``); other absolute paths, and paths leaving the project, are None.
    """

    ref = path.strip().replace("\\", "/")
    if ref.startswith("/") or re.match(r"[A-Za-z]:/", ref):
        marker = f"/{project}/" if project else None
        if not marker or marker not in ref:
            return None
        ref = ref.rsplit(marker, 1)[1]
    try:
        return check_file_ref(ref)
    except InvalidInput:
        return None


@dataclass
class _Source:
    observations: list[str] | None
    """The columns of ``observations`` this database has (None: no such table)."""
    summaries: list[str] | None
    obs_session: str | None
    sum_session: str | None
    content_session: str | None
    """``sdk_sessions``' column naming the agent's session, when it has one."""

    @classmethod
    def inspect(cls, conn: apsw.Connection, path: Path) -> _Source:
        import apsw

        try:
            observations = _columns(conn, "observations")
            summaries = _columns(conn, "session_summaries")
            sessions = _columns(conn, "sdk_sessions")
        except apsw.BusyError:
            raise MemError(f"{path} is locked by another process; try again") from None
        except apsw.Error as exc:
            raise MemError(f"{path} cannot be read as a database: {_reason(exc)}") from None
        if observations is None and summaries is None:
            raise InvalidInput(
                f"{path} is not claude-mem's database (it has no observations or "
                "session_summaries table)"
            )
        content = _first(sessions or [], _CONTENT_SESSION_COLUMNS)
        return cls(
            observations=observations,
            summaries=summaries,
            obs_session=_first(observations or [], _SESSION_COLUMNS),
            sum_session=_first(summaries or [], _SESSION_COLUMNS),
            content_session=content if sessions and "memory_session_id" in sessions else None,
        )

    def tables(self) -> list[tuple[str, list[str]]]:
        found = [("observations", self.observations), ("session_summaries", self.summaries)]
        return [(name, columns) for name, columns in found if columns is not None]

    def check_project(self, conn: apsw.Connection, project: str) -> None:
        """Refuse a project no row has, naming those that exist and their sizes."""
        counts: dict[str, int] = {}
        for table, columns in self.tables():
            if "project" not in columns:
                continue
            where, params = _project_filter(columns, project)
            if conn.execute(f"SELECT 1 FROM {table} WHERE {where} LIMIT 1", params).fetchone():
                return
            for name, count in conn.execute(
                f"SELECT project, count(*) FROM {table} GROUP BY project"
            ):
                counts[str(name)] = counts.get(str(name), 0) + int(count)
        if not counts:
            return
        listed = ", ".join(
            f"{name} ({count})"
            for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:20]
        )
        more = f" and {len(counts) - 20} more" if len(counts) > 20 else ""
        raise InvalidInput(
            f"claude-mem has no rows for project {project!r}; its projects (rows): "
            f"{listed}{more}; choose one with --project NAME"
        )


def _rows(conn: apsw.Connection, source: _Source, project: str | None) -> Iterator[Incoming]:
    import apsw

    try:
        if source.observations is not None:
            yield from _observations(conn, source, project)
        if source.summaries is not None:
            yield from _summaries(conn, source, project)
    except apsw.BusyError:
        raise MemError("claude-mem's database is locked by another process; try again") from None
    except apsw.Error as exc:
        raise MemError(f"claude-mem's database cannot be read: {_reason(exc)}") from None
    finally:
        conn.close()


def _observations(
    conn: apsw.Connection, source: _Source, project: str | None
) -> Iterator[Incoming]:
    columns = source.observations or []
    session = _session_expr("o", source.obs_session, source.content_session)
    yield from _select(conn, "observations", columns, _OBSERVATION_COLUMNS, session, project)


def _summaries(conn: apsw.Connection, source: _Source, project: str | None) -> Iterator[Incoming]:
    columns = source.summaries or []
    session = _session_expr("o", source.sum_session, source.content_session)
    yield from _select(conn, "session_summaries", columns, _SUMMARY_COLUMNS, session, project)


def _select(
    conn: apsw.Connection,
    table: str,
    columns: list[str],
    wanted: tuple[str, ...],
    session: tuple[str, str],
    project: str | None,
) -> Iterator[Incoming]:
    """Each row of ``table`` as an Incoming; text read as bytes, so bad UTF-8 cannot stop it."""
    names = [name for name in wanted if name in columns]
    select = ["o.id"] + [_text_expr(f"o.{name}") for name in names]
    session_expr, join = session
    select.append(_text_expr(session_expr))
    sql = f"SELECT {', '.join(select)} FROM {table} AS o {join}"
    params: tuple[str, ...] = ()
    if project is not None and "project" in columns:
        where, params = _project_filter(columns, project, alias="o.")
        sql += f" WHERE {where}"
    sql += " ORDER BY o.id"
    build = _observation if table == "observations" else _summary
    for row in conn.execute(sql, params):
        values = dict(zip(names, (_decode(v) for v in row[1:-1]), strict=True))
        yield _incoming(table, row[0], values, _decode(row[-1]), build, project)


def _incoming(
    table: str,
    row_id: Any,
    values: dict[str, str | None],
    session: str | None,
    build: Any,
    project: str | None,
) -> Incoming:

    source_id = f"{SOURCE}:{table}:{row_identity(table, values)}"
    kind = "observation" if table == "observations" else "summary"
    label = f"{kind} {row_id}"
    try:
        result = build(values, session, project or values.get("project"))
    except (InvalidInput, ValueError, TypeError, OverflowError) as exc:
        return Incoming(source_id=source_id, label=label, problem=str(exc))
    if isinstance(result, str):
        return Incoming(source_id=source_id, label=label, skip=result)
    shown = redacted_head(redact(result.title), 60)  # shown by the report, even when refused
    return Incoming(
        source_id=source_id,
        label=f"{label}: {shown}",
        record=result,
        aliases=(f"{SOURCE}:{table}:{row_id}@{result.created}",),
    )


def row_identity(table: str, values: dict[str, str | None]) -> str:
    """A row's identity: a digest of what it says and when (its table's columns).

    Not its row id, which each database numbers from 1 (and a NULL id is no
    identity at all), and not the database's path, which changes when the user
    moves or copies the file: a row is recognised in whatever file it is. Empty
    columns are left out, so a schema migration adding columns changes nothing,
    and so is ``project``, which claude-mem may rename or merge.
    """
    import hashlib

    kept = sorted((name, value) for name, value in values.items() if value and name != "project")
    return hashlib.sha256(json.dumps([table, kept]).encode("ascii")).hexdigest()[:24]


def _observation(
    values: dict[str, str | None], session: str | None, project: str | None
) -> Observation | str:

    _refuse_oversized(values)
    facts, _ = parse_list(values.get("facts"))
    concepts, _ = parse_list(values.get("concepts"))
    paths: list[str] = []
    elsewhere: list[str] = []
    for name in ("files_modified", "files_read"):
        items, valid = parse_list(values.get(name))
        if valid:
            paths += items
        else:  # not JSON: no path can be trusted from it, the text is kept as it is
            elsewhere += items
    files: list[str] = []
    for path in paths:
        ref = project_file(path, project)
        if ref is None:
            if path.strip() and path.strip() not in elsewhere:
                elsewhere.append(path.strip())
        elif ref not in files:
            files.append(ref)
    title = _one_line(values.get("title"))
    subtitle = _one_line(values.get("subtitle"))
    parts = []
    if subtitle and title and subtitle != title:
        parts.append(subtitle)
    for name in ("narrative", "text"):
        text = _text(values.get(name))
        if text.strip() and text.strip() not in (p.strip() for p in parts):
            parts.append(text)
    if not parts and facts:
        parts.append("\n".join(f"- {fact}" for fact in facts))
    if elsewhere:
        parts.append("Other files: " + ", ".join(elsewhere[:_MAX_LIST_ITEMS]))
    narrative = clean_narrative("\n\n".join(parts))
    if not (title or subtitle or narrative):
        return "empty in claude-mem"
    if not title:
        title = subtitle or default_title(narrative) or "claude-mem observation"
    claude_type = _one_line(values.get("type"))
    created_ms, created = _created(values)
    cleaned_concepts = clean_list(concepts, "concepts")
    extra: dict[str, Any] = {"claude_mem_type": claude_type or None}
    if not claude_type:
        extra = {}
    return Observation(
        id=new_ulid(created_ms),
        type=map_type(claude_type, cleaned_concepts),
        title=_title(title),
        created=created,
        narrative=narrative,
        concepts=cleaned_concepts,
        files=files,
        facts=clean_list(facts, "facts"),
        session=clean_session(_clip_session(session)),
        extra=extra,
    )


def _summary(
    values: dict[str, str | None], session: str | None, project: str | None
) -> Summary | str:

    _refuse_oversized(values)
    sections = {name: clean_section(_text(values.get(name)), name) for name in SUMMARY_FIELDS}
    notes = clean_section(_text(values.get("notes")), "notes")
    body: list[str] = []
    for name in SUMMARY_FIELDS:
        if sections[name]:
            heading = name.replace("_", " ").capitalize()
            body.append(f"## {heading}\n\n{sections[name]}")
    if notes:
        body.append(f"## Notes\n\n{notes}")
    for name, heading in (("files_read", "Files read"), ("files_edited", "Files edited")):
        items = parse_list(values.get(name))[0]
        if items:
            body.append(f"## {heading}\n\n" + "\n".join(f"- {item}" for item in items))
    if not any(sections.values()) and not notes:
        return "empty in claude-mem"
    if not any(sections.values()):
        sections["learned"] = notes
    created_ms, created = _created(values)
    return Summary(
        id=new_ulid(created_ms),
        title=summary_title(sections, None),
        created=created,
        narrative=clean_narrative("\n\n".join(body)),
        session=clean_session(_clip_session(session)),
        request=sections["request"],
        investigated=sections["investigated"],
        learned=sections["learned"],
        completed=sections["completed"],
        next_steps=sections["next_steps"],
    )


def _created(values: dict[str, str | None]) -> tuple[int, str]:
    """The row's time in milliseconds and in mem's form, from its epoch or its ISO text."""

    epoch = (values.get("created_at_epoch") or "").strip()
    if re.fullmatch(r"\d{1,16}", epoch):
        number = int(epoch)
        ms = number if number >= 100_000_000_000 else number * 1000  # seconds in old rows
        if 0 < ms < 253_402_300_800_000:
            moment = dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)
            return ms, format_timestamp(moment)
    text = (values.get("created_at") or "").strip()
    if text:
        try:
            moment = parse_timestamp(text)
        except ValueError:
            pass
        else:
            if moment.year >= 1970:
                return int(moment.timestamp() * 1000), format_timestamp(moment)
    raise InvalidInput("no valid time in created_at_epoch or created_at")


def _title(title: str) -> str:

    return clean_title(clip(strip_private(title).strip() or title, MAX_TITLE_CHARS))


def _refuse_oversized(values: dict[str, str | None]) -> None:
    for name, value in values.items():
        if value is not None and len(value) > _MAX_FIELD_BYTES:
            raise InvalidInput(f"{name} is longer than {_MAX_FIELD_BYTES:,} characters")


def _one_line(value: str | None) -> str:
    return " ".join(_text(value).split())


def _text(value: str | None) -> str:
    return (value or "").replace("\x00", "")


def _clip_session(session: str | None) -> str | None:

    text = " ".join(_text(session).split())
    return redacted_head(text, MAX_SESSION_CHARS) or None


def _decode(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _text_expr(column: str) -> str:
    """A column read as (at most a bounded number of) bytes, whatever its stored type."""
    return f"substr(CAST({column} AS BLOB), 1, {_MAX_FIELD_BYTES + 1})"


def _session_expr(alias: str, column: str | None, content: str | None) -> tuple[str, str]:
    """The session a row belongs to, and the join that finds it.

    mem's ``session`` is the agent's own session id: claude-mem's
    ``sdk_sessions.content_session_id`` where the row's session is found there,
    else the id the row carries.
    """
    if column is None:
        return "NULL", ""
    if content is None:
        return f"{alias}.{column}", ""
    join = (
        f"LEFT JOIN sdk_sessions AS s ON s.rowid = (SELECT rowid FROM sdk_sessions "
        f"WHERE memory_session_id = {alias}.{column} LIMIT 1)"
    )
    return f"coalesce(s.{content}, {alias}.{column})", join


def _project_filter(
    columns: list[str], project: str, alias: str = ""
) -> tuple[str, tuple[str, ...]]:
    if "merged_into_project" in columns:
        return (
            f"({alias}project = ? OR {alias}merged_into_project = ?)",
            (project, project),
        )
    return f"{alias}project = ?", (project,)


def _columns(conn: apsw.Connection, table: str) -> list[str] | None:
    rows = list(conn.execute(f"PRAGMA table_info({table})"))
    return [str(row[1]) for row in rows] if rows else None


def _first(columns: list[str], names: tuple[str, ...]) -> str | None:
    return next((name for name in names if name in columns), None)


def _open(path: Path, wait_ms: int) -> apsw.Connection:
    """A read-only connection that leaves the file and its directory as they were."""
    import urllib.parse

    import apsw

    header = _header(path)
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise InvalidInput(f"{path} is not an SQLite database")
    wal_mode = header[18] == 2
    wal_file = Path(f"{path}-wal")
    try:
        require_regular(wal_file)  # SQLite would read a FIFO there for ever
    except NotRegularFile as exc:
        raise MemError(f"{wal_file} {exc.reason}; mem does not read it") from None
    if wal_mode and wal_file.exists() and not Path(f"{path}-shm").exists():
        # claude-mem died with rows in its WAL (a running one keeps the -shm): SQLite would
        # create a -shm beside the original to read them, so a private copy is read instead.
        read = _private_copy(path, wal_file)
    else:
        read = path
    quoted = urllib.parse.quote(str(read.resolve()))
    uri = (
        f"file:{quoted}?mode=ro"
        if not wal_mode or wal_file.exists()
        else f"file:{quoted}?mode=ro&immutable=1"
    )
    try:
        conn = apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
        conn.set_busy_timeout(wait_ms)
        conn.execute("PRAGMA query_only = 1")
    except apsw.Error as exc:
        raise MemError(f"{path} cannot be opened: {_reason(exc)}") from None
    return conn


def _header(path: Path) -> bytes:
    """The first 100 bytes of the database file: a regular file (never a FIFO or device)."""
    try:
        with open_regular(path) as handle:
            return handle.read(100)
    except FileNotFoundError:
        raise InvalidInput(f"{path} does not exist: give claude-mem's database file") from None
    except NotRegularFile as exc:
        what = "is a directory" if stat.S_ISDIR(exc.mode) else exc.reason
        raise InvalidInput(f"{path} {what}: give claude-mem's database file") from None
    except OSError as exc:
        raise MemError(f"{path} cannot be read: {exc.strerror or exc}") from None


def _private_copy(path: Path, wal_file: Path) -> Path:
    """The database and its WAL copied into a temporary folder removed when mem exits."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="mem-claude-mem-"))
    _remove_at_exit(folder)  # before anything is copied: only an empty folder can be left
    copy = folder / path.name
    try:
        shutil.copyfile(path, copy)
        shutil.copyfile(wal_file, Path(f"{copy}-wal"))
    except OSError as exc:
        raise MemError(f"{path} cannot be copied to read its WAL: {exc.strerror or exc}") from None
    return copy


def _remove_at_exit(folder: Path) -> None:
    """``folder`` removed when mem exits, and when SIGTERM or SIGHUP stops it.

    A copy of claude-mem's database can be hundreds of MB: a stopped import must
    not leave it in the temporary folder. After the removal the signal does what
    it did before (by default: end the process, as killed by that signal).
    """
    import atexit
    import shutil
    import signal
    import threading

    def remove() -> None:
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(remove)
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may handle signals
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is None:
            continue
        previous = signal.getsignal(signum)
        if previous not in (signal.SIG_IGN, None):  # ignored (nohup): stays ignored
            signal.signal(signum, _removing(remove, previous))


def _removing(remove: Callable[[], None], previous: Any) -> Callable[[int, Any], None]:
    """A signal handler that calls ``remove``, then ``previous`` (or the default action)."""
    import os
    import signal

    def handler(signum: int, frame: Any) -> None:
        remove()
        if callable(previous):
            previous(signum, frame)
            return
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    return handler


def _reason(exc: Exception) -> str:
    text = str(exc).split(":", 1)[-1].strip() or type(exc).__name__
    return text.splitlines()[0] if text else type(exc).__name__
