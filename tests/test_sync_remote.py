"""Two stores share memory through a bare git remote and converge."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import git, mem, mem_executable, run_mem

pytestmark = pytest.mark.e2e


def at(store: Path, *args: str, input: str | None = None, expect: int | None = 0) -> Any:
    return mem(*args, "--store", str(store), input=input, expect=expect)


def seen(store: Path) -> dict[str, Any]:
    """The files and what search shows: what must be equal on both sides."""
    files = {
        str(p.relative_to(store)): p.read_bytes() for p in (store / "observations").rglob("*.md")
    }
    queries = {
        q: json.loads(at(store, "search", q, "--json", "--limit", "50").stdout)
        for q in ("caching", "alice", "bob", "shared")
    }
    return {"files": files, "search": queries}


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    at(alice, "init", "--remote", str(remote))
    at(alice, "save", "Shared caching decision from the start", "--key", "shared-cache")
    assert "pushed the store to origin/main" in at(alice, "sync").stdout
    assert "1 memory indexed" in mem("clone", str(remote), "--store", str(bob)).stdout
    return alice, bob


def test_two_stores_converge_with_no_lost_memory(pair: tuple[Path, Path]) -> None:
    alice, bob = pair
    for n in range(3):
        at(alice, "save", f"Alice learned caching lesson {n}", "--type", "discovery")
        at(bob, "save", f"Bob learned caching lesson {n}", "--type", "gotcha")
    at(alice, "save", "Alice's keyed note about caching", "--key", "alice-note")
    at(bob, "save", "Bob's note to be forgotten", "--key", "bob-temp")
    at(bob, "forget", "bob-temp")
    at(alice, "save", "Alice's keyed note about caching, revised", "--key", "alice-note")
    at(alice, "sync")
    at(bob, "sync")
    at(alice, "sync")
    assert seen(alice) == seen(bob)
    titles = {h["title"] for h in json.loads(at(alice, "list", "--json", "--limit", "100").stdout)}
    assert len(titles) == 1 + 3 + 3 + 1
    note = json.loads(at(bob, "show", "alice-note", "--json").stdout)[0]
    assert note["narrative"] == "Alice's keyed note about caching, revised"
    assert "Bob's note to be forgotten" not in titles
    assert git(alice, "status", "--porcelain") == git(bob, "status", "--porcelain") == ""
    assert "already in step" in at(bob, "sync").stdout


def test_a_real_conflict_stops_and_continues(pair: tuple[Path, Path]) -> None:
    alice, bob = pair
    at(alice, "save", "Shared caching decision: use Redis", "--key", "shared-cache")
    at(bob, "save", "Shared caching decision: use Memcached", "--key", "shared-cache")
    at(alice, "sync")
    stopped = at(bob, "sync", expect=1)
    assert "the same memory changed on both sides: observations/" in stopped.stderr
    assert "mem sync --continue" in stopped.stderr
    assert "rebase" in git(bob, "status")
    conflicted = git(bob, "diff", "--name-only", "--diff-filter=U").split()
    assert len(conflicted) == 1
    git(bob, "checkout", "--theirs", conflicted[0])  # keep Bob's version
    git(bob, "add", conflicted[0])
    resumed = at(bob, "sync", "--continue")
    assert "finished the rebase" in resumed.stdout and "pushed" in resumed.stdout
    at(alice, "sync")
    assert seen(alice) == seen(bob)
    shown = json.loads(at(alice, "show", "shared-cache", "--json").stdout)[0]
    assert shown["narrative"] == "Shared caching decision: use Memcached"


def test_sync_without_a_remote_says_how_to_add_one(tmp_path: Path) -> None:
    store = tmp_path / "lonely"
    at(store, "init")
    result = at(store, "sync", expect=1)
    assert "no remote: add one with `mem remote add URL`" in result.stderr


def bare_remote(path: Path, branch: str) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", "-b", branch, str(path)], check=True)
    return path


def remote_branches(remote: Path) -> list[str]:
    return git(remote, "for-each-ref", "--format=%(refname:short)", "refs/heads").split()


def test_clone_takes_the_memory_branch_when_the_remote_head_names_another(
    tmp_path: Path,
) -> None:
    remote = bare_remote(tmp_path / "remote.git", "master")  # as `git init --bare` makes it
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    at(alice, "init", "--remote", str(remote))
    at(alice, "save", "Alice's memory about caching", "--key", "alice-note")
    at(alice, "sync")
    cloned = mem("clone", str(remote), "--store", str(bob))
    assert f"into {bob}: 1 memory indexed" in cloned.stdout
    assert git(bob, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert json.loads(at(bob, "show", "alice-note", "--json").stdout)[0]["title"]
    at(bob, "save", "Bob's memory about caching", "--key", "bob-note")
    assert "pushed 1 commit to origin/main" in at(bob, "sync").stdout
    assert remote_branches(remote) == ["main"]
    at(alice, "sync")
    assert seen(alice) == seen(bob)


def test_clone_never_reports_an_empty_store_for_a_remote_with_memories(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "remote.git", "master")
    alice = tmp_path / "alice"
    at(alice, "init", "--remote", str(remote))
    at(alice, "save", "A memory on a branch of its own")
    for branch in ("team-a", "team-b"):
        git(alice, "push", "-q", "origin", f"HEAD:refs/heads/{branch}")
    target = tmp_path / "clone"  # the place, like `git clone URL DIR`
    refused = mem("clone", str(remote), str(target), expect=1)
    assert "team-a, team-b" in refused.stderr and "--branch" in refused.stderr
    assert not target.exists()
    cloned = mem("clone", str(remote), str(target), "--branch", "team-b")
    assert "1 memory indexed" in cloned.stdout
    assert git(target, "symbolic-ref", "--short", "HEAD").strip() == "team-b"
    unknown = mem("clone", str(remote), str(tmp_path / "other"), "--branch", "nope", expect=1)
    assert "no branch nope" in unknown.stderr
    assert not (tmp_path / "other").exists()


def test_clone_of_an_empty_remote_makes_a_store_on_main(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "remote.git", "master")
    store = tmp_path / "store"
    assert "0 memories indexed" in mem("clone", str(remote), "--store", str(store)).stdout
    at(store, "save", "The first memory of the team")
    assert "pushed the store to origin/main" in at(store, "sync").stdout
    assert remote_branches(remote) == ["main"]


def test_clone_takes_one_place(tmp_path: Path) -> None:
    result = mem(
        "clone", str(tmp_path / "r.git"), str(tmp_path / "a"), "--store", str(tmp_path), expect=2
    )
    assert "DIR" in result.output


def test_a_local_edit_the_remote_also_changed_is_set_aside(pair: tuple[Path, Path]) -> None:
    alice, bob = pair
    at(alice, "save", "Shared caching decision: use Redis", "--key", "shared-cache")
    at(alice, "sync")
    path = json.loads(at(bob, "show", "shared-cache", "--json").stdout)[0]["path"]
    edited = (bob / path).read_text().replace("from the start", "edited by Bob, not committed")
    (bob / path).write_text(edited)
    stopped = at(bob, "sync", expect=1)
    message = " ".join(stopped.stderr.split())
    assert path in message and "stash@{0}" in message
    assert f"git -C {bob} stash pop" in message
    # A state saves can use: clean, nothing unmerged, at what the remote has.
    assert git(bob, "status", "--porcelain") == ""
    assert git(bob, "rev-parse", "HEAD") == git(bob, "rev-parse", "origin/main")
    shown = json.loads(at(bob, "show", "shared-cache", "--json").stdout)[0]
    assert shown["narrative"] == "Shared caching decision: use Redis"
    # Nothing lost: the edit is in the stash the message names.
    assert "edited by Bob, not committed" in git(bob, "stash", "show", "-p", "stash@{0}")
    at(bob, "save", "Bob saves after the sync", "--key", "bob-after")
    assert "pushed 1 commit" in at(bob, "sync").stdout


STALLING_TRANSPORT = """#!/bin/sh
# The remote's side of the transport: it stalls while a save runs on the store.
MEM_LOCK_TIMEOUT=1 "{mem}" save --store "{store}" "Saved while the remote stalls" \\
    > "{log}" 2>&1
