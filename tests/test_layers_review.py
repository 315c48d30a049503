"""Layers: what a review found (a project with no store yet beside a user layer, and more)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import git, mem, mem_json


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git project with no store yet; the user layer holds one memory."""
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q")
    monkeypatch.chdir(root)
    mem("save", "I use pnpm, never npm", "--type", "preference", "--key", "pm", "--layer", "user")
    return root


def project_store() -> Path:
    return Path(os.environ["MEM_HOME"]) / "fresh"


def test_restore_and_log_find_a_user_memory_where_the_project_has_no_store(
    fresh: Path,
) -> None:
    mem("forget", "pm")
    assert "pm" in mem("log", "pm").output
    restored = mem("restore", "pm")
    assert "I use pnpm" in restored.output
    assert [h["layer"] for h in mem_json("show", "pm")] == ["user"]
    assert not project_store().exists()


@pytest.mark.parametrize(
    "command",
    [("log",), ("diff",), ("reindex",), ("export",), ("hooks", "status"), ("hooks", "install")],
)
def test_a_command_on_the_found_store_says_it_does_not_exist_yet(
    fresh: Path, command: tuple[str, ...]
) -> None:
    refused = mem(*command, expect=1)
    assert "no memory store for project 'fresh'" in refused.output
    assert not project_store().exists()  # nothing half made


def test_a_store_named_directly_that_is_the_user_s_is_the_user_layer(fresh: Path) -> None:
    user = str(Path(os.environ["MEM_HOME"]) / "_user")
    assert [h["layer"] for h in mem_json("list", "--store", user)] == ["user"]
    assert "(user) I use pnpm" in mem("list", "--store", user).output
    mem("save", "Answer briefly", "--store", user, "--layer", "user")
    assert [h["layer"] for h in mem_json("list", "--layer", "user")] == ["user", "user"]


def test_a_new_project_s_context_is_headed_with_its_own_name(fresh: Path) -> None:
    context = mem("context").output
    assert context.startswith("# Memory of fresh") and "I use pnpm" in context


def test_doctor_checks_every_layer_s_files(fresh: Path) -> None:
    mem("save", "The build runs on Node 22", "--type", "decision")
    mem("init", "--layer", "team")
    bad = "---\nid: nonsense\n---\nno fields\n"
    user_file = Path(os.environ["MEM_HOME"]) / "_user" / "observations" / "bad.md"
    user_file.write_text(bad, encoding="utf-8")
    team_file = fresh / ".mem-team" / "observations" / "bad.md"
    team_file.write_text(bad, encoding="utf-8")
    report = mem_json_doctor()
    problems = [line for line in report["problems"] if "invalid file" in line]
    assert len(problems) == 2
    assert any(line.startswith("user layer: ") for line in problems)
    assert any(line.startswith("team layer: ") for line in problems)


def mem_json_doctor() -> dict[str, list[str]]:
    """``mem doctor --json`` when it reports problems (exit 1)."""
    result: dict[str, list[str]] = json.loads(mem("doctor", "--json", expect=1).stdout)
    return result


def test_init_layer_user_makes_the_user_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q")
    monkeypatch.chdir(root)
    user = Path(os.environ["MEM_HOME"]) / "_user"
    made = mem_json("init", "--layer", "user")
    assert made["store"] == str(user) and made["created"]
    assert (user / ".git").is_dir()
    assert not (Path(os.environ["MEM_HOME"]) / "proj").exists()
    assert "--layer user" in mem("init", "--layer", "user", "--local", expect=2).output


def test_a_store_named_directly_that_does_not_exist_is_an_error(
    fresh: Path, tmp_path: Path
) -> None:
    missing = str(tmp_path / "no-such-store")
    for command in (("list",), ("search", "pnpm"), ("show", "pm")):
        refused = mem(*command, "--store", missing, expect=1)
        assert f"no memory store at {missing}" in refused.output
    assert not Path(missing).exists()


def test_short_ids_of_one_layer_s_listing_are_unique_in_every_layer(fresh: Path) -> None:
    mem("save", "The build runs on Node 22", "--type", "decision")
    identity = mem_json("list", "--layer", "project")[0]["id"]
    # A user memory whose id shares all but the last characters with the project's.
    twin = identity[:-1] + ("0" if identity[-1] != "0" else "1")
    user = Path(os.environ["MEM_HOME"]) / "_user"
    (user / "observations" / "twin.md").write_text(
        f"---\nid: {twin}\ntype: discovery\ntitle: Twin\ncreated: 2026-01-01T00:00:00Z\n---\n"
        "Twin.\n",
        encoding="utf-8",
    )
    git(user, "add", "-A")
    git(user, "commit", "-q", "-m", "twin")
    short = mem_json("list", "--layer", "project")[0]["short_id"]
    assert mem_json("show", short)[0]["id"] == identity
