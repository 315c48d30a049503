"""Settings in mem.toml: a value out of range is one line naming the key and the range, and
its default is used: a bad setting never stops a command (nor a hook)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import mem

WINDOW_RANGE = (
    'must be a duration like "90s", "30m", "24h", "7d" or "2w" (a bare number: seconds), '
    "at most 36500d (100 years)"
)
COUNT_RANGE = "must be a whole number from 0 to 1000000"
# (section, setting, value as TOML, what the error says)
BAD_SETTINGS = [
    ("context", "hot_window", '"999999999h"', f"context.hot_window {WINDOW_RANGE}"),
    ("context", "warm_window", '"5215w"', f"context.warm_window {WINDOW_RANGE}"),
    ("context", "warm_window", f'"{"9" * 5000}d"', f"context.warm_window {WINDOW_RANGE}"),
    ("context", "hot_window", '"3 months"', f"context.hot_window {WINDOW_RANGE}"),
    ("context", "hot_window", "-24", f"context.hot_window {WINDOW_RANGE}"),
    ("context", "hot_window", "1.5", f"context.hot_window {WINDOW_RANGE}"),
    ("ranking", "half_life", '"30x"', f"ranking.half_life {WINDOW_RANGE}"),
    ("serve", "idle", '"soon"', f"serve.idle {WINDOW_RANGE}"),
    ("context", "hot_count", "9223372036854775808", f"context.hot_count {COUNT_RANGE}"),
    ("context", "warm_count", "9223372036854775807", f"context.warm_count {COUNT_RANGE}"),
    ("context", "summaries", "-1", f"context.summaries {COUNT_RANGE}"),
    ("context", "memory_md_lines", "1000001", f"context.memory_md_lines {COUNT_RANGE}"),
    ("context", "budget", "1e400", f"context.budget {COUNT_RANGE}"),
    ("context", "budget", "100000000000", f"context.budget {COUNT_RANGE}"),
    ("recall", "limit", "18446744073709551616", f"recall.limit {COUNT_RANGE}"),
    ("recall", "min_prompt_chars", "true", f"recall.min_prompt_chars {COUNT_RANGE}"),
    ("recall", "relative_score", "inf", "recall.relative_score must be a number from 0 to 1"),
    ("recall", "relative_score", "nan", "recall.relative_score must be a number from 0 to 1"),
    ("recall", "min_evidence", "1.5", "recall.min_evidence must be a number from 0 to 1"),
    ("recall", "cue_evidence", '"low"', "recall.cue_evidence must be a number from 0 to 1"),
    ("recall", "margin_weight", "11", "recall.margin_weight must be a number from 0 to 10"),
    ("search", "ranked_matches", "-5", f"search.ranked_matches {COUNT_RANGE}"),
    ("search", "ranked_matches", "1.5", f"search.ranked_matches {COUNT_RANGE}"),
]


@pytest.mark.parametrize(
    ("section", "name", "value", "message"),
    BAD_SETTINGS,
    ids=[f"{name}={value[:20]}" for _, name, value, _ in BAD_SETTINGS],
)
@pytest.mark.parametrize("command", [["context"], ["recall", "how do we release a new version"]])
def test_out_of_range_settings_are_one_clear_line_and_the_default_is_used(
    store: Path, command: list[str], section: str, name: str, value: str, message: str
) -> None:
    mem("save", "We release a new version by tagging main", "--title", "Releases")
    (store / "mem.toml").write_text(f"[{section}]\n{name} = {value}\n")
    result = mem(*command)
    said = [line for line in result.stderr.splitlines() if "mem.toml" in line]
    assert len(said) == 1 and message in said[0] and "; using " in said[0], result.stderr
    assert "Releases" in result.stdout or command[0] == "recall"
    assert message in mem("status").stdout  # and status says it too


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("hot_window", '"36500d"'),
        ("warm_window", '"0h"'),
        ("hot_count", "1000000"),
        ("hot_window", '"90m"'),
        ("hot_window", "3600"),
    ],
    ids=["window-100-years", "window-zero", "count-at-the-limit", "minutes", "seconds"],
)
def test_settings_at_the_limits_work(store: Path, setting: str, value: str) -> None:
    mem("save", "We release a new version by tagging main", "--title", "Releases")
    (store / "mem.toml").write_text(f"[context]\n{setting} = {value}\n")
    result = mem("context")
    assert "Releases" in result.stdout and "mem.toml" not in result.stderr


@pytest.mark.parametrize("target", ["fifo", "outside"])
def test_mem_toml_is_never_read_through_a_link(store: Path, tmp_path: Path, target: str) -> None:
    import os

    outside = tmp_path / "outside.toml"
    if target == "fifo":
        os.mkfifo(outside)  # reading it would wait for ever
    else:
        outside.write_text('[context]\nhot_count = "not a number"\n')
    (store / "mem.toml").symlink_to(outside)
    result = mem("context")
    assert "mem.toml" in result.stderr and "symbolic link" in result.stderr


@pytest.mark.parametrize(
    "nested", ["[" * 100_000 + "]" * 100_000, "{a=" * 50_000 + "1" + "}" * 50_000]
)
def test_deeply_nested_toml_is_one_clear_line(store: Path, nested: str) -> None:
    (store / "mem.toml").write_text(f"x = {nested}\n")
    result = mem("context")
    said = result.stderr.splitlines()
    assert said[0].startswith(f"mem: {store / 'mem.toml'}: not valid TOML ("), result.stderr
    assert said[0].endswith("the file is ignored") and len(said) == 1, result.stderr


@pytest.mark.parametrize(
    ("idle", "said"),
    [('"30m"', False), ("1800", False), ('"half an hour"', True), ("-5", True)],
    ids=["minutes", "seconds", "words", "negative"],
)
def test_serve_idle_is_a_duration_and_a_bad_one_never_stops_the_hooks(
    store: Path, tmp_path: Path, idle: str, said: bool
) -> None:
    import json

    from .conftest import run_mem

    mem("save", "We release a new version by tagging main", "--title", "Releases")
    (store / "mem.toml").write_text(f"[serve]\nidle = {idle}\n")
    payload = {"cwd": str(tmp_path), "session_id": "s-1", "source": "startup"}
    answered = run_mem("hook", "claude", "SessionStart", input=json.dumps(payload))
    assert answered.returncode == 0 and "Releases" in answered.stdout, answered.stderr
    assert ("serve.idle must be a duration" in answered.stderr) is said, answered.stderr
    assert "skipped" not in answered.stderr
