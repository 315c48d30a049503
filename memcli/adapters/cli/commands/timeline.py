from __future__ import annotations

import click

from memcli.adapters.cli.options import json_option, layer_option, open_memory, store_options
from memcli.adapters.cli.output import print_entries


@click.command()
@click.argument("ref", metavar="ID|KEY")
@click.option(
    "--before",
    default=5,
    show_default=True,
    type=click.IntRange(0, 1000),
    help="How many memories recorded before the anchor.",
)
@click.option(
    "--after",
    default=5,
    show_default=True,
    type=click.IntRange(0, 1000),
    help="How many memories recorded after the anchor.",
)
@click.option(
    "--kind",
    type=click.Choice(["observation", "summary"]),
    help="Only observations, or only session summaries, around the anchor.",
)
@json_option
@layer_option
@store_options
def timeline(
    ref: str,
    before: int,
    after: int,
    kind: str | None,
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Show what was recorded around a memory, oldest first; '>' marks it.

    \b
    Example:
        mem timeline 01JDX3Z6 --before 3 --after 3
    """
    memory = open_memory(store_dir, project, layer)
    anchor = memory.resolve_each(ref)[0]  # an id two layers hold: the time is one
    entries = memory.read(lambda index: index.around(anchor, before=before, after=after, kind=kind))
    print_entries(memory, entries, as_json=as_json, anchor=anchor.id)
