"""Validate the labelled retrieval evaluation set in this folder (stdlib only).

    python eval/check.py            # checks, then prints a summary; exit 1 on a problem

Checks: every line parses; fields and types; keys unique; every relevant key exists;
styles valid (prompts.jsonl has its own); no query twice across queries.jsonl and
prompts.jsonl; minimum counts; and that a `paraphrase` query shares no content word
(after lowercasing, dropping stop words and stripping suffixes) with its targets.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

TYPES = frozenset(
    {"preference", "decision", "discovery", "gotcha", "pattern", "friction", "context"}
)
STYLES = frozenset({"question", "complaint", "error", "file", "paraphrase", "keyword", "offtopic"})
PROMPT_STYLES = frozenset(
    {"imperative", "question", "complaint", "error", "file", "unanswerable", "offtopic"}
)
"""prompts.jsonl: prompts in agents' shapes for the recall gate; the last two have no answer."""
NEGATIVE = frozenset({"unanswerable", "offtopic"})
KEY = re.compile(r"^[a-z0-9][a-z0-9.-]{0,60}$")
CONCEPT = re.compile(r"^[a-z0-9][a-z0-9-]*$")
MIN_TARGETS = 70
MIN_LABELLED = 150
MIN_OFFTOPIC = 20
MIN_PARAPHRASE = 50
MIN_DISTRACTORS = 3000
MIN_PROMPTS = 80
MIN_UNANSWERABLE = 40

# Function words only: a content word (a noun, verb, adjective, number, name) counts.
STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each
    either else ever every few for from further had has have having he her here hers him
    his how i if in into is it its itself just me might more most much must my myself
    neither no nor not now of off on once only or other ought our ours ourselves out over
    own same shall she should since so some such than that the their theirs them then
    there these they this those though through to too under until up upon us very was we
    were what whatever when whenever where whether which while who whom whose why will
    with within without would yet you your yours yourself yourselves
    hey hi ok okay please thanks anyone anything someone something somebody also again
    let lets let's i'm i've it's isn't don't doesn't didn't can't won't we're we've
    there's what's that's
    """.split()
)
SUFFIXES = (
    "izations",
    "ization",
    "ational",
    "fulness",
    "ousness",
    "iveness",
    "ations",
    "ation",
    "ements",
    "ement",
    "ments",
    "ment",
    "ingly",
    "ings",
    "ing",
    "edly",
    "ness",
    "ities",
    "ity",
    "ives",
    "ive",
    "izes",
    "ized",
    "ize",
    "ises",
    "ised",
    "ise",
    "ables",
    "able",
    "ibles",
    "ible",
    "ions",
    "ion",
    "ers",
    "er",
    "ies",
    "ied",
    "ed",
    "es",
    "ly",
    "al",
    "s",
    "e",
    "y",
)
WORD = re.compile(r"[a-z0-9]+")


def stems(word: str) -> set[str]:
    """Every stem a blunt suffix stripper could give: `toggles` and `toggle` share `toggl`.

    Each applicable suffix is tried (twice over), so that `rotation`/`rotated` and
    `retries`/`retry` meet; a stem keeps at least three characters.
    """
    found = {word}
    frontier = {word}
    for _ in range(2):
        nxt = set()
        for w in frontier:
            for suffix in SUFFIXES:
                if w.endswith(suffix) and len(w) - len(suffix) >= 3:
                    nxt.add(w[: -len(suffix)])
        found |= nxt
        frontier = nxt
    return found


def content_words(text: str) -> set[str]:
    """The content words of a text, lowercased (file paths split at / . _ -)."""
    words = WORD.findall(text.lower().replace("'", ""))
    return {w for w in words if w not in STOP_WORDS}


def shared_words(query: str, memory_text: str) -> set[str]:
    """Query words sharing a stem with the memory's words, or one a prefix of the other (4+)."""
    memory_words = content_words(memory_text)
    memory_stems = set().union(*(stems(w) for w in memory_words)) if memory_words else set()
    shared = set()
    for word in content_words(query):
        mine = stems(word)
        if mine & memory_stems:
            shared.add(word)
            continue
        for a in mine:
            if len(a) >= 4 and any(
                b.startswith(a) or (len(b) >= 4 and a.startswith(b)) for b in memory_stems
            ):
                shared.add(word)
                break
    return shared


