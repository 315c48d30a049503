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


def check_memory(
    row: dict[str, Any], *, keyed: bool, max_age: float, more: frozenset[str] = frozenset()
) -> None:
    where = row["_where"]
    allowed = more | {
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


def keyed(memories: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The labelled memories by key; SetError when a key is used twice."""
    keys = Counter(row["key"] for row in memories)
    doubled = sorted(k for k, n in keys.items() if n > 1)
    if doubled:
        raise SetError(f"memories.jsonl: duplicate key(s) {', '.join(doubled)}")
    return {row["key"]: row for row in memories}


def first_repeat(queries: list[dict[str, Any]]) -> str | None:
    """A query text (lowercased) that appears more than once, if any."""
    texts = Counter(row["query"].strip().lower() for row in queries)
    return next(iter(sorted(q for q, n in texts.items() if n > 1)), None)


def title_copied(memories: list[dict[str, Any]], others: list[dict[str, Any]]) -> str | None:
    """Where one of ``others`` repeats a labelled memory's title, if any does."""
    titles = {row["title"].strip().lower() for row in memories}
    return next((r["_where"] for r in others if r["title"].strip().lower() in titles), None)


def check(folder: Path = HERE) -> dict[str, Counter[str]]:
    """Check the set in `folder`; return counts by style and type, or raise SetError."""
    memories = read_jsonl(folder / "memories.jsonl")
    queries = read_jsonl(folder / "queries.jsonl")
    distractors = read_jsonl(folder / "distractors.jsonl")
    for row in memories:
        check_memory(row, keyed=True, max_age=400)
    for row in distractors:
        check_memory(row, keyed=False, max_age=700)
    by_key = keyed(memories)
    for row in queries:
        check_query(row, set(by_key))
    prompts = read_jsonl(folder / "prompts.jsonl")
    for row in prompts:
        check_query(row, set(by_key), PROMPT_STYLES, NEGATIVE)
    repeated = first_repeat(queries + prompts)
    if repeated:
        raise SetError(f"queries.jsonl, prompts.jsonl: repeated query {repeated!r}")
    copied = title_copied(memories, distractors)
    if copied:
        raise SetError(f"{copied}: a distractor has a target's title")
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


REAL = "real"
"""The suite whose other memories are real engineering text (``eval/real/``)."""
REAL_STYLES = frozenset({"question", "imperative", "complaint", "unanswerable", "offtopic"})
REAL_MINIMUM = {
    "question": 31,
    "imperative": 20,
    "complaint": 10,
    "unanswerable": 20,
    "offtopic": 10,
}
MIN_BACKGROUND = 2000
MIN_IN_DOMAIN_WORDS = 2
"""An unanswerable prompt holds at least this many words of the background's text."""
MAX_BACKGROUND_BYTES = 1_500_000
SOURCE = re.compile(r"^([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+):[^\s:]+$")


def check_real(folder: Path) -> dict[str, Counter[str]]:
    """Check the real-text suite in ``folder``; counts by style, type and source, or SetError.

    Its background memories are sentences from public projects' changelogs, each
    naming its ``source`` (``owner/name:path``, the project listed in SOURCES.md);
    its prompts are written to the labelled targets of ``memories.jsonl``.
    """
    memories = read_jsonl(folder / "memories.jsonl")
    background = read_jsonl(folder / "background.jsonl")
    prompts = read_jsonl(folder / "prompts.jsonl")
    size = (folder / "background.jsonl").stat().st_size
    if size > MAX_BACKGROUND_BYTES:
        raise SetError(f"background.jsonl: {size:,} bytes; at most {MAX_BACKGROUND_BYTES:,}")
    sources_md = folder / "SOURCES.md"
    listed = sources_md.read_text(encoding="utf-8") if sources_md.is_file() else ""
    for row in memories:
        check_memory(row, keyed=True, max_age=400)
    for row in background:
        check_memory(row, keyed=False, max_age=700, more=frozenset({"source"}))
        match = SOURCE.match(str(row.get("source", "")))
        if match is None:
            raise SetError(f"{row['_where']}: source must be owner/name:path")
        if match.group(1) not in listed:
            raise SetError(f"{row['_where']}: {match.group(1)} is not in SOURCES.md")
    by_key = keyed(memories)
    for row in prompts:
        check_query(row, set(by_key), REAL_STYLES, NEGATIVE)
    repeated = first_repeat(prompts)
    if repeated:
        raise SetError(f"prompts.jsonl: repeated prompt {repeated!r}")
    copied = title_copied(memories, background)
    if copied:
        raise SetError(f"{copied}: a background memory has a target's title")
    styles = Counter(row["style"] for row in prompts)
    for style, least in REAL_MINIMUM.items():
        if styles[style] < least:
            raise SetError(f"only {styles[style]} {style} prompts; at least {least} are needed")
    if len(background) < MIN_BACKGROUND:
        raise SetError(f"only {len(background)} background memories; at least {MIN_BACKGROUND}")
    answered = Counter(k for row in prompts for k in row["relevant"])
    unasked = sorted(set(by_key) - set(answered))
    if unasked:
        raise SetError(f"no prompt has {unasked[0]} as an answer")
    vocabulary = set().union(*(content_words(row["narrative"]) for row in background))
    for row in prompts:
        held = content_words(row["query"]) & vocabulary
        if row["style"] == "unanswerable" and len(held) < MIN_IN_DOMAIN_WORDS:
            raise SetError(
                f"{row['_where']}: an unanswerable prompt must be in the background's words "
                f"(at least {MIN_IN_DOMAIN_WORDS} of them; it has {len(held)})"
            )
    disjoint = Counter(
        row["style"]
        for row in prompts
        if row["relevant"]
        and not any(shared_words(row["query"], memory_text(by_key[k])) for k in row["relevant"])
    )
    return {
        "prompt styles": styles,
        "sharing no word with their answer": disjoint,
        "types": Counter(row["type"] for row in memories),
        "background sources": Counter(row["source"].split(":")[0] for row in background),
    }


def _line(counts: Counter[str]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))


def main(argv: Iterable[str] = ()) -> int:
    """Check ``eval/`` and its ``real/`` suite, or the one folder given (a real-text suite
    when it holds background.jsonl)."""
    given = next(iter(argv), None)
    folders = [Path(given)] if given else [HERE, HERE / REAL]
    for folder in folders:
        real = (folder / "background.jsonl").is_file()
        try:
            summary = check_real(folder) if real else check(folder)
        except SetError as exc:
            print(f"Error: {folder.name}/{exc}" if real else f"Error: {exc}", file=sys.stderr)
            return 1
        if len(folders) > 1:
            print(f"[{folder.relative_to(HERE.parent)}]")
        for name, counts in summary.items():
            print(f"{name} ({sum(counts.values())}): {_line(counts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
