"""Sharing memory through any git remote: add a remote, sync with it.

:func:`sync_with_remote` fetches, rebases the local memory commits onto the remote branch, pushes,
and brings the index up to date. One file per memory and ULID ids mean two people
saving never touch the same file, so rebases go through; when two people changed
the same memory, it stops, lists the files, and leaves the repository in a state
``git status`` explains, to be finished with ``mem sync --continue``.
It never commits anything on the user's behalf: uncommitted edits are set aside
for the rebase (``--autostash``) and put back; when putting them back conflicts,
they stay in git's stash and the work tree is left clean, so saves go on.

The write lock is held only for the local steps (the rebase). Fetching and
pushing wait on the network and run without it, so a slow or hung remote never
blocks a save; a push refused because the remote's branch moved meanwhile is
retried from the fetch, as a person would.
"""

from __future__ import annotations

import json
import subprocess

from memcli.core.errors import StoreError
from memcli.store import pending
from memcli.store.files import CACHE_DIR, Store
from memcli.store.git import GitError, first_line, remote_said
from memcli.store.network import run_git, shown_url
from memcli.store.purge import apply_fetched_purges, lease_path, read_lease
from memcli.store.tombstone import refuse_purged

CONTINUE_ENV = {"GIT_EDITOR": "true"}  # keep the messages of rebased commits as they are
PUSH_ATTEMPTS = 3
"""Pushes refused because the remote's branch moved on; each is followed by a new fetch."""


class SyncConflict(StoreError):
    """Two sides changed the same memory; the rebase stopped for a person to decide."""


class PushRefused(StoreError):
    """The remote refused a push; the message carries the remote's own reason."""


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


def sync_with_remote(
    store: Store, *, resume: bool = False, force_with_lease: bool = False
) -> list[str]:
    """Fetch, rebase, push. Returns what happened, one line each.

    Takes the store's write lock itself, only around the rebase. After ``mem
    forget --purge`` rewrote history, only ``force_with_lease`` may push: a plain
    sync would fetch the purged memories back.
    """
    refuse_shared_repository(store, "mem sync")
    done: list[str] = []
    remote = remote_name(store)
    if force_with_lease:
        return _force_push(store, remote)
    _refuse_after_purge(store, remote)
    set_aside: list[str] = []
    if resume:
        with store.write_lock():
            if store.git.operation_in_progress() != "a rebase":
                raise StoreError("no sync is waiting to be continued")
            set_aside = _rebase(store, ["rebase", "--continue"])
        done.append("finished the rebase")
    else:
        store.check_writable()  # before any network: a store mid-rebase cannot sync
    branch = current_branch(store)
    upstream = f"{remote}/{branch}"
    try:
        _exchange(store, remote, branch, done, set_aside)
    except StoreError as exc:
        if set_aside:  # whatever else failed, say where the uncommitted changes are
            raise StoreError(f"{exc}\n{_set_aside_message(store, upstream, set_aside)}") from None
        raise
    if not done:
        done.append(f"already in step with {upstream}")
    if set_aside:
        synced = f"synced with {upstream} ({'; '.join(done)}), but "
        raise StoreError(synced + _set_aside_message(store, upstream, set_aside))
    return done


def _exchange(
    store: Store, remote: str, branch: str, done: list[str], set_aside: list[str]
) -> None:
    """Fetch, rebase under the write lock, push; again from the fetch if the remote moved.

    Appends what happened to ``done``, and to ``set_aside`` the files whose
    uncommitted changes were left in git's stash.
    """
    upstream = f"{remote}/{branch}"
    for _attempt in range(PUSH_ATTEMPTS):
        fetch(store, remote)
        with store.write_lock():
            _refuse_after_purge(store, remote)
            store.check_writable()
            settled = pending.recover(store)  # before a rebase moves HEAD from under it
            if settled:
                done.append(settled)
            has_upstream = _has_ref(store, f"refs/remotes/{upstream}")
            if has_upstream:
                refuse_tracked_cache(store, f"refs/remotes/{upstream}", upstream)
                done += apply_fetched_purges(store, upstream)
                before = store.head()
                set_aside += _rebase(store, ["rebase", "--autostash", upstream])
                rebased = f"rebased onto {upstream}"
                if store.head() != before and rebased not in done:
                    done.append(rebased)
            refuse_purged(store, upstream if has_upstream else None)
            tip = store.head()
        if tip is None:
            return
        ahead = (
            int(store.git.out(["rev-list", "--count", f"{upstream}..{tip}"])) if has_upstream else 1
        )
        if not ahead:
            return
        rejected = _push(store, remote, f"{tip}:refs/heads/{branch}")
        if rejected is None:
            store.git.run(["branch", "--quiet", f"--set-upstream-to={upstream}"], check=False)
            what = f"{ahead} commit{'s' * (ahead > 1)}" if has_upstream else "the store"
            done.append(f"pushed {what} to {upstream}")
            return
        if rejected not in ("fetch first", "non-fast-forward"):
            raise PushRefused(f"{remote} refused the push: [rejected] ({rejected})")
    raise StoreError(
        f"{upstream} moved on during each of {PUSH_ATTEMPTS} attempts to push; "
        "nothing was lost: run `mem sync` again"
    )


