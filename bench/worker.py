"""What the warm worker buys: whole hook processes with and without it, and its HTTP figures.

    python bench/worker.py --size 10000 --runs 10 --seconds 20 --clients 8

Two copies of one corpus: one served by ``mem serve --worker`` (started here,
stopped at the end), one without a worker. Each prompt runs as a whole
``mem hook claude UserPromptSubmit`` process against each copy in turn (a busy
moment costs both the same), each call with a session of its own, as an agent's
first prompt; the session start likewise (Gemini CLI's: Claude Code's also starts a
transcript sync, detached, whose work would weigh on the next samples). The worker
is asked within mem.toml's ``[serve] budget`` (default 100 ms): the figures say how
many calls it answered, the others fell back and are counted as they came. Then ``GET
/api/memory/search`` through the worker (bench/http.py's latency and
throughput), its resident memory and its CPU time while idle. Search is
lexical unless ``--model DIR`` names a semantic model: then mem.toml names it
before the index is built, so every memory is embedded up front (once for the corpus and
model: that copy is kept in the workdir and copied, index included, on later runs).

    python bench/worker.py --size 10000 --model /work/models/all-MiniLM-L6-v2
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import cached_corpus, installed_mem  # noqa: E402
from run import QUERIES, table_line, timed  # noqa: E402

# bench/http.py is not the standard library's http: loaded by its path, under another name.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != BENCH]
_spec = importlib.util.spec_from_file_location("bench_http", BENCH / "http.py")
assert _spec is not None and _spec.loader is not None
bench_http = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_http)

PROMPTS = [f"what do we know about {query}?" for query in QUERIES if " " in query][:8]


def prepared(mem: str, source: Path, target: Path, model: Path | None) -> Path:
    """A copy of ``source`` at ``target``, its index built (and embedded with ``model``)."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(".cache"))
    if model is not None:
        (target / "mem.toml").write_text(f'[semantic]\nmodel = "{model}"\n')
    seconds = timed([mem, "reindex", "--full"], env={**os.environ, "MEM_STORE": str(target)})
    print(f"{target.name}: index built in {seconds:.1f} s", file=sys.stderr)
    return target


def embedded(mem: str, source: Path, workdir: Path, model: Path) -> Path:
    """The corpus with its index built and every memory embedded by ``model``: made once
    under ``workdir`` (100k memories take 40 minutes on 2 cores), then reused."""
    built = workdir / f"{source.name}-{model.name}"
    stamp = built / ".cache" / "bench-embedded-by"
    if stamp.exists() and stamp.read_text() == str(model):
        return built
    prepared(mem, source, built, model)
    stamp.write_text(str(model))
    return built


def copied(built: Path, target: Path) -> Path:
    """A copy of a store whose index is built, index included (it holds no path of its own)."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(built, target, symlinks=True)
    return target


def health(socket_path: Path) -> dict[str, Any]:
    import http.client
    import socket

    class Connection(http.client.HTTPConnection):
        def connect(self) -> None:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.connect(str(socket_path))

    connection = Connection("mem")
    connection.request("GET", "/health")
    data: dict[str, Any] = json.loads(connection.getresponse().read())
    connection.close()
    return data


AGENTS = {"UserPromptSubmit": "claude", "SessionStart": "gemini"}
"""Claude Code's session start also starts a detached transcript sync, whose work would
land in the next samples: the session start is Gemini CLI's (the same context)."""


def hook_seconds(mem: str, store: Path, event: str, payload: dict[str, Any]) -> float:
    """One whole ``mem hook AGENT EVENT`` process, its input on stdin."""
    began = time.perf_counter()
    subprocess.run(
        [mem, "hook", AGENTS[event], event],
        input=json.dumps(payload).encode(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "MEM_STORE": str(store)},
        cwd=store.parent,
        check=True,
    )
    return time.perf_counter() - began


def hooks(
    mem: str, warm: Path, alone: Path, runs: int, cwd: Path
) -> dict[str, dict[str, list[float]]]:
    """Seconds per hook process, by event, with the worker and without, taken in turns."""
    samples: dict[str, dict[str, list[float]]] = {
        event: {"worker": [], "alone": []} for event in ("UserPromptSubmit", "SessionStart")
    }
    for run in range(runs + 1):  # the first round warms the page cache
        for n, prompt in enumerate(PROMPTS):
            for event in samples:
                payload = {"cwd": str(cwd), "session_id": f"bench-{run}-{n}"}
                payload |= {"prompt": prompt} if event == "UserPromptSubmit" else {}
                for name, store in (("worker", warm), ("alone", alone)):
                    seconds = hook_seconds(mem, store, event, payload)
                    if run:
                        samples[event][name].append(seconds)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mem-bench")
    parser.add_argument(
        "--model", type=Path, help="a semantic model's folder, named in the copies' mem.toml"
    )
    args = parser.parse_args()
    model = args.model.resolve() if args.model else None
    mem = installed_mem("[serve]")
    source = cached_corpus(args.workdir, args.size)
    target = args.workdir / f"worker-{args.size}"
    if model is None:
        warm = prepared(mem, source, target, model)
    else:
        warm = copied(embedded(mem, source, args.workdir, model), target)
    alone = copied(warm, args.workdir / f"alone-{args.size}")
    log = args.workdir / "worker-server.log"
    env = {**os.environ, "MEM_STORE": str(warm)}
    from memcli.adapters.worker.client import worker_socket

    socket_path = worker_socket(warm)
    assert socket_path is not None
    # its variables are the hooks': the worker answers only callers started with the same
    server = bench_http.serving([mem, "serve", "--worker", "--store", str(warm)], log, env)
    try:
        before = health(socket_path)
        samples = hooks(mem, warm, alone, args.runs, args.workdir)
        after = health(socket_path)
        answered = after["answered"] - before["answered"] - (after["late"] - before["late"])
        searches = bench_http.latencies(socket_path, warm, max(1, args.runs // 2))
        rss = _rss_mib(server.pid)
        idle_cpu = bench_http._cpu_seconds(server.pid)
        time.sleep(5)
        idle_cpu = bench_http._cpu_seconds(server.pid) - idle_cpu
        done, errors, loaded = bench_http.throughput(socket_path, args.clients, args.seconds)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    worker_calls = (args.runs + 1) * len(PROMPTS) * len(samples)
    searching = f"semantic model {model}" if model else "lexical search (no semantic model)"
    print(f"{args.size:,} memories; {os.cpu_count()} cores; {searching}\n")
    print("| whole process | median | p95 | samples |\n|---|---|---|---|")
    for event, by in samples.items():
        print(table_line(f"`mem hook {AGENTS[event]} {event}`, worker", by["worker"]))
        print(table_line(f"`mem hook {AGENTS[event]} {event}`, no worker", by["alone"]))
    print(
        f"\nthe worker's answer was taken by {answered} of the {worker_calls} hook calls made"
        " to its store (warm-up round included); the others waited the budget, then"
        " answered in their own process\n"
    )
    print("| through the worker | median | p95 | samples |\n|---|---|---|---|")
    print(table_line(f"`GET /api/memory/search` ({len(QUERIES)} queries)", searches["http"]))
    print(table_line("`MemStore.search` in process (same queries)", searches["local"]))
    print(table_line(f"`GET /api/memory/search`, {args.clients} clients", loaded))
    print(
        f"\nthroughput: {done / args.seconds:.0f} requests/s from {args.clients} clients, "
        f"{errors} errors; resident memory {rss:.0f} MiB; CPU while idle for 5 s: "
        f"{idle_cpu * 1000:.0f} ms"
    )


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


if __name__ == "__main__":
    main()
