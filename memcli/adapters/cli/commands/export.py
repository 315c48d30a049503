from __future__ import annotations

import sys
from collections.abc import Iterable

import click

from memcli.adapters.cli.options import layer_store, store_options


@click.command()
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["jsonl"]),
    default="jsonl",
    show_default=True,
    help="One JSON object a line per memory and summary.",
)
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    help="Write to FILE instead of stdout (a file atomically, keeping its mode).",
)
@store_options
def export(
    output_format: str, output: str | None, store_dir: str | None, project: str | None
) -> None:
    """Export every memory and summary, every field, one JSON object a line.

    Ordered by created time, then id; unknown frontmatter is kept under
    "extra". `mem import jsonl` reads it back: into an empty store, an export
    of that store gives the same bytes.

    \b
    Example:
        mem export > memories.jsonl
        mem export -o memories.jsonl
    """
    from memcli.capture.jsonl import export_line, export_records

    memory = layer_store(store_dir, project, None)  # the found store's own memories
    lines = (export_line(record, path) + "\n" for record, path in export_records(memory))
    if output is None:
        for line in lines:
            sys.stdout.write(line)
        sys.stdout.flush()
        return
    _write(output, lines)


def _write(output: str, lines: Iterable[str]) -> None:
    from memcli.core.errors import InvalidInput
    from memcli.core.regular import write_through

    try:
        write_through(output, (line.encode("utf-8") for line in lines))
    except OSError as exc:
        raise InvalidInput(f"cannot write {output}: {exc.strerror or exc}") from None
