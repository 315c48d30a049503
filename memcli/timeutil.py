"""Timestamps as mem stores them, and the relative times people type.

Stored form: UTC, second precision, ``2026-11-21T20:15:03Z``. It sorts as text,
which the index relies on.
"""

import datetime as dt
import os
import re

from memcli.errors import InvalidInput

UTC = dt.UTC
CANONICAL_RE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_RELATIVE_RE = re.compile(r"(\d+)\s*(h|d|w|m|y)", re.IGNORECASE)
_UNIT_SECONDS = {"h": 3600, "d": 86400, "w": 7 * 86400, "m": 30 * 86400, "y": 365 * 86400}


def now() -> dt.datetime:
    """The current time; ``MEM_NOW`` (an ISO time) pins it for reproducible output."""
    pinned = os.environ.get("MEM_NOW")
    if pinned:
        return parse_timestamp(pinned)
    return dt.datetime.now(UTC).replace(microsecond=0)


def format_timestamp(moment: dt.datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_timestamp(text: str) -> dt.datetime:
    """Parse an ISO date or date-time; naive values are taken as UTC."""
    cleaned = text.strip()
    if cleaned.endswith(("z", "Z")):
        cleaned = cleaned[:-1] + "+00:00"
    moment = dt.datetime.fromisoformat(cleaned)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0)


def normalize_timestamp(value: object) -> str:
    """Canonical form of a timestamp found in a file (string, date or datetime)."""
    if isinstance(value, dt.datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        return format_timestamp(moment)
    if isinstance(value, dt.date):
        return format_timestamp(dt.datetime(value.year, value.month, value.day, tzinfo=UTC))
    if isinstance(value, str):
        if CANONICAL_RE.fullmatch(value):
            return value
        return format_timestamp(parse_timestamp(value))
    raise ValueError(f"not a timestamp: {value!r}")


def parse_since(text: str, *, reference: dt.datetime | None = None) -> str:
    """Turn ``3d``, ``2w``, ``1m`` (30 days), ``12h``, ``1y`` or an ISO date into a timestamp."""
    match = _RELATIVE_RE.fullmatch(text.strip())
    if match:
        amount, unit = int(match.group(1)), match.group(2).lower()
        base = reference or now()
        return format_timestamp(base - dt.timedelta(seconds=amount * _UNIT_SECONDS[unit]))
    try:
        return format_timestamp(parse_timestamp(text))
    except ValueError:
        raise InvalidInput(
            f"cannot read {text!r} as a time: use 3d, 2w, 1m, 12h, 1y or an ISO date "
            "like 2026-11-01"
        ) from None


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
