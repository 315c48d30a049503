"""Times at the edges: hand-written timestamps, time filters and windows in mem.toml.

mem keeps times from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, always written
with four-digit years so that they sort as text. Anything outside is refused with a
one-line error (a file is skipped and named), or clamped where the answer is the same.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcli.core.model import Observation
from memcli.core.timeutil import CANONICAL_RE, normalize_timestamp, parse_timestamp

from .conftest import git, mem, mem_json

OLD_ID = "01JD0000000000000000000AAA"
HAND = "---\nid: {id}\ntype: gotcha\ntitle: {title}\ncreated: {created}\n---\nhand written\n"


def commit_hand_file(store: Path, name: str, text: str) -> None:
    """A file written by hand and committed through the store's own hooks."""
    path = store / "observations" / "2026" / "11" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", f"add {name}")


def test_a_three_digit_year_is_kept_with_four_digits(store: Path) -> None:
    commit_hand_file(
        store, "old.md", HAND.format(id=OLD_ID, title="Very old", created="0999-01-01")
    )
    mem("save", "A memory of today")
    listed = mem_json("list")
    assert [m["created"] for m in listed if m["id"] == OLD_ID] == ["0999-01-01T00:00:00Z"]
    assert listed[-1]["id"] == OLD_ID  # the oldest sorts last
    assert "Very old" in mem("list").stdout
    mem("context")


# Aware times anywhere a UTC offset can take them, seconds only (mem keeps no less).
moments = st.datetimes(
    min_value=dt.datetime(1, 1, 2), max_value=dt.datetime(9999, 12, 30), timezones=st.timezones()
).map(lambda m: m.replace(microsecond=0))
offsets = st.integers(-(24 * 60 - 1), 24 * 60 - 1).map(
    lambda minutes: dt.timezone(dt.timedelta(minutes=minutes))
)


@settings(max_examples=300, deadline=None)
@given(st.datetimes(min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(9999, 12, 31)), offsets)
def test_any_written_time_is_canonical_or_refused(naive: dt.datetime, zone: dt.tzinfo) -> None:
    """Every ISO time is kept in canonical form, or refused with a ValueError, never worse."""
    moment = naive.replace(microsecond=0, tzinfo=zone)
    try:
        stamp = normalize_timestamp(moment.isoformat())
    except ValueError:
        utc = moment.astimezone(dt.UTC) if 1 < moment.year < 9999 else None
        assert utc is None  # only a time at the ends of the range can fall outside
        return
    assert CANONICAL_RE.fullmatch(stamp)
    assert parse_timestamp(stamp) == moment
    assert normalize_timestamp(moment) == stamp == normalize_timestamp(stamp)


@settings(max_examples=200, deadline=None)
@given(moments, moments)
def test_stored_times_sort_as_text_like_times(a: dt.datetime, b: dt.datetime) -> None:
    sa, sb = normalize_timestamp(a), normalize_timestamp(b)
    assert (sa < sb) == (a < b) and (sa == sb) == (a == b)


@settings(max_examples=200, deadline=None)
@given(moments)
def test_a_time_round_trips_through_a_file_both_ways(moment: dt.datetime) -> None:
    """The canonical fast path and YAML (hand-written form) read the same time."""
    stamp = normalize_timestamp(moment)
    canonical = HAND.format(id=OLD_ID, title="t", created=stamp)
    hand = HAND.format(id=OLD_ID, title="t", created=moment.isoformat())
    assert Observation.from_markdown(canonical, "x.md").created == stamp
    assert Observation.from_markdown(hand, "x.md").created == stamp
    again = Observation.from_markdown(canonical, "x.md").to_markdown()
    assert Observation.from_markdown(again, "x.md").created == stamp


ALL = {"Very old", "First of November", "Twentieth of November"}
RECENT = {"First of November", "Twentieth of November"}
# (option, value, the titles listed, or the usage error)
TIME_FILTERS: list[tuple[str, str, set[str] | str]] = [
    ("--since", "9999y", ALL),
    ("--since", "99999999999999d", ALL),
    ("--since", "9" * 5000 + "d", ALL),
    ("--since", "0001-01-01T00:00:00+01:00", ALL),
    ("--since", "0999-01-01", ALL),
    ("--since", "1000-01-01", RECENT),
    ("--since", "10d", {"Twentieth of November"}),
    ("--since", "9999-12-31T23:59:59-01:00", "is after 9999-12-31T23:59:59Z"),
    ("--since", "10000-01-01", "cannot read '10000-01-01' as a time"),
    ("--since", "0000-12-31", "cannot read '0000-12-31' as a time"),
    ("--since", "-3d", "cannot read '-3d' as a time"),
    ("--until", "9999-12-31", ALL),
    ("--until", "9999-12-31T23:59:59-01:00", ALL),
    ("--until", "9999y", set()),
    ("--until", "99999999999999d", set()),
    ("--until", "0001-01-01T00:00:00+01:00", set()),
    ("--until", "1000-01-01", {"Very old"}),
    ("--until", "2026-11-01", {"Very old", "First of November"}),
]


@pytest.fixture
def dated_store(store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    commit_hand_file(
        store, "old.md", HAND.format(id=OLD_ID, title="Very old", created="0999-06-01")
    )
    for moment, title in [("2026-11-01T12:00:00Z", "First"), ("2026-11-20T12:00:00Z", "Twentieth")]:
        monkeypatch.setenv("MEM_NOW", moment)
        mem("save", f"{title} of November")
    monkeypatch.setenv("MEM_NOW", "2026-11-21T00:00:00Z")
    return store


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    TIME_FILTERS,
    ids=[f"{option[2:]}-{value[:30]}" for option, value, _ in TIME_FILTERS],
)
def test_time_filters_answer_or_refuse_cleanly(
    dated_store: Path, option: str, value: str, expected: set[str] | str
) -> None:
    result = mem("list", "--json", option, value, expect=None)
    if isinstance(expected, str):
        assert result.exit_code == 2, result.output
        errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
        assert len(errors) == 1 and expected in errors[0], result.stderr
        return
    assert result.exit_code == 0, result.output
    assert {m["title"] for m in json.loads(result.stdout)} == expected
