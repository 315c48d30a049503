"""The conventions of CONTRIBUTING.md, checked against every command."""

from __future__ import annotations

import click
import pytest

from .conftest import cli_commands

NO_JSON = {
    ("hook", "claude"),
    ("hook", "codex"),
    ("hook", "gemini"),
    ("git-hook",),
    ("mcp",),
    ("serve",),
    ("export",),
    ("edit",),
    ("install", "claude"),
    ("install", "codex"),
    ("install", "gemini"),
    ("uninstall", "claude"),
    ("uninstall", "codex"),
    ("uninstall", "gemini"),
    ("hooks", "install"),
    ("hooks", "uninstall"),
}
"""Output already for programs, an editor, or a diff of files outside the store."""

COMMANDS = [
    (path, command) for path, command in cli_commands() if not isinstance(command, click.Group)
]
IDS = [" ".join(path) for path, _ in COMMANDS]


def options(command: click.Command) -> dict[str, click.Option]:
    return {
        name: param
        for param in command.params
        if isinstance(param, click.Option)
        for name in param.opts
    }


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_json_wherever_a_command_reports(path: list[str], command: click.Command) -> None:
    found = options(command).get("--json")
    if tuple(path) in NO_JSON:
        return
    assert found is not None and found.is_flag and not found.hidden


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=IDS)
def test_one_name_for_one_thing(path: list[str], command: click.Command) -> None:
    named = options(command)
    for name in ("--store", "--project"):
        option = named.get(name)
        if option is not None and not option.hidden:
            assert not option.is_flag, f"{name} names a store: it takes a value"
    if "--format" in named and path[0] in ("context", "recall"):
        assert named["--format"].hidden, "--format json is a hidden alias of --json"
    for flag, short in (("--yes", "-y"),):
        if flag in named:
            assert short in named[flag].opts
