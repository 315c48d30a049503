"""``mem serve``: the installed command in a subprocess, spoken to with a real HTTP client.

Two servers serve the whole module (starting one costs about a second): one on
its default unix socket from two worker processes, one on a loopback TCP port
with a token from one. Both serve the same store, as two programs would.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from memcli.adapters.http.auth import TOKEN_ENV, is_loopback, load_token
from memcli.adapters.http.listen import unix_listener
from memcli.core.errors import MemError
from memcli.core.schema import OBSERVATION_TYPES

from .conftest import git, git_project, mem_executable, read_until_closed, server_env

pytestmark = pytest.mark.e2e


class Server:
    """A running ``mem serve``: its process, where it listens, and a client for it."""

    def __init__(
        self, args: list[str], base: Path, name: str, env: dict[str, str] | None = None
    ) -> None:
        self.log = base / f"{name}-stderr.txt"
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [mem_executable(), "serve", *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                env={**server_env(base), **(env or {})},
                cwd=base / "project" if (base / "project").is_dir() else None,
            )
        self.where = self._wait_ready()

    def _wait_ready(self) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for line in self.log.read_text().splitlines():
                if line.startswith("mem: serving "):
                    return line.split(" on ", 1)[1]
            if self.process.poll() is not None:
                raise AssertionError(self.log.read_text())
            time.sleep(0.05)
        raise AssertionError(f"not ready: {self.log.read_text()}")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("serve")


@pytest.fixture(scope="module")
def store(base: Path) -> Path:
    return base / "store"


@pytest.fixture(scope="module")
def project(base: Path) -> Path:
    """A project's git repository with one commit: where every server runs."""
    git_project(base / "project", {"src/upload.py": "LIMIT = 10\n"})
    return base / "project"


@pytest.fixture(scope="module")
def unix_server(base: Path, store: Path, project: Path) -> Iterator[Server]:
    server = Server(["--store", str(store), "--workers", "2"], base, "unix")
    yield server
    path = Path(server.where.removeprefix("unix socket ").removesuffix(" (2 processes)"))
    assert server.stop() == 0, server.log.read_text()
    assert not path.exists()  # SIGTERM removed the socket
    assert server.log.read_text().splitlines()[-1] == "mem: stopped"


@pytest.fixture(scope="module")
def socket_path(unix_server: Server) -> Path:
    return Path(unix_server.where.removeprefix("unix socket ").removesuffix(" (2 processes)"))


@pytest.fixture(scope="module")
def client(socket_path: Path) -> Iterator[httpx.Client]:
    transport = httpx.HTTPTransport(uds=str(socket_path))
    with httpx.Client(transport=transport, base_url="http://mem", timeout=60) as http:
        yield http


@pytest.fixture(scope="module")
def tcp_server(base: Path, store: Path, unix_server: Server) -> Iterator[Server]:
    # four connections at most wait without the token (a few clients reach the limit)
    server = Server(
        ["--store", str(store), "--port", "0"], base, "tcp", {"MEM_SERVE_MAX_WAITING": "4"}
    )
    yield server
    assert server.stop() == 0, server.log.read_text()
    assert server.log.read_text().splitlines()[-1] == "mem: stopped"


@pytest.fixture(scope="module")
def tcp_url(tcp_server: Server) -> str:
    return tcp_server.where.split(" ", 1)[0]


@pytest.fixture(scope="module")
def token(base: Path) -> str:
    return (base / "mem-home" / ".api-token").read_text().strip()


