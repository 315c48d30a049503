"""Benchmark of the transcript index: first sync, an append, searches, size.

Generates Claude Code session files (user prompts, long assistant texts, tool
calls and results of some KB, each line with Claude Code's metadata) into a
temporary folder, then measures, each as its own ``mem`` process where the
whole process counts:

- the first ``mem transcripts sync`` (seconds, peak RSS of the child);
- a sync with nothing new, and one after a session gained 200 messages;
- a search in process, and a whole ``mem transcripts search`` process;
- the index's size against the text it indexes.

    python bench/transcripts.py                      # ~350,000 messages, ~2,000 files
    python bench/transcripts.py --messages 20000 --sessions 100

Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from memcli.capture.transcripts.locate import claude_project_dir

_WORDS = (
    "index query upload retry timeout session cache token parser migration schema commit "
    "branch worker queue thread lock deadlock socket buffer stream encode decode render "
    "template config setting option default value error failure exception warning trace "
    "stack frame module package import function method class object field column row table "
    "database sqlite postgres request response header payload client server endpoint route "
    "handler middleware test fixture assert mock coverage benchmark latency throughput memory "
    "allocation garbage collector pointer reference iterator generator async await future "
    "promise callback event signal process child pipe file path folder directory symlink "
    "permission user group owner the a of to and in is that for it with as on this be are "
    "was by at from or an not but have has we you they which when if then so can will would "
    "should could must also only just more most other some any each every all no new old"
).split()
_FILES = [f"src/{a}/{b}.py" for a in ("api", "core", "db", "ui", "jobs") for b in _WORDS[:40]]


def _vocabulary(size: int = 30_000, seed: int = 3) -> tuple[list[str], list[float]]:
    """The common words, then made-up ones, with Zipf frequencies (as prose and logs have)."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    made_up = {"".join(rng.choices(letters, k=rng.randrange(3, 11))) for _ in range(size)}
    words = list(dict.fromkeys([*_WORDS, *sorted(made_up)]))
    rng.shuffle(words)
    total = 0.0
    cumulative = []
    for rank in range(1, len(words) + 1):
        total += 1.0 / rank
        cumulative.append(total)
    return words, cumulative


_VOCABULARY, _CUMULATIVE = _vocabulary()
_TOOLS = ("Bash", "Read", "Edit", "Grep", "Write", "Glob")