echo $? >> "{log}"
exec git {program} "$@"
"""


@pytest.mark.parametrize("program", ["upload-pack", "receive-pack"])
def test_a_save_succeeds_while_sync_waits_for_the_remote(
    pair: tuple[Path, Path], tmp_path: Path, program: str
) -> None:
    alice, _ = pair
    log = tmp_path / "save.log"
    script = tmp_path / f"stalling-{program}"
    script.write_text(
        STALLING_TRANSPORT.format(mem=mem_executable(), store=alice, log=log, program=program)
    )
    script.chmod(0o755)
    git(alice, "config", f"remote.origin.{program.replace('-', '')}", str(script))
    at(alice, "save", "Alice's memory to push")
    result = at(alice, "sync")
    assert "pushed" in result.stdout
    assert log.read_text().splitlines()[-1] == "0", log.read_text()
    assert "Saved while the remote stalls" in {
        h["title"] for h in json.loads(at(alice, "list", "--json").stdout)
    }


MOVING_RECEIVE_PACK = """#!/bin/sh
# The first push finds the remote moved on: Bob pushed after Alice fetched.
if [ ! -e "{marker}" ]; then
    : > "{marker}"
    git -C "{bob}" commit -q --allow-empty -m "Bob pushed in between" &&
        git -C "{bob}" push -q origin HEAD:refs/heads/main || exit 1
