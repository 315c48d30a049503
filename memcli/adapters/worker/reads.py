"""``mem context``, ``mem recall`` and ``mem search`` through the worker: the same text,
computed warm (a semantic model stays loaded there).

The command asks first (``ask``), within ``[serve] budget``; on any failure it
answers in its own process. The worker computes the text with the functions the
command calls (``context_text``, ``recall_text``, ``search_text``), for the store
and the working directory the command was run with. For context and recall only
the plain text goes through the worker: ``--json``, ``--explain`` and
``--check-templates`` are answered in the command's own process; a search goes
through in every form. A command given ``--layer`` answers itself.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.adapters.worker import client

if TYPE_CHECKING:
    from memcli.service.memory import Memory
    from memcli.store.location import StoreLocation

READS = ("context", "recall", "search")
FIELDS = {
    "context": ("budget", "prompt", "session"),
    "recall": ("budget", "prompt", "session"),
    "search": tuple(
        "query filters limit strict mode raw explain transcripts as_json".split()
    ),  # SearchAsked's fields
}
"""What each read takes beside ``store``, ``project`` and ``cwd``."""


def context_text(memory: Memory, budget: int | None, project: Path) -> str:
    """What ``mem context`` prints (its notes go to the memory's ``notify``)."""
    from memcli.retrieval.context import session_start

    return session_start(memory, budget, project=project)[1]


def recall_text(
    memory: Memory, prompt: str, budget: int | None, session: str | None, project: Path
) -> str:
    """What ``mem recall`` prints; what it gave ``session`` is noted for it. ``project``:
    the work tree whose history marks the memories whose files changed since."""
    from memcli.retrieval.recall import Recall

    return Recall.gather(memory, prompt, budget, session=session, project=project).render()


def ask(
    what: str,
    store_dir: str | None,
    project: str | None,
    arguments: dict[str, Any],
    notify: Callable[[str], None],
) -> str | None:
    """The text the worker computed for this read (its notices given to ``notify``); None:
    no worker answered in time, and the command answers itself. Never raises."""
    try:
        found = _worker_of(store_dir, project)
        if found is None:
            return None
        root, socket, budget = found
        request = {"store": store_dir, "project": project, "cwd": str(Path.cwd()), **arguments}
        data = client.taken(socket, f"/api/read/{what}", root, request, budget, _valid)
    except Exception:
        return None
    if data is None:
        return None
    for message in data["notices"]:
        notify(message)
    return str(data["text"])


def _worker_of(store_dir: str | None, project: str | None) -> tuple[Path, Path, float] | None:
    """The store's root, its worker's socket and ``[serve] budget`` (seconds); None: no
    worker to ask."""
    from memcli.core import config
    from memcli.core.errors import MemError
    from memcli.store.location import locate

    try:
        root = locate(store_dir, project, Path.cwd()).root
        budget = config.load(root)["serve"]["budget"] / 1000
    except MemError:
        return None  # the command says what is wrong
    socket = client.worker_socket(root)
    return (root, socket, budget) if socket is not None and socket.exists() else None


def _valid(data: dict[str, Any]) -> bool:
    return isinstance(data.get("text"), str)


def answer(what: str, request: dict[str, Any], root: Path) -> dict[str, Any]:
    """The worker's side: the text of one read of the store at ``root``, its notices, and
    what it would note for a session, kept."""
    from memcli.retrieval import injected
    from memcli.service.layers import Layers
    from memcli.store.location import locate

    if what not in READS:
        raise LookupError(f"the worker does not answer {what!r}")
    cwd = Path(_text(request, "cwd") or "/")
    location = locate(_text(request, "store"), _text(request, "project"), cwd)
    if location.root != root:
        raise PermissionError(f"this worker serves the store {root}, not {location.root}")
    notices: list[str] = []
    if what == "search":
        return _search(location, cwd, request, notices)
    memory = Layers(location, cwd, notices.append).reader(borrow=True)  # as the command reads
    budget = request.get("budget")
    budget = budget if isinstance(budget, int) and not isinstance(budget, bool) else None
    try:
        with injected.deferred() as writes:
            if what == "context":
                text = context_text(memory, budget, cwd)
            else:
                memory.require_store()
                prompt = _text(request, "prompt") or ""
                text = recall_text(memory, prompt, budget, _text(request, "session"), cwd)
    finally:
        memory.close()
    return {"text": text, "notices": notices, "writes": writes}


def _search(
    location: StoreLocation, cwd: Path, request: dict[str, Any], notices: list[str]
) -> dict[str, Any]:
    """What ``mem search`` prints for the search ``request`` describes."""
    from memcli.adapters.cli.commands.search import SearchAsked, search_text
    from memcli.service.layers import Layers

    asked = SearchAsked.from_request(request)
    memory = Layers(location, cwd, notices.append).reader()  # as the command reads
    try:
        text = search_text(memory, asked, notices.append)
    finally:
        memory.close()
    return {"text": text, "notices": notices, "writes": []}


def _text(request: dict[str, Any], name: str) -> str | None:
    value = request.get(name)
    return value if isinstance(value, str) else None
