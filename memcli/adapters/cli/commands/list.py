from __future__ import annotations

import click

from memcli.adapters.cli.options import (
    filter_options,
    json_option,
    layer_option,
    open_memory,
    store_options,
)
from memcli.adapters.cli.output import print_entries
from memcli.index import Filters


@click.command("list")
@filter_options
@click.option("--keys", is_flag=True, help="Only memories that have a key.")
@click.option(
    "--limit",
    default=20,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="At most this many memories.",
)
@json_option
@layer_option
@store_options
def list_memories(
    filters: Filters,
    keys: bool,
    limit: int,
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """List recent memories, newest first.

    \b
    Example:
        mem list --type decision --since 1m
        mem list --keys
    """
    memory = open_memory(store_dir, project, layer)
    entries = memory.read(lambda index: index.recent(filters, limit=limit, keyed=keys))
    print_entries(memory, entries, as_json=as_json)
