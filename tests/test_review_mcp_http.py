"""Lesson drafts through ``mem mcp`` (the SDK's client), ``mem serve``'s API (a real HTTP
client) and the viewer's drafts page: listed, accepted, rejected; never in memory reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

import memcli
from memcli.core.lesson import LessonDraft
from tests.test_mcp import Client, start_client
from tests.test_serve import Server
from tests.test_viewer import form_token, html_page

pytestmark = pytest.mark.e2e


def lessons(tag: str) -> list[LessonDraft]:
    """Three drafts of one session (``tag`` keeps each test's apart)."""
    texts = [
        f"Always quarantine the {tag} fixtures before the nightly run.",
        f"Never regenerate the {tag} snapshots by hand.",
        f"Note that the {tag} cache must be cleared after a schema change.",
    ]
    kinds = ["rule", "rule", "note"]
    return [
        LessonDraft(kind, text.rstrip("."), text, f"session-{tag}", f"u{n}", "claude")  # type: ignore[arg-type]
        for n, (kind, text) in enumerate(zip(kinds, texts, strict=True))
    ]


def add(store: Path, tag: str) -> list[str]:
    with memcli.open_store(store, create=True) as opened:
        return [d["id"] for d in opened.add_drafts(lessons(tag))["added"]]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("drafts")


@pytest.fixture(scope="module")
def store(base: Path) -> Path:
    return base / "store"


@pytest.fixture(scope="module")
def http(base: Path, store: Path) -> Iterator[httpx.Client]:
    memcli.open_store(store, create=True).close()
    server = Server(["--store", str(store)], base, "unix")
    transport = httpx.HTTPTransport(uds=server.where.removeprefix("unix socket "))
    with httpx.Client(transport=transport, base_url="http://mem", timeout=60) as client:
        yield client
    assert server.stop() == 0, server.log.read_text()


@pytest.fixture(scope="module")
def mcp(base: Path, store: Path) -> Iterator[Client]:
    memcli.open_store(store, create=True).close()
    with ExitStack() as stack:
        yield start_client(stack, ["--store", str(store)], base)


def test_mcp_lists_accepts_and_rejects_drafts(mcp: Client, store: Path) -> None:
    ids = add(store, "walrus")
    listed = mcp.ok("drafts")
    assert {d["id"] for d in listed} >= set(ids)
    assert mcp.ok("drafts", action="list") == listed
    assert not any("walrus" in hit["title"] for hit in mcp.ok("search", query="walrus"))
    (accepted,) = mcp.ok("drafts", action="accept", ids=[ids[0][:8]])
    assert accepted["action"] == "saved" and accepted["source_message"] == "u0"
    assert accepted["session"] == "session-walrus" and accepted["lesson_draft"] == ids[0]
    assert mcp.ok("get", ids=accepted["id"])[0]["narrative"].startswith("Always quarantine")
    assert mcp.ok("drafts", action="reject", ids=ids[1])["rejected"] == [ids[1]]
    assert {d["id"] for d in mcp.ok("drafts")} & set(ids) == {ids[2]}
    assert "no lesson draft" in mcp.error("drafts", action="accept", ids="ffffffffffff")
    assert "action" in mcp.error("drafts", action="accept")
    assert "action" in mcp.error("drafts", action="forget", ids=ids[2])


def test_http_lists_accepts_and_rejects_drafts(http: httpx.Client, store: Path) -> None:
    ids = add(store, "narwhal")
    listed = http.get("/api/drafts")
    assert listed.status_code == 200
    mine = [d for d in listed.json()["results"] if d["id"] in ids]
    assert len(mine) == 3 and mine[0]["source"]["agent"] == "claude"
    found = http.get("/api/memory/search", params={"query": "narwhal snapshots"}).json()
    assert not any("narwhal" in hit["title"] for hit in found["results"])
    accepted = http.post(f"/api/drafts/{ids[0]}/accept", json={"title": "Quarantine narwhals"})
    assert accepted.status_code == 201, accepted.text
    record = accepted.json()
    assert record["title"] == "Quarantine narwhals" and record["source_message"] == "u0"
    rejected = http.post(f"/api/drafts/{ids[1]}/reject")
    assert rejected.status_code == 200 and rejected.json()["rejected"] == [ids[1]]
    missing = http.post(f"/api/drafts/{ids[1]}/reject")
    assert missing.status_code == 404 and list(missing.json()) == ["error"]
    assert http.post(f"/api/drafts/{ids[2]}/accept", json={"nope": 1}).status_code == 422
    assert http.post(f"/api/drafts/{ids[2]}/forget").status_code == 404
    left = {d["id"] for d in http.get("/api/drafts").json()["results"]}
    assert left & set(ids) == {ids[2]}


def test_the_viewer_accepts_and_rejects_behind_its_confirmation(
    http: httpx.Client, store: Path
) -> None:
    ids = add(store, "okapi")
    listing = html_page(http.get("/drafts"))
    assert all(f"/drafts/{i}/accept" in listing and f"/drafts/{i}/reject" in listing for i in ids)
    own = {"Origin": "http://mem"}
    url = f"/drafts/{ids[0]}/accept"
    form = form_token(html_page(http.get(url)))
    unconfirmed = http.post(url, data={"form": form}, headers=own)
    assert "tick the box" in html_page(unconfirmed, 400)
    assert "form" in html_page(http.post(url, data={"confirm": "yes"}, headers=own), 403)
    elsewhere = {"Origin": "http://evil.example"}
    refused = http.post(url, data={"confirm": "yes", "form": form}, headers=elsewhere)
    assert html_page(refused, 403)
    done = html_page(http.post(url, data={"confirm": "yes", "form": form}, headers=own))
    assert "Accepted:" in done and "/memory/" in done
    url = f"/drafts/{ids[1]}/reject"
    form = form_token(html_page(http.get(url)))
    done = html_page(http.post(url, data={"confirm": "yes", "form": form}, headers=own))
    assert "Rejected:" in done
    listing = html_page(http.get("/drafts"))
    assert ids[0] not in listing and ids[1] not in listing and ids[2] in listing
    assert "okapi" in html_page(http.get("/drafts/" + ids[2] + "/reject"))
    assert html_page(http.get("/drafts/ffffffffffff/accept"), 404)
