"""The viewer: ``mem serve``'s HTML pages, read with a real HTTP client and a real browser.

Two servers serve one store for the whole module: one on its unix socket (no token), one
on a loopback TCP port with a token. The browser test drives Debian's chromium headless;
it is skipped, saying why, where chromium is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import git, git_project
from .test_serve import Server

pytestmark = pytest.mark.e2e

HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("viewer")


@pytest.fixture(scope="module")
def project(base: Path) -> Path:
    git_project(base / "project", {"src/upload.py": "LIMIT = 10\n"})
    return base / "project"


@pytest.fixture(scope="module")
def unix_server(base: Path, project: Path) -> Iterator[Server]:
    server = Server(["--store", str(base / "store")], base, "unix")
    yield server
    assert server.stop() == 0, server.log.read_text()


@pytest.fixture(scope="module")
def client(unix_server: Server) -> Iterator[httpx.Client]:
    path = unix_server.where.removeprefix("unix socket ")
    transport = httpx.HTTPTransport(uds=path)
    with httpx.Client(transport=transport, base_url="http://mem", timeout=60) as http:
        yield http


@pytest.fixture(scope="module")
def memories(client: httpx.Client, project: Path) -> dict[str, str]:
    """Ids of the memories every test reads: one with a file changed since, one hostile,
    one updated once (its last change is a diff)."""

    def save(**fields: Any) -> str:
        response = client.post("/api/memory/save", json=fields)
        assert response.status_code in (200, 201), response.text
        identity: str = response.json()["id"]
        return identity

    ids = {
        "upload": save(
            text="Uploads fail after 60 s: the proxy's read timeout is 60 s",
            type="gotcha",
            files=["src/upload.py"],
            facts=["raise proxy_read_timeout to 300 s"],
            agent="claude",
        ),
        "hostile": save(
            text=f"{HOSTILE} and <img src=x onerror=alert(2)> in the text",
            title=HOSTILE,
            type="discovery",
            facts=[f"a fact {HOSTILE}"],
            agent="codex",
        ),
        "deploy": save(text="Deploys go out on Tuesdays", type="decision", key="deploy-day"),
    }
    save(text="Deploys go out on Wednesdays from now on", type="decision", key="deploy-day")
    (project / "src" / "upload.py").write_text("LIMIT = 300\n")
    git(project, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qam", "up")
    return ids


@pytest.fixture(scope="module")
def tcp_server(base: Path, unix_server: Server) -> Iterator[Server]:
    server = Server(["--store", str(base / "store"), "--port", "0"], base, "tcp")
    yield server
    assert server.stop() == 0, server.log.read_text()


@pytest.fixture(scope="module")
def tcp_url(tcp_server: Server) -> str:
    return tcp_server.where.split(" ", 1)[0]


@pytest.fixture(scope="module")
def token(base: Path, tcp_server: Server) -> str:
    return (base / "mem-home" / ".api-token").read_text().strip()


def html_page(response: httpx.Response, status: int = 200) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert "script-src" not in response.headers.get("content-security-policy", "default-src")
    text: str = response.text
    assert text.startswith("<!doctype html>") and "Traceback" not in text
    return text


def test_the_journal_search_and_a_memory_render(
    client: httpx.Client, memories: dict[str, str]
) -> None:
    journal = html_page(client.get("/"))
    assert "Uploads fail after 60 s" in journal and "claude" in journal
    assert re.search(r"<h2>\d{4}-\d\d-\d\d <span class=\"muted\">&middot; ", journal)
    assert 'class="tag learned"' in journal and 'class="tag changed"' in journal
    assert "project 3</span>" in journal  # the layers, with their counts

    found = html_page(client.get("/search", params={"q": "upload proxy timeout"}))
    assert f'href="/memory/{memories["upload"]}"' in found
    assert re.search(r"bm25 #1 \([\d.]+\) &middot; ", found) and "terms " in found
    assert "importance 1.000" in found and "score 0." in found

    upload = html_page(client.get(f"/memory/{memories['upload']}"))
    assert "raise proxy_read_timeout to 300 s" in upload and "project layer" in upload
    assert "stale: +1 -1 in 1 commit" in upload and "src/upload.py" in upload
    assert "Saved in this commit." in upload and 'class="tag learned"' in upload

    deploy = html_page(client.get("/memory/deploy-day"))
    assert '<span class="del">-Deploys go out on Tuesdays</span>' in deploy
    assert '<span class="add">+Deploys go out on Wednesdays from now on</span>' in deploy
    assert deploy.count('class="tag changed"') == 1 and "stale:" not in deploy

    team = html_page(client.get("/search", params={"q": "deploy", "layer": "team"}), 404)
    assert "there is no team layer here" in team


def test_the_journal_pages_on_from_its_older_link(
    client: httpx.Client, memories: dict[str, str]
) -> None:
    whole = re.findall(r'<span class="tag (\w+)">', html_page(client.get("/")))
    seen: list[str] = []
    url: str | None = "/?limit=2"
    while url is not None:
        text = html_page(client.get(url.replace("&amp;", "&")))
        shown = re.findall(r'<span class="tag (\w+)">', text)
        assert len(shown) <= 2
        seen += shown
        link = re.search(r'<a href="(/\?[^"]+)">Older', text)
        url = link.group(1) if link else None
    assert (
        len(whole) >= 4 and seen == whole
    )  # every entry once, in order, though they share one second
    assert "before must be a date" in html_page(client.get("/?before=yesterday-ish"), 400)
    assert "limit must be" in html_page(client.get("/?limit=0"), 400)


def test_every_value_is_escaped(client: httpx.Client, memories: dict[str, str], base: Path) -> None:
    # a store's own templates (they arrive through git from others) never make a page
    own = base / "store" / "templates" / "viewer"
    own.mkdir(parents=True, exist_ok=True)
    (own / "base.html.j2").write_text("<script>alert('store')</script>")
    pages = [
        client.get("/"),
        client.get("/search", params={"q": "alert"}),
        client.get(f"/memory/{memories['hostile']}"),
        client.get(f"/memory/{memories['hostile']}/forget"),
        client.get("/search", params={"q": HOSTILE}),
    ]
    for response in pages:
        text = html_page(response)
        assert "<script>" not in text and "<img" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


def test_errors_are_small_html_pages_and_the_api_stays_json(client: httpx.Client) -> None:
    assert "no page /nowhere" in html_page(client.get("/nowhere"), 404)
    assert "NOMEMORY" in html_page(client.get("/memory/NOMEMORY"), 404)
    assert "takes no" in html_page(client.get("/search", params={"x": "1"}), 400)
    assert "unknown layer" in html_page(client.get("/search?q=a&layer=nope"), 400)
    assert "is not allowed" in html_page(client.delete("/"), 405)
    api = client.get("/api/memory/nothing")
    assert api.status_code == 404 and list(api.json()) == ["error"]


def cookie_name(url: str) -> str:
    """The viewer's cookie of the server at ``url``: one a port."""
    return f"mem_session_{url.rsplit(':', 1)[1]}"


