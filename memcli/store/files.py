"""The store: a git repository of memory files. Finding it, creating it, writing to it.

Every write is one commit, made with git plumbing (``update-index``,
``write-tree``, ``commit-tree``, ``update-ref``) under the store's write lock,
so parallel agents never race each other for git's ``index.lock`` and a save
costs a few git processes whatever the size of the store.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from memcli.core import journal
from memcli.core.crashpoints import crash_point
from memcli.core.errors import InvalidInput, InvalidMemoryFile, StoreError
from memcli.core.ids import ULID_RE
from memcli.store.git import FALLBACK_EMAIL, FALLBACK_NAME, Git, find_git_common_dir
from memcli.store.lock import exclusive_lock

if TYPE_CHECKING:
    from memcli.core.model import Record

MEMORY_DIRS = ("observations", "summaries")
"""Observations, then session summaries: the folders whose markdown files are memories."""
CACHE_DIR = ".cache"
INDEX_FILE = "index.db"
LOCK_FILE = "write.lock"
LOCAL_STORE_DIR = ".mem"
PURGED_FILE = "purged.txt"
"""Ids ``mem forget --purge`` removed from history (ids only): no mem lets them back in."""
GITIGNORE = """\
# Written by mem. The index and the locks are derived from the memory files
# and local to this machine: never commit them.
/.cache/
.*.tmp
"""
_PROJECT_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_GIT_LOCK_WAIT_SECONDS = 5.0
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


# ------------------------------------------------------------------ locating


class StoreLocation(NamedTuple):
    root: Path
    source: str
    """How it was found: ``--store``, ``MEM_STORE``, ``.mem``, or ``central``."""
    project: str | None = None


def mem_home() -> Path:
    """``$MEM_HOME``, else the platform's per-user data directory for mem."""
    configured = os.environ.get("MEM_HOME")
    if configured:
        return Path(configured).expanduser()
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "mem"
    if os.name == "nt":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / "mem"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "mem"


def check_project_name(name: str) -> str:
    if not _PROJECT_RE.fullmatch(name) or name in (".", ".."):
        raise InvalidInput(f"invalid project name {name!r}: use letters, digits, '.', '_' or '-'")
    return name


def project_name(cwd: Path) -> str | None:
    """The project the directory belongs to, named after its git repository.

    Derived from the *common* git dir, so every worktree of one repository (and
    agents use worktrees a lot) names the same project and shares one store.
    """
    common = find_git_common_dir(cwd)
    if common is None:
        return None
    name = common.parent.name if common.name == ".git" else common.name.removesuffix(".git")
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-")
    return name or "project"


def locate(store: str | None, project: str | None, cwd: Path) -> StoreLocation:
    """Where the store is; first match wins (SPEC section 1).

    ``--store``, then ``--project`` (a flag beats an environment variable), then
    ``MEM_STORE``, then a ``.mem/`` store found walking up from ``cwd``, then the
    central store of the git repository ``cwd`` is in.
    """
    if store:
        return StoreLocation(Path(store).expanduser().absolute(), "--store")
    if project is not None:
        return StoreLocation(mem_home() / check_project_name(project), "central", project)
    env_store = os.environ.get("MEM_STORE")
    if env_store:
        return StoreLocation(Path(env_store).expanduser().absolute(), "MEM_STORE")
    for directory in (cwd, *cwd.parents):
        candidate = directory / LOCAL_STORE_DIR
        if candidate.is_dir():
            return StoreLocation(candidate, ".mem")
    project = project_name(cwd)
    if project is None:
        raise StoreError(
            f"{cwd} is not inside a git repository, so mem cannot tell which project's "
            "memory to use: pass --project NAME or --store DIR, or run `mem init --local`"
        )
    return StoreLocation(mem_home() / check_project_name(project), "central", project)


def local_store_root(cwd: Path) -> Path:
    """Where ``mem init --local`` puts a store: ``.mem/`` at the top of the work tree."""
    for directory in (cwd, *cwd.parents):
        if (directory / ".git").exists():
            return directory / LOCAL_STORE_DIR
    return cwd / LOCAL_STORE_DIR


# --------------------------------------------------------------------- store


class Change(NamedTuple):
    """A memory file changed between two commits: ``status`` is git's letter (A, M, D, T)."""

    status: str
    path: str


