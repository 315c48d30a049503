"""``mem doctor``'s checks of a layer's guards: its table, and guards that can never match.

The table (``core.guard_table``) is what the pre-tool hooks read: a damaged one
makes them enforce none of the layer's guards (they fail open), a stale one
lags behind the store until the next read rewrites it. Both are checked before
anything refreshes the index, since a refresh rewrites the table.

A guard can never match when the hook's normalizing rules rule it out
(``core.guards``): shell commands are compared with their words single-spaced,
so a Bash glob with a leading or trailing space, two spaces in a row, or a tab
or newline never fires; paths inside the project are compared relative to its
top, so an absolute path glob inside the project never fires there.
"""

from __future__ import annotations

import os

from memcli.core import guard_table, places
from memcli.core.guards import PATH_TOOLS, SHELL_TOOLS


def table_problem(path: str, state: str) -> tuple[str | None, bool]:
    """What is wrong with the table at ``path`` for a store in ``state`` (None: nothing),
    and whether that is a problem (damaged) rather than a warning (stale). A missing table
    is none of these: the first read writes it."""
    try:
        table = guard_table.read(path)
    except guard_table.Damaged as exc:
        return (
            f"the guard table is damaged ({exc}): the agents' hooks enforce none of this "
            "layer's guards until it is rewritten (`mem reindex`, or `mem doctor --fix`)",
            True,
        )
    if table is not None and table.state != state:
        return (
            f"the guard table at {path} is behind the store: the hooks check the guards it "
            "had until a read rewrites it (`mem reindex` does)",
            False,
        )
    return None, False


def never_matching(rows: list[guard_table.Row], cwd: str) -> list[str]:
    """Lines for the guards that can never fire (see the module's doc)."""
    top = places.work_tree_top(cwd)
    lines = []
    for row in rows:
        why = _why_never(row, top)
        if why:
            lines.append(
                f"guard {row.tool}:{row.glob!r} of [{row.id[:10]}] {row.title!r} never matches: "
                f"{why} (`mem edit {row.id}`)"
            )
    return lines


def _why_never(row: guard_table.Row, top: str | None) -> str | None:
    glob = row.glob
    if row.tool in SHELL_TOOLS:
        if glob != glob.strip(" ") or "  " in glob:
            return "commands are compared single-spaced, without leading or trailing spaces"
        if any(ch.isspace() and ch != " " for ch in glob):
            return "commands are compared with tabs and newlines as single spaces"
    elif row.tool in PATH_TOOLS and top is not None and os.path.isabs(glob):
        inside = os.path.relpath(os.path.normpath(glob), top)
        if not inside.startswith(".."):
            return f"paths in this project are compared relative to its top: write {inside!r}"
    return None
