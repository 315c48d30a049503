"""The viewer: HTML pages over the served store, for a person in a browser.

    GET  /                          the journal: what was learned, changed and forgotten,
                                    by day and by agent, newest first (?before= pages on)
    GET  /search?q=&layer=          hits with their text and the parts of their score
                                    (``mem search --explain``)
    GET  /memory/ID                 one memory in full: its layer, stale marker, history and
                                    the diff of its last change
    GET  /memory/ID/forget|promote  the confirmation page of a change
    POST /memory/ID/forget|promote  the change, with ``confirm`` ticked, from the viewer's
                                    own pages (Origin or Referer: this server) and with the
                                    form token of the session that showed the form
    GET  /drafts, /drafts/ID/accept|reject (and POST)   lesson drafts (``draft_pages``)

Pages are rendered from ``templates/viewer/`` by the sandboxed renderer with every value
escaped, and carry a Content-Security-Policy that runs no script at all. Every error is a
small HTML page. Who may see them is ``auth.Guard``'s: the socket, or the token (once, as
``?token=``) and then the cookie.
"""

from __future__ import annotations

import hmac
import html
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import Response

from memcli.adapters.http.app import HttpError
from memcli.adapters.http.auth import FORM_SCOPE
from memcli.core.errors import NotFound
from memcli.core.schema import LAYERS
from memcli.core.text import one_line

if TYPE_CHECKING:
    from memcli.adapters.http.stores import StorePool
    from memcli.api import MemStore
    from memcli.service.memory import Memory
    from memcli.store.history import JournalEntry

