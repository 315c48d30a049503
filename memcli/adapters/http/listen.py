"""Where ``mem serve`` listens: a unix socket it binds itself (0600), or a TCP port; uvicorn.

uvicorn would chmod a socket it binds (``uds=``) to 0666, so the socket is made
here: in a folder of mode 0700, bound under umask 077, then chmod 0600, and
handed to uvicorn already listening. A socket file left by a server that died
is replaced; one a live server answers on is an error. SIGTERM and SIGINT stop
the server cleanly (requests under way finish, for at most a few seconds) and
the socket file is removed. Each connection is bounded by ``connections.Limits``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import socket
import stat
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any, NoReturn

import uvicorn

from memcli.adapters.http.auth import Access
from memcli.adapters.http.connections import Limits, log_config, protocol_class
from memcli.adapters.worker import client
from memcli.core.errors import MemError

SOCKET_NAME = client.SOCKET_NAME
SOCKET_DIR = client.SOCKET_DIR
MAX_SOCKET_PATH = client.MAX_SOCKET_PATH
BACKLOG = 512
STOP_SECONDS = 5
"""How long requests under way may take to finish once asked to stop."""


def default_socket(cache_dir: Path) -> Path:
    """``<store>/.cache/serve/mem.sock``, else ``$XDG_RUNTIME_DIR/mem/<digest>.sock`` when the
    store's path is too long for a socket's address (``worker.client.default_socket``)."""
    try:
        return client.default_socket(cache_dir)
    except client.SocketPathTooLong as exc:
        raise MemError(
            f"the store's path is too long for a unix socket in it ({exc}): give --socket PATH"
        ) from None


def unix_listener(path: Path) -> socket.socket:
    """A listening unix socket at ``path``, mode 0600 (its folder made 0700 when missing)."""
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        raise MemError(
            f"the socket path {path} is over {MAX_SOCKET_PATH} bytes: give a shorter one"
        )
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    _replace_stale(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o077)
    try:
        listener.bind(str(path))
    except OSError as exc:
        listener.close()
        raise MemError(f"cannot listen on {path} ({exc.strerror})") from None
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    listener.listen(BACKLOG)
    return listener


def _replace_stale(path: Path) -> None:
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise MemError(f"{path} exists and is not a socket: remove it or give another --socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1)
        probe.connect(str(path))
    except (ConnectionRefusedError, FileNotFoundError):
        path.unlink(missing_ok=True)  # left by a server that is gone
        return
    except OSError as exc:
        raise MemError(f"cannot tell whether a server listens on {path} ({exc})") from None
    finally:
        probe.close()
    raise MemError(f"a server is already listening on {path}")


def tcp_listener(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: any free port)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except OSError as exc:
        raise MemError(f"cannot resolve the host {host!r} ({exc})") from None
    listener = socket.socket(family, kind, proto)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
    except OSError as exc:
        listener.close()
        raise MemError(f"cannot listen on {host}:{port} ({exc.strerror})") from None
    listener.listen(BACKLOG)
    return listener


class _Server(uvicorn.Server):
    """uvicorn's server, except that a SIGTERM or SIGINT ends ``serve`` normally: uvicorn
    raises the signal again once stopped, which would kill the process before the
    socket file is removed; and that it waits to be stopped instead of waking ten times
    a second (an idle worker uses no CPU; responses carry no Date header, which those
    ticks kept current)."""

    _stopped: asyncio.Event | None = None
    _loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        await self.on_tick(0)  # the default headers, once
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        if not self.should_exit:
            await self._stopped.wait()

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        if self._loop is not None and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        signals = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in signals}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def run(
    app: Any, listener: socket.socket, *, limits: Limits | None = None, access: Access | None = None
) -> None:
    """Serve ``app`` on ``listener`` until SIGTERM or SIGINT; removes a unix socket's file.

    ``limits`` bound each connection (``access``: what trusts it; see ``connections``).
    The application's start-up failing (uvicorn logs why) also returns.
    """
    path = _path(listener)
    try:
        _serve(app, listener, limits or Limits(), access)
    finally:
        _close(listener, path)


def run_workers(
    make_app: Callable[[Callable[[], None]], Any],
    listener: socket.socket,
    count: int,
    on_ready: Callable[[], None],
    *,
    limits: Limits | None = None,
    access: Access | None = None,
) -> str | None:
    """Serve from ``count`` processes forked on one listening socket (the kernel spreads
    the connections); what went wrong when one of them stopped on its own, else None.

    ``make_app(ready)`` builds each process's application, which calls ``ready``
    once it serves; ``on_ready`` runs here when all of them do. SIGTERM or SIGINT
    is passed on to every process; when one dies, the others are stopped. Call
    it before any thread starts (``fork`` copies only the calling thread).
    """
    path = _path(listener)
    readiness, ready_end = os.pipe()
    children: set[int] = set()
    stopping = False

    def stop(sig: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGTERM)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    failure: str | None = None
    try:
        for _ in range(count):
            pid = os.fork()
            if pid == 0:  # the worker: never returns
                for sig, handler in previous.items():
                    signal.signal(sig, handler)
                os.close(readiness)
                _worker(make_app, listener, ready_end, limits or Limits(), access)
            children.add(pid)
        os.close(ready_end)
        ready = 0
        while children:
            if ready < count:  # until every worker serves, or one dies
                if select.select([readiness], [], [], 0.2)[0]:
                    chunk = os.read(readiness, count)
                    ready += len(chunk) if chunk else count  # nothing: every worker gone
                    if chunk and ready >= count and not stopping:
                        on_ready()
                pid, status = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    continue
            else:
                pid, status = os.wait()
            children.discard(pid)
            code = os.waitstatus_to_exitcode(status)
            if (code != 0 or not stopping) and failure is None:
                how = f"exit code {code}" if code >= 0 else signal.Signals(-code).name
                failure = f"the server process {pid} stopped ({how})"
                stop(signal.SIGTERM, None)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        os.close(readiness)
        _close(listener, path)
    return failure


def _worker(
    make_app: Callable[[Callable[[], None]], Any],
    listener: socket.socket,
    ready_end: int,
    limits: Limits,
    access: Access | None,
) -> NoReturn:
    code = 1
    try:

        def ready() -> None:
            os.write(ready_end, b"+")

        _serve(make_app(ready), listener, limits, access)
        code = 0
    except BaseException as exc:
        print(f"mem: a worker failed ({type(exc).__name__}: {exc})", file=sys.stderr)
    finally:
        sys.stderr.flush()
        os._exit(code)


def _path(listener: socket.socket) -> str | None:
    """A unix socket's file (uvicorn closes the socket it was given: ask first)."""
    return str(listener.getsockname()) if listener.family == socket.AF_UNIX else None


def _close(listener: socket.socket, path: str | None) -> None:
    listener.close()
    if path:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _serve(app: Any, listener: socket.socket, limits: Limits, access: Access | None) -> None:
    config = uvicorn.Config(
        app,
        http=protocol_class(limits, access),
        ws="none",
        lifespan="on",
        log_config=log_config(),
        log_level="warning",
        access_log=False,
        backlog=BACKLOG,
        timeout_graceful_shutdown=STOP_SECONDS,
        server_header=False,
        date_header=False,
    )
    _Server(config).run(sockets=[listener])
