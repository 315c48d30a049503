"""The routes of ``mem serve``: JSON in and out, each call on a borrowed ``MemStore``.

    GET  /health                    {"status": "ok", "version", "shape", "store", "pid",
                                    "started", "idle_exit", "env", "answered", "late"}
    POST /api/memory/save           a memory (the fields of ``mem save``) -> its record; the
                                    agent from ``agent`` or the Mem-Agent header, the commit
                                    from the project the server runs in
    GET  /api/memory/search         ?query=...&type=&since=&until=&concept=&file=&limit=&mode=
                                    &projects=all (every project's memories, each naming its own)
    GET  /api/memory/timeline       ?anchor=ID&before=&after=&kind=
    POST /api/memory/batch          {"ids": [...]} -> full records, in the order asked
    GET  /api/memory/inject         ?budget= (session start), or ?prompt=&session= (recall)
    POST /api/hook/AGENT/EVENT      a hook's input -> {"reply", "notices", "ticket"}: what
                                    ``mem hook AGENT EVENT`` would answer (context and recall)
    POST /api/hook/keep/TICKET      the caller took that answer: what it notes for the session
                                    is written now (``worker.server``)
    POST /api/read/context|recall   {"cwd", "store", "project", "budget", "prompt", "session"}
                                    -> {"text", "notices", "ticket"}: what ``mem context`` /
                                    ``mem recall`` would print (``worker.reads``)
    POST /api/read/search           {"cwd", "store", "project", "query", "filters", "limit",
                                    ...} -> {"text", "notices"}: what ``mem search`` prints
    *    /mcp                       MCP's streamable HTTP transport
    GET  /, /search, /memory/ID     the viewer's HTML pages (``pages``)

Memories come in the one shape of ``memcli.core.serialize`` (entries for search
and timeline, records for batch and save), inside ``{"results": [...]}``. Every
error is ``{"error": "one line"}``: 400 for a body that is not a JSON object, 404
for an unknown id or route, 405 for a wrong method, 409 for an ambiguous id
prefix, 413 for a body over 1 MB (``/mcp`` too), 422 for a field mem refuses (the
message lists what is allowed), 503 when the store's write lock stays taken; never
a traceback. The connection's own refusals (408, 503, a malformed request's 400) are
``connections.py``'s, in the same shape.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse as StarletteJSONResponse
from starlette.responses import Response
from starlette.routing import Route

from memcli import __version__
from memcli.adapters.http.auth import Access, Guard, is_page
from memcli.adapters.http.connections import Limits
from memcli.adapters.http.stores import StorePool
from memcli.adapters.worker.server import WorkerGuard, WorkerState, hook_answer
from memcli.capture.provenance import project_commit, working_directory
from memcli.core.errors import (
    Ambiguous,
    EditConflict,
    InvalidInput,
    LockTimeout,
    MemError,
    NoLayer,
    NotFound,
    QuerySyntaxError,
    SecretsFound,
)
from memcli.core.serialize import SHAPE_VERSION, to_json
from memcli.core.text import one_line
from memcli.core.timeutil import format_timestamp

if TYPE_CHECKING:
    from memcli.api import MemStore

MAX_BODY_BYTES = 1 << 20
"""The largest request body (a memory is far smaller; MCP's messages too)."""
MAX_ERROR_CHARS = 2000
STATUS: tuple[tuple[type[MemError], int], ...] = (
    (NotFound, 404),
    (NoLayer, 404),
    (Ambiguous, 409),
    (EditConflict, 409),
    (SecretsFound, 422),
    (InvalidInput, 422),
    (QuerySyntaxError, 422),
    (LockTimeout, 503),
)
"""The HTTP status of each expected failure; any other ``MemError`` is a 500."""
SAVE_FIELDS = (
    "text",
    "type",
    "title",
    "facts",
    "concepts",
    "files",
    "key",
    "importance",
    "session",
    "secrets",
    "agent",
    "supersedes",
    "layer",
    "guards",
    "guard_action",
)
AGENT_HEADER = "mem-agent"
"""Names the agent that saves, when the body's ``agent`` does not."""


class HttpError(Exception):
    """A refusal with its status: raised by the routes, answered as ``{"error": ...}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class JSONResponse(StarletteJSONResponse):
    """Starlette's JSON response, as strict JSON: a hand-edited infinity or NaN is a string."""

    def render(self, content: Any) -> bytes:
        return to_json(content, separators=(",", ":")).encode("utf-8")


def error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse(
        {"error": one_line(message, MAX_ERROR_CHARS)}, status_code=status, headers=headers
    )


def status_of(exc: MemError) -> int:
    for kind, status in STATUS:
        if isinstance(exc, kind):
            return status
    return 500


Handler = Callable[[Request, StorePool], Awaitable[Response]]


Refusal = Callable[[int, str, Mapping[str, str] | None], Response]


def endpoint(
    handler: Handler, refusal: Refusal = error
) -> Callable[[Request], Awaitable[Response]]:
    """The route: ``handler`` with the app's pool, its failures answered by ``refusal`` (JSON
    errors; the viewer's pages answer small HTML pages)."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request, request.app.state.pool)
        except HttpError as exc:
            return refusal(exc.status, exc.message, None)
        except ClientDisconnect:  # gone (or cut off by a deadline): nobody to answer
            return Response(status_code=400)
        except MemError as exc:
            status = status_of(exc)
            return refusal(status, str(exc), {"Retry-After": "1"} if status == 503 else None)
        except Exception as exc:  # a bug: a one-line answer, and a line in the server's log
            what = f"{type(exc).__name__}: {exc}"
            print(
                f"mem: internal error in {request.method} {request.url.path} ({what})",
                file=sys.stderr,
                flush=True,
            )
            return refusal(500, f"internal error ({what})", None)

    return run


# ------------------------------------------------------------------- input


class Params:
    """A route's query parameters: each known, given once unless repeatable, checked."""

    def __init__(
        self, request: Request, route: str, allowed: Sequence[str], repeatable: Sequence[str] = ()
    ) -> None:
        self.params = request.query_params
        unknown = sorted(set(self.params.keys()) - set(allowed))
        if unknown:
            raise HttpError(
                422,
                f"{route} takes no {', '.join(map(repr, unknown))}; it takes {', '.join(allowed)}",
            )
        for name in self.params.keys():
            if name not in repeatable and len(self.params.getlist(name)) > 1:
                raise HttpError(422, f"give {name!r} once")

    def text(self, name: str) -> str | None:
        return self.params.get(name)

    def required(self, name: str, route: str) -> str:
        value = self.params.get(name)
        if not value:
            raise HttpError(422, f"{route} needs {name!r}")
        return value

    def texts(self, name: str) -> list[str]:
        return [value for value in self.params.getlist(name) if value]

    def number(self, name: str, default: int) -> int:
        value = self.optional_number(name)
        return default if value is None else value

    def optional_number(self, name: str) -> int | None:
        value = self.params.get(name)
        if not value:
            return None
        try:
            return int(value)
        except ValueError:
            raise HttpError(422, f"{name} must be a whole number, not {value[:40]!r}") from None


async def read_body(request: Request) -> bytes:
    """The whole body; 413 past ``MAX_BODY_BYTES`` (chunked too), as soon as it is known."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        if declared.isdigit():
            raise HttpError(413, f"the request body is over {MAX_BODY_BYTES:,} bytes")
        raise HttpError(400, "the Content-Length header is not a number")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise HttpError(413, f"the request body is over {MAX_BODY_BYTES:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def json_body(request: Request, route: str, allowed: Sequence[str]) -> dict[str, Any]:
    """The body as a JSON object of known fields (see ``read_body`` for its size)."""
    body = await read_body(request)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise HttpError(400, f"the body is not valid JSON ({one_line(str(exc), 200)})") from None
    if not isinstance(data, dict):
        raise HttpError(400, f"the body must be a JSON object, not {_json_type(data)}")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise HttpError(
            422, f"{route} takes no {', '.join(map(repr, unknown))}; it takes {', '.join(allowed)}"
        )
    return data


def _json_type(value: object) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def results(items: list[dict[str, Any]]) -> JSONResponse:
    return JSONResponse({"results": items})


# ------------------------------------------------------------------- routes


async def health(request: Request, pool: StorePool) -> Response:
    state: WorkerState = request.app.state.worker
    return JSONResponse(
        {
            "status": "ok",
            "version": __version__,
            "shape": SHAPE_VERSION,
            "store": str(pool.root),
            "pid": os.getpid(),
            "started": format_timestamp(dt.datetime.fromtimestamp(state.started, dt.UTC)),
            "idle_exit": state.idle if state.exits else 0,
            "env": state.env,
            "answered": state.answered,
            "late": state.late,
        }
    )


async def save(request: Request, pool: StorePool) -> Response:
    body = await json_body(request, "save", SAVE_FIELDS)
    if "text" not in body:
        raise HttpError(422, "save needs 'text'")
    text = body.pop("text")
    if body.get("agent") is None:
        body["agent"] = request.headers.get(AGENT_HEADER)
    project = working_directory()

    def call(store: MemStore) -> dict[str, Any]:
        commit = project_commit(project, store_root=store.location.root) if project else None
        return store.save(text, project_commit=commit, **body)

    record = await pool.write(call)
    return JSONResponse(record, status_code=201 if record["action"] == "saved" else 200)


async def search(request: Request, pool: StorePool) -> Response:
    allowed = ("query", "type", "since", "until", "concept", "file", "limit", "mode", "layer")
    params = Params(request, "search", (*allowed, "projects"), repeatable=("type",))
    query = params.required("query", "search")
    types = params.texts("type")
    since, until = params.text("since"), params.text("until")
    concept, file, mode = params.text("concept"), params.text("file"), params.text("mode")
    limit, layer = params.number("limit", 10), params.text("layer")
    projects = params.text("projects")
    if projects not in (None, "all"):
        raise HttpError(
            422, f"projects must be 'all' (every project's memories), not {projects[:40]!r}"
        )

    def call(store: MemStore) -> list[dict[str, Any]]:
        return store.search(
            query,
            type=types or None,
            since=since,
            until=until,
            concept=concept,
            file=file,
            limit=limit,
            mode=mode,
            layer=layer,
            all_projects=projects == "all",
        )

    return results(await pool.read(call))


async def timeline(request: Request, pool: StorePool) -> Response:
    params = Params(request, "timeline", ("anchor", "before", "after", "kind"))
    anchor = params.required("anchor", "timeline")
    before, after = params.number("before", 5), params.number("after", 5)
    kind = params.text("kind")

    def call(store: MemStore) -> list[dict[str, Any]]:
        return store.timeline(anchor, before=before, after=after, kind=kind)

    return results(await pool.read(call))


async def batch(request: Request, pool: StorePool) -> Response:
    body = await json_body(request, "batch", ("ids",))
    if "ids" not in body:
        raise HttpError(422, "batch needs 'ids': a list of ids, id prefixes or keys")
    ids = body["ids"]
    return results(await pool.read(lambda store: store.get(ids)))


async def dedupe(request: Request, pool: StorePool) -> Response:
    """GET: the clusters of near-duplicates (``mem dedupe --json``); POST with
    ``{"apply": true}``: each merged into its keeper, one commit a cluster."""
    if request.method == "GET":
        params = Params(request, "dedupe", ("threshold",))
        raw = params.text("threshold")
        try:
            threshold = float(raw) if raw is not None else None
        except ValueError:
            raise HttpError(422, "threshold must be a number from 0.3 to 1") from None
        return JSONResponse(await pool.read(lambda store: store.dedupe(threshold=threshold)))
    body = await json_body(request, "dedupe", ("apply", "threshold"))
    if body.get("apply") is not True:
        raise HttpError(422, 'a POST merges: send {"apply": true} (GET only reports)')
    found = await pool.write(
        lambda store: store.dedupe(apply=True, threshold=body.get("threshold"))
    )
    return JSONResponse(found)


async def promote(request: Request, pool: StorePool) -> Response:
    body = await json_body(request, "promote", ("ref", "to", "secrets", "dry_run"))
    for field in ("ref", "to"):
        if field not in body:
            raise HttpError(422, f"promote needs {field!r}")
    ref, to = body.pop("ref"), body.pop("to")
    if body.get("dry_run"):
        return JSONResponse(await pool.read(lambda store: store.promote(ref, to=to, **body)))
    return JSONResponse(await pool.write(lambda store: store.promote(ref, to=to, **body)))


async def inject(request: Request, pool: StorePool) -> Response:
    params = Params(request, "inject", ("budget", "prompt", "session"))
    budget = params.optional_number("budget")
    prompt, session = params.text("prompt"), params.text("session")
    if prompt is None:
        if session is not None:
            raise HttpError(422, "session goes with prompt: what one session's prompts were given")
        text = await pool.read(lambda store: store.context(budget=budget))
    else:
        text = await pool.read(lambda store: store.recall(prompt, session=session, budget=budget))
    return JSONResponse({"context": text})


async def hook(request: Request, pool: StorePool) -> Response:
    agent, event = request.path_params["agent"], request.path_params["event"]
    body = await read_body(request)
    try:
        payload = json.loads(body) if body.strip() else {}
    except (ValueError, RecursionError) as exc:
        raise HttpError(400, f"the body is not valid JSON ({one_line(str(exc), 200)})") from None
    return await _worker_answer(
        request, pool, lambda: hook_answer(agent, event, payload, pool.root)
    )


async def _worker_answer(
    request: Request, pool: StorePool, compute: Callable[[], dict[str, Any]]
) -> Response:
    """What the worker computed for a hook or a read, with the ticket that records it."""
    try:
        found = await pool.run(compute)
    except LookupError as exc:
        raise HttpError(404, str(exc)) from None
    except PermissionError as exc:
        raise HttpError(409, str(exc)) from None
    except ValueError as exc:  # what the hook says of a bad input, in its own process too
        raise HttpError(422, str(exc)) from None
    state: WorkerState = request.app.state.worker
    state.answered += 1
    if await request.is_disconnected():
        state.late += 1  # the caller gave up waiting, and answers itself
    ticket = state.keep(found.pop("writes"))
    return JSONResponse({**found, "ticket": ticket})


async def read(request: Request, pool: StorePool) -> Response:
    from memcli.adapters.worker import reads

    what = request.path_params["what"]
    body = await json_body(request, what, ("store", "project", "cwd", *reads.FIELDS.get(what, ())))
    return await _worker_answer(request, pool, lambda: reads.answer(what, body, pool.root))


async def keep(request: Request, pool: StorePool) -> Response:
    from memcli.retrieval import injected

    state: WorkerState = request.app.state.worker
    writes = state.take(request.path_params["ticket"])
    if writes is None:
        raise HttpError(404, "no such ticket (taken already, or too old)")
    await pool.run(lambda: injected.apply(writes))
    return JSONResponse({"kept": len(writes)})


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (unknown route, wrong method) in mem's error shape."""
    assert isinstance(exc, HTTPException)
    if is_page(request.url.path):
        from memcli.adapters.http.pages import error_response

        shown = {404: f"no page {request.url.path}", 405: f"{request.method} is not allowed here"}
        return error_response(exc.status_code, shown.get(exc.status_code, exc.detail))
    messages = {404: f"no route {request.url.path}", 405: f"{request.method} is not allowed here"}
    return error(exc.status_code, messages.get(exc.status_code, exc.detail), exc.headers)


# ---------------------------------------------------------------------- app


def build_app(
    pool: StorePool,
    *,
    access: Access,
    max_requests: int = Limits.max_requests,
    on_ready: Callable[[], None] = lambda: None,
    worker: WorkerState | None = None,
) -> Guard:
    """The whole application: the routes, ``/mcp``, the guard (``access``, limits) in front;
    at most ``max_requests`` requests answered at once. ``worker``: what a worker
    checks and when it exits (by default, a server that never exits on its own).

    Starting it starts MCP's session manager, then calls ``on_ready``; stopping it
    closes every store.
    """
    state = worker or WorkerState(pool.root, idle=0, exits=False)
    routes = [
        Route("/health", endpoint(health), methods=["GET"]),
        Route("/api/memory/save", endpoint(save), methods=["POST"]),
        Route("/api/memory/search", endpoint(search), methods=["GET"]),
        Route("/api/memory/timeline", endpoint(timeline), methods=["GET"]),
        Route("/api/memory/batch", endpoint(batch), methods=["POST"]),
        Route("/api/memory/promote", endpoint(promote), methods=["POST"]),
        Route("/api/memory/dedupe", endpoint(dedupe), methods=["GET", "POST"]),
        Route("/api/memory/inject", endpoint(inject), methods=["GET"]),
        Route("/api/hook/keep/{ticket}", endpoint(keep), methods=["POST"]),
        Route("/api/read/{what}", endpoint(read), methods=["POST"]),
        Route("/api/hook/{agent}/{event}", endpoint(hook), methods=["POST"]),
    ]
    from memcli.adapters.http import pages

    routes += pages.routes()
    mcp = _mcp(pool)
    routes.append(Route("/mcp", endpoint=mcp))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            async with mcp.manager.run():
                state.arm()
                on_ready()
                yield
        finally:
            mcp.stores.close()
            pool.close()

    app = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error}
    )
    app.state.pool = pool
    app.state.worker = state
    return Guard(WorkerGuard(app, state), access, max_requests)


class _McpApp:
    """MCP's streamable HTTP transport (the SDK's session manager) for the served store."""

    def __init__(self, manager: Any, stores: Any) -> None:
        self.manager = manager
        self.stores = stores

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """The body read first, under mem's cap and errors, then the SDK's turn."""
        try:
            body = await read_body(Request(scope, receive))
        except HttpError as exc:
            await error(exc.status, exc.message)(scope, receive, send)
            return
        except ClientDisconnect:
            return
        whole: list[dict[str, Any]] = [{"type": "http.request", "body": body, "more_body": False}]

        async def replay() -> Any:
            return whole.pop() if whole else await receive()

        await self.manager.handle_request(scope, replay, send)


def _mcp(pool: StorePool) -> _McpApp:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    from memcli.adapters.mcp.server import build

    server, stores = build(str(pool.root))
    # Stateless: every request stands alone, so any worker process can answer it (the
    # tools need no session: the store is the served one, not the client's roots).
    manager = StreamableHTTPSessionManager(
        app=server, stateless=True, max_request_body_size=MAX_BODY_BYTES
    )
    return _McpApp(manager, stores)
