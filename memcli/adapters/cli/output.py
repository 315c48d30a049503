"""How results look: the compact one-line index, and JSON."""

from __future__ import annotations

from typing import Any

import click

from memcli.core.serialize import to_json
from memcli.core.text import one_line
from memcli.core.timeutil import age
from memcli.index import Entry, NoteHit
from memcli.service.memory import Memory


def echo_json(data: Any) -> None:
    click.echo(json_text(data))


def json_text(data: Any) -> str:
    """What ``echo_json`` prints, without the final newline."""
    return to_json(data, indent=2, default=str)


def entry_line(entry: Entry, short_id: str, *, marker: str = "") -> str:
    """``01JDX3Z6  gotcha      2h  FTS5 MATCH rejects bare hyphens  [fts-hyphen]``

    A memory of the user's or the team's layer is marked before its title: ``(user)``.
    """
    key = f"  [{entry.key}]" if entry.key else ""
    layer = f"({entry.layer}) " if entry.layer != "project" else ""
    return (
        f"{marker}{short_id}  {entry.type:<10} {age(entry.created):>5}  {layer}{entry.title}{key}"
    )


def echo_entries(
    entries: list[Entry], short_ids: dict[str, str], *, anchor: str = "", width: int = 0
) -> None:
    """One line a memory, the ids padded to one width (at least ``width``)."""
    for line in entry_lines(entries, short_ids, anchor=anchor, width=width):
        click.echo(line)


def entry_lines(
    entries: list[Entry], short_ids: dict[str, str], *, anchor: str = "", width: int = 0
) -> list[str]:
    """What ``echo_entries`` prints, a line each."""
    width = max([len(short_ids[e.id]) for e in entries] + [width])
    lines = []
    for entry in entries:
        marker = ("> " if entry.id == anchor else "  ") if anchor else ""
        lines.append(entry_line(entry, short_ids[entry.id].ljust(width), marker=marker))
    return lines


def print_entries(memory: Memory, entries: list[Entry], *, as_json: bool, anchor: str = "") -> None:
    """The compact index (one line each) or a JSON array, with the shortest unique ids."""
    if as_json:
        echo_json(memory.entry_dicts(entries, anchor=anchor))
        return
    short_ids = memory.read(lambda index: index.short_ids([e.id for e in entries]))
    echo_entries(entries, short_ids, anchor=anchor)


HEADING_CHARS = 120


def note_lines(hits: list[NoteHit], width: int = 80) -> list[str]:
    """``MEMORY.md:12  Deploy > Rollback — first words of the section…``, one a section."""
    from memcli.core.chunks import excerpt

    lines = []
    for hit in hits:
        head = f"{one_line(hit.path, 200)}:{hit.line}  {one_line(hit.heading, HEADING_CHARS)}"
        room = max(width - len(head) - 3, 20)
        lines.append(f"{head} — {excerpt(hit.text, room)}")
    return lines
