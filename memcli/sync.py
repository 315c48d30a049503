"""Sharing memory through any git remote: clone, add a remote, sync.

``sync`` fetches, rebases the local memory commits onto the remote branch, pushes,
and brings the index up to date. One file per memory and ULID ids mean two people
saving never touch the same file, so rebases go through; when two people changed
the same memory, it stops, lists the files, and leaves the repository in a state
``git status`` explains, to be finished with ``mem sync --continue``.
It never commits anything on the user's behalf: uncommitted edits are set aside
for the rebase (``--autostash``) and put back.
"""

from __future__ import annotations

import json
import shutil

from memcli.errors import StoreError
from memcli.gitrepo import GitError
from memcli.purge import lease_path, read_lease
from memcli.store import GITIGNORE, Store

CONTINUE_ENV = {"GIT_EDITOR": "true"}  # keep the messages of rebased commits as they are


class SyncConflict(StoreError):
    """Two sides changed the same memory; the rebase stopped for a person to decide."""


def remote_name(store: Store) -> str:
    remotes = store.git.out(["remote"]).split()
    if not remotes:
        raise StoreError("the store has no remote: add one with `mem remote add URL`")
    return "origin" if "origin" in remotes else remotes[0]


def current_branch(store: Store) -> str:
    branch = store.git.out(["symbolic-ref", "--quiet", "--short", "HEAD"])
    if not branch:
        raise StoreError("the store is on a detached HEAD: check out a branch first")
    return branch


def sync(store: Store, *, resume: bool = False, force_with_lease: bool = False) -> list[str]:
    """Fetch, rebase, push. Returns what happened, one line each.

    After ``mem forget --purge`` rewrote history, only ``force_with_lease`` may
    push: a plain sync would fetch the purged memories back.
    """
    done: list[str] = []
    remote = remote_name(store)
    if force_with_lease:
        return _force_push(store, remote)
    if any(ref.startswith(f"refs/remotes/{remote}/") for ref in read_lease(store)):
        raise StoreError(
            "`mem forget --purge` rewrote the store's history since the last sync: run "
            "`mem sync --force-with-lease` to replace the remote's history (a plain sync "
            "would fetch the purged memories back)"
        )
    if resume:
        if store.git.operation_in_progress() != "a rebase":
            raise StoreError("no sync is waiting to be continued")
        _rebase(store, ["rebase", "--continue"])
        done.append("finished the rebase")
    else:
        store.check_writable()
    branch = current_branch(store)
    store.git.run(["fetch", "--quiet", remote])
    upstream = f"{remote}/{branch}"
    has_upstream = (
        store.git.run(
            ["rev-parse", "--verify", "--quiet", f"refs/remotes/{upstream}"], check=False
        ).returncode
        == 0
    )
    if has_upstream and not resume:
        before = store.head()
        _rebase(store, ["rebase", "--autostash", upstream])
        if store.head() != before:
            done.append(f"rebased onto {upstream}")
    ahead = int(store.git.out(["rev-list", "--count", f"{upstream}..HEAD"])) if has_upstream else 1
    if ahead:
        store.git.run(["push", "--quiet", remote, f"HEAD:refs/heads/{branch}"])
        store.git.run(["branch", "--quiet", f"--set-upstream-to={upstream}"], check=False)
        what = f"{ahead} commit{'s' * (ahead > 1)}" if has_upstream else "the store"
        done.append(f"pushed {what} to {upstream}")
    if not done:
        done.append(f"already in step with {upstream}")
    return done


