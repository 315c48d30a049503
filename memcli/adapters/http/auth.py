"""Who may talk to ``mem serve``: the bearer token of TCP, and the guard in front of every route.

On a unix socket the file's mode (0600, in a 0700 folder) is the check: only the
user can connect. A TCP port is open to every local user (and to the network
when ``--host`` says so), so every TCP request needs the token, loopback or
not, and must name this server in its Host header (``127.0.0.1:PORT``,
``localhost:PORT``, ``[::1]:PORT``, the ``--host`` given or an IP address with the
port; else 421): a page elsewhere that rebinds its own name to 127.0.0.1 sends its
own name. A browser
shows the token once, as ``?token=`` on a viewer page: the answer sets an HttpOnly,
SameSite=Strict cookie holding a session of this server start (``session``; never
the token, nor anything derived from it) and sends the browser to the same page
without it. The cookie opens the viewer's pages only; ``/api``, ``/mcp`` and
``/health`` take the bearer header alone.

The token is ``MEM_API_TOKEN``, else a token file (created with mode 0600 on first
use; one that others can read is refused). It is compared in constant time. The
start-up line names the file; only on a terminal does ``mem serve`` show the token,
in the viewer's address, once.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import os
import secrets
import socket
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memcli.adapters.http.session import Sessions
from memcli.core.errors import MemError
from memcli.core.regular import NotRegularFile, open_regular
from memcli.core.text import one_line
from memcli.store.location import mem_home

TOKEN_ENV = "MEM_API_TOKEN"
TOKEN_FILE = ".api-token"
"""In mem's data folder (``mem_home()``), beside the central stores (a project
name never starts with a dot)."""
MIN_TOKEN_CHARS = 16
MAX_QUERY_BYTES = 8192
"""The longest query string: a search's query and filters fit well within it."""
FORM_SCOPE = "mem.form_token"
"""Where the guard puts, in a page request's scope, the form token its forms carry."""
API_PREFIXES = ("/api/", "/mcp", "/health")
"""Paths of the API: JSON answers, the bearer token only. Every other path is the viewer's."""

Scope = dict[str, Any]


def default_token_file() -> Path:
    return mem_home() / TOKEN_FILE


def load_token(path: Path | None) -> tuple[str, str]:
    """The token and where it came from (``MEM_API_TOKEN`` or the file's path).

    Without ``MEM_API_TOKEN``, the file at ``path`` (default: ``default_token_file()``)
    is read, or created with a new random token when missing.
    """
    configured = os.environ.get(TOKEN_ENV)
    if configured is not None:
        return _checked(configured.strip(), TOKEN_ENV), TOKEN_ENV
    path = path or default_token_file()
    try:
        return _read_token_file(path), str(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    token = secrets.token_urlsafe(32)
    try:
        fd = os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600
        )
    except FileExistsError:  # another server made it meanwhile
        return _read_token_file(path), str(path)
    except OSError as exc:
        raise MemError(f"cannot create the token file {path} ({exc.strerror})") from None
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(token + "\n")
    return token, str(path)


def _read_token_file(path: Path) -> str:
    try:
        file = open_regular(path, follow_links=False)
    except FileNotFoundError:
        raise
    except NotRegularFile:
        raise MemError(f"the token file {path} is not a regular file") from None
    except OSError as exc:
        raise MemError(f"cannot read the token file {path} ({exc.strerror})") from None
    with file:
        info = os.fstat(file.fileno())
        if info.st_uid != os.getuid():
            raise MemError(f"the token file {path} belongs to another user")
        if info.st_mode & 0o077:
            mode = stat.S_IMODE(info.st_mode)
            raise MemError(
                f"the token file {path} can be read by others (mode {mode:04o}): "
                f"run chmod 600 {path}, or remove it for a new token"
            )
        data = file.read(4096)
    try:
        text = data.decode("ascii").strip()
    except UnicodeDecodeError:
        raise MemError(f"the token file {path} is not ASCII text") from None
    return _checked(text, str(path))


