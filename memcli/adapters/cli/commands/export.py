from __future__ import annotations

import sys
from collections.abc import Iterable

import click

from memcli.adapters.cli.options import open_existing, store_options


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
    "-o", "--output", metavar="FILE", help="Write to FILE (atomically) instead of stdout."
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

    memory = open_existing(store_dir, project)
    lines = (export_line(record, path) + "\n" for record, path in export_records(memory))
    if output is None:
        for line in lines:
            sys.stdout.write(line)
        sys.stdout.flush()
        return
    _write_atomically(output, lines)


def _write_atomically(output: str, lines: Iterable[str]) -> None:
    import os
    from pathlib import Path

    from memcli.core.errors import InvalidInput

    target = Path(output)
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with temp.open("w", encoding="utf-8", newline="\n") as handle:
            for line in lines:
                handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise InvalidInput(f"cannot write {output}: {exc.strerror or exc}") from None
