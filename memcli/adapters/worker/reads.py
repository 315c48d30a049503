"""``mem context`` and ``mem recall`` through the worker: the same text, computed warm.

The command asks first (``ask``), within ``[serve] budget``; on any failure it
answers in its own process. The worker computes the text with the functions the
command calls (``context_text``, ``recall_text``), for the store and the working
directory the command was run with. Only the plain text goes through the worker:
``--json``, ``--explain`` and ``--check-templates`` are answered in the command's
own process.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.adapters.worker import client

if TYPE_CHECKING:
    from memcli.service.memory import Memory

READS = ("context", "recall")


def context_text(memory: Memory, budget: int | None, project: Path) -> str:
    """What ``mem context`` prints (its notes go to the memory's ``notify``)."""
    from memcli.retrieval.context import session_start

    return session_start(memory, budget, project=project)[1]


def recall_text(memory: Memory, prompt: str, budget: int | None, session: str | None) -> str:
    """What ``mem recall`` prints; what it gave ``session`` is noted for it."""
    from memcli.retrieval.recall import Recall

    return Recall.gather(memory, prompt, budget, session=session).render()


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
        return _ask(what, store_dir, project, arguments, notify)
    except Exception:
        return None


def _ask(
    what: str,
    store_dir: str | None,
    project: str | None,
    arguments: dict[str, Any],
    notify: Callable[[str], None],
) -> str | None:
    from memcli.core import config
    from memcli.core.errors import MemError
    from memcli.store.location import locate

    cwd = Path.cwd()
    try:
        root = locate(store_dir, project, cwd).root
        budget = config.load(root)["serve"]["budget"] / 1000
    except MemError:
        return None  # the command says what is wrong
    socket = client.worker_socket(root)
    if socket is None or not socket.exists():
        return None
    deadline = time.monotonic() + budget
    request = {"store": store_dir, "project": project, "cwd": str(cwd), **arguments}
    body = json.dumps(request, ensure_ascii=False).encode("utf-8", "surrogatepass")
    data = client.ask(socket, "POST", f"/api/read/{what}", root, body=body, budget=budget)
    if not isinstance(data, dict) or not isinstance(data.get("text"), str):
        return None
    notices = data.get("notices")
    if not isinstance(notices, list) or not all(isinstance(n, str) for n in notices):
        return None
    ticket = data.get("ticket")
    if isinstance(ticket, str):  # as for a hook (``hooks.ask``)
        left = max(deadline - time.monotonic(), budget / 2)
        client.ask(socket, "POST", f"/api/hook/keep/{ticket}", root, budget=left)
    for message in notices:
        notify(message)
    return str(data["text"])


def answer(what: str, request: dict[str, Any], root: Path) -> dict[str, Any]:
    """The worker's side: the text of one read of the store at ``root``, its notices, and
    what it would note for a session, kept."""
    from memcli.retrieval import injected
    from memcli.service.memory import Memory
    from memcli.store.location import locate

    if what not in READS:
        raise LookupError(f"the worker does not answer {what!r}")
    cwd = Path(_text(request, "cwd") or "/")
    location = locate(_text(request, "store"), _text(request, "project"), cwd)
    if location.root != root:
        raise PermissionError(f"this worker serves the store {root}, not {location.root}")
    notices: list[str] = []
    memory = Memory(location, notices.append)
    budget = request.get("budget")
    budget = budget if isinstance(budget, int) and not isinstance(budget, bool) else None
    try:
        with injected.deferred() as writes:
            if what == "context":
                text = context_text(memory, budget, cwd)
            else:
                memory.require_store()
                prompt = _text(request, "prompt") or ""
                text = recall_text(memory, prompt, budget, _text(request, "session"))
    finally:
        memory.close()
    return {"text": text, "notices": notices, "writes": writes}


def _text(request: dict[str, Any], name: str) -> str | None:
    value = request.get(name)
    return value if isinstance(value, str) else None