def form_token(page: str) -> str:
    found = re.search(r'<input type="hidden" name="form" value="([^"]+)">', page)
    assert found is not None, page
    return found.group(1)


def login(url: str, token: str) -> httpx.Response:
    """The answer to the token given once as ``?token=``: the session cookie it sets."""
    with httpx.Client(base_url=url, timeout=30) as http:
        entered = http.get("/", params={"token": token})
    assert entered.status_code == 303, entered.text
    return entered


def session_of(url: str, token: str) -> str:
    value = login(url, token).cookies.get(cookie_name(url))
    assert value
    return value


def test_tcp_pages_need_the_token_once_then_its_cookie(
    tcp_url: str, token: str, memories: dict[str, str]
) -> None:
    with httpx.Client(base_url=tcp_url, timeout=30) as http:
        assert "?token=" in html_page(http.get("/"), 401)
        html_page(http.get("/", params={"token": token + "x"}), 401)
        name = cookie_name(tcp_url)
        html_page(http.get("/", headers={"Cookie": f"{name}={token}"}), 401)
        entered = http.get("/search", params={"q": "deploy", "token": token})
        assert entered.status_code == 303 and entered.headers["location"] == "/search?q=deploy"
        cookie = entered.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and token not in cookie
        assert http.cookies.get(name)
        assert "Deploys go out" in html_page(http.get(entered.headers["location"]))
        again = http.get("/", params={"token": token})  # with the cookie: still taken away
        assert again.status_code == 303 and again.headers["location"] == "/"
        # the cookie opens the viewer only: the API still wants the bearer header
        api = http.get("/api/memory/search", params={"query": "deploy"})
        assert api.status_code == 401 and list(api.json()) == ["error"]
        assert http.get("/health").status_code == 401
        bearer = {"Authorization": f"Bearer {token}"}
        assert http.get("/api/memory/search", params={"query": "deploy"}, headers=bearer).json()
    with httpx.Client(base_url=tcp_url, timeout=30) as http:
        assert "Journal" in html_page(http.get("/", headers=bearer))


