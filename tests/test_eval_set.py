"""The labelled retrieval evaluation set in eval/: valid, hard, and reproducible."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import REPO_ROOT

EVAL = REPO_ROOT / "eval"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"eval_{name}", EVAL / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


check = _load("check")
make_distractors = _load("make_distractors")


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the set with its first 200 distractors, for breaking."""
    for name in ("memories.jsonl", "queries.jsonl", "prompts.jsonl"):
        shutil.copy(EVAL / name, tmp_path / name)
    _write(tmp_path / "distractors.jsonl", _rows(EVAL / "distractors.jsonl")[:200])
    return tmp_path


def test_the_committed_set_passes_its_checks() -> None:
    summary = check.check(EVAL)
    styles = summary["styles"]
    assert sum(n for s, n in styles.items() if s != "offtopic") >= 150
    assert styles["offtopic"] >= 20
    assert styles["paraphrase"] >= 50
    assert sum(summary["distractor types"].values()) >= 3000
    assert set(summary["types"]) == check.TYPES
    prompts = summary["prompt styles"]
    assert sum(n for s, n in prompts.items() if s not in check.NEGATIVE) >= 80
    assert prompts["unanswerable"] >= 40 and prompts["imperative"] >= 40


def test_the_command_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert check.main([str(EVAL)]) == 0
    assert "paraphrase" in capsys.readouterr().out


def test_the_distractors_are_what_the_generator_writes() -> None:
    rows = make_distractors.generate(avoid=make_distractors.target_titles(EVAL))
    assert rows == _rows(EVAL / "distractors.jsonl")


def test_no_distractor_repeats_a_target_title() -> None:
    titles = {row["title"].lower() for row in _rows(EVAL / "memories.jsonl")}
    assert not titles & {row["title"].lower() for row in _rows(EVAL / "distractors.jsonl")}


@pytest.mark.parametrize(
    ("file", "change", "message"),
    [
        ("queries.jsonl", lambda r: r[0].update(relevant=["t-nowhere"]), "unknown key"),
        ("queries.jsonl", lambda r: r[0].update(style="rant"), "style must be"),
        ("queries.jsonl", lambda r: r[0].update(relevant=[]), "only they"),
        ("memories.jsonl", lambda r: r[1].update(key=r[0]["key"]), "duplicate key"),
        ("memories.jsonl", lambda r: r[0].update(type="note"), "type must be"),
        ("memories.jsonl", lambda r: r[0].update(title="x" * 91), "title must be"),
        ("memories.jsonl", lambda r: r[0].update(facts=["a"] * 5), "facts must be"),
        ("memories.jsonl", lambda r: r[0].update(age_days=0), "age_days"),
        ("memories.jsonl", lambda r: r[0].update(importance=2), "importance"),
        ("distractors.jsonl", lambda r: r[0].update(key="d-1"), "no key"),
        ("distractors.jsonl", lambda r: None, "only 200 distractors"),
        ("prompts.jsonl", lambda r: r[0].update(style="paraphrase"), "style must be"),
        ("prompts.jsonl", lambda r: r[0].update(relevant=[]), "only they"),
        ("prompts.jsonl", lambda r: r[-1].update(relevant=["t-upload-timeout"]), "only they"),
        ("prompts.jsonl", lambda r: r[0].update(relevant=["t-nowhere"]), "unknown key"),
        ("prompts.jsonl", lambda r: r[1].update(query=r[0]["query"]), "repeated query"),
        ("prompts.jsonl", lambda r: r.__setitem__(slice(0, 80), []), "answerable prompts"),
    ],
)
def test_a_broken_set_is_refused_in_one_line(
    copy: Path, file: str, change: Any, message: str
) -> None:
    _break(copy / file, change)
    with pytest.raises(check.SetError, match=message):
        check.check(copy)


def _break(path: Path, change: Any) -> None:
    rows = _rows(path)
    change(rows)
    _write(path, rows)


