"""The compiled guard table of a layer: its active guards, in a small JSON file beside its index.

The pre-tool hook runs on every tool call an agent makes, so it never opens the
index: each refresh of a layer's index writes ``guards.json`` next to it (the
store's ``.cache/``; a team folder's cache in the user's cache folder), holding
every guard of the memories that are neither forgotten nor superseded, with the
memory's id, title and a short text. The file is replaced atomically (a temporary
file, then a rename): a reader sees the old table or the new one.

The table records the **state** of the store it was built from, read from files
alone, never a git process: for a store of its own, the commit its HEAD names (read
from ``.git/HEAD``, the branch's ref file or ``packed-refs``); for a team folder,
whose state is what is staged, the stat of the project's git index file. Every
mem write commits (or, in a team folder, stages), so a table whose state is the
store's is current. The hook compares the two: a stale table is still used (it
was right a moment ago) and a detached refresh is started, once per state
(``memcli.adapters.agents.pretool``).

Standard library only, and light: the hook imports this module.
"""

from __future__ import annotations

import json
import os
import stat
from collections import namedtuple

from memcli.core import places

TYPE_CHECKING = False  # not typing's: the hook never imports typing
if TYPE_CHECKING:
    from typing import Any, NamedTuple

TABLE_FILE = "guards.json"
FORMAT = 1
MAX_TEXT_CHARS = 300
"""Of a memory's text, what its guard's row keeps (the agent is told it on a match)."""
MAX_TABLE_BYTES = 8 << 20
"""A larger table is damaged: the hook reads none of it."""
_OPEN_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


if TYPE_CHECKING:

    class Row(NamedTuple):
        """One active guard, with what the hook says of its memory."""

        id: str
        title: str
        text: str
        layer: str
        tool: str
        glob: str
        action: str

else:
    Row = namedtuple("Row", "id title text layer tool glob action")


class Table:
    """A table read: the store state it was built at, and its rows."""

    __slots__ = ("rows", "state")

    def __init__(self, state: str, rows: list[Row]) -> None:
        self.state, self.rows = state, rows


class Damaged(ValueError):
    """A guard table that cannot be read as one (``mem doctor`` names it; reindex repairs it)."""


class LayerTable:
    """Where a layer's store and table are, and how its state is read."""

    __slots__ = ("layer", "path", "root", "team")

    def __init__(self, layer: str, root: str, path: str, team: bool) -> None:
        self.layer, self.root, self.path, self.team = layer, root, path, team

    def state(self) -> str:
        return team_state(self.root) if self.team else store_state(self.root)


def store_state(root: str) -> str:
    """A store of its own: the commit HEAD names (``head:`` and the id, or HEAD as it stands)."""
    git_dir = places.resolve_git_dir(os.path.join(root, ".git"))
    return "head:" + places.head_from_files(git_dir)


def team_state(folder: str) -> str:
    """A team folder: the stat of the project's git index file (what mem stages changes it)."""
    top = places.work_tree_top(os.path.dirname(os.path.abspath(folder)))
    if top is None:
        return "index:none"
    git_dir = places.resolve_git_dir(os.path.join(top, ".git"))
    try:
        status = os.stat(os.path.join(git_dir, "index"))
    except FileNotFoundError:
        return "index:none"
    return f"index:{status.st_ino}:{status.st_mtime_ns}:{status.st_size}"


def team_cache_dir(folder: str) -> str:
    """Where a team folder's derived files are (``memcli.store.team``)."""
    from memcli.core.failure_log import cache_folder

    key = places.short_hash(os.path.realpath(folder))
    return os.path.join(cache_folder(), "team", key)


def clip(text: str) -> str:
    """A memory's text as a row keeps it: one paragraph of spaces, at most MAX_TEXT_CHARS."""
    text = " ".join(text.split())
    if len(text) <= MAX_TEXT_CHARS:
        return text
    return text[: MAX_TEXT_CHARS - 1].rstrip() + "…"


def write(path: str, state: str, rows: list[Row]) -> None:
    """Replace the table at ``path`` atomically (a temporary file beside it, then a rename)."""
    data = {"format": FORMAT, "state": state, "guards": [list(row) for row in rows]}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def read(path: str) -> Table | None:
    """The table at ``path``; None when there is none; ``Damaged`` when it is not a table."""
    try:
        # Never through a link, never blocked on a FIFO: a table is a regular file.
        fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Damaged(f"{path} cannot be read ({exc.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Damaged(f"{path} is not a regular file")
        with os.fdopen(fd, "rb") as file:
            fd = -1
            raw = file.read(MAX_TABLE_BYTES + 1)
    except OSError as exc:
        raise Damaged(f"{path} cannot be read ({exc.strerror})") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(raw) > MAX_TABLE_BYTES:
        raise Damaged(f"{path} is over {MAX_TABLE_BYTES >> 20} MB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError:
        raise Damaged(f"{path} is not JSON") from None
    return _table(path, data)


def _table(path: str, data: Any) -> Table:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Damaged(f"{path} is not a guard table of format {FORMAT}")
    state, items = data.get("state"), data.get("guards")
    if not isinstance(state, str) or not isinstance(items, list):
        raise Damaged(f"{path} has no state or no guards list")
    rows = []
    for item in items:
        if not isinstance(item, list) or len(item) != len(Row._fields):
            raise Damaged(f"{path} holds a row that is not {len(Row._fields)} fields")
        if not all(isinstance(value, str) for value in item):
            raise Damaged(f"{path} holds a row that is not text")
        rows.append(Row(*item))
    return Table(state, rows)


def layer_tables(cwd: str) -> list[LayerTable]:
    """The layers' tables a tool call in ``cwd`` is checked against: the user's, the
    project's (``MEM_STORE``, a ``.mem/`` store above ``cwd``, else the central store
    of its git repository) and the team folder's of its work tree; each store once."""
    found: list[LayerTable] = []
    user = places.user_store_root()
    project = _project_root(cwd)
    top = places.work_tree_top(cwd)
    team = os.path.join(top, places.TEAM_DIR) if top is not None else None
    seen: set[str] = set()
    for layer, root in (("user", user), ("project", project), ("team", team)):
        if root is None:
            continue
        real = os.path.realpath(root)
        if real in seen:
            continue
        seen.add(real)
        if layer == "team":
            if os.path.islink(root) or not os.path.isdir(root):
                continue
            path = os.path.join(team_cache_dir(root), TABLE_FILE)
        else:
            path = os.path.join(root, places.CACHE_DIR, TABLE_FILE)
        found.append(LayerTable(layer, root, path, layer == "team"))
    return found


def _project_root(cwd: str) -> str | None:
    """The project's store, found as ``memcli.store.location.locate`` finds it."""
    configured = os.environ.get("MEM_STORE")
    if configured:
        return os.path.abspath(os.path.expanduser(configured))
    directory = cwd
    while True:
        candidate = os.path.join(directory, places.LOCAL_STORE_DIR)
        if os.path.isdir(candidate) and places.can_be_store(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    name = places.project_name(cwd)
    return None if name is None else os.path.join(places.mem_home(), name)
