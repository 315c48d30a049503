"""What a connection to ``mem serve`` may hold: time for its request, a place among those waiting.

uvicorn bounds neither how long a request's head or body may take to arrive nor
which connections its one concurrency limit counts: a thousand clients that send
half a request line hold every place, and nobody with the token gets in. So each
connection here runs on uvicorn's h11 protocol with three additions:

- its request head must arrive within ``header_timeout`` of the connection (or of
  the first byte of a later request), and its body within ``body_timeout`` of the
  head; past that it is answered 408 and closed;
- a connection is *waiting* until a request head with the token arrives (on a unix
  socket: any request head). At most ``max_waiting`` connections wait: the next one
  closes the longest waiting (answered 503). A connection that showed the token
  holds no such place, so clients without it cannot crowd it out;
- on a unix socket, a peer of another user (SO_PEERCRED) is dropped at once;
- refusals are mem's ``{"error": ...}`` JSON, a malformed request's 400 too, and at
  shutdown a request whose body is still arriving is answered 503 at once instead of
  holding the stop for the graceful delay.

How many requests are answered at once (``max_requests``) is the guard's
(``auth.Guard``): it counts only requests that passed the token check.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from memcli.adapters.http.auth import Access
from memcli.core.env import env_count, env_seconds

HEADER_TIMEOUT_ENV = "MEM_SERVE_HEADER_TIMEOUT"
BODY_TIMEOUT_ENV = "MEM_SERVE_BODY_TIMEOUT"
MAX_WAITING_ENV = "MEM_SERVE_MAX_WAITING"
MAX_REQUESTS_ENV = "MEM_SERVE_MAX_REQUESTS"
LINGER_SECONDS = 2.0
"""How long a refused connection is read (and dropped) until the client closes it."""


@dataclass(frozen=True)
class Limits:
    """Bounds on each process's connections and requests (see the module doc)."""

    header_timeout: float = 10.0
    """Seconds a request head may take to arrive."""
    body_timeout: float = 30.0
    """Seconds a request body may take to arrive after its head (a body is at most 1 MB)."""
    max_waiting: int = 128
    """Connections at once that have not yet sent a request head with the token."""
    max_requests: int = 1000
    """Requests with the token answered at once; past it, 503."""

    @classmethod
    def from_env(cls) -> Limits:
        """The defaults, each overridden by its ``MEM_SERVE_*`` variable when set."""
        default = cls()
        return cls(
            header_timeout=env_seconds(HEADER_TIMEOUT_ENV, default.header_timeout, 3600),
            body_timeout=env_seconds(BODY_TIMEOUT_ENV, default.body_timeout, 3600),
            max_waiting=env_count(MAX_WAITING_ENV, default.max_waiting, 1_000_000),
            max_requests=env_count(MAX_REQUESTS_ENV, default.max_requests, 1_000_000),
        )


