"""Git through subprocesses, the way pre-commit drives it.

A ``git`` subprocess costs ~4 ms; constructing a GitPython ``Repo`` costs 60-120 ms
at import and its pure-Python index is 15x slower than plumbing. So the hot paths
(save, forget, every read's freshness check) use plumbing commands and read
``.git/HEAD`` directly; GitPython is kept for history browsing, where it helps.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.core import places
from memcli.core.errors import StoreError

if TYPE_CHECKING:
    import subprocess

# Variables git sets for hooks; inherited by a git we run on *another* repo they
# would point it at the wrong repository or index.
_REPO_ENV_VARS = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
    "GIT_QUARANTINE_PATH",
)
FALLBACK_NAME = "mem"
FALLBACK_EMAIL = "mem@localhost"


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _REPO_ENV_VARS}
    if extra:
        env.update(extra)
    return env


def run_project_git(
    argv: list[str], cwd: Path, timeout: float
) -> subprocess.CompletedProcess[bytes]:
    """A read-only ``git`` in a project's work tree (not the store's): never a prompt,
    never an optional lock, bounded in time (``subprocess.TimeoutExpired`` past it)."""
    import subprocess  # imported where it runs: the read path needs none

    return subprocess.run(
        argv,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        env=clean_env({"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}),
        check=False,
    )


def porcelain_paths(porcelain: str) -> list[str]:
    """The paths of ``git status --porcelain -z``; a rename's or copy's source is skipped."""
    entries = iter(porcelain.split("\0"))
    paths = []
    for entry in entries:
        if len(entry) > 3:
            paths.append(entry[3:])
            if entry[0] in "RC":
                next(entries, None)  # the path it was renamed or copied from
    return paths


class GitError(StoreError):
    """A git command failed; the message carries git's own first line of complaint."""


class Git:
    """Runs git in one repository's work tree."""

    def __init__(self, worktree: Path) -> None:
        self.worktree = worktree

    def uncommitted_paths(self) -> list[str]:
        """Paths changed in the work tree (untracked ones too) and not committed."""
        out = self.run(
            [
                "--no-optional-locks",  # git status would otherwise refresh .git/index
                "-c",
                "core.quotePath=false",
                "status",
                "--porcelain",
                "-z",
                "--untracked-files=all",
            ]
        ).stdout.decode("utf-8", "surrogateescape")
        return porcelain_paths(out)

    def run(
        self,
        args: Sequence[str],
        *,
        input: str | bytes | None = None,
        env: dict[str, str] | None = None,
        check: bool = True,
    ) -> subprocess.CompletedProcess[bytes]:
        import subprocess  # not on the read path, where HEAD is read from files

        data = input.encode("utf-8") if isinstance(input, str) else input
        try:
            result = subprocess.run(
                ["git", *args],
                cwd=self.worktree,
                input=data,
                capture_output=True,
                env=clean_env(env),
                check=False,
            )
        except FileNotFoundError:
            raise StoreError("git is not installed or not on PATH") from None
        if check and result.returncode != 0:
            if b"not a git repository" in result.stderr:
                self.head()  # a missing HEAD is named, with how to put it back
            raise GitError(f"git {args[0]} failed: {first_line(result.stderr)}")
        return result

    def cat_file_batch(
        self, specs: Sequence[str], env: dict[str, str] | None = None
    ) -> dict[str, bytes]:
        """The contents of many objects (``REV:path``, ``:path`` for the index) in one process.

        Specs that name no blob are left out of the answer.
        """
        if not specs:
            return {}
        request = "".join(f"{spec}\n" for spec in specs)
        out = self.run(["cat-file", "--batch"], input=request, env=env).stdout
        found: dict[str, bytes] = {}
        position = 0
        for spec in specs:
            newline = out.index(b"\n", position)
            header = out[position:newline].split()
            position = newline + 1
            if len(header) == 3 and header[1] == b"blob":
                size = int(header[2])
                found[spec] = out[position : position + size]
                position += size + 1
        return found

    def out(
        self,
        args: Sequence[str],
        *,
        input: str | bytes | None = None,
        env: dict[str, str] | None = None,
    ) -> str:
        """What the command printed, as stripped text."""
        return self.run(args, input=input, env=env).stdout.decode("utf-8", "replace").strip()

    # ------------------------------------------------------------ reading refs

    @property
    def git_dir(self) -> Path:
        return resolve_git_dir(self.worktree / ".git")

    def head(self) -> str | None:
        """The commit HEAD points at, or None on an unborn branch.

        Reads the ref files directly (microseconds) and asks git only for what
        it cannot read cheaply (reftable, symbolic chains, odd layouts).
        """
        git_dir = self.git_dir
        try:
            head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            raise StoreError(
                f"{self.worktree} is a broken git repository: .git/HEAD is missing (if its "
                "branch is main, write 'ref: refs/heads/main' into .git/HEAD)"
            ) from None
        except OSError as exc:
            raise StoreError(f"cannot read {git_dir / 'HEAD'}: {exc.strerror}") from None
        if places.is_oid(head):
            return head
        if head.startswith("ref: ") and not head.endswith(".invalid"):
            found = read_ref(git_dir, head[5:])
            if found is not None:
                return found
        result = self.run(["rev-parse", "-q", "--verify", "HEAD^{commit}"], check=False)
        oid = result.stdout.decode().strip()
        return oid if result.returncode == 0 and oid else None

    def detached(self) -> bool:
        """Whether HEAD names a commit rather than a branch."""
        try:
            return not (self.git_dir / "HEAD").read_text(encoding="utf-8").startswith("ref: ")
        except OSError:
            return False

    def operation_in_progress(self) -> str | None:
        """A merge, rebase, cherry-pick or revert stopped half way, if any."""
        git_dir = self.git_dir
        for marker, what in (
            ("rebase-merge", "a rebase"),
            ("rebase-apply", "a rebase"),
            ("MERGE_HEAD", "a merge"),
            ("CHERRY_PICK_HEAD", "a cherry-pick"),
            ("REVERT_HEAD", "a revert"),
        ):
            if (git_dir / marker).exists():
                return what
        return None


