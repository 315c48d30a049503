"""A store made: an empty folder becomes a git repository of memories, in one commit.

Imported only when a store is created (``Store.create``).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.core import journal
from memcli.core.errors import StoreError
from memcli.store.files import CACHE_DIR, GITIGNORE, LOCK_FILE
from memcli.store.git import find_git_common_dir

if TYPE_CHECKING:
    from memcli.store.files import Store


def create(store: Store, exclude_from: Path | None) -> bool:
    """``Store.create``: the repository made under the write lock; False when it was one."""
    root = store.root
    if root.exists() and not root.is_dir():
        raise StoreError(f"{root} exists and is not a directory")
    if not store.exists():
        _refuse_foreign_files(root)  # before the lock writes anything there
    root.mkdir(parents=True, exist_ok=True)
    cache_existed = (root / CACHE_DIR).exists()
    with store.write_lock():
        if store.exists():
            return False
        try:
            _refuse_foreign_files(root)
        except StoreError:
            if not cache_existed:  # filled meanwhile: take back the lock file
                (root / CACHE_DIR / LOCK_FILE).unlink(missing_ok=True)
                with contextlib.suppress(OSError):
                    (root / CACHE_DIR).rmdir()
            raise
        store.git.run(["init", "-q", "--initial-branch=main"])
        store.git.run(["config", "core.splitIndex", "true"])
        (root / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
        store.commit([".gitignore"], [], journal.INIT_MESSAGE)
    if exclude_from is not None:
        _add_exclude(exclude_from, root)
    return True


def _refuse_foreign_files(root: Path) -> None:
    """A store is made only in an empty directory (or one holding mem's cache)."""
    if not root.is_dir():
        return
    if any(p.name != CACHE_DIR for p in root.iterdir()):
        raise StoreError(
            f"{root} is not empty and not a git repository; "
            "choose an empty or new directory for the store"
        )


def _add_exclude(outer: Path, store_root: Path) -> None:
    """The outer repository told to ignore a project-local store (its ``info/exclude``)."""
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
