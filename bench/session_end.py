"""The SessionEnd hook's latency with a large transcript, and the capture behind it.

    python bench/session_end.py --mb 50 --runs 7

Writes a Claude Code transcript of about ``--mb`` megabytes (user turns, tool calls
and results, assistant answers), then times ``mem hook claude SessionEnd`` (it only
starts the detached capture: its time must not grow with the transcript) against
``mem hook claude PreCompact`` (a hook that does nothing: the floor of starting
mem at all), and finally times the detached work itself, ``mem capture
session-end``, run in the foreground, with its peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SESSION = "bench-0000-1111-2222-333344445555"


def write_transcript(path: Path, megabytes: int) -> int:
    """A transcript of about ``megabytes`` MB; returns its size in bytes."""
    target = megabytes << 20
    size = 0
    n = 0
    parent = None
    with path.open("w") as handle:

        def put(record: dict[str, object]) -> None:
            nonlocal size, n, parent
            n += 1
            uuid = f"u{n}"
            line = json.dumps({"sessionId": SESSION, "uuid": uuid, "parentUuid": parent, **record})
            handle.write(line + "\n")
            size += len(line) + 1
            parent = uuid

        put({"type": "user", "message": {"role": "user", "content": "Speed up the parser"}})
        while size < target or n < 2:
            call = f"toolu_{n}"
            use = {
                "type": "tool_use",
                "id": call,
                "name": "Bash" if n % 3 else "Read",
                "input": {
                    "command": f"pytest -q tests/test_{n % 40}.py",
                    "file_path": f"/app/m{n % 90}.py",
                },
            }
            put({"type": "assistant", "message": {"role": "assistant", "content": [use]}})
            result = {"type": "tool_result", "tool_use_id": call, "content": "x" * 6000}
            put({"type": "user", "message": {"role": "user", "content": [result]}})
            text = {"type": "text", "text": "Looked at it; next step. " * 20}
            put({"type": "assistant", "message": {"role": "assistant", "content": [text]}})
    return size


def timed(argv: list[str], stdin: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, input=stdin, text=True, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pause", type=float, default=5.0, help="seconds between hook runs")
    args = parser.parse_args()
    mem = str(Path(sys.executable).parent / "mem")
    work = Path(tempfile.mkdtemp(prefix="mem-bench-session-end-"))
    try:
        env = {
            **os.environ,
            "HOME": str(work),
            "MEM_HOME": str(work / "mem-home"),
            "MEM_STORE": str(work / "store"),
        }
        subprocess.run([mem, "init"], env=env, check=True, capture_output=True)
        log = subprocess.run(
            ["git", "-C", env["MEM_STORE"], "rev-list", "--count", "HEAD"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        commits_before = int(log.stdout)
        transcript = work / f"{SESSION}.jsonl"
        size = write_transcript(transcript, args.mb)
        floor = [timed([mem, "hook", "claude", "PreCompact"], "{}", env) for _ in range(args.runs)]
        small = work / "small.jsonl"
        write_transcript(small, 0)
        hook: dict[Path, list[float]] = {transcript: [], small: []}
        for run in range(args.runs):
            for path in (transcript, small):
                given = json.dumps(
                    {
                        "session_id": f"{path.stem}-{run}",
                        "transcript_path": str(path),
                        "cwd": str(work),
                    }
                )
                hook[path].append(timed([mem, "hook", "claude", "SessionEnd"], given, env))
                time.sleep(args.pause if path == transcript else 1)  # its capture ends first
        from memcli.adapters.agents.claude import start_session_end

        os.environ.update(env)  # the captures it starts use the bench's store

        inside = []
        for run in range(args.runs):
            given_payload = {
                "session_id": f"in-{run}",
                "transcript_path": str(transcript),
                "cwd": str(work),
            }
            started = time.perf_counter()
            start_session_end(given_payload, lambda message: None)
            inside.append(time.perf_counter() - started)
            time.sleep(args.pause)
        time.sleep(1)
        started = time.perf_counter()
        subprocess.run(
            [
                mem,
                "capture",
                "session-end",
                "--session",
                SESSION + "-fg",
                "--transcript",
                str(transcript),
                "--cwd",
                str(work),
            ],
            env=env,
            check=True,
            capture_output=True,
        )
        capture = time.perf_counter() - started
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"transcript: {size / (1 << 20):.1f} MB")
        print(
            f"mem hook claude PreCompact (floor): median {statistics.median(floor) * 1000:.0f} ms"
        )
        for path, label in ((transcript, f"{args.mb} MB"), (small, "1 KB")):
            times = hook[path]
            print(
                f"mem hook claude SessionEnd, {label} transcript: median "
                f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
            )
        print(
            f"  of which starting the detached capture (in process): median "
            f"{statistics.median(inside) * 1000:.1f} ms, max {max(inside) * 1000:.1f} ms"
        )
        print(f"mem capture session-end (the detached work): {capture:.2f} s")
        print(f"peak memory of the children: {peak_kb / 1024:.0f} MB")
        log = subprocess.run(
            ["git", "-C", env["MEM_STORE"], "rev-list", "--count", "HEAD"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        print(
            f"summaries committed: {int(log.stdout) - commits_before} "
            f"(expected {3 * args.runs + 1}: one per session)"
        )
    finally:
        time.sleep(2)  # the detached captures end before their folder goes
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
