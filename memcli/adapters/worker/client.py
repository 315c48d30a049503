"""Asking the store's warm worker (``mem serve --worker``) first, from a hook or a read command.

The worker is ``mem serve`` on the store's default unix socket. A caller that
finds the socket sends one HTTP/1.1 request over it and waits at most its budget
(``[serve] budget``, 100 ms) for the whole answer: the connection, the request and
the response. Anything else (no socket, a refused or stale one, a server that
does not answer in time, any status but 200, a body that is not the JSON
expected) is ``None``, and the caller answers in its own process, as it does
without a worker. The worker computes its answer with the very functions the
caller would have called, so the answer is the same either way.

Each request carries what the answer depends on besides its arguments:
``Mem-Store`` (the store the caller found), ``Mem-Stamp`` (the installed mem:
its version and the files' times) and ``Mem-Env`` (a digest of the environment
variables mem reads). A worker of another store, of another mem or started
under other variables refuses (409) and the caller answers itself; a worker of
another mem also exits.

Only the standard library is imported here (``socket``, ``json``, ``zlib``):
a hook that the worker answers imports none of mem's index, retrieval or
templates.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import socket

SOCKET_NAME = "mem.sock"
SOCKET_DIR = "serve"
"""The default socket's folder, in the store's cache folder."""
CACHE_DIR = ".cache"
"""The store's cache folder (``store.files.CACHE_DIR``)."""
LOCK_NAME = "worker.lock"
"""Held by a running worker for its whole life: one worker a store."""
MAX_SOCKET_PATH = 107
"""sun_path holds 108 bytes on Linux, the last a NUL."""
MAX_ANSWER_BYTES = 4 << 20
"""A longer answer is no answer (a hook's is at most tens of kilobytes)."""
STORE_HEADER = "Mem-Store"
STAMP_HEADER = "Mem-Stamp"
ENV_HEADER = "Mem-Env"
ENV_PREFIXES = ("MEM_", "XDG_", "HF_", "GIT_")
ENV_NAMES = ("HOME", "TZ")
ENV_IGNORED = ("MEM_DETACHED", "MEM_SERVE_")
"""Variables that change nothing in an answer: the failure log's name of a detached
process, and the server's own connection limits."""


class SocketPathTooLong(ValueError):
    """The store's path leaves no room for a socket's address (see ``default_socket``)."""


def default_socket(cache_dir: Path) -> Path:
    """``<store>/.cache/serve/mem.sock``, else ``$XDG_RUNTIME_DIR/mem/<digest>.sock`` when the
    store's path is too long for a socket's address."""
    path = cache_dir / SOCKET_DIR / SOCKET_NAME
    if len(os.fsencode(path)) <= MAX_SOCKET_PATH:
        return path
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        import hashlib  # only for a store whose path is too long: rare

        name = hashlib.sha256(os.fsencode(cache_dir)).hexdigest()[:16]
        fallback = Path(runtime) / "mem" / f"{name}.sock"
        if len(os.fsencode(fallback)) <= MAX_SOCKET_PATH:
            return fallback
    raise SocketPathTooLong(str(path))


def worker_socket(root: Path) -> Path | None:
    """The socket of ``root``'s worker, when the store has a cache folder to hold it."""
    cache = root / CACHE_DIR
    try:
        if not os.path.isdir(cache) or os.path.islink(cache):
            return None  # no cache folder (no index yet), or one mem never follows
        return default_socket(cache)
    except SocketPathTooLong:
        return None


def lock_path(socket_path: Path) -> Path:
    return socket_path.parent / LOCK_NAME


def stamp() -> str:
    """The installed mem: its version, and when its package's files last changed."""
    from memcli import __version__

    package = Path(__file__).resolve().parents[2]
    parts = [__version__]
    for path in (package, package / "__init__.py"):
        try:
            info = os.stat(path)
            parts.append(f"{info.st_mtime_ns}.{info.st_ino}")
        except OSError:
            parts.append("-")
    return "/".join(parts)


def env_digest(environ: dict[str, str] | None = None) -> str:
    """A digest of the environment variables an answer may depend on."""
    environ = dict(os.environ) if environ is None else environ
    kept = sorted(
        (name, value)
        for name, value in environ.items()
        if (name.startswith(ENV_PREFIXES) or name in ENV_NAMES) and not name.startswith(ENV_IGNORED)
    )
    data = json.dumps(kept).encode("utf-8", "surrogateescape")
    # Two checksums and the length: an equality check, not a guard (the peer's uid is one),
    # without hashlib, whose OpenSSL costs a hook 2.5 ms to import.
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