def test_each_start_has_its_own_random_session_that_another_port_cannot_replay(
    base: Path, tcp_url: str, token: str, memories: dict[str, str]
) -> None:
    import hashlib
    import hmac

    first = session_of(tcp_url, token)
    assert first != session_of(tcp_url, token)  # each sign-in a value of its own
    digest = hmac.new(token.encode(), b"mem viewer cookie", hashlib.sha256).hexdigest()
    assert token not in first and digest not in first
    other = Server(["--store", str(base / "store"), "--port", "0"], base, "other")
    try:
        other_url = other.where.split(" ", 1)[0]
        assert cookie_name(other_url) != cookie_name(tcp_url)
        mine = session_of(other_url, token)  # the same token file, another start
        assert mine != first
        with httpx.Client(base_url=other_url, timeout=30) as http:
            assert "Journal" in html_page(
                http.get("/", headers={"Cookie": f"{cookie_name(other_url)}={mine}"})
            )
            for name in (cookie_name(other_url), cookie_name(tcp_url)):  # taken from A
                html_page(http.get("/", headers={"Cookie": f"{name}={first}"}), 401)
    finally:
        assert other.stop() == 0, other.log.read_text()


def test_a_session_expires(base: Path, token: str, memories: dict[str, str]) -> None:
    brief = Server(
        ["--store", str(base / "store"), "--port", "0"],
        base,
        "brief",
        {"MEM_SERVE_SESSION_SECONDS": "0.5"},
    )
    try:
        url = brief.where.split(" ", 1)[0]
        entered = login(url, token)
        assert "Max-Age=1" in entered.headers["set-cookie"]
        cookie = f"{cookie_name(url)}={entered.cookies.get(cookie_name(url))}"
        time.sleep(0.6)
        with httpx.Client(base_url=url, timeout=30) as http:
            html_page(http.get("/", headers={"Cookie": cookie}), 401)
    finally:
        assert brief.stop() == 0, brief.log.read_text()


@pytest.mark.parametrize("path", ["/", "/search?q=deploy", "/api/memory/search?query=x", "/mcp"])
def test_a_request_must_name_this_server_in_its_host(tcp_url: str, token: str, path: str) -> None:
    port = tcp_url.rsplit(":", 1)[1]
    bearer = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    with httpx.Client(base_url=tcp_url, timeout=30, headers=bearer) as http:
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{int(port) + 1}"):
            assert http.get(path, headers={"Host": host}).status_code == 421
        cookie = {"Cookie": f"{cookie_name(tcp_url)}={session_of(tcp_url, token)}"}
        rebound = http.get("/", headers={"Host": f"evil.example:{port}", **cookie})
        assert rebound.status_code == 421 and "Journal" not in rebound.text
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
            assert http.get(path, headers={"Host": host}).status_code not in (421, 401, 403)
    html = "/" if path == "/" else "/search?q=x"
    with httpx.Client(base_url=tcp_url, timeout=30) as http:
        asked = http.get(html, params={"token": token}, headers={"Host": f"evil.example:{port}"})
        assert asked.status_code == 421 and "set-cookie" not in asked.headers


