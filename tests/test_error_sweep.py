"""Every command, given bad arguments: one error line, exit 1 or 2, no traceback.

The cases are generated from the commands themselves, so a new command or a
new typed option is swept without anyone remembering to add it here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from memcli.adapters.cli.main import cli

from .conftest import git, mem, run_mem

NUMERIC_OR_CHOICE = (click.Choice, click.IntRange, click.FloatRange)
UNKNOWN_ID = "01JZZZZZZZZZZZZZZZZZZZZZZZ"


def commands(
    group: click.Group = cli, path: tuple[str, ...] = ()
) -> Iterator[tuple[list[str], click.Command]]:
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        else:
            yield [*path, name], command


def bad_calls() -> Iterator[list[str]]:
    yield ["no-such-command"]
    for path, command in commands():
        arguments = [p for p in command.params if isinstance(p, click.Argument)]
        filled = ["x" for argument in arguments if argument.required]
        yield [*path, "--no-such-option"]
        if filled:
            yield path  # a required argument missing
        if all(argument.nargs != -1 for argument in arguments):
            yield [*path, *filled, "extra-1", "extra-2", "extra-3"]
        for option in command.params:
            if not isinstance(option, click.Option):
                continue
            if isinstance(option.type, NUMERIC_OR_CHOICE) or option.name in ("since", "until"):
                yield [*path, *filled, option.opts[0], "not-a-value"]
    for path in (["show"], ["forget"], ["timeline"], ["edit"], ["restore"], ["log"]):
        yield [*path, UNKNOWN_ID]
    yield ["forget", "--purge", UNKNOWN_ID]
    yield ["diff", "no-such-revision"]
    yield ["git-hook", "no-such-hook"]
    yield ["clone", "/nonexistent/remote.git", "--store", "."]
    yield ["remote", "add", "/elsewhere", "--name", "bad name with spaces"]
    yield ["sync", "--continue"]
    yield ["sync"]  # no remote


CALLS = list(bad_calls())


@pytest.fixture(autouse=True)
def no_editor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDITOR", "false")  # never wait for one


def assert_one_error_line(stderr: str, output: str) -> None:
    errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and len(errors[0]) > len("Error: "), stderr
    assert "Traceback" not in output and "internal error" not in output


@pytest.mark.parametrize("args", CALLS, ids=[" ".join(args)[:60] for args in CALLS])
def test_bad_arguments_give_one_error_line(indexed_fixture_store: Path, args: list[str]) -> None:
    head = git(indexed_fixture_store, "rev-parse", "HEAD")
    result = mem(*args, input="", expect=None)  # an exception here would fail the test
    assert result.exit_code in (1, 2), (result.exit_code, result.output)
    assert_one_error_line(result.stderr, result.output)
    assert git(indexed_fixture_store, "rev-parse", "HEAD") == head


def test_the_sweep_covers_every_command() -> None:
    swept = {tuple(args[: len(path)]) for args in CALLS for path, _ in commands()}
    assert all(tuple(path) in swept for path, _ in commands())
    assert len(CALLS) > 80


@pytest.mark.e2e
def test_runtime_errors_through_the_installed_command(indexed_fixture_store: Path) -> None:
    """The real entry point too (its last-resort guard is not in the in-process runner)."""
    for args in (["show", UNKNOWN_ID], ["search", "x", "--limit", "0"], ["no-such-command"]):
        result = run_mem(*args, env={"MEM_STORE": str(indexed_fixture_store)})
        assert result.returncode in (1, 2)
        assert_one_error_line(result.stderr, result.stderr + result.stdout)
