"""The ``mem`` command: parse, call one core function, format, map errors."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from memcli import __version__
from memcli.adapters.cli.commands import (
    compact,
    context,
    doctor,
    edit,
    forget,
    githooks,
    history,
    hook,
    init,
    install,
    recall,
    reindex,
    save,
    search,
    show,
    sync,
    timeline,
)
from memcli.adapters.cli.commands import (
    list as list_command,
)
from memcli.core.errors import MemError, ProblemsReported


class MemGroup(click.Group):
    """Turns the core's expected failures into exit codes: the one place that does.

    A ``MemError`` becomes a one-line error with exit code 1; ``ProblemsReported``
    (the command already listed the problems) just its exit code.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ProblemsReported as exc:
            ctx.exit(exc.exit_code)
        except MemError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=MemGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mem")
def cli() -> None:
    """A memory for AI coding agents, kept as markdown files in git.

    Every memory is a markdown file with YAML frontmatter, committed to the
    project's memory store (a git repository); a derived SQLite index makes
    them searchable.

    \b
    Example:
        mem save "FTS5 MATCH treats foo-bar as a column filter" --type gotcha
        mem search fts5
        mem show 01JDX3Z6
    """


for command in (
    init.init,
    save.save,
    search.search,
    show.show,
    timeline.timeline,
    list_command.list_memories,
    forget.forget,
    reindex.reindex,
    context.context,
    recall.recall,
    compact.compact,
    hook.hook,
    install.install,
    install.uninstall,
    githooks.hooks,
    githooks.git_hook,
    sync.sync_command,
    sync.remote,
    sync.clone_command,
    history.log,
    history.restore,
    history.diff,
    doctor.doctor,
    edit.edit,
):
    cli.add_command(command)
cli.add_command(compact.compact, name="summarize")


def main() -> None:
    """Entry point: never lets a traceback reach the terminal (MEM_DEBUG=1 shows it)."""
    try:
        cli.main(prog_name="mem")
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # a bug: say so in one line
        if os.environ.get("MEM_DEBUG"):
            raise
        click.echo(
            f"Error: internal error ({type(exc).__name__}: {exc}); "
            "run again with MEM_DEBUG=1 for the traceback",
            err=True,
        )
        sys.exit(1)
