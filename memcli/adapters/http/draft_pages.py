"""The viewer's lesson drafts: the list, and accept or reject behind a confirmation.

GET  /drafts                    the drafts waiting for review, newest first
GET  /drafts/ID/accept|reject   the confirmation page
POST /drafts/ID/accept|reject   the change, confirmed as a forget is (``pages.confirmed_form``)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memcli.adapters.http.app import HttpError
from memcli.adapters.http.auth import FORM_SCOPE
from memcli.adapters.http.pages import _common, confirmed_form, page, query, rendered
from memcli.core.errors import NotFound

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from memcli.adapters.http.stores import StorePool


async def drafts_page(request: Request, pool: StorePool) -> Response:
    query(request, ())
    drafts = await pool.read(lambda store: store.drafts())
    context = {"drafts": drafts, "form": request.scope.get(FORM_SCOPE, ""), "q": "", "layer": ""}
    return await rendered(pool, "drafts", context | await _common(pool))


async def confirm_page(request: Request, pool: StorePool) -> Response:
    """The page that asks before a draft is accepted or rejected."""
    action = _action(request)
    query(request, ())
    draft = await _draft(pool, request.path_params["id"])
    context = {"draft": draft, "action": action, "q": "", "layer": ""}
    context["form"] = request.scope.get(FORM_SCOPE, "")
    return await rendered(pool, "draft_confirm", context | await _common(pool))


async def change(request: Request, pool: StorePool) -> Response:
    """A confirmed accept or reject, from this server's own page."""
    action = _action(request)
    await confirmed_form(request, action)
    draft = await _draft(pool, request.path_params["id"])
    if action == "accept":
        done = await pool.write(lambda store: store.accept_draft(draft["id"]))
    else:
        done = await pool.write(lambda store: store.reject_draft(draft["id"]))
    context = {"action": action, "draft": draft, "done": done, "q": "", "layer": ""}
    return await rendered(pool, "draft_done", context | await _common(pool))


async def _draft(pool: StorePool, ref: str) -> dict[str, Any]:
    waiting = await pool.read(lambda store: store.drafts())
    found = [d for d in waiting if d["id"] == ref]
    if not found:
        raise NotFound(f"no lesson draft {ref!r} is waiting (accepted, rejected or expired)")
    return found[0]


def _action(request: Request) -> str:
    action: str = request.path_params["action"]
    if action not in ("accept", "reject"):
        raise HttpError(404, f"no page {request.url.path}")
    return action


def routes() -> list[Any]:
    from starlette.routing import Route

    return [
        Route("/drafts", page(drafts_page), methods=["GET"]),
        Route("/drafts/{id}/{action}", page(confirm_page), methods=["GET"]),
        Route("/drafts/{id}/{action}", page(change), methods=["POST"]),
    ]
