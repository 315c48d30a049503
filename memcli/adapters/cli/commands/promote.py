from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.options import (
    json_option,
    layer_option,
    open_memory,
    secrets_options,
    store_options,
)
from memcli.adapters.cli.output import echo_json
from memcli.core.schema import LAYERS

if TYPE_CHECKING:
    from memcli.core.secrets import Policy


@click.command()
@click.argument("ref", metavar="ID|KEY")
@click.option(
    "--to",
    "destination",
    type=click.Choice(LAYERS),
    help="The layer it moves to: the team's folder in the project (staged for review), "
    "your own for every project, or the project's.",
)
@click.option("--dry-run", is_flag=True, help="Show the file that would be added; change nothing.")
@secrets_options
@json_option
@layer_option
@store_options
def promote(
    ref: str,
    destination: str | None,
    dry_run: bool,
    secrets: Policy,
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Move a memory to another layer, keeping its id: to the team, or to your own.

    The source layer commits its removal (the team folder stages it) and the
    destination gets the file (the team folder stages it, for review in the
    project's pull request). Likely secrets are looked for again: one is refused
    unless --redact, and nothing is written; <private> spans are dropped. If the
    source cannot be changed once the destination was written, that is undone.

    \b
    Example:
        mem promote deploy-freeze --to team
        mem promote 01JDX3Z6 --to user --dry-run
    """
    from memcli.api import MemStore

    if destination is None:  # checked here: an extra argument is the error to name first
        raise click.UsageError("give the layer it moves to: --to team, user or project")
    moved = MemStore(open_memory(store_dir, project, layer)).promote(
        ref, to=destination, secrets=secrets, dry_run=dry_run
    )
    if as_json:
        echo_json(moved)
        return
    if dry_run:
        click.echo(f"would add {moved['path']} to the {destination} layer:\n")
        click.echo(moved["text"], nl=False)
        return
    staged = " (staged for review)" if moved["commit"] == "" else ""
    click.echo(
        f"promoted {moved['id']}  {moved['title']}: {moved['from']} -> {destination}{staged}"
    )
