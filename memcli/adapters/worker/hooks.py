"""A hook's side of the worker: ask it for the answer, and start it at a session start.

Only the reads go to the worker (the session-start context and recall); every
other moment, and every failure of the worker, is answered in the hook's own
process. Nothing here raises: a worker that cannot help is ``None``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from memcli.adapters.worker import client

ASKED_MOMENTS = ("context", "recall")
"""The hook moments a worker answers (``server.HOOK_MOMENTS``)."""


class Target(NamedTuple):
    """The store a hook's input names, its worker's socket, and its ``[serve]`` settings."""

    root: Path
    socket: Path | None
    auto: bool
    budget: float
    """Seconds."""


class Answer(NamedTuple):
    reply: dict[str, Any] | None
    notices: list[str]


def target(moment: str | None, payload: Any) -> Target | None:
    """Where a worker for this hook would be; None: the hook answers itself, no question."""
    if moment not in ASKED_MOMENTS or not isinstance(payload, dict):
        return None
    from memcli.adapters.agents.events import directory
    from memcli.core import config
    from memcli.core.errors import MemError
    from memcli.store.location import locate

    where = directory(payload.get("cwd"))
    if where is None:
        return None  # the hook's own working directory decides: the worker's is another
    try:
        root = locate(None, None, where).root
        settings = config.load(root)["serve"]
    except MemError:
        return None  # the hook says what is wrong, in its own process
    socket = client.worker_socket(root)
    return Target(root, socket, bool(settings["auto"]), settings["budget"] / 1000)


def ask(found: Target, agent: str, event: str, payload: dict[str, Any]) -> Answer | None:
    """The worker's answer to this hook, within the budget; None: none came."""
    if found.socket is None or not found.socket.exists():
        return None
    target = f"/api/hook/{agent}/{event}"
    data = client.taken(found.socket, target, found.root, payload, found.budget, _valid)
    return None if data is None else Answer(data["reply"], data["notices"])


def _valid(data: dict[str, Any]) -> bool:
    reply = data.get("reply")
    return reply is None or isinstance(reply, dict)


def start(found: Target, moment: str | None) -> None:
    """At a session start the worker did not answer: start one, detached, never waited for."""
    if moment != "context":
        return
    socket = found.socket or client.worker_socket(found.root)
    if socket is not None:
        client.start_worker(found.root, socket, "session start: warm worker")
