"""The store: a git repository of memory files. Creating it, reading and writing its files.

Every write is one commit of exactly the paths it changed, made with git
plumbing under the store's write lock (:mod:`memcli.store.commit`).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from memcli.core import places
from memcli.core.chunks import MAX_NOTE_BYTES, MEMORY_MD, NOTES_DIR, is_note_path
from memcli.core.errors import InvalidInput, InvalidMemoryFile, StoreError
from memcli.core.regular import NotRegularFile, open_regular
from memcli.store.commit import commit_paths
from memcli.store.git import Git
from memcli.store.lock import exclusive_lock
from memcli.store.purged_list import PurgedList

if TYPE_CHECKING:
    from memcli.core.model import Record

MEMORY_DIRS = ("observations", "summaries")
"""Observations, then session summaries: the folders whose markdown files are memories."""
CACHE_DIR = places.CACHE_DIR
INDEX_FILE = "index.db"
LOCK_FILE = "write.lock"
MAX_MEMORY_FILE_BYTES = 16 << 20
"""A larger memory file is not read: what one file may cost every reader stays bounded."""
PURGED_FILE = "purged.txt"
"""Ids ``mem forget --purge`` removed from history (ids only): no mem lets them back in."""
GITIGNORE = """\
# Written by mem. The index and the locks are derived from the memory files
# and local to this machine: never commit them.
/.cache/
.*.tmp
"""


class Change(NamedTuple):
    """A memory file changed between two commits: ``status`` is git's letter (A, M, D, T)."""

    status: str
    path: str


