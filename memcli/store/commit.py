"""One commit of chosen paths, made with git plumbing.

``update-index``, ``write-tree``, ``commit-tree`` and ``update-ref`` under the
store's write lock: parallel agents never race each other for git's
``index.lock``, no hook runs, and a save costs a few git processes whatever
the size of the store.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import TYPE_CHECKING

from memcli.core.crashpoints import crash_point
from memcli.core.errors import StoreError
from memcli.store.git import FALLBACK_EMAIL, FALLBACK_NAME, Git

if TYPE_CHECKING:
    import subprocess

    from memcli.store.team import TeamGit

_GIT_LOCK_WAIT_SECONDS = 5.0
_HOOK_TIMEOUT_SECONDS = 120.0


def commit_paths(git: Git, added: list[str], removed: list[str], message: str) -> str:
    """Commit exactly these paths as they are in the work tree; return the commit.

    Callers hold the write lock. Plumbing keeps the cost flat as the store
    grows (no status scan, no hooks). The paths are also staged in git's
    index, so ``git status`` stays clean; anything a person staged by hand
    stays staged and out of this commit.
    """
    parent = git.head()
    wait_for_git_index_lock(git)
    paths = [*added, *removed]
    stdin = "\0".join(paths) + "\0"
    git.run(["update-index", "--add", "--remove", "-z", "--stdin"], input=stdin)
    crash_point("staged")
    try:
        tree = git.out(["write-tree"])
        if parent and _tree_has_more_than(git, parent, tree, paths):
            tree = _tree_of_only(git, parent, stdin)
        args = ["commit-tree", tree, "-F", "-"] + (["-p", parent] if parent else [])
        commit = git.out(args, input=message, env=_identity(git))
        crash_point("commit-written")
        git.run(["update-ref", "-m", message.splitlines()[0], "HEAD", commit, parent or ""])
        crash_point("ref-updated")
    except StoreError:
        # Put git's index back for these paths so nothing stays staged.
        if parent:
            git.run(["reset", "-q", parent, "--", *paths], check=False)
        else:
            git.run(["rm", "-q", "--cached", "--", *added], check=False)
        raise
    return commit


def commit_with_hooks(git: TeamGit, added: list[str], removed: list[str], message: str) -> str:
    """Commit exactly these paths with ``git commit --only``, so that the repository's own
    hooks run (pre-commit, commit-msg, ``core.hooksPath``); return the commit.

    For a folder of a project's repository (the team layer): a team's secret scanner
    or message check must see mem's commit as it sees everyone's. Anything else the
    person staged stays staged and out of the commit. When git refuses (a hook says
    no), git's index entries of these paths are put back as they were and the error
    names the hook's last line.
    """
    wait_for_git_index_lock(git)
    paths = [*added, *removed]
    before = git.run(["ls-files", "-s", "-z", "--", *paths]).stdout
    # `git commit -- PATH` takes only paths git knows: a new file is added first.
    stdin = "\0".join(paths) + "\0"
    git.run(["update-index", "--add", "--remove", "-z", "--stdin"], input=stdin)
    crash_point("staged")
    args = ["commit", "--quiet", "--cleanup=verbatim", "--only", "-F", "-", "--", *paths]
    done = _bounded(git, args, message, _identity(git))
    if done is None:
        _put_back(git, paths, before)
        raise StoreError(
            f"git commit in the project did not finish in {hook_timeout():g} s (a hook, or "
            "commit signing waiting for a passphrase, was stopped; MEM_GIT_HOOK_TIMEOUT sets "
            "the limit): nothing was saved"
        )
    if done.returncode != 0:
        _put_back(git, paths, before)
        said = (done.stderr + done.stdout).decode("utf-8", "replace").strip().splitlines()
        reason = said[-1].strip()[:200] if said else f"exit status {done.returncode}"
        raise StoreError(
            f"git commit in the project was refused ({reason}): its pre-commit or commit-msg "
            "hook said no, or git could not commit; nothing was saved"
        )
    crash_point("ref-updated")
    return git.out(["rev-parse", "HEAD"])


def hook_timeout() -> float:
    """``MEM_GIT_HOOK_TIMEOUT``: seconds a ``git commit`` with the project's hooks may take."""
    try:
        return max(0.1, float(os.environ.get("MEM_GIT_HOOK_TIMEOUT", _HOOK_TIMEOUT_SECONDS)))
    except ValueError:
        return _HOOK_TIMEOUT_SECONDS


