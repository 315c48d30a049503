"""What the project is working on now: the files changed in its work tree and on its branch.

One ``git diff --name-only`` call, bounded in time: against the point where the
current branch left the default branch (``--merge-base``), or against HEAD when
the current branch is the default one. Which branch is the default is read from
the repository's own files (``origin/HEAD``, else ``main``, else ``master``), so
that no second git call is needed. Nothing at all (no subprocess) when the
directory is in no git work tree, or when that work tree is the store itself.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

GIT_TIMEOUT = 1.0
MAX_FILES = 2000
"""Changed files taken into account at most (a huge diff says little about the task)."""
MAX_REF_BYTES = 4096
MAX_PACKED_REFS_BYTES = 1 << 20
DEFAULT_BRANCHES = ("main", "master", "trunk", "develop")
GENERIC_WORDS = frozenset(
    {
        "src",
        "lib",
        "libs",
        "test",
        "tests",
        "spec",
        "doc",
        "docs",
        "app",
        "apps",
        "pkg",
        "cmd",
        "internal",
        "main",
        "init",
        "index",
        "util",
        "utils",
        "common",
        "readme",
        "core",
        "scripts",
    }
)
"""Parts of a path too common to say what a change is about (never matched as concepts)."""
_WORD_RE = re.compile(r"[a-z][a-z0-9]{2,}")


@dataclass(frozen=True)
class WorkingSet:
    """The project's changed files (relative to its top) and the words their paths hold."""

    files: tuple[str, ...] = ()
    top: Path | None = None
    """The top of the project's git work tree (None: it is in none)."""
    base: str = ""
    """What the files changed against: ``HEAD`` or ``merge-base with <branch>``."""
    words: frozenset[str] = field(default_factory=frozenset)

    @property
    def paths(self) -> list[str]:
        """The changed files and every folder holding one: a memory may name either."""
        found: dict[str, None] = {}
        for path in self.files:
            found[path] = None
            parts = path.split("/")
            for end in range(1, len(parts)):
                found["/".join(parts[:end])] = None
        return list(found)


def path_words(files: tuple[str, ...]) -> frozenset[str]:
    """The words of the changed paths a memory's concepts may name (``retrieval``, ``context``)."""
    words: set[str] = set()
    for path in files:
        for part in path.lower().split("/"):
            stem = part.rsplit(".", 1)[0] if "." in part[1:] else part
            words.update(w for w in _WORD_RE.findall(stem.replace("test_", "")))
    return frozenset(words - GENERIC_WORDS)


def _git_dirs(directory: Path) -> tuple[Path, Path, Path] | None:
    """The work tree's top, its git directory and the common one (worktrees share it)."""
    try:
        here = directory.resolve()
    except OSError:
        return None
    for top in (here, *here.parents):
        dot_git = top / ".git"
        if dot_git.is_dir():
            return top, dot_git, dot_git
        if dot_git.is_file():
            text = _read(dot_git)
            if not text or not text.startswith("gitdir:"):
                return None
            git_dir = (top / text[len("gitdir:") :].strip()).resolve()
            common = _read(git_dir / "commondir")
            return top, git_dir, (git_dir / common.strip()).resolve() if common else git_dir
    return None


def _read(path: Path, limit: int = MAX_REF_BYTES) -> str | None:
    try:
        with path.open("rb") as handle:
            return handle.read(limit).decode("utf-8", "replace")
    except OSError:
        return None


def _has_ref(common: Path, ref: str) -> bool:
    if (common / ref).is_file():
        return True
    packed = _read(common / "packed-refs", MAX_PACKED_REFS_BYTES) or ""
    return any(line.endswith(" " + ref) for line in packed.splitlines())


def _default_branch(common: Path) -> str | None:
    """The default branch's ref: what ``origin/HEAD`` points at, else a usual name."""
    symref = _read(common / "refs" / "remotes" / "origin" / "HEAD") or ""
    if symref.startswith("ref: refs/remotes/"):
        return symref[len("ref: ") :].strip()
    for name in DEFAULT_BRANCHES:
        if _has_ref(common, f"refs/heads/{name}"):
            return f"refs/heads/{name}"
    return None


def _against(git_dir: Path, common: Path) -> list[str]:
    """The arguments of ``git diff`` saying what the work is measured against."""
    head = (_read(git_dir / "HEAD") or "").strip()
    current = head[len("ref: ") :] if head.startswith("ref: ") else None
    default = _default_branch(common)
    if default is None or default == current:
        return ["HEAD"]
    if current is not None and default.startswith("refs/remotes/"):
        local = "refs/heads/" + default.split("/", 3)[3]
        if local == current:
            return ["HEAD"]  # on the default branch: what is not committed yet
    return ["--merge-base", default]


def working_set(project: Path, store_root: Path, timeout: float = GIT_TIMEOUT) -> WorkingSet:
    """The files changed in ``project``'s work tree and branch; empty when it has none."""
    from memcli.store.git import run_project_git

    dirs = _git_dirs(project)
    if dirs is None:
        return WorkingSet()
    top, git_dir, common = dirs
    try:
        if top == store_root.resolve():
            return WorkingSet(top=top)  # the store's own files are not the project's work
    except OSError:
        return WorkingSet(top=top)
    against = _against(git_dir, common)
    argv = ["git", "diff", "--name-only", "-z", "--no-renames", *against, "--"]
    try:
        done = run_project_git(argv, top, timeout)
    except (subprocess.TimeoutExpired, OSError):
        return WorkingSet(top=top)
    if done.returncode != 0:
        return WorkingSet(top=top)
    names = [n for n in done.stdout.decode("utf-8", "replace").split("\x00") if n]
    files = tuple(names[:MAX_FILES])
    base = "HEAD" if against == ["HEAD"] else f"merge-base with {against[1].split('/', 2)[2]}"
    return WorkingSet(files, top, base, path_words(files))