def read_ref(git_dir: Path, ref: str) -> str | None:
    return places.read_ref(str(git_dir), ref)


def resolve_git_dir(dotgit: Path) -> Path:
    """``.git`` itself, or where a ``gitdir:`` file (worktree, submodule) points."""
    return Path(places.resolve_git_dir(str(dotgit)))


def common_dir(git_dir: Path) -> Path:
    """The directory shared by all worktrees of a repository."""
    return Path(places.common_dir(str(git_dir)))


def work_tree_top(start: Path) -> Path | None:
    """The top of the git work tree ``start`` is in (a worktree's own top), or None."""
    top = places.work_tree_top(str(start))
    return None if top is None else Path(top)


def find_git_common_dir(start: Path) -> Path | None:
    """Walk up from ``start`` to the repository containing it; its common git dir."""
    top = work_tree_top(start)
    return None if top is None else common_dir(resolve_git_dir(top / ".git")).resolve()


def first_line(stderr: bytes) -> str:
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line.split(":", 1)[1].strip()
    return lines[0] if lines else "no message"


_TERMINAL_CODES_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|[\x00-\x1f\x7f-\x9f]")
REMOTE_LINES = 20
REMOTE_LINE_CHARS = 300


def remote_said(stderr: bytes) -> list[str]:
    """The lines a remote sent back (``remote: ...``, e.g. a pre-receive hook's reason).

    Bounded and stripped of terminal control codes: they come from another machine.
    """
    from memcli.core.secrets import redacted_head

    said = []
    for line in stderr.decode("utf-8", "replace").splitlines():
        if not line.startswith("remote:"):
            continue
        text = _TERMINAL_CODES_RE.sub("", line[len("remote:") :]).strip()
        if text:
            said.append(redacted_head(text, REMOTE_LINE_CHARS))
        if len(said) == REMOTE_LINES:
            break
    return said
