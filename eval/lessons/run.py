"""Measure lesson drafting on the labelled sessions: precision and recall per kind.

    python eval/lessons/run.py [--half tune|held] [--show]

Each session of ``labels.jsonl`` is read as its agent's transcript
(``read_messages``) and drafted (``draft_lessons``). A marked lesson is drafted when
a draft's text holds its phrase (case and spacing aside); a draft is right when it
holds one of its session's marked lessons. Printed: per kind, the marked lessons
drafted (recall, by the lesson's kind) and the drafts that hold one (precision, by the
draft's kind), for each half and both; and the drafts per session of small talk and
of routine work, which should be none. ``--show`` lists every miss and wrong draft.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from memcli.capture.lessons import draft_lessons
from memcli.capture.transcripts.records import read_messages
from memcli.core.lesson import LESSON_KINDS, LessonDraft

HERE = Path(__file__).resolve().parent
HALVES = (
    "tune",
    "held",
    "fresh",
    "blind",
    "blind2",
    "blind3",
    "blind4",
    "blind5",
    "blind6",
    "blind7",
    "blind8",
    "blind9",
    "blind10",
    "blind11",
    "blind12",
    "blind13",
    "blind14",
    "blind15",
    "blind16",
    "blind17",
    "blind18",
    "blind19",
    "blind20",
)


def normal(text: str) -> str:
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", text).strip().lower()


def _phrases(lesson: dict[str, Any]) -> list[str]:
    """The phrases of a marked lesson: one, or a few when it is said across messages."""
    phrase = lesson["phrase"]
    return [normal(p) for p in (phrase if isinstance(phrase, list) else [phrase])]


def load() -> list[dict[str, Any]]:
    with (HERE / "labels.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def drafts_of(label: dict[str, Any]) -> list[LessonDraft]:
    path = HERE / "sessions" / f"{label['session']}.jsonl"
    messages = list(read_messages(path, label["agent"]))
    return draft_lessons(messages, session=label["session"], agent=label["agent"])


def check(labels: list[dict[str, Any]]) -> list[str]:
    """What is wrong with the labels: a lesson whose phrase is not in the message it names
    (a public session's id may be given by its first characters)."""
    problems = []
    for label in labels:
        path = HERE / "sessions" / f"{label['session']}.jsonl"
        messages = list(read_messages(path, label["agent"]))
        for lesson in label["lessons"]:
            held = [
                normal(m.text)
                for position, m in enumerate(messages, 1)
                if (m.uuid or str(position)).startswith(lesson["message"])
            ]
            if not any(p in text for text in held for p in _phrases(lesson)):
                problems.append(
                    f"{label['session']}: {lesson['phrase']!r} is not in {lesson['message']}"
                )
    return problems


def measure(labels: list[dict[str, Any]], show: bool = False) -> dict[str, Any]:
    """Counts per kind and per category of session over ``labels``."""
    marked: Counter[str] = Counter()
    found: Counter[str] = Counter()
    kind_right: Counter[str] = Counter()
    drafted: Counter[str] = Counter()
    right: Counter[str] = Counter()
    sessions: Counter[str] = Counter()
    per_category: Counter[str] = Counter()
    examples: dict[str, list[str]] = {"right": [], "wrong": [], "missed": []}
    for label in labels:
        drafts = drafts_of(label)
        sessions[label["category"]] += 1
        per_category[label["category"]] += len(drafts)
        phrases = [(lesson, _phrases(lesson)) for lesson in label["lessons"]]
        texts = [normal(draft.text) for draft in drafts]
        for lesson, alternatives in phrases:
            marked[lesson["kind"]] += 1
            holders = [
                d for d, t in zip(drafts, texts, strict=True) if any(p in t for p in alternatives)
            ]
            if holders:
                found[lesson["kind"]] += 1
                kind_right[lesson["kind"]] += any(d.kind == lesson["kind"] for d in holders)
            else:
                examples["missed"].append(
                    f"{label['session']}: [{lesson['kind']}] {lesson['phrase']}"
                )
        for draft, text in zip(drafts, texts, strict=True):
            drafted[draft.kind] += 1
            line = f"{label['session']}: [{draft.kind}] {draft.text}"
            if any(p in text for _lesson, alternatives in phrases for p in alternatives):
                right[draft.kind] += 1
                examples["right"].append(line)
            else:
                examples["wrong"].append(line)
    if show:
        for name in ("missed", "wrong"):
            print(f"\n{name}:")
            for line in examples[name]:
                print("  " + line)
    return {
        "marked": marked,
        "found": found,
        "kind_right": kind_right,
        "drafted": drafted,
        "right": right,
        "sessions": sessions,
        "per_category": per_category,
        "examples": examples,
    }


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.0%}" if whole else "-"


def table(result: dict[str, Any], title: str) -> str:
    rows = [
        f"### {title}",
        "",
        "| kind | recall (marked lessons drafted) | kind right "
        "| precision (drafts holding a marked lesson) |",
        "|---|---|---|---|",
    ]
    for kind in (*LESSON_KINDS, "all"):
        if kind == "all":
            m, f, k = (sum(result[x].values()) for x in ("marked", "found", "kind_right"))
            d, r = sum(result["drafted"].values()), sum(result["right"].values())
        else:
            m, f, k = result["marked"][kind], result["found"][kind], result["kind_right"][kind]
            d, r = result["drafted"][kind], result["right"][kind]
        rows.append(f"| {kind} | {_share(f, m)} | {_share(k, f)} | {_share(r, d)} |")
    rows.append("")
    for category in ("small talk", "routine", "lessons"):
        n = result["sessions"][category]
        if n:
            rows.append(
                f"- {category} sessions: {n}, drafts {result['per_category'][category]} "
                f"({result['per_category'][category] / n:.2f} a session)"
            )
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--half", choices=HALVES)
    parser.add_argument("--show", action="store_true", help="list the misses and wrong drafts")
    args = parser.parse_args()
    labels = load()
    halves = (args.half,) if args.half else (*HALVES, None)
    for half in halves:
        chosen = [label for label in labels if half is None or label["half"] == half]
        name = {
            "tune": "tune half",
            "held": "held half",
            "fresh": "fresh half",
            "blind": "blind half",
            "blind2": "second blind half",
            "blind3": "third blind half",
            "blind4": "fourth blind half",
            "blind5": "fifth blind half",
            "blind6": "sixth blind half",
            "blind7": "seventh blind half",
            "blind8": "eighth blind half",
            "blind9": "ninth blind half",
            "blind20": "twentieth blind half",
            "blind19": "nineteenth blind half",
            "blind18": "eighteenth blind half",
            "blind17": "seventeenth blind half",
            "blind16": "sixteenth blind half",
            "blind15": "fifteenth blind half",
            "blind14": "fourteenth blind half",
            "blind13": "thirteenth blind half",
            "blind12": "twelfth blind half",
            "blind11": "eleventh blind half",
            "blind10": "tenth blind half",
            None: "all sessions",
        }[half]
        print(
            table(
                measure(chosen, show=args.show and half is not None),
                f"{name} ({len(chosen)} sessions)",
            )
        )
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
