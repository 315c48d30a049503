"""Where a project's store is: ``--store``, ``--project``, ``MEM_STORE``, ``.mem/``, or central.

The central store is named after the git repository the work happens in
(its common git dir, so every worktree shares one), under ``mem_home()``. A
``.mem/`` folder is the store when it is a git repository of its own (or empty,
for the first save to make one); any other ``.mem/`` (a folder committed to the
project) is said once and passed over.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from memcli.core import places
from memcli.core.errors import InvalidInput, StoreError
from memcli.store.git import work_tree_top

LOCAL_STORE_DIR = places.LOCAL_STORE_DIR
_PROJECT_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


class StoreLocation(NamedTuple):
    root: Path
    source: str
    """How it was found: ``--store``, ``MEM_STORE``, ``.mem``, or ``central``; ``team``: a
    ``--store`` that is a team folder (``memcli.store.team``)."""
    project: str | None = None


def mem_home() -> Path:
    """``$MEM_HOME``, else the platform's per-user data directory for mem."""
    return Path(places.mem_home())


def data_home_named() -> bool:
    """Whether this process was told where mem's data is (``MEM_HOME`` or ``XDG_DATA_HOME``).

    Neither: ``mem_home()`` is the default, which is the user's only when their own
    shell names neither either (a server an agent starts may get a stripped environment).
    """
    return bool(os.environ.get("MEM_HOME") or os.environ.get("XDG_DATA_HOME"))


def check_project_name(name: str) -> str:
    if not _PROJECT_RE.fullmatch(name) or name in (".", ".."):
        raise InvalidInput(f"invalid project name {name!r}: use letters, digits, '.', '_' or '-'")
    return name


def project_name(cwd: Path) -> str | None:
    """The project the directory belongs to, named after its git repository.

    Derived from the *common* git dir, so every worktree of one repository (and
    agents use worktrees a lot) names the same project and shares one store.
    """
    return places.project_name(str(cwd))


def locate(store: str | None, project: str | None, cwd: Path) -> StoreLocation:
    """Where the store is; first match wins (SPEC section 1).

    ``--store``, then ``--project`` (a flag beats an environment variable), then
    ``MEM_STORE``, then a ``.mem/`` store found walking up from ``cwd``, then the
    central store of the git repository ``cwd`` is in.
    """
    if store:
        return _given(store, "--store")
    if project is not None:
        return StoreLocation(mem_home() / check_project_name(project), "central", project)
    env_store = os.environ.get("MEM_STORE")
    if env_store:
        return _given(env_store, "MEM_STORE")
    for directory in (cwd, *cwd.parents):
        candidate = directory / LOCAL_STORE_DIR
        if candidate.is_dir():
            if _can_be_store(candidate):
                return StoreLocation(candidate, ".mem")
            from memcli.core import notices

            notices.once(passed_over_line(candidate))
    project = project_name(cwd)
    if project is None:
        raise StoreError(
            f"{cwd} is not inside a git repository, so mem cannot tell which project's "
            "memory to use: pass --project NAME or --store DIR, or run `mem init --local`"
        )
    return StoreLocation(mem_home() / check_project_name(project), "central", project)


def _can_be_store(folder: Path) -> bool:
    """A git repository of its own, or a folder holding nothing but mem's cache."""
    return places.can_be_store(str(folder))


def passed_over(cwd: Path) -> list[Path]:
    """The ``.mem/`` folders above ``cwd`` that ``locate`` passes over: not stores."""
    found = []
    for directory in (cwd, *cwd.parents):
        candidate = directory / LOCAL_STORE_DIR
        if candidate.is_dir():
            if _can_be_store(candidate):
                break
            found.append(candidate)
    return found


def passed_over_line(folder: Path) -> str:
    return (
        f"{folder} is ignored: it is not a git repository, so it is no memory store "
        "(`mem init --local` makes one in an empty .mem/)"
    )


def _given(store: str, source: str) -> StoreLocation:
    """A store named by the user; a team folder (``.mem-team`` in a git work tree) is ``team``,
    the user layer's store is ``user``."""
    from memcli.store.layers import TEAM_DIR, user_store_root

    root = Path(store).expanduser().absolute()
    if root.name == TEAM_DIR:  # the store code is imported only for a folder named so
        from memcli.store.team import is_team_folder

        if is_team_folder(root):
            return StoreLocation(root, "team")
    is_user = os.path.realpath(root) == os.path.realpath(user_store_root())
    return StoreLocation(root, "user" if is_user else source)


def central_projects() -> list[tuple[str, Path]]:
    """Every project's central store under ``mem_home()``, by name (sorted): each folder there
    named as a project is (the user's store, ``_user``, and dot files are not projects)."""
    try:
        entries = list(os.scandir(mem_home()))
    except OSError:
        return []
    found = []
    for entry in entries:
        if _PROJECT_RE.fullmatch(entry.name) and entry.is_dir():
            found.append((entry.name, Path(entry.path).absolute()))
    return sorted(found)


def local_store_root(cwd: Path) -> Path:
    """Where ``mem init --local`` puts a store: ``.mem/`` at the top of the work tree."""
    return (work_tree_top(cwd) or cwd) / LOCAL_STORE_DIR
