from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.options import json_option, open_memory, store_options
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import ProblemsReported
from memcli.core.text import counted

if TYPE_CHECKING:
    from memcli.service.index_check import Drift


@click.command()
@click.option("--full", is_flag=True, help="Rebuild the index from every memory file.")
@click.option(
    "--check",
    is_flag=True,
    help="Verify that the index matches the memory and notes files; exit 1 when it does not.",
)
@json_option
@store_options
def reindex(
    full: bool, check: bool, as_json: bool, store_dir: str | None, project: str | None
) -> None:
    """Bring the index up to date with the store's git history.

    Incremental by default: only the files git says changed since the indexed
    commit are read. Every read command does this by itself; run it after
    editing memory files by hand, or with --full if in doubt.

    \b
    Example:
        mem reindex
        mem reindex --full
        mem reindex --check
    """
    if full and check:
        raise click.UsageError("--full and --check do different things; give one")
    reader = open_memory(store_dir, project)
    memory = reader.layers.memory()  # the found store's index alone, which must exist
    memory.require_store()
    memory.embedding_progress = reader.embedding_progress
    if check:
        drift = memory.check()
        summary = {
            "checked": drift.checked,
            "missing": drift.missing,
            "extra": drift.extra,
            "stale": drift.stale,
            "invalid": drift.invalid,
            "vectors_missing": drift.vectors_missing,
            "vectors_stale": drift.vectors_stale,
            "ok": drift.clean,
        }
        if as_json:
            echo_json(summary)
        else:
            for problem in drift.invalid:
                click.echo(f"invalid: {problem}", err=True)
            for label, paths in (
                ("not indexed", drift.missing),
                ("indexed, no file", drift.extra),
                ("index out of date", drift.stale),
                ("no vector", drift.vectors_missing),
                ("vector out of date", drift.vectors_stale),
            ):
                for path in paths:
                    click.echo(f"{label}: {path}")
            if drift.clean:
                click.echo(f"The index matches the {drift.checked} memory and notes files.")
            else:
                click.echo(
                    f"The index differs from the files: {len(drift.missing)} not indexed, "
                    f"{len(drift.extra)} without a file, {len(drift.stale)} out of date"
                    + _vector_counts(drift)
                    + "; `mem reindex --full` repairs it."
                )
        if not drift.clean:
            raise ProblemsReported()
        return
    report = memory.reindex(full=full)
    count = memory.read(lambda index: index.count())
    commit = (memory.store.head() or "")[:10] or "no commits"
    if as_json:
        echo_json(
            {
                "rebuilt": bool(report and report.rebuilt),
                "added": report.added if report else 0,
                "removed": report.removed if report else 0,
                "skipped": report.skipped if report else [],
                "memories": count,
                "commit": memory.store.head(),
            }
        )
        return
    memories = counted(count, "memory", "memories")
    if report is None:
        click.echo(f"The index is up to date: {memories} at {commit}.")
    elif report.rebuilt:
        click.echo(f"Rebuilt the index: {memories} at {commit}.")
    else:
        click.echo(
            f"Updated the index: {report.added} added, {report.removed} removed; "
            f"{memories} at {commit}."
        )


def _vector_counts(drift: Drift) -> str:
    if not (drift.vectors_missing or drift.vectors_stale):
        return ""
    return (
        f", {len(drift.vectors_missing)} without a vector, "
        f"{len(drift.vectors_stale)} with an outdated vector"
    )
