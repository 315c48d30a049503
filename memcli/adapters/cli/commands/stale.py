from __future__ import annotations

from pathlib import Path

import click

from memcli.adapters.cli.options import json_option, open_existing, store_options
from memcli.adapters.cli.output import echo_json


@click.command()
@click.option(
    "--project-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="The project's git repository (default: the one holding the current directory).",
)
@json_option
@store_options
def stale(
    project_dir: Path | None, as_json: bool, store_dir: str | None, project: str | None
) -> None:
    """List memories whose files changed in the project since they were written.

    A memory saved with --file in a project's git repository records that
    repository's commit; each listed memory shows, per file, the lines added
    and removed and the commits since, and the date of the first change. A
    memory whose commit the project does not know (history rewritten) is
    listed as such. Review them, then `mem edit` or `mem forget` them.

    \b
    Example:
        mem stale
        mem stale --project-dir ~/src/app --json
    """
    from memcli.core.errors import InvalidInput
    from memcli.service.stale import git_top, stale_memories

    where = project_dir if project_dir is not None else Path.cwd()
    top = git_top(where)
    if top is None:
        raise InvalidInput(
            f"{where} is not in a git repository: give the project's with --project-dir"
        )
    memory = open_existing(store_dir, project)
    found = stale_memories(memory, top)
    short_ids = memory.read(lambda index: index.short_ids([item.entry.id for item in found]))
    if as_json:
        echo_json([item.to_json(short_ids[item.entry.id]) for item in found])
        return
    if not found:
        click.echo("No memory's files changed since it was written.", err=True)
        return
    for item in found:
        entry = item.entry
        click.echo(f"[{short_ids[entry.id]}] {entry.type}: {entry.title}")
        if item.status != "changed":
            click.echo(f"  written at {item.commit[:12]}, a commit this project does not know")
            continue
        for change in item.changes:
            since = (change.since or "")[:10]
            click.echo(
                f"  {change.path}: +{change.added} -{change.removed} in {change.commits} "
                f"commit{'s' * (change.commits != 1)} since {since} (written at {item.commit[:12]})"
            )
