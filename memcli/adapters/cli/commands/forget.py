from __future__ import annotations

import sys

import click

from memcli.adapters.cli.options import (
    json_option,
    layer_option,
    notice,
    open_memory,
    store_options,
)
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import InvalidInput, NotFound, StoreError


@click.command()
@click.argument("refs", nargs=-1, required=True, metavar="ID|KEY...")
@click.option(
    "--purge",
    is_flag=True,
    help="Remove them from the store's whole git history too (rewrites history).",
)
@click.option("--yes", "-y", is_flag=True, help="Do not ask before a purge.")
@json_option
@layer_option
@store_options
def forget(
    refs: tuple[str, ...],
    purge: bool,
    yes: bool,
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Forget memories: remove their files in one commit.

    They stay in the store's git history (`git log`), from where `mem restore`
    brings them back. Nothing is removed unless every id or key is found. Each
    is removed from its own layer (--layer: look only there); in the team layer
    that is a deletion staged in the project's work tree, for review.

    With --purge they are removed from every commit instead (also memories
    forgotten before): commits that only changed them are dropped, the rest
    keep their messages and authors, reflogs are expired and unreachable
    objects pruned. A remote keeps its copy until `mem sync --force-with-lease`.

    A purge asks first; without a terminal (an agent's shell) it needs -y.

    \b
    Example:
        mem forget 01JDX3Z6 fts-hyphen
        mem forget --purge 01JDX3Z6
    """
    if purge and not yes and not _terminal():
        raise InvalidInput(
            "--purge rewrites history and cannot be undone; without a terminal to ask on, "
            "give -y to confirm"
        )
    memory = open_memory(store_dir, project, layer)
    if not purge:
        from memcli.api import MemStore

        forgotten = MemStore(memory).forget(refs)
        if as_json:
            echo_json(forgotten)
            return
        for entry in forgotten:
            click.echo(f"forgot {entry['id']}  {entry['title']}")
        return
    try:
        owners = memory.owners(list(refs))
    except NotFound:  # forgotten already: its history is the found store's (or --layer's)
        owners = {layer or memory.layers.home: list(refs)}
    if len(owners) > 1:
        raise InvalidInput(
            f"these memories are in the {' and the '.join(owners)} layers: "
            "purge one layer's at a time (--layer)"
        )
    own = memory.layer_memory(next(iter(owners)))
    if not yes:
        click.confirm(
            f"Remove {', '.join(refs)} from the whole history of {own.store.root}? "
            "This cannot be undone",
            abort=True,
        )
    records, result = own.writer.purge(refs)
    if result.left:
        raise StoreError(result.left)
    if as_json:
        echo_json([{"id": record.id, "title": record.title} for record in records])
    else:
        for record in records:
            click.echo(f"purged {record.id}  {record.title}")
    notice(
        f"history rewritten: {result.dropped} commit(s) dropped, {result.changed} changed; "
        "reflogs expired and unreachable objects pruned"
    )
    if result.lease:
        notice(
            "the remote still holds the purged memories: run `mem sync --force-with-lease` "
            "to replace its history (other clones drop them at their next `mem sync`)"
        )


def _terminal() -> bool:
    """Whether a person can be asked (stdin is a terminal)."""
    return sys.stdin is not None and sys.stdin.isatty()
