"""Layers: the team layer takes only the writes asked of it, and a memory in two layers is
shown twice and never written by a guess.

Each test builds a project repository whose ``.mem-team/`` holds a memory a teammate
committed, as a fresh clone would have it.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path

import pytest

import memcli
from tests.conftest import git, git_project, mem, mem_json
from tests.test_mcp import start_client

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


# --------------------------------------------------------------- key routing

PRIVATE = "My personal editor is neovim; my home server is 10.0.0.5"


def test_a_key_held_only_by_the_team_is_a_new_memory_in_the_project(project: Path) -> None:
    team = mem_json("show", "editor")[0]
    before = (project / TEAM / team["path"]).read_text()
    saved = mem("save", PRIVATE, "--key", "editor")
    assert "team layer holds the key 'editor' too" in saved.stderr
    assert staged(project) == [] and git(project, "status", "--porcelain") == ""
    assert (project / TEAM / team["path"]).read_text() == before
    shown = mem_json("show", "editor")[0]
    assert (shown["layer"], shown["narrative"]) == ("project", PRIVATE)
    again = mem_json("save", PRIVATE + ", and my shell is fish", "--key", "editor")
    assert (again["action"], again["layer"]) == ("updated", "project")
    assert again["key_held_by_team"] == team["id"]


def test_the_api_answer_says_the_team_holds_the_key(project: Path) -> None:
    team_id = mem_json("show", "editor")[0]["id"]
    with memcli.open_store(cwd=project, create=True) as store:
        saved = store.save(PRIVATE, key="editor")
    assert (saved["layer"], saved["action"]) == ("project", "saved")
    assert saved["key_held_by_team"] == team_id
    assert staged(project) == []


def test_a_key_the_user_and_the_team_hold_updates_the_user_s(project: Path) -> None:
    mine = mem_json("save", "I use vim", "--key", "editor", "--layer", "user")
    updated = mem_json("save", PRIVATE, "--key", "editor")
    assert (updated["id"], updated["layer"], updated["action"]) == (mine["id"], "user", "updated")
    assert "key_held_by_team" in updated
    assert staged(project) == []


def test_layer_team_updates_the_team_s_memory_and_stages_it(project: Path) -> None:
    team_id = mem_json("show", "editor")[0]["id"]
    updated = mem_json(
        "save", "The team's editor config is .editorconfig", "--key", "editor", "--layer", "team"
    )
    assert (updated["id"], updated["layer"], updated["action"]) == (team_id, "team", "updated")
    assert "key_held_by_team" not in updated
    assert len(staged(project)) == 1


def test_a_team_store_named_directly_updates_its_own_key(project: Path) -> None:
    mem("save", "I use vim", "--key", "editor", "--layer", "user")
    updated = mem_json("save", "The team uses helix now", "--key", "editor", "--store", TEAM)
    assert (updated["layer"], updated["action"]) == ("team", "updated")


@pytest.mark.e2e
def test_an_mcp_save_hears_that_the_team_holds_the_key(project: Path, tmp_path: Path) -> None:
    team_id = mem_json("show", "editor")[0]["id"]
    with ExitStack() as stack:
        client = start_client(stack, [], tmp_path, cwd=project, roots=[project], env={**os.environ})
        saved = client.ok("save", text=PRIVATE, key="editor")
    assert (saved["layer"], saved["key_held_by_team"]) == ("project", team_id)
    assert staged(project) == []


# ------------------------------------------------------------------ duplicates


def test_a_save_in_a_layer_named_looks_for_its_duplicate_in_that_layer_only(
    project: Path,
) -> None:
    team = mem_json("save", "Deploys freeze on Fridays", "--type", "decision", "--layer", "team")
    mine = mem_json("save", "Deploys freeze on Fridays", "--type", "decision", "--layer", "user")
    assert (mine["action"], mine["layer"]) == ("saved", "user")
    assert mine["id"] != team["id"]
    again = mem_json("save", "deploys freeze on fridays!", "--type", "decision", "--layer", "user")
    assert (again["action"], again["duplicate_of"]) == ("duplicate", mine["id"])
    git(project, "stash", "-u")  # the team's copy was only staged
    hits = [(h["id"], h["layer"]) for h in mem_json("search", "deploys freeze fridays")]
    assert hits[0] == (mine["id"], "user") and team["id"] not in dict(hits)


def test_the_api_saves_in_the_layer_named_beside_another_layer_s_twin(project: Path) -> None:
    mem("save", "Every migration is reviewed by two people", "--layer", "team")
    with memcli.open_store(cwd=project, create=True) as store:
        saved = store.save("Every migration is reviewed by two people", layer="project")
        assert (saved["action"], saved["layer"]) == ("saved", "project")
        again = store.save("Every migration is reviewed by two people")  # no layer named
        assert (again["action"], again["layer"]) == ("duplicate", "project")


# ----------------------------------------------------------- an id in two layers


def twin(project: Path) -> str:
    """A user memory, and a team file committed with the same id (and other text); the id."""
    mine = mem_json(
        "save", "I like tabs in my own scratch code", "--type", "preference", "--layer", "user"
    )
    text = (Path(os.environ["MEM_HOME"]) / "_user" / mine["path"]).read_text()
    theirs = text.replace(
        "I like tabs in my own scratch code", "The team indents with spaces, no tabs"
    )
    (project / TEAM / "observations" / "twin.md").write_text(theirs)
    git(project, "add", TEAM)
    git(project, "commit", "-q", "-m", "a team memory with the same id")
    return str(mine["id"])


def test_reads_show_both_memories_of_an_id_two_layers_hold(project: Path) -> None:
    identity = twin(project)
    context = mem("context").output
    assert context.count("I like tabs in my own scratch code") == 1
    assert context.count("The team indents with spaces, no tabs") == 1  # each with its own text
    shown = mem_json("show", identity)
    assert sorted((r["layer"], r["title"]) for r in shown) == [
        ("team", "The team indents with spaces, no tabs"),
        ("user", "I like tabs in my own scratch code"),
    ]
    found = mem_json("search", "tabs", "--mode", "lexical")
    assert sorted(h["layer"] for h in found if h["id"] == identity) == ["team", "user"]
    around = mem_json("timeline", identity)
    assert [h["id"] for h in around if h["anchor"]] == [identity]
    mem("save", "The shop's checkout uses Stripe")  # the project's store, made
    listed = [(h["layer"], h["id"]) for h in mem_json("list")]
    assert ("user", identity) in listed and ("team", identity) in listed
    assert "I like tabs" in mem("context").output


def test_a_write_by_an_id_two_layers_hold_names_the_layer_to_choose(project: Path) -> None:
    identity = twin(project)
    user_file = Path(os.environ["MEM_HOME"]) / "_user" / mem_json("show", identity)[0]["path"]
    for command in (
        ("forget", identity),
        ("edit", identity, "--set", "importance=0.9"),
        ("promote", identity, "--to", "project"),
    ):
        refused = mem(*command, expect=1)
        assert "--layer" in refused.output and len(refused.output.strip().splitlines()) == 1
    assert user_file.exists() and (project / TEAM / "observations" / "twin.md").exists()
    with memcli.open_store(cwd=project) as store, pytest.raises(memcli.MemError):
        store.forget(identity)
    mem("edit", "--layer", "team", identity, "--set", "importance=0.9")
    assert staged(project) == [f"{TEAM}/observations/twin.md"]
    assert [f["layer"] for f in mem_json("forget", "--layer", "user", identity)] == ["user"]
    assert not user_file.exists()
    assert [r["layer"] for r in mem_json("show", identity)] == ["team"]


def test_promote_layer_moves_that_layer_s_copy_of_an_id_two_layers_hold(project: Path) -> None:
    identity = twin(project)
    moved = mem_json("promote", "--layer", "user", identity, "--to", "project")
    assert (moved["from"], moved["layer"]) == ("user", "project")
    assert sorted(r["layer"] for r in mem_json("show", identity)) == ["project", "team"]
