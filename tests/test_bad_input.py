"""Bad input, one table: one error line, the right exit code, no traceback, the store untouched.

Most rows are written by hand. The rest are generated from the commands
themselves, so a new command or a new typed option is swept without anyone
remembering to add it here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import click
import pytest

from .conftest import cli_commands, git, mem, run_mem

UNKNOWN_ID = "01JZZZZZZZZZZZZZZZZZZZZZZZ"
NUMERIC_OR_CHOICE = (click.Choice, click.IntRange, click.FloatRange)
USAGE, FAILURE = 2, 1  # click's exit code for a bad command line; mem's for a refused request


class Refusal(NamedTuple):
    """A command line (and stdin) that mem refuses, and how."""

    args: list[str]
    stdin: str | bytes | None
    code: int
    message: str  # text the one error line must contain

    @property
    def id(self) -> str:
        given = " ".join(self.args)
        return given if self.stdin is None else f"{given} <<< {self.stdin!r}"


WRITTEN = [
    Refusal(["save", "x", "--type", "rumour"], None, USAGE, "rumour"),
    Refusal(
        ["save", "--input", "json"],
        '{"text": "x", "type": "rumour"}',
        FAILURE,
        "unknown type 'rumour': use one of preference, decision, discovery",
    ),
    Refusal(["save", ""], None, FAILURE, "nothing to save"),
    Refusal(["save"], "", FAILURE, "nothing to save"),
    Refusal(["save"], "   \n\n", FAILURE, "nothing to save"),
    Refusal(["save", "<private>only a secret</private>"], None, FAILURE, "nothing to save"),
    Refusal(["save", "x", "--title", "   "], None, FAILURE, "title is empty"),
    Refusal(["save"], b"caf\xe9 latin-1 bytes", FAILURE, "stdin is not valid UTF-8"),
    Refusal(["save"], b"\xff\xfe bad", FAILURE, "stdin is not valid UTF-8"),
    Refusal(["save", "--input", "json"], '{"text": "a\\u0000b"}', FAILURE, "NUL byte"),
    Refusal(["save", "x", "--key", "../x"], None, FAILURE, "invalid key '../x'"),
    Refusal(["save", "x", "--key", "a/b"], None, FAILURE, "invalid key 'a/b'"),
    Refusal(
        ["save", "x", "--file", "/etc/passwd"], None, FAILURE, "absolute paths are not allowed"
    ),
    Refusal(["save", "x", "--file", "/etc/x"], None, FAILURE, "absolute paths are not allowed"),
    Refusal(["save", "x", "--file", "C:\\Windows\\x"], None, FAILURE, "invalid file path"),
    Refusal(["save", "x", "--file", "C:\\x"], None, FAILURE, "invalid file path"),
    Refusal(["save", "x", "--file", "src/../../x"], None, FAILURE, "'..' would leave the project"),
    Refusal(["save", "x", "--file", "a/../../x"], None, FAILURE, "'..' would leave the project"),
    Refusal(["save", "x", "--importance", "2"], None, USAGE, "is not in the range 0<=x<=1"),
    Refusal(["save", "--input", "json"], "{not json", FAILURE, "not valid JSON"),
    Refusal(["save", "--input", "json"], "[1, 2]", FAILURE, "must be one JSON object"),
    Refusal(
        ["save", "--input", "json"],
        '{"text": "x", "facts": 3}',
        FAILURE,
        "'facts' in the JSON payload",
    ),
    Refusal(
        ["save", "--input", "json"], '{"text": "x", "colour": "red"}', FAILURE, "unknown field"
    ),
    Refusal(
        ["save", "--input", "json"],
        '{"text": "x", "importance": "high"}',
        FAILURE,
        "importance must be",
    ),
    Refusal(["show", "01JZZZZZZZ"], None, FAILURE, "no memory has the id or key '01JZZZZZZZ'"),
    Refusal(["show", "no-such-key"], None, FAILURE, "no memory has the key 'no-such-key'"),
    Refusal(["show", "01JD"], None, FAILURE, "matches several memories"),
    Refusal(["show", "01J"], None, FAILURE, "an id prefix needs at least 4 characters"),
    Refusal(["show", "../../etc/passwd"], None, FAILURE, "is not a memory id or key"),
    Refusal(["show", "/etc/passwd"], None, FAILURE, "is not a memory id or key"),
    Refusal(["show", "C:\\Windows"], None, FAILURE, "is not a memory id or key"),
    Refusal(["show", "x\x00y"], None, FAILURE, "is not a memory id or key"),
    Refusal(["show", "01JD\x00x"], None, FAILURE, "is not a memory id or key"),
    Refusal(["forget", "../x"], None, FAILURE, "is not a memory id or key"),
    Refusal(["forget", "01JDZZZZZZ"], None, FAILURE, "no memory has the id or key"),
    Refusal(["edit", "../x", "--set", "type=gotcha"], None, FAILURE, "is not a memory id or key"),
    Refusal(["restore", "../x"], None, FAILURE, "is not a memory id or key"),
    Refusal(["edit", "01JDF1G2", "--set", "colour=red"], None, FAILURE, "cannot set 'colour=red'"),
    Refusal(["restore", UNKNOWN_ID], None, FAILURE, "no forgotten memory with the id"),
    Refusal(["timeline", "nothing-here"], None, FAILURE, "no memory has the key"),
    Refusal(["search", "x", "--since", "yesterdayish"], None, USAGE, "cannot read 'yesterdayish'"),
    Refusal(["list", "--until", "2026-13-45"], None, USAGE, "cannot read '2026-13-45' as a time"),
    Refusal(["search", "   "], None, USAGE, "the query is empty"),
    Refusal(["search", "x", "--limit", "0"], None, USAGE, "0 is not in the range"),
    Refusal(["search", "a OR", "--raw"], None, FAILURE, "invalid FTS5 query 'a OR'"),
    Refusal(["search", "nosuchcolumn:x", "--raw"], None, FAILURE, "drop --raw"),
    Refusal(["reindex", "--full", "--check"], None, USAGE, "give one"),
    Refusal(["init", "--local", "--store", "x"], None, USAGE, "give one"),
    Refusal(["search", "x", "--project", "../../etc"], None, FAILURE, "invalid project name"),
    Refusal(["list", "--project", "../x"], None, FAILURE, "invalid project name"),
    Refusal(["list", "--project", "/tmp/x"], None, FAILURE, "invalid project name"),
    Refusal(["list", "--project", "C:x"], None, FAILURE, "invalid project name"),
    Refusal(["list", "--project", "a\x00b"], None, FAILURE, "invalid project name"),
    Refusal(["mcp", "--project", "../x"], None, FAILURE, "invalid project name"),
    Refusal(
        ["forget", "--purge", "-y", UNKNOWN_ID], None, FAILURE, "no forgotten memory with the id"
    ),
    Refusal(["diff", "no-such-revision"], None, FAILURE, "not a revision"),
    Refusal(["git-hook", "no-such-hook"], None, USAGE, "unknown git hook 'no-such-hook'"),
    Refusal(
        ["clone", "/nonexistent/remote.git", "--store", "."],
        None,
        FAILURE,
        "exists and is not empty",
    ),
    Refusal(
        ["clone", "/nonexistent/remote.git", "--store", "new-store"],
        None,
        FAILURE,
        "git clone failed",
    ),
    Refusal(
        ["remote", "add", "/elsewhere", "--name", "bad name with spaces"],
        None,
        FAILURE,
        "'bad name with spaces' is not a valid remote name",
    ),
    Refusal(["sync", "--continue"], None, FAILURE, "the store has no remote"),
    # Bytes that are not UTF-8 reach Python as lone surrogates: refused before any command.
    Refusal(["show", "\udcff\udcfe"], None, USAGE, "argument 2 (\\xff\\xfe) is not UTF-8"),
    Refusal(
        ["transcripts", "search", "x", "--session", "\udcff"],
        None,
        USAGE,
        "argument 5 (\\xff) is not UTF-8 text",
    ),
    Refusal(["save", "caf\udce9", "--json"], None, USAGE, "argument 2 (caf\\xe9) is not UTF-8"),
    Refusal(["sync"], None, FAILURE, "the store has no remote"),
    *(
        Refusal([command, UNKNOWN_ID], None, FAILURE, f"no memory has the id or key '{UNKNOWN_ID}'")
        for command in ("show", "forget", "timeline", "edit", "log")
    ),
]


def swept() -> Iterator[Refusal]:
    """Bad command lines for every command: unknown options, missing, extra and bad values."""
    # click words these errors; the rows check the part that names what was wrong.
    yield Refusal(["no-such-command"], None, USAGE, "no-such-command")
    for path, command in cli_commands():
        if isinstance(command, click.Group):
            continue
        arguments = [p for p in command.params if isinstance(p, click.Argument)]
        filled = ["x" for argument in arguments if argument.required]
        yield Refusal([*path, "--no-such-option"], None, USAGE, "--no-such-option")
        if filled:
            missing = next(a for a in arguments if a.required).human_readable_name
            yield Refusal(path, None, USAGE, missing)
        if all(argument.nargs != -1 for argument in arguments):
            extra = ["extra-1", "extra-2", "extra-3"]
            yield Refusal([*path, *filled, *extra], None, USAGE, "extra-")
        for option in command.params:
            if not isinstance(option, click.Option):
                continue
            if option.name in ("since", "until"):
                message = "cannot read 'not-a-value' as a time"
            elif isinstance(option.type, NUMERIC_OR_CHOICE):
                message = option.opts[0]
            else:
                continue
            yield Refusal([*path, *filled, option.opts[0], "not-a-value"], None, USAGE, message)


TABLE = WRITTEN + list(swept())


def store_state(root: Path) -> tuple[str, dict[str, bytes]]:
    """The commit and every file outside .git and the index."""
    files = {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts and ".cache" not in p.parts
    }
    return git(root, "rev-parse", "HEAD"), files


def assert_one_error_line(stderr: str, output: str, message: str) -> None:
    errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0], stderr
    assert "Traceback" not in output and "internal error" not in output


@pytest.mark.parametrize("case", TABLE, ids=[case.id for case in TABLE])
def test_bad_input_is_refused_cleanly(
    indexed_fixture_store: Path, monkeypatch: pytest.MonkeyPatch, case: Refusal
) -> None:
    monkeypatch.setenv("EDITOR", "false")  # never wait for one
    before = store_state(indexed_fixture_store)
    stdin = "" if case.stdin is None else case.stdin
    result = mem(*case.args, input=stdin, expect=None)  # an exception here fails the test
    assert result.exit_code == case.code, result.output
    assert_one_error_line(result.stderr, result.output, case.message)
    assert store_state(indexed_fixture_store) == before


def test_the_table_covers_every_command_once_per_case() -> None:
    ids = [case.id for case in TABLE]
    assert len(set(ids)) == len(ids), [i for i in ids if ids.count(i) > 1]
    swept_paths = {tuple(case.args[: len(path)]) for case in TABLE for path, _ in cli_commands()}
    assert [path for path, _ in cli_commands() if tuple(path) not in swept_paths] == []
    assert len(TABLE) > 130


@pytest.mark.e2e
def test_runtime_errors_through_the_installed_command(indexed_fixture_store: Path) -> None:
    """The real entry point too (its last-resort guard is not in the in-process runner)."""
    by_args = {tuple(case.args): case for case in TABLE}
    for args in (
        ["show", UNKNOWN_ID],
        ["search", "x", "--limit", "0"],
        ["no-such-command"],
        ["show", "\udcff\udcfe"],  # given to the process as the bytes ff fe
    ):
        case = by_args[tuple(args)]
        result = run_mem(*args, env={"MEM_STORE": str(indexed_fixture_store)})
        assert result.returncode == case.code
        assert_one_error_line(result.stderr, result.stderr + result.stdout, case.message)
