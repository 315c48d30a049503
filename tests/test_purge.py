"""mem forget --purge: the memory leaves the whole git history, and nothing else changes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .conftest import git, mem, mem_json, run_mem

pytestmark = pytest.mark.e2e

CODENAME = "BLUEFALCON"


def all_history(root: Path) -> str:
    return git(root, "log", "--all", "-p", "--format=%H %an %s%n%b")


def all_objects(root: Path) -> bytes:
    return subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout


def assert_gone(root: Path, text: str) -> None:
    """Not in history, not in any object, not in any other file of .git, not in the index."""
    assert text not in all_history(root)
    assert text.encode() not in all_objects(root)
    # A memory's file name holds its title: split-index files and logs name paths too.
    for path in [*(root / ".git").rglob("*"), *(root / ".cache").rglob("*")]:
        if path.is_file() and "pack" not in path.parts:
            assert text.lower().encode() not in path.read_bytes().lower(), path


def commits(root: Path) -> list[tuple[str, str, str, str]]:
    """(id, author, author date, subject) of every commit on main, oldest first."""
    out = git(root, "log", "--reverse", "--format=%H%x1f%an <%ae>%x1f%aI%x1f%s", "main")
    return [tuple(line.split("\x1f")) for line in out.splitlines()]  # type: ignore[misc]


def save(*args: str) -> dict[str, str]:
    """Save a memory; what ``mem show --json`` says of it."""
    identity = mem("save", *args).stdout.strip()
    return dict(mem_json("show", identity)[0])


def test_purge_removes_every_trace_and_keeps_everything_else(store: Path) -> None:
    first = save("Caching uses a write-through policy", "--key", "cache")
    secret = save(f"The launch codename is {CODENAME}", "--key", "launch")
    mem("save", "Queues are drained before deploys", "--key", "queue")
    mem("save", "--key", "launch", "--fact", f"{CODENAME} ships in May")
    mem("forget", "cache", "launch")
    mem("save", "Deploys happen on Tuesdays", "--key", "deploy")
    before = commits(store)
    assert CODENAME in all_history(store)

    result = mem("forget", "--purge", "-y", secret["id"])
    assert f"purged {secret['id']}" in result.stdout
    assert "2 commit(s) dropped, 1 changed" in result.stderr

    assert_gone(store, CODENAME)
    # Its id stays only in purged.txt, committed last, so that every clone purges it too.
    *after, tombstone = commits(store)
    assert tombstone[3] == "purge: 1 memory"
    assert secret["id"] not in git(store, "log", "-p", "main~1")
    assert secret["id"] in (store / "purged.txt").read_text()
    # The commits before the first that touched it are the very same commits.
    assert after[:2] == before[:2]
    # The others keep author, date and subject; only the purged memory's own are gone,
    # and the forget it shared with another memory no longer counts it.
    expected = [c[1:] for c in before if "codename" not in c[3]]
    assert [c[1:] for c in after] == [
        (*c[:2], "forget: 1 memory") if c[2] == "forget: 2 memories" else c for c in expected
    ]
    forget_message = git(store, "log", "-1", "--format=%B", "main~2")
    assert forget_message.startswith("forget: 1 memory\n\n- discovery: Caching")
    assert first["id"] in forget_message
    assert git(store, "status", "--porcelain") == ""
    assert {hit["key"] for hit in mem_json("list")} == {"queue", "deploy"}
    mem("reindex", "--check")
    assert mem("restore", secret["id"], expect=1).stderr.startswith("Error: no forgotten memory")


def test_purge_follows_a_memory_across_renames_by_hand(store: Path) -> None:
    mem("save", "Tokens rotate weekly", "--key", "keep")
    saved = save(f"{CODENAME} is the staging host", "--key", "host")
    old = store / saved["path"]
    new = old.with_name("renamed by hand, café.md")  # fast-export quotes this path
    git(store, "mv", old.relative_to(store).as_posix(), new.relative_to(store).as_posix())
    git(store, "commit", "-q", "-m", f"Rename the {CODENAME} memory")
    mem("forget", "--purge", "-y", "host")
    assert_gone(store, CODENAME)  # also the hand commit's message in COMMIT_EDITMSG
    assert [hit["key"] for hit in mem_json("list")] == ["keep"]
    assert "Rename the" not in all_history(store)  # it only renamed that memory


def test_purge_without_a_terminal_refuses_unless_yes_is_given(store: Path) -> None:
    """An agent's shell has no terminal to ask on: a history rewrite needs -y there."""
    secret = save(f"The launch codename is {CODENAME}", "--key", "launch")
    head = git(store, "rev-parse", "HEAD")
    env = {"MEM_STORE": str(store)}
    refused = run_mem("forget", "--purge", secret["id"], input="", env=env)
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1 and "-y" in refused.stderr
    assert refused.stdout == ""
    assert git(store, "rev-parse", "HEAD") == head and CODENAME in all_history(store)
    purged = run_mem("forget", "--purge", "-y", secret["id"], input="", env=env)
    assert purged.returncode == 0, purged.stderr
    assert_gone(store, CODENAME)


