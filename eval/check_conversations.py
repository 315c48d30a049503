"""Validate the conversations set in eval/conversations/ (stdlib only).

    python eval/check_conversations.py    # checks, then prints a summary; exit 1 on a problem

Checks: every line parses; fields and types; turn ids are ``D<session>:<n>``, unique
in their conversation and in order; one date a session, never going back; two
speakers a conversation; every question's evidence names turns of its conversation;
categories valid; minimum counts.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "conversations"
CATEGORIES = ("single-hop", "multi-hop", "temporal", "open-domain")
TURN_ID = re.compile(r"D([1-9][0-9]*):([1-9][0-9]*)")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
MIN_TURNS = 150
MIN_QUESTIONS_EACH = 25
MIN_CONVERSATIONS = 6


def rows(path: Path) -> list[dict[str, object]]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        value = json.loads(line)
        if not isinstance(value, dict):
            raise ValueError(f"{path.name}:{number}: not a JSON object")
        out.append(value)
    return out


def check(folder: Path = FOLDER) -> list[str]:
    """Every problem of the set in ``folder``, one line each."""
    problems: list[str] = []
    turns: dict[str, dict[str, object]] = {}
    last: dict[str, tuple[int, int, str]] = {}
    speakers: dict[str, set[str]] = {}
    for n, turn in enumerate(rows(folder / "turns.jsonl"), 1):
        where = f"turns.jsonl:{n}"
        name, tid, date = turn.get("conversation"), turn.get("id"), turn.get("date")
        text, speaker, session = turn.get("text"), turn.get("speaker"), turn.get("session")
        if not all(isinstance(v, str) and v.strip() for v in (name, tid, text, speaker)):
            problems.append(f"{where}: conversation, id, speaker and text must be strings")
            continue
        assert isinstance(name, str) and isinstance(tid, str) and isinstance(speaker, str)
        match = TURN_ID.fullmatch(tid)
        if not match or match.group(1) != str(session):
            problems.append(f"{where}: id {tid!r} is not D<session>:<n> of session {session}")
            continue
        if not isinstance(date, str) or not DATE.fullmatch(date):
            problems.append(f"{where}: date must be YYYY-MM-DD")
            continue
        key = (int(match.group(1)), int(match.group(2)), date)
        before = last.get(name, (1, 0, date))
        if key[0] == before[0] and (key[1] != before[1] + 1 or date != before[2]):
            problems.append(f"{where}: turn {tid} is out of order or changes its session's date")
        elif key[0] not in (before[0], before[0] + 1) or (key[0] > before[0] and key[1] != 1):
            problems.append(f"{where}: session {key[0]} does not follow session {before[0]}")
        elif date < before[2]:
            problems.append(f"{where}: session {key[0]} is dated before the one before it")
        last[name] = key
        speakers.setdefault(name, set()).add(speaker)
        turns[f"{name}/{tid}"] = turn
    for name, people in speakers.items():
        if len(people) != 2:
            problems.append(f"conversation {name}: {len(people)} speakers, not two")
    questions = rows(folder / "questions.jsonl")
    seen: set[str] = set()
    for n, question in enumerate(questions, 1):
        where = f"questions.jsonl:{n}"
        name, text = question.get("conversation"), question.get("question")
        evidence, category = question.get("evidence"), question.get("category")
        if name not in speakers:
            problems.append(f"{where}: no conversation {name!r}")
        if not isinstance(text, str) or not text.strip() or text in seen:
            problems.append(f"{where}: question must be a string, given once")
        seen.add(str(text))
        if not isinstance(question.get("answer"), str):
            problems.append(f"{where}: answer must be a string")
        if category not in CATEGORIES:
            problems.append(f"{where}: category must be one of {', '.join(CATEGORIES)}")
        if not isinstance(evidence, list) or not evidence:
            problems.append(f"{where}: evidence must list turn ids")
        elif any(f"{name}/{e}" not in turns for e in evidence):
            problems.append(f"{where}: evidence names a turn not in conversation {name}")
    counts = Counter(str(t["conversation"]) for t in turns.values())
    asked = Counter(str(q.get("conversation")) for q in questions)
    for name, count in counts.items():
        if count < MIN_TURNS:
            problems.append(f"conversation {name}: {count} turns, fewer than {MIN_TURNS}")
        if asked[name] < MIN_QUESTIONS_EACH:
            problems.append(f"conversation {name}: {asked[name]} questions")
    if len(counts) < MIN_CONVERSATIONS:
        problems.append(f"{len(counts)} conversations, fewer than {MIN_CONVERSATIONS}")
    return problems


def main() -> int:
    try:
        problems = check()
    except (OSError, ValueError) as exc:
        print(f"eval/conversations: {exc}", file=sys.stderr)
        return 1
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    turns = rows(FOLDER / "turns.jsonl")
    questions = rows(FOLDER / "questions.jsonl")
    categories = Counter(str(q["category"]) for q in questions)
    names = sorted({str(t["conversation"]) for t in turns})
    print(f"{len(names)} conversations, {len(turns)} turns, {len(questions)} questions")
    print(", ".join(f"{c}: {categories[c]}" for c in CATEGORIES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