fi
exec git receive-pack "$@"
"""


def test_sync_retries_when_the_remote_moves_before_the_push(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    alice, bob = pair
    script = tmp_path / "moving-receive-pack"
    script.write_text(MOVING_RECEIVE_PACK.format(marker=tmp_path / "moved", bob=bob))
    script.chmod(0o755)
    git(alice, "config", "remote.origin.receivepack", str(script))
    at(alice, "save", "Alice pushed after Bob")
    result = at(alice, "sync")
    assert "rebased onto origin/main" in result.stdout
    assert "pushed 1 commit to origin/main" in result.stdout
    pushed = git(tmp_path / "remote.git", "log", "--format=%s", "main").splitlines()
    assert pushed[0].endswith("Alice pushed after Bob")
    assert pushed[1] == "Bob pushed in between"


def test_a_rejected_push_shows_the_remotes_reason(pair: tuple[Path, Path], tmp_path: Path) -> None:
    alice, _ = pair
    hook = tmp_path / "remote.git/hooks/pre-receive"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\necho 'memories need a review: open a pull request' >&2\nexit 1\n")
    hook.chmod(0o755)
    at(alice, "save", "A memory the remote refuses")
    result = at(alice, "sync", expect=1)
    assert "memories need a review: open a pull request" in result.stderr
    assert "pre-receive hook declined" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", ["clone", "remote"])
def test_a_url_is_never_taken_as_an_option_for_git(tmp_path: Path, command: str) -> None:
    marker = tmp_path / "ran"
    url = f"--upload-pack=touch {marker}"
    if command == "clone":
        result = mem("clone", "--store", str(tmp_path / "c"), "--", url, expect=None)
    else:
        mem("init", "--store", str(tmp_path / "s"))
        result = mem("remote", "add", "--store", str(tmp_path / "s"), "--", url, expect=None)
    assert result.exit_code == 1 and "not a remote URL" in result.stderr
    assert not marker.exists() and not (tmp_path / "c").exists()


def _commit_cache_link(store: Path, outside: Path) -> None:
    """Replace the store's .cache by a link to ``outside`` and commit it, bypassing the hook."""
    shutil.rmtree(store / ".cache")
    (store / ".cache").symlink_to(outside)
    git(store, "add", "-f", ".cache")
    git(store, "commit", "-q", "--no-verify", "-m", "a cache link")


@pytest.mark.parametrize("kind", ["link", "file"])
def test_a_cache_that_is_no_folder_of_the_store_is_refused(tmp_path: Path, kind: str) -> None:
    store, outside = tmp_path / "store", tmp_path / "outside"
    outside.mkdir()
    at(store, "init")
    at(store, "save", "A memory before the cache moved")
    shutil.rmtree(store / ".cache")
    if kind == "link":
        (store / ".cache").symlink_to(outside)
    else:
        (store / ".cache").write_text("not a folder\n")
    head = git(store, "rev-parse", "HEAD")
    for args in (["save", "A memory after"], ["search", "memory"], ["list"]):
        refused = at(store, *args, expect=1)
        assert f"{store / '.cache'} is a" in refused.stderr and "remove it" in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
    assert list(outside.iterdir()) == []
    assert git(store, "rev-parse", "HEAD") == head