def test_purge_refuses_uncommitted_changes_and_touches_nothing(store: Path) -> None:
    saved = save(f"{CODENAME} again", "--key", "x")
    path = store / saved["path"]
    path.write_text(path.read_text() + "\nedited by hand\n")
    head = git(store, "rev-parse", "HEAD")
    result = mem("forget", "--purge", "-y", "x", expect=1)
    assert "uncommitted changes" in result.stderr
    assert git(store, "rev-parse", "HEAD") == head and "edited by hand" in path.read_text()


def test_purged_history_replaces_the_remote_only_with_a_lease(store: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    mem("remote", "add", str(remote))
    mem("save", "Shared knowledge stays", "--key", "shared")
    secret = save(f"{CODENAME} leaked into a memory", "--key", "oops")
    mem("sync")
    result = mem("forget", "--purge", "-y", secret["id"])
    assert "mem sync --force-with-lease" in result.stderr

    refused = mem("sync", expect=1)
    assert "mem sync --force-with-lease" in refused.stderr
    assert CODENAME.encode() not in all_objects(store)  # the refused sync fetched nothing

    mem("sync", "--force-with-lease")
    assert CODENAME not in git(remote, "log", "--all", "-p")
    fresh = tmp_path / "fresh"
    mem("clone", f"file://{remote}", "--store", str(fresh))  # not a local hard-link copy
    assert CODENAME.encode() not in all_objects(fresh)
    assert [hit["key"] for hit in mem_json("list", "--store", str(fresh))] == ["shared"]
    assert "already in step" in mem("sync").stdout


def test_force_with_lease_refuses_when_the_remote_moved_on(store: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    mem("remote", "add", str(remote))
    secret = save(f"{CODENAME} in a memory", "--key", "oops")
    mem("sync")
    other = tmp_path / "other"
    mem("clone", str(remote), "--store", str(other))
    mem("save", "Someone else saved this meanwhile", "--store", str(other))
    mem("sync", "--store", str(other))

    mem("forget", "--purge", "-y", secret["id"])
    before = git(remote, "rev-parse", "main")
    refused = mem("sync", "--force-with-lease", expect=1)
    assert "changed since mem last saw it" in refused.stderr
    assert git(remote, "rev-parse", "main") == before


def test_a_purge_killed_half_way_is_finished_by_doctor(store: Path) -> None:
    mem("save", "Kept memory about queues", "--key", "kept")
    secret = save(f"{CODENAME} must not survive a crash", "--key", "gone")
    killed = run_mem(
        "forget",
        "--purge",
        "-y",
        secret["id"],
        env={"MEM_STORE": str(store), "MEM_CRASH_AT": "purge-imported"},
    )
    assert killed.returncode == -9
    assert git(store, "status", "--porcelain") == ""  # never a file doctor would commit back
    assert "a `mem forget --purge` was interrupted" in mem("doctor", expect=1).stdout
    fixed = mem("doctor", "--fix")
    assert "finished an interrupted purge" in fixed.stdout
    assert_gone(store, CODENAME)
    assert [hit["key"] for hit in mem_json("list")] == ["kept"]
    assert secret["id"] in (store / "purged.txt").read_text()  # recorded all the same
    mem("doctor")
    mem("reindex", "--check")


@pytest.mark.parametrize("name", ["tab\there.md", 'a "quoted" name.md', "two\nlines.md"])
def test_purge_removes_a_file_whose_name_git_quotes(store: Path, name: str) -> None:
    mem("save", "Tokens rotate weekly", "--key", "keep")
    saved = save(f"{CODENAME} is the staging host", "--key", "host")
    old = store / saved["path"]
    git(
        store,
        "mv",
        old.relative_to(store).as_posix(),
        (old.parent / name).relative_to(store).as_posix(),
    )
    git(store, "commit", "-q", "-m", "Rename by hand")
    result = mem("forget", "--purge", "-y", "host")
    assert f"purged {saved['id']}" in result.stdout
    assert not (old.parent / name).exists()
    assert_gone(store, CODENAME)
    assert [hit["key"] for hit in mem_json("list")] == ["keep"]
    assert git(store, "status", "--porcelain") == ""


def test_purge_does_not_say_purged_while_a_copy_keeps_the_text(store: Path) -> None:
    saved = save(f"{CODENAME} is the staging host", "--key", "host")
    (store / "archive").mkdir()
    (store / "archive" / "old.md").write_text((store / saved["path"]).read_text())
    git(store, "add", "archive")
    git(store, "commit", "-q", "--no-verify", "-m", "Keep a copy")
    result = mem("forget", "--purge", "-y", "host", expect=1)
    assert "purged" not in result.stdout
    assert "could not take" in result.stderr and saved["id"] in result.stderr


def _shared(tmp_path: Path, store: Path) -> tuple[Path, Path, dict[str, str]]:
    """A remote, the store (clone A) and clone C, both holding a memory to purge."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    mem("remote", "add", str(remote))
    mem("save", "Shared knowledge stays", "--key", "shared")
    secret = save(f"{CODENAME} leaked into a memory", "--key", "oops")
    mem("sync")
    other = tmp_path / "c"
    mem("clone", str(remote), "--store", str(other))
    return remote, other, secret


def test_a_purge_reaches_every_clone_through_sync(store: Path, tmp_path: Path) -> None:
    remote, other, secret = _shared(tmp_path, store)
    mem("save", "C saved this before it heard of the purge", "--store", str(other))
    mem("forget", "--purge", "-y", secret["id"])
    mem("sync", "--force-with-lease")

    synced = mem("sync", "--store", str(other))
    assert f"applied the purge of {secret['id']}" in synced.stdout
    assert CODENAME.encode() not in all_objects(other)
    assert CODENAME not in git(remote, "log", "--all", "-p")
    keys = [hit["key"] for hit in mem_json("list", "--store", str(other))]
    assert "oops" not in keys and "shared" in keys
    assert not mem_json("search", CODENAME, "--mode", "lexical", "--store", str(other))
    refused = mem("restore", secret["id"], "--store", str(other), expect=1)
    assert "it was purged" in refused.stderr

    mem("sync")
    titles = [hit["title"] for hit in mem_json("list")]
    assert "C saved this before it heard of the purge" in titles
    assert not any(CODENAME in t for t in titles)
    assert CODENAME.encode() not in all_objects(store)


def test_sync_refuses_to_push_a_purged_memory_back(store: Path, tmp_path: Path) -> None:
    remote, other, secret = _shared(tmp_path, store)
    copy = (other / secret["path"]).read_text()
    mem("forget", "--purge", "-y", secret["id"])
    mem("sync", "--force-with-lease")
    mem("sync", "--store", str(other))
    (other / secret["path"]).write_text(copy)  # brought back by hand
    git(other, "add", secret["path"])
    git(other, "commit", "-q", "--no-verify", "-m", "bring it back")
    before = git(remote, "rev-parse", "main")
    refused = mem("sync", "--store", str(other), expect=1)
    assert secret["id"] in refused.stderr and "purged" in refused.stderr
    assert git(remote, "rev-parse", "main") == before


def test_applying_a_purge_refuses_uncommitted_changes(store: Path, tmp_path: Path) -> None:
    _, other, secret = _shared(tmp_path, store)
    mem("forget", "--purge", "-y", secret["id"])
    mem("sync", "--force-with-lease")
    path = other / secret["path"]
    path.write_text(path.read_text() + "\nedited in C\n")
    refused = mem("sync", "--store", str(other), expect=1)
    assert "uncommitted" in refused.stderr and secret["id"] in refused.stderr
    assert "edited in C" in path.read_text()


def test_a_purged_memory_cannot_come_back_by_a_hand_commit(store: Path) -> None:
    save(f"The launch codename is {CODENAME}", "--key", "launch")
    path = mem_json("search", CODENAME)[0]["path"]
    kept = (store / path).read_bytes()
    mem("forget", "--purge", "-y", "launch")

    (store / path).parent.mkdir(parents=True, exist_ok=True)
    (store / path).write_bytes(kept)
    git(store, "add", path)
    refused = subprocess.run(
        ["git", "commit", "-q", "-m", "bring it back"], cwd=store, capture_output=True, text=True
    )
    assert refused.returncode != 0 and "purged" in refused.stderr

    git(store, "commit", "-q", "--no-verify", "-m", "bring it back anyway")
    assert mem_json("search", CODENAME) == []
    assert "purged" in mem("reindex", "--full").stderr
    assert "purged" in mem("doctor", expect=None).output


def test_a_commit_taking_ids_out_of_purged_txt_is_refused(store: Path) -> None:
    secret = save(f"The launch codename is {CODENAME}", "--key", "launch")
    mem("forget", "--purge", "-y", "launch")
    listed = (store / "purged.txt").read_text()
    (store / "purged.txt").write_text(listed.replace(f"{secret['id']}\n", ""))
    git(store, "add", "purged.txt")
    refused = subprocess.run(
        ["git", "commit", "-q", "-m", "unpurge"], cwd=store, capture_output=True, text=True
    )
    assert refused.returncode != 0
    assert f"purged.txt: takes {secret['id']} out" in refused.stderr
    git(store, "rm", "-q", "--cached", "purged.txt")
    refused = subprocess.run(
        ["git", "commit", "-q", "-m", "unpurge"], cwd=store, capture_output=True, text=True
    )
    assert refused.returncode != 0 and secret["id"] in refused.stderr
    assert git(store, "show", "HEAD:purged.txt") == listed


def test_a_purge_is_refused_while_the_stash_holds_work(store: Path) -> None:
    save(f"The launch codename is {CODENAME}", "--key", "launch")
    kept = save("Work in progress on queues", "--key", "queue")
    path = store / kept["path"]
    path.write_text(path.read_text() + "\nuncommitted thought\n")
    git(store, "stash", "-q")
    head = git(store, "rev-parse", "HEAD")
    refused = mem("forget", "--purge", "-y", "launch", expect=1)
    assert "git stash list" in refused.stderr
    assert git(store, "rev-parse", "HEAD") == head
    assert CODENAME in all_history(store)
    git(store, "stash", "pop", "-q")
    assert "uncommitted thought" in path.read_text()


KEEPING_EDITOR = """
import pathlib, subprocess, sys
path = pathlib.Path(sys.argv[1])
path.write_text(path.read_text() + "\\nThe codename {codename} is in this edit\\n")
subprocess.run([{mem!r}, "save", "--key", "launch", "--fact", "meanwhile", "x"], check=True)
"""


def test_a_purge_deletes_the_text_kept_from_a_refused_edit(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from .conftest import mem_executable

    save("The launch happens in May", "--key", "launch")
    script = tmp_path / "editor.py"
    script.write_text(KEEPING_EDITOR.format(mem=mem_executable(), codename=CODENAME))
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)
    refused = mem("edit", "launch", expect=1)
    kept = Path(refused.stderr.split("kept in ")[1].split()[0].rstrip(";:,"))
    assert kept.is_relative_to(store / ".cache") and CODENAME in kept.read_text()
    mem("forget", "--purge", "-y", "launch")
    assert not kept.exists()
    assert_gone(store, CODENAME)
