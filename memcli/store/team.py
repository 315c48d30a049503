"""The team store: a folder of the project's own git repository (``.mem-team/``).

It holds memory files like any store (``observations/``, ``summaries/``,
MEMORY.md, notes, mem.toml), but its git repository is the project's:

* **Writes are staged, never committed** (unless ``commit_writes`` asks): mem
  writes the files and stages exactly those paths (``update-index``) in the
  work tree's git index, for review in the project's pull request. Nothing
  outside the folder is staged or touched.
* **Its state is the staged state.** ``head()`` is a fingerprint of the
  folder's entries in git's index (``staged-<sha1>`` of ``git ls-files -s``),
  so the index follows what mem staged before anyone commits it. The
  fingerprint is cached by the stat of git's index file: a read that finds
  the index file unchanged runs no git process. A hand edit is seen once it is
  ``git add``-ed (``mem doctor`` lists memory files whose index entry is stale).
* **Derived data lives in the user's cache**, never in the project's tree:
  ``<cache>/team/<hash of the folder's real path>/`` holds the index, the lock,
  the staged listings and a write's pending intent.
* **History is the project's**, limited to the folder: git runs in the folder
  with ``diff.relative`` so paths are relative to it, and ``REV:path`` blob
  specs are prefixed with the folder's path. Purging is refused: it would
  rewrite the project's history.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.core import places
from memcli.core.chunks import is_note_path
from memcli.core.crashpoints import crash_point
from memcli.core.errors import StoreError
from memcli.store.files import LOCK_FILE, MEMORY_DIRS, Change, Store, digest, is_memory_path
from memcli.store.git import Git, resolve_git_dir, work_tree_top
from memcli.store.layers import TEAM_DIR

if TYPE_CHECKING:
    import subprocess
    from contextlib import AbstractContextManager

    from memcli.store.location import StoreLocation

STAGED = "staged-"
"""The prefix of a staged-state fingerprint (never a git revision)."""
_STAMP_FILE = "staged-head"
_LISTINGS = "staged"
_KEPT_LISTINGS = 8
_RACY_NS = 1_000_000_000
README = """\
# Team memory

This folder is the team layer of mem, the agents' memory: markdown memories
the agents of everyone on this project read, reviewed like code.

`mem` writes files here and stages them (`git add`); it never commits. Review
them with `git diff --cached -- .mem-team/`, then commit them with your change.
mem's index of this folder lives in each user's cache, never in the repository.
"""


class TeamGit(Git):
    """Git in the project's repository, run in the team folder, answering relative to it."""

    def __init__(self, folder: Path, top: Path) -> None:
        super().__init__(folder)
        self.top = top
        relative = os.path.relpath(folder, top).replace(os.sep, "/")
        self.prefix = "" if relative == "." else f"{relative}/"
        """The folder's path from the top of the work tree, with a trailing slash."""

    @property
    def git_dir(self) -> Path:
        return resolve_git_dir(self.top / ".git")

    def run(
        self,
        args: Sequence[str],
        *,
        input: str | bytes | None = None,
        env: dict[str, str] | None = None,
        check: bool = True,
    ) -> subprocess.CompletedProcess[bytes]:
        """Like :meth:`Git.run`; ``git log`` and ``git diff`` name paths relative to the folder
        and see nothing outside it (``diff.relative``)."""
        relative = {
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "diff.relative",
            "GIT_CONFIG_VALUE_0": "true",
        }
        return super().run(args, input=input, env={**relative, **(env or {})}, check=check)

    def cat_file_batch(
        self, specs: Sequence[str], env: dict[str, str] | None = None
    ) -> dict[str, bytes]:
        """Like :meth:`Git.cat_file_batch`, with ``REV:path`` relative to the folder.

        A staged fingerprint as REV reads git's index (``:path``).
        """
        asked: dict[str, str] = {}
        for spec in specs:
            rev, colon, path = spec.partition(":")
            if not colon:
                asked[spec] = spec
                continue
            asked[f"{'' if rev.startswith(STAGED) else rev}:{self.prefix}{path}"] = spec
        found = super().cat_file_batch(list(asked), env)
        return {asked[spec]: data for spec, data in found.items()}


