from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from memcli.adapters.cli.options import json_option, layer_option, open_memory, store_options
from memcli.adapters.cli.output import echo_json

if TYPE_CHECKING:
    from memcli.service.memory import Memory


@click.command()
@click.argument("refs", nargs=-1, required=True, metavar="ID|KEY...")
@json_option
@layer_option
@store_options
def show(
    refs: tuple[str, ...],
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Show memories in full: every field, the facts and the text.

    An id may be shortened to any unique prefix of at least 4 characters. A
    section of the notes is shown by the reference search gives it
    (notes/deploy.md:12, MEMORY.md:3).

    \b
    Example:
        mem show 01JDX3Z6 fts-hyphen
        mem show 01JDX3Z6 --json
        mem show notes/deploy.md:12
    """
    from memcli.api import MemStore
    from memcli.service.notes import parse_note_ref

    memory = open_memory(store_dir, project, layer)
    notes = [parse_note_ref(ref) for ref in refs]
    if any(notes):
        _show_mixed(memory, refs, as_json)
        return
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


def _show_mixed(memory: Memory, refs: tuple[str, ...], as_json: bool) -> None:
    """Memories and note sections, in the order asked."""
    from memcli.api import MemStore
    from memcli.retrieval.render import Renderer
    from memcli.service.notes import note_section, parse_note_ref

    shown: list[dict[str, Any]] = []
    for ref in refs:
        note = parse_note_ref(ref)
        if note is None:
            shown.extend(MemStore(memory).get([ref]))
        else:
            shown.append({"kind": "note", **note_section(memory.store, *note)})
    if as_json:
        echo_json(shown)
        return
    renderer = Renderer(memory.store.root)
    texts = []
    for item in shown:
        if item["kind"] == "note":
            heading = f" {item['heading']}" if item["heading"] else ""
            texts.append(f"# {item['path']}:{item['line']}{heading}\n\n{item['text'].strip()}\n")
        else:
            texts.append(renderer.render("show.md.j2", memory=item, path=item["path"]))
    click.echo("\n".join(text.rstrip("\n") + "\n" for text in texts), nl=False)
