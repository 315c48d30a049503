"""How fast ``mem serve`` answers: search latency from a warm server, and sustained throughput.

    python bench/http.py --size 100000 --runs 7 --seconds 30 --clients 8

Latency: one server on a unix socket, one client (httpx), each of bench/run.py's
queries after a warm-up; beside it, in the same run, ``GET /health`` (the
floor: HTTP and the server, no store) and the same searches through
``MemStore.search`` in this process (the floor: no HTTP). Throughput:
``--clients`` threads, each with its own connection, send searches back to back
for ``--seconds``; every answer must be a 200.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import cached_corpus, installed_mem  # noqa: E402
from run import QUERIES, table_line, timed  # noqa: E402

# This file is named http.py: out of the path, so that ``import http`` finds the standard one.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != BENCH]

import httpx  # noqa: E402


def start(
    mem: str, store: Path, socket_path: Path, log: Path, options: list[str]
) -> subprocess.Popen[bytes]:
    command = [mem, "serve", "--store", str(store), "--socket", str(socket_path), *options]
    return serving(command, log)


def serving(
    command: list[str], log: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """``command`` (a ``mem serve``) started, its stderr in ``log``, once it says it serves."""
    with log.open("w") as errors:
        server = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors, env=env
        )
    deadline = time.monotonic() + 600
    while "mem: serving" not in log.read_text():
        if server.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"{' '.join(command[1:3])} did not start: {log.read_text()}")
        time.sleep(0.05)
    return server


def client(socket_path: Path) -> httpx.Client:
    transport = httpx.HTTPTransport(uds=str(socket_path))
    return httpx.Client(transport=transport, base_url="http://mem", timeout=30)


def latencies(socket_path: Path, store: Path, runs: int) -> dict[str, list[float]]:
    """Seconds per ``GET /api/memory/search``, per ``GET /health`` and per ``MemStore.search``
    in this process, taken in turns query by query (a busy moment costs each the same).
    """
    from memcli.api import open_store

    samples: dict[str, list[float]] = {"http": [], "health": [], "local": []}

    def timed_call(name: str, call: Callable[[], object]) -> None:
        began = time.perf_counter()
        call()
        samples[name].append(time.perf_counter() - began)

    with client(socket_path) as http, open_store(store) as local:
        for query in QUERIES:  # warm-up
            http.get("/api/memory/search", params={"query": query}).raise_for_status()
            local.search(query)
        for _ in range(runs):
            for query in QUERIES:
                timed_call(
                    "http",
                    lambda q=query: http.get(
                        "/api/memory/search", params={"query": q}
                    ).raise_for_status(),
                )
                timed_call("health", lambda: http.get("/health").raise_for_status())
                timed_call("local", lambda q=query: local.search(q))
    return samples


def throughput(socket_path: Path, clients: int, seconds: float) -> tuple[int, int, list[float]]:
    """Requests answered, errors (anything but a 200, or no answer), and each request's seconds."""
    stop = time.monotonic() + seconds
    done = [0] * clients
    errors = [0] * clients
    samples: list[list[float]] = [[] for _ in range(clients)]

    def work(n: int) -> None:
        with client(socket_path) as http:
            i = n
            while time.monotonic() < stop:
                query = QUERIES[i % len(QUERIES)]
                i += 1
                began = time.perf_counter()
                try:
                    reply = http.get("/api/memory/search", params={"query": query})
                    ok = reply.status_code == 200
                except httpx.HTTPError:
                    ok = False
                samples[n].append(time.perf_counter() - began)
                done[n] += 1
                errors[n] += not ok

    threads = [threading.Thread(target=work, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done), sum(errors), [s for each in samples for s in each]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--threads", type=int, help="mem serve --threads")
    parser.add_argument("--workers", type=int, help="mem serve --workers")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mem-bench")
    args = parser.parse_args()
    mem = installed_mem("[serve]")
    source = cached_corpus(args.workdir, args.size)
    store = args.workdir / f"http-{args.size}"
    shutil.rmtree(store, ignore_errors=True)
    shutil.copytree(source, store, symlinks=True, ignore=shutil.ignore_patterns(".cache"))
    timed([mem, "reindex", "--full"], env={**os.environ, "MEM_STORE": str(store)})
    socket_path = Path(tempfile.mkdtemp(prefix="mem-bench-")) / "mem.sock"
    options = ["--threads", str(args.threads)] if args.threads else []
    options += ["--workers", str(args.workers)] if args.workers else []
    server = start(mem, store, socket_path, args.workdir / "http-server.log", options)
    try:
        samples = latencies(socket_path, store, args.runs)
        cpu = _cpu_seconds(server.pid)
        answered, errors, loaded = throughput(socket_path, args.clients, args.seconds)
        cpu = (_cpu_seconds(server.pid) - cpu) / max(answered, 1)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    rate = answered / args.seconds
    print(f"{args.size:,} memories; {os.cpu_count()} cores; mem serve {' '.join(options)}\n")
    print("| figure | median | p95 | samples |\n|---|---|---|---|")
    print(table_line(f"`GET /api/memory/search` ({len(QUERIES)} queries)", samples["http"]))
    print(table_line("`GET /health`", samples["health"]))
    print(table_line("`MemStore.search` in process (same queries)", samples["local"]))
    print(table_line(f"`GET /api/memory/search` under load ({args.clients} clients)", loaded))
    ratio = statistics.median(samples["http"]) / statistics.median(samples["local"])
    print(f"\nsearch over HTTP / in process: {ratio:.2f}x")
    print(
        f"throughput: {answered:,} searches in {args.seconds:g} s from {args.clients} clients "
        f"= {rate:.0f} requests/s, {errors} errors; the server's CPU time per search "
        f"{cpu * 1000:.1f} ms"
    )


def _cpu_seconds(pid: int) -> float:
    """The CPU time a process and its worker processes used so far, on Linux; NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return float("nan")
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(_cpu_seconds(int(child)) for child in children)


if __name__ == "__main__":
    main()