def _checked(token: str, source: str) -> str:
    if len(token) < MIN_TOKEN_CHARS or not token.isprintable() or " " in token:
        raise MemError(
            f"the token in {source} must be at least {MIN_TOKEN_CHARS} printable characters "
            "without spaces"
        )
    return token


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is a loopback address (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(info[4][0]).is_loopback for info in infos)


def authorized(headers: list[tuple[bytes, bytes]], token: bytes) -> bool:
    """Whether ``headers`` (lower-case names) hold ``Authorization: Bearer <token>``."""
    for name, value in headers:
        if name == b"authorization":
            scheme, _, given = value.partition(b" ")
            return scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), token)
    return False


def is_page(path: str) -> bool:
    """Whether ``path`` is the viewer's (HTML) rather than the API's (JSON)."""
    return not path.startswith(API_PREFIXES)


def host_names(hosts: list[str], port: int) -> frozenset[bytes]:
    """The Host headers that name a server on ``hosts`` (as given, as bound) and ``port``,
    in lower case: the loopback names and ``hosts``; without the port too when it is
    HTTP's own, 80."""
    names = {"127.0.0.1", "localhost", "[::1]"}
    for host in hosts:
        given = host.lower()
        if ":" in given and not given.startswith("["):
            given = f"[{given}]"  # an IPv6 address, as a URL writes it
        names.add(given)
    found = {f"{name}:{port}".encode() for name in names}
    if port == 80:
        found |= {name.encode() for name in names}
    return frozenset(found)


@dataclass(frozen=True)
class Access:
    """Who may talk to one server (the same in each of its processes): on TCP, the bearer
    ``token``, the sessions its cookie holds and the Host names it answers to; on the
    unix socket (``token`` None) every request, whatever its Host."""

    sessions: Sessions
    token: bytes | None = None
    hosts: frozenset[bytes] | None = None

    @classmethod
    def tcp(cls, token: str, hosts: list[str], port: int, session_seconds: float) -> Access:
        """TCP's: ``hosts`` are the names the server answers to besides loopback's."""
        sessions = Sessions(port, session_seconds)
        return cls(sessions, token.encode(), host_names(hosts, port))

    @classmethod
    def socket(cls) -> Access:
        return cls(Sessions(None))

    def trusted(self, headers: list[tuple[bytes, bytes]]) -> bool:
        """The socket, the bearer token, or a session's cookie (which a route then holds to
        pages)."""
        if self.token is None:
            return True
        return authorized(headers, self.token) or self.sessions.of(headers) is not None

    def names_this_server(self, headers: list[tuple[bytes, bytes]]) -> bool:
        """Whether the request's Host is one this server answers to (any, on the socket)."""
        if self.hosts is None:
            return True
        given = [value for name, value in headers if name == b"host"]
        if len(given) != 1:
            return False
        host = given[0].strip().lower()
        return host in self.hosts or is_address(host, self.sessions.port)


def is_address(host: bytes, port: int | None) -> bool:
    """Whether a Host header is an IP address (IPv6 in brackets) with ``port`` (none: 80).

    Safe to answer whatever the address: a page that rebinds a name to this machine
    sends that name, and a page at an address of this machine is this server's own.
    """
    text = host.decode("latin-1")
    address, port_text = text, "80"
    if not text.endswith("]") and ":" in text:
        address, _, port_text = text.rpartition(":")
    if port is None or port_text != str(port):
        return False
    if address.startswith("[") and address.endswith("]"):
        address = address[1:-1]
        if ":" not in address:
            return False  # brackets hold IPv6 alone
    elif ":" in address:
        return False  # IPv6 without its brackets
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


def _names_token(scope: Scope) -> bool:
    query: bytes = scope.get("query_string", b"")
    return query.startswith(b"token=") or b"&token=" in query


