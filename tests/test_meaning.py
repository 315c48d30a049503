"""The recall gate's evidence from meaning: calibrated against the store, not a fixed cosine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memcli.core.config import defaults
from memcli.core.timeutil import now
from memcli.retrieval.evaluation import build_suite_store
from memcli.retrieval.gate import Judged
from memcli.retrieval.meaning import LEAD_RANK, MIN_BACKGROUND, measure, weigh_in
from memcli.retrieval.ranking import keep_lead
from tests.conftest import git, mem

REPO = Path(__file__).resolve().parents[1]
BUNDLED = REPO / "memcli" / "semantic" / "bundled"
SETTINGS = defaults()["recall"]


def judged(ident: str, coverage: float, evidence: float, shown: bool = False) -> Judged:
    return Judged(ident, coverage, (), 0.0, None, evidence, shown, "the words")


def nearest(best: float, rest: float) -> list[tuple[str, float]]:
    return [("a", best)] + [(f"m{n}", rest) for n in range(LEAD_RANK + 2)]


BACKGROUND = [0.1 + 0.01 * (n % 11) for n in range(200)]  # mean 0.15, spread ~0.03


def test_meaning_is_measured_against_the_background_not_a_cosine() -> None:
    found = measure(nearest(0.45, 0.2), BACKGROUND)
    assert found is not None and found.best == "a"
    assert found.z == pytest.approx((0.45 - 0.15) / 0.0316, rel=0.02)
    assert found.lead == pytest.approx((0.45 - 0.2) / 0.0316, rel=0.02)
    # The same cosine against a background that comes as close is no evidence at all.
    near = measure(nearest(0.45, 0.44), [value + 0.29 for value in BACKGROUND])
    assert near is not None and near.z < 1 and near.lead < 1


def test_no_background_means_no_evidence_from_meaning() -> None:
    assert measure(nearest(0.9, 0.1), BACKGROUND[: MIN_BACKGROUND - 1]) is None
    assert measure(nearest(0.9, 0.1), [0.2] * 200) is None  # no spread to measure by
    assert measure([("a", 0.9)], BACKGROUND) is None  # too few memories to stand out among


def test_what_the_agent_has_is_left_out_of_the_nearest() -> None:
    found = measure(nearest(0.45, 0.2), BACKGROUND, left_out=frozenset({"a"}))
    assert found is not None and found.best == "m0"


def test_words_and_meaning_agreeing_show_a_memory_the_words_alone_withhold() -> None:
    meaning = measure(nearest(0.3, 0.29), BACKGROUND)  # not standing out at all
    verdicts = [judged("a", 0.25, 0.3), judged("b", 0.2, 0.1)]
    shown = weigh_in(verdicts, meaning, {"a": 1, "b": 2}, SETTINGS)
    assert [j.id for j in shown if j.shown] == ["a"]
    assert "agree" in shown[0].why
    # Too little evidence from the words: agreement is not enough.
    weak = weigh_in([judged("a", 0.1, 0.1)], meaning, {"a": 1}, SETTINGS)
    assert not weak[0].shown
    # The words' best is not the nearest in meaning: nothing.
    other = weigh_in([judged("b", 0.25, 0.3), judged("a", 0.1, 0.1)], meaning, {}, SETTINGS)
    assert not any(j.shown for j in other)


def test_a_memory_standing_out_in_meaning_is_shown_if_the_words_rank_it_high() -> None:
    meaning = measure(nearest(0.45, 0.2), BACKGROUND)
    verdicts = [judged("b", 0.3, 0.3), judged("a", 0.0, -0.3)]
    shown = weigh_in(verdicts, meaning, {"b": 1, "a": 2}, SETTINGS)
    assert [j.id for j in shown if j.shown] == ["a"]
    assert "stands out in meaning" in shown[1].why
    assert not any(j.shown for j in weigh_in(verdicts, meaning, {"b": 1, "a": 9}, SETTINGS))
    strict = SETTINGS | {"meaning_z": 10.0}
    assert not any(j.shown for j in weigh_in(verdicts, meaning, {"b": 1, "a": 2}, strict))
    left_out = weigh_in(verdicts, meaning, {"b": 1, "a": 2}, SETTINGS, frozenset({"a"}))
    assert not any(j.shown for j in left_out)
    full = [judged("c", 0.9, 0.9, True), judged("d", 0.9, 0.9, True), judged("e", 0.9, 0.9, True)]
    capped = weigh_in([*full, *verdicts], meaning, {"b": 1, "a": 2}, SETTINGS)
    assert sum(j.shown for j in capped) == SETTINGS["limit"]


def test_a_fused_ranking_keeps_the_words_first_places() -> None:
    ranks = {"s1": None, "l2": 2, "s2": None, "l1": 1, "l3": 3}
    ranked = ["s1", "l2", "s2", "l1", "l3"]
    assert keep_lead(ranked, ranks.get, 2) == ["l1", "l2", "s1", "s2", "l3"]
    assert keep_lead(ranked, ranks.get, 0) == ranked
    assert keep_lead(["s1", "s2"], ranks.get, 2) == ["s1", "s2"]


# ------------------------------------------------------------------ on a store


@pytest.fixture
def release_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The real suite's team memories among 300 sentences of public release notes."""
    suite = tmp_path / "suite"
    suite.mkdir()
    real = REPO / "eval" / "real"
    (suite / "memories.jsonl").write_bytes((real / "memories.jsonl").read_bytes())
    lines = (real / "background.jsonl").read_text(encoding="utf-8").splitlines()[:300]
    (suite / "background.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    root = tmp_path / "store"
    build_suite_store(suite, root, now(), ("memories.jsonl", "background.jsonl"))
    (root / "mem.toml").write_text(f'[semantic]\nmodel = "{BUNDLED}"\n')
    git(root, "add", "mem.toml")
    git(root, "commit", "-q", "-m", "the bundled model")
    monkeypatch.setenv("MEM_STORE", str(root))
    return root


def recalled(prompt: str) -> list[dict[str, object]]:
    found = json.loads(mem("recall", prompt, "--format", "json", "--explain").stdout)
    return [c for c in found["explain"]["candidates"] if c["shown"]]


def test_meaning_reaches_the_agent_where_the_words_do_not(release_store: Path) -> None:
    prompt = "can I ship this to prod friday afternoon?"
    shown = recalled(prompt)
    assert [c["key"] for c in shown] == ["r-release-friday"]
    assert "stands out in meaning" in str(shown[0]["why"])
    assert recalled("write a haiku about the first snow") == []
    # The words alone withhold it: the same store without the model.
    (release_store / "mem.toml").write_text('[semantic]\nmodel = "none"\n')
    assert recalled(prompt) == []


def test_the_calibration_is_a_setting(release_store: Path) -> None:
    toml = release_store / "mem.toml"
    toml.write_text(toml.read_text() + "[recall]\nmeaning_z = 9.5\n")
    assert recalled("can I ship this to prod friday afternoon?") == []


def test_search_by_meaning_keeps_only_what_stands_above_the_store(release_store: Path) -> None:
    """Every memory has some cosine with any query: only those well above the store's count."""

    def semantic_hits(prompt: str) -> list[dict[str, object]]:
        found = mem("search", prompt, "--mode", "semantic", "--json", "--limit", "400")
        hits: list[dict[str, object]] = json.loads(found.stdout)
        return hits

    unrelated = semantic_hits("write a haiku about the first snow")
    answered = semantic_hits("can I ship this to prod friday afternoon?")
    assert len(unrelated) < 70 and len(answered) < 70  # of 347 memories
    assert answered[0]["key"] == "r-release-friday"
    toml = release_store / "mem.toml"
    toml.write_text(toml.read_text() + "[search]\nmin_deviations = 0\n")
    assert len(semantic_hits("write a haiku about the first snow")) > len(unrelated) + 25
