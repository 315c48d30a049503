"""The worker's side: its hook routes, the checks in front of every request, and its exit.

``mem serve --worker`` is ``mem serve`` on the store's default socket with three
additions (``mem serve`` alone answers the hook routes too, and checks the headers):

- a request from a caller of another store, another mem (``Mem-Stamp``) or
  another environment (``Mem-Env``) is refused with 409, so that the caller
  answers itself; the worker exits after refusing another mem, since the one
  installed is no longer its own;
- it exits after ``[serve] idle`` seconds without a request, on a timer re-armed
  at most once a minute (no polling), and when its store is gone or moved
  (checked by that timer and before each request);
- it holds the store's worker lock for its whole life: one worker a store.

A hook's answer is ``protocol.answer``, the function the hook calls in its own
process, with the same input. What it would note for the session (what recall
gave it) is kept under a ticket and written when the caller, having taken the
answer in time, says so (``POST /api/hook/keep/TICKET``): a caller that gave up
and answered itself is never left with a record of what it did not show.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memcli.adapters.http.auth import refuse
from memcli.adapters.worker import client

HOOK_MOMENTS = ("context", "recall")
"""What a worker answers for a hook: the reads. Writes stay in the hook's process."""
TICKET_SECONDS = 60.0
"""How long a hook's writes wait for their caller's word; then they are dropped."""
MAX_TICKETS = 1000
CHECK_SECONDS = 60.0
"""The longest the exit timer sleeps: whether the store is still there is seen this often."""

Scope = dict[str, Any]


def _identity(root: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(root / ".git")
        return info.st_dev, info.st_ino
    except OSError:
        return None


@dataclass
class WorkerState:
    """What the checks compare with, and what the exit timer follows."""

    root: Path
    idle: float
    """Seconds without a request before exiting; 0: never (a ``mem serve`` someone started)."""
    exits: bool
    """A worker (``--worker``): exits when idle, moved, or of another mem."""
    stamp: str = field(default_factory=client.stamp)
    env: str = field(default_factory=client.env_digest)
    last: float = field(default_factory=time.monotonic)
    started: float = field(default_factory=time.time)
    """When it started (seconds since the epoch: ``/health`` shows it)."""
    active: int = 0
    answered: int = 0
    """Hooks and reads answered for a caller (``/health``)."""
    late: int = 0
    """Of those, answered after the caller had given up waiting."""
    stopping: bool = False
    identity: tuple[int, int] | None = None
    tickets: dict[str, tuple[float, list[Callable[[], None]]]] = field(default_factory=dict)
    _counter: itertools.count[int] = field(default_factory=itertools.count)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.identity = _identity(self.root)

    def store_gone(self) -> bool:
        """Whether the store left its place (moved, removed, replaced)."""
        return _identity(self.root) != self.identity

    def stop(self, why: str) -> None:
        """Exit as SIGTERM does: requests under way finish, the socket file goes."""
        if self.exits and not self.stopping:
            self.stopping = True
            print(f"mem: the worker stops: {why}", file=sys.stderr, flush=True)
            os.kill(os.getpid(), signal.SIGTERM)

    # -------------------------------------------------------------- tickets

    def keep(self, writes: list[Callable[[], None]]) -> str | None:
        """A ticket for ``writes`` (None when there are none)."""
        if not writes:
            return None
        now = time.monotonic()
        with self._lock:
            for ticket, (since, _) in list(self.tickets.items()):
                if now - since > TICKET_SECONDS or len(self.tickets) >= MAX_TICKETS:
                    del self.tickets[ticket]
            ticket = f"{os.getpid()}-{next(self._counter)}"
            self.tickets[ticket] = (now, writes)
        return ticket

    def take(self, ticket: str) -> list[Callable[[], None]] | None:
        with self._lock:
            found = self.tickets.pop(ticket, None)
        return None if found is None else found[1]

    # ----------------------------------------------------------------- timer

    def arm(self) -> None:
        """Start the exit timer (in the server's event loop)."""
        if self.exits:
            asyncio.get_running_loop().call_later(self._sleep(), self._wake)

    def _sleep(self) -> float:
        left = self.idle - (time.monotonic() - self.last) if self.idle else CHECK_SECONDS
        return max(0.05, min(left, CHECK_SECONDS))

    def _wake(self) -> None:
        if self.store_gone():
            self.stop(f"its store {self.root} is gone or moved")
        elif self.idle and not self.active and time.monotonic() - self.last >= self.idle:
            self.stop(f"no request for {self.idle:g} s")
        else:
            asyncio.get_running_loop().call_later(self._sleep(), self._wake)


class WorkerGuard:
    """ASGI middleware: the caller's headers checked, activity followed (see the module doc)."""

    def __init__(self, app: Any, state: WorkerState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = self.state
        state.active += 1
        state.last = time.monotonic()
        try:
            refusal = self._refusal(dict(scope["headers"]))
            if refusal is not None:
                await refuse(send, *refusal)
                return
            await self.app(scope, receive, send)
        finally:
            state.active -= 1
            state.last = time.monotonic()

    def _refusal(self, headers: dict[bytes, bytes]) -> tuple[int, str] | None:
        state = self.state
        if state.store_gone():
            state.stop(f"its store {state.root} is gone or moved")
            return 410, f"the store {state.root} this worker served is gone or moved"
        store = headers.get(client.STORE_HEADER.lower().encode())
        if store is not None and store.decode("latin-1") != client.store_header(state.root):
            return 409, f"this worker serves the store {state.root}, not the caller's"
        stamp = headers.get(client.STAMP_HEADER.lower().encode())
        if stamp is not None and stamp.decode("latin-1") != state.stamp:
            state.stop("the installed mem changed")
            return 409, "this worker runs another version of mem than the caller"
        env = headers.get(client.ENV_HEADER.lower().encode())
        if env is not None and env.decode("latin-1") != state.env:
            return 409, "this worker was started with other MEM_/XDG_/HF_/GIT_ variables"
        return None


def hook_answer(agent: str, event: str, payload: Any, root: Path) -> dict[str, Any]:
    """What the hook would answer in its own process, its notices, and its writes kept.

    Only for a hook whose directory finds the store at ``root`` here too (a relative
    ``MEM_STORE`` would find another from the worker's directory): else PermissionError.
    """
    from memcli.adapters.agents.events import directory
    from memcli.adapters.agents.protocol import MOMENTS, answer
    from memcli.core.errors import MemError
    from memcli.retrieval import injected
    from memcli.store.location import locate

    if MOMENTS.get(agent, {}).get(event) not in HOOK_MOMENTS:
        raise LookupError(f"the worker does not answer {agent} {event}")
    where = directory(payload.get("cwd")) if isinstance(payload, dict) else None
    try:
        found = locate(None, None, where).root if where is not None else None
    except MemError:
        found = None
    if found != root:
        raise PermissionError(f"this worker serves the store {root}, not the hook's")
    notices: list[str] = []
    with injected.deferred() as writes:
        reply = answer(agent, event, payload, notices.append)
    return {"reply": reply, "notices": notices, "writes": writes}


def warm() -> None:
    """Import what hooks need now, not at the first prompt."""
    with contextlib.suppress(ImportError):
        import memcli.adapters.agents.protocol  # noqa: F401
        import memcli.retrieval.context  # noqa: F401
        import memcli.retrieval.recall  # noqa: F401
        import memcli.retrieval.render  # noqa: F401