def error_response(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 response with ``{"error": message}`` that closes the connection."""
    from http import HTTPStatus

    body = json.dumps({"error": message}).encode()
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode(),
        b"content-type: application/json",
        b"content-length: " + str(len(body)).encode(),
        b"connection: close",
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def protocol_class(limits: Limits, access: Access | None) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with these limits, for one server (its connections share
    one count of those waiting)."""

    class Protocol(GuardedProtocol):
        pass

    Protocol.limits, Protocol.access, Protocol.waiting = limits, access, {}
    return Protocol


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with deadlines, a bounded place among the waiting, and JSON
    refusals; ``protocol_class`` gives it its limits."""

    limits: ClassVar[Limits] = Limits()
    access: ClassVar[Access | None] = None
    """What a trusted request shows (``Access.trusted``); None: every request head is trusted."""
    waiting: ClassVar[dict[GuardedProtocol, None]] = {}
    """The connections without a trusted request yet, the longest waiting first."""
    _deadline: asyncio.TimerHandle | None = None
    _phase = ""
    """What the deadline is for: "head", "body", or "" (none runs)."""
    _refused = False

    # ------------------------------------------------------------ uvicorn's hooks

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if not same_user(transport.get_extra_info("socket")):
            transport.abort()  # another user's process: not even an answer
            return
        super().connection_made(transport)
        self._start("head")
        self.waiting[self] = None
        if len(self.waiting) > self.limits.max_waiting:
            oldest = next(iter(self.waiting))
            oldest._refuse(503, "too many connections are waiting to send a request: try again")

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()
        self.waiting.pop(self, None)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # read and dropped until the client closes (see _refuse)
        if not self._phase and self.conn.their_state is h11.IDLE:
            self._start("head")  # the first bytes of the next request on this connection
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        if self.conn.their_state is h11.SEND_BODY:  # answered before the body was read
            self._close()  # (a 413): the rest is of no use, and h11 cannot skip it
            return
        super().on_response_complete()  # may start the next request, sent ahead
        if self.conn.their_state is h11.IDLE:
            self._stop()  # idle now: uvicorn's keep-alive timeout applies
        else:  # the next request's head was here already
            self._phase = "head"
            self._follow()

    def send_400_response(self, msg: str) -> None:
        self._refuse(400, "the request is not valid HTTP/1.1 (its request line or a header)")

    def shutdown(self) -> None:
        if self._refused:
            self.transport.close()
        elif self.conn.their_state is h11.SEND_BODY:  # the rest may never come
            self._refuse(503, "the server is stopping")
        else:
            super().shutdown()

    # ------------------------------------------------------------------ the rest

    def _follow(self) -> None:
        """Move the deadline on as the request's head, then its body, arrive."""
        state = self.conn.their_state
        if self._phase == "head" and state is not h11.IDLE:
            if self.access is None or self.access.trusted(self.headers or []):
                self.waiting.pop(self, None)
            if state is h11.SEND_BODY:
                self._start("body")
            else:
                self._stop()
        elif self._phase == "body" and state is not h11.SEND_BODY:
            self._stop()

    def _start(self, phase: str) -> None:
        self._stop()
        limits = self.limits
        seconds = limits.header_timeout if phase == "head" else limits.body_timeout
        self._phase = phase
        self._deadline = self.loop.call_later(seconds, self._expired, phase, seconds)

    def _stop(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = ""

    def _expired(self, phase: str, seconds: float) -> None:
        self._deadline = None
        what = "request head" if phase == "head" else "request body"
        self._refuse(408, f"the {what} did not arrive within {seconds:g} s")

    def _refuse(self, status: int, message: str) -> None:
        """Answer ``{"error": message}`` unless an answer has begun, and close."""
        if self._refused or self.transport.is_closing():
            return
        if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):  # no answer begun
            self.transport.write(error_response(status, message))
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the application's answer, if any, goes nowhere
            cycle.message_event.set()
        self._close()

    def _close(self) -> None:
        """Close once the answer is out.

        Closing a socket with unread input makes the kernel send a reset, which can
        destroy the answer before the client reads it: so the sending side is shut
        first, and what still comes is read and dropped, for at most ``LINGER_SECONDS``.
        """
        self._stop()
        self.waiting.pop(self, None)
        if self._refused or self.transport.is_closing():
            return
        self._refused = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.flow.resume_reading()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()


def peer_uid(connection: Any) -> int | None:
    """The user id of the process at the other end of a unix socket (Linux: SO_PEERCRED);
    None when the platform or the socket cannot say."""
    import socket
    import struct

    option = getattr(socket, "SO_PEERCRED", None)
    if connection is None or option is None or connection.family != socket.AF_UNIX:
        return None
    try:
        _, uid, _ = struct.unpack("3i", connection.getsockopt(socket.SOL_SOCKET, option, 12))
    except OSError:
        return None
    return int(uid)


def same_user(connection: Any) -> bool:
    """Whether a connection may be served: not a unix socket's peer of another user.

    The socket's mode (0600, in a 0700 folder) already keeps others out; this holds
    even when a person loosened them.
    """
    uid = peer_uid(connection)
    return uid is None or uid == os.geteuid()


def log_config() -> dict[str, Any]:
    """uvicorn's log (and any library's): warnings and errors on stderr, one line each,
    prefixed ``mem:``; a request cut short by a stop is not reported twice."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"one_line": {"()": OneLine}},
        "formatters": {"mem": {"format": "mem: %(message)s"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "mem",
                "filters": ["one_line"],
            }
        },
        "loggers": {"uvicorn": {"handlers": ["stderr"], "propagate": False}},
        "root": {"handlers": ["stderr"], "level": "WARNING"},
    }


class OneLine:
    """A log filter: a record's exception as ``(Type: message)`` on its line, never a
    traceback; tasks cancelled by a stop dropped (uvicorn says how many, once)."""

    def filter(self, record: Any) -> bool:
        from memcli.core.text import one_line

        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, asyncio.CancelledError):
            return False
        message = record.getMessage()
        if exc is not None:
            message = f"{message} ({type(exc).__name__}: {exc})"
        record.msg, record.args = one_line(message, 2000), ()
        record.exc_info = record.exc_text = record.stack_info = None
        return True
