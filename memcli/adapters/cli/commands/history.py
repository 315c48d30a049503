from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.options import (
    json_option,
    layer_option,
    open_memory,
    since_option,
    store_options,
)
from memcli.adapters.cli.output import echo_json

if TYPE_CHECKING:
    from memcli.service.memory import Memory


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
@since_option("Only changes since then")
@json_option
@layer_option
@store_options
def log(
    ref: str | None,
    limit: int,
    since: str | None,
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """The memory journal: what was saved, updated, forgotten, restored or edited, and by whom.

    Each line ends with the memory's id (`mem restore` takes it). With an id
    or key, that memory's own history, across renames, also once forgotten.

    \b
    Example:
        mem log -n 10
        mem log fts-hyphen
    """
    from memcli.service.history import log as journal

    memory = open_memory(store_dir, project, layer)
    entries = journal(memory, ref, limit=limit, since=since)
    if as_json:
        echo_json([entry.to_json() for entry in entries])
        return
    if ref:
        _echo_chain(memory, ref)
    for entry in entries:
        when = entry.date[:16].replace("T", " ")
        click.echo(
            f"{when}  {entry.author[:18]:<18}  {entry.action:<10} {entry.type:<10} "
            f"{entry.title}{_ids(entry.ids)}"
        )


def _echo_chain(memory: Memory, ref: str) -> None:
    """What the memory replaced and what replaces it (superseded memories), oldest first."""
    from memcli.core.errors import NotFound
    from memcli.service.supersede import predecessors, successors

    try:
        identity = memory.resolve(ref).id
    except NotFound:
        return  # forgotten: its journal alone
    older, newer = predecessors(memory, identity), successors(memory, identity)
    if older or newer:
        chain = [*reversed(older), f"[{identity}]", *newer]
        click.echo(f"supersede chain (oldest first): {' -> '.join(chain)}")


def _ids(ids: list[str]) -> str:
    """The memory a journal line is about, for `mem show` and `mem restore`."""
    if len(ids) == 1:
        return f"  {ids[0]}"
    return f"  ({len(ids)} memories)" if ids else ""


@click.command()
@click.argument("ref", metavar="ID|KEY")
@json_option
@layer_option
@store_options
def restore(
    ref: str, as_json: bool, layer: str | None, store_dir: str | None, project: str | None
) -> None:
    """Bring a forgotten memory back from the store's history, in a new commit.

    By its id, an id prefix, or the key it had (the last memory forgotten with it).

    \b
    Example:
        mem restore 01JDX3Z6T0V6K8M2Q9R4S5T7W8
        mem restore fts-hyphen
    """
    from memcli.service.history import restore as restored

    result = restored(open_memory(store_dir, project, layer), ref)
    if as_json:
        from memcli.core.serialize import record_dict

        echo_json({**record_dict(result.record), "path": result.path, "commit": result.commit})
        return
    click.echo(f"restored {result.record.id}  {result.record.title}")


@click.command("diff")
@click.argument("revs", nargs=-1, metavar="[REV [REV]]")
@json_option
@layer_option
@store_options
def diff(
    revs: tuple[str, ...],
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """What the memory learned, changed and forgot between two revisions.

    Without revisions: since the last `mem diff` (or the previous commit). With
    one: from it to HEAD. Changes are shown field by field: title, facts added
    and removed, the text's own diff.

    \b
    Example:
        mem diff
        mem diff HEAD~5
        mem diff v1 v2 --json
    """
    from memcli.service.history import diff as memory_diff

    if len(revs) > 2:
        raise click.UsageError("give at most two revisions")
    result = memory_diff(open_memory(store_dir, project, layer), revs)
    old, new = result.old, result.new
    if as_json:
        echo_json(result.to_json())
        return
    if not (result.added or result.changed or result.forgotten):
        click.echo(f"No memory changes between {old[:10]} and {new[:10]}.")
        return
    for record in result.added:
        click.echo(f"+ added      [{record.type}] {record.title}  ({record.id[:10]})")
    for change in result.changed:
        click.echo(f"~ changed    [{change.type}] {change.title}  ({change.id[:10]})")
        for name, (before, after) in change.fields.items():
            click.echo(f"    {name}: {before!r} -> {after!r}")
        for fact in change.facts_added:
            click.echo(f"    + fact: {fact}")
        for fact in change.facts_removed:
            click.echo(f"    - fact: {fact}")
        for line in change.narrative_diff:
            click.echo(f"    {line}")
    for record in result.forgotten:
        click.echo(f"- forgotten  [{record.type}] {record.title}  ({record.id[:10]})")