def test_a_paraphrase_sharing_a_stem_with_its_target_is_refused(copy: Path) -> None:
    memories = {row["key"]: row for row in _rows(copy / "memories.jsonl")}
    queries = _rows(copy / "queries.jsonl")
    first = next(q for q in queries if q["style"] == "paraphrase")
    title_word = check.content_words(memories[first["relevant"][0]]["title"]).pop()
    first["query"] += f" {title_word}s"
    _write(copy / "queries.jsonl", queries)
    with pytest.raises(check.SetError, match="paraphrase shares"):
        check.check(copy)


def test_a_line_that_is_not_json_is_named(copy: Path) -> None:
    with (copy / "queries.jsonl").open("a", encoding="utf-8") as out:
        out.write("{not json\n")
    with pytest.raises(check.SetError, match=r"queries.jsonl:\d+: not JSON"):
        check.check(copy)
    assert check.main([str(copy)]) == 1


@pytest.mark.parametrize(
    ("query", "memory", "shared"),
    [
        ("where are feature toggles configured?", "Flags live in Unleash", set()),
        ("toggle", "toggles", {"toggle"}),
        ("rotation of keys", "keys rotated daily", {"rotation", "keys"}),
        ("retry", "retries", {"retry"}),
        ("auth", "authentication", {"auth"}),
        ("ops", "operations", set()),
        ("config", "configuration", {"config"}),
        ("what is in src/upload/client.py", "the upload client", {"upload", "client"}),
    ],
)
def test_shared_words(query: str, memory: str, shared: set[str]) -> None:
    assert check.shared_words(query, memory) == shared


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=20))
def test_every_stem_is_a_prefix_of_its_word(word: str) -> None:
    stems = check.stems(word)
    assert word in stems
    assert all(word.startswith(s) and (len(s) >= 3 or s == word) for s in stems)


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=80))
def test_a_text_shares_every_content_word_with_itself(text: str) -> None:
    assert check.shared_words(text, text) == check.content_words(text)


REAL = EVAL / "real"


def test_the_real_text_suite_passes_its_checks() -> None:
    summary = check.check_real(REAL)
    prompts = summary["prompt styles"]
    for style, least in check.REAL_MINIMUM.items():
        assert prompts[style] >= least
    assert sum(summary["background sources"].values()) >= check.MIN_BACKGROUND
    assert len(summary["background sources"]) >= 5  # several projects, not one
    assert summary["sharing no word with their answer"]["question"] >= 15
    assert (REAL / "background.jsonl").stat().st_size <= check.MAX_BACKGROUND_BYTES


@pytest.fixture
def real_copy(tmp_path: Path) -> Path:
    for name in ("memories.jsonl", "prompts.jsonl", "background.jsonl", "SOURCES.md"):
        shutil.copy(REAL / name, tmp_path / name)
    return tmp_path


@pytest.mark.parametrize(
    ("file", "change", "message"),
    [
        ("background.jsonl", lambda r: r[0].pop("source"), "source must be"),
        ("background.jsonl", lambda r: r[0].update(source="someone/else:NEWS"), "SOURCES.md"),
        ("background.jsonl", lambda r: r.__setitem__(slice(0, 300), []), "background memories"),
        ("prompts.jsonl", lambda r: r[0].update(style="paraphrase"), "style must be"),
        ("prompts.jsonl", lambda r: r[-1].update(relevant=["r-pnpm"]), "only they"),
        ("prompts.jsonl", lambda r: r[1].update(query=r[0]["query"]), "repeated prompt"),
        ("memories.jsonl", lambda r: r[1].update(key=r[0]["key"]), "duplicate key"),
        ("prompts.jsonl", lambda r: r[-13].update(query="zyxx qwvv"), "background's words"),
    ],
)
def test_a_broken_real_suite_is_refused_in_one_line(
    real_copy: Path, file: str, change: Any, message: str
) -> None:
    _break(real_copy / file, change)
    with pytest.raises(check.SetError, match=message):
        check.check_real(real_copy)


def test_the_command_checks_both_suites(capsys: pytest.CaptureFixture[str]) -> None:
    assert check.main([]) == 0
    out = capsys.readouterr().out
    assert "[eval]" in out and "[eval/real]" in out and "background sources" in out