def _refuse_after_purge(store: Store, remote: str) -> None:
    if any(ref.startswith(f"refs/remotes/{remote}/") for ref in read_lease(store)):
        raise StoreError(
            "`mem forget --purge` rewrote the store's history since the last sync: run "
            "`mem sync --force-with-lease` to replace the remote's history (a plain sync "
            "would fetch the purged memories back)"
        )


def refuse_tracked_cache(store: Store, ref: str, name: str) -> None:
    """Refuse a branch whose tree tracks mem's derived folder ``.cache``.

    Checked out, a committed ``.cache`` (a link, a file, files in it) would take
    the place of the store's own index and locks, and could point outside it.
    """
    out = store.git.run(["ls-tree", "--name-only", "-z", ref, "--", CACHE_DIR]).stdout
    if out:
        raise StoreError(
            f"{name} tracks {CACHE_DIR}, mem's local folder for its index and locks (it could "
            f"make mem read and write outside the store), so nothing was changed here: remove "
            f"it from that branch (`git rm -r --cached {CACHE_DIR}`, commit, push), then retry"
        )


def fetch(store: Store, remote: str) -> None:
    """``git fetch`` from ``remote``, within the network's time limit."""
    result = _network(store, remote, ["fetch", "--quiet", remote])
    if result.returncode != 0:
        raise GitError(f"git fetch failed: {first_line(result.stderr)}")


