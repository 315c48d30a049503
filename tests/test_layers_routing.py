"""Layers: the team layer takes only the writes asked of it, and a memory in two layers is
shown twice and never written by a guess.

Each test builds a project repository whose ``.mem-team/`` holds a memory a teammate
committed, as a fresh clone would have it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import git, git_project, mem, mem_json

TEAM = ".mem-team"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project (the current directory) whose committed team folder holds the key 'editor';
    the project has no store of its own yet."""
    root = tmp_path / "shop"
    git_project(root, {"src/app.py": "print('hi')\n"})
    monkeypatch.chdir(root)
    mem("init", "--layer", "team")
    mem(
        "save",
        "The team's editor config lives in .editorconfig",
        "--key",
        "editor",
        "--layer",
        "team",
    )
    git(root, "commit", "-q", "-m", "the team's editor memory")
    return root


def project_store() -> Path:
    return Path(os.environ["MEM_HOME"]) / "shop"


def staged(project: Path) -> list[str]:
    return git(project, "diff", "--cached", "--name-only").split()


# ------------------------------------------------------------------ history


def test_log_of_a_team_memory_in_a_project_without_a_store(project: Path) -> None:
    assert "the team's editor memory" in mem("log", "editor").output
    assert [entry["title"] for entry in mem_json("log", "editor")] == ["the team's editor memory"]
    assert not project_store().exists()  # a read makes no store, nor its cache
