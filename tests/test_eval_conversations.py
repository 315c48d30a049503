"""mem eval --suite conversations: one store a conversation, one memory a turn."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .conftest import REPO_ROOT, mem


def turn(conversation: str, session: int, n: int, speaker: str, text: str) -> dict[str, Any]:
    return {
        "conversation": conversation,
        "session": session,
        "date": f"2023-0{session}-10",
        "id": f"D{session}:{n}",
        "speaker": speaker,
        "text": text,
    }


TURNS = [
    turn("ada-bo", 1, 1, "Ada", "We adopted a ginger kitten called Pumpkin."),
    turn("ada-bo", 1, 2, "Bo", "Lovely. My sourdough starter died again."),
    turn("ada-bo", 2, 1, "Ada", "Pumpkin knocked the sourdough jar off the shelf."),
    turn("ada-bo", 2, 2, "Bo", "I am training for a marathon in Berlin."),
    # Another conversation that answers the first one's question better: it is never searched
    # for that question.
    turn("cy-di", 1, 1, "Cy", "Our kitten Pumpkin is ginger, adopted kitten Pumpkin."),
    turn("cy-di", 1, 2, "Di", "Nice."),
]
QUESTIONS = [
    # Found first by every mode.
    {
        "conversation": "ada-bo",
        "question": "Which ginger kitten was adopted?",
        "answer": "Pumpkin",
        "evidence": ["D1:1"],
        "category": "single-hop",
    },
    # Shares no word with any turn: found by none.
    {
        "conversation": "ada-bo",
        "question": "Which zoo animal scares Ada?",
        "answer": "none",
        "evidence": ["D2:2"],
        "category": "open-domain",
    },
]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


@pytest.fixture
def suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "suite"
    (folder / "conversations").mkdir(parents=True)
    (folder / "queries.jsonl").write_text("")
    write_jsonl(folder / "conversations" / "turns.jsonl", TURNS)
    write_jsonl(folder / "conversations" / "questions.jsonl", QUESTIONS)
    monkeypatch.setenv("MEM_EVAL_SUITE", str(folder))
    return folder


def test_each_conversation_is_searched_alone_beside_plain_bm25(suite: Path) -> None:
    report = json.loads(mem("eval", "--suite", "conversations", "--json").stdout)
    assert (report["memories"], report["queries"], report["offtopic"]) == (6, 2, 0)
    assert set(report["modes"]) == {"bm25", "lexical", "semantic", "hybrid"}  # the model is on
    for mode in ("bm25", "lexical"):
        # One question found first (its conversation's other kitten turn is in another store),
        # one found by nothing: every measure is one half.
        assert report["modes"][mode] == {
            "recall@5": 0.5,
            "recall@10": 0.5,
            "mrr@10": 0.5,
            "ndcg@10": 0.5,
        }
        by_category = report["by_style"][mode]
        assert by_category["single-hop"]["recall@10"] == 1.0
        assert by_category["open-domain"]["recall@10"] == 0.0


def test_the_report_is_printed_by_mode_and_category(suite: Path) -> None:
    text = mem("eval", "--suite", "conversations", "--by-style").stdout
    assert "2 labelled queries" in text and "over 6 memories" in text
    rows = [line.split() for line in text.splitlines() if line.strip()]
    head = rows.index(["mode", "recall@5", "recall@10", "mrr@10", "ndcg@10"])
    assert rows[head + 1 : head + 3] == [
        ["bm25", "0.500", "0.500", "0.500", "0.500"],
        ["lexical", "0.500", "0.500", "0.500", "0.500"],
    ]
    # --by-style: recall@10 by category of question.
    assert ["recall@10", "open-domain", "single-hop"] in rows
    assert ["lexical", "0.000", "1.000"] in rows


def test_semantic_search_can_be_turned_off(suite: Path) -> None:
    result = mem("eval", "--suite", "conversations", "--model", "none", "--json")
    report = json.loads(result.stdout)
    assert set(report["modes"]) == {"bm25", "lexical"}
    assert report["semantic"].startswith("lexical only")


def test_a_mode_can_be_chosen(suite: Path) -> None:
    report = json.loads(
        mem("eval", "--suite", "conversations", "--mode", "lexical", "--json").stdout
    )
    assert set(report["modes"]) == {"bm25", "lexical"}


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ({"evidence": ["D9:9"]}, "questions.jsonl:1: evidence must list turn ids"),
        ({"evidence": []}, "questions.jsonl:1: evidence must list turn ids"),
        ({"conversation": "nobody"}, "questions.jsonl:1: no conversation 'nobody'"),
        ({"question": ""}, "questions.jsonl:1: question must be a non-empty string"),
    ],
)
def test_a_bad_question_is_one_clear_error(
    suite: Path, question: dict[str, Any], message: str
) -> None:
    write_jsonl(suite / "conversations" / "questions.jsonl", [QUESTIONS[0] | question])
    result = mem("eval", "--suite", "conversations", expect=1)
    assert message in result.output and "Traceback" not in result.output


def test_a_turn_given_twice_is_refused(suite: Path) -> None:
    write_jsonl(suite / "conversations" / "turns.jsonl", [*TURNS, TURNS[0]])
    result = mem("eval", "--suite", "conversations", expect=1)
    assert "turns.jsonl:7: turn 'D1:1' is there twice" in result.output


def test_a_bad_date_is_one_clear_error(suite: Path) -> None:
    write_jsonl(suite / "conversations" / "turns.jsonl", [TURNS[0] | {"date": "last week"}])
    result = mem("eval", "--suite", "conversations", expect=1)
    assert "turns.jsonl:1: not a turn of a conversation" in result.output


def test_a_suite_takes_no_queries_file(suite: Path, tmp_path: Path) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"query": "x", "relevant": []}\n')
    result = mem("eval", str(queries), "--suite", "conversations", expect=2)
    assert "--suite" in result.output


def _check_module() -> ModuleType:
    """eval/check_conversations.py, loaded from the checkout."""
    path = REPO_ROOT / "eval" / "check_conversations.py"
    spec = importlib.util.spec_from_file_location("eval_check_conversations", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_set_passes_its_checks() -> None:
    module = _check_module()
    assert module.check() == []


def test_the_check_names_evidence_outside_its_conversation(suite: Path) -> None:
    module = _check_module()
    write_jsonl(
        suite / "conversations" / "questions.jsonl", [QUESTIONS[0] | {"evidence": ["D7:7"]}]
    )
    problems = module.check(suite / "conversations")
    assert "questions.jsonl:1: evidence names a turn not in conversation ada-bo" in problems
