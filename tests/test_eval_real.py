"""mem eval --suite real: what reaches the agent in a store of real text, on a tiny suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import mem
from .test_eval import write_jsonl

TARGETS = [
    {  # nothing beyond its title and facts: session start gives it whole
        "key": "r-pnpm",
        "type": "preference",
        "title": "Use pnpm in web/, never npm",
        "facts": ["a package-lock.json fails CI"],
        "narrative": "",
        "age_days": 20,
    },
    {  # its text is longer than session start shows of it
        "key": "r-redis-ttl",
        "type": "pattern",
        "title": "Cached lookups go through cached() with an explicit TTL",
        "facts": ["exchange rates expire after 3600 seconds"],
        "narrative": "\n".join(
            f"The helper in app/cache.py sets the expiry of the {name} lookups, counts their "
            "hits and misses for the Grafana board, and logs a warning on a slow Redis."
            for name in ("rates", "tax", "postcode", "shipping")
        ),
        "age_days": 30,
    },
    {
        "key": "r-celery-beat",
        "type": "gotcha",
        "title": "Only one celery beat may run: two replicas send every reminder twice",
        "facts": ["beat runs as its own Deployment"],
        "narrative": "Scaling the worker chart scaled beat with it; the weekly emails went twice.",
        "age_days": 40,
    },
]
BACKGROUND = [
    {
        "type": "discovery",
        "title": title,
        "narrative": title + ".",
        "age_days": age,
        "source": "pallets/flask:CHANGES.rst",
    }
    for title, age in [
        ("Redis connection pools close idle sockets after a timeout", 3),
        ("Add a lock timeout to the Redis client", 5),
        ("Celery beat supports a cron starting deadline", 8),
        ("The CLI shows the default value of an option in its help", 13),
        ("Fix a crash when a test function has no arguments", 21),
        ("Drop support for Python 3.8", 34),
    ]
]
PROMPTS = [
    {
        "query": "which tool adds a javascript dependency?",
        "relevant": ["r-pnpm"],
        "style": "question",
    },
    {
        "query": "Keep the exchange rates cached for an hour",
        "relevant": ["r-redis-ttl"],
        "style": "imperative",
    },
    {
        "query": "customers got the weekly reminder twice again",
        "relevant": ["r-celery-beat"],
        "style": "complaint",
    },
    {"query": "add a docstring to the OrderService class", "relevant": [], "style": "unanswerable"},
    {"query": "what is the capital of Peru?", "relevant": [], "style": "offtopic"},
]


@pytest.fixture
def suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """mem's eval folder with a tiny real-text suite in real/ (the generated one left empty)."""
    folder = tmp_path / "suite"
    real = folder / "real"
    real.mkdir(parents=True)
    (folder / "queries.jsonl").write_text("")
    write_jsonl(real / "memories.jsonl", TARGETS)
    write_jsonl(real / "background.jsonl", BACKGROUND)
    write_jsonl(real / "prompts.jsonl", PROMPTS)
    monkeypatch.setenv("MEM_EVAL_SUITE", str(folder))
    return real


def test_the_real_suite_reports_search_delivery_and_false_fires(suite: Path) -> None:
    report = json.loads(mem("eval", "--suite", "real", "--json").stdout)
    assert report["suite"] == "real"
    assert (report["memories"], report["labelled_memories"], report["prompts"]) == (9, 3, 5)
    start = report["session_start"]
    assert start["budget"] > 0 and start["labelled_whole"] == ["r-celery-beat", "r-pnpm"]
    modes = report["modes"]
    assert list(modes) == ["bm25", "lexical", "semantic", "hybrid"]  # the bundled model is on
    assert set(modes["bm25"]) == {"search"}  # recall never ranks by plain bm25
    lexical = modes["lexical"]
    assert list(lexical["search"]) == ["question", "imperative", "complaint"]
    assert list(lexical["delivered"]) == ["question", "imperative", "complaint"]
    assert list(lexical["within_reach"]) == ["question", "imperative", "complaint"]
    assert list(lexical["false_fires"]) == ["unanswerable", "offtopic"]
    # Shown whole at session start: delivered whether or not recall gives it again.
    assert lexical["delivered"]["question"]["all"] == {"hit": 1, "total": 1}
    assert lexical["false_fires"]["offtopic"]["all"] == {"hit": 0, "total": 1}
    assert set(start["labelled_whole"]) <= set(start["labelled_listed"])
    prompts = report["by_prompt"]
    assert [p["query"] for p in prompts] == [p["query"] for p in PROMPTS]
    for prompt in prompts:
        assert prompt["half"] in ("tune", "held-out") and set(prompt["modes"]) == set(modes)
        assert isinstance(prompt["modes"]["lexical"]["recalled"], list)
        assert ("delivered" in prompt["modes"]["lexical"]) == bool(prompt["relevant"])
    assert prompts[0]["relevant"] == ["r-pnpm"] and prompts[0]["modes"]["lexical"]["delivered"]
    whole = set(start["labelled_whole"])
    for mode in ("lexical", "semantic", "hybrid"):  # in reach: whole at start, or found
        for style in ("question", "imperative", "complaint"):
            reach = [
                p
                for p in prompts
                if p["style"] == style
                and (p["modes"][mode]["rank"] is not None or set(p["relevant"]) & whole)
            ]
            assert modes[mode]["within_reach"][style]["all"]["hit"] == len(reach)
    for mode in modes.values():
        for table in mode.values():
            for halves in table.values():
                assert halves["tune"]["total"] + halves["held-out"]["total"] == 1
                assert halves["all"]["hit"] == halves["tune"]["hit"] + halves["held-out"]["hit"]


def test_the_real_suite_prints_tables_and_measures_without_a_model(suite: Path) -> None:
    text = mem("eval", "--suite", "real", "--model", "none").stdout
    assert "search: a right memory in the top 5" in text
    assert "delivered: a right memory reaches the agent" in text
    assert "within reach: session start gives a right memory whole" in text
    assert "false fires" in text and "held-out" in text
    assert "  unanswerable  lexical" in text and "bm25" in text
    assert "r-pnpm" in text  # named as given whole at session start


def test_a_suite_and_a_queries_file_together_are_a_usage_error(suite: Path, tmp_path: Path) -> None:
    queries = tmp_path / "q.jsonl"
    write_jsonl(queries, PROMPTS[:1])
    result = mem("eval", str(queries), "--suite", "real", expect=2)
    assert "--suite" in result.output


def test_a_missing_real_suite_is_one_clear_error(suite: Path) -> None:
    (suite / "background.jsonl").unlink()
    result = mem("eval", "--suite", "real", expect=1)
    assert "background.jsonl" in result.output and "Traceback" not in result.output


def test_a_memory_session_start_shows_clipped_is_not_delivered_whole(suite: Path) -> None:
    long_fact = "the lockfile is pnpm-lock.yaml; " * 12  # clipped at session start
    write_jsonl(suite / "memories.jsonl", [{**TARGETS[0], "facts": [long_fact]}, *TARGETS[1:]])
    report = json.loads(mem("eval", "--suite", "real", "--json").stdout)
    start = report["session_start"]
    assert "r-pnpm" in start["labelled_listed"] and "r-pnpm" not in start["labelled_whole"]
