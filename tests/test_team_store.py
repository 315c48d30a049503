"""The team store: a ``.mem-team`` folder of the project's repository (issue 23).

mem stages its writes there for review and never commits on its own; its index
lives in the user's cache; history is the project's, limited to the folder.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from memcli import open_store
from memcli.store.team import TeamStore
from tests.conftest import git, git_project, run_mem

TEAM = ".mem-team"


def ok(*args: str, cwd: Path, input: str | None = None) -> str:
    """The installed mem, which must succeed; its standard output."""
    done = run_mem(*args, cwd=cwd, input=input)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def save(project: Path, text: str, *extra: str) -> str:
    """A memory saved in the project's team layer; its id."""
    out = ok("save", "--store", TEAM, text, "--json", *extra, cwd=project)
    return str(json.loads(out)["id"])


def staged(project: Path) -> list[str]:
    return git(project, "diff", "--cached", "--name-only").split()


def commits(project: Path) -> int:
    return int(git(project, "rev-list", "--count", "HEAD"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with one commit and its team layer made by `mem init --layer team`."""
    root = tmp_path / "project"
    root.mkdir()
    git_project(root, {"src/app.py": "print('hi')\n"})
    (root / "src" / "deep").mkdir()
    ok("init", "--layer", "team", cwd=root / "src" / "deep")
    return root


def test_init_layer_team_makes_the_folder_and_stages_its_readme(project: Path) -> None:
    assert (project / TEAM / "observations").is_dir()
    assert (project / TEAM / "summaries").is_dir()
    assert staged(project) == [f"{TEAM}/README.md"]
    assert commits(project) == 1
    again = ok("init", "--layer", "team", cwd=project)
    assert "already exists" in again


def test_init_layer_team_outside_git_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    done = run_mem("init", "--layer", "team", cwd=outside)
    assert done.returncode == 1
    assert "not inside a git work tree" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (outside / TEAM).exists()


def test_save_stages_only_its_file_and_reads_see_it_before_any_commit(
    project: Path, tmp_path: Path
) -> None:
    git(project, "commit", "-qm", "team folder")
    (project / "src" / "app.py").write_text("print('changed, unstaged')\n")
    (project / "notes.txt").write_text("the user's own\n")
    git(project, "add", "notes.txt")
    before = git(project, "status", "--porcelain")

    identity = save(project, "Deploys go through the staging cluster first", "--type", "decision")

    assert commits(project) == 2
    added = [p for p in staged(project) if p.startswith(TEAM)]
    assert len(added) == 1 and added[0].startswith(f"{TEAM}/observations/")
    after = git(project, "status", "--porcelain").splitlines()
    assert sorted(after) == sorted([*before.splitlines(), f"A  {added[0]}"])
    assert not (project / TEAM / ".cache").exists()
    assert list((tmp_path / "home" / ".cache" / "mem" / "team").glob("*/index.db"))

    found = json.loads(ok("search", "--store", TEAM, "staging cluster", "--json", cwd=project))
    assert [hit["id"] for hit in found] == [identity]
    assert identity[:8] in ok("list", "--store", TEAM, cwd=project)
    assert "staging cluster" in ok("show", "--store", TEAM, identity[:8], cwd=project)


def test_forget_stages_a_deletion_and_restore_brings_it_back(project: Path) -> None:
    identity = save(project, "The cache is warmed at boot", "--key", "cache-warm")
    git(project, "commit", "-qm", "team memory")
    ok("forget", "--store", TEAM, "cache-warm", cwd=project)
    status = git(project, "status", "--porcelain").splitlines()
    assert len(status) == 1 and status[0].startswith("D  .mem-team/observations/")
    staged_path = status[0][3:]
    assert commits(project) == 2
    assert identity[:8] not in ok("list", "--store", TEAM, cwd=project)

    ok("restore", "--store", TEAM, identity, cwd=project)
    assert git(project, "status", "--porcelain") == ""
    assert (project / staged_path).exists()
    assert identity[:8] in ok("list", "--store", TEAM, cwd=project)


def test_edit_stages_the_edited_file(project: Path) -> None:
    identity = save(project, "Tests run with pytest -n0 here")
    git(project, "commit", "-qm", "team memory")
    ok("edit", "--store", TEAM, identity, "--set", "title=Run tests single process", cwd=project)
    status = git(project, "status", "--porcelain").splitlines()
    assert len(status) == 1 and status[0].startswith("M  .mem-team/observations/")
    (shown,) = json.loads(ok("show", "--store", TEAM, identity, "--json", cwd=project))
    assert shown["title"] == "Run tests single process"


def test_log_and_diff_see_only_the_folder(project: Path) -> None:
    save(project, "Secrets live in the vault, never in env files")
    git(project, "commit", "-qm", "team: vault rule")
    (project / "src" / "app.py").write_text("print('other work')\n")
    git(project, "commit", "-qam", "other work on the code")

    log = json.loads(ok("log", "--store", TEAM, "--json", cwd=project))
    assert "other work on the code" not in json.dumps(log)
    assert len(log) == 1  # the memory's commit (with the README): not the other work
    assert all(p.startswith(("observations/", "summaries/")) for e in log for p in e["paths"])

    diff = json.loads(ok("diff", "--store", TEAM, "HEAD~2", "HEAD", "--json", cwd=project))
    assert [m["title"] for m in diff["added"]] == ["Secrets live in the vault, never in env files"]


def test_purge_is_refused_in_the_team_layer(project: Path) -> None:
    identity = save(project, "A memory someone wants gone")
    git(project, "commit", "-qm", "team memory")
    head = git(project, "rev-parse", "HEAD")
    done = run_mem("forget", "--store", TEAM, "--purge", "-y", identity, cwd=project)
    assert done.returncode == 1
    assert "team layer's history is the project's" in done.stderr
    assert git(project, "rev-parse", "HEAD") == head
    assert git(project, "status", "--porcelain") == ""


def test_save_commit_commits_exactly_the_memory(project: Path) -> None:
    git(project, "commit", "-qm", "team folder")
    (project / "notes.txt").write_text("the user's own\n")
    git(project, "add", "notes.txt")
    ok("save", "--store", TEAM, "--commit", "Committed on request", cwd=project)
    assert commits(project) == 3
    files = git(project, "show", "--name-only", "--format=", "HEAD").split()
    assert len(files) == 1 and files[0].startswith(f"{TEAM}/observations/")
    assert staged(project) == ["notes.txt"]


def test_a_teammates_clone_reads_the_committed_memories_and_follows_pulls(
    project: Path, tmp_path: Path
) -> None:
    first = save(project, "Feature flags are read once per request")
    git(project, "commit", "-qm", "team memory")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(project), str(clone))
    assert first[:8] in ok("list", "--store", str(clone / TEAM), cwd=tmp_path)
    assert git(clone, "status", "--porcelain") == ""

    second = save(project, "The billing service owns invoices")
    git(project, "commit", "-qm", "another team memory")
    git(clone, "pull", "-q")
    listed = ok("list", "--store", str(clone / TEAM), cwd=tmp_path)
    assert first[:8] in listed and second[:8] in listed


def test_a_second_work_tree_has_its_own_staged_state(project: Path, tmp_path: Path) -> None:
    git(project, "commit", "-qm", "team folder")
    other = tmp_path / "other-tree"
    git(project, "worktree", "add", "-q", str(other), "-b", "feature")
    assert (other / ".git").is_file()
    identity = save(other, "Worktrees each stage their own memories")
    assert len([p for p in staged(other) if p.startswith(TEAM)]) == 1
    assert staged(project) == []
    assert identity[:8] in ok("list", "--store", TEAM, cwd=other)
    assert identity[:8] not in ok("list", "--store", TEAM, cwd=project)


def test_doctor_notes_staged_memories_and_reports_unstaged_hand_edits(project: Path) -> None:
    identity = save(project, "Logs are JSON lines")
    report = json.loads(ok("doctor", "--store", TEAM, "--json", cwd=project))
    assert report["problems"] == []
    assert any("staged for review" in line for line in report["warnings"])

    (shown,) = json.loads(ok("show", "--store", TEAM, identity, "--json", cwd=project))
    path = project / TEAM / shown["path"]
    path.write_text(path.read_text() + "\nA hand-written line.\n")
    done = run_mem("doctor", "--store", TEAM, cwd=project)
    assert done.returncode == 1
    assert "not staged" in done.stdout + done.stderr
    ok("doctor", "--store", TEAM, "--fix", cwd=project)
    assert git(project, "diff", "--name-only") == ""
    assert not (project / ".git" / "hooks" / "pre-commit").exists()


@pytest.mark.parametrize("action", ["install", "uninstall", "status"])
def test_git_hooks_are_never_installed_in_the_project(project: Path, action: str) -> None:
    done = run_mem("hooks", action, "--store", TEAM, cwd=project)
    assert done.returncode == 1
    assert "installs no git hooks" in done.stderr
    assert not (project / ".git" / "hooks" / "post-commit").exists()


def test_the_python_api_opens_a_team_folder(project: Path) -> None:
    store = open_store(project / TEAM)
    saved = store.save("The API can write to the team layer")
    assert isinstance(store.memory.store, TeamStore)
    assert [hit["id"] for hit in store.search("team layer")] == [saved["id"]]
    assert any(p.startswith(f"{TEAM}/observations/") for p in staged(project))
    store.close()


def test_a_read_with_nothing_changed_runs_no_git(project: Path) -> None:
    identity = save(project, "Reads with nothing changed run no git process")
    index = project / ".git" / "index"
    past = index.stat().st_mtime_ns - 5_000_000_000  # an index written just now is not trusted
    os.utime(index, ns=(past, past))
    ok("list", "--store", TEAM, cwd=project)  # the staged state, read once and remembered
    without_git = run_mem("list", "--store", TEAM, cwd=project, env={"PATH": "/nonexistent"})
    assert without_git.returncode == 0, without_git.stderr
    assert identity[:8] in without_git.stdout
    (project / "src" / "app.py").write_text("print('changed')\n")
    git(project, "add", "src/app.py")  # git's index file changes: mem must ask git again
    changed = run_mem("list", "--store", TEAM, cwd=project, env={"PATH": "/nonexistent"})
    assert changed.returncode == 1


def test_stale_compares_team_memories_with_the_same_repository(project: Path) -> None:
    save(project, "app.py prints a greeting", "--file", "src/app.py")
    git(project, "commit", "-qm", "team memory")
    (project / "src" / "app.py").write_text("print('bye')\n")
    git(project, "commit", "-qam", "change the greeting")
    out = ok("stale", "--store", TEAM, cwd=project)
    assert "app.py prints a greeting" in out and "src/app.py" in out


@pytest.mark.parametrize("point", ["files-written", "staged"])
def test_a_save_killed_half_way_is_finished_by_the_next_write(project: Path, point: str) -> None:
    killed = run_mem(
        "save", "--store", TEAM, "Killed half way", cwd=project, env={"MEM_CRASH_AT": point}
    )
    assert killed.returncode != 0
    done = run_mem("save", "--store", TEAM, "The next save", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "finished an interrupted write" in done.stderr
    listed = ok("list", "--store", TEAM, cwd=project)
    assert "Killed half way" in listed and "The next save" in listed
    memories = [p for p in staged(project) if p.startswith(f"{TEAM}/observations/")]
    assert len(memories) == 2
    assert git(project, "status", "--porcelain", "--untracked-files=all").count("??") == 0


@pytest.mark.parametrize("args", [["sync"], ["remote", "add", "https://example.com/m.git"]])
def test_sync_and_remotes_are_the_projects_own_git(project: Path, args: list[str]) -> None:
    done = run_mem(*args, "--store", TEAM, cwd=project)
    assert done.returncode == 1
    assert "syncs with the project's own git" in done.stderr
    assert git(project, "remote") == ""


def test_clone_into_a_team_folder_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    git_project(other, {"a.txt": "a\n"})
    done = run_mem("clone", str(tmp_path / "project"), "--store", TEAM, cwd=other)
    assert done.returncode == 1
    assert "syncs with the project's own git" in done.stderr
    assert not (other / TEAM).exists()


def test_status_describes_the_team_store_at_its_cache(project: Path, tmp_path: Path) -> None:
    save(project, "Status sees the team store")
    report = json.loads(ok("status", "--store", TEAM, "--json", cwd=project))
    (layer,) = report["layers"]
    assert layer["exists"] is True and layer["memories"] == 1
    assert layer["index"]["path"].startswith(str(tmp_path / "home" / ".cache" / "mem" / "team"))
    assert layer["uncommitted"] == []  # staged for review is the team store's normal state


def test_a_project_without_commits_takes_team_memories(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q")
    identity = save(root, "The first memory of a project with no commit")
    assert identity[:8] in ok("list", "--store", TEAM, cwd=root)
    report = json.loads(ok("doctor", "--store", TEAM, "--json", cwd=root))
    (warning,) = [line for line in report["warnings"] if "staged for review" in line]
    assert "README.md" not in warning and warning.startswith("1 team memory file")


def test_save_commit_in_a_project_without_commits_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q")
    (root / "mine.txt").write_text("the user's own, staged\n")
    git(root, "add", "mine.txt")
    done = run_mem("save", "--store", TEAM, "--commit", "Too early to commit", cwd=root)
    assert done.returncode == 1
    assert "has no commit yet" in done.stderr
    assert subprocess.run(["git", "rev-parse", "-q", "--verify", "HEAD"], cwd=root).returncode
    assert staged(root) == [f"{TEAM}/README.md", "mine.txt"]


def test_diff_without_revisions_shows_what_is_staged_for_review(project: Path) -> None:
    first = save(project, "Committed earlier and forgotten now")
    kept = save(project, "Committed earlier and kept")
    git(project, "commit", "-qm", "team memories")
    assert json.loads(ok("diff", "--store", TEAM, "--json", cwd=project))["added"] == []
    ok("forget", "--store", TEAM, first, cwd=project)
    second = save(project, "Staged for review only")
    ok("edit", "--store", TEAM, kept, "--set", "title=Committed earlier, edited now", cwd=project)
    diff = json.loads(ok("diff", "--store", TEAM, "--json", cwd=project))
    assert [m["id"] for m in diff["added"]] == [second]
    assert [m["id"] for m in diff["forgotten"]] == [first]
    assert [m["id"] for m in diff["changed"]] == [kept]
    assert diff["to"].startswith("staged-")


def test_diff_in_a_project_without_commits_shows_every_staged_memory(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q")
    identity = save(root, "Staged in a project with no commit")
    diff = json.loads(ok("diff", "--store", TEAM, "--json", cwd=root))
    assert [m["id"] for m in diff["added"]] == [identity]


def test_a_large_import_never_repacks_the_projects_repository(
    project: Path, tmp_path: Path
) -> None:
    from memcli.capture.jsonl import export_line
    from memcli.core.ids import new_ulid
    from memcli.core.model import Observation
    from memcli.service.writer import PACK_AFTER_FILES

    dump = tmp_path / "many.jsonl"
    rows = (
        Observation(
            id=new_ulid(), type="discovery", title=f"Imported {i}", created="2026-11-20T10:00:00Z"
        )
        for i in range(PACK_AFTER_FILES)
    )
    dump.write_text("".join(export_line(row) + "\n" for row in rows))
    ok("import", "jsonl", str(dump), "--store", TEAM, cwd=project)
    packs = list((project / ".git" / "objects" / "pack").glob("*.pack"))
    assert packs == []
    assert len([p for p in staged(project) if p.startswith(f"{TEAM}/observations/")]) == 1000