def _bounded(
    git: TeamGit, args: list[str], message: str, env: dict[str, str]
) -> subprocess.CompletedProcess[bytes] | None:
    """``git`` with ``args`` (its hooks included) in a process group of its own, stopped
    as a whole after ``hook_timeout()``: None then. A hook's own children are stopped too
    (they would hold the output pipes open), and git is asked first (SIGTERM) so that
    it removes its ``index.lock``."""
    import signal
    import subprocess

    from memcli.store.git import clean_env

    process = subprocess.Popen(
        ["git", *args],
        cwd=git.worktree,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=clean_env(env),
        start_new_session=True,
    )
    try:
        out, err = process.communicate(message.encode("utf-8"), timeout=hook_timeout())
    except subprocess.TimeoutExpired:
        for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, None)):
            with contextlib.suppress(ProcessLookupError):
                if sys.platform == "win32":  # pragma: no cover - no process groups there
                    process.kill()
                else:
                    os.killpg(process.pid, sig)
            try:
                process.communicate(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        return None
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def _put_back(git: TeamGit, paths: list[str], listing: bytes) -> None:
    """git's index entries of ``paths`` as ``ls-files -s -z`` listed them before
    (``--index-info`` takes paths from the top of the work tree, not the folder)."""
    entries: dict[str, str] = {}
    for line in listing.split(b"\0"):
        meta, tab, path = line.decode("utf-8", "surrogateescape").partition("\t")
        if tab:
            mode, blob, _ = meta.split(" ", 2)
            entries[path] = f"{mode} {blob}\t{git.prefix}{path}\0"
    gone = [p for p in paths if p not in entries]
    if gone:
        git.run(["update-index", "--force-remove", "-z", "--stdin"], input="\0".join(gone) + "\0")
    if entries:
        git.run(["update-index", "-z", "--index-info"], input="".join(entries.values()))


def _tree_has_more_than(git: Git, parent: str, tree: str, paths: list[str]) -> bool:
    """Whether ``tree`` differs from ``parent`` outside ``paths`` (hand-staged changes).

    ``diff-tree`` walks only the subtrees that differ: a few milliseconds.
    """
    changed = git.run(["diff-tree", "-r", "--name-only", "-z", parent, tree]).stdout
    return bool(
        {p for p in changed.decode("utf-8", "surrogateescape").split("\0") if p} - set(paths)
    )


def _tree_of_only(git: Git, parent: str, stdin: str) -> str:
    """The parent's tree plus these paths, built in a private index (the rare slow path)."""
    private = git.git_dir / f"mem-index.{os.getpid()}"
    env = {"GIT_INDEX_FILE": str(private)}
    try:
        git.run(["read-tree", parent], env=env)
        git.run(["update-index", "--add", "--remove", "-z", "--stdin"], input=stdin, env=env)
        return git.out(["write-tree"], env=env)
    finally:
        private.unlink(missing_ok=True)


def _identity(git: Git) -> dict[str, str]:
    """The user's git identity when set; otherwise a clear fallback, never a failure."""
    if os.environ.get("GIT_AUTHOR_EMAIL") and os.environ.get("GIT_COMMITTER_EMAIL"):
        return {}
    configured = git.run(
        ["config", "--get-regexp", r"^user\.(name|email)$"], check=False
    ).stdout.decode("utf-8", "replace")
    keys = {line.split(" ", 1)[0] for line in configured.splitlines()}
    env: dict[str, str] = {}
    if "user.name" not in keys:
        env.update(GIT_AUTHOR_NAME=FALLBACK_NAME, GIT_COMMITTER_NAME=FALLBACK_NAME)
    if "user.email" not in keys:
        env.update(GIT_AUTHOR_EMAIL=FALLBACK_EMAIL, GIT_COMMITTER_EMAIL=FALLBACK_EMAIL)
    return {k: v for k, v in env.items() if not os.environ.get(k)}


def wait_for_git_index_lock(git: Git) -> None:
    """Give a person's own git command in the store a moment to finish (at most 5 s, and
    not longer than ``MEM_LOCK_TIMEOUT``)."""
    from memcli.store.lock import lock_timeout

    lock = git.git_dir / "index.lock"
    deadline = time.monotonic() + min(_GIT_LOCK_WAIT_SECONDS, lock_timeout())
    while lock.exists():
        if time.monotonic() >= deadline:
            raise StoreError(
                f"git's {lock} exists: another git command is running in the store, or "
                "one crashed; if none is running, delete that file and try again"
            )
        time.sleep(0.05)