def test_clone_refuses_a_branch_that_tracks_the_cache(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "remote.git", "main")
    alice, bob, outside = tmp_path / "alice", tmp_path / "bob", tmp_path / "outside"
    outside.mkdir()
    at(alice, "init", "--remote", str(remote))
    at(alice, "save", "Alice's memory about caching")
    at(alice, "sync")
    _commit_cache_link(alice, outside)
    git(alice, "push", "-q", "origin", "main")
    refused = mem("clone", str(remote), "--store", str(bob), expect=1)
    assert "tracks .cache" in refused.stderr
    assert not bob.exists()
    assert list(outside.iterdir()) == []


def test_sync_refuses_a_remote_branch_that_tracks_the_cache(pair: tuple[Path, Path]) -> None:
    alice, bob = pair
    outside = bob.parent / "outside"
    outside.mkdir()
    _commit_cache_link(alice, outside)
    git(alice, "push", "-q", "origin", "main")
    head = git(bob, "rev-parse", "HEAD")
    refused = at(bob, "sync", expect=1)
    assert "origin/main tracks .cache" in refused.stderr
    assert git(bob, "rev-parse", "HEAD") == head
    assert (bob / ".cache").is_dir() and not (bob / ".cache").is_symlink()
    at(bob, "save", "Bob saves on")
    assert list(outside.iterdir()) == []


def test_clone_prefers_the_branch_with_memories_to_the_one_head_names(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "remote.git", "master")
    alice, plain, dave = tmp_path / "alice", tmp_path / "plain", tmp_path / "dave"
    at(alice, "init", "--remote", str(remote))
    at(alice, "save", "Alice's memory about caching", "--key", "alice-note")
    at(alice, "sync")
    git(tmp_path, "init", "-q", "-b", "master", str(plain))
    (plain / "README").write_text("a project\n")
    git(plain, "add", "README")
    git(plain, "commit", "-q", "-m", "readme")
    git(plain, "push", "-q", str(remote), "master")
    cloned = mem("clone", str(remote), "--store", str(dave))
    assert "1 memory indexed" in cloned.stdout
    assert git(dave, "symbolic-ref", "--short", "HEAD").strip() == "main"
    at(dave, "save", "Dave's memory")
    assert "to origin/main" in at(dave, "sync").stdout
    assert git(remote, "ls-tree", "--name-only", "master").split() == ["README"]


def test_clone_asks_for_a_branch_when_several_other_branches_hold_memories(
    tmp_path: Path,
) -> None:
    remote = bare_remote(tmp_path / "remote.git", "master")
    alice, plain = tmp_path / "alice", tmp_path / "plain"
    at(alice, "init")
    at(alice, "save", "A memory on team branches")
    for branch in ("team-a", "team-b"):
        git(alice, "push", "-q", str(remote), f"HEAD:refs/heads/{branch}")
    git(tmp_path, "init", "-q", "-b", "master", str(plain))
    (plain / "README").write_text("a project\n")
    git(plain, "add", "README")
    git(plain, "commit", "-q", "-m", "readme")
    git(plain, "push", "-q", str(remote), "master")
    refused = mem("clone", str(remote), str(tmp_path / "c"), expect=1)
    assert "team-a, team-b" in refused.stderr and "--branch" in refused.stderr
    assert not (tmp_path / "c").exists()


def test_remote_list_and_remove(tmp_path: Path) -> None:
    store = tmp_path / "store"
    at(store, "init")
    assert at(store, "remote", "list", "--json").stdout.strip() == "[]"
    added = json.loads(at(store, "remote", "add", str(tmp_path / "a.git"), "--json").stdout)
    assert added == {"name": "origin", "url": str(tmp_path / "a.git")}
    at(store, "remote", "add", str(tmp_path / "b.git"), "--name", "backup")
    listed = json.loads(at(store, "remote", "list", "--json").stdout)
    assert listed == [
        {"name": "backup", "url": str(tmp_path / "b.git")},
        {"name": "origin", "url": str(tmp_path / "a.git")},
    ]
    assert (
        at(store, "remote", "list").stdout
        == f"backup\t{tmp_path / 'b.git'}\norigin\t{tmp_path / 'a.git'}\n"
    )
    at(store, "remote", "remove", "backup")
    assert [r["name"] for r in json.loads(at(store, "remote", "list", "--json").stdout)] == [
        "origin"
    ]
    assert json.loads(at(store, "remote", "remove", "origin", "--json").stdout) == {
        "removed": "origin"
    }
    refused = at(store, "remote", "remove", "backup", expect=1)
    assert "no remote named 'backup'" in refused.stderr


