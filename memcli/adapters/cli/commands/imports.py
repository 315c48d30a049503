"""``mem import``: other tools' memories (and mem's own exports) into the store, one commit."""

from __future__ import annotations

import errno
import functools
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.options import (
    json_option,
    open_memory,
    secrets_options,
    store_options,
)
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import InvalidInput, ProblemsReported

if TYPE_CHECKING:
    from memcli.capture.importing import ImportReport, Incoming
    from memcli.core.secrets import Policy
    from memcli.service.memory import Memory


def import_options(f: click.decorators.FC, *, project: bool = True) -> click.decorators.FC:
    if project:
        f = store_options(f)
    else:  # --project names the source's project there: the store comes from --store
        f = click.option(
            "--store", "store_dir", metavar="DIR", help="Use the store in DIR (also MEM_STORE)."
        )(f)
    f = json_option(f)
    f = secrets_options(f)
    return click.option(
        "--dry-run", is_flag=True, help="Say what would be imported; change nothing."
    )(f)


@click.group(name="import")
def import_group() -> None:
    """Import memories: a mem export, Claude Code's auto memory, claude-mem.

    Every import is one commit (`git revert` undoes it), screened for secrets
    like `mem save`, and idempotent: rows imported before are skipped. It ends
    with a count of imported, skipped (with reasons) and failed rows, and exits
    1 when any row failed (the others are imported).

    \b
    Example:
        mem import jsonl memories.jsonl --dry-run
        mem import claude-memory
        mem import claude-mem --project myapp
    """


