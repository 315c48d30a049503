"""How long drafting takes on a long session: a generated Claude Code transcript.

    python bench/lessons.py --messages 2000 --runs 5

Writes a session of about ``--messages`` messages shaped as Claude Code writes them
(user requests, corrections and rules among them; assistant prose with notes and
proposals; Bash calls, some failing then passing after an edit; KB-sized tool
results), parses it with ``read_messages`` and times ``draft_lessons`` alone, in
CPU time (what holds on a shared machine), the median of ``--runs``.

``--dense`` times the worst case instead: every message 6,000 characters of
sentences made of the very words drafting looks for.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from memcli.capture.lessons import draft_lessons
from memcli.capture.transcripts.records import TranscriptMessage, read_messages

SESSION = "bench-lessons-0000-1111-222233334444"
WORDS = (
    "the deploy build cache index query parser token session commit branch merge test "
    "fixture error retry timeout config path module import function class return value"
).split()
USER_LINES = (
    "Can you look at the {w} in src/{w}.py and tell me what {w} does?",
    "No, we use pnpm here, never npm for the {w} package.",
    "Always run the {w} tests with -x before committing.",
    "Thanks, that looks great!",
    "Yes, let's do that.",
)
ASSISTANT_LINES = (
    "I'll read the {w} module first. Let me check the tests.",
    "Note that the {w} cache must be restarted after changing config.toml.",
    "I suggest we keep the {w} in SQLite because it avoids a second service.",
    "The problem is that the {w} fixture never creates the bucket, so every test fails.",
    "Done: the {w} now returns early when the {w} is empty.",
)


def words(rng: random.Random, count: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(count))


def write_transcript(path: Path, messages: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    parent: str | None = None
    written = 0
    with path.open("w") as handle:

        def put(kind: str, content: Any) -> str:
            nonlocal parent, written
            uuid = f"{written:08d}-0000-4000-8000-000000000000"
            record = {
                "type": kind,
                "sessionId": SESSION,
                "uuid": uuid,
                "parentUuid": parent,
                "timestamp": "2026-01-01T00:00:00.000Z",
                "isSidechain": False,
                "message": {"role": kind, "content": content},
            }
            handle.write(json.dumps(record) + "\n")
            parent = uuid
            written += 1
            return uuid

        while written < messages:
            w = rng.choice(WORDS)
            put("user", rng.choice(USER_LINES).format(w=w) + " " + words(rng, 30))
            put("assistant", [{"type": "text", "text": rng.choice(ASSISTANT_LINES).format(w=w)}])
            call = f"toolu_{written}"
            command = f"pytest tests/test_{w}.py -q"
            put(
                "assistant",
                [{"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}],
            )
            failed = rng.random() < 0.3
            put(
                "user",
                [
                    {
                        "type": "tool_result",
                        "tool_use_id": call,
                        "is_error": failed,
                        "content": ("E AssertionError " if failed else "ok ") + words(rng, 600),
                    }
                ],
            )
            put(
                "assistant",
                [
                    {
                        "type": "tool_use",
                        "id": f"edit_{written}",
                        "name": "Edit",
                        "input": {"file_path": f"src/{w}.py", "old_string": "a", "new_string": "b"},
                    }
                ],
            )


TRIGGERS = (
    "the deploy build cache because never always note that instead of we use should must "
    "root cause turns out index query parser token"
).split()


def dense_messages(count: int, seed: int = 3) -> list[TranscriptMessage]:
    """``count`` messages of 6,000 characters, every sentence full of trigger words."""
    rng = random.Random(seed)

    def prose() -> str:
        return " ".join(
            rng.choice(TRIGGERS) + (". The" if rng.random() < 0.08 else "") for _ in range(1000)
        )

    messages = []
    for i in range(count):
        role = ("user", "assistant", "assistant", "tool")[i % 4]
        more: dict[str, Any] = {}
        if role == "assistant" and i % 8 == 2:
            more = {"tools": ("Bash",), "commands": (f"pytest t{i % 50}",), "edited": (f"f{i}.py",)}
        elif role == "tool":
            more = {"tools": ("Bash",), "failed": i % 3 == 0}
        messages.append(
            TranscriptMessage(
                agent="claude",
                session=SESSION,
                time=None,
                role=role,
                text=prose(),
                uuid=f"u{i}",
                parent=f"u{i - 1}",
                **more,
            )
        )
    return messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dense", action="store_true", help="the worst case (see above)")
    args = parser.parse_args()
    if args.dense:
        messages = dense_messages(args.messages)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"{SESSION}.jsonl"
            write_transcript(path, args.messages)
            messages = list(read_messages(path, "claude"))
    times = []
    drafts = []
    for _ in range(args.runs):
        start = time.process_time()
        drafts = draft_lessons(messages, session=SESSION, agent="claude")
        times.append(time.process_time() - start)
    print(
        f"{len(messages)} messages: draft_lessons median {statistics.median(times) * 1000:.0f} ms "
        f"CPU (max {max(times) * 1000:.0f} ms over {args.runs} runs), {len(drafts)} drafts"
    )


if __name__ == "__main__":
    main()
