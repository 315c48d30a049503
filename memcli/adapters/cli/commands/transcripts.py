from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memcli.adapters.cli.options import (
    json_option,
    notice,
    since_option,
    store_options,
    terminal_progress,
    until_value,
)
from memcli.adapters.cli.output import echo_json
from memcli.core.text import counted

if TYPE_CHECKING:
    from memcli.index.transcripts import StoredMessage
    from memcli.service.transcripts import TranscriptHit


def _db_path(store_dir: str | None, project: str | None) -> Path:
    from memcli.service.transcripts import transcripts_path
    from memcli.store.location import locate
    from memcli.store.team import store_for

    return transcripts_path(store_for(locate(store_dir, project, Path.cwd())))


@click.group()
def transcripts() -> None:
    """Index and search the agent session transcripts of this project.

    Claude Code's sessions of the project (and their subagents') and Codex
    rollouts started in it are indexed locally, beside the memory index, never
    in git: `sync` reads only what each file gained since the last sync.

    \b
    Example:
        mem transcripts sync
        mem transcripts search "upload timeout" --since 2w
        mem transcripts show 3f2a9c1e:42
    """


@transcripts.command("sync")
@click.option(
    "--source",
    type=click.Choice(["claude", "codex"]),
    help="Only this agent's transcripts. [default: both]",
)
@click.option(
    "--path",
    "directory",
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    help="Index the *.jsonl files of DIR instead (Claude's format unless --source codex).",
)
@click.option(
    "--project-dir",
    metavar="DIR",
    help="The project whose transcripts to index. [default: the git work tree of here]",
)
@json_option
@store_options
def sync_transcripts(
    source: str | None,
    directory: Path | None,
    project_dir: str | None,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Index what the project's transcripts gained since the last sync.

    A file that only grew is read from where the last sync stopped; one that
    shrank or was replaced is read again. Nothing new costs a stat per file.
    While another sync runs, this one returns at once.

    \b
    Example:
        mem transcripts sync
        mem transcripts sync --source codex
        mem transcripts sync --path ~/old-sessions
    """
    from memcli.service import transcripts as service

    if directory is not None and not directory.is_dir():
        raise click.BadParameter(f"{directory} is not a folder", param_hint="--path")
    from memcli.adapters.cli.options import open_memory

    memory = open_memory(store_dir, project)
    memory.ensure_store()
    db_path = service.transcripts_path(memory.store)
    terminal = sys.stderr is not None and sys.stderr.isatty()
    report = service.sync(
        db_path,
        service.project_dir(Path.cwd(), project_dir),
        source=source,
        directory=directory,
        progress=terminal_progress("reading", "transcript files", after=1.0) if terminal else None,
    )
    for line in report.notices:
        notice(line)
    if as_json:
        echo_json(report.to_json())
    elif report.busy:
        notice("another transcript sync is running; nothing done")
    else:
        moves = [
            f"{count:,} {what}"
            for count, what in (
                (report.files_moved, "moved files followed"),
                (report.files_dropped, "deleted files' messages removed"),
            )
            if count
        ]
        click.echo(
            f"{counted(report.messages_added, 'message', 'messages')} "
            f"added from {report.files_read:,} of "
            f"{counted(report.files_seen, 'file', 'files')} ({report.seconds:.2f} s)"
            + (f"; {', '.join(moves)}" if moves else "")
        )


@transcripts.command("status")
@json_option
@store_options
def status_transcripts(as_json: bool, store_dir: str | None, project: str | None) -> None:
    """What the transcript index holds: files, sessions, messages, size, what was skipped.

    \b
    Example:
        mem transcripts status
        mem transcripts status --json
    """
    from memcli.service.transcripts import status

    data = status(_db_path(store_dir, project))
    if as_json:
        echo_json(data)
        return
    click.echo(f"index: {data['path']}")
    click.echo(
        f"{counted(data['files'], 'file', 'files')}, "
        f"{counted(data['sessions'], 'session', 'sessions')}, "
        f"{counted(data['messages'], 'message', 'messages')}"
    )
    click.echo(
        f"size: {_mb(data['size_bytes'])} for {_mb(data['text_bytes'])} of text; "
        f"last sync: {data['last_sync'] or 'never'}"
    )
    click.echo(f"rewound branches: {data['rewound_branches']:,}")
    for reason, count in data["skipped"].items():
        click.echo(f"skipped: {count:,} {reason}")


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


@transcripts.command("search")
@click.argument("query")
@since_option("Only messages since")
@click.option(
    "--until",
    callback=until_value,
    metavar="WHEN",
    help="Only messages before (a date includes that day).",
)
@click.option("--session", metavar="ID", help="Only this session (its id or a unique prefix).")
@click.option(
    "--role",
    type=click.Choice(["user", "assistant", "tool", "summary"]),
    help="Only messages of this role (tool: a tool's result).",
)
@click.option("--tool", metavar="NAME", help="Only messages calling this tool (or its results).")
@click.option("--file", "file", metavar="PATH", help="Only messages touching a path with PATH.")
@click.option(
    "--limit",
    default=10,
    show_default=True,
    type=click.IntRange(1, 200),
    help="At most this many hits.",
)
@json_option
@store_options
def search_transcripts(
    query: str,
    since: str | None,
    until: str | None,
    session: str | None,
    role: str | None,
    tool: str | None,
    file: str | None,
    limit: int,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Search the indexed transcripts; one line per hit: SESSION:N, time, role, snippet.

    Words are matched as in `mem search` (stop words dropped, any word, more
    of them first); at most three hits come from one session. Snippets have
    likely secrets redacted. `mem transcripts show SESSION:N` prints the
    messages around a hit.

    \b
    Example:
        mem transcripts search "why does the upload time out"
        mem transcripts search migration --role user --since 1m
        mem transcripts search pytest --tool Bash --json
    """
    from memcli.service.transcripts import SearchFilters, search

    if not query.strip():
        raise click.BadParameter("the query is empty", param_hint="QUERY")
    filters = SearchFilters(since, until, session, role, tool, file)
    hits, _ = search(_db_path(store_dir, project), query, filters, limit=limit)
    if as_json:
        echo_json([hit.to_json() for hit in hits])
        return
    if not hits:
        shown = query if len(query) <= 80 else f"{query[:77]}..."
        notice(f"no transcript message matches {shown!r}")
    for hit in hits:
        click.echo(hit_line(hit))


def hit_line(hit: TranscriptHit) -> str:
    """``3f2a9c1e:42  2026-11-20 14:03  assistant  …the snippet…`` (a longer start of the
    session where another session shares its first eight characters)."""
    when = (hit.time or "")[:16].replace("T", " ") or "-"
    return f"{hit.short}:{hit.seq:<5} {when:<16}  {hit.role:<9}  {hit.snippet}"


@transcripts.command("show")
@click.argument("ref")
@click.option(
    "--context",
    default=3,
    show_default=True,
    type=click.IntRange(0, 100),
    help="Messages shown before and after N.",
)
@json_option
@store_options
def show_transcript(
    ref: str, context: int, as_json: bool, store_dir: str | None, project: str | None
) -> None:
    """Print the messages of a session around message N (SESSION:N), or its start.

    SESSION is a session id or a unique prefix of one. Likely secrets are
    redacted and long messages cut.

    \b
    Example:
        mem transcripts show 3f2a9c1e:42
        mem transcripts show 3f2a9c1e --context 10 --json
    """
    from memcli.service.transcripts import show

    shown = show(_db_path(store_dir, project), ref, context=context)
    if as_json:
        echo_json(
            {
                "session": shown.session,
                "short": shown.short,
                "seq": shown.seq,
                "messages": [_message_json(m) for m in shown.messages],
            }
        )
        return
    for message in shown.messages:
        _echo_message(message, shown.short, message.seq == shown.seq)


def _message_json(message: StoredMessage) -> dict[str, Any]:
    from memcli.service.transcripts import shown_text

    return {
        "session": message.session,
        "seq": message.seq,
        "time": message.time,
        "role": message.role,
        "tools": list(message.tools),
        "files": list(message.files),
        "text": shown_text(message.text),
    }


def _echo_message(message: StoredMessage, short: str, marked: bool) -> None:
    from memcli.service.transcripts import shown_text

    marker = "▶ " if marked else ""
    when = (message.time or "")[:19].replace("T", " ")
    tools = f"  [{', '.join(message.tools)}]" if message.tools else ""
    click.echo(f"{marker}── {short}:{message.seq}  {when}  {message.role}{tools}")
    click.echo(shown_text(message.text))
    click.echo("")