class TeamStore(Store):
    """A memory store that is a folder of the project's repository; see the module."""

    own_repository = False

    def __init__(self, root: Path, top: Path | None = None) -> None:
        super().__init__(root)
        found = top if top is not None else work_tree_top(root.parent)
        if found is None:
            raise StoreError(
                f"{root} is not inside a git work tree; the team layer is a folder of the "
                "project's repository"
            )
        self.top = found
        self.git: TeamGit = TeamGit(root, found)
        self._cache: Path | None = None
        self.commit_writes = False
        """Commit each write (exactly its paths) in the project's repository, not only stage it."""

    # ------------------------------------------------------------- places

    @property
    def cache_dir(self) -> Path:
        """``<user cache>/team/<hash of the folder's real path>``: never in the project."""
        if self._cache is None:
            from memcli.core.failure_log import cache_dir

            self._cache = cache_dir() / "team" / places.short_hash(os.path.realpath(self.root))
        return self._cache

    @property
    def pending_dir(self) -> Path:
        return self.cache_dir

    def exists(self) -> bool:
        try:
            mode = self.root.lstat().st_mode
        except OSError:
            return False
        return stat.S_ISDIR(mode) and (self.top / ".git").exists()

    def write_lock(self) -> AbstractContextManager[None]:
        from memcli.store.lock import exclusive_lock

        self.cache_dir.mkdir(parents=True, exist_ok=True)
        return exclusive_lock(self.cache_dir / LOCK_FILE)

    # ------------------------------------------------------------- creating

    def create(self, *, exclude_from: Path | None = None) -> bool:
        """Make the folder, its memory folders and a README (staged); False if it existed."""
        if self.root.is_symlink() or (self.root.exists() and not self.root.is_dir()):
            raise StoreError(f"{self.root} exists and is not a folder")
        if self.root.is_dir():
            return False
        for folder in MEMORY_DIRS:
            (self.root / folder).mkdir(parents=True, exist_ok=True)
        with self.write_lock():
            (self.root / "README.md").write_text(README, encoding="utf-8")
            self._stage(["README.md"])
        return True

    # ------------------------------------------------------------- reading

    def head(self, *, remember: bool = True) -> str | None:
        """The fingerprint of the folder's staged state; None when git's index holds none of it.

        Cached by the stat of git's index file: no git process while it is unchanged.
        An index file written in the last second is never cached: a file system's
        clock ticks coarsely, so a second write in the same tick (same size, the
        inode reused) could keep the stat and hide the change ("racy git").
        ``remember=False`` writes nothing to the cache (``mem status`` only reads).
        """
        try:
            status = os.stat(self.git.git_dir / "index")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"cannot read git's index of {self.top}: {exc.strerror}") from None
        stamp = f"{status.st_ino}:{status.st_mtime_ns}:{status.st_size}"
        cached = self._read_cache(_STAMP_FILE)
        if cached is not None:
            known, _, fingerprint = cached.decode("ascii", "replace").partition(" ")
            if known == stamp:
                return fingerprint.strip() or None
        listing = self.git.run(["ls-files", "-s", "-z", "--", "."]).stdout
        fingerprint = STAGED + digest(listing) if listing else ""
        if not remember:
            return fingerprint or None
        if listing:
            self._keep_listing(fingerprint, listing)
        if time.time_ns() - status.st_mtime_ns > _RACY_NS:
            self._write_cache(_STAMP_FILE, f"{stamp} {fingerprint}\n".encode("ascii"))
        return fingerprint or None

    def changes(self, old: str, new: str, *, notes: bool = False) -> list[Change]:
        """Memory files changed between two states: staged fingerprints or commits."""
        if not (old.startswith(STAGED) or new.startswith(STAGED)):
            return super().changes(old, new, notes=notes)
        before, after = self._entries(old), self._entries(new)
        changes = []
        for path in sorted(before.keys() | after.keys()):
            if not (is_memory_path(path) or (notes and is_note_path(path))):
                continue
            if path not in after:
                changes.append(Change("D", path))
            elif path not in before:
                changes.append(Change("A", path))
            elif before[path] != after[path]:
                changes.append(Change("M", path))
        return changes

    def unrecorded_paths(self) -> list[str]:
        """Files of the folder changed, removed or added and not staged (a hand edit)."""
        out = self.git.run(
            ["ls-files", "-z", "--modified", "--others", "--exclude-standard", "--", "."]
        ).stdout.decode("utf-8", "surrogateescape")
        return sorted({path for path in out.split("\0") if path})

    def staged_paths(self) -> list[str]:
        """Memory and notes files of the folder staged and not committed: what awaits review."""
        if self.git.head() is None:  # no commit yet: everything staged is new
            args = ["ls-files", "-z", "--", "."]
        else:
            args = ["diff", "--cached", "--name-only", "-z", "--no-renames", "HEAD", "--", "."]
        paths = self.git.run(args).stdout.decode("utf-8", "surrogateescape").split("\0")
        return sorted(p for p in paths if is_memory_path(p) or is_note_path(p))

    def _entries(self, state: str) -> dict[str, str]:
        """Path -> "mode blob" (and the stage of a conflict) of a staged state or a commit.

        ``git ls-files -s`` says "MODE BLOB STAGE", ``git ls-tree`` "MODE TYPE BLOB":
        both become "MODE BLOB" (with " STAGE" only for a conflict's entries).
        """
        if state.startswith(STAGED):
            data = self._read_cache(f"{_LISTINGS}/{state}")
            if data is None:
                raise StoreError(f"the staged state {state} is no longer known")
        elif state.startswith("-"):
            raise StoreError(f"{state!r} is not a revision")
        else:  # in the folder, ls-tree lists the folder's files relative to it
            data = self.git.run(["ls-tree", "-r", "-z", state]).stdout
        entries: dict[str, str] = {}
        for line in data.split(b"\0"):
            meta, tab, path = line.partition(b"\t")
            if not tab:
                continue
            fields = meta.decode("ascii", "replace").split()
            if len(fields) != 3:
                continue
            mode, second, third = fields
            if second == "blob":
                kept = f"{mode} {third}"
            else:
                kept = f"{mode} {second}" + (f" {third}" if third != "0" else "")
            entries[path.decode("utf-8", "surrogateescape")] = kept
        return entries

    def _keep_listing(self, fingerprint: str, listing: bytes) -> None:
        """Keep this staged listing (the next refresh diffs against it); drop old ones."""
        self._write_cache(f"{_LISTINGS}/{fingerprint}", listing)
        folder = self.cache_dir / _LISTINGS
        try:
            kept = sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        except OSError:
            return
        for old in kept[_KEPT_LISTINGS:]:
            old.unlink(missing_ok=True)

    def _read_cache(self, name: str) -> bytes | None:
        try:
            return (self.cache_dir / name).read_bytes()
        except OSError:
            return None

    def _write_cache(self, name: str, data: bytes) -> None:
        """A cache file, replaced whole; a cache that cannot be written is only slower."""
        target = self.cache_dir / name
        temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            temp.write_bytes(data)
            os.replace(temp, target)
        except OSError:
            temp.unlink(missing_ok=True)

    # ------------------------------------------------------------- writing

    def git_state_problem(self) -> str | None:
        """Staging is fine mid-merge or on a detached HEAD; committing is not."""
        return super().git_state_problem() if self.commit_writes else None

    def check_purgeable(self) -> None:
        raise StoreError(
            "a purge rewrites history, and the team layer's history is the project's: "
            "mem refuses it; forget the memory and rewrite the project's history with git if needed"
        )

    def commit(self, added: list[str], removed: list[str], message: str) -> str:
        """Stage exactly these paths; with ``commit_writes``, commit exactly them too.

        Returns the commit, or '' when the paths were only staged.
        """
        if self.commit_writes:
            from memcli.store.commit import commit_with_hooks

            if self.git.head() is None:  # a first commit would take all that is staged
                raise StoreError(
                    f"the project at {self.top} has no commit yet: save without --commit "
                    "(the memory is staged), then commit with git"
                )
            return commit_with_hooks(self.git, added, removed, message)
        self._stage([*added, *removed])
        crash_point("staged")
        return ""

    def finish_interrupted(
        self, added: list[str], removed: list[str], message: str, *, asked_commit: bool
    ) -> str:
        """Stage a write a crash cut short, never commit it (whatever ``commit_writes`` says).

        The write being finished may have been a stage-only save, and the one running now
        (which may commit) commits its own paths only; a write killed after its commit
        would become an empty commit. Staging what is committed already changes nothing.
        A write that asked for a commit and is left staged says so.
        """
        self._stage([*added, *removed])
        if asked_commit and {*added, *removed} & set(self.staged_paths()):
            return " (staged, not committed: review it and commit it with git)"
        return ""

    def _stage(self, paths: list[str]) -> None:
        """Add or remove these folder paths in git's index; nothing else is touched."""
        from memcli.store.commit import wait_for_git_index_lock

        wait_for_git_index_lock(self.git)
        stdin = "".join(f"{path}\0" for path in paths)
        self.git.run(["update-index", "--add", "--remove", "-z", "--stdin"], input=stdin)


def is_team_folder(path: Path) -> bool:
    """A ``.mem-team`` folder inside a git work tree, not a git repository of its own."""
    return (
        path.name == TEAM_DIR
        and not (path / ".git").exists()
        and work_tree_top(path.parent) is not None
    )


def store_for(location: StoreLocation) -> Store:
    """The store at a location: a :class:`TeamStore` for the team layer, else a :class:`Store`."""
    if location.source == "team":
        return TeamStore(location.root)
    return Store(location.root)


def store_at(root: Path) -> Store:
    """The store at a folder, found by what it is: a team folder or a store of its own."""
    return TeamStore(root) if is_team_folder(root) else Store(root)