class Store:
    """One project's memory repository."""

    own_repository = True
    """The store is a git repository of its own (a team store is a folder of the project's)."""
    commit_writes = True
    """Each write is committed (a team store only stages them unless asked)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.git = Git(root)
        self._inside: set[str] = set()
        """Folders already checked to lie inside the store (resolving is a syscall a part)."""
        self._purged = PurgedList(root / PURGED_FILE)

    @property
    def cache_dir(self) -> Path:
        """mem's derived folder (index, locks, kept edits): a real folder of the store.

        A symbolic link or a file in its place (one committed, say) would make
        mem write and read outside the store: it is refused, never followed.
        A missing folder is fine; whoever writes there makes it.
        """
        path = self.root / CACHE_DIR
        try:
            mode = path.lstat().st_mode
        except FileNotFoundError:
            return path
        except OSError as exc:
            raise StoreError(f"{path} cannot be read ({exc.strerror})") from None
        if not stat.S_ISDIR(mode):
            what = "symbolic link" if stat.S_ISLNK(mode) else "file"
            raise StoreError(
                f"{path} is a {what}, not a folder of the store; mem keeps its index and locks "
                "there and never follows it: remove it (mem makes the folder again)"
            )
        return path

    @property
    def index_path(self) -> Path:
        return self.cache_dir / INDEX_FILE

    @property
    def pending_dir(self) -> Path:
        """Where a write's intent is kept (``memcli.store.pending``): the git folder."""
        return self.git.git_dir

    def exists(self) -> bool:
        return (self.root / ".git").exists()

    def write_lock(self) -> AbstractContextManager[None]:
        """The lock every write takes; in the git folder when the cache folder is unusable."""
        git_dir = self.root / ".git"
        fallback = git_dir / "mem-write.lock" if git_dir.is_dir() else None
        return exclusive_lock(self.cache_dir / LOCK_FILE, fallback=fallback)

    # ------------------------------------------------------------- creating

    def create(self, *, exclude_from: Path | None = None) -> bool:
        """Make this directory a store; False when it already was one.

        ``exclude_from``: the outer repository of a project-local store, which is
        told to ignore the store through its ``info/exclude`` (never through a
        tracked file of the user's).
        """
        from memcli.store.creation import create

        return create(self, exclude_from)

    # --------------------------------------------------------------- reading

    def head(self) -> str | None:
        return self.git.head()

    def memory_paths(self) -> Iterator[str]:
        """Every memory file in the work tree, as store-relative paths, sorted."""
        for top in MEMORY_DIRS:
            yield from _walk(self.root, top, is_memory_path)

    def read_bytes(self, path: str) -> bytes:
        """A memory file's bytes; never through a symbolic link (one open, no stat)."""
        self._check_inside(path)
        data = self._read_plain(path, MAX_MEMORY_FILE_BYTES + 1, "memory files")
        if len(data) > MAX_MEMORY_FILE_BYTES:
            raise InvalidMemoryFile(path, too_large())
        return data

    def note_paths(self) -> Iterator[str]:
        """MEMORY.md and every notes/**/*.md in the work tree, sorted (links too: reading
        one is refused with a reason)."""
        if os.path.lexists(self.root / MEMORY_MD):
            yield MEMORY_MD
        if not (self.root / NOTES_DIR).is_symlink():
            yield from _walk(self.root, NOTES_DIR, is_note_path)

    def read_note(self, path: str) -> bytes:
        """A notes file's first ``MAX_NOTE_BYTES`` bytes and one more (to tell it was cut).

        Like a memory file: inside the store and never through a symbolic link.
        """
        if not is_note_path(path):
            raise InvalidInput(f"{shown_path(path)!r} is not a notes file path")
        problem = name_problem(path)
        if problem:
            raise InvalidMemoryFile(shown_path(path), problem)
        self._check_folder(path)
        return self._read_plain(path, MAX_NOTE_BYTES + 1, "notes files")

    def _read_plain(self, path: str, limit: int, what: str) -> bytes:
        """Up to ``limit`` bytes of a plain file of the store (one open, one fstat).

        Never through a link, never from a FIFO or device (reading one would hang).
        """
        full = f"{self.root}/{path}"
        try:
            handle = open_regular(full, follow_links=False)
        except FileNotFoundError:
            raise InvalidMemoryFile(path, "file is missing from the work tree") from None
        except NotRegularFile as exc:
            raise InvalidMemoryFile(path, exc.reason) from None
        except OSError as exc:
            if exc.errno == errno.ELOOP or os.path.islink(full):
                raise InvalidMemoryFile(
                    path, f"is a symbolic link; {what} must be plain files"
                ) from None
            raise InvalidMemoryFile(path, f"cannot be read ({exc.strerror})") from None
        with handle:
            return read_at_most(handle, limit)

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
        return self._purged.ids()

    def unmerged(self, path: str) -> bool:
        """Whether git's index holds ``path`` as unmerged (a conflict not yet resolved)."""
        out = self.git.run(["--literal-pathspecs", "ls-files", "--unmerged", "-z", "--", path])
        return bool(out.stdout)

    def unrecorded_paths(self) -> list[str]:
        """Paths changed in the work tree and not committed (``mem doctor`` lists them)."""
        return self.git.uncommitted_paths()

    def changes(self, old: str, new: str, *, notes: bool = False) -> list[Change]:
        """Memory files added, modified or deleted between two commits (renames split).

        ``notes``: MEMORY.md and notes files too, in the same diff (the index reads both).
        """
        folders = (*MEMORY_DIRS, MEMORY_MD, NOTES_DIR) if notes else MEMORY_DIRS
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
                *folders,
            ]
        ).stdout.decode("utf-8", "surrogateescape")
        fields = out.split("\0")
        changes = []
        for status, path in zip(fields[0::2], fields[1::2], strict=False):
            if not (is_memory_path(path) or (notes and is_note_path(path))):
                continue
            changes.append(Change(status[:1], path))
        return changes

    def resolve(self, path: str) -> Path:
        """The absolute path of a store-relative memory path; never outside the store."""
        self._check_inside(path)
        return self.root / path

    def _check_inside(self, path: str) -> None:
        if not is_memory_path(path):
            raise InvalidInput(f"{shown_path(path)!r} is not a memory file path")
        problem = name_problem(path)
        if problem:
            raise InvalidMemoryFile(shown_path(path), problem)
        self._check_folder(path)

    def _check_folder(self, path: str) -> None:
        """The file's folder lies inside the store (no link leads out of it)."""
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
        from memcli.core.titles import slugify

        year, month, day = record.created[:4], record.created[5:7], record.created[8:10]
        name = f"{year}-{month}-{day}-{slugify(record.title)}-{record.id[-6:].lower()}.md"
        folder = "summaries" if record.kind == "summary" else "observations"
        return f"{folder}/{year}/{month}/{name}"

    def check_writable(self) -> None:
        """Refuse to commit while git is half way through something, or off every branch."""
        problem = self.git_state_problem()
        if problem:
            raise StoreError(problem)

    def check_purgeable(self) -> None:
        """Refuse ``mem forget --purge`` where history is not the store's own to rewrite."""

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

    def resolve_written(self, path: str) -> Path:
        """Like :meth:`resolve`, and also the curated MEMORY.md at the store's root.

        For the files a writer commits; never a path a memory may be stored under.
        A lesson draft's file (``drafts/<id>.md``) is one too.
        """
        from memcli.store.drafts import is_draft_path

        if path == MEMORY_MD:
            return self.root / MEMORY_MD
        if is_draft_path(path):
            self._check_folder(path)
            return self.root / path
        return self.resolve(path)

    def write_file(
        self, path: str, content: bytes, *, sync: bool = True, exclusive: bool = False
    ) -> None:
        """Write atomically: a temporary file in the same folder, fsync, rename.

        ``sync=False`` leaves the fsync to the caller (one ``os.sync`` for many files).
        ``exclusive``: only when nothing is at ``path`` (a hard link, which never
        replaces); else a ``StoreError`` and whatever is there stays.
        """
        from memcli.store.atomic import write_atomically

        full = self.resolve_written(path)
        write_atomically(full, path, content, sync=sync, exclusive=exclusive)

    def remove_file(self, path: str) -> None:
        self.resolve_written(path).unlink(missing_ok=True)

    def commit(self, added: list[str], removed: list[str], message: str) -> str:
        """Commit exactly these paths as they are in the work tree; return the commit.

        Callers hold the write lock; see :func:`memcli.store.commit.commit_paths`.
        """
        return commit_paths(self.git, added, removed, message)

    def finish_interrupted(
        self, added: list[str], removed: list[str], message: str, *, asked_commit: bool
    ) -> str:
        """Finish a write a crash cut short (``store.pending``): commit it, as every write is.

        Returns what the outcome should add ('' when the write is done as it asked).
        """
        self.commit(added, removed, message)
        return ""


