"""Where each layer's store is: the user's own, the project's, and the team's.

* **user**: one store per person, beside the central stores (``$MEM_HOME/_user``,
  or ``MEM_USER_STORE``): what holds in every project.
* **project**: the store ``memcli.store.location.locate`` finds (central or ``.mem/``).
* **team**: the folder ``.mem-team/`` at the top of the project's own git work tree,
  tracked by the project's repository and reviewed with its code. A teammate's
  clone needs no setup: the folder present is the layer.

A project name never starts with ``_`` (``check_project_name``), so the user
store cannot collide with a project's central store.
"""

from __future__ import annotations

from pathlib import Path

from memcli.core import places
from memcli.core.schema import TEAM_DIR as TEAM_DIR  # imported from here too
from memcli.store.git import work_tree_top

USER_STORE_DIR = places.USER_STORE_DIR


def user_store_root() -> Path:
    """The user layer's store: ``MEM_USER_STORE``, else ``$MEM_HOME/_user``."""
    return Path(places.user_store_root())


def team_folder_root(cwd: Path) -> Path | None:
    """Where the team layer of ``cwd``'s project is (or would be), or None outside git."""
    top = work_tree_top(cwd)
    return None if top is None else top / TEAM_DIR


def find_team_folder(cwd: Path) -> Path | None:
    """The team layer's folder when the project has one (a real folder, not a link)."""
    root = team_folder_root(cwd)
    if root is None or root.is_symlink() or not root.is_dir():
        return None
    return root
