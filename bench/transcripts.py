"""How fast the transcript parsers read: generated Claude Code and Codex files.

    python bench/transcripts.py --messages 350000

Writes one session file per agent with about ``--messages`` lines shaped as the
agents write them (usage and metadata fields, thinking, tool calls, KB-sized tool
results), then times ``read_messages`` over each in CPU time (the figure that holds on a
shared machine; wall time beside it): lines/s and MB/s.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memcli.capture.transcripts.records import parser_for, read_messages

WORDS = (
    "the deploy build cache index query parser token session commit branch merge test "
    "fixture error retry timeout config path module import function class return value"
).split()


def words(rng: random.Random, count: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(count))


def stamp(n: int) -> str:
    return f"2026-03-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.{n % 1000:03d}Z"


def output(rng: random.Random) -> str:
    lines = rng.randint(20, 120)
    return "\n".join(f"{n:6}→{words(rng, rng.randint(4, 10))}" for n in range(lines))


def claude_lines(count: int, seed: int = 1) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    parent = None
    for n in range(count):
        uuid = f"00000000-0000-4000-8000-{n:012d}"
        base = {
            "parentUuid": parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": "/home/u/project",
            "sessionId": "6f1c2d3e-0000-4000-8000-000000000001",
            "version": "2.0.14",
            "gitBranch": "main",
            "uuid": uuid,
            "timestamp": stamp(n),
        }
        step = n % 4
        if step == 0:
            record = {
                **base,
                "type": "user",
                "message": {"role": "user", "content": words(rng, 40)},
            }
        elif step == 1:
            content = [
                {"type": "thinking", "thinking": words(rng, 150), "signature": "x" * 200},
                {"type": "text", "text": words(rng, 60)},
            ]
            record = {**base, "type": "assistant", "requestId": "req_1", "message": _api(content)}
        elif step == 2:
            tool = rng.choice(["Read", "Bash", "Edit", "Grep"])
            inputs = {
                "Read": {"file_path": f"/home/u/project/src/m{n % 50}.py"},
                "Bash": {"command": f"pytest -q tests/test_{n % 30}.py", "description": "Run"},
                "Edit": {
                    "file_path": "/home/u/project/a.py",
                    "old_string": words(rng, 30),
                    "new_string": words(rng, 30),
                },
                "Grep": {"pattern": rng.choice(WORDS), "path": "src"},
            }[tool]
            content = [{"type": "tool_use", "id": f"toolu_{n}", "name": tool, "input": inputs}]
            record = {**base, "type": "assistant", "requestId": "req_1", "message": _api(content)}
        else:
            result = output(rng)
            content = [{"type": "tool_result", "tool_use_id": f"toolu_{n - 1}", "content": result}]
            record = {
                **base,
                "type": "user",
                "message": {"role": "user", "content": content},
                "toolUseResult": {"stdout": result, "stderr": "", "interrupted": False},
            }
        parent = uuid
        yield record


def _api(content: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": content,
        "stop_reason": None,
        "usage": {"input_tokens": 4, "cache_read_input_tokens": 21000, "output_tokens": 300},
    }


def codex_lines(count: int, seed: int = 2) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    yield {
        "timestamp": "2026-03-01T00:00:00.000Z",
        "type": "session_meta",
        "payload": {"id": "019a2d7a-41c4-78b1", "cwd": "/home/u/project", "cli_version": "0.46.0"},
    }
    for n in range(count - 1):
        step = n % 5
        if step == 0:
            payload = {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": words(rng, 40)}],
            }
        elif step == 1:
            payload = {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": words(rng, 60)}],
                "encrypted_content": "x" * 800,
            }
        elif step == 2:
            args = {"command": ["bash", "-lc", f"rg -n {rng.choice(WORDS)} src"]}
            payload = {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps(args),
                "call_id": f"call_{n}",
            }
        elif step == 3:
            text = json.dumps({"output": output(rng), "metadata": {"exit_code": n % 7 == 0}})
            payload = {"type": "function_call_output", "call_id": f"call_{n - 1}", "output": text}
        else:
            payload = {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": words(rng, 60)}],
            }
        yield {"timestamp": stamp(n), "type": "response_item", "payload": payload}


def measure(path: Path, agent: str) -> dict[str, float]:
    size = path.stat().st_size
    with path.open("rb") as handle:
        lines = sum(1 for _ in handle)
    start, cpu = time.perf_counter(), time.process_time()
    messages = sum(1 for _ in read_messages(path, agent))
    wall, seconds = time.perf_counter() - start, time.process_time() - cpu
    return {
        "lines": lines,
        "messages": messages,
        "MB": size / 1e6,
        "seconds": seconds,
        "wall": wall,
        "lines/s": lines / seconds,
        "MB/s": size / 1e6 / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=350_000)
    args = parser.parse_args()
    assert parser_for("claude") and parser_for("codex")
    with tempfile.TemporaryDirectory() as tmp:
        for agent, lines in (("claude", claude_lines), ("codex", codex_lines)):
            path = Path(tmp) / f"{agent}.jsonl"
            with path.open("w") as out:
                for record in lines(args.messages):
                    out.write(json.dumps(record) + "\n")
            figures = measure(path, agent)
            print(
                f"{agent:6}  {figures['lines']:>8.0f} lines  {figures['messages']:>8.0f} messages  "
                f"{figures['MB']:7.1f} MB  {figures['seconds']:6.2f} s CPU "
                f"({figures['wall']:.2f} s wall)  "
                f"{figures['lines/s']:>9,.0f} lines/s  {figures['MB/s']:6.1f} MB/s"
            )


if __name__ == "__main__":
    main()
