"""Writes to the team layer: only what was asked is staged or committed, never a likely
secret as it is, the project's own git hooks run, and a promotion cut short finishes."""

from __future__ import annotations

import json
import os
import signal
import stat
from pathlib import Path

import pytest

from tests.conftest import git, git_project, run_mem

TEAM = ".mem-team"
TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def ok(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = run_mem(*args, cwd=cwd, env=env)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def saved(project: Path, *args: str) -> dict[str, object]:
    result: dict[str, object] = json.loads(ok("save", *args, "--json", cwd=project))
    return result


def staged(project: Path) -> list[str]:
    return git(project, "diff", "--cached", "--name-only").split()


def commits(project: Path) -> int:
    return int(git(project, "rev-list", "--count", "HEAD"))


def one_line_error(done: object) -> str:
    assert getattr(done, "returncode", None) == 1, done
    stderr = str(getattr(done, "stderr", ""))
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    return stderr


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with a commit holding its team folder, and a project store."""
    root = tmp_path / "shop"
    root.mkdir()
    git_project(root, {"app.py": "print('hi')\n"})
    ok("init", "--layer", "team", cwd=root)
    git(root, "commit", "-qm", "team folder")
    return root


def project_store() -> Path:
    return Path(os.environ["MEM_HOME"]) / "shop"


# ------------------------------------------------- an interrupted stage-only save


def test_an_interrupted_staged_save_stays_staged_when_a_later_save_commits(
    project: Path,
) -> None:
    killed = run_mem(
        "save",
        "Draft: the staging cluster moves to eu-west",
        "--layer",
        "team",
        cwd=project,
        env={"MEM_CRASH_AT": "files-written"},
    )
    assert killed.returncode == -signal.SIGKILL
    head = git(project, "rev-parse", "HEAD")
    ok("save", "Releases are cut on Mondays", "--layer", "team", "--commit", cwd=project)
    assert commits(project) == 3  # the first commit, the team folder, the one asked for
    assert git(project, "rev-parse", "HEAD~1") == head
    committed = git(project, "show", "--name-only", "--format=", "HEAD").split()
    assert len(committed) == 1
    assert "Releases are cut" in (project / committed[0]).read_text()
    draft = [p for p in staged(project) if p.startswith(f"{TEAM}/observations/")]
    assert len(draft) == 1 and "eu-west" in (project / draft[0]).read_text()


def test_a_save_killed_after_its_commit_makes_no_empty_commit(project: Path) -> None:
    killed = run_mem(
        "save",
        "Releases are cut on Mondays",
        "--layer",
        "team",
        "--commit",
        cwd=project,
        env={"MEM_CRASH_AT": "ref-updated"},
    )
    assert killed.returncode == -signal.SIGKILL
    assert commits(project) == 3
    ok("save", "Hotfixes go through the release branch", "--layer", "team", "--commit", cwd=project)
    assert commits(project) == 4  # the recovery made no commit, empty or not
    committed = git(project, "show", "--name-only", "--format=", "HEAD").split()
    assert len(committed) == 1 and "Hotfixes" in (project / committed[0]).read_text()
    assert staged(project) == []


# ------------------------------------------------- likely secrets


def test_allow_secret_does_not_reach_the_team_layer(project: Path) -> None:
    before = (git(project, "rev-parse", "HEAD"), staged(project))
    refused = run_mem(
        "save", f"token {TOKEN} for the CI", "--layer", "team", "--allow-secret", cwd=project
    )
    stderr = one_line_error(refused)
    assert "team" in stderr and "--redact" in stderr
    assert (git(project, "rev-parse", "HEAD"), staged(project)) == before
    assert not any(TOKEN in p.name for p in (project / TEAM).rglob("*"))
    redacted = saved(
        project, f"token {TOKEN} for the CI", "--layer", "team", "--redact", "--type", "context"
    )
    text = (project / TEAM / str(redacted["path"])).read_text()
    assert TOKEN not in text and TOKEN not in str(redacted["path"])
    allowed = saved(project, "The CI runs on every push", "--layer", "team", "--allow-secret")
    assert allowed["layer"] == "team"  # nothing secret: the flag changes nothing


def test_allow_secret_does_not_reach_the_team_layer_by_edit_or_import(
    project: Path, tmp_path: Path
) -> None:
    memory = saved(project, "The CI runs on every push", "--layer", "team", "--key", "ci")
    before = (git(project, "rev-parse", "HEAD"), staged(project))
    edited = run_mem(
        "edit", "ci", "--set", f"title=CI token {TOKEN}", "--allow-secret", cwd=project
    )
    one_line_error(edited)
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        json.dumps({"id": "01M8TEAM0000000000000000AA", "type": "context", "title": TOKEN}) + "\n"
    )
    done = run_mem("import", "jsonl", str(rows), "--store", TEAM, "--allow-secret", cwd=project)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (git(project, "rev-parse", "HEAD"), staged(project)) == before
    assert TOKEN not in (project / TEAM / str(memory["path"])).read_text()
    assert not any(TOKEN in p.read_text() for p in (project / TEAM).rglob("*.md"))


# ------------------------------------------------- the project's own git hooks


def _hook(project: Path, name: str, body: str, folder: str = ".git/hooks") -> Path:
    hooks = project / folder
    hooks.mkdir(parents=True, exist_ok=True)
    script = hooks / name
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_commit_runs_the_projects_commit_msg_hook(project: Path) -> None:
    ran = project.parent / "commit-msg-ran"
    _hook(project, "commit-msg", f'cp "$1" "{ran}"\n')
    (project / "notes.txt").write_text("the user's own\n")
    git(project, "add", "notes.txt")
    ok("save", "Releases are cut on Mondays", "--layer", "team", "--commit", cwd=project)
    assert ran.exists() and "Releases are cut" in ran.read_text()
    assert commits(project) == 3
    files = git(project, "show", "--name-only", "--format=", "HEAD").split()
    assert len(files) == 1 and files[0].startswith(f"{TEAM}/observations/")
    assert staged(project) == ["notes.txt"]  # the user's own staged change stays out


def test_a_pre_commit_hook_that_refuses_stops_the_commit(project: Path) -> None:
    draft = saved(project, "Releases are cut on Fridays", "--layer", "team", "--key", "rel")
    _hook(project, "pre-commit", "echo 'secret scanner: no' >&2\nexit 1\n", folder="githooks")
    git(project, "config", "core.hooksPath", "githooks")
    (project / "notes.txt").write_text("the user's own\n")
    git(project, "add", "notes.txt")
    index = git(project, "ls-files", "-s")
    before = (git(project, "rev-parse", "HEAD"), index)
    refused = run_mem(
        "save", "Releases are cut on Mondays", "--layer", "team", "--commit", cwd=project
    )
    stderr = one_line_error(refused)
    assert "pre-commit" in stderr
    assert (git(project, "rev-parse", "HEAD"), git(project, "ls-files", "-s")) == before
    update = ("save", "Releases are cut on Tuesdays", "--layer", "team", "--key", "rel")
    one_line_error(run_mem(*update, "--commit", cwd=project))
    assert (git(project, "rev-parse", "HEAD"), git(project, "ls-files", "-s")) == before
    listed = json.loads(ok("list", "--layer", "team", "--json", cwd=project))
    assert [m["id"] for m in listed] == [draft["id"]]
    assert "Fridays" in (project / TEAM / str(draft["path"])).read_text()


# ------------------------------------------------- a promotion cut short


def test_a_promotion_killed_half_way_is_finished_by_running_it_again(project: Path) -> None:
    memory = saved(project, "Deploys freeze on Fridays", "--type", "decision", "--key", "freeze")
    killed = run_mem(
        "promote",
        "freeze",
        "--to",
        "team",
        cwd=project,
        env={"MEM_CRASH_AT": "promote-adopted"},
    )
    assert killed.returncode == -signal.SIGKILL
    again = run_mem("promote", "freeze", "--to", "team", "--json", cwd=project)
    assert again.returncode == 0, again.stderr
    moved = json.loads(again.stdout)
    assert (moved["id"], moved["layer"]) == (memory["id"], "team")
    assert staged(project) == [f"{TEAM}/{moved['path']}"]
    assert not (project_store() / str(memory["path"])).exists()
    shown = json.loads(ok("show", "freeze", "--json", cwd=project))
    assert [(s["id"], s["layer"]) for s in shown] == [(memory["id"], "team")]
    assert "in the team layer already" in one_line_error(
        run_mem("promote", "freeze", "--to", "team", cwd=project)
    )


def promoted_after_a_kill(project: Path, ref: str, to: str, point: str) -> dict[str, object]:
    """``mem promote REF --to TO`` killed at ``point``, then run again: its answer."""
    killed = run_mem("promote", ref, "--to", to, cwd=project, env={"MEM_CRASH_AT": point})
    assert killed.returncode == -signal.SIGKILL
    again = run_mem("promote", ref, "--to", to, "--json", cwd=project)
    assert again.returncode == 0, again.stderr
    result: dict[str, object] = json.loads(again.stdout)
    return result


def layers_of(project: Path, ref: str) -> list[tuple[str, str]]:
    return [(s["id"], s["layer"]) for s in json.loads(ok("show", ref, "--json", cwd=project))]


@pytest.mark.parametrize("point", ["promote-adopted", "files-written", "staged"])
def test_a_promotion_killed_half_way_is_finished_when_run_again_by_its_id(
    project: Path, point: str
) -> None:
    memory = saved(project, "Deploys freeze on Fridays", "--type", "decision")
    ref = str(memory["id"])
    moved = promoted_after_a_kill(project, ref, "team", point)
    assert (moved["id"], moved["layer"], moved["from"]) == (ref, "team", "project")
    assert not (project_store() / str(memory["path"])).exists()
    assert layers_of(project, ref) == [(ref, "team")]


def test_a_promotion_to_the_project_killed_half_way_is_finished_by_its_key(project: Path) -> None:
    memory = saved(project, "I review with difftastic", "--layer", "user", "--key", "difftool")
    moved = promoted_after_a_kill(project, "difftool", "project", "promote-adopted")
    assert moved["from"] == "user"
    assert layers_of(project, str(memory["id"])) == [(memory["id"], "project")]


# ------------------------------------------------- dedupe and the team folder

MONEY = (
    "Money is stored as integer pence in bigint columns; never use floats for money",
    "Money is stored as integer pence in bigint columns, never floats for money values "
    "in the database",
)


def test_dedupe_apply_merges_the_teams_memories_only_when_asked(project: Path) -> None:
    first, second = (saved(project, text, "--layer", "team") for text in MONEY)
    git(project, "commit", "-qm", "team memories")
    before = git(project, "ls-files", "-s")
    ok("dedupe", "--apply", "-y", cwd=project)
    assert staged(project) == []
    assert git(project, "ls-files", "-s") == before
    done = ok("dedupe", "--apply", "-y", "--layer", "team", cwd=project)
    assert "merged 1 into" in done
    assert len(staged(project)) == 1
    shown = json.loads(ok("list", "--layer", "team", "--json", cwd=project))
    assert [m["id"] for m in shown] in ([first["id"]], [second["id"]])


def test_a_hook_that_never_ends_is_stopped_and_nothing_is_committed(project: Path) -> None:
    _hook(project, "pre-commit", "sleep 60 &\nsleep 60\n")
    (project / "notes.txt").write_text("the user's own\n")
    git(project, "add", "notes.txt")
    before = (git(project, "rev-parse", "HEAD"), git(project, "ls-files", "-s"))
    refused = run_mem(
        "save",
        "Releases are cut on Mondays",
        "--layer",
        "team",
        "--commit",
        cwd=project,
        env={"MEM_GIT_HOOK_TIMEOUT": "1"},
        timeout=30,
    )
    assert "did not finish" in one_line_error(refused)
    assert (git(project, "rev-parse", "HEAD"), git(project, "ls-files", "-s")) == before
    assert not (project / ".git" / "index.lock").exists()


def test_a_key_the_team_shares_with_your_layer_is_ambiguous_for_writes(project: Path) -> None:
    saved(project, "The team edits with vscode", "--layer", "team", "--key", "editor")
    git(project, "commit", "-qm", "team memory")
    mine = saved(project, "My personal editor is neovim", "--layer", "user", "--key", "editor")
    for write in (("forget", "editor"), ("edit", "editor", "--set", "importance=5")):
        assert "--layer" in one_line_error(run_mem(*write, cwd=project))
    assert "--layer" in one_line_error(run_mem("promote", "editor", "--to", "project", cwd=project))
    assert staged(project) == []
    ok("forget", "editor", "--layer", "user", cwd=project)
    assert staged(project) == []
    assert json.loads(ok("show", "editor", "--json", cwd=project))[0]["id"] != mine["id"]
