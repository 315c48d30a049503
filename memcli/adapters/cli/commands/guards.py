from __future__ import annotations

import os
from typing import Any

import click

from memcli.adapters.cli.options import json_option, open_memory, store_options
from memcli.adapters.cli.output import echo_json
from memcli.core.guards import TOOLS


def _tables(store_dir: str | None, project: str | None) -> list[Any]:
    from memcli.service.guard_table import current_tables

    return current_tables(open_memory(store_dir, project).layers)


def _row_json(row: Any) -> dict[str, str]:
    return dict(row._asdict())


@click.group(invoke_without_command=True)
@json_option
@store_options
@click.pass_context
def guards(ctx: click.Context, as_json: bool, store_dir: str | None, project: str | None) -> None:
    """List the active guards of every layer: what the pre-tool hooks check calls against.

    A guard is a memory's rule for an agent's tool call (`mem save --guard
    TOOL:GLOB --guard-action deny|ask|warn`). Forgotten and superseded
    memories' guards are not listed: they no longer apply.

    \b
    Example:
        mem guards
        mem guards --json
        mem guards test Bash "npm install left-pad"
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = (store_dir, project)
        return
    rows = [row for table in _tables(store_dir, project) for row in table.rows]
    if as_json:
        echo_json([_row_json(row) for row in rows])
        return
    if not rows:
        click.echo("No guards: `mem save TEXT --guard TOOL:GLOB` adds one.", err=True)
        return
    for row in rows:
        click.echo(
            f"{row.action:<4} {row.tool}:{row.glob}  [{row.id[:10]}] {row.title} ({row.layer})"
        )


@guards.command("test")
@click.argument("tool")
@click.argument("subject")
@click.option(
    "--cwd",
    type=click.Path(file_okay=False, exists=True),
    help="Where the call runs (default: here); paths are taken from its work tree's top.",
)
@json_option
@click.pass_obj
def test(obj: Any, tool: str, subject: str, cwd: str | None, as_json: bool) -> None:
    """Say which guard would fire for a call of TOOL on SUBJECT, and why.

    SUBJECT is the shell command for Bash, the file's path for Read, Edit and
    Write. The strictest match decides (deny, then ask, then warn), as in the
    hooks. Exit code: 0 when a guard fires, 1 when none does, 2 for a usage error.

    \b
    Example:
        mem guards test Bash "npm install left-pad"
        mem guards test Read config/.env --json
    """
    from memcli.adapters.agents.pretool import fired

    if tool not in TOOLS:
        raise click.BadParameter(f"{tool!r} is not one of {', '.join(TOOLS)}", param_hint="TOOL")
    store_dir, project = obj if obj else (None, None)
    where = os.path.abspath(cwd or os.getcwd())
    matched = fired([(tool, subject)], where, _tables(store_dir, project))
    decision = matched[0].row.action if matched else None
    if as_json:
        found = [{**_row_json(m.row), "subject": m.subject} for m in matched]
        echo_json({"decision": decision, "matches": found})
    elif not matched:
        click.echo(f"No guard fires for {tool} {subject!r}.")
    else:
        click.echo(f"{decision}: {tool} {subject!r}")
        for match in matched:
            row = match.row
            click.echo(
                f"  {row.action:<4} {row.tool}:{row.glob} matches it: [{row.id[:10]}] "
                f"{row.title} ({row.layer}; `mem show {row.id}`)"
            )
    if not matched:
        click.get_current_context().exit(1)
