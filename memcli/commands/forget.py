from __future__ import annotations

import click

from memcli.options import open_memory, store_options


@click.command()
@click.argument("refs", nargs=-1, required=True, metavar="ID|KEY...")
@store_options
def forget(refs: tuple[str, ...], store_dir: str | None, project: str | None) -> None:
    """Forget memories: remove their files in one commit.

    They stay in the store's git history (`git log`), from where they can be
    brought back. Nothing is removed unless every id or key is found.

    \b
    Example:
        mem forget 01JDX3Z6 fts-hyphen
    """
    memory = open_memory(store_dir, project)
    entries, _ = memory.forget(refs)
    for entry in entries:
        click.echo(f"forgot {entry.id}  {entry.title}")
