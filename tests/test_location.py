"""Where the store is: --store > --project > MEM_STORE > .mem/ walking up > the repo's project."""

from __future__ import annotations

from pathlib import Path

import pytest

from memcli.core.errors import InvalidInput, StoreError
from memcli.store.location import locate, mem_home, project_name

from .conftest import git, mem, mem_json


def make_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "--initial-branch=main")
    git(path, "commit", "-q", "--allow-empty", "-m", "start")
    return path


def test_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = make_repo(tmp_path / "webapp")
    sub = repo / "src" / "deep"
    sub.mkdir(parents=True)
    central = locate(None, None, sub)
    assert (central.root, central.source, central.project) == (
        tmp_path / "mem-home" / "webapp",
        "central",
        "webapp",
    )
    (repo / ".mem").mkdir()
    assert locate(None, None, sub).root == repo / ".mem"
    assert locate(None, "other", sub).root == tmp_path / "mem-home" / "other"
    monkeypatch.setenv("MEM_STORE", str(tmp_path / "env-store"))
    assert locate(None, None, sub).root == tmp_path / "env-store"
    assert locate(None, "other", sub).root == tmp_path / "mem-home" / "other"
    assert locate(str(tmp_path / "flag"), None, sub).root == tmp_path / "flag"


def test_all_worktrees_of_a_repository_share_one_project(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "api")
    git(repo, "worktree", "add", "-q", str(tmp_path / "api-feature"), "-b", "feature")
    assert project_name(tmp_path / "api-feature") == "api"
    assert project_name(repo) == "api"
    bare = tmp_path / "service.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    git(bare, "worktree", "add", "-q", str(tmp_path / "svc-wt"), "main")
    assert project_name(tmp_path / "svc-wt") == "service"


def test_saves_from_two_worktrees_land_in_one_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "api")
    worktree = tmp_path / "agent-worktree"
    git(repo, "worktree", "add", "-q", str(worktree), "-b", "agent")
    monkeypatch.chdir(repo)
    mem("save", "Saved from the main checkout")
    monkeypatch.chdir(worktree)
    mem("save", "Saved from the worktree")
    assert len(mem_json("list")) == 2
    assert (tmp_path / "mem-home" / "api" / ".git").is_dir()


def test_default_home_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MEM_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert mem_home() == tmp_path / "xdg" / "mem"


def test_outside_a_repository_asks_for_a_project(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="--project NAME or --store DIR"):
        locate(None, None, tmp_path)
    result = mem("search", "x", expect=1)
    assert "not inside a git repository" in result.stderr


@pytest.mark.parametrize("name", ["../escape", "/abs", "a/b", "..", "", "x\x00y", "C:\\x"])
def test_project_names_cannot_leave_mem_home(name: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="invalid project name"):
        locate(None, name, tmp_path)


def test_init_local_creates_an_ignored_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "proj")
    monkeypatch.chdir(repo)
    assert "Created a memory store" in mem("init", "--local").stdout
    assert (repo / ".mem" / ".git").is_dir()
    assert "/.mem/" in (repo / ".git" / "info" / "exclude").read_text()
    assert git(repo, "status", "--porcelain") == ""
    assert "already exists" in mem("init", "--local").stdout
    mem("save", "Lives in the project-local store")
    assert len(list((repo / ".mem" / "observations").rglob("*.md"))) == 1


def test_init_refuses_a_non_empty_directory(tmp_path: Path) -> None:
    target = tmp_path / "documents"
    target.mkdir()
    (target / "thesis.txt").write_text("precious")
    result = mem("init", "--store", str(target), expect=1)
    assert "not empty and not a git repository" in result.stderr
    assert not (target / ".git").exists()


def test_a_refused_save_leaves_nothing_in_a_directory_that_is_not_a_store(
    tmp_path: Path,
) -> None:
    target = tmp_path / "documents"
    target.mkdir()
    (target / "thesis.txt").write_text("precious")
    result = mem("save", "x", "--store", str(target), expect=1)
    assert "not empty and not a git repository" in result.stderr
    assert sorted(p.name for p in target.iterdir()) == ["thesis.txt"]


@pytest.mark.parametrize("key", ["../x", "-x", "a b", "x" * 101])
def test_an_invalid_key_is_refused_before_a_store_is_created(tmp_path: Path, key: str) -> None:
    target = tmp_path / "new-store"
    result = mem("save", "--store", str(target), "--key", key, "some text", expect=1)
    assert "invalid key" in result.stderr
    assert not target.exists()


def test_reading_a_missing_store_says_how_to_create_one(tmp_path: Path) -> None:
    result = mem("list", "--store", str(tmp_path / "nowhere"), expect=1)
    assert "no memory store" in result.stderr and "mem save" in result.stderr