def _line(rng: random.Random, words: int = 14) -> str:
    chosen = rng.choices(_VOCABULARY, cum_weights=_CUMULATIVE, k=words)
    # identifiers, numbers and paths: the unique tokens real transcripts are full of
    for _ in range(words // 25):
        chosen[rng.randrange(words)] = rng.choice(
            (
                f"err_{rng.randrange(10**6)}",
                str(rng.randrange(10**9)),
                rng.choice(_FILES),
                f"0x{rng.randrange(16**8):08x}",
            )
        )
    return " ".join(chosen)


_POOL_RNG = random.Random(5)
_POOL = [_line(_POOL_RNG) for _ in range(20_000)]
"""Lines of 14 words texts are made of: drawing every word anew would make generating
350,000 messages take many minutes."""


def _text(rng: random.Random, words: int) -> str:
    """About ``words`` words: lines from the pool, and one line of fresh words."""
    lines = [rng.choice(_POOL) for _ in range(max(0, words // 14 - 1))]
    lines.append(_line(rng))
    return "\n".join(lines)


class _Session:
    def __init__(self, rng: random.Random, index: int, cwd: str) -> None:
        self.rng = rng
        self.id = str(uuid.UUID(int=rng.getrandbits(128)))
        self.cwd = cwd
        self.parent: str | None = None
        self.clock = 1_760_000_000 + index * 3600

    def _record(self, kind: str, message: dict[str, object], **extra: object) -> str:
        self.clock += self.rng.randrange(1, 30)
        identity = str(uuid.UUID(int=self.rng.getrandbits(128)))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(self.clock))
        record = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.id,
            "version": "2.0.14",
            "gitBranch": "main",
            "type": kind,
            "message": message,
            "uuid": identity,
            "timestamp": stamp,
            **extra,
        }
        self.parent = identity
        return json.dumps(record)

    def messages(self) -> Iterator[str]:
        """Lines of an endless conversation: a prompt, then answers and tool round trips."""
        rng = self.rng
        while True:
            yield self._record(
                "user", {"role": "user", "content": _text(rng, rng.randrange(10, 120))}
            )
            for _ in range(rng.randrange(2, 8)):
                tool = rng.choice(_TOOLS)
                call_id = f"toolu_{rng.getrandbits(64):016x}"
                target = rng.choice(_FILES)
                tool_input = (
                    {"command": f"pytest -q tests/test_{rng.choice(_WORDS)}.py"}
                    if tool == "Bash"
                    else {"file_path": f"{self.cwd}/{target}"}
                )
                content = [
                    {"type": "text", "text": _text(rng, rng.randrange(20, 250))},
                    {"type": "tool_use", "id": call_id, "name": tool, "input": tool_input},
                ]
                yield self._record(
                    "assistant",
                    {
                        "id": f"msg_{rng.getrandbits(64):016x}",
                        "type": "message",
                        "role": "assistant",
                        "model": "claude-sonnet-4-5",
                        "content": content,
                        "stop_reason": "tool_use",
                        "usage": {"input_tokens": 1200, "output_tokens": 300},
                    },
                    requestId=f"req_{rng.getrandbits(64):016x}",
                )
                output = _text(rng, rng.randrange(40, 900))
                yield self._record(
                    "user",
                    {
                        "role": "user",
                        "content": [
                            {"tool_use_id": call_id, "type": "tool_result", "content": output}
                        ],
                    },
                    toolUseResult={"stdout": output, "stderr": "", "interrupted": False},
                )
            yield self._record(
                "assistant",
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": _text(rng, rng.randrange(40, 500))}],
                },
            )


def generate(folder: Path, messages: int, sessions: int, *, seed: int = 7) -> list[Path]:
    """``sessions`` Claude Code session files holding about ``messages`` messages in all."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for number in range(sessions):
        session = _Session(rng, number, "/home/dev/project")
        size = max(1, int(rng.expovariate(1.0) * messages / sessions))
        path = folder / f"{session.id}.jsonl"
        lines = session.messages()
        with path.open("w") as handle:
            for _ in range(size):
                handle.write(next(lines) + "\n")
        paths.append(path)
    return paths


def append(path: Path, count: int, seed: int = 11) -> None:
    """``count`` more lines at the end of a session file (its session id kept)."""
    with path.open() as handle:
        first = json.loads(handle.readline())
    rng = random.Random(seed)
    session = _Session(rng, 0, first["cwd"])
    session.id = first["sessionId"]
    lines = session.messages()
    with path.open("a") as handle:
        for _ in range(count):
            handle.write(next(lines) + "\n")


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Seconds, the child's peak RSS in MB, and its stdout."""
    code = (
        "import resource, subprocess, sys, json, time\n"
        "t = time.perf_counter()\n"
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "t = time.perf_counter() - t\n"
        "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps([t, rss, r.returncode, r.stdout, r.stderr]))\n"
    )
    mem = str(Path(sys.executable).parent / "mem")
    out = subprocess.run(
        [sys.executable, "-c", code, mem, *args], capture_output=True, text=True, env=env
    )
    seconds, rss, code_, stdout, stderr = json.loads(out.stdout)
    if code_ != 0:
        raise SystemExit(f"mem {' '.join(args)} failed: {stderr}")
    return seconds, rss, stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=350_000)
    parser.add_argument("--sessions", type=int, default=2_000)
    parser.add_argument("--keep", action="store_true", help="Keep the temporary folder.")
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="mem-transcripts-bench-"))
    try:
        _bench(root, options.messages, options.sessions)
    finally:
        if options.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def _bench(root: Path, messages: int, sessions: int) -> None:
    project = root / "project"
    project.mkdir()
    env = {
        **os.environ,
        "CLAUDE_CONFIG_DIR": str(root / "claude"),
        "CODEX_HOME": str(root / "codex"),
        "MEM_STORE": str(root / "store"),
        "MEM_HOME": str(root / "mem-home"),
    }
    os.environ.update(env)
    folder = claude_project_dir(project)
    started = time.perf_counter()
    paths = generate(folder, messages, sessions)
    jsonl = sum(path.stat().st_size for path in paths)
    print(
        f"generated {len(paths):,} files, {jsonl / 1e6:.0f} MB of JSONL "
        f"in {time.perf_counter() - started:.1f} s"
    )
    sync = ["transcripts", "sync", "--project-dir", str(project), "--json"]
    seconds, rss, out = _run(sync, env)
    report = json.loads(out)
    print(
        f"first sync: {seconds:.1f} s, peak RSS {rss:.0f} MB, {report['messages_added']:,} messages"
    )
    status = json.loads(_run(["transcripts", "status", "--json"], env)[2])
    ratio = status["size_bytes"] / max(1, status["text_bytes"])
    print(
        f"index: {status['size_bytes'] / 1e6:.0f} MB for {status['text_bytes'] / 1e6:.0f} MB "
        f"of text ({ratio:.2f}x); skipped {status['skipped']}"
    )
    idle = [_run(sync, env)[0] for _ in range(3)]
    print(f"sync with nothing new: {statistics.median(idle) * 1000:.0f} ms (process)")
    append(max(paths, key=lambda p: p.stat().st_size), 200)
    seconds, _, out = _run(sync, env)
    added = json.loads(out)["messages_added"]
    print(f"sync after 200 appended lines: {seconds * 1000:.0f} ms (process, {added} messages)")
    queries = ["upload timeout", "deadlock in the worker queue", "err_1234*", "src/db/index.py"]
    from memcli.service.transcripts import search, transcripts_path
    from memcli.store.files import Store

    db_path = transcripts_path(Store(root / "store"))
    for query in queries:
        search(db_path, query)  # warm
        runs = []
        for _ in range(5):
            tick = time.perf_counter()
            search(db_path, query)
            runs.append(time.perf_counter() - tick)
        whole = statistics.median(
            [_run(["transcripts", "search", query], env)[0] for _ in range(3)]
        )
        print(
            f"search {query!r}: {statistics.median(runs) * 1000:.1f} ms in process, "
            f"{whole * 1000:.0f} ms as a process"
        )
    print(f"mem itself (mem --version): {_run(['--version'], env)[0] * 1000:.0f} ms")


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    main()
