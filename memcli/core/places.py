"""Where mem's stores and their git state are, from paths and small files alone.

No git process, no ``pathlib``: the pre-tool hook finds every layer's guard table
with these on each tool call an agent makes, and the store modules
(``memcli.store.git``, ``location``, ``layers``, ``team``) answer with the same
functions, so the two can never disagree about where a store is.
"""

from __future__ import annotations

import os
import sys

LOCAL_STORE_DIR = ".mem"
CACHE_DIR = ".cache"
TEAM_DIR = ".mem-team"
USER_STORE_DIR = "_user"
_HEX = frozenset("0123456789abcdef")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


def is_oid(text: str) -> bool:
    """Whether ``text`` is a git object id (SHA-1 or SHA-256, lowercase hex)."""
    return len(text) in (40, 64) and _HEX.issuperset(text)


def mem_home() -> str:
    """``$MEM_HOME``, else the platform's per-user data directory for mem."""
    configured = os.environ.get("MEM_HOME")
    if configured:
        return os.path.expanduser(configured)
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Application Support", "mem")
    if os.name == "nt":
        local = os.environ.get("LOCALAPPDATA", os.path.join(home, "AppData", "Local"))
        return os.path.join(local, "mem")
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(data, "mem")


def user_store_root() -> str:
    """The user layer's store: ``MEM_USER_STORE``, else ``$MEM_HOME/_user`` (absolute)."""
    configured = os.environ.get("MEM_USER_STORE")
    if configured:
        return os.path.abspath(os.path.expanduser(configured))
    return os.path.abspath(os.path.join(mem_home(), USER_STORE_DIR))


def work_tree_top(start: str) -> str | None:
    """The top of the git work tree ``start`` is in (a worktree's own top), or None."""
    directory = start
    while True:
        if os.path.exists(os.path.join(directory, ".git")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def resolve_git_dir(dotgit: str) -> str:
    """``.git`` itself, or where a ``gitdir:`` file (worktree, submodule) points."""
    if os.path.isfile(dotgit):
        with open(dotgit, encoding="utf-8") as file:
            text = file.read().strip()
        if text.startswith("gitdir:"):
            target = os.path.join(os.path.dirname(dotgit), text[len("gitdir:") :].strip())
            return os.path.realpath(target)
    return dotgit


def common_dir(git_dir: str) -> str:
    """The directory shared by all worktrees of a repository."""
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as file:
            relative = file.read().strip()
    except (FileNotFoundError, NotADirectoryError):
        return git_dir
    return os.path.realpath(os.path.join(git_dir, relative))


def read_ref(git_dir: str, ref: str) -> str | None:
    """The object id a ref names, from its loose file or ``packed-refs``; None if neither."""
    common = common_dir(git_dir)
    for base in (git_dir, common):
        try:
            with open(os.path.join(base, ref), encoding="utf-8") as file:
                value = file.read().strip()
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            continue
        return value if is_oid(value) else None
    try:
        with open(os.path.join(common, "packed-refs"), encoding="utf-8") as file:
            packed = file.read()
    except FileNotFoundError:
        return None
    suffix = " " + ref
    for line in packed.splitlines():
        if line.endswith(suffix) and is_oid(line[: -len(suffix)]):
            return line[: -len(suffix)]
    return None


def head_from_files(git_dir: str) -> str:
    """What HEAD names, read from files: an object id, ``ref: NAME`` of an unborn or
    unreadable branch as it stands, or ``''`` when there is no HEAD file."""
    try:
        with open(os.path.join(git_dir, "HEAD"), encoding="utf-8") as file:
            head = file.read().strip()
    except FileNotFoundError:
        return ""
    if head.startswith("ref: "):
        return read_ref(git_dir, head[5:]) or head
    return head


def project_name(cwd: str) -> str | None:
    """The project ``cwd`` belongs to, named after its git repository's common git dir
    (so every worktree of one repository names the same project)."""
    top = work_tree_top(cwd)
    if top is None:
        return None
    common = os.path.realpath(common_dir(resolve_git_dir(os.path.join(top, ".git"))))
    base = os.path.basename(common)
    if base == ".git":
        name = os.path.basename(os.path.dirname(common))
    else:
        name = base.removesuffix(".git")
    name = "".join(ch if ch in _NAME_CHARS else "\0" for ch in name)
    name = "-".join(part for part in name.split("\0") if part).strip(".-")
    return name or "project"


def can_be_store(folder: str) -> bool:
    """A ``.mem/`` that is a git repository of its own, or holds nothing but mem's cache."""
    if os.path.exists(os.path.join(folder, ".git")):
        return True
    try:
        return all(entry.name == CACHE_DIR for entry in os.scandir(folder))
    except OSError:
        return False


def short_hash(text: str) -> str:
    """16 hex digits naming a path (zlib's checksums: no hashlib import on the read path)."""
    import zlib

    data = text.encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"
