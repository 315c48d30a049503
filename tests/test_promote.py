"""mem promote: a memory moved between layers, its id kept, secrets looked for again."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

import memcli
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


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with one commit, a project store and a team folder."""
    root = tmp_path / "shop"
    root.mkdir()
    git_project(root, {"app.py": "print('hi')\n"})
    ok("init", "--layer", "team", cwd=root)
    git(root, "commit", "-qm", "team folder")
    return root


def project_store() -> Path:
    return Path(os.environ["MEM_HOME"]) / "shop"


def staged(project: Path) -> list[str]:
    return git(project, "diff", "--cached", "--name-only").split()


def test_promote_to_the_team_stages_the_file_and_commits_the_removal(project: Path) -> None:
    memory = saved(project, "Deploys freeze on Fridays", "--type", "decision", "--key", "freeze")
    head = git(project, "rev-parse", "HEAD")
    moved = json.loads(ok("promote", "freeze", "--to", "team", "--json", cwd=project))
    assert (moved["id"], moved["layer"], moved["from"]) == (memory["id"], "team", "project")
    assert moved["commit"] == "" and moved["removed"]
    assert staged(project) == [f"{TEAM}/{moved['path']}"]
    assert git(project, "rev-parse", "HEAD") == head  # mem never commits in the project
    assert git(project_store(), "log", "-1", "--format=%s").startswith("promote: decision:")
    shown = json.loads(ok("show", "freeze", "--json", cwd=project))[0]
    assert (shown["id"], shown["layer"]) == (memory["id"], "team")
    hits = json.loads(ok("search", "deploys friday", "--json", cwd=project))
    assert [(h["id"], h["layer"]) for h in hits] == [(memory["id"], "team")]
    log = json.loads(ok("log", "--layer", "project", "--json", cwd=project))
    assert log[0]["action"] == "promote"


def test_promote_to_the_user_layer_commits_in_both(project: Path) -> None:
    memory = saved(project, "I like small commits", "--type", "preference")
    text = ok("promote", str(memory["id"]), "--to", "user", cwd=project)
    assert "project -> user" in text
    user = Path(os.environ["MEM_HOME"]) / "_user"
    assert git(user, "log", "-1", "--format=%s").startswith("promote: preference:")
    assert json.loads(ok("list", "--json", cwd=project))[0]["layer"] == "user"


def test_a_likely_secret_is_refused_and_nothing_is_written(project: Path) -> None:
    memory = saved(project, f"The staging token is {TOKEN}", "--type", "context", "--allow-secret")
    before = (git(project_store(), "rev-parse", "HEAD"), staged(project))
    refused = run_mem("promote", str(memory["id"]), "--to", "team", cwd=project)
    assert refused.returncode == 1 and "secret" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert (git(project_store(), "rev-parse", "HEAD"), staged(project)) == before
    allowed = run_mem("promote", str(memory["id"]), "--to", "team", "--allow-secret", cwd=project)
    assert allowed.returncode == 1 and "--redact" in allowed.stderr
    moved = json.loads(
        ok("promote", str(memory["id"]), "--to", "team", "--redact", "--json", cwd=project)
    )
    written = (project / TEAM / str(moved["path"])).read_text()
    assert TOKEN not in written and "REDACTED" in written


def test_private_spans_are_dropped_on_the_way(project: Path) -> None:
    memory = saved(project, "Use the blue button", "--type", "pattern")
    path = project_store() / str(memory["path"])
    path.write_text(path.read_text() + "\n<private>my own note</private>\n")
    git(project_store(), "commit", "-qam", "hand edit")
    moved = json.loads(ok("promote", str(memory["id"]), "--to", "team", "--json", cwd=project))
    assert "my own note" not in (project / TEAM / str(moved["path"])).read_text()


def test_dry_run_shows_the_file_and_changes_nothing(project: Path) -> None:
    memory = saved(project, "Run the linter before pushing", "--type", "pattern")
    head = git(project_store(), "rev-parse", "HEAD")
    shown = ok("promote", str(memory["id"]), "--to", "team", "--dry-run", cwd=project)
    assert "would add observations/" in shown and f"id: {memory['id']}" in shown
    assert git(project_store(), "rev-parse", "HEAD") == head and staged(project) == []


def test_a_key_the_destination_holds_is_refused(project: Path) -> None:
    saved(project, "Team style: tabs", "--type", "preference", "--key", "indent", "--layer", "team")
    mine = saved(
        project,
        "Project style: spaces",
        "--type",
        "preference",
        "--key",
        "indent",
        "--layer",
        "project",
    )
    refused = run_mem("promote", str(mine["id"]), "--to", "team", cwd=project)
    assert refused.returncode == 1 and "'indent'" in refused.stderr
    assert json.loads(ok("show", str(mine["id"]), "--json", cwd=project))[0]["layer"] == "project"


def test_a_promotion_cut_short_leaves_both_layers_as_they_were(project: Path) -> None:
    memory = saved(project, "The cache is warmed at boot", "--type", "discovery")
    head = git(project_store(), "rev-parse", "HEAD")
    lock = project_store() / ".cache" / "write.lock"
    with lock.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # the source store is busy: its removal cannot start
        done = run_mem(
            "promote",
            str(memory["id"]),
            "--to",
            "team",
            cwd=project,
            env={"MEM_LOCK_TIMEOUT": "0.5"},
        )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert git(project_store(), "rev-parse", "HEAD") == head
    assert staged(project) == []  # the team's copy was staged, then taken back
    assert not list((project / TEAM / "observations").rglob("*.md"))
    assert json.loads(ok("show", str(memory["id"]), "--json", cwd=project))[0]["layer"] == "project"


def test_promote_through_the_python_api(project: Path) -> None:
    with memcli.open_store(cwd=project) as store:
        memory = store.save("Releases are tagged vX.Y.Z", type="decision")
        moved = store.promote(memory["id"], to="team")
        assert moved["layer"] == "team" and store.get(memory["id"])[0]["layer"] == "team"
        with pytest.raises(memcli.InvalidInput):
            store.promote(memory["id"], to="team")  # there already
        with pytest.raises(memcli.InvalidInput):
            store.promote(memory["id"], to="company")


def test_a_source_git_cannot_commit_to_refuses_before_anything_is_written(
    project: Path,
) -> None:
    memory = saved(project, "Checkout retries three times", "--type", "discovery")
    user = Path(os.environ["MEM_HOME"]) / "_user"
    ok("init", "--layer", "user", cwd=project)
    before = git(user, "rev-list", "--count", "HEAD")
    (project_store() / ".git" / "index.lock").touch()  # a git command running in the store
    done = run_mem(
        "promote", str(memory["id"]), "--to", "user", cwd=project, env={"MEM_LOCK_TIMEOUT": "0.3"}
    )
    assert done.returncode == 1 and "index.lock" in done.stderr
    assert git(user, "rev-list", "--count", "HEAD") == before  # no commit, not even undone ones
