"""How fast ``mem mcp`` answers: ready for ``initialize``, and ``tools/call search`` in a server.

    python bench/mcp.py --size 10000 --runs 7

Start-up: the time from starting ``mem mcp`` to its answer to ``initialize``
(written straight to its stdin, no SDK on the client side), beside the cost of
importing the SDK alone and of ``mem --help``. Search: one server, the SDK's
client, each of bench/run.py's queries after a warm-up that opens the store;
beside it the same searches through ``MemStore.search`` in this process, so the
protocol's share shows.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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

# This file is named mcp.py: out of the path, so that ``import mcp`` finds the SDK.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != BENCH]

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}


def ready(mem: str, store: Path) -> tuple[float, float]:
    """Seconds from starting ``mem mcp`` to the first line of its answer to initialize, and
    the CPU seconds the server used for it (on Linux; the figure a busy machine changes least).
    """
    began = time.perf_counter()
    process = subprocess.Popen(
        [mem, "mcp", "--store", str(store)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    process.stdin.flush()
    answer = process.stdout.readline()
    elapsed = time.perf_counter() - began
    cpu = _cpu_seconds(process.pid)
    process.stdin.close()
    process.wait(timeout=30)
    assert b'"serverInfo"' in answer, answer
    return elapsed, cpu


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def searches(mem: str, store: Path, runs: int) -> list[float]:
    """Seconds per ``tools/call search`` inside one running server."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=mem, args=["mcp", "--store", str(store)])
    samples: list[float] = []

    async def run() -> None:
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for query in QUERIES:  # warm-up: opens the store, warms the caches
                        await session.call_tool("search", {"query": query})
                    for _ in range(runs):
                        for query in QUERIES:
                            began = time.perf_counter()
                            result = await session.call_tool("search", {"query": query})
                            samples.append(time.perf_counter() - began)
                            assert not result.isError, result

    anyio.run(run)
    return samples


def in_process(store: Path, runs: int) -> list[float]:
    from memcli.api import open_store

    samples = []
    with open_store(store) as memory:
        for query in QUERIES:
            memory.search(query)
        for _ in range(runs):
            for query in QUERIES:
                began = time.perf_counter()
                memory.search(query)
                samples.append(time.perf_counter() - began)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mem-bench")
    args = parser.parse_args()
    mem = installed_mem("[mcp]")
    source = cached_corpus(args.workdir, args.size)
    store = args.workdir / f"mcp-{args.size}"
    shutil.rmtree(store, ignore_errors=True)
    shutil.copytree(source, store, symlinks=True)
    timed([mem, "reindex", "--full"], env={**os.environ, "MEM_STORE": str(store)})

    def sample(run: Any) -> list[float]:
        run()
        return [run() for _ in range(args.runs)]

    python = sys.executable
    started = sample(lambda: ready(mem, store))
    rows = [
        table_line("`mem mcp` ready for initialize", [wall for wall, _ in started]),
        table_line("`mem mcp` CPU time until initialize", [cpu for _, cpu in started]),
        table_line(
            "importing the SDK alone (`import mcp.server.lowlevel`)",
            sample(lambda: timed([python, "-c", "import mcp.server.lowlevel, mcp.server.stdio"])),
        ),
        table_line("`mem --help` (a whole process)", sample(lambda: timed([mem, "--help"]))),
        table_line(
            f"`tools/call search` ({len(QUERIES)} queries)", searches(mem, store, args.runs)
        ),
        table_line("`MemStore.search` in process (same queries)", in_process(store, args.runs)),
    ]
    print(f"{args.size:,} memories; {os.cpu_count()} cores\n")
    print("| figure | median | p95 | samples |\n|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
