from __future__ import annotations

import click

from memcli.adapters.cli.options import json_option, open_memory, store_options
from memcli.adapters.cli.output import echo_json


@click.command()
@click.argument("refs", nargs=-1, required=True, metavar="ID|KEY...")
@json_option
@store_options
def show(refs: tuple[str, ...], as_json: bool, store_dir: str | None, project: str | None) -> None:
    """Show memories in full: every field, the facts and the text.

    An id may be shortened to any unique prefix of at least 4 characters.

    \b
    Example:
        mem show 01JDX3Z6 fts-hyphen
        mem show 01JDX3Z6 --json
    """
    from memcli.api import MemStore

    memory = open_memory(store_dir, project)
    records = MemStore(memory).get(refs)
    if as_json:
        echo_json(records)
        return
    from memcli.retrieval.render import Renderer

    renderer = Renderer(memory.store.root)
    texts = [
        renderer.render("show.md.j2", memory=record, path=record["path"]) for record in records
    ]
    click.echo("\n".join(text.rstrip("\n") + "\n" for text in texts), nl=False)