def memory_text(memory: dict[str, Any]) -> str:
    """Everything of a memory that search may read."""
    parts = [memory["title"], memory["narrative"]]
    for field in ("facts", "concepts", "files"):
        parts.extend(memory.get(field) or [])
    return "\n".join(parts)


class SetError(Exception):
    """A problem with the evaluation set, said in one line."""


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise SetError(f"{path.name}: missing")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SetError(f"{path.name}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise SetError(f"{path.name}:{number}: not a JSON object")
        row["_where"] = f"{path.name}:{number}"
        rows.append(row)
    return rows


def _str_list(value: Any, most: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) <= most
        and all(isinstance(v, str) and v.strip() for v in value)
    )


def check_memory(row: dict[str, Any], *, keyed: bool, max_age: float) -> None:
    where = row["_where"]
    allowed = {
        "_where",
        "key",
        "type",
        "title",
        "facts",
        "narrative",
        "concepts",
        "files",
        "age_days",
        "importance",
    }
    extra = sorted(set(row) - allowed)
    if extra:
        raise SetError(f"{where}: unknown field(s) {', '.join(extra)}")
    if keyed:
        if not isinstance(row.get("key"), str) or not KEY.match(row["key"]):
            raise SetError(f"{where}: key must match {KEY.pattern}")
    elif "key" in row:
        raise SetError(f"{where}: a distractor has no key")
    if row.get("type") not in TYPES:
        raise SetError(f"{where}: type must be one of {', '.join(sorted(TYPES))}")
    title = row.get("title")
    if not isinstance(title, str) or not title.strip() or len(title) > 90:
        raise SetError(f"{where}: title must be 1-90 characters")
    narrative = row.get("narrative")
    if not isinstance(narrative, str) or not narrative.strip():
        raise SetError(f"{where}: narrative must be a non-empty string")
    if not _str_list(row.get("facts", []), 4):
        raise SetError(f"{where}: facts must be a list of 0-4 strings")
    concepts = row.get("concepts", [])
    if not _str_list(concepts, 4) or not all(CONCEPT.match(c) for c in concepts):
        raise SetError(f"{where}: concepts must be 0-4 lowercase words")
    if not _str_list(row.get("files", []), 3) or any(
        f.startswith("/") or " " in f for f in row.get("files", [])
    ):
        raise SetError(f"{where}: files must be 0-3 relative repository paths")
    age = row.get("age_days")
    if isinstance(age, bool) or not isinstance(age, (int, float)) or not 0.1 <= age <= max_age:
        raise SetError(f"{where}: age_days must be a number from 0.1 to {max_age:g}")
    importance = row.get("importance")
    if importance is not None and (
        isinstance(importance, bool)
        or not isinstance(importance, (int, float))
        or not 0 <= importance <= 1
    ):
        raise SetError(f"{where}: importance must be a number from 0 to 1")


def check_query(
    row: dict[str, Any],
    keys: set[str],
    styles: frozenset[str] = STYLES,
    negative: frozenset[str] = frozenset({"offtopic"}),
) -> None:
    where = row["_where"]
    extra = sorted(set(row) - {"_where", "query", "relevant", "style"})
    if extra:
        raise SetError(f"{where}: unknown field(s) {', '.join(extra)}")
    if not isinstance(row.get("query"), str) or not row["query"].strip():
        raise SetError(f"{where}: query must be a non-empty string")
    style = row.get("style")
    if style not in styles:
        raise SetError(f"{where}: style must be one of {', '.join(sorted(styles))}")
    relevant = row.get("relevant")
    if not isinstance(relevant, list) or not all(isinstance(k, str) for k in relevant):
        raise SetError(f"{where}: relevant must be a list of keys")
    if (style in negative) != (not relevant):
        kinds = " and ".join(sorted(negative))
        raise SetError(f"{where}: {kinds} queries, and only they, have no relevant memory")
    unknown = [k for k in relevant if k not in keys]
    if unknown:
        raise SetError(f"{where}: unknown key(s) {', '.join(unknown)}")


