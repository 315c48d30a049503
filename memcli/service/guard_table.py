"""A layer's guard table kept in step with its index (``memcli.core.guard_table``).

``Memory`` calls ``follow`` after every refresh of the index: a refresh that
changed the index (a save, an edit, a forget, a supersede, a pull, a rebuild)
rewrites the table at once, so a forgotten or superseded memory's guards stop
with the command that removed them; an index already current rewrites it only
when the table is missing, damaged, or records another state of the store.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from memcli.core import guard_table
from memcli.index.schema import ACTIVE_GUARDS

if TYPE_CHECKING:
    from memcli.index import Index, RefreshReport
    from memcli.service.layers import Layers


def table_path(cache_dir: os.PathLike[str] | str) -> str:
    """The table of the store whose derived files are in ``cache_dir``."""
    return os.path.join(cache_dir, guard_table.TABLE_FILE)


def state_of(root: os.PathLike[str] | str, layer: str) -> str:
    """The store's state as the hook reads it (see ``core.guard_table``)."""
    if layer == "team":
        return guard_table.team_state(str(root))
    return guard_table.store_state(str(root))


def follow(index: Index, path: str, state: str, report: RefreshReport | None) -> None:
    """Write the table at ``path`` when the refresh changed the index, or when the table
    does not record ``state`` (the store's state read before the refresh)."""
    if report is None:
        try:
            table = guard_table.read(path)
        except guard_table.Damaged:
            table = None
        if table is not None and table.state == state:
            return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    guard_table.write(path, state, rows(index))


def rows(index: Index) -> list[guard_table.Row]:
    """The active guards of the index's memories, as table rows."""
    found = []
    for identity, title, narrative, facts, value in index.db.execute(ACTIVE_GUARDS):
        tool, glob, action = json.loads(value)
        text = narrative or " ".join(json.loads(facts)) or title
        found.append(
            guard_table.Row(
                identity, title, guard_table.clip(text), index.layer, tool, glob, action
            )
        )
    return found


def current_tables(layers: Layers) -> list[guard_table.Table]:
    """Every present layer's table, each brought up to date with its store first
    (``mem guards``, and the refresh the hook starts for a stale table)."""
    found = []
    for name in layers.present():
        memory = layers.memory(name)
        memory.refresh_index()
        table = guard_table.read(table_path(memory.store.cache_dir))
        if table is not None:
            found.append(table)
    return found