def _network(store: Store, remote: str, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    """``git fetch`` or ``git push`` to ``remote``, stopped past ``MEM_GIT_TIMEOUT``."""
    pushing = args[0] == "push"

    def what() -> str:  # asked only for the error: no git call on every fetch and push
        url = store.git.run(
            ["remote", "get-url", *(["--push"] if pushing else []), remote], check=False
        )
        where = shown_url(url.stdout.decode("utf-8", "replace").strip())
        return f"git {args[0]} {'to' if pushing else 'from'} {remote} ({where})"

    return run_git(args, cwd=store.git.worktree, what=what)


def _has_ref(store: Store, ref: str) -> bool:
    result = store.git.run(["rev-parse", "--verify", "--quiet", ref], check=False)
    return result.returncode == 0


def _set_aside_message(store: Store, upstream: str, paths: list[str]) -> str:
    stash = store.git.out(["rev-parse", "--short", "refs/stash"])
    return (
        f"your uncommitted changes conflict with what came from {upstream} in "
        f"{', '.join(paths)}. All of them are kept in git's stash as stash@{{0}} "
        f"(commit {stash}) and the store is clean, so saves go on. To apply them: "
        f"`git -C {store.root} stash pop`, "
        "fix the conflict markers in the file(s), `git add` and commit them, then "
        "`git stash drop`"
    )


def _push(store: Store, remote: str, refspec: str, *options: str) -> str | None:
    """Push; None when it went through.

    When git itself rejected the push because the remote's branch is not what
    was expected ("fetch first", "non-fast-forward", "stale info"), that reason
    is returned. Any other failure (the remote refused, the connection failed)
    raises, with what the remote said.
    """
    result = _network(store, remote, ["push", "--porcelain", *options, remote, refspec])
    if result.returncode == 0:
        return None
    summary = ""
    for line in result.stdout.decode("utf-8", "replace").splitlines():
        flag, _, rest = line.partition("\t")
        if flag == "!" and rest:
            summary = rest.partition("\t")[2].strip()
    if summary.startswith("[rejected]"):
        return summary.partition("(")[2].rstrip(")") or summary
    problem = (
        f"{remote} refused the push: {summary}"
        if summary
        else f"git push to {remote} failed: {first_line(result.stderr)}"
    )
    said = remote_said(result.stderr)
    raise PushRefused("\n".join([problem, *(f"{remote} said: {line}" for line in said)]))


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
    rejected = _push(store, remote, f"HEAD:refs/heads/{branch}", f"--force-with-lease={expected}")
    if rejected is not None:
        raise StoreError(
            f"{remote} changed since mem last saw it, so its history was not replaced "
            f"({rejected}). Someone pushed commits built on the old history: `git fetch {remote}`, "
            f"cherry-pick what is new on {remote}/{branch} onto {branch}, run the purge "
            "again, then retry"
        )
    with store.write_lock():  # only for the lease file: never across the network
        remaining = {
            ref: sha
            for ref, sha in read_lease(store).items()
            if not ref.startswith(f"refs/remotes/{remote}/")
        }
        if remaining:
            lease_path(store).write_text(json.dumps(remaining, indent=1) + "\n", encoding="utf-8")
        else:
            lease_path(store).unlink(missing_ok=True)
    fetch(store, remote)
    store.git.run(["branch", "--quiet", f"--set-upstream-to={remote}/{branch}"], check=False)
    return [f"replaced the history of {remote}/{branch} (force-pushed with a lease)"]


def _rebase(store: Store, args: list[str]) -> list[str]:
    """Rebase; the files whose uncommitted changes conflicted when put back after it.

    ``--autostash`` applies the set-aside changes once the rebase is done; when that
    conflicts, git keeps them in its stash, leaves conflict markers and unmerged
    files (on which every commit fails) and still succeeds. The stash holds all of
    those changes, so the work tree is reset to the rebased commit.
    """
    stash_before = _stash(store)
    try:
        store.git.run(args, env=CONTINUE_ENV)
    except GitError:
        conflicted = _unmerged(store)
        if not conflicted:
            raise
        raise SyncConflict(
            "the same memory changed on both sides: "
            + ", ".join(conflicted)
            + f". Edit the file(s) in {store.root} to keep what is right, `git add` them, "
            "then run `mem sync --continue` (or `git rebase --abort` to give up)"
        ) from None
    conflicted = _unmerged(store)
    if conflicted and store.git.operation_in_progress() is None:
        if _stash(store) in (None, stash_before):
            raise StoreError(
                f"your uncommitted changes to {', '.join(conflicted)} conflict with the "
                f"synced memories and were not kept in git's stash: the conflict markers "
                f"are in the file(s) in {store.root}; fix them, then commit them"
            )
        store.git.run(["reset", "--quiet", "--hard", "HEAD"])
    return conflicted


def _unmerged(store: Store) -> list[str]:
    out = store.git.run(["diff", "--name-only", "-z", "--diff-filter=U"]).stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def _stash(store: Store) -> str | None:
    result = store.git.run(["rev-parse", "--verify", "--quiet", "refs/stash"], check=False)
    return result.stdout.decode().strip() or None


def refuse_shared_repository(store: Store, what: str) -> None:
    """A team store's repository is the project's: mem never moves it to or from a remote."""
    if not store.own_repository:
        raise StoreError(
            f"{store.root} is the team layer, a folder of the project's repository: it "
            f"syncs with the project's own git (git pull, git push), not with {what}"
        )


def add_remote(store: Store, url: str, name: str = "origin") -> None:
    refuse_shared_repository(store, "mem remote")
    check_url(url)
    store.git.run(["remote", "add", "--", name, url])


def list_remotes(store: Store) -> list[tuple[str, str]]:
    """Each remote's name and fetch URL, in git's order; a password or token in a URL is
    left out (these are for showing)."""
    output = store.git.run(["remote", "-v"]).stdout.decode(errors="replace")
    remotes: dict[str, str] = {}
    for line in output.splitlines():
        name, _, rest = line.partition("\t")
        url, _, kind = rest.rpartition(" ")
        if kind == "(fetch)":
            remotes.setdefault(name, shown_url(url))
    return list(remotes.items())


def remove_remote(store: Store, name: str) -> None:
    """Forget a remote; the memories it shared stay in the store."""
    if name not in dict(list_remotes(store)):
        raise StoreError(f"the store has no remote named {name!r}; `mem remote list` shows them")
    store.git.run(["remote", "remove", "--", name])


def check_url(url: str) -> str:
    """A URL or path for git, never an option (``--upload-pack=…`` runs a command)."""
    if not url or url.startswith("-") or any(c in url for c in "\0\n\r"):
        raise StoreError(f"{url!r} is not a remote URL: give a URL or a path to a repository")
    return url
