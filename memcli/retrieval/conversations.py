"""``mem eval --suite conversations``: search over long conversations, one memory a turn.

The set (``conversations/`` of the eval suite) has LoCoMo's shape in two JSON-lines
files. ``turns.jsonl``: one line a turn of a conversation between two people,
``{"conversation", "session", "date", "id", "speaker", "text"}`` (``date`` the
session's day, ``id`` unique in its conversation). ``questions.jsonl``: one line a
question, ``{"conversation", "question", "answer", "evidence": [turn ids], "category"}``.

Each conversation is written into a store of its own, one memory a turn, dated by
its session (the last session a day before the run), and its questions are
searched in it alone, as LoCoMo's retrieval evals search within one conversation.
The measures of ``memcli.retrieval.evaluation`` are summed over every question of
every conversation, for each mode beside plain bm25, and by category.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memcli.core.errors import InvalidInput
from memcli.retrieval.evaluation import (
    BASELINE,
    Query,
    Report,
    Scores,
    open_suite_store,
    rank,
    read_jsonl,
)

TURNS = "turns.jsonl"
QUESTIONS = "questions.jsonl"
TITLE_CHARS = 80


@dataclass(frozen=True)
class Turn:
    id: str
    session: int
    date: dt.date
    speaker: str
    text: str


@dataclass
class Conversation:
    name: str
    turns: list[Turn] = field(default_factory=list)
    questions: list[Query] = field(default_factory=list)
    """``relevant`` holds turn ids here (memory ids once the store is built)."""


# ------------------------------------------------------------------ reading


def read_conversations(folder: Path) -> list[Conversation]:
    """The conversations of ``folder``, each with its turns and questions, checked."""
    conversations: dict[str, Conversation] = {}
    seen: dict[str, set[str]] = {}
    for number, value in read_jsonl(folder / TURNS):
        turn, name = _turn(value, f"{folder / TURNS}:{number}")
        conversation = conversations.setdefault(name, Conversation(name))
        if turn.id in seen.setdefault(name, set()):
            raise InvalidInput(f"{folder / TURNS}:{number}: turn {turn.id!r} is there twice")
        seen[name].add(turn.id)
        conversation.turns.append(turn)
    for number, value in read_jsonl(folder / QUESTIONS):
        where = f"{folder / QUESTIONS}:{number}"
        which, text = value.get("conversation"), value.get("question")
        evidence, category = value.get("evidence"), value.get("category")
        if not isinstance(which, str) or which not in conversations:
            raise InvalidInput(f"{where}: no conversation {which!r} in {TURNS}")
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput(f"{where}: question must be a non-empty string")
        if not isinstance(category, str) or not category:
            raise InvalidInput(f"{where}: category must be a non-empty string")
        conversation = conversations[which]
        known = _ids(conversation)
        if (
            not isinstance(evidence, list)
            or not evidence
            or not all(isinstance(e, str) and e in known for e in evidence)
        ):
            raise InvalidInput(f"{where}: evidence must list turn ids of conversation {which!r}")
        conversation.questions.append(Query(text, tuple(dict.fromkeys(evidence)), category))
    if not any(c.questions for c in conversations.values()):
        raise InvalidInput(f"{folder} holds no questions")
    return list(conversations.values())


def _ids(conversation: Conversation) -> set[str]:
    return {t.id for t in conversation.turns}


def _turn(value: dict[str, Any], where: str) -> tuple[Turn, str]:
    try:
        name, turn_id = value["conversation"], value["id"]
        speaker, text = value["speaker"], value["text"]
        if not all(isinstance(s, str) and s.strip() for s in (name, turn_id, speaker, text)):
            raise ValueError("conversation, id, speaker and text must be non-empty strings")
        session = value["session"]
        if not isinstance(session, int) or session < 1:
            raise ValueError("session must be a whole number from 1")
        date = dt.date.fromisoformat(str(value["date"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"{where}: not a turn of a conversation ({exc})") from None
    return Turn(turn_id, session, date, speaker, text), name


# ---------------------------------------------------------------- the stores


def build_conversation_store(
    conversation: Conversation, root: Path, moment: dt.datetime
) -> dict[str, str]:
    """A new store at ``root``, one memory a turn; each turn id's memory id.

    Sessions keep their spacing, the last one a day before ``moment``; the turns
    of a session are a minute apart.
    """
    from memcli.core.ids import new_ulid
    from memcli.core.model import Observation
    from memcli.core.text import clip
    from memcli.core.timeutil import format_timestamp
    from memcli.store.files import Store

    store = Store(root)
    store.create()
    store.git.run(["config", "gc.auto", "0"])
    last = max(t.date for t in conversation.turns)
    paths, ids = [], {}
    for n, turn in enumerate(conversation.turns):
        created = moment - dt.timedelta(days=(last - turn.date).days + 1) + dt.timedelta(minutes=n)
        line = f"{turn.speaker}: {turn.text}"
        record = Observation(
            id=new_ulid(int(created.timestamp() * 1000)),
            type="context",
            title=clip(line, TITLE_CHARS),
            created=format_timestamp(created),
            narrative=line,
        )
        path = store.new_path(record)
        store.write_file(path, record.to_markdown().encode("utf-8"))
        paths.append(path)
        ids[turn.id] = record.id
    with store.write_lock():
        store.commit(paths, [], f"eval conversation {conversation.name}: {len(paths)} turns")
    return ids


# ------------------------------------------------------------------ running

ChooseModes = Callable[[Any, dict[str, dict[str, Any]]], list[str]]
"""Given the first conversation's Memory and settings, the modes to measure."""


def evaluate_conversations(
    folder: Path,
    model: str | None,
    choose: ChooseModes,
    notify: Callable[[str], None],
) -> Report:
    """Every conversation of ``folder`` in its own temporary store, its questions searched in
    it; the measures summed over all questions, for each mode beside plain bm25.

    ``model``: the semantic model to measure with (``"none"`` for none); by default the
    settings' ``[semantic] model``, as for any store.
    """
    from memcli.core.timeutil import now
    from memcli.retrieval.search import Searcher

    conversations = read_conversations(folder)
    moment = now()
    report = Report(0, [])
    modes: Sequence[str] = ()
    for conversation in conversations:
        with tempfile.TemporaryDirectory(prefix="mem-eval-") as temporary:
            root = Path(temporary) / "store"
            ids = build_conversation_store(conversation, root, moment)
            memory, settings = open_suite_store(root, model, notify)
            modes = modes or choose(memory, settings)
            searcher = Searcher(memory, settings)
            report.semantic = report.semantic or searcher.semantic_line()
            report.memories += len(ids)
            queries = [
                Query(q.text, tuple(ids[e] for e in q.relevant), q.style)
                for q in conversation.questions
            ]
            report.queries += queries
            for mode in [BASELINE, *modes]:
                total = report.scores.setdefault(mode, Scores())
                styles = report.by_style.setdefault(mode, {})
                for query in queries:
                    ranked = rank(searcher, query.text, mode, moment)
                    total.add(ranked, query.relevant)
                    styles.setdefault(query.style, Scores()).add(ranked, query.relevant)
    return report
