"""The code stays ruff-clean, formatted, and type-checked (mypy strict on memcli/)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import REPO_ROOT


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "memcli", "tests", "bench"],
        ["ruff", "format", "--check", "memcli", "tests", "bench"],
        ["mypy"],
    ],
    ids=["ruff", "ruff-format", "mypy"],
)
def test_code_quality(command: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=REPO_ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ci_runs_the_readme_test_command() -> None:
    readme = (REPO_ROOT / "README.md").read_text().splitlines()
    commands = readme[readme.index("```sh") + 1 : readme.index("```sh") + 3]
    ci = (REPO_ROOT / ".ci" / "run").read_text().splitlines()
    assert len(commands) == 2 and commands[1] in ci
    assert "pytest" in commands[1] and "demo.sh" in commands[0]
