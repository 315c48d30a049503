from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from memcli.adapters.cli.options import notice, store_options
from memcli.core.errors import MemError


@click.command()
@click.option(
    "--socket",
    "socket_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Listen on this unix socket (default: .cache/serve/mem.sock in the store).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    help="Listen on TCP instead (0: any free port); every request then needs the token.",
)
@click.option(
    "--host",
    help="The TCP address (default 127.0.0.1). Any but loopback is reachable from elsewhere.",
)
@click.option(
    "--token-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="TCP's bearer token, made (mode 0600) if missing; MEM_API_TOKEN wins over it "
    "(default: .api-token in mem's data folder).",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 64),
    default=4,
    show_default=True,
    help="Reads answered at once in each process (writes go one at a time beside them).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Processes serving the one socket: more answer more searches a second on more cores.",
)
@click.option(
    "--worker",
    is_flag=True,
    help="Serve as the store's warm worker: on its default socket, one a store, exiting "
    "after [serve] idle seconds without a request, when the store moves or mem changes.",
)
@store_options
def serve(
    socket_path: Path | None,
    port: int | None,
    host: str | None,
    token_file: Path | None,
    threads: int,
    workers: int,
    worker: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Serve the memory over a local HTTP API, and MCP over HTTP, until stopped.

    \b
    JSON in and out; an error is {"error": "..."} with its HTTP status.
      GET  /health
      POST /api/memory/save       {"text": "...", "type": "gotcha", "key": ...}
      GET  /api/memory/search     ?query=...&type=&since=&until=&limit=
      GET  /api/memory/timeline   ?anchor=ID&before=5&after=5
      POST /api/memory/batch      {"ids": ["01JDX3Z6", "deploy-day"]}
      GET  /api/memory/inject     session-start context (?budget=), or ?prompt=
      /mcp                        MCP's streamable HTTP transport

    By default it listens on a unix socket only you can open (mode 0600), whose
    path it prints. With --port it listens on TCP (127.0.0.1 unless --host says
    otherwise) and every request needs the header "Authorization: Bearer
    TOKEN": MEM_API_TOKEN, else the token file, whose path it prints (on a
    terminal, also the viewer's address with the token), and a Host header
    naming this server. A viewer's sign-in lasts MEM_SERVE_SESSION_SECONDS
    (12 hours) or until the server stops. SIGTERM or Ctrl-C stops it.
    --workers N serves from N processes (searches are CPU-bound: one per
    core). Needs the serve extra: pipx install --force './mem[serve]'.

    A request's head must arrive within MEM_SERVE_HEADER_TIMEOUT seconds (10),
    its body within MEM_SERVE_BODY_TIMEOUT (30); at most MEM_SERVE_MAX_WAITING
    connections (128) wait without the token, and MEM_SERVE_MAX_REQUESTS
    requests (1000) are answered at once: past that, 408 or 503.

    \b
    --worker serves as the store's warm worker, which hooks and `mem recall` /
    `mem context` ask first: a session start starts one when mem.toml says
    [serve] auto = true (or the hook was installed with --worker). It holds the
    store's worker lock (a second one exits at once, quietly), and exits after
    [serve] idle seconds without a request, when its store moves or goes, or
    when the installed mem changes.

    \b
    Example:
        mem serve
        curl --unix-socket PATH 'http://mem/api/memory/search?query=deploy'
        mem serve --port 8765
    """
    if socket_path is not None and port is not None:
        raise click.UsageError("give --socket or --port, not both")
    if worker and (socket_path is not None or port is not None or workers > 1):
        raise click.UsageError("--worker serves on the store's own socket, in one process")
    if port is None and (host is not None or token_file is not None):
        raise click.UsageError("--host and --token-file go with --port")
    try:
        from memcli.adapters.http.app import build_app
        from memcli.adapters.http.auth import Access, is_loopback, load_token
        from memcli.adapters.http.connections import Limits
        from memcli.adapters.http.listen import (
            default_socket,
            run,
            run_workers,
            tcp_listener,
            unix_listener,
        )
        from memcli.adapters.http.session import session_seconds
        from memcli.adapters.http.stores import StorePool
    except ImportError as exc:
        names = ("starlette", "uvicorn", "mcp", "anyio", "pydantic", "h11")
        if exc.name is None or not exc.name.startswith(names):
            raise
        from memcli.adapters.mcp.sdk import reinstall_hint

        raise MemError(
            f"mem serve needs Starlette and uvicorn ({exc.name} is missing): "
            + reinstall_hint("serve")
        ) from None
    from memcli.api import open_store
    from memcli.semantic.scan import hold_codes
    from memcli.semantic.transformer import serve_requests

    hold_codes()  # a server searches many times: an ONNX model's codes are kept in memory
    serve_requests()
    limits = Limits.from_env()
    signed_in = session_seconds() if port is not None else 0.0
    store = open_store(store_dir, project=project, create=not worker, notify=notice)
    try:
        if worker and _worker_lock(default_socket(store.memory.store.cache_dir)) is None:
            store.close()
            return  # another worker serves this store, or is starting to
        store.list(limit=1)  # the index up to date before the first request
        if worker:  # its semantic model and codes loaded before a hook's first prompt
            store.search("warm", limit=1)
        access = Access.socket()
        viewer = None
        if port is None:
            path = (
                socket_path.absolute()
                if socket_path
                else default_socket(store.memory.store.cache_dir)
            )
            listener = unix_listener(path)
            where = f"unix socket {path}"
        else:
            address = host or "127.0.0.1"
            if not is_loopback(address):
                notice(
                    f"warning: {address} is reachable from other machines; the token is the "
                    "only guard, and the traffic is not encrypted"
                )
            token, source = load_token(token_file)
            listener = tcp_listener(address, port)
            bound = listener.getsockname()
            shown = f"[{bound[0]}]" if listener.family == socket.AF_INET6 else bound[0]
            where = f"http://{shown}:{bound[1]} (token in {source})"
            access = Access.tcp(token, [address, bound[0]], bound[1], signed_in)
            viewer = _viewer_url(f"http://{shown}:{bound[1]}", token)
    except BaseException:
        store.close()
        raise
    root = store.location.root
    ready = False

    def announce() -> None:
        nonlocal ready
        ready = True
        processes = f" ({workers} processes)" if workers > 1 else ""
        notice(f"serving {root} on {where}{processes}")
        if viewer is not None:
            notice(f"open the viewer at {viewer}")

    if workers == 1:
        pool = StorePool(root, threads, notice)
        pool.adopt(store)
        state = _worker_state(root) if worker else None
        app = build_app(
            pool,
            access=access,
            max_requests=limits.max_requests,
            on_ready=announce,
            worker=state,
        )
        run(app, listener, limits=limits, access=access)
    else:
        store.close()  # each process opens its own index connections

        def make_app(ready: Callable[[], None]) -> Any:
            pool = StorePool(root, threads, notice)
            return build_app(pool, access=access, max_requests=limits.max_requests, on_ready=ready)

        failure = run_workers(make_app, listener, workers, announce, limits=limits, access=access)
        if failure:
            raise MemError(f"{failure}; the others were stopped")
    if not ready:
        raise MemError("the server did not start (see the messages above)")
    notice("stopped")


def _viewer_url(base: str, token: str) -> str | None:
    """The address that opens the viewer, token and all: shown on a terminal only, so that
    the token never lands in a log (elsewhere, the start-up line names its file)."""
    import sys
    from urllib.parse import quote

    if not sys.stderr.isatty():
        return None
    return f"{base}/?token={quote(token, safe='')}"


def _worker_lock(socket_path: Path) -> int | None:
    """The store's worker lock, held until this process ends (its descriptor, never closed);
    None: another worker has it."""
    import fcntl
    import os

    from memcli.adapters.worker.client import lock_path

    socket_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(lock_path(socket_path), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _worker_state(root: Path) -> Any:
    """What the worker checks and when it exits: ``[serve] idle`` of the store's mem.toml."""
    from memcli.adapters.worker.server import WorkerState, warm
    from memcli.core import config

    idle = float(config.load(root)["serve"]["idle"])
    warm()
    return WorkerState(root, idle=idle, exits=True)