def save(client: httpx.Client, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/memory/save", json=fields)
    assert response.status_code in (200, 201), response.text
    result: dict[str, Any] = response.json()
    return result


def refused(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert list(body) == ["error"] and "\n" not in body["error"]
    assert "Traceback" not in body["error"]
    message: str = body["error"]
    return message


def test_the_socket_is_the_users_alone_and_health_answers(
    socket_path: Path, store: Path, client: httpx.Client
) -> None:
    assert socket_path == store / ".cache" / "serve" / "mem.sock"
    assert stat.S_ISSOCK(socket_path.stat().st_mode)
    assert stat.S_IMODE(socket_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(socket_path.parent.stat().st_mode) == 0o700
    health = client.get("/health").json()
    assert health["status"] == "ok" and health["shape"] == 1 and health["store"] == str(store)


def test_save_is_a_commit_and_search_timeline_batch_inject_read_it(
    client: httpx.Client, store: Path
) -> None:
    response = client.post(
        "/api/memory/save",
        json={
            "text": "The upload proxy drops bodies over 10 MB; chunk the uploads.",
            "type": "gotcha",
            "facts": ["the proxy limit is 10 MB"],
            "files": ["src/upload.py"],
            "importance": 0.8,
        },
    )
    assert response.status_code == 201, response.text
    first = response.json()
    assert first["action"] == "saved" and first["facts"] == ["the proxy limit is 10 MB"]
    assert git(store, "rev-parse", "HEAD").strip() == first["commit"]
    assert (store / first["path"]).is_file()
    second = save(client, text="Uploads retry three times before failing.", key="retries")
    hits = client.get("/api/memory/search", params={"query": "upload proxy", "type": "gotcha"})
    assert [hit["id"] for hit in hits.json()["results"]] == [first["id"]]
    assert "narrative" not in hits.json()["results"][0]
    around = client.get("/api/memory/timeline", params={"anchor": "retries", "after": 0})
    ids = [entry["id"] for entry in around.json()["results"]]
    assert ids[-2:] == [first["id"], second["id"]]
    records = client.post("/api/memory/batch", json={"ids": ["retries", first["id"]]})
    assert [r["id"] for r in records.json()["results"]] == [second["id"], first["id"]]
    assert "chunk the uploads" in records.json()["results"][1]["narrative"]
    context = client.get("/api/memory/inject", params={"budget": 2000}).json()["context"]
    assert "upload proxy drops bodies" in context and len(context) <= 2000
    prompt = {"prompt": "why does the upload proxy drop big bodies?", "session": "s1"}
    recalled = client.get("/api/memory/inject", params=prompt)
    assert recalled.status_code == 200 and isinstance(recalled.json()["context"], str)
    refused(client.get("/api/memory/inject", params={"session": "s1"}), 422)
    again = client.post("/api/memory/save", json={"text": "Five retries now.", "key": "retries"})
    assert again.status_code == 200 and again.json()["action"] == "updated"


def test_batch_answers_strict_json_for_a_hand_edited_infinity(
    client: httpx.Client, store: Path
) -> None:
    saved = save(client, text="The cache never expires.", key="cache-ttl")
    file = store / saved["path"]
    file.write_text(file.read_text().replace("\n---\n", "\nttl: -.inf\n---\n", 1))
    git(store, "commit", "-q", "-am", "hand edit")
    response = client.post("/api/memory/batch", json={"ids": ["cache-ttl"]})
    assert response.status_code == 200, response.text
    body = json.loads(response.text, parse_constant=lambda name: pytest.fail(name))
    assert body["results"][0]["ttl"] == "-Infinity"


def test_saves_record_the_agent_and_the_projects_commit(
    client: httpx.Client, project: Path, socket_path: Path
) -> None:
    head = git(project, "rev-parse", "HEAD").strip()
    named = save(client, text="Named by its body.", agent="codex", files=["src/upload.py"])
    assert (named["agent"], named["project_commit"]) == ("codex", head)
    by_header = {"Mem-Agent": "deploy-bot"}
    response = client.post(
        "/api/memory/save", json={"text": "Named by a header."}, headers=by_header
    )
    assert (response.json()["agent"], response.json()["project_commit"]) == ("deploy-bot", head)
    anonymous = save(client, text="Named by nobody.")
    assert (anonymous["agent"], anonymous["project_commit"]) == (None, head)
    bad = {"Mem-Agent": "two words"}
    assert "invalid agent" in refused(
        client.post("/api/memory/save", json={"text": "x"}, headers=bad), 422
    )
    transport = httpx.AsyncHTTPTransport(uds=str(socket_path))
    _, saved, _ = _mcp_round_trip("http://mem/mcp", transport=transport, headers=by_header)
    record = json.loads(saved.content[0].text)
    assert (record["agent"], record["project_commit"]) == ("deploy-bot", head)


def test_bad_requests_get_their_http_status_and_one_line(
    client: httpx.Client, socket_path: Path
) -> None:
    save_url = "/api/memory/save"
    assert "not valid JSON" in refused(client.post(save_url, content=b"{bad"), 400)
    assert "JSON object" in refused(client.post(save_url, json=["a list"]), 400)
    nested = b"[" * 100_000 + b"]" * 100_000
    refused(client.post(save_url, content=nested), 400)
    message = refused(client.post(save_url, json={"text": "x", "type": "nonsense"}), 422)
    assert all(name in message for name in OBSERVATION_TYPES)
    assert "'colour'" in refused(client.post(save_url, json={"text": "x", "colour": 1}), 422)
    assert "needs 'text'" in refused(client.post(save_url, json={}), 422)
    search = "/api/memory/search"
    assert "use one of" in refused(client.get(search, params={"query": "x", "type": "no"}), 422)
    refused(client.get(search, params={"query": "x", "limit": "ten"}), 422)
    refused(client.get(search, params={"query": "x", "limit": "0"}), 422)
    refused(client.get(search, params={"query": "x", "sort": "new"}), 422)
    assert "needs 'query'" in refused(client.get(search), 422)
    refused(client.get(search, params={"query": "x" * 10_000}), 414)
    refused(client.get("/api/memory/timeline", params={"anchor": "01ZZZZZZZZ"}), 404)
    missing = refused(client.post("/api/memory/batch", json={"ids": ["nokey", "retries"]}), 404)
    assert "nokey" in missing
    refused(client.get("/api/memory/nothing"), 404)
    assert refused(client.get(save_url), 405) == "GET is not allowed here"
    big = {"text": "x" * (1 << 20)}
    assert "over 1,048,576 bytes" in refused(client.post(save_url, json=big), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: the cap counts as it reads
        yield b'{"text": "'
        for _ in range(20):
            yield b"y" * 65536
        yield b'"}'

    refused(client.post(save_url, content=chunks()), 413)
    # a Content-Length that lies about the body: the cap holds on what it says
    with socket.socket(socket.AF_UNIX) as raw:
        raw.connect(str(socket_path))
        raw.sendall(
            b"POST /api/memory/save HTTP/1.1\r\nHost: mem\r\nContent-Length: 99999999\r\n\r\n{}"
        )
        assert raw.recv(4096).startswith(b"HTTP/1.1 413 ")


def test_fifty_concurrent_saves_are_fifty_commits_and_files(
    socket_path: Path, store: Path, client: httpx.Client
) -> None:
    before = int(git(store, "rev-list", "--count", "HEAD"))

    def one(n: int) -> int:
        transport = httpx.HTTPTransport(uds=str(socket_path))
        with httpx.Client(transport=transport, base_url="http://mem", timeout=120) as http:
            reply = http.post("/api/memory/save", json={"text": f"Parallel note number {n}."})
            return reply.status_code

    with ThreadPoolExecutor(50) as pool:
        statuses = list(pool.map(one, range(50)))
    assert statuses == [201] * 50
    assert int(git(store, "rev-list", "--count", "HEAD")) == before + 50
    files = [p for p in (store / "observations").rglob("*.md") if "parallel-note" in p.name]
    assert len(files) == 50
    hits = client.get("/api/memory/search", params={"query": "parallel note", "limit": 100})
    titles = [hit["title"] for hit in hits.json()["results"]]
    assert sum(title.startswith("Parallel note number") for title in titles) == 50


HOLD_LOCK = """
import sys, time
from pathlib import Path
from memcli.store.files import Store
with Store(Path(sys.argv[1])).write_lock():
    print("locked", flush=True)
    sys.stdin.read()
"""


@contextlib.contextmanager
def write_lock_held(store: Path) -> Iterator[None]:
    """The store's write lock, held by another process until the block ends."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(store)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()


def test_reads_answer_while_a_save_waits_for_the_write_lock(
    client: httpx.Client, store: Path
) -> None:
    outcome: list[httpx.Response] = []
    saver = threading.Thread(
        target=lambda: outcome.append(
            client.post("/api/memory/save", json={"text": "Saved after the lock was let go."})
        )
    )
    with write_lock_held(store):
        saver.start()
        time.sleep(0.3)  # the save is now waiting for the lock
        began = time.monotonic()
        for _ in range(3):
            assert client.get("/api/memory/search", params={"query": "upload"}).status_code == 200
            assert client.post("/api/memory/batch", json={"ids": ["retries"]}).status_code == 200
        assert time.monotonic() - began < 5
        assert saver.is_alive() and not outcome
    saver.join(timeout=60)
    assert outcome and outcome[0].status_code == 201, outcome


def test_a_client_that_hangs_up_mid_request_harms_nothing(
    socket_path: Path, client: httpx.Client, store: Path
) -> None:
    with socket.socket(socket.AF_UNIX) as raw:  # half a body, then gone
        raw.connect(str(socket_path))
        raw.sendall(b"POST /api/memory/save HTTP/1.1\r\nHost: mem\r\nContent-Length: 500\r\n\r\n{")
    body = json.dumps({"text": "Saved by a client that hung up."}).encode()
    with socket.socket(socket.AF_UNIX) as raw:  # a whole save, gone before the answer
        raw.connect(str(socket_path))
        raw.sendall(
            b"POST /api/memory/save HTTP/1.1\r\nHost: mem\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
    with socket.socket(socket.AF_UNIX) as raw:  # headers cut short
        raw.connect(str(socket_path))
        raw.sendall(b"GET /api/memory/search?query=up")
    assert client.get("/health").status_code == 200
    deadline = time.monotonic() + 30
    while "client that hung up" not in git(store, "log", "-1", "--format=%s"):
        assert time.monotonic() < deadline, git(store, "log", "-3", "--format=%s")
        time.sleep(0.05)  # the save went on without its client


def test_a_live_socket_is_refused_and_a_stale_one_replaced(
    socket_path: Path, tmp_path: Path
) -> None:
    with pytest.raises(MemError, match="already listening"):
        unix_listener(socket_path)
    stale = tmp_path / "run" / "stale.sock"
    stale.parent.mkdir(mode=0o700)
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(stale))
    dead.close()  # the file stays, nobody listens
    listener = unix_listener(stale)
    try:
        assert stat.S_IMODE(stale.stat().st_mode) == 0o600
    finally:
        listener.close()
    (tmp_path / "plain").write_text("not a socket")
    with pytest.raises(MemError, match="not a socket"):
        unix_listener(tmp_path / "plain")


ONE_PROCESS = """
import sys
from pathlib import Path
from memcli.adapters.http.listen import run, unix_listener

async def app(scope, receive, send):
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"up"})

run(app, unix_listener(Path(sys.argv[1])))
print("clean exit", flush=True)
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_one_process_stops_cleanly_on_a_signal(tmp_path: Path, sig: signal.Signals) -> None:
    path = tmp_path / "one.sock"
    # A session of its own: whatever the server does with signals stays out of pytest's group.
    process = subprocess.Popen(
        [sys.executable, "-c", ONE_PROCESS, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        transport = httpx.HTTPTransport(uds=str(path), retries=50)
        deadline = time.monotonic() + 60
        while not path.exists():
            assert time.monotonic() < deadline, "the server made no socket within 60 s"
            assert process.poll() is None, "the server stopped before it made its socket"
            time.sleep(0.02)
        with httpx.Client(transport=transport, base_url="http://mem") as http:
            assert http.get("/").text == "up"
        process.send_signal(sig)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert (process.returncode, out) == (0, "clean exit\n"), err[-2000:]
    assert not path.exists()


WORKERS = """
import sys
from pathlib import Path
from memcli.adapters.http.listen import run_workers, unix_listener

def make_app(ready):
    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    ready()
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"up"})
    return app

listener = unix_listener(Path(sys.argv[1]))
failure = run_workers(make_app, listener, 2, lambda: print("ready", flush=True))
print(f"failure: {failure}", flush=True)
"""


@pytest.mark.parametrize("how", ["SIGTERM to the server", "SIGKILL to a worker"])
def test_worker_processes_stop_together(tmp_path: Path, how: str) -> None:
    path = tmp_path / "workers.sock"
    process = subprocess.Popen(
        [sys.executable, "-c", WORKERS, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    assert len(children) == 2
    with httpx.Client(transport=httpx.HTTPTransport(uds=str(path))) as http:
        assert http.get("http://mem/").text == "up"
    if how.startswith("SIGTERM"):
        process.send_signal(signal.SIGTERM)
    else:
        os.kill(int(children[0]), signal.SIGKILL)
    out, _ = process.communicate(timeout=30)
    expected = (
        "None"
        if how.startswith("SIGTERM")
        else f"the server process {children[0]} stopped (SIGKILL)"
    )
    assert out == f"failure: {expected}\n"
    assert process.returncode == 0 and not path.exists()
    assert not any(Path(f"/proc/{child}").exists() for child in children)


def test_tcp_needs_the_token(tcp_url: str, token: str, base: Path) -> None:
    token_file = base / "mem-home" / ".api-token"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert tcp_url.startswith("http://127.0.0.1:")
    with httpx.Client(base_url=tcp_url, timeout=30) as http:
        missing = http.get("/health")
        assert "Authorization: Bearer" in refused(missing, 401)
        assert missing.headers["www-authenticate"] == "Bearer"
        refused(http.get("/health", headers={"Authorization": f"Bearer {token}x"}), 401)
        refused(http.get("/mcp", headers={"Authorization": "Basic abc"}), 401)
        headers = {"Authorization": f"Bearer {token}"}
        assert http.get("/health", headers=headers).json()["status"] == "ok"
        found = http.get("/api/memory/search", params={"query": "upload"}, headers=headers)
        assert found.status_code == 200 and found.json()["results"]


_ROUND_TRIPS = itertools.count(1)


def _mcp_round_trip(url: str, **client: Any) -> tuple[list[str], Any, Any]:
    # A new text each time: saving one again is an exact duplicate, not a commit.
    text = f"Saved over MCP on HTTP, round trip {next(_ROUND_TRIPS)}."

    async def run() -> tuple[list[str], Any, Any]:
        async with (
            httpx.AsyncClient(timeout=30, **client) as http,
            streamable_http_client(url, http_client=http) as (read, write, _),
        ):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                saved = await session.call_tool("save", {"text": text})
                found = await session.call_tool("search", {"query": "saved over mcp"})
                return [tool.name for tool in tools.tools], saved, found

    return anyio.run(run)


def test_mcp_over_tcp_with_the_token_and_over_the_socket(
    tcp_url: str, token: str, socket_path: Path, store: Path
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    names, saved, found = _mcp_round_trip(f"{tcp_url}/mcp", headers=headers)
    assert {"search", "timeline", "get", "save", "forget", "context"} <= set(names)
    assert not saved.isError and not found.isError
    record = json.loads(saved.content[0].text)
    assert git(store, "rev-parse", "HEAD").strip() == record["commit"]
    assert record["id"] in found.content[0].text
    transport = httpx.AsyncHTTPTransport(uds=str(socket_path))
    names, saved, found = _mcp_round_trip("http://mem/mcp", transport=transport)
    assert "search" in names and not found.isError


def test_the_viewers_address_with_its_token_is_shown_on_a_terminal_only(
    tcp_server: Server, base: Path, store: Path, token: str
) -> None:
    import pty
    import select

    logged = tcp_server.log.read_text()  # stderr to a file: where the token is, never it
    assert token not in logged and f"(token in {base / 'mem-home' / '.api-token'})" in logged
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [mem_executable(), "serve", "--store", str(store), "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=terminal,
        env=server_env(base),
        cwd=base / "project",
    )
    os.close(terminal)
    shown = b""
    try:
        deadline = time.monotonic() + 60
        while b"mem: serving" not in shown and time.monotonic() < deadline:
            if select.select([controller], [], [], 0.2)[0]:
                shown += os.read(controller, 4096)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        shown += read_until_closed(controller)
        os.close(controller)
    url = shown.decode().split("serving ", 1)[1].split(" on ", 1)[1].split()[0]
    assert url.startswith("http://127.0.0.1:")
    assert shown.decode().count(f"{url}/?token={token}") == 1


def test_the_token_comes_from_the_environment_or_a_private_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    path = tmp_path / "secret" / "token"
    made, where = load_token(path)
    assert where == str(path) and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_token(path) == (made, str(path))  # read again, not replaced
    path.chmod(0o644)
    with pytest.raises(MemError, match="chmod 600"):
        load_token(path)
    monkeypatch.setenv(TOKEN_ENV, "short")
    with pytest.raises(MemError, match="at least 16"):
        load_token(path)
    monkeypatch.setenv(TOKEN_ENV, "a-token-of-enough-characters")
    assert load_token(path) == ("a-token-of-enough-characters", TOKEN_ENV)
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.1")


def test_usage_errors_and_the_help(tmp_path: Path) -> None:
    from .conftest import mem

    assert "/api/memory/search" in mem("serve", "--help").output
    both = mem("serve", "--socket", str(tmp_path / "s"), "--port", "1", expect=2)
    assert "not both" in both.output
    assert "go with --port" in mem("serve", "--host", "0.0.0.0", expect=2).output


# ------------------------------------------------------- slow and crowding clients

LIMITS = {
    "MEM_SERVE_HEADER_TIMEOUT": "0.5",
    "MEM_SERVE_BODY_TIMEOUT": "0.5",
    "MEM_SERVE_MAX_REQUESTS": "2",
}
"""Small limits, so that the tests reach them with a few connections in a second."""


@pytest.fixture(scope="module")
def limited(base: Path, store: Path, unix_server: Server) -> Iterator[str]:
    """The URL of a TCP server with ``LIMITS``."""
    server = Server(["--store", str(store), "--port", "0"], base, "limited", LIMITS)
    yield server.where.split(" ", 1)[0]
    assert server.stop() == 0, server.log.read_text()


def connect(url: str, first: bytes = b"") -> socket.socket:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    raw = socket.create_connection((host, int(port)), timeout=30)
    raw.sendall(first)
    return raw


def answer(raw: socket.socket, *, then_closed: bool = True) -> tuple[int, dict[str, Any]]:
    """The status and JSON body of the next answer on ``raw`` (by its Content-Length); with
    ``then_closed``, the server must close the connection after it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = raw.recv(65536)
        assert chunk, f"closed without an answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    assert headers["content-type"] == "application/json", head
    while len(body) < int(headers["content-length"]):
        body += raw.recv(65536)
    if then_closed:
        assert raw.recv(65536) == b""
    return int(lines[0].split()[1]), json.loads(body)


def host(url: str) -> str:
    """The Host header that names the server at ``url`` (``127.0.0.1:PORT``)."""
    return url.removeprefix("http://")


def request(url: str, path: str, token: str, body: bytes = b"", length: int | None = None) -> bytes:
    size = len(body) if length is None else length
    return (
        f"POST {path} HTTP/1.1\r\nHost: {host(url)}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {size}\r\n\r\n"
    ).encode() + body


def test_clients_without_the_token_cannot_crowd_out_those_with_it(tcp_url: str, token: str) -> None:
    trusted = connect(tcp_url, f"GET /health HTTP/1.1\r\nHost: {host(tcp_url)}\r\n".encode())
    trusted.sendall(f"Authorization: Bearer {token}\r\n\r\n".encode())
    assert answer(trusted, then_closed=False)[0] == 200
    crowd = [connect(tcp_url, b"GET /hea") for _ in range(12)]  # half a request line each
    with httpx.Client(base_url=tcp_url, timeout=30) as http:  # one more: the 9th must go
        health = http.get("/health", headers={"Authorization": f"Bearer {token}"})
        assert health.status_code == 200, health.text
    crowded = (503, {"error": "too many connections are waiting to send a request: try again"})
    assert [answer(raw) for raw in crowd[:9]] == [crowded] * 9  # the longest waiting first
    for raw in crowd:
        raw.close()
    # the connection that showed the token kept its place all along
    again = f"GET /health HTTP/1.1\r\nHost: {host(tcp_url)}\r\nAuthorization: Bearer {token}\r\n"
    trusted.sendall(again.encode() + b"\r\n")
    assert answer(trusted, then_closed=False)[0] == 200
    trusted.close()


def test_a_request_head_or_body_that_stalls_is_answered_408_and_closed(
    limited: str, token: str
) -> None:
    head = connect(limited, f"GET /health HTTP/1.1\r\nAuthorization: Bearer {token}\r\n".encode())
    nothing = connect(limited)
    save = connect(limited, request(limited, "/api/memory/save", token, b'{"text": "x', length=500))
    mcp = connect(limited, request(limited, "/mcp", token, b'{"jsonrpc":', length=500))
    stalled_head = (408, {"error": "the request head did not arrive within 0.5 s"})
    stalled_body = (408, {"error": "the request body did not arrive within 0.5 s"})
    assert [answer(head), answer(nothing)] == [stalled_head] * 2
    assert [answer(save), answer(mcp)] == [stalled_body] * 2
    for raw in (head, nothing, save, mcp):
        raw.close()


def test_past_the_requests_answered_at_once_the_answer_is_a_json_503(
    limited: str, token: str, store: Path
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=limited, timeout=60, headers=headers) as http:

        def one(n: int) -> int:
            return http.post("/api/memory/save", json={"text": f"Waited its turn {n}."}).status_code

        with ThreadPoolExecutor(2) as pool:
            with write_lock_held(store):
                saves = [pool.submit(one, n) for n in range(2)]  # both wait for the lock
                deadline = time.monotonic() + 30
                while (busy := http.get("/health")).status_code == 200:
                    assert time.monotonic() < deadline
                    time.sleep(0.02)
                assert "answering 2 requests already" in refused(busy, 503)
                assert busy.headers["retry-after"] == "1"
            assert [save.result() for save in saves] == [201, 201]
        assert http.get("/health").status_code == 200


def test_malformed_requests_and_large_mcp_bodies_are_json_errors(tcp_url: str, token: str) -> None:
    bad_length = b"POST /api/memory/save HTTP/1.1\r\nHost: mem\r\nContent-Length: abc\r\n\r\n{}"
    with connect(tcp_url, bad_length) as raw:
        status, body = answer(raw)
    assert status == 400 and "not valid HTTP/1.1" in body["error"]
    with connect(tcp_url, request(tcp_url, "/mcp", token, b"{}", length=2_000_000)) as raw:
        status, body = answer(raw)
    assert (status, body) == (413, {"error": "the request body is over 1,048,576 bytes"})
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}

    def chunks() -> Iterator[bytes]:  # no Content-Length: the cap counts as it reads
        for _ in range(20):
            yield b" " * 65536

    with httpx.Client(base_url=tcp_url, timeout=30, headers=headers) as http:
        assert "over 1,048,576 bytes" in refused(http.post("/mcp", content=chunks()), 413)


def test_a_stop_with_slow_clients_is_prompt_and_logs_no_traceback(
    base: Path, store: Path, unix_server: Server, token: str
) -> None:
    server = Server(["--store", str(store), "--port", "0"], base, "stopping")
    url = server.where.split(" ", 1)[0]
    slow = [
        connect(url, b"GET /hea"),
        connect(url, request(url, "/api/memory/save", token, b'{"text": "x', length=500)),
        connect(url, request(url, "/mcp", token, b'{"jsonrpc":', length=500)),
    ]
    with httpx.Client(base_url=url, timeout=30) as http:  # every request has arrived
        assert http.get("/health", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    assert server.stop() == 0
    stopping = (503, {"error": "the server is stopping"})
    assert [answer(raw) for raw in slow[1:]] == [stopping] * 2
    assert slow[0].recv(100) == b""
    for raw in slow:
        raw.close()
    log = server.log.read_text()
    assert "Traceback" not in log and log.splitlines()[-1] == "mem: stopped", log
    assert all(line.startswith("mem: ") for line in log.splitlines()), log


def test_limits_that_are_not_numbers_are_refused(tmp_path: Path) -> None:
    from .conftest import run_mem

    for name, value, port in [
        ("MEM_SERVE_HEADER_TIMEOUT", "soon", []),
        ("MEM_SERVE_MAX_WAITING", "0", []),
        ("MEM_SERVE_SESSION_SECONDS", "a day", ["--port", "0"]),
    ]:
        done = run_mem("serve", "--store", str(tmp_path / "s"), *port, env={name: value})
        assert done.returncode == 1 and done.stderr.startswith(f"Error: {name} must be"), done
        assert len(done.stderr.splitlines()) == 1 and not (tmp_path / "s").exists()


def test_a_save_answers_duplicate_of_and_similar(client: httpx.Client) -> None:
    text = "The nightly export job writes parquet files to the archive bucket at 02:00"
    first = save(client, text=text, type="discovery")
    again = client.post("/api/memory/save", json={"text": text, "type": "discovery"})
    assert again.status_code == 200 and again.json()["duplicate_of"] == first["id"]
    near = save(client, text=text.replace("at 02:00", "every night at 02:00"), type="discovery")
    assert near["action"] == "saved"
    assert [s["id"] for s in near["similar"]] == [first["id"]]
    replaced = save(client, text="The export job now runs at 04:00", supersedes=[first["id"]])
    assert replaced["supersedes"] == [first["id"]]


def test_dedupe_reports_then_merges_over_http(client: httpx.Client) -> None:
    text = "The nightly export job writes parquet files to the archive bucket at 02:00"
    first = save(client, text=text, type="discovery")
    second = save(client, text=text.replace("at 02:00", "every night at 02:00"), type="discovery")
    report = client.get("/api/memory/dedupe")
    assert report.status_code == 200
    clusters = report.json()["clusters"]
    members = {m["id"] for c in clusters for m in c["members"]}
    assert {first["id"], second["id"]} <= members
    assert client.post("/api/memory/dedupe", json={}).status_code == 422
    assert client.get("/api/memory/dedupe", params={"threshold": "x"}).status_code == 422
    merged = client.post("/api/memory/dedupe", json={"apply": True})
    assert merged.status_code == 200 and len(merged.json()["merged"]) == len(clusters)
    hits = client.get("/api/memory/search", params={"query": "nightly export parquet"}).json()[
        "results"
    ]
    assert len([h for h in hits if h["id"] in {first["id"], second["id"]}]) == 1


def test_a_server_on_every_interface_answers_a_host_that_is_an_address(tmp_path: Path) -> None:
    """Clients elsewhere name the server by an address of its machine; a name still gets 421."""
    server = Server(
        ["--store", str(tmp_path / "store"), "--port", "0", "--host", "0.0.0.0"], tmp_path, "any"
    )
    try:
        port = int(server.where.split(" ", 1)[0].rsplit(":", 1)[1])
        secret = (tmp_path / "mem-home" / ".api-token").read_text().strip()
        bearer = {"Authorization": f"Bearer {secret}"}
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30, headers=bearer) as http:
            for name in (f"192.0.2.7:{port}", f"[2001:db8::7]:{port}", f"10.0.0.1:{port}"):
                assert http.get("/health", headers={"Host": name}).status_code == 200, name
            for name in (
                f"evil.example:{port}",
                f"192.0.2.7:{port + 1}",
                "192.0.2.7",
                "2001:db8::7",
            ):
                assert http.get("/health", headers={"Host": name}).status_code == 421, name
    finally:
        assert server.stop() == 0, server.log.read_text()
