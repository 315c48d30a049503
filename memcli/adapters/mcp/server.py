"""``mem mcp``: the memory's tools over MCP on stdio, with the official SDK's low-level server.

Which store: ``--store``/``--project`` when given, else the first ``file://`` root
the client announces (its workspace), else the working directory, found like the
CLI finds it. The store opens on the first tool call, not at start-up, so the
server answers ``initialize`` as soon as the SDK is loaded.

Every call runs the synchronous API in a worker thread (a slow save never
blocks a search), and any failure comes back as a tool error, never ends the
server. Standard output is the protocol's alone: the process's file descriptor
1 is pointed at standard error before anything runs, so a stray print or a
child process cannot corrupt a message.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from io import TextIOWrapper
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import unquote, urlparse

import anyio
import anyio.to_thread
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from memcli import __version__
from memcli.adapters.mcp.stdin import StdinLines
from memcli.adapters.mcp.tools import TOOLS, call, input_schema
from memcli.core.errors import MemError, StoreError

if TYPE_CHECKING:
    from memcli.api import MemStore

INSTRUCTIONS = (
    "mem is this project's memory: decisions, gotchas, preferences and discoveries from "
    "earlier sessions. Look things up with search, then timeline or get; save what a later "
    "session should know."
)


class Stores:
    """The store the tools use, opened on first use (from the client's roots if any).

    A missing store is an error for reading tools; ``save`` creates it, as
    ``mem save`` does, but never a central store while the server does not know
    where mem's data is (no MEM_HOME or XDG_DATA_HOME): a guess could be a second store.
    """

    def __init__(self, store_dir: str | None, project: str | None) -> None:
        self.store_dir = store_dir
        self.project = project
        self._store: MemStore | None = None
        self._cwd: Path | None = None
        self._lock = anyio.Lock()

    async def get(self, server: Server[Any, Any], *, create: bool) -> MemStore:
        async with self._lock:
            if self._store is None:
                if self._cwd is None:
                    self._cwd = Path.cwd()
                    if self.store_dir is None and self.project is None:
                        self._cwd = await _client_root(server) or self._cwd
                self._store = await anyio.to_thread.run_sync(self._open, self._cwd, create)
            return self._store

    def _open(self, cwd: Path, create: bool) -> MemStore:
        from memcli.api import open_store

        if create:
            _refuse_a_guessed_store(self.store_dir, self.project, cwd)
        return open_store(
            self.store_dir, project=self.project, cwd=cwd, create=create, notify=_notice
        )

    def provenance(self, store: MemStore, agent: str | None) -> dict[str, str | None]:
        """A save's ``agent`` and ``project_commit``: HEAD of the project the store was
        found from (the client's root, else the working directory)."""
        from memcli.capture.provenance import project_commit

        project = self._cwd
        commit = project_commit(project, store_root=store.location.root) if project else None
        return {"agent": agent, "project_commit": commit}

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def _refuse_a_guessed_store(store_dir: str | None, project: str | None, cwd: Path) -> None:
    """A save makes no central store where this server only guesses mem's data folder.

    An agent may start its servers with a stripped environment: without MEM_HOME
    (which ``mem install`` writes into the registration) the default data folder
    may not be the user's, and a store created there would be a second one, which
    their other mem commands never read.
    """
    from memcli.store.files import Store
    from memcli.store.location import data_home_named, locate

    where = locate(store_dir, project, cwd)
    if where.source != "central" or data_home_named() or Store(where.root).exists():
        return
    raise StoreError(
        f"no memory store at {where.root}, and this server was started without MEM_HOME,"
        " so a store made there may not be the one mem's other commands use: run"
        " `mem init` in the project, or `mem install` again (it gives the server MEM_HOME)"
    )


def _agent(server: Server[Any, Any]) -> str | None:
    """Who saves: the Mem-Agent header over HTTP, else the client's name from ``initialize``."""
    from memcli.capture.provenance import agent_of_client

    context = server.request_context
    headers = getattr(context.request, "headers", None)
    named = headers.get("mem-agent") if headers is not None else None
    if named:
        return str(named)
    params = context.session.client_params
    return agent_of_client(params.clientInfo.name) if params is not None else None


async def _client_root(server: Server[Any, Any]) -> Path | None:
    """The first local directory among the client's roots, when it announces any."""
    session = server.request_context.session
    wanted = types.ClientCapabilities(roots=types.RootsCapability())
    if not session.check_client_capability(wanted):
        return None
    try:
        with anyio.fail_after(5):
            result = await session.list_roots()
    except Exception:  # a client that cannot answer: fall back to the working directory
        return None
    for root in result.roots:
        parsed = urlparse(str(root.uri))
        if parsed.scheme == "file":
            path = Path(unquote(parsed.path))
            if path.is_dir():
                return path
    return None


def _notice(message: str) -> None:
    print(f"mem: {message}", file=sys.stderr, flush=True)


def build(
    store_dir: str | None = None, project: str | None = None
) -> tuple[Server[Any, Any], Stores]:
    server: Server[Any, Any] = Server("mem", version=__version__, instructions=INSTRUCTIONS)
    stores = Stores(store_dir, project)
    tools = [
        types.Tool(name=name, description=description, inputSchema=input_schema(name))
        for name, (description, _) in TOOLS.items()
    ]

    @server.list_tools()  # type: ignore[untyped-decorator, no-untyped-call]
    async def list_tools() -> list[types.Tool]:
        return tools

    # mem checks the arguments itself: its messages name the field and list what is allowed.
    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]
    async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name not in TOOLS:  # before opening a store that may not exist
            return _error(f"no tool {name!r}: use one of {', '.join(TOOLS)}")
        try:
            store = await stores.get(server, create=name == "save")
            agent = _agent(server) if name == "save" else None

            def run() -> str:
                provenance = stores.provenance(store, agent) if name == "save" else None
                return call(store, name, arguments, provenance)

            text = await anyio.to_thread.run_sync(run)
        except MemError as exc:
            return _error(str(exc))
        except Exception as exc:  # a bug: say so, and keep serving
            return _error(f"internal error ({type(exc).__name__}: {exc})")
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    return server, stores


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=f"Error: {message}")], isError=True
    )


def serve(store_dir: str | None = None, project: str | None = None) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin, or until SIGINT."""
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # fd 1 now reaches stderr
    sys.stdout = sys.stderr
    server, stores = build(store_dir, project)
    interrupted = False

    async def stop_on_sigint(scope: anyio.CancelScope) -> None:
        """SIGINT (an agent ending its session) stops serving; a tool call under way ends first."""
        nonlocal interrupted
        with anyio.open_signal_receiver(signal.SIGINT) as signals:
            async for _ in signals:
                interrupted = True
                scope.cancel()
                return

    async def run() -> None:
        writer = anyio.wrap_file(TextIOWrapper(protocol, encoding="utf-8", write_through=True))
        # The transport only iterates its input: lines that a stop never waits for.
        reader = cast("anyio.AsyncFile[str]", StdinLines(sys.stdin.fileno()))
        async with anyio.create_task_group() as group:
            group.start_soon(stop_on_sigint, group.cancel_scope)
            async with stdio_server(stdin=reader, stdout=writer) as (read_stream, write_stream):
                options = server.create_initialization_options()
                await server.run(read_stream, write_stream, options)
            group.cancel_scope.cancel()  # the client closed standard input

    try:
        anyio.run(run)
    finally:
        stores.close()
    if interrupted:
        # Stopped and closed: the interpreter's own teardown (a few hundred milliseconds
        # with the SDK loaded) is skipped, for an agent that waits about 100 ms.
        for stream in (protocol, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(0)