def test_a_change_needs_the_form_token_of_its_session(
    client: httpx.Client, tcp_url: str, token: str
) -> None:
    saved = client.post("/api/memory/save", json={"text": "A note the form token keeps"}).json()
    url = f"/memory/{saved['id']}/forget"
    own = {"Origin": "http://mem"}
    form = form_token(html_page(client.get(url)))
    for given in ({}, {"form": ""}, {"form": form + "x"}):
        refused = client.post(url, data={"confirm": "yes", **given}, headers=own)
        assert "form" in html_page(refused, 403)
    assert client.post("/api/memory/batch", json={"ids": [saved["id"]]}).status_code == 200
    # on TCP: the form token of one session does not do for another
    origin = {"Origin": tcp_url}
    sessions = [session_of(tcp_url, token) for _ in range(2)]
    with httpx.Client(base_url=tcp_url, timeout=30) as http:
        first = {"Cookie": f"{cookie_name(tcp_url)}={sessions[0]}"}
        second = {"Cookie": f"{cookie_name(tcp_url)}={sessions[1]}"}
        theirs = form_token(html_page(http.get(url, headers=first)))
        crossed = http.post(url, data={"confirm": "yes", "form": theirs}, headers=second | origin)
        assert "form" in html_page(crossed, 403)
        done = http.post(url, data={"confirm": "yes", "form": theirs}, headers=first | origin)
        assert "Forgotten: A note the form token keeps" in html_page(done)


def test_search_shows_each_hits_text(client: httpx.Client) -> None:
    client.post(
        "/api/memory/save",
        json={
            "title": "Proxy body limits",
            "text": "The ingress proxy cuts request bodies above 10 MB without an error.",
            "facts": ["client_max_body_size is 10m"],
        },
    ).raise_for_status()
    found = html_page(client.get("/search", params={"q": "ingress proxy bodies"}))
    assert "Proxy body limits" in found
    assert "cuts request bodies above 10 MB without an error" in found
    assert "client_max_body_size is 10m" in found


def test_forget_needs_a_confirmation_from_the_viewers_own_page(
    client: httpx.Client, base: Path
) -> None:
    saved = client.post("/api/memory/save", json={"text": "Temporary note to forget"}).json()
    ref = saved["id"]
    confirm = html_page(client.get(f"/memory/{ref}/forget"))
    assert f'action="/memory/{ref}/forget"' in confirm and 'name="confirm"' in confirm
    own = {"Origin": "http://mem"}
    url = f"/memory/{ref}/forget"
    form = form_token(confirm)
    unticked = client.post(url, data={"form": form}, headers=own)
    assert "tick the box" in html_page(unticked, 400)
    for foreign in (
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Referer": "http://evil.example/mem"},
        {},
        {"Origin": "http://mem", "Sec-Fetch-Site": "cross-site"},
    ):
        crossed = client.post(url, data={"confirm": "yes", "form": form}, headers=foreign)
        assert "own page" in html_page(crossed, 403)
    assert client.post("/api/memory/batch", json={"ids": [ref]}).status_code == 200  # kept
    referer = {"Referer": f"http://mem{url}"}
    done = client.post(url, data={"confirm": "yes", "form": form}, headers=referer)
    assert "Forgotten: Temporary note to forget" in html_page(done)
    assert client.post("/api/memory/batch", json={"ids": [ref]}).status_code == 404
    gone = html_page(client.get(f"/memory/{ref}"))
    assert "no longer stored" in gone and 'class="tag forgotten"' in gone
    assert 'class="tag forgotten"' in html_page(client.get("/"))


