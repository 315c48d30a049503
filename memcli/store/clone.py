"""``mem clone``: a store made from an existing memory repository.

The transfer is ``git clone``, bounded in time (``store.network``); GitPython's
progress parser, off every hot path, turns git's progress into one line on a
terminal. Everything after the transfer (choosing the branch, checking it out)
is plumbing, as elsewhere.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from memcli.core import journal
from memcli.core.errors import StoreError
from memcli.store.files import GITIGNORE, MEMORY_DIRS, Store
from memcli.store.git import GitError, first_line
from memcli.store.network import run_git, shown_url
from memcli.store.remote import (
    check_url,
    refuse_shared_repository,
    refuse_tracked_cache,
    remote_name,
)


def clone(url: str, store: Store, branch: str | None = None) -> str:
    """Clone the branch that holds the memories; return its name.

    The remote's HEAD may name a branch it does not have (``git init --bare``
    names ``master``; mem's branch is ``main``), or a branch without memories (a
    project's README), so the branch is chosen among the branches whose tree
    holds a memory folder (all of them when none does): ``branch`` when given,
    else the one its HEAD names, else ``main``, else the only one. An empty
    remote gives a new store on ``main``. When the remote has branches but none
    can be chosen, or the chosen one tracks ``.cache``, nothing is left.
    """
    refuse_shared_repository(store, "mem clone")
    root = store.root
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise StoreError(f"{root} exists and is not empty; choose another place")
    existed = root.exists()
    root.parent.mkdir(parents=True, exist_ok=True)
    check_url(url)
    try:
        _clone_without_checkout(url, root)
        store.git.run(["config", "core.splitIndex", "true"])
        remote = remote_name(store)
        chosen = _memory_branch(store, url, remote, branch)
        if chosen is None:
            store.git.run(["symbolic-ref", "HEAD", "refs/heads/main"])
            (root / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
            with store.write_lock():
                store.commit([".gitignore"], [], journal.INIT_MESSAGE)
            return "main"
        refuse_tracked_cache(store, f"refs/remotes/{remote}/{chosen}", f"{url} (branch {chosen})")
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
    holding = [b for b in branches if _holds_memories(store, f"{prefix}{b}")]
    candidates = holding or branches
    for candidate in (named, "main"):
        if candidate in candidates:
            return candidate
    if len(candidates) == 1:
        return candidates[0]
    if holding:
        raise StoreError(
            f"{url} holds memories on several branches ({', '.join(holding)}), none of them "
            "main or the one its HEAD names, so mem cannot tell which one to take: "
            "pass --branch NAME"
        )
    raise StoreError(
        f"{url} has no branch main and its HEAD names none of its branches "
        f"({', '.join(branches)}), so mem cannot tell which one holds the memories: "
        "pass --branch NAME"
    )


def _holds_memories(store: Store, ref: str) -> bool:
    """Whether the tree of ``ref`` has one of mem's memory folders."""
    out = store.git.run(["ls-tree", "--name-only", "-z", ref, "--", *MEMORY_DIRS]).stdout
    return bool(out)


def _clone_without_checkout(url: str, root: Path) -> None:
    """``git clone --no-checkout -- URL ROOT``, with progress on stderr when it is a terminal,
    stopped past ``MEM_GIT_TIMEOUT``.

    git's own ``protocol.allow`` policy decides which transports may be used, as
    it does for ``git clone``; ``check_url`` has already refused options.
    """
    from memcli.store.clone_progress import CloneProgress

    progress = CloneProgress(shown=sys.stderr.isatty())
    try:
        result = run_git(
            ["clone", "--no-checkout", "--progress", "--", url, str(root)],
            cwd=root.parent,
            what=f"git clone of {shown_url(url)}",
            on_line=progress.new_message_handler(),
        )
    finally:
        progress.end_line()
    if result.returncode != 0:
        raise GitError(f"git clone failed: {first_line(result.stderr)}")