def check(folder: Path = HERE) -> dict[str, Counter[str]]:
    """Check the set in `folder`; return counts by style and type, or raise SetError."""
    memories = read_jsonl(folder / "memories.jsonl")
    queries = read_jsonl(folder / "queries.jsonl")
    distractors = read_jsonl(folder / "distractors.jsonl")
    for row in memories:
        check_memory(row, keyed=True, max_age=400)
    for row in distractors:
        check_memory(row, keyed=False, max_age=700)
    keys = Counter(row["key"] for row in memories)
    doubled = sorted(k for k, n in keys.items() if n > 1)
    if doubled:
        raise SetError(f"memories.jsonl: duplicate key(s) {', '.join(doubled)}")
    by_key = {row["key"]: row for row in memories}
    for row in queries:
        check_query(row, set(by_key))
    prompts = read_jsonl(folder / "prompts.jsonl")
    for row in prompts:
        check_query(row, set(by_key), PROMPT_STYLES, NEGATIVE)
    texts = Counter(row["query"].strip().lower() for row in queries + prompts)
    repeated = sorted(q for q, n in texts.items() if n > 1)
    if repeated:
        raise SetError(f"queries.jsonl, prompts.jsonl: repeated query {repeated[0]!r}")
    titles = {row["title"].strip().lower() for row in memories}
    copied = [row["_where"] for row in distractors if row["title"].strip().lower() in titles]
    if copied:
        raise SetError(f"{copied[0]}: a distractor has a target's title")
    for row in queries:
        if row["style"] != "paraphrase":
            continue
        for key in row["relevant"]:
            shared = shared_words(row["query"], memory_text(by_key[key]))
            if shared:
                raise SetError(
                    f"{row['_where']}: paraphrase shares {', '.join(sorted(shared))} with {key}"
                )
    styles = Counter(row["style"] for row in queries)
    prompt_styles = Counter(row["style"] for row in prompts)
    labelled = sum(n for s, n in styles.items() if s != "offtopic")
    for what, have, least in (
        ("target memories", len(memories), MIN_TARGETS),
        ("labelled queries", labelled, MIN_LABELLED),
        ("off-topic queries", styles["offtopic"], MIN_OFFTOPIC),
        ("paraphrase queries", styles["paraphrase"], MIN_PARAPHRASE),
        ("answerable prompts", sum(1 for r in prompts if r["relevant"]), MIN_PROMPTS),
        ("unanswerable prompts", prompt_styles["unanswerable"], MIN_UNANSWERABLE),
        ("distractors", len(distractors), MIN_DISTRACTORS),
    ):
        if have < least:
            raise SetError(f"only {have} {what}; at least {least} are needed")
    answered = Counter(k for row in queries for k in row["relevant"])
    unasked = sorted(set(by_key) - set(answered))
    if unasked:
        raise SetError(f"no query has {unasked[0]} as an answer")
    return {
        "styles": styles,
        "prompt styles": prompt_styles,
        "types": Counter(row["type"] for row in memories),
        "distractor types": Counter(row["type"] for row in distractors),
        "queries per target": Counter(str(n) for n in answered.values()),
    }


def _line(counts: Counter[str]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))


def main(argv: Iterable[str] = ()) -> int:
    folder = Path(next(iter(argv), HERE))
    try:
        summary = check(folder)
    except SetError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    for name, counts in summary.items():
        print(f"{name} ({sum(counts.values())}): {_line(counts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