def store_header(root: Path) -> str:
    """``root`` as an ASCII header value (any path survives: hex of its bytes)."""
    return os.fsencode(root).hex()


def ask(
    socket_path: Path,
    method: str,
    target: str,
    root: Path,
    *,
    body: bytes = b"",
    budget: float,
    same_env: bool = True,
) -> Any:
    """The JSON answer to one request, or None when none came (in full, a 200) within
    ``budget`` seconds; never raises. ``same_env``: only from a worker started with this
    process's variables (an answer depends on them; ``/health`` does not)."""
    deadline = time.monotonic() + budget
    head = [
        f"{method} {target} HTTP/1.1",
        "Host: mem",
        "Connection: close",
        f"Content-Length: {len(body)}",
        f"{STORE_HEADER}: {store_header(root)}",
        f"{STAMP_HEADER}: {stamp()}",
    ]
    if same_env:
        head.append(f"{ENV_HEADER}: {env_digest()}")
    if body:
        head.append("Content-Type: application/json")
    request = ("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body
    try:
        import socket  # here: a command that finds no worker's socket never imports it

        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(budget)
            connection.connect(str(socket_path))
            connection.sendall(request)
            raw = _read_all(connection, deadline)
        return _parsed(raw) if raw is not None else None
    except (OSError, ValueError, UnicodeError):
        return None


def taken(
    socket_path: Path,
    target: str,
    root: Path,
    payload: Any,
    budget: float,
    valid: Callable[[dict[str, Any]], bool],
) -> dict[str, Any] | None:
    """The worker's answer to ``payload`` (POSTed as JSON to ``target``), once taken.

    An answer is ``{"notices": [...], "ticket": ..., ...}`` that ``valid`` accepts;
    its ticket is then redeemed (``POST /api/hook/keep/TICKET``): what the worker
    would note for the session is written now that the caller uses this answer.
    Not waited past the budget: without it, recall may only repeat a memory later,
    never withhold one. None: no such answer in time.
    """
    deadline = time.monotonic() + budget
    body = json.dumps(payload).encode("ascii")  # escaped: a lone surrogate survives too
    data = ask(socket_path, "POST", target, root, body=body, budget=budget)
    if not isinstance(data, dict) or not valid(data):
        return None
    notices = data.get("notices")
    if not isinstance(notices, list) or not all(isinstance(n, str) for n in notices):
        return None
    ticket = data.get("ticket")
    if isinstance(ticket, str):
        left = max(deadline - time.monotonic(), budget / 2)
        ask(socket_path, "POST", f"/api/hook/keep/{ticket}", root, budget=left)
    return data


def _read_all(connection: socket.socket, deadline: float) -> bytes | None:
    """Everything the server sends until it closes (``Connection: close``), by ``deadline``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        connection.settimeout(left)
        chunk = connection.recv(65536)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            return None
        chunks.append(chunk)


def _parsed(raw: bytes) -> Any:
    """The body of a whole 200 response with a Content-Length, as JSON; else None."""
    head, separator, body = raw.partition(b"\r\n\r\n")
    if not separator:
        return None
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0].split(" ", 2)
    if len(status) < 2 or status[1] != "200":
        return None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = headers.get("content-length", "")
    if not length.isdigit() or int(length) != len(body):
        return None  # cut short, or chunked: not an answer to trust
    return json.loads(body.decode("utf-8"))


def worker_running(socket_path: Path) -> bool:
    """Whether a worker holds the store's lock (it runs, or is starting)."""
    try:
        fd = os.open(lock_path(socket_path), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing drops a lock taken here
    return False


def start_worker(root: Path, socket_path: Path, who: str) -> bool:
    """Start ``mem serve --worker`` for ``root``, detached and never waited for; False when
    one runs (or starts) already, or when ``mem serve`` cannot run here."""
    if worker_running(socket_path):
        return False
    import importlib.util

    if importlib.util.find_spec("uvicorn") is None:
        return False  # no serve extra: no worker (reads answer in their own process)
    from memcli.capture.session_end import start_detached

    return start_detached(["serve", "--worker", "--store", str(root)], root, who)
