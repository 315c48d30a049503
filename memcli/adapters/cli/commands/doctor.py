from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.options import json_option, open_memory, store_options
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import ProblemsReported

if TYPE_CHECKING:
    from memcli.service.doctor import Checkup
    from memcli.service.layers import LayeredMemory
    from memcli.service.settings_report import SettingsReport


@click.command()
@click.option("--fix", is_flag=True, help="Repair what is safe to repair, and say what was done.")
@json_option
@store_options
def doctor(fix: bool, as_json: bool, store_dir: str | None, project: str | None) -> None:
    """Check the store: invalid or duplicate memories, index drift, locks, uncommitted files.

    Also reports recent failures of hooks and of the work they start in the
    background (their log is in mem's cache folder), and whether `mem mcp`, where an
    agent's settings register it, can start (the MCP extra is installed), and
    whether the plain `mem` a project's settings run is this one. Exits 1 while
    problems remain.

    \b
    Example:
        mem doctor
        mem doctor --fix
        mem doctor --json
    """
    memory = open_memory(store_dir, project)
    checkup = _examine_layers(memory, fix)
    shared_ids, shared_keys = memory.shared_across_layers()
    settings = _settings(memory)
    problems = [
        *checkup.problems,
        *shared_ids,
        *settings.problems,
        *_mcp_problems(),
        *_agent_command_problems(),
    ]
    checkup.warnings += [*shared_keys, *settings.ignored]
    if as_json:
        echo_json(
            {
                "healthy": not problems,
                "problems": problems,
                "warnings": checkup.warnings,
                "fixed": checkup.fixed,
                "semantic": checkup.semantic or None,
            }
        )
        if problems:
            raise ProblemsReported()
        return
    if checkup.semantic:
        click.echo(checkup.semantic)
    for line in checkup.fixed:
        click.echo(f"fixed: {line}")
    for line in problems:
        click.echo(f"problem: {line}")
    for line in checkup.warnings:
        click.echo(f"warning: {line}")
    if problems:
        raise ProblemsReported()
    click.echo("The store is healthy.")


def _examine_layers(memory: LayeredMemory, fix: bool) -> Checkup:
    """Every present layer's store examined; a line of another layer than the home names it."""
    from memcli.service.doctor import Checkup, examine

    present = memory.layers.present()
    if not present:
        return examine(memory, fix=fix)  # no store anywhere: the found one's problem
    home = memory.layers.home
    checkup = Checkup()
    for name in sorted(present, key=lambda layer: layer != home):
        found = examine(memory.layers.memory(name), fix=fix)
        mark = "" if name == home else f"{name} layer: "
        checkup.problems += [mark + line for line in found.problems]
        checkup.fixed += [mark + line for line in found.fixed]
        checkup.warnings += [mark + line for line in found.warnings]
        checkup.semantic = checkup.semantic or found.semantic
    return checkup


def _settings(memory: LayeredMemory) -> SettingsReport:
    """Settings not taken from the present layers' files (and the user's own)."""
    from memcli.service.settings_report import settings_report

    roots = [memory.layers.memory(name).store.root for name in memory.layers.present()]
    return settings_report(roots, Path.cwd())


def _agent_command_problems() -> list[str]:
    """A project's hooks or server run plain ``mem``, which is not this one here; hooks
    without the pre-tool hook, which enforces guards."""
    from memcli.adapters.agents.registrations import guard_hook_problems, plain_mem_problems, setups

    found = setups(Path.cwd())
    return [*plain_mem_problems(found), *guard_hook_problems(found)]


def _mcp_problems() -> list[str]:
    """A registered ``mem mcp`` that could not start here (the MCP extra is missing)."""
    from memcli.adapters.agents.registrations import server_registrations

    places = server_registrations(Path.cwd())
    if not places:
        return []
    from memcli.adapters.mcp.sdk import INSTALL_EXTRA, cannot_start_reason

    reason = cannot_start_reason()
    if reason is None:
        return []
    where = ", ".join(map(str, places))
    return [
        f"mem's MCP server is registered in {where} but cannot start: {reason}; {INSTALL_EXTRA}"
    ]
