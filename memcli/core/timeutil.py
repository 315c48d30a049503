"""Timestamps as mem stores them, and the relative times people type.

Stored form: UTC, second precision, ``2026-11-21T20:15:03Z``, the year always in
four digits. It sorts as text, which the index relies on; a time that cannot be
written so (before year 1 or after year 9999 in UTC) is refused.
"""

import datetime as dt
import os
import re

from memcli.core.errors import InvalidInput

UTC = dt.UTC
CANONICAL_RE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
EARLIEST = "0001-01-01T00:00:00Z"
LATEST = "9999-12-31T23:59:59Z"
_RELATIVE_RE = re.compile(r"(\d+)\s*(h|d|w|m|y)", re.IGNORECASE)
_UNIT_SECONDS = {"h": 3600, "d": 86400, "w": 7 * 86400, "m": 30 * 86400, "y": 365 * 86400}
_EARLIEST_MOMENT = dt.datetime(1, 1, 1, tzinfo=UTC)


class OutOfRange(ValueError):
    """A real time, but before year 1 or after year 9999 once in UTC."""

    def __init__(self, later: bool) -> None:
        super().__init__(f"it is outside {EARLIEST} to {LATEST}, the times mem keeps")
        self.later = later


def now() -> dt.datetime:
    """The current time; ``MEM_NOW`` (an ISO time) pins it for reproducible output."""
    pinned = os.environ.get("MEM_NOW")
    if pinned:
        try:
            return parse_timestamp(pinned)
        except ValueError:
            raise InvalidInput(f"MEM_NOW {pinned!r} is not an ISO time like 2026-11-01") from None
    return dt.datetime.now(UTC).replace(microsecond=0)


def format_timestamp(moment: dt.datetime) -> str:
    """The stored form: UTC, four-digit year (``%Y`` may write fewer)."""
    m = _utc(moment)
    return f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}Z"


def _utc(moment: dt.datetime) -> dt.datetime:
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise OutOfRange(later=moment.year > 1) from None


def parse_timestamp(text: str) -> dt.datetime:
    """Parse an ISO date or date-time; naive values are taken as UTC.

    Raises ``ValueError`` for text that is no time, ``OutOfRange`` (a ValueError)
    for a time outside the years 1 to 9999 in UTC.
    """
    cleaned = text.strip()
    if cleaned.endswith(("z", "Z")):
        cleaned = cleaned[:-1] + "+00:00"
    moment = dt.datetime.fromisoformat(cleaned)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return _utc(moment).replace(microsecond=0)


def normalize_timestamp(value: object) -> str:
    """Canonical form of a timestamp found in a file (string, date or datetime).

    Raises ``ValueError`` naming the problem for an impossible or out-of-range time.
    """
    if isinstance(value, dt.datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        return format_timestamp(moment)
    if isinstance(value, dt.date):
        return format_timestamp(dt.datetime(value.year, value.month, value.day, tzinfo=UTC))
    if isinstance(value, str):
        if CANONICAL_RE.fullmatch(value):
            dt.datetime.fromisoformat(value)  # the fast path: still a day that exists
            return value
        return format_timestamp(parse_timestamp(value))
    raise ValueError(f"not a timestamp: {value!r}")


def _filter_time(text: str, reference: dt.datetime | None) -> dt.datetime:
    """A time typed in ``--since``/``--until``; ``OutOfRange`` if mem keeps no such time."""
    match = _RELATIVE_RE.fullmatch(text.strip())
    if match:
        digits, unit = match.group(1).lstrip("0") or "0", match.group(2).lower()
        base = reference or now()
        # Longer than any span back to year 1 (and too long for int() to read).
        if len(digits) > 15:
            raise OutOfRange(later=False)
        seconds = int(digits) * _UNIT_SECONDS[unit]
        if seconds > (base - _EARLIEST_MOMENT).total_seconds():
            raise OutOfRange(later=False)
        return base - dt.timedelta(seconds=seconds)
    try:
        return parse_timestamp(text)
    except OutOfRange:
        raise
    except ValueError:
        raise InvalidInput(
            f"cannot read {text!r} as a time: use 3d, 2w, 1m, 12h, 1y or an ISO date "
            "like 2026-11-01"
        ) from None


def parse_since(text: str, *, reference: dt.datetime | None = None) -> str:
    """Turn ``3d``, ``2w``, ``1m`` (30 days), ``12h``, ``1y`` or an ISO date into a timestamp.

    A time before the earliest mem keeps is that earliest time (everything is since
    then); one after the latest is refused.
    """
    try:
        return format_timestamp(_filter_time(text, reference))
    except OutOfRange as exc:
        if not exc.later:
            return EARLIEST
        raise InvalidInput(
            f"{text.strip()!r} is after {LATEST}, the latest time mem keeps"
        ) from None


def parse_until(text: str, *, reference: dt.datetime | None = None) -> str | None:
    """The end of ``--until`` (excluded); a bare date includes that whole day.

    None when it is after every time mem keeps: there is no end.
    """
    try:
        moment = _filter_time(text, reference)
        cleaned = text.strip()
        if len(cleaned) == 10 and cleaned.count("-") == 2:
            moment = moment + dt.timedelta(days=1)
        return format_timestamp(moment)
    except OutOfRange as exc:
        return None if exc.later else EARLIEST
    except OverflowError:  # the day after 9999-12-31
        return None


def age(created: str, *, reference: dt.datetime | None = None) -> str:
    """A short age like ``5min``, ``3h``, ``2d``, ``3w``, ``4mo``, ``2y``."""
    seconds = ((reference or now()) - parse_timestamp(created)).total_seconds()
    seconds = max(seconds, 0)
    if seconds < 60:
        return "now"
    if seconds < 3600:
        return f"{int(seconds // 60)}min"
    if seconds < 86400:
        return f"{int(seconds // 3600)}h"
    if seconds < 14 * 86400:
        return f"{int(seconds // 86400)}d"
    if seconds < 60 * 86400:
        return f"{int(seconds // (7 * 86400))}w"
    if seconds < 365 * 86400:
        return f"{int(seconds // (30 * 86400))}mo"
    return f"{int(seconds // (365 * 86400))}y"
