"""mem eval: measures, the suite, and a user's own queries file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memcli.retrieval.metrics import ndcg_at, recall_at, reciprocal_rank

from .conftest import mem

ids = st.lists(st.sampled_from("abcdefghij"), unique=True, max_size=10)


@given(ids, ids)
def test_measures_lie_between_zero_and_one(ranked: list[str], relevant: list[str]) -> None:
    for value in (
        recall_at(ranked, relevant, 5),
        recall_at(ranked, relevant, 10),
        reciprocal_rank(ranked, relevant, 10),
        ndcg_at(ranked, relevant, 10),
    ):
        assert 0.0 <= value <= 1.0 + 1e-12
    assert recall_at(ranked, relevant, 5) <= recall_at(ranked, relevant, 10)


@given(ids)
def test_a_perfect_ranking_scores_one(relevant: list[str]) -> None:
    if relevant:
        assert ndcg_at(relevant, relevant, 10) == pytest.approx(1.0)
        assert reciprocal_rank(relevant, relevant, 10) == 1.0
        assert recall_at(relevant, relevant, 10) == 1.0


def test_measures_on_a_known_ranking() -> None:
    assert reciprocal_rank(["x", "a", "y"], {"a"}, 10) == 0.5
    assert recall_at(["x", "a", "y", "b"], {"a", "b", "c"}, 2) == pytest.approx(1 / 3)
    assert ndcg_at(["x", "a"], {"a"}, 10) == pytest.approx(1 / 1.5849625007211563)


SUITE_MEMORIES = [
    {
        "key": "t-upload",
        "type": "gotcha",
        "title": "Upload failures come from the presigned URL expiry",
        "narrative": "Uploads to S3 fail after one minute: the presigned URL lasts 60 seconds.",
        "age_days": 30,
    },
    {
        "key": "t-flags",
        "type": "decision",
        "title": "Flags live in Unleash",
        "narrative": "Feature flags are read from Unleash, never from env vars.",
        "age_days": 40,
    },
]
SUITE_DISTRACTORS = [
    {
        "type": "discovery",
        "title": "Upload spinner",
        "narrative": "Upload page spinner.",
        "age_days": 9,
    },
    {
        "type": "pattern",
        "title": "CI caches wheels",
        "narrative": "Cache key: lock file.",
        "age_days": 3,
    },
]
SUITE_QUERIES = [
    {"query": "why do uploads fail after a minute?", "relevant": ["t-upload"], "style": "question"},
    {
        "query": "where do feature flags live and get read?",
        "relevant": ["t-flags"],
        "style": "question",
    },
    {"query": "write a haiku about autumn", "relevant": [], "style": "offtopic"},
]


SUITE_PROMPTS = [
    {"query": "Make the upload URL last longer", "relevant": ["t-upload"], "style": "imperative"},
    {"query": "Move the flags out of Unleash", "relevant": ["t-flags"], "style": "imperative"},
    {"query": "extract this block into a helper", "relevant": [], "style": "unanswerable"},
    {"query": "what is the capital of Peru?", "relevant": [], "style": "offtopic"},
]


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


@pytest.fixture
def suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    write_jsonl(folder / "memories.jsonl", SUITE_MEMORIES)
    write_jsonl(folder / "distractors.jsonl", SUITE_DISTRACTORS)
    write_jsonl(folder / "queries.jsonl", SUITE_QUERIES)
    write_jsonl(folder / "prompts.jsonl", SUITE_PROMPTS)
    monkeypatch.setenv("MEM_EVAL_SUITE", str(folder))
    return folder


def test_the_suite_is_measured_beside_plain_bm25(suite: Path) -> None:
    report = json.loads(mem("eval", "--json").stdout)
    assert (report["memories"], report["queries"], report["offtopic"]) == (4, 2, 1)
    # mem's bundled model is on: each mode is measured.
    assert set(report["modes"]) == {"bm25", "lexical", "semantic", "hybrid"}
    assert report["modes"]["lexical"]["recall@10"] == 1.0
    gate = report["recall"]["lexical"]
    assert gate["offtopic"] == 3 and gate["offtopic_answered"] == 0  # prompts.jsonl has 2
    # Four memories: session start shows them all in full, so recall never repeats them.
    assert gate["hit_rate"] == 1.0 and gate["answered"] == 0
    text = mem("eval", "--by-style").stdout
    assert "recall@10" in text and "lexical recall@10 vs bm25" in text and "question" in text


def test_the_gate_is_reported_by_style_and_half(suite: Path) -> None:
    from memcli.retrieval.evaluation import half

    report = json.loads(mem("eval", "--json").stdout)
    assert report["gate_prompts"] == len(SUITE_QUERIES) + len(SUITE_PROMPTS)
    styles = report["recall"]["lexical"]["by_style"]
    assert list(styles) == [
        "imperative",
        "question",
        "answerable",
        "not paraphrase",
        "agents' prompts",
        "offtopic",
        "unanswerable",
    ]
    imperative = styles["imperative"]
    # A few memories: session start shows them in full, recall need not repeat them.
    assert imperative["labelled"] and imperative["all"] == {
        "prompts": 2,
        "answered": 0,
        "shown": 2,
        "rate": 1.0,
    }
    for name, tally in styles.items():
        halves = [tally[h]["prompts"] for h in ("tune", "held-out")]
        assert sum(halves) == tally["all"]["prompts"], name
    prompts = [row["query"] for row in SUITE_QUERIES + SUITE_PROMPTS]
    assert styles["offtopic"]["all"]["prompts"] == 2
    assert not styles["offtopic"]["labelled"] and styles["unanswerable"]["all"]["rate"] == 0.0
    held_out = sum(half(text) == "held-out" for text in prompts)
    assert (
        styles["answerable"]["held-out"]["prompts"]
        + sum(styles[s]["held-out"]["prompts"] for s in ("offtopic", "unanswerable"))
        == held_out
    )
    text = mem("eval").stdout
    assert "tune" in text and "held-out" in text and "false fires (nothing answers)" in text
    assert "  imperative" in text and "  unanswerable" in text


def test_the_split_is_fixed_and_near_even_on_the_suite() -> None:
    from memcli.retrieval.evaluation import HALVES, half

    from .conftest import REPO_ROOT

    rows = (REPO_ROOT / "eval" / "prompts.jsonl").read_text().splitlines()
    texts = [json.loads(row)["query"] for row in rows]
    halves = [half(text) for text in texts]
    assert halves == [half(text) for text in texts] and set(halves) == set(HALVES)
    assert 0.4 < halves.count("held-out") / len(halves) < 0.6


def test_a_users_queries_file_runs_on_their_store(store: Path, tmp_path: Path) -> None:
    mem("save", "Feature flags are read from Unleash.", "--title", "Flags", "--key", "flags")
    queries = tmp_path / "q.jsonl"
    write_jsonl(queries, [{"query": "where do feature flags live?", "relevant": ["flags"]}])
    report = json.loads(mem("eval", str(queries), "--json").stdout)
    assert report["modes"]["lexical"]["mrr@10"] == 1.0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json\n", "q.jsonl:1: not valid JSON"),
        ("[1, 2]\n", "q.jsonl:1: each line must be a JSON object"),
        ('{"query": "x", "relevant": ["no-such-key"]}\n', "q.jsonl:1: no memory has the key"),
        ('{"query": "", "relevant": []}\n', "q.jsonl:1: query must be a non-empty string"),
        ('{"query": "x", "relevant": "flags"}\n', "q.jsonl:1: relevant must be a list"),
        ("\n", "holds no queries"),
    ],
)
def test_a_bad_queries_file_is_one_clear_error(
    store: Path, tmp_path: Path, content: str, message: str
) -> None:
    mem("save", "Feature flags are read from Unleash.", "--title", "Flags", "--key", "flags")
    queries = tmp_path / "q.jsonl"
    queries.write_text(content)
    result = mem("eval", str(queries), expect=1)
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("kind", ["device", "fifo", "nested"])
def test_a_queries_file_is_bounded(store: Path, tmp_path: Path, kind: str) -> None:
    import os

    if kind == "device":
        path = Path("/dev/zero")
    elif kind == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)  # reading it would wait for ever
    else:
        path = tmp_path / "nested.jsonl"
        path.write_text('{"query": "x", "relevant": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    result = mem("eval", str(path), expect=1)
    assert result.output.startswith("Error:") and "Traceback" not in result.output