class Store:
    """One project's memory repository."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.git = Git(root)
        self._inside: set[str] = set()
        """Folders already checked to lie inside the store (resolving is a syscall a part)."""
        self._purged: tuple[tuple[int, int, int], frozenset[str]] | None = None

    @property
    def index_path(self) -> Path:
        return self.root / CACHE_DIR / INDEX_FILE

    def exists(self) -> bool:
        return (self.root / ".git").exists()

    def write_lock(self) -> AbstractContextManager[None]:
        """The lock every write takes; in the git folder when the cache folder is unusable."""
        git_dir = self.root / ".git"
        fallback = git_dir / "mem-write.lock" if git_dir.is_dir() else None
        return exclusive_lock(self.root / CACHE_DIR / LOCK_FILE, fallback=fallback)

    # ------------------------------------------------------------- creating

    def create(self, *, exclude_from: Path | None = None) -> bool:
        """Make this directory a store; False when it already was one.

        ``exclude_from``: the outer repository of a project-local store, which is
        told to ignore the store through its ``info/exclude`` (never through a
        tracked file of the user's).
        """
        if self.root.exists() and not self.root.is_dir():
            raise StoreError(f"{self.root} exists and is not a directory")
        if not self.exists():
            self._refuse_foreign_files()  # before the lock writes anything there
        self.root.mkdir(parents=True, exist_ok=True)
        cache_existed = (self.root / CACHE_DIR).exists()
        with self.write_lock():
            if self.exists():
                return False
            try:
                self._refuse_foreign_files()
            except StoreError:
                if not cache_existed:  # filled meanwhile: take back the lock file
                    (self.root / CACHE_DIR / LOCK_FILE).unlink(missing_ok=True)
                    with contextlib.suppress(OSError):
                        (self.root / CACHE_DIR).rmdir()
                raise
            self.git.run(["init", "-q", "--initial-branch=main"])
            self.git.run(["config", "core.splitIndex", "true"])
            (self.root / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
            self.commit([".gitignore"], [], journal.INIT_MESSAGE)
        if exclude_from is not None:
            _add_exclude(exclude_from, self.root)
        return True

    def _refuse_foreign_files(self) -> None:
        """A store is made only in an empty directory (or one holding mem's cache)."""
        if not self.root.is_dir():
            return
        if any(p.name != CACHE_DIR for p in self.root.iterdir()):
            raise StoreError(
                f"{self.root} is not empty and not a git repository; "
                "choose an empty or new directory for the store"
            )

    # --------------------------------------------------------------- reading

    def head(self) -> str | None:
        return self.git.head()

    def memory_paths(self) -> Iterator[str]:
        """Every memory file in the work tree, as store-relative paths, sorted."""
        for top in MEMORY_DIRS:
            base = self.root / top
            if not base.is_dir():
                continue
            for dirpath, dirnames, filenames in os.walk(base):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                rel_dir = Path(dirpath).relative_to(self.root).as_posix()
                for name in sorted(filenames):
                    if is_memory_path(f"{rel_dir}/{name}"):
                        yield f"{rel_dir}/{name}"

    def read_bytes(self, path: str) -> bytes:
        """A memory file's bytes; never through a symbolic link (one open, no stat)."""
        self._check_inside(path)
        full = f"{self.root}/{path}"
        try:
            fd = os.open(full, os.O_RDONLY | _NO_FOLLOW)
        except FileNotFoundError:
            raise InvalidMemoryFile(path, "file is missing from the work tree") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP or os.path.islink(full):
                raise InvalidMemoryFile(
                    path, "is a symbolic link; memory files must be plain files"
                ) from None
            raise InvalidMemoryFile(path, f"cannot be read ({exc.strerror})") from None
        with os.fdopen(fd, "rb") as handle:
            try:
                return handle.read()
            except IsADirectoryError:
                raise InvalidMemoryFile(path, "is a directory") from None

    def load(self, path: str) -> tuple[Record, str]:
        """Parse one memory file; also return the digest of its bytes."""
        data = self.read_bytes(path)
        return self.parse(path, data), digest(data)

    def parse(self, path: str, data: bytes) -> Record:
        """A work-tree memory file, refused while git holds it unmerged (a conflict).

        Conflict markers in a memory's text are data: only git's unmerged index
        entries say a conflict is waiting, and git is asked only when the text
        holds something that looks like a marker.
        """
        if (data.startswith(b"<<<<<<< ") or b"\n<<<<<<< " in data) and self.unmerged(path):
            raise InvalidMemoryFile(
                path,
                "has unresolved merge conflict markers: keep the right version, then `git add` it",
            )
        record = parse_memory_file(path, data)
        if record.id in self.purged_ids():
            raise InvalidMemoryFile(path, purged_problem(record.id))
        return record

    def purged_ids(self) -> frozenset[str]:
        """The ids the work tree's ``purged.txt`` lists (read again only when it changed)."""
        path = self.root / PURGED_FILE
        try:
            status = path.lstat()
        except OSError:
            return frozenset()
        stamp = (status.st_ino, status.st_mtime_ns, status.st_size)
        if self._purged is None or self._purged[0] != stamp:
            try:
                fd = os.open(path, os.O_RDONLY | _NO_FOLLOW)
                with os.fdopen(fd, "rb") as handle:
                    text = handle.read(1 << 24).decode("ascii", "replace")
            except OSError:
                text = ""
            self._purged = (stamp, frozenset(ULID_RE.findall(text)))
        return self._purged[1]

    def unmerged(self, path: str) -> bool:
        """Whether git's index holds ``path`` as unmerged (a conflict not yet resolved)."""
        out = self.git.run(["--literal-pathspecs", "ls-files", "--unmerged", "-z", "--", path])
        return bool(out.stdout)

    def changes(self, old: str, new: str) -> list[Change]:
        """Memory files added, modified or deleted between two commits (renames split)."""
        out = self.git.run(
            [
                "diff",
                "--name-status",
                "-z",
                "--no-renames",
                "--end-of-options",
                old,
                new,
                "--",
                *MEMORY_DIRS,
            ]
        ).stdout.decode("utf-8", "surrogateescape")
        fields = out.split("\0")
        changes = []
        for status, path in zip(fields[0::2], fields[1::2], strict=False):
            if not is_memory_path(path):
                continue
            changes.append(Change(status[:1], path))
        return changes

    def resolve(self, path: str) -> Path:
        """The absolute path of a store-relative memory path; never outside the store."""
        self._check_inside(path)
        return self.root / path

    def _check_inside(self, path: str) -> None:
        if not is_memory_path(path):
            raise InvalidInput(f"{path!r} is not a memory file path")
        folder = path.rpartition("/")[0]
        if folder not in self._inside:
            try:
                (self.root / folder).resolve().relative_to(self.root.resolve())
            except ValueError:
                raise InvalidInput(f"{path!r} leaves the store") from None
            self._inside.add(folder)

    # --------------------------------------------------------------- writing

    def new_path(self, record: Record) -> str:
        """``observations/2026/11/2026-11-21-<slug>-<id tail>.md`` (or ``summaries/…``)."""
        from memcli.core.model import slugify

        year, month, day = record.created[:4], record.created[5:7], record.created[8:10]
        name = f"{year}-{month}-{day}-{slugify(record.title)}-{record.id[-6:].lower()}.md"
        folder = "summaries" if record.kind == "summary" else "observations"
        return f"{folder}/{year}/{month}/{name}"

    def check_writable(self) -> None:
        """Refuse to commit while git is half way through something, or off every branch."""
        problem = self.git_state_problem()
        if problem:
            raise StoreError(problem)

    def git_state_problem(self) -> str | None:
        operation = self.git.operation_in_progress()
        if operation:
            return (
                f"{operation} is in progress in the store {self.root}; finish or abort it "
                "with git first (see `git status` there)"
            )
        if self.git.detached():
            return (
                f"the store {self.root} is on a detached HEAD: a memory saved there would be on "
                "no branch; `git checkout main` (or your branch) there first"
            )
        return None

    def write_file(self, path: str, content: bytes) -> None:
        """Write atomically: a temporary file in the same folder, fsync, rename."""
        full = self.resolve(path)
        full.parent.mkdir(parents=True, exist_ok=True)
        temp = full.parent / f".{full.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            crash_point("temp-written")
            os.replace(temp, full)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise

    def remove_file(self, path: str) -> None:
        self.resolve(path).unlink(missing_ok=True)

    def commit(self, added: list[str], removed: list[str], message: str) -> str:
        """Commit exactly these paths as they are in the work tree; return the commit.

        Callers hold the write lock. Plumbing keeps the cost flat as the store
        grows (no status scan, no hooks). The paths are also staged in git's
        index, so ``git status`` stays clean; anything a person staged by hand
        stays staged and out of this commit.
        """
        parent = self.head()
        self._wait_for_git_index_lock()
        paths = [*added, *removed]
        stdin = "\0".join(paths) + "\0"
        self.git.run(["update-index", "--add", "--remove", "-z", "--stdin"], input=stdin)
        crash_point("staged")
        try:
            tree = self.git.out(["write-tree"])
            if parent and self._tree_has_more_than(parent, tree, paths):
                tree = self._tree_of_only(parent, stdin)
            args = ["commit-tree", tree, "-F", "-"] + (["-p", parent] if parent else [])
            commit = self.git.out(args, input=message, env=self._identity())
            crash_point("commit-written")
            self.git.run(
                ["update-ref", "-m", message.splitlines()[0], "HEAD", commit, parent or ""]
            )
            crash_point("ref-updated")
        except StoreError:
            # Put git's index back for these paths so nothing stays staged.
            if parent:
                self.git.run(["reset", "-q", parent, "--", *paths], check=False)
            else:
                self.git.run(["rm", "-q", "--cached", "--", *added], check=False)
            raise
        return commit

    def _tree_has_more_than(self, parent: str, tree: str, paths: list[str]) -> bool:
        """Whether ``tree`` differs from ``parent`` outside ``paths`` (hand-staged changes).

        ``diff-tree`` walks only the subtrees that differ: a few milliseconds.
        """
        changed = self.git.run(["diff-tree", "-r", "--name-only", "-z", parent, tree]).stdout
        return bool(
            {p for p in changed.decode("utf-8", "surrogateescape").split("\0") if p} - set(paths)
        )

    def _tree_of_only(self, parent: str, stdin: str) -> str:
        """The parent's tree plus these paths, built in a private index (the rare slow path)."""
        private = self.git.git_dir / f"mem-index.{os.getpid()}"
        env = {"GIT_INDEX_FILE": str(private)}
        try:
            self.git.run(["read-tree", parent], env=env)
            self.git.run(
                ["update-index", "--add", "--remove", "-z", "--stdin"], input=stdin, env=env
            )
            return self.git.out(["write-tree"], env=env)
        finally:
            private.unlink(missing_ok=True)

    def _identity(self) -> dict[str, str]:
        """The user's git identity when set; otherwise a clear fallback, never a failure."""
        if os.environ.get("GIT_AUTHOR_EMAIL") and os.environ.get("GIT_COMMITTER_EMAIL"):
            return {}
        configured = self.git.run(
            ["config", "--get-regexp", r"^user\.(name|email)$"], check=False
        ).stdout.decode("utf-8", "replace")
        keys = {line.split(" ", 1)[0] for line in configured.splitlines()}
        env: dict[str, str] = {}
        if "user.name" not in keys:
            env.update(GIT_AUTHOR_NAME=FALLBACK_NAME, GIT_COMMITTER_NAME=FALLBACK_NAME)
        if "user.email" not in keys:
            env.update(GIT_AUTHOR_EMAIL=FALLBACK_EMAIL, GIT_COMMITTER_EMAIL=FALLBACK_EMAIL)
        return {k: v for k, v in env.items() if not os.environ.get(k)}

    def _wait_for_git_index_lock(self) -> None:
        """Give a person's own git command in the store a moment to finish."""
        lock = self.git.git_dir / "index.lock"
        deadline = time.monotonic() + _GIT_LOCK_WAIT_SECONDS
        while lock.exists():
            if time.monotonic() >= deadline:
                raise StoreError(
                    f"git's {lock} exists: another git command is running in the store, or "
                    "one crashed; if none is running, delete that file and try again"
                )
            time.sleep(0.05)


def is_memory_path(path: str) -> bool:
    """A markdown file under a memory folder, with no hidden or parent parts."""
    parts = path.split("/")
    return (
        len(parts) >= 2
        and parts[0] in MEMORY_DIRS
        and path.endswith(".md")
        and all(part and not part.startswith(".") for part in parts)
        and "\\" not in path
        and "\x00" not in path
    )


def parse_memory_file(path: str, data: bytes) -> Record:
    """An observation or a summary, by the folder the file is in."""
    from memcli.core.model import Observation, Summary

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidMemoryFile(path, "is not UTF-8 text") from None
    if path.startswith("summaries/"):
        return Summary.from_markdown(text, path)
    return Observation.from_markdown(text, path)


def purged_problem(identity: str) -> str:
    return (
        f"holds {identity}, a memory purged from the store's history ({PURGED_FILE} lists "
        "it): delete this file"
    )


def digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


def _add_exclude(outer: Path, store_root: Path) -> None:
    common = find_git_common_dir(outer)
    if common is None:
        return
    try:
        relative = store_root.resolve().relative_to(outer.resolve()).as_posix()
    except ValueError:
        return
    exclude = common / "info" / "exclude"
    line = f"/{relative}/"
    existing = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
    if line not in existing.splitlines():
        exclude.parent.mkdir(parents=True, exist_ok=True)
        prefix = "" if not existing or existing.endswith("\n") else "\n"
        exclude.write_text(
            f"{existing}{prefix}# mem's project-local store\n{line}\n", encoding="utf-8"
        )