def _force_push(store: Store, remote: str) -> list[str]:
    """Replace the remote branch, only if it is still what mem last saw there."""
    store.check_writable()
    branch = current_branch(store)
    tracking = f"refs/remotes/{remote}/{branch}"
    lease = read_lease(store)
    if lease:
        # What the remote had before the purge; empty: it had no such branch.
        expected = f"refs/heads/{branch}:{lease.get(tracking, '')}"
    else:
        expected = f"refs/heads/{branch}"
    try:
        store.git.run(
            [
                "push",
                "--quiet",
                f"--force-with-lease={expected}",
                remote,
                f"HEAD:refs/heads/{branch}",
            ]
        )
    except GitError as exc:
        raise StoreError(
            f"{remote} changed since mem last saw it, so its history was not replaced "
            f"({exc}). Someone pushed commits built on the old history: `git fetch {remote}`, "
            f"cherry-pick what is new on {remote}/{branch} onto {branch}, run the purge "
            "again, then retry"
        ) from None
    remaining = {
        ref: sha for ref, sha in lease.items() if not ref.startswith(f"refs/remotes/{remote}/")
    }
    if remaining:
        lease_path(store).write_text(json.dumps(remaining, indent=1) + "\n", encoding="utf-8")
    else:
        lease_path(store).unlink(missing_ok=True)
    store.git.run(["fetch", "--quiet", remote])
    store.git.run(["branch", "--quiet", f"--set-upstream-to={remote}/{branch}"], check=False)
    return [f"replaced the history of {remote}/{branch} (force-pushed with a lease)"]


def _rebase(store: Store, args: list[str]) -> None:
    try:
        store.git.run(args, env=CONTINUE_ENV)
    except GitError:
        conflicted = store.git.out(["diff", "--name-only", "--diff-filter=U"]).split()
        if not conflicted:
            raise
        raise SyncConflict(
            "the same memory changed on both sides: "
            + ", ".join(conflicted)
            + f". Edit the file(s) in {store.root} to keep what is right, `git add` them, "
            "then run `mem sync --continue` (or `git rebase --abort` to give up)"
        ) from None


def clone(url: str, store: Store, branch: str | None = None) -> str:
    """Clone the branch that holds the memories; return its name.

    The remote's HEAD may name a branch it does not have (``git init --bare``
    names ``master``; mem's branch is ``main``), so the branch is chosen from the
    branches the remote has: ``branch`` when given, else the one its HEAD names,
    else ``main``, else its only branch. An empty remote gives a new store on
    ``main``. When the remote has branches but none can be chosen, nothing is left.
    """
    root = store.root
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise StoreError(f"{root} exists and is not empty; choose another place")
    existed = root.exists()
    root.parent.mkdir(parents=True, exist_ok=True)
    Store(root.parent).git.run(["clone", "--quiet", "--no-checkout", url, str(root)])
    try:
        store.git.run(["config", "core.splitIndex", "true"])
        remote = remote_name(store)
        chosen = _memory_branch(store, url, remote, branch)
        if chosen is None:
            store.git.run(["symbolic-ref", "HEAD", "refs/heads/main"])
            (root / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
            with store.write_lock():
                store.commit([".gitignore"], [], "init: mem store")
            return "main"
        store.git.run(["checkout", "--quiet", "-f", "-B", chosen, "--track", f"{remote}/{chosen}"])
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        if existed:
            root.mkdir(exist_ok=True)
        raise
    return chosen


def _memory_branch(store: Store, url: str, remote: str, wanted: str | None) -> str | None:
    """Which of the remote's branches to check out; None when it has none."""
    prefix = f"refs/remotes/{remote}/"
    refs = store.git.out(["for-each-ref", "--format=%(refname)", prefix]).split()
    branches = sorted(ref[len(prefix) :] for ref in refs if ref != f"{prefix}HEAD")
    if wanted is not None:
        if wanted not in branches:
            have = ", ".join(branches) or "no branches"
            raise StoreError(f"{url} has no branch {wanted} (it has: {have})")
        return wanted
    if not branches:
        return None
    head = store.git.run(["symbolic-ref", "--quiet", f"{prefix}HEAD"], check=False)
    named = head.stdout.decode().strip().removeprefix(prefix)
    for candidate in (named, "main"):
        if candidate in branches:
            return candidate
    if len(branches) == 1:
        return branches[0]
    raise StoreError(
        f"{url} has no branch main and its HEAD names none of its branches "
        f"({', '.join(branches)}), so mem cannot tell which one holds the memories: "
        "pass --branch NAME"
    )


def add_remote(store: Store, url: str, name: str = "origin") -> None:
    store.git.run(["remote", "add", name, url])