def test_init_and_clone_report_in_json(pair: tuple[Path, Path], tmp_path: Path) -> None:
    carol = tmp_path / "carol"
    cloned = json.loads(mem("clone", str(tmp_path / "remote.git"), str(carol), "--json").stdout)
    assert cloned == {
        "store": str(carol),
        "url": str(tmp_path / "remote.git"),
        "branch": "main",
        "memories": 1,
    }
    fresh = json.loads(mem("init", "--store", str(tmp_path / "dave"), "--json").stdout)
    assert fresh == {"store": str(tmp_path / "dave"), "created": True, "remote": None}
    again = json.loads(mem("init", "--store", str(tmp_path / "dave"), "--json").stdout)
    assert again["created"] is False


@pytest.fixture
def silent_remote() -> Iterator[str]:
    """The address of a server that takes connections and never answers: a remote hung
    for good."""
    listener = socket.create_server(("127.0.0.1", 0))
    taken: list[socket.socket] = []

    def take() -> None:
        with contextlib.suppress(OSError):  # until the listener closes
            while True:
                taken.append(listener.accept()[0])

    thread = threading.Thread(target=take, daemon=True)
    thread.start()
    yield f"127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    thread.join(timeout=10)
    for connection in taken:
        connection.close()


def test_sync_and_clone_stop_when_the_remote_never_answers(
    pair: tuple[Path, Path], silent_remote: str, tmp_path: Path
) -> None:
    alice, _ = pair
    env = {"MEM_GIT_TIMEOUT": "0.5"}
    url = f"git://{silent_remote}/memory.git"
    git(alice, "remote", "set-url", "origin", url)
    fetch = run_mem("sync", "--store", str(alice), env=env)
    assert fetch.returncode == 1, fetch
    assert fetch.stderr == (
        f"Error: git fetch from origin ({url}) did not finish within 0.5 s, so it was stopped "
        "(MEM_GIT_TIMEOUT sets the limit)\n"
    )
    # fetching works, pushing hangs: through git's helper for http, a process of its own
    git(alice, "remote", "set-url", "origin", str(tmp_path / "remote.git"))
    pushurl = f"http://user:secret@{silent_remote}/memory.git"
    git(alice, "remote", "set-url", "--push", "origin", pushurl)
    at(alice, "save", "Alice's memory to push")
    push = run_mem("sync", "--store", str(alice), env=env)
    assert push.returncode == 1 and push.stderr.count("\n") == 1, push
    assert push.stderr.startswith(
        f"Error: git push to origin (http://{silent_remote}/memory.git) did not finish"
    )
    clone = run_mem("clone", url, str(tmp_path / "carol"), env=env)
    assert clone.returncode == 1 and clone.stderr.count("\n") == 1, clone
    assert clone.stderr.startswith(f"Error: git clone of {url} did not finish within 0.5 s")
    assert not (tmp_path / "carol").exists()
    bad = run_mem("sync", "--store", str(alice), env={"MEM_GIT_TIMEOUT": "soon"})
    assert bad.returncode == 1 and bad.stderr.startswith("Error: MEM_GIT_TIMEOUT must be"), bad


def test_sync_reports_in_json(pair: tuple[Path, Path]) -> None:
    alice, bob = pair
    at(alice, "save", "Alice's lesson about queues", "--type", "discovery")
    at(alice, "sync")
    report = json.loads(at(bob, "sync", "--json").stdout)
    assert set(report) == {"steps", "indexed"} and set(report["indexed"]) == {"added", "removed"}
    assert report["steps"] and all(isinstance(step, str) for step in report["steps"])
    assert "Alice's lesson about queues" in at(bob, "list").stdout


def test_a_token_in_a_remote_url_is_never_printed(tmp_path: Path) -> None:
    store = tmp_path / "store"
    at(store, "init")
    secret_url = "https://bob:s3cr3t-t0ken@example.invalid/team/memory.git"
    added = at(store, "remote", "add", secret_url, "--name", "tok").stdout
    listed = at(store, "remote", "list").stdout + at(store, "remote", "list", "--json").stdout
    status = mem("status", "--store", str(store)).stdout
    for shown in (added, listed, status):
        assert "s3cr3t-t0ken" not in shown and "example.invalid/team/memory.git" in shown
