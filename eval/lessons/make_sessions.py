"""Write the lessons set: the written sessions and the public ones, and ``labels.jsonl``.

    python eval/lessons/make_sessions.py [--public DIR]

Writes ``sessions/<name>.jsonl`` for every script of ``sessions.py`` and
``sessions_blind.py`` to ``sessions_blind20.py`` (the ``blind`` to ``blind20``
halves) in its agent's format
(``formats.py``) and ``labels.jsonl``: one line a session, with its agent, its
half and its marked lessons. The public sessions (README.md names their source
and license) are copied from ``--public`` (files as their repositories hold
them), trimmed: progress and file-history records, thinking blocks, token usage
and tool metadata out, tool inputs and results cut.
Their labels are ``PUBLIC`` below, marked by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from formats import write_session  # noqa: E402
from sessions import SESSIONS  # noqa: E402
from sessions_blind import BLIND  # noqa: E402
from sessions_blind2 import BLIND2  # noqa: E402
from sessions_blind3 import BLIND3  # noqa: E402
from sessions_blind4 import BLIND4  # noqa: E402
from sessions_blind5 import BLIND5  # noqa: E402
from sessions_blind6 import BLIND6  # noqa: E402
from sessions_blind7 import BLIND7  # noqa: E402
from sessions_blind8 import BLIND8  # noqa: E402
from sessions_blind9 import BLIND9  # noqa: E402
from sessions_blind10 import BLIND10  # noqa: E402
from sessions_blind11 import BLIND11  # noqa: E402
from sessions_blind12 import BLIND12  # noqa: E402
from sessions_blind13 import BLIND13  # noqa: E402
from sessions_blind14 import BLIND14  # noqa: E402
from sessions_blind15 import BLIND15  # noqa: E402
from sessions_blind16 import BLIND16  # noqa: E402
from sessions_blind17 import BLIND17  # noqa: E402
from sessions_blind18 import BLIND18  # noqa: E402
from sessions_blind19 import BLIND19  # noqa: E402
from sessions_blind20 import BLIND20  # noqa: E402

MAX_RESULT_CHARS = 300
DROPPED = frozenset({"progress", "file-history-snapshot", "queue-operation"})

# name: (file in --public, agent, half, source, [(kind, message id, phrase or phrases)])
PUBLIC = {
    "spotter-transcript-pipeline": (
        "spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
        "claude",
        "tune",
        "marot/spotter test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
        [
            ("note", "b3d486de", "auto-generates `handle_event"),
            ("root_cause", "8579c0c7", "the error is a 3-tuple with the chain"),
            ("note", "3b733706", ["which is gitignored", "tracked by git despite the gitignore"]),
        ],
    ),
    "spotter-session-registry": (
        "spotter-fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl",
        "claude",
        "held",
        "marot/spotter test/fixtures/transcripts/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl",
        [
            ("root_cause", "ff394806", "the upsert identity isn't working"),
            ("root_cause", "60e524fc", "aliases used only inside `rescue` blocks"),
            ("note", "c4dcead1", ["is gitignored", "changes to it need to be staged explicitly"]),
        ],
    ),
    "spotter-short": (
        "spotter-short.jsonl",
        "claude",
        "tune",
        "marot/spotter test/fixtures/transcripts/short.jsonl",
        [],
    ),
    "spotter-tool-heavy": (
        "spotter-tool_heavy.jsonl",
        "claude",
        "held",
        "marot/spotter test/fixtures/transcripts/tool_heavy.jsonl",
        [],
    ),
    "cct-sample-session": (
        "cct-sample_session.jsonl",
        "claude",
        "tune",
        "simonw/claude-code-transcripts tests/sample_session.jsonl",
        [],
    ),
    "cct-sample-codex": (
        "cct-sample_codex_session.jsonl",
        "codex",
        "held",
        "simonw/claude-code-transcripts tests/sample_codex_session.jsonl",
        [],
    ),
}


def trimmed(line: str) -> str | None:
    """A public transcript's line with what drafting never reads cut down (None: dropped)."""
    try:
        record = json.loads(line)
    except ValueError:
        return line
    if not isinstance(record, dict) or record.get("type") in DROPPED:
        return None
    for key in ("toolUseResult", "thinkingMetadata", "todos", "requestId"):
        record.pop(key, None)
    if isinstance(record.get("message"), dict):
        record["message"].pop("usage", None)
    content = (
        record.get("message", {}).get("content")
        if isinstance(record.get("message"), dict)
        else None
    )
    if isinstance(content, list):
        content[:] = [
            b for b in content if not (isinstance(b, dict) and b.get("type") == "thinking")
        ]
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                if isinstance(inner, str) and len(inner) > MAX_RESULT_CHARS:
                    block["content"] = inner[:MAX_RESULT_CHARS] + " …"
                elif isinstance(inner, list):
                    block["content"] = [
                        {**b, "text": b["text"][:MAX_RESULT_CHARS]}
                        for b in inner
                        if isinstance(b, dict)
                        and b.get("type") == "text"
                        and isinstance(b.get("text"), str)
                    ]
            elif isinstance(block, dict) and block.get("type") == "tool_use":
                tool_input = block.get("input")
                if isinstance(tool_input, dict):
                    for key in ("content", "new_string", "old_string", "prompt"):
                        value = tool_input.get(key)
                        if isinstance(value, str) and len(value) > MAX_RESULT_CHARS:
                            tool_input[key] = value[:MAX_RESULT_CHARS] + " …"
    return json.dumps(record, ensure_ascii=False)