@import_group.command(name="jsonl")
@click.argument("file", metavar="FILE")
@import_options
def import_jsonl(
    file: str,
    dry_run: bool,
    secrets: Policy,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Import a `mem export` (FILE, or - for stdin), keeping ids and every field.

    A memory whose id is already in the store is skipped, never overwritten.

    \b
    Example:
        mem export --store old/ | mem import jsonl -
        mem import jsonl memories.jsonl --redact
    """
    from memcli.capture.jsonl import read_jsonl

    memory = open_memory(store_dir, project)
    if file == "-":
        report = _run(memory, read_jsonl(sys.stdin.buffer, "stdin"), "stdin", dry_run, secrets)
    else:
        path = Path(file)
        if not path.exists():
            raise InvalidInput(f"{file} does not exist")
        if path.is_dir():
            raise InvalidInput(f"{file} is a folder; give a JSONL file")
        try:
            handle = path.open("rb")
        except OSError as exc:
            raise InvalidInput(f"cannot read {file}: {exc.strerror}") from None
        with handle:
            report = _run(memory, read_jsonl(handle, file), file, dry_run, secrets)
    _finish(report, as_json)


@import_group.command(name="claude-memory")
@click.argument("directory", metavar="[DIR]", required=False)
@import_options
def import_claude_memory(
    directory: str | None,
    dry_run: bool,
    secrets: Policy,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Import Claude Code's auto memory (DIR, default: this project's memory folder).

    Each memory file becomes an observation titled by its description and keyed
    by its name (user and feedback -> preference, project and reference ->
    context); its MEMORY.md becomes the store's
    curated MEMORY.md when the store has none, otherwise the difference is shown.

    \b
    Example:
        mem import claude-memory --dry-run
        mem import claude-memory ~/.claude/projects/-home-me-app/memory
    """
    from memcli.capture import claude_memory
    from memcli.core.chunks import MEMORY_MD

    folder = (
        Path(directory) if directory else claude_memory.default_memory_dir(Path.cwd().resolve())
    )
    files = claude_memory.memory_files(folder)  # refuses a missing folder before anything
    memory = open_memory(store_dir, project)
    index = folder / claude_memory.MEMORY_INDEX
    if claude_memory.links_outside(index, folder):
        click.echo(f"mem: skipped {index}: it {claude_memory.OUTSIDE}", err=True)
        notes = None
    else:
        try:
            notes = claude_memory.read_index(folder)
        except InvalidInput as exc:
            raise InvalidInput(f"{index} {exc}") from None
    rows = claude_memory.read_claude_memory(folder) if files else iter(())
    copy, refused = _notes(memory, notes, folder, secrets) if notes is not None else (None, False)
    report = _run(memory, rows, str(folder), dry_run, secrets, notes=copy)
    if copy is not None and (dry_run or report.notes_written):
        would = "would copy" if dry_run else "copied"
        click.echo(f"mem: {would} {folder / MEMORY_MD} to the store's {MEMORY_MD}", err=True)
    _finish(report, as_json)
    if refused:
        raise InvalidInput(
            f"{folder / claude_memory.MEMORY_INDEX} was not copied: it holds likely secrets "
            "(--redact to copy it redacted)"
        )


@import_group.command(name="claude-mem")
@click.argument("db", metavar="[DB]", required=False)
@click.option(
    "--project",
    "source_project",
    metavar="NAME",
    help="claude-mem's project to import (default: the store's project's name).",
)
@click.option("--all-projects", is_flag=True, help="Every claude-mem project's rows.")
@functools.partial(import_options, project=False)
def import_claude_mem(
    db: str | None,
    source_project: str | None,
    all_projects: bool,
    dry_run: bool,
    secrets: Policy,
    as_json: bool,
    store_dir: str | None,
) -> None:
    """Import claude-mem's observations and session summaries (its SQLite database).

    The store is the one found from here (or --store); claude-mem's rows of the
    project of the same name are imported, or --project's, or --all-projects'.

    \b
    Example:
        mem import claude-mem --dry-run
        mem import claude-mem ~/.claude-mem/claude-mem.db --project myapp
    """
    from memcli.capture import claude_mem

    if source_project is not None and all_projects:
        raise click.UsageError("--project and --all-projects exclude each other")
    path = Path(db).expanduser() if db else Path(claude_mem.DEFAULT_DB).expanduser()
    memory = open_memory(store_dir, None)
    if source_project is None and not all_projects:
        location = memory.location
        # claude-mem names a project by its directory, as mem's central stores are named.
        source_project = location.project or (
            location.root.parent.name if location.source == ".mem" else None
        )
        if source_project is None:
            raise click.UsageError(
                "this store has no project name to match claude-mem's: "
                "give --project NAME or --all-projects"
            )
    rows = claude_mem.read_claude_mem(path, None if all_projects else source_project)
    _finish(_run(memory, rows, str(path), dry_run, secrets), as_json)


def _run(
    memory: Memory,
    rows: Iterable[Incoming],
    source: str,
    dry_run: bool,
    secrets: Policy,
    notes: str | None = None,
) -> ImportReport:
    from memcli.capture.importing import run_import

    terminal = sys.stderr is not None and sys.stderr.isatty()
    return run_import(
        memory,
        rows,
        source=source,
        dry_run=dry_run,
        secrets=secrets,
        progress=terminal,
        notes=notes,
    )


def _notes(memory: Memory, text: str, folder: Path, policy: Policy) -> tuple[str | None, bool]:
    """Claude Code's MEMORY.md to copy in the import's commit, and whether it was refused.

    Screened for secrets like every imported row. When the store has its own
    MEMORY.md, nothing is copied and the difference is shown.
    """
    import difflib

    from memcli.core import secrets
    from memcli.core.chunks import MEMORY_MD
    from memcli.service.screening import layer_policy

    policy = layer_policy(memory.store, policy)
    if policy != "allow" and next(secrets.scan(text, MEMORY_MD), None) is not None:
        if policy == "refuse":
            return None, True
        text = secrets.redact(text)
    try:
        mine = _store_notes(memory)
    except FileNotFoundError:
        return text, False
    except OSError as exc:
        what = "is a symbolic link" if exc.errno == errno.ELOOP else exc.strerror
        click.echo(
            f"mem: {folder / MEMORY_MD} is not copied: the store's {MEMORY_MD} {what}", err=True
        )
        return None, False
    if mine != text:
        diff = difflib.unified_diff(
            mine.splitlines(keepends=True),
            text.splitlines(keepends=True),
            fromfile=f"store/{MEMORY_MD}",
            tofile=str(folder / MEMORY_MD),
        )
        click.echo(
            f"mem: the store has its own {MEMORY_MD}, left as it is; the difference:", err=True
        )
        click.echo("".join(diff), err=True, nl=False)
    return None, False


def _store_notes(memory: Memory) -> str:
    """The store's own MEMORY.md, a regular file (never read through a link or from a FIFO)."""
    from memcli.core.chunks import MEMORY_MD
    from memcli.core.regular import open_regular

    with open_regular(memory.store.root / MEMORY_MD, follow_links=False) as handle:
        return handle.read().decode("utf-8", errors="replace")


def _finish(report: ImportReport, as_json: bool) -> None:
    if as_json:
        echo_json(report.to_json())
    else:
        would = "would import" if report.dry_run else "imported"
        click.echo(
            f"{report.rows} rows: {would} {report.imported}, skipped "
            f"{sum(report.skipped.values())}, failed {report.failed_count}"
        )
        for reason, count in sorted(report.skipped.items()):
            click.echo(f"  skipped {count}: {reason}")
        if report.dry_run:
            for line in report.preview:
                click.echo(f"  {line}")
        for label, problem in report.failed:
            click.echo(f"  failed: {label}: {problem}", err=True)
        if report.commit:
            click.echo(f"  commit {report.commit[:10]} (`git revert` it to undo the import)")
    if report.failed_count:
        raise ProblemsReported()
