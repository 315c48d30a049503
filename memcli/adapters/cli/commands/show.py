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
    memory = open_memory(store_dir, project)
    entries = [memory.resolve(ref) for ref in refs]
    records = [(entry, memory.load(entry)) for entry in entries]
    from memcli.core.serialize import record_dict

    if as_json:
        echo_json([{**record_dict(obs), "path": entry.path} for entry, obs in records])
        return
    from memcli.retrieval.render import Renderer

    renderer = Renderer(memory.store.root)
    texts = [
        renderer.render("show.md.j2", memory=record_dict(obs), path=entry.path)
        for entry, obs in records
    ]
    click.echo("\n".join(text.rstrip("\n") + "\n" for text in texts), nl=False)
