"""Bad input: a one-line error, exit 1 or 2, no traceback, and the store untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import git, mem


def store_state(root: Path) -> tuple[str, dict[str, bytes]]:
    files = {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts and ".cache" not in p.parts
    }
    return git(root, "rev-parse", "HEAD"), files


BAD_INPUTS = [
    # (arguments, stdin, exit code, text the error must contain)
    (["save", "x", "--type", "rumour"], None, 2, "'rumour' is not one of 'preference'"),
    (
        ["save", "--json"],
        '{"text": "x", "type": "rumour"}',
        1,
        "unknown type 'rumour': use one of preference, decision, discovery",
    ),
    (["save", ""], None, 1, "nothing to save"),
    (["save"], "", 1, "nothing to save"),
    (["save"], "   \n\n", 1, "nothing to save"),
    (["save", "<private>only a secret</private>"], None, 1, "nothing to save"),
    (["save", "x", "--title", "   "], None, 1, "title is empty"),
    (["save"], b"caf\xe9 latin-1 bytes", 1, "stdin is not valid UTF-8"),
    (["save", "x", "--key", "../x"], None, 1, "invalid key '../x'"),
    (["save", "x", "--key", "a/b"], None, 1, "invalid key 'a/b'"),
    (["save", "x", "--file", "/etc/passwd"], None, 1, "absolute paths are not allowed"),
    (["save", "x", "--file", "C:\\Windows\\x"], None, 1, "invalid file path"),
    (["save", "x", "--file", "src/../../x"], None, 1, "'..' would leave the project"),
    (["save", "x", "--importance", "2"], None, 2, "is not in the range 0<=x<=1"),
    (["save", "--json"], "{not json", 1, "not valid JSON"),
    (["save", "--json"], "[1, 2]", 1, "must be one JSON object"),
    (["save", "--json"], '{"text": "x", "facts": 3}', 1, "'facts' in the JSON payload"),
    (["save", "--json"], '{"text": "x", "colour": "red"}', 1, "unknown field"),
    (["save", "--json"], '{"text": "x", "importance": "high"}', 1, "importance must be"),
    (["show", "01JZZZZZZZ"], None, 1, "no memory has the id or key '01JZZZZZZZ'"),
    (["show", "no-such-key"], None, 1, "no memory has the key 'no-such-key'"),
    (["show", "01JD"], None, 1, "matches several memories"),
    (["show", "01J"], None, 1, "an id prefix needs at least 4 characters"),
    (["show", "../../etc/passwd"], None, 1, "is not a memory id or key"),
    (["show", "x\x00y"], None, 1, "is not a memory id or key"),
    (["forget", "../x"], None, 1, "is not a memory id or key"),
    (["forget", "01JDZZZZZZ"], None, 1, "no memory has the id or key"),
    (["timeline", "nothing-here"], None, 1, "no memory has the key"),
    (["search", "x", "--since", "yesterdayish"], None, 2, "cannot read 'yesterdayish' as a time"),
    (["list", "--until", "2026-13-45"], None, 2, "cannot read '2026-13-45' as a time"),
    (["search", "   "], None, 2, "the query is empty"),
    (["search", "x", "--limit", "0"], None, 2, "0 is not in the range"),
    (["search", "a OR", "--raw"], None, 1, "invalid FTS5 query 'a OR'"),
    (["search", "nosuchcolumn:x", "--raw"], None, 1, "drop --raw"),
    (["reindex", "--full", "--check"], None, 2, "give one"),
    (["init", "--local", "--store", "x"], None, 2, "give one"),
    (["search", "x", "--project", "../../etc"], None, 1, "invalid project name"),
]


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    BAD_INPUTS,
    ids=[f"{i}-{' '.join(row[0])[:40]}" for i, row in enumerate(BAD_INPUTS)],
)
def test_bad_input_is_refused_cleanly(
    indexed_fixture_store: Path, args: list[str], stdin: str | bytes | None, code: int, message: str
) -> None:
    before = store_state(indexed_fixture_store)
    result = mem(*args, input=stdin, expect=None)
    assert result.exit_code == code, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0], result.stderr
    assert "Traceback" not in result.output
    assert store_state(indexed_fixture_store) == before
