"""Guards' globs: what a shell command or a path matches, bounded whatever the input."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memcli.core.errors import InvalidInput
from memcli.core.guards import (
    Guard,
    from_frontmatter,
    glob_match,
    matches,
    parse_spec,
    path_match,
    shell_parts,
)


def reference(glob: str, text: str) -> bool:
    pattern = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in glob)
    return re.fullmatch(pattern, text, re.DOTALL) is not None


@settings(max_examples=300)
@given(st.text("ab*?", max_size=8), st.text("ab", max_size=10))
@example("*a???*?", "baaaa")  # a middle piece found by its anchor ran past the last piece
def test_glob_match_agrees_with_a_regular_expression(glob: str, text: str) -> None:
    assert glob_match(glob, text) == reference(glob, text)


@pytest.mark.parametrize(
    ("glob", "command", "fires"),
    [
        ("npm install*", "npm install", True),
        ("npm install*", "npm install left-pad", True),
        ("npm install*", "pnpm install", False),
        ("npm *", "cd web && npm ci", True),
        ("npm *", "NODE_ENV=production   npm run build", True),
        ("git push*--force*", "git push origin main --force", True),
        ("git push*--force*", "git push origin main", False),
        ("npm *", "echo npm is great", False),
        ("cat *.env", "ls; cat prod.env | grep KEY", True),
    ],
)
def test_a_shell_guard_matches_the_command_or_one_of_its_parts(
    glob: str, command: str, fires: bool
) -> None:
    assert matches(Guard("Bash", glob, "deny"), "Bash", command) is fires


@pytest.mark.parametrize(
    ("glob", "path", "fires"),
    [
        (".env", ".env", True),
        (".env", "services/api/.env", True),
        (".env", "/home/me/other/.env", True),
        ("**/.env", "config/.env", True),
        ("**/.env", ".env", True),
        (".env", ".env.example", False),
        ("migrations/**", "migrations/0001_initial.py", True),
        ("migrations/**", "app/migrations/0001.py", False),
        ("**/migrations/*.py", "app/migrations/0001.py", True),
        ("src/*.py", "src/pkg/mod.py", False),
        ("/etc/**", "/etc/passwd", True),
        ("/etc/**", "etc/passwd", False),
    ],
)
def test_a_path_guard_matches_by_component(glob: str, path: str, fires: bool) -> None:
    assert path_match(glob, path) is fires


def test_an_absolute_path_inside_the_project_is_matched_relative_to_it() -> None:
    guard = Guard("Edit", "migrations/**", "ask")
    assert matches(guard, "Edit", "/work/app/migrations/0002.py", cwd="/work/app")
    assert not matches(guard, "Edit", "/work/other/migrations/0002.py", cwd="/work/app")
    assert not matches(guard, "Write", "/work/app/migrations/0002.py", cwd="/work/app")


@pytest.mark.parametrize(
    "spec",
    ["npm install", "Shell:npm *", "Bash:", "Bash:**", "Bash:" + "a" * 300, "Bash:" + "*a" * 20],
)
def test_a_malformed_guard_is_refused(spec: str) -> None:
    with pytest.raises(InvalidInput):
        parse_spec(spec)


def test_an_unknown_action_is_refused() -> None:
    with pytest.raises(InvalidInput):
        parse_spec("Bash:npm *", "block")


@pytest.mark.parametrize(
    "value",
    ["Bash:npm *", [{"tool": "Bash"}], [{"tool": "Bash", "glob": "npm *", "when": "x"}], [3]],
)
def test_a_malformed_frontmatter_value_is_refused(value: object) -> None:
    with pytest.raises(InvalidInput):
        from_frontmatter(value)


def test_frontmatter_round_trip() -> None:
    guards = (Guard("Bash", "npm *", "deny"), Guard("Read", "**/.env", "ask"))
    assert from_frontmatter([g.to_frontmatter() for g in guards]) == guards
    assert from_frontmatter(["Bash:npm *"]) == (Guard("Bash", "npm *", "ask"),)


def test_the_worst_glob_on_the_longest_input_is_quick() -> None:
    glob = "*a" * 7 + "?" * 2 + "*b"
    command = ("a" * 4000 + ";") * 4
    started = time.process_time()
    for _ in range(10):
        matches(Guard("Bash", glob), "Bash", command)
        path_match("**/" + glob, "/".join(["a" * 60] * 80))
    # About 1 ms a call here; a glob matcher that backtracked would take hours.
    assert time.process_time() - started < 10.0


def test_shell_parts_are_normalized() -> None:
    assert shell_parts("A=1 B=2  npm   test && git push") == [
        "A=1 B=2 npm test && git push",
        "npm test",
        "git push",
    ]
