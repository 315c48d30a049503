"""Layers: the user's own memory, the project's and the team's, read together, written apart."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import memcli
from tests.conftest import git, mem, mem_json, run_mem


@pytest.fixture
def projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Two projects (git repositories); the current directory is the first."""
    found = []
    for name in ("shop", "blog"):
        root = tmp_path / name
        root.mkdir()
        git(root, "init", "-q")
        found.append(root)
    monkeypatch.chdir(found[0])
    return found[0], found[1]


def user_root() -> Path:
    return Path(os.environ["MEM_HOME"]) / "_user"


def test_a_user_memory_holds_in_every_project(
    projects: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    shop, blog = projects
    mem("save", "The shop's checkout uses Stripe webhooks", "--type", "decision")
    saved = mem(
        "save",
        "I use pnpm, never npm, to install packages",
        "--type",
        "preference",
        "--layer",
        "user",
    )
    assert "saved in the user layer" in saved.stderr
    assert (user_root() / ".git").is_dir()
    monkeypatch.chdir(blog)
    mem("save", "The blog is built with Hugo", "--type", "decision")
    hits = mem_json("search", "pnpm packages")
    assert (hits[0]["layer"], hits[0]["title"]) == (
        "user",
        "I use pnpm, never npm, to install packages",
    )
    listed = mem_json("list")
    assert {h["layer"] for h in listed} == {"user", "project"}
    assert all("Stripe" not in h["title"] for h in listed)  # the shop's stays in the shop
    text = mem("list").stdout
    assert "(user) I use pnpm" in text and "(project)" not in text
    context = mem("context").stdout
    assert "preference (user): I use pnpm" in context and "Hugo" in context


def test_layer_filters_a_read_and_an_unknown_layer_is_a_usage_error(
    projects: tuple[Path, Path],
) -> None:
    mem(
        "save", "Tabs are four spaces wide in every file", "--type", "preference", "--layer", "user"
    )
    mem("save", "Spaces in the shop's templates are two wide", "--type", "preference")
    assert {h["layer"] for h in mem_json("search", "spaces wide")} == {"user", "project"}
    assert [h["layer"] for h in mem_json("search", "spaces wide", "--layer", "user")] == ["user"]
    assert [h["layer"] for h in mem_json("list", "--layer", "project")] == ["project"]
    bad = mem("search", "spaces", "--layer", "company", expect=2)
    assert "--layer" in bad.output


def test_a_key_resolves_in_the_nearest_layer_and_a_save_updates_it_where_it_is(
    projects: tuple[Path, Path],
) -> None:
    mem(
        "save",
        "Answer in British English",
        "--type",
        "preference",
        "--key",
        "spelling",
        "--layer",
        "user",
    )
    # Saving the key again, with no layer named, updates the user's memory where it is.
    updated = mem("save", "Answer in British English, Oxford commas", "--key", "spelling")
    assert "updated the memory with key 'spelling' in the user layer" in updated.stderr
    assert mem_json("show", "spelling")[0]["layer"] == "user"
    # The project may hold the same key on purpose: the nearest layer answers.
    mem(
        "save",
        "This project's docs are in American English",
        "--type",
        "preference",
        "--key",
        "spelling",
        "--layer",
        "project",
    )
    shown = mem_json("show", "spelling")[0]
    assert shown["layer"] == "project" and "American" in shown["narrative"]
    assert {h["layer"] for h in mem_json("list", "--keys")} == {"user", "project"}


def test_mem_toml_chooses_a_layer_per_type(projects: tuple[Path, Path]) -> None:
    shop, _ = projects
    mem("save", "first memory of the shop", "--type", "context")
    root = Path(os.environ["MEM_HOME"]) / "shop"
    (root / "mem.toml").write_text('[layers]\npreference = "user"\n')
    saved = mem_json("save", "Never push to main directly", "--type", "preference")
    assert saved["layer"] == "user"
    assert mem_json("save", "The shop deploys on Fridays", "--type", "decision")["layer"] == (
        "project"
    )
    (root / "mem.toml").write_text('[layers]\npreference = "everyone"\n')
    said = mem("save", "x y z", "--type", "preference", "--json")  # a bad one: the default
    assert "layers.preference" in said.stderr and json.loads(said.stdout)["layer"] == "project"


def test_forget_works_in_the_memory_s_own_layer(projects: tuple[Path, Path]) -> None:
    mine = mem(
        "save", "I review diffs before committing", "--type", "preference", "--layer", "user"
    ).stdout.strip()
    ours = mem("save", "The shop's tests run with pytest -n auto").stdout.strip()
    forgotten = mem_json("forget", mine, ours)
    assert {f["layer"] for f in forgotten} == {"user", "project"}
    assert mem_json("list") == []
    log = git(user_root(), "log", "--format=%s")
    assert log.splitlines()[0].startswith("forget")


def test_session_start_keeps_the_user_s_preferences_beside_a_busy_project(
    projects: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MEM_NOW", "2024-01-05T09:00:00Z")
    mem(
        "save",
        "Always run the formatter before a commit",
        "--type",
        "preference",
        "--layer",
        "user",
    )
    monkeypatch.setenv("MEM_NOW", "2026-11-21T12:00:00Z")
    rows = [
        {
            "id": f"01JD{n:022d}",
            "type": "discovery",
            "title": f"Shop finding number {n}",
            "created": f"2026-11-{1 + n % 20:02d}T10:00:00Z",
            "narrative": f"detail {n}",
        }
        for n in range(80)
    ]
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    mem("import", "jsonl", str(data))
    context = mem("context", "--budget", "2000").stdout
    assert "preference (user): Always run the formatter" in context


def test_the_python_api_reads_every_layer_and_writes_to_the_one_asked(
    projects: tuple[Path, Path],
) -> None:
    shop, blog = projects
    with memcli.open_store(cwd=shop, create=True) as store:
        saved = store.save("I prefer small pull requests", type="preference", layer="user")
        assert saved["layer"] == "user"
        store.save("The shop's images live on the CDN", type="decision")
    with memcli.open_store(cwd=blog, create=True) as store:
        hits = store.search("small pull requests")
        assert [(h["layer"], h["title"]) for h in hits] == [
            ("user", "I prefer small pull requests")
        ]
        assert store.get(hits[0]["id"])[0]["layer"] == "user"
        assert store.search("pull requests", layer="project") == []
        with pytest.raises(memcli.InvalidInput):
            store.search("pull requests", layer="company")


def test_doctor_reports_a_key_in_two_layers(projects: tuple[Path, Path]) -> None:
    mem(
        "save",
        "Commit messages in the imperative",
        "--type",
        "preference",
        "--key",
        "commits",
        "--layer",
        "user",
    )
    mem(
        "save",
        "Commit messages start with the ticket",
        "--type",
        "preference",
        "--key",
        "commits",
        "--layer",
        "project",
    )
    report = mem_json("doctor")
    assert report["healthy"]
    assert any("'commits'" in line and "user" in line for line in report["warnings"])


def test_purge_works_in_the_memory_s_own_layer(projects: tuple[Path, Path]) -> None:
    mine = mem(
        "save",
        "My token for the staging API rotates weekly",
        "--type",
        "context",
        "--layer",
        "user",
    ).stdout.strip()
    mem("save", "The shop uses Postgres 16")
    mem("forget", "--purge", "-y", mine)
    assert "rotates weekly" not in git(user_root(), "log", "--all", "-p")
    assert mine in (user_root() / "purged.txt").read_text()
    assert [h["layer"] for h in mem_json("list")] == ["project"]


def test_edit_log_and_restore_work_in_any_layer(projects: tuple[Path, Path]) -> None:
    mem(
        "save",
        "Prefer rebase over merge",
        "--type",
        "preference",
        "--key",
        "history",
        "--layer",
        "user",
    )
    mem("save", "The shop's main branch is protected")
    mem("edit", "history", "--set", "importance=0.9")
    assert mem_json("show", "history")[0]["importance"] == 0.9
    assert git(user_root(), "log", "-1", "--format=%s").startswith("edit")
    mem("forget", "history")
    log = mem_json("log", "history")
    assert [entry["action"] for entry in log][:2] == ["forget", "edit"]
    restored = mem_json("restore", "history")
    assert restored["title"] == "Prefer rebase over merge"
    assert mem_json("show", "history")[0]["layer"] == "user"
    assert len(mem_json("log", "--layer", "user")) == 4  # save, edit, forget, restore


@pytest.mark.parametrize("newer", ["user", "project"])
def test_equal_scores_across_layers_come_newest_first(
    projects: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, newer: str
) -> None:
    older = "project" if newer == "user" else "user"
    monkeypatch.setenv("MEM_NOW", "2026-10-01T10:00:00Z")
    mem("save", "Retry the flaky upload twice", "--layer", older)
    monkeypatch.setenv("MEM_NOW", "2026-11-01T10:00:00Z")
    mem("save", "Retry the flaky upload thrice", "--layer", newer)  # not a duplicate
    hits = mem_json("search", "flaky upload", "--mode", "lexical")
    assert [h["layer"] for h in hits] == [newer, older]


def test_a_new_project_s_session_start_shows_the_user_s_preferences(
    projects: tuple[Path, Path],
) -> None:
    shop, blog = projects
    mem("save", "Answer briefly, code first", "--type", "preference", "--layer", "user")
    payload = {
        "session_id": "s1",
        "cwd": str(blog),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    done = run_mem("hook", "claude", "SessionStart", input=json.dumps(payload), cwd=blog)
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "preference (user): Answer briefly, code first" in context
    assert not (Path(os.environ["MEM_HOME"]) / "blog").exists()  # no half store made


def test_sync_in_a_project_without_a_store_never_syncs_another_layer(
    projects: tuple[Path, Path],
) -> None:
    mem("save", "Answer briefly", "--type", "preference", "--layer", "user")
    refused = mem("sync", expect=1)
    assert "no memory store" in refused.output
    assert "no remote" in mem("sync", "--layer", "user", expect=1).output


def test_init_layer_user_makes_the_user_store_with_its_git_hooks(
    projects: tuple[Path, Path],
) -> None:
    made = mem_json("init", "--layer", "user")
    assert made == {"store": str(user_root()), "created": True, "remote": None, "layer": "user"}
    assert (user_root() / ".git").is_dir()
    hooks = mem("hooks", "status", "--store", str(user_root())).stdout.splitlines()
    assert len(hooks) == 5 and all(line.endswith("installed") for line in hooks)
    assert "already exists" in mem("init", "--layer", "user").stdout
    mem("save", "I write commit messages in English", "--type", "preference", "--layer", "user")
    assert git(user_root(), "log", "--format=%s").startswith("save")
    refused = mem("init", "--layer", "user", "--local", expect=2)
    assert "--layer user" in refused.output


def test_init_layer_user_follows_mem_user_store(
    projects: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEM_USER_STORE", str(tmp_path / "mine"))
    assert "your own, read in every project" in mem("init", "--layer", "user").stdout
    assert (tmp_path / "mine" / ".git").is_dir() and not user_root().exists()
    assert mem_json("status")["layers"][1]["source"] == "MEM_USER_STORE"


def test_a_memory_another_layer_holds_is_not_saved_again(projects: tuple[Path, Path]) -> None:
    mine = mem_json(
        "save", "Always squash before merging", "--type", "preference", "--layer", "user"
    )
    again = mem_json("save", "always squash before merging!", "--type", "preference")
    assert (again["action"], again["duplicate_of"], again["layer"]) == (
        "duplicate",
        mine["id"],
        "user",
    )
    assert mem_json("list", "--layer", "project") == []


def test_another_project_named_with_project_reads_no_team_folder_of_here(
    projects: tuple[Path, Path],
) -> None:
    shop, blog = projects
    mem("init", "--layer", "team")
    mem("save", "Shop team: deploys freeze on Fridays", "--type", "decision", "--layer", "team")
    mem("save", "Blog posts go out on Mondays", "--type", "decision", "--project", "blog")
    listed = mem_json("list", "--project", "blog")
    assert [(h["layer"], h["title"]) for h in listed] == [
        ("project", "Blog posts go out on Mondays")
    ]
    assert {h["layer"] for h in mem_json("list")} == {"team"}


def test_a_small_layer_ranks_as_it_would_in_one_store(
    projects: tuple[Path, Path], tmp_path: Path
) -> None:
    """bm25 weighs a word by its rarity in ONE index: in a user layer of two memories that
    both hold it, it weighs nothing. The layers are put on one scale, as one store."""
    filler = "The checkout page renders the basket, the totals and the shipping options. " * 6
    mem("save", f"{filler} Installs use pnpm.", "--type", "context")
    for n in range(8):
        mem(
            "save",
            f"Note {n} about the shop's catalogue and its search facets",
            "--type",
            "context",
        )
    mem("save", "I use pnpm for installs", "--type", "preference", "--layer", "user")
    mem("save", "pnpm, never npm", "--type", "preference", "--layer", "user")
    layered = [h["layer"] for h in mem_json("search", "pnpm", "--mode", "lexical")]
    assert layered == ["user", "user", "project"]
