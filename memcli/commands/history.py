from __future__ import annotations

import click

from memcli.options import json_option, open_memory, store_options
from memcli.output import echo_json


@click.command("log")
@click.argument("ref", required=False, metavar="[ID|KEY]")
@click.option(
    "-n",
    "limit",
    default=20,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="At most this many entries.",
)
@click.option(
    "--since",
    metavar="WHEN",
    help="Only changes since then (git's own forms: 2.weeks, 2026-11-01, yesterday).",
)
@json_option
@store_options
def log(
    ref: str | None,
    limit: int,
    since: str | None,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """The memory journal: what was saved, updated, forgotten, restored or edited, and by whom.

    With an id or key, that memory's own history, across renames.

    \b
    Example:
        mem log -n 10
        mem log fts-hyphen
    """
    from memcli.history import journal

    memory = open_memory(store_dir, project)
    memory.require_store()
    follow = memory.resolve(ref).path if ref else None
    entries = journal(memory.store, limit=limit, since=since, follow=follow)
    if as_json:
        echo_json([entry.to_json() for entry in entries])
        return
    for entry in entries:
        when = entry.date[:16].replace("T", " ")
        click.echo(
            f"{when}  {entry.author[:18]:<18}  {entry.action:<10} {entry.type:<10} {entry.title}"
        )


@click.command()
@click.argument("ref", metavar="ID")
@store_options
def restore(ref: str, store_dir: str | None, project: str | None) -> None:
    """Bring a forgotten memory back from the store's history, in a new commit.

    \b
    Example:
        mem restore 01JDX3Z6T0V6K8M2Q9R4S5T7W8
    """
    result = open_memory(store_dir, project).restore(ref)
    click.echo(f"restored {result.observation.id}  {result.observation.title}")