JOURNAL_PAGE = 200
"""Journal entries on one page, at most."""
SEARCH_HITS = 30
HIT_TEXT_CHARS = 300
"""How much of a hit's text its search result shows (the memory's page has it all)."""
HIT_FACTS = 3
HISTORY_ENTRIES = 50
MAX_ERROR_CHARS = 500
ACTIONS = {
    "save": "learned",
    "update": "changed",
    "edit": "changed",
    "forget": "forgotten",
    "restore": "restored",
    "summarize": "summarized",
    "promote": "promoted",
    "import": "imported",
    "init": "created",
}
"""How the journal names what a commit did (a hand edit is named as it is)."""
HEADERS = {
    "content-security-policy": (
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
}
STYLE = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:.6em 1.5em;display:flex;gap:1.5em;
align-items:center;flex-wrap:wrap}
header a{color:#fff;text-decoration:none;font-weight:600}
header form{display:flex;gap:.4em}
main{max-width:60em;margin:1.5em auto;padding:0 1.5em}
input,select,button{font:inherit;padding:.25em .5em}
.layers span{background:#39415a;border-radius:1em;padding:.1em .7em;margin-right:.3em;
font-size:.85em}
h1{font-size:1.4em;margin:.2em 0 .6em}
h2{font-size:1.05em;margin:1.4em 0 .4em;color:#4a5370}
table{border-collapse:collapse;width:100%;background:#fff}
td,th{text-align:left;padding:.35em .6em;border-bottom:1px solid #e3e6ec;vertical-align:top}
th{font-weight:600;color:#4a5370;width:10em}
.tag{display:inline-block;border-radius:.3em;padding:0 .4em;font-size:.8em;
background:#e3e6ec;color:#39415a}
.learned{background:#d6f5df;color:#17692f}.changed{background:#fff0c2;color:#7a5b00}
.forgotten{background:#fadcdc;color:#8a1c1c}.stale{background:#ffe1c2;color:#8a4500}
.muted{color:#6b7390;font-size:.9em}
pre{white-space:pre-wrap;word-wrap:break-word;background:#fff;padding:.8em;
border:1px solid #e3e6ec}
.card{background:#fff;border:1px solid #e3e6ec;padding:.6em 1em;margin:.5em 0}
.parts{font-family:ui-monospace,monospace;font-size:.85em;color:#4a5370}
.card .text{margin:.3em 0}.card .facts{margin:.2em 0;padding-left:1.2em}
.add{color:#17692f}.del{color:#8a1c1c}
a{color:#2546b8}
"""


def error_page(status: int, message: str) -> bytes:
    """A small HTML page for an error (no template: the guard answers with it too)."""
    text = html.escape(one_line(message, MAX_ERROR_CHARS))
    return (
        f"<!doctype html><html><head><meta charset=utf-8><title>mem: {status}</title>"
        f"<style>{STYLE}</style></head><body><header><a href=/>mem</a></header><main>"
        f"<h1>{status}</h1><p>{text}</p></main></body></html>"
    ).encode()


def error_response(status: int, message: str, headers: Mapping[str, str] | None = None) -> Response:
    return Response(
        error_page(status, message),
        status_code=status,
        media_type="text/html; charset=utf-8",
        headers={**HEADERS, **(headers or {})},
    )


Cursor = tuple[datetime, int] | None
"""Where a journal page starts: before a time, past the entries of that second shown."""
PageHandler = Callable[[Request, "StorePool"], Awaitable[Response]]


def page(handler: PageHandler) -> Callable[[Request], Awaitable[Response]]:
    """The route: ``handler`` with the app's pool, its failures as small HTML pages."""
    from memcli.adapters.http.app import endpoint

    return endpoint(handler, error_response)


async def rendered(pool: StorePool, name: str, context: dict[str, Any]) -> Response:
    """The page ``viewer/NAME.html.j2``, rendered in a worker thread."""

    def render() -> str:
        from memcli.retrieval.render import Renderer

        return Renderer(html=True).render(f"viewer/{name}.html.j2", style=STYLE, **context)

    body = await pool.run(render)
    return Response(body, media_type="text/html; charset=utf-8", headers=HEADERS)


def query(request: Request, allowed: tuple[str, ...]) -> dict[str, str]:
    """The page's query parameters (``token`` aside: the guard's), each known and given once."""
    params = request.query_params
    found: dict[str, str] = {}
    for name in params.keys():
        if name == "token":
            continue
        if name not in allowed:
            raise HttpError(400, f"this page takes no {name!r}")
        values = params.getlist(name)
        if len(values) > 1:
            raise HttpError(400, f"give {name!r} once")
        found[name] = values[0]
    return found


# ------------------------------------------------------------------- data


def layer_counts(memory: Memory) -> list[dict[str, Any]]:
    """Each layer present with its number of memories, in ``LAYERS`` order."""
    from memcli.index.layered import LayeredIndex

    def counts(index: Any) -> dict[str, int]:
        indexes = index.layers if isinstance(index, LayeredIndex) else [index]
        return {each.layer: each.count() for each in indexes}

    found = memory.read(counts)
    return [{"name": name, "count": found[name]} for name in LAYERS if name in found]


def journal_rows(memory: Memory, cursor: Cursor, limit: int) -> tuple[list[dict[str, Any]], Cursor]:
    """The journal of every layer, newest first: ``limit`` entries from ``cursor`` on, and the
    cursor of the next page (None at the end).

    A cursor is a time and how many entries of that very second were shown already, so a
    page may end inside a second without losing or repeating any of its entries.
    """
    from memcli.service.history import each_layer
    from memcli.store.history import journal

    before, seen = cursor or (None, 0)
    until = before.strftime("%Y-%m-%d %H:%M:%S +0000") if before else None
    entries: list[tuple[datetime, JournalEntry, str]] = []
    for own in each_layer(memory):
        if not own.store.exists():
            continue
        for entry in journal(own.store, limit=limit + 1 + seen, until=until):
            when = moment(entry.date)
            if before is None or when <= before:
                entries.append((when, entry, own.layer))
    entries.sort(key=lambda found: found[0], reverse=True)  # stable: layer, then git order
    entries = entries[seen:] if before is not None else entries
    more = len(entries) > limit
    entries = entries[:limit]
    rows = [_journal_row(entry, layer) for _, entry, layer in entries]
    agents = agents_of(memory, [row["id"] for row in rows if row["id"]])
    for row in rows:
        row["agent"] = agents.get(row["id"]) or row["agent"]
    if not more:
        return rows, None
    last = entries[-1][0]
    shown = sum(1 for found in entries if found[0] == last) + (seen if last == before else 0)
    return rows, (last, shown)


def moment(text: str) -> datetime:
    """An ISO date and time as a UTC datetime (one without a zone is taken as UTC)."""
    when = datetime.fromisoformat(text)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC)


def agents_of(memory: Memory, ids: list[str]) -> dict[str, str]:
    """The agent each memory still stored names (its file's ``agent``), by id."""
    from memcli.core.errors import InvalidMemoryFile

    found: dict[str, str] = {}
    for entry in memory.read(lambda index: index.with_ids(sorted(set(ids)))):
        try:
            agent = getattr(memory.load(entry), "agent", None)
        except (InvalidMemoryFile, OSError):
            continue
        if agent:
            found[entry.id] = agent
    return found


def _journal_row(entry: JournalEntry, layer: str) -> dict[str, Any]:
    return {
        "day": entry.date[:10],
        "time": entry.date[11:16],
        "agent": entry.author,  # the journal page puts the memory's own agent here
        "action": ACTIONS.get(entry.action, entry.action),
        "type": entry.type,
        "title": entry.title,
        "layer": layer,
        "id": entry.ids[0] if len(entry.ids) == 1 else None,
        "count": len(entry.ids),
        "commit": entry.commit[:10],
    }


def by_day(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows grouped by day (newest first, as they come), with what each agent did that day."""
    days: list[dict[str, Any]] = []
    for row in rows:
        if not days or days[-1]["day"] != row["day"]:
            days.append({"day": row["day"], "rows": [], "agents": {}})
        day = days[-1]
        day["rows"].append(row)
        day["agents"][row["agent"]] = day["agents"].get(row["agent"], 0) + 1
    for day in days:
        day["agents"] = sorted(day["agents"].items(), key=lambda pair: (-pair[1], pair[0]))
    return days


def search_results(memory: Memory, text: str, layer: str | None) -> dict[str, Any]:
    """The hits of ``text`` with the parts of each score, as ``mem search --explain`` has them."""
    from memcli.index import NO_FILTERS
    from memcli.retrieval.search import Searcher
    from memcli.service.layers import LayeredMemory, check_layer

    reader = memory
    if layer:
        if not isinstance(memory, LayeredMemory):
            raise HttpError(400, "this store has no layers to choose from")
        reader = memory.layers.reader(check_layer(layer))
    outcome = Searcher(reader).search(text, NO_FILTERS, limit=SEARCH_HITS)
    short = reader.read(lambda index: index.short_ids([e.id for e in outcome.entries]))
    terms = len(outcome.plan.terms)
    return {
        "terms": [term.to_fts() for term in outcome.plan.terms],
        "dropped": list(outcome.plan.dropped),
        "mode": outcome.mode,
        "strategy": outcome.strategy,
        "hits": [
            {
                **hit.entry.to_json(short[hit.entry.id]),
                **hit_text(reader, hit.entry),
                "parts": hit.parts._asdict(),
                "terms": terms,
            }
            for hit in outcome.hits
        ],
    }


def hit_text(memory: Memory, entry: Any) -> dict[str, Any]:
    """What a search result shows of a memory's text: the start of its narrative (unless it
    only repeats the title) and its first facts, each clipped to one line."""
    from memcli.core.errors import InvalidMemoryFile

    try:
        narrative = str(getattr(memory.load(entry), "narrative", "") or "")
    except (InvalidMemoryFile, OSError):
        narrative = ""
    text = one_line(narrative, HIT_TEXT_CHARS)
    if text == one_line(entry.title, HIT_TEXT_CHARS):
        text = ""
    facts = [one_line(fact, HIT_TEXT_CHARS // 2) for fact in entry.facts[:HIT_FACTS]]
    return {"text": text, "facts": facts, "more_facts": len(entry.facts) - len(facts)}


def memory_details(memory: Memory, ref: str) -> dict[str, Any]:
    """One memory in full, its stale marker, its history and the diff of its last change;
    a forgotten one: its history alone."""
    from memcli.core.serialize import record_dict
    from memcli.service.history import layer_memory, log

    try:
        entry = memory.resolve(ref)
    except NotFound:
        history = log(memory, ref, limit=HISTORY_ENTRIES, since=None)
        if not history:
            raise
        rows = [_journal_row(each, "") for each in history]
        return {"record": None, "ref": ref, "history": rows, "stale": None, "change": None}
    record = {**record_dict(memory.load(entry)), "path": entry.path, "layer": entry.layer}
    record["superseded_by"] = memory.read(lambda index: index.replacing(entry.id))
    history = log(memory, entry.id, limit=HISTORY_ENTRIES, since=None)
    change = None
    if history:
        change = last_change(layer_memory(memory, entry.layer), entry.id, history[0].commit)
    return {
        "record": record,
        "ref": ref,
        "fields": _fields(record),
        "history": [_journal_row(each, entry.layer) for each in history],
        "stale": _stale(memory, entry),
        "change": change,
    }


SHOWN_APART = ("id", "title", "facts", "narrative", "layer", "type")


def _fields(record: dict[str, Any]) -> list[tuple[str, str]]:
    """The record's other fields, as name and text (lists joined; empty ones left out)."""
    shown = []
    for name, value in record.items():
        if name in SHOWN_APART or value in (None, "", [], {}):
            continue
        if isinstance(value, list):
            value = ", ".join(str(item) for item in value)
        shown.append((name, str(value)))
    return shown


def _stale(memory: Memory, entry: Any) -> dict[str, Any] | None:
    """Whether the memory's files changed in the served project since it was written."""
    from memcli.capture.provenance import working_directory
    from memcli.service.stale import CONTEXT_GIT_TIMEOUT, git_top, stale_memories

    if not entry.files:
        return None
    where = working_directory()
    top = git_top(where, CONTEXT_GIT_TIMEOUT) if where is not None else None
    if top is None:
        return None
    found = stale_memories(memory, top, [entry], timeout=CONTEXT_GIT_TIMEOUT)
    if not found:
        return None
    return found[0].to_json("")


def last_change(memory: Memory, memory_id: str, commit: str) -> dict[str, Any] | None:
    """What ``commit`` did to the memory: added it, or changed which fields, facts and text."""
    from memcli.core.errors import InvalidInput
    from memcli.store.history import EMPTY_TREE, commit_id, memory_diff

    store = memory.store
    try:
        parent = commit_id(store, f"{commit}~1")
    except InvalidInput:
        parent = EMPTY_TREE
    diff = memory_diff(store, parent, commit)
    if any(record.id == memory_id for record in diff.added):
        return {"commit": commit[:10], "added": True}
    for change in diff.changed:
        if change.id == memory_id:
            return {"commit": commit[:10], "added": False, **change.to_json()}
    return None


# ------------------------------------------------------------------- routes


async def _common(pool: StorePool) -> dict[str, Any]:
    return {"layers": await pool.read(_layers_of)}


def _layers_of(store: MemStore) -> list[dict[str, Any]]:
    with store.using() as memory:
        return layer_counts(memory)


async def journal_page(request: Request, pool: StorePool) -> Response:
    params = query(request, ("before", "seen", "limit"))
    cursor = _cursor(params)
    limit = _number(params, "limit", JOURNAL_PAGE, JOURNAL_PAGE, least=1)

    def read(store: MemStore) -> dict[str, Any]:
        with store.using() as memory:
            rows, older = journal_rows(memory, cursor, limit)
            return {"layers": layer_counts(memory), "days": by_day(rows), "older": older}

    context = await pool.read(read)
    older = context.pop("older")
    link = None
    if older is not None:
        link = {"before": older[0].strftime("%Y-%m-%dT%H:%M:%SZ"), "seen": older[1]}
        if limit != JOURNAL_PAGE:
            link["limit"] = limit
    return await rendered(pool, "journal", context | {"older": link, "q": "", "layer": ""})


def _cursor(params: dict[str, str]) -> Cursor:
    if not params.get("before"):
        return None
    try:
        before = moment(params["before"])
    except ValueError:
        raise HttpError(
            400, "before must be a date and time, as the journal's older link has it"
        ) from None
    return before, _number(params, "seen", 0, 1_000_000)


def _number(params: dict[str, str], name: str, default: int, most: int, least: int = 0) -> int:
    text = params.get(name)
    if not text:
        return default
    if not text.isdigit() or not least <= int(text) <= most:
        raise HttpError(400, f"{name} must be a whole number from {least} to {most:,}")
    return int(text)


async def search_page(request: Request, pool: StorePool) -> Response:
    params = query(request, ("q", "layer"))
    text, layer = params.get("q", "").strip(), params.get("layer") or None
    if layer is not None and layer not in LAYERS:
        raise HttpError(400, f"unknown layer {layer!r}: use user, project or team")

    def read(store: MemStore) -> dict[str, Any]:
        with store.using() as memory:
            layers = layer_counts(memory)
            if layer is not None and layer not in [each["name"] for each in layers]:
                raise HttpError(404, f"there is no {layer} layer here")
            found = search_results(memory, text, layer) if text else None
            return {"layers": layers, "found": found}

    context = await pool.read(read)
    return await rendered(pool, "search", context | {"q": text, "layer": layer or ""})


async def memory_page(request: Request, pool: StorePool) -> Response:
    query(request, ())
    ref = request.path_params["ref"]

    def read(store: MemStore) -> dict[str, Any]:
        with store.using() as memory:
            return {"layers": layer_counts(memory), **memory_details(memory, ref)}

    return await rendered(pool, "memory", await pool.read(read) | {"q": "", "layer": ""})


async def confirm_page(request: Request, pool: StorePool) -> Response:
    """The page that asks before a forget or a promote."""
    action = _action(request)
    params = query(request, ("to",) if action == "promote" else ())
    to = params.get("to", "")
    if action == "promote" and to not in LAYERS:
        raise HttpError(400, "promote needs to=user, project or team")
    ref = request.path_params["ref"]
    records = await pool.read(lambda store: store.get([ref]))
    context = {"record": records[0], "action": action, "to": to, "q": "", "layer": ""}
    context["form"] = request.scope.get(FORM_SCOPE, "")
    return await rendered(pool, "confirm", context | await _common(pool))


async def confirmed_form(request: Request, action: str) -> dict[str, str]:
    """The form of a change, refused unless it comes from this server's own page, with the
    form token of the session that showed it, and its ``confirm`` box ticked."""
    from memcli.adapters.http.app import read_body

    body = await read_body(request)  # read first: a refusal keeps the connection usable
    if not same_origin(request):
        raise HttpError(403, "this change must come from the viewer's own page (Origin)")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise HttpError(400, "the form is not UTF-8") from None
    form = {name: values[-1] for name, values in parse_qs(text).items()}
    wanted = request.scope.get(FORM_SCOPE)
    if not wanted or not hmac.compare_digest(form.get("form", "").encode(), wanted.encode()):
        raise HttpError(
            403, "this form is not one this session showed (its form token): open it again"
        )
    if form.get("confirm") != "yes":
        raise HttpError(400, f"tick the box to confirm the {action}; nothing was changed")
    return form


async def change(request: Request, pool: StorePool) -> Response:
    """A confirmed forget or promote, from this server's own page."""
    action = _action(request)
    form = await confirmed_form(request, action)
    ref = request.path_params["ref"]
    if action == "forget":
        done = await pool.write(lambda store: store.forget([ref]))
        context = {"action": action, "record": done[0], "to": ""}
    else:
        to = form.get("to", "")
        if to not in LAYERS:
            raise HttpError(400, "promote needs to=user, project or team")
        moved = await pool.write(lambda store: store.promote(ref, to=to))
        context = {"action": action, "record": moved, "to": to}
    return await rendered(pool, "done", context | {"q": "", "layer": ""} | await _common(pool))


def _action(request: Request) -> str:
    action: str = request.path_params["action"]
    if action not in ("forget", "promote"):
        raise HttpError(404, f"no page {request.url.path}")
    return action


def same_origin(request: Request) -> bool:
    """Whether a POST comes from this server's own page: its Origin (else its Referer) names
    the host it was sent to, and the browser does not call it cross-site."""
    headers = request.headers
    host = headers.get("host")
    if host is None or headers.get("sec-fetch-site") not in (None, "same-origin"):
        return False
    origin = headers.get("origin")
    if origin is not None:
        return origin == f"http://{host}"
    referer = headers.get("referer")
    return referer is not None and referer.startswith(f"http://{host}/")


def routes() -> list[Any]:
    from starlette.routing import Route

    from memcli.adapters.http import draft_pages

    return [
        *draft_pages.routes(),
        Route("/", page(journal_page), methods=["GET"]),
        Route("/search", page(search_page), methods=["GET"]),
        Route("/memory/{ref}", page(memory_page), methods=["GET"]),
        Route("/memory/{ref}/{action}", page(confirm_page), methods=["GET"]),
        Route("/memory/{ref}/{action}", page(change), methods=["POST"]),
    ]