class Guard:
    """ASGI middleware in front of every route (``/mcp`` too): a query string's length, the
    Host and the bearer token or the viewer's cookie on TCP (``access``), and at most
    ``max_requests`` requests answered at once. A refusal is a JSON ``{"error": ...}``
    (a small HTML page on the viewer's pages).
    """

    def __init__(self, app: Any, access: Access, max_requests: int) -> None:
        self.app = app
        self.access = access
        self.token = access.token
        self.max_requests = max_requests
        self.active = 0

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if len(scope.get("query_string", b"")) > MAX_QUERY_BYTES:
            await refuse(send, 414, f"the query string is over {MAX_QUERY_BYTES:,} bytes")
            return
        if not self.access.names_this_server(scope["headers"]):
            await self._misdirected(scope, send)
            return
        if self.token is not None and is_page(scope["path"]) and _names_token(scope):
            await self._page_login(scope, send)  # the token never stays in the address
            return
        if self.token is not None and not self._allowed(scope):
            if is_page(scope["path"]):
                await self._page_login(scope, send)
                return
            await refuse(
                send,
                401,
                "this server needs its token: send the header Authorization: Bearer TOKEN",
                [(b"www-authenticate", b"Bearer")],
            )
            return
        if self.active >= self.max_requests:
            await refuse(
                send,
                503,
                f"the server is answering {self.max_requests:,} requests already: try again",
                [(b"retry-after", b"1")],
            )
            return
        if is_page(scope["path"]):
            session = self.access.sessions.of(scope["headers"]) if self.token else None
            scope[FORM_SCOPE] = self.access.sessions.form_token(session)
        self.active += 1
        try:
            await self._answer(scope, receive, send)
        finally:
            self.active -= 1

    def _allowed(self, scope: Scope) -> bool:
        """The bearer token anywhere; the viewer's cookie on the viewer's pages only."""
        assert self.token is not None
        headers = scope["headers"]
        if authorized(headers, self.token):
            return True
        return is_page(scope["path"]) and self.access.sessions.of(headers) is not None

    async def _misdirected(self, scope: Scope, send: Any) -> None:
        """421: the request names another server in its Host (a rebound name, a wrong port)."""
        text = "this server answers only to its own address in the Host header"
        if is_page(scope["path"]):
            from memcli.adapters.http.pages import error_page

            await respond(send, 421, error_page(421, text), [(b"content-type", HTML)])
            return
        await refuse(send, 421, text)

    async def _page_login(self, scope: Scope, send: Any) -> None:
        """A page without the cookie: ``?token=`` right starts a new session (its cookie set)
        and drops it from the address; anything else is a small HTML page saying how to
        open the viewer."""
        from urllib.parse import parse_qsl, urlencode

        assert self.token is not None
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = [value for name, value in query if name == "token"]
        if len(given) == 1 and hmac.compare_digest(given[0].encode("utf-8"), self.token):
            rest = urlencode([(name, value) for name, value in query if name != "token"])
            where = scope["path"] + (f"?{rest}" if rest else "")
            sessions = self.access.sessions
            cookie = sessions.set_cookie(sessions.issue())
            await respond(
                send,
                303,
                b"",
                [(b"location", where.encode("utf-8")), (b"set-cookie", cookie)],
            )
            return
        from memcli.adapters.http.pages import error_page

        text = (
            "This viewer needs the server's token: open it once as /?token=TOKEN "
            "(the token is in the file mem serve named when it started). A sign-in lasts "
            "until the server stops, or for some hours."
        )
        await respond(send, 401, error_page(401, text), [(b"content-type", HTML)])

    async def _answer(self, scope: Scope, receive: Any, send: Any) -> None:
        """The application's answer; when it fails or is cut short before answering (a stop
        past the graceful delay cancels it), a JSON error instead of uvicorn's plain 500."""
        started = False

        async def tracked(message: dict[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except asyncio.CancelledError:
            if not started:
                await refuse(
                    send,
                    503,
                    "the server stopped before answering (the request may have been done)",
                )
            raise
        except Exception as exc:  # a bug below the routes (in /mcp's SDK): one line each
            what = one_line(f"{type(exc).__name__}: {exc}", 500)
            print(
                f"mem: internal error in {scope['method']} {scope['path']} ({what})",
                file=sys.stderr,
                flush=True,
            )
            if not started:
                await refuse(send, 500, f"internal error ({what})")


HTML = b"text/html; charset=utf-8"


async def respond(send: Any, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    """A whole answer, below any framework."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-length", str(len(body)).encode()), *headers],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def refuse(
    send: Any, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """Answer with ``{"error": message}`` and ``status``, below any framework."""
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