def _walk(root: Path, top: str, accept: Callable[[str], bool]) -> Iterator[str]:
    """The files under ``root/top`` that ``accept`` takes, store-relative, sorted (hidden
    folders left out)."""
    base = root / top
    if not base.is_dir():
        return
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        for name in sorted(filenames):
            if accept(f"{rel_dir}/{name}"):
                yield f"{rel_dir}/{name}"


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


def name_problem(path: str) -> str | None:
    """Why mem cannot keep a file under this name (bytes that are not UTF-8), or None.

    Paths from the file system and from git carry such bytes as surrogate
    escapes; the index, git's input and the terminal all need UTF-8.
    """
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return "its name is not UTF-8, so mem cannot read it: rename it (`git mv`) to a UTF-8 name"
    return None


def shown_path(path: str) -> str:
    """A path as it can be printed: bytes that are not UTF-8 become ``\\xNN``."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


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


def too_large() -> str:
    return f"is larger than {MAX_MEMORY_FILE_BYTES >> 20} MB; split it into several memories"


def purged_problem(identity: str) -> str:
    return (
        f"holds {identity}, a memory purged from the store's history ({PURGED_FILE} lists "
        "it): delete this file"
    )


def read_at_most(handle: BinaryIO, limit: int) -> bytes:
    """The file's bytes, at most ``limit`` of them.

    Asked for by its size and one byte more: ``read(limit)`` would allocate all of
    ``limit`` (16 MB for a memory file) for every file of a rebuild. A file that grew
    since its size was read is read on, still up to ``limit``.
    """
    size = os.fstat(handle.fileno()).st_size
    data = handle.read(min(limit, size + 1))
    if len(data) == size + 1 < limit:
        data += handle.read(limit - len(data))
    return data


def digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha1(data, usedforsecurity=False).hexdigest()