def _category(name: str, marked: list[tuple[str, str, str]]) -> str:
    """lessons, small talk (nothing about the work) or routine (work, and nothing to keep)."""
    if marked:
        return "lessons"
    return "small talk" if "smalltalk" in name else "routine"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--public", type=Path, help="folder holding the public files as fetched")
    args = parser.parse_args()
    out = HERE / "sessions"
    out.mkdir(exist_ok=True)
    labels = []
    for index, (name, agent, half, steps) in enumerate(
        [
            *SESSIONS,
            *BLIND,
            *BLIND2,
            *BLIND3,
            *BLIND4,
            *BLIND5,
            *BLIND6,
            *BLIND7,
            *BLIND8,
            *BLIND9,
            *BLIND10,
            *BLIND11,
            *BLIND12,
            *BLIND13,
            *BLIND14,
            *BLIND15,
            *BLIND16,
            *BLIND17,
            *BLIND18,
            *BLIND19,
            *BLIND20,
        ]
    ):
        session = f"e{index:03d}-{name}"[:60]
        marked = write_session(out / f"{name}.jsonl", agent, session, steps)
        labels.append(
            {
                "session": name,
                "agent": agent,
                "half": half,
                "source": "written",
                "category": _category(name, marked),
                "lessons": [{"kind": k, "message": m, "phrase": p} for k, m, p in marked],
            }
        )
    for name, (file, agent, half, source, marked) in PUBLIC.items():
        if args.public is not None:
            lines = (args.public / file).read_text(encoding="utf-8").splitlines()
            kept = [t for t in (trimmed(line) for line in lines if line.strip()) if t is not None]
            (out / f"{name}.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
        labels.append(
            {
                "session": name,
                "agent": agent,
                "half": half,
                "source": source,
                "category": _category(name, marked),
                "lessons": [{"kind": k, "message": m, "phrase": p} for k, m, p in marked],
            }
        )
    with (HERE / "labels.jsonl").open("w", encoding="utf-8") as handle:
        for label in labels:
            handle.write(json.dumps(label, ensure_ascii=False) + "\n")
    print(f"{len(labels)} sessions, {sum(len(x['lessons']) for x in labels)} marked lessons")


if __name__ == "__main__":
    main()