def test_promote_moves_a_memory_to_the_user_layer(client: httpx.Client) -> None:
    saved = client.post(
        "/api/memory/save", json={"text": "I use pnpm, never npm", "type": "preference"}
    ).json()
    ref = saved["id"]
    confirm = html_page(client.get(f"/memory/{ref}/promote", params={"to": "user"}))
    assert 'name="to" value="user"' in confirm
    assert "promote needs to=" in html_page(client.get(f"/memory/{ref}/promote"), 400)
    url = f"/memory/{ref}/promote"
    form = {"to": "user", "confirm": "yes", "form": form_token(confirm)}
    moved = client.post(url, data=form, headers={"Origin": "http://mem"})
    assert "Moved to the user layer" in html_page(moved)
    page = html_page(client.get(f"/memory/{ref}"))
    assert "user layer" in page and "user 1</span>" in page
    record = client.post("/api/memory/batch", json={"ids": [ref]}).json()["results"][0]
    assert record["layer"] == "user"


# ------------------------------------------------------------------- browser


def png_colours(data: bytes, rows: int) -> tuple[int, int, set[tuple[int, ...]]]:
    """Width, height and the distinct colours of a PNG's first ``rows`` rows (8-bit RGB/RGBA)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, [], b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6)
    size = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * size
    previous = bytearray(stride)
    colours: set[tuple[int, ...]] = set()
    for row in range(min(rows, height)):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - size] if i >= size else 0
            up = previous[i]
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                corner = previous[i - size] if i >= size else 0
                guess = left + up - corner
                best = min((abs(guess - left), 0), (abs(guess - up), 1), (abs(guess - corner), 2))
                line[i] = (line[i] + (left, up, corner)[best[1]]) & 255
        colours.update(tuple(line[i : i + 3]) for i in range(0, stride, size))
        previous = line
    return width, height, colours


def chromium(args: list[str], profile: Path) -> str:
    result = subprocess.run(
        [
            CHROMIUM or "chromium",
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--window-size=1200,900",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install chromium; .ci/run does)"
)
def test_a_real_browser_loads_searches_and_opens_a_memory(
    tcp_url: str, token: str, memories: dict[str, str], tmp_path: Path
) -> None:
    journal = chromium(["--dump-dom", f"{tcp_url}/?token={token}"], tmp_path / "a")
    assert "Uploads fail after 60 s" in journal and "&lt;script&gt;" in journal
    found = chromium(
        ["--dump-dom", f"{tcp_url}/search?q=proxy+timeout&token={token}"], tmp_path / "b"
    )
    link = re.search(r'href="/memory/([0-9A-Z]{26})"', found)
    assert link is not None and link.group(1) == memories["upload"]
    shot = tmp_path / "memory.png"
    chromium(
        [f"--screenshot={shot}", f"{tcp_url}/memory/{link.group(1)}?token={token}"],
        tmp_path / "c",
    )
    width, height, colours = png_colours(shot.read_bytes(), rows=300)
    assert (width, height) == (1200, 900)
    assert len(colours) > 50  # text, tags and the header: not a blank page
    assert (0x1D, 0x23, 0x30) in colours  # the header's colour: the page's own style applied


def test_a_superseded_memory_names_its_successor(
    client: httpx.Client, memories: dict[str, str]
) -> None:
    new = client.post(
        "/api/memory/save",
        json={"text": "Uploads no longer time out: chunked", "supersedes": [memories["upload"]]},
    ).json()["id"]
    old = html_page(client.get(f"/memory/{memories['upload']}"))
    assert f'superseded by <a href="/memory/{new}">' in old
    assert f'replaces <a href="/memory/{memories["upload"]}">' in html_page(
        client.get(f"/memory/{new}")
    )
