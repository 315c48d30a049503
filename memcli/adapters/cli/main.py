"""The ``mem`` command: parse, call one core function, format, map errors."""

from __future__ import annotations

import importlib
import io
import os
import sys
from typing import Any

import click

from memcli import __version__
from memcli.core.errors import MemError, ProblemsReported

COMMANDS = "memcli.adapters.cli.commands"
LAZY_COMMANDS = {
    "capture": "capture:capture",
    "clone": "sync:clone_command",
    "context": "context:context",
    "dedupe": "dedupe:dedupe",
    "diff": "history:diff",
    "doctor": "doctor:doctor",
    "edit": "edit:edit",
    "eval": "eval:eval_command",
    "export": "export:export",
    "import": "imports:import_group",
    "forget": "forget:forget",
    "git-hook": "githooks:git_hook",
    "guards": "guards:guards",
    "hook": "hook:hook",
    "hooks": "githooks:hooks",
    "init": "init:init",
    "install": "install:install",
    "list": "list:list_memories",
    "log": "history:log",
    "promote": "promote:promote",
    "recall": "recall:recall",
    "reindex": "reindex:reindex",
    "remote": "sync:remote",
    "restore": "history:restore",
    "review": "review:review",
    "save": "save:save",
    "search": "search:search",
    "show": "show:show",
    "stale": "stale:stale",
    "status": "status:status",
    "compact": "compact:compact",
    "summarize": "compact:compact",
    "sync": "sync:sync_command",
    "timeline": "timeline:timeline",
    "transcripts": "transcripts:transcripts",
    "uninstall": "install:uninstall",
    "mcp": "mcp:mcp",
    "serve": "serve:serve",
    "model": "model:model_group",
}
"""Command name -> ``module:object`` under memcli.adapters.cli.commands, imported when run."""

HELP_SECTIONS = {
    "Everyday": (
        "save",
        "search",
        "show",
        "list",
        "context",
        "recall",
        "status",
        "edit",
        "forget",
        "restore",
        "review",
        "timeline",
    ),
    "Agents": ("install", "uninstall", "guards", "summarize", "transcripts", "import", "export"),
    "Sharing": ("promote", "clone", "remote", "sync", "log", "diff"),
    "Maintenance": (
        "init",
        "doctor",
        "reindex",
        "stale",
        "dedupe",
        "hooks",
        "eval",
        "model",
        "mcp",
        "serve",
    ),
    "Plumbing (run by hooks and agents)": ("hook", "capture", "git-hook"),
}
"""How ``mem --help`` groups the commands, in order; every command but an alias is in one."""
HIDDEN_ALIASES = {"compact": "summarize"}
"""Names kept working for scripts written before the command was renamed."""


class MemGroup(click.Group):
    """Loads each command's module only when it runs (click's LazyGroup pattern), and turns
    the core's expected failures into exit codes: the one place that does.

    A ``MemError`` becomes a one-line error with exit code 1; ``ProblemsReported``
    (the command already listed the problems) just its exit code.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Commands in sections, each with its first sentence in full (not cut to fit)."""
        for section, names in HELP_SECTIONS.items():
            rows = []
            for name in names:
                command = self.get_command(ctx, name)
                if command is not None:
                    rows.append((name, command.get_short_help_str(limit=120)))
            if rows:
                with formatter.section(section):
                    formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1, cutoff=0.6)
            hint = f"; did you mean 'mem {close[0]}'?" if close else "; see 'mem --help'"
            ctx.fail(f"no command '{name}'{hint}")
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = LAZY_COMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module_name, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(f"{COMMANDS}.{module_name}"), attribute)
        assert isinstance(command, click.Command), target
        return command

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if ctx.parent is None:  # the whole command line, checked once for every command
            check_text_arguments(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        if ctx.parent is None:  # a new command: its notices are said again (core.notices)
            from memcli.core import notices

            notices.forget()
        try:
            return super().invoke(ctx)
        except ProblemsReported as exc:
            ctx.exit(exc.exit_code)
        except MemError as exc:
            raise click.ClickException(str(exc)) from None


def check_text_arguments(args: list[str]) -> None:
    """Refuse an argument that is not UTF-8 text, as a usage error of one line.

    Python gives such bytes as lone surrogates, which nothing downstream (SQLite,
    git, JSON, the terminal) can take: refused here, no command ever sees one.
    """
    for number, arg in enumerate(args, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace")
            raise click.UsageError(
                f"argument {number} ({shown[:80]}) is not UTF-8 text; mem takes text arguments"
            ) from None


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


def main() -> None:
    """Entry point: never lets a traceback reach the terminal (MEM_DEBUG=1 shows it).

    Started in the background (``MEM_DETACHED`` names by whom), nobody reads its
    stderr: a failure's last line goes to mem's failure log instead.
    """
    from memcli.core import failure_log

    source = os.environ.pop(failure_log.DETACHED_ENV, None)
    if not source:
        _run()
        return
    sys.stderr = tail = _Tail()
    try:
        _run()
    except SystemExit as exc:
        if exc.code not in (0, None):
            failure_log.record(source, tail.last_line() or f"exit status {exc.code}")
        raise
    except BaseException as exc:  # MEM_DEBUG=1: the traceback is for nobody
        failure_log.record(source, f"internal error ({type(exc).__name__}: {exc})")
        raise


class _Tail(io.StringIO):
    """Stderr of a detached process: only its end is kept, to name a failure."""

    KEEP = 4000

    def write(self, text: str) -> int:
        written = super().write(text)
        if self.tell() > 2 * self.KEEP:
            end = self.getvalue()[-self.KEEP :]
            self.seek(0)
            self.truncate()
            super().write(end)
        return written

    def last_line(self) -> str:
        lines = [line for line in self.getvalue().splitlines() if line.strip()]
        return lines[-1].removeprefix("Error: ") if lines else ""


def _run() -> None:
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
