from __future__ import annotations

import click

from memcli.adapters.cli.options import open_memory, store_options
from memcli.core.errors import ProblemsReported


@click.command()
@click.option("--fix", is_flag=True, help="Repair what is safe to repair, and say what was done.")
@store_options
def doctor(fix: bool, store_dir: str | None, project: str | None) -> None:
    """Check the store: invalid or duplicate memories, index drift, locks, uncommitted files.

    Also reports recent failures of hooks and of the work they start in the
    background (their log is in mem's cache folder). Exits 1 while problems remain.

    \b
    Example:
        mem doctor
        mem doctor --fix
    """
    from memcli.service.doctor import examine

    checkup = examine(open_memory(store_dir, project), fix=fix)
    if checkup.semantic:
        click.echo(checkup.semantic)
    for line in checkup.fixed:
        click.echo(f"fixed: {line}")
    for line in checkup.problems:
        click.echo(f"problem: {line}")
    for line in checkup.warnings:
        click.echo(f"warning: {line}")
    if checkup.problems:
        raise ProblemsReported()
    click.echo("The store is healthy.")
