"""Limits set by environment variables (``MEM_SERVE_*``, ``MEM_GIT_TIMEOUT``), checked:
a value that is not one is a one-line error naming the variable, never ignored."""

from __future__ import annotations

import os

from memcli.core.errors import InvalidInput


def env_seconds(name: str, default: float, most: float) -> float:
    """``name`` as a number of seconds over 0 and at most ``most``; unset or empty: ``default``."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= most:
        raise InvalidInput(
            f"{name} must be a number of seconds over 0 and at most {most:g}, not {value!r}"
        )
    return seconds


def env_count(name: str, default: int, most: int) -> int:
    """``name`` as a whole number from 1 to ``most``; unset or empty: ``default``."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or not 1 <= int(value) <= most:
        raise InvalidInput(f"{name} must be a whole number from 1 to {most}, not {value!r}")
    return int(value)
