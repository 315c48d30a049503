"""What a memory's fields may hold: checks that refuse bad values, cleaners that tidy good ones.

Every function here is pure. A ``check_*`` returns its value unchanged or raises
``InvalidInput`` saying what to do instead; a ``clean_*`` returns the value as mem
stores it (whitespace folded, duplicates dropped, private spans removed).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from memcli.core.errors import InvalidInput
from memcli.core.ids import is_ulid
from memcli.core.schema import COMMIT_RE, KEY_RE, MAX_SESSION_CHARS, OBSERVATION_TYPES
from memcli.core.timeutil import normalize_timestamp

MAX_TITLE_CHARS = 200
MAX_TEXT_CHARS = 8_000_000
"""The most one field may hold (a memory file is also bounded, to 16 MB)."""
_PRIVATE_RE = re.compile(r"<private>.*?(?:</private>|\Z)", re.IGNORECASE | re.DOTALL)
_DRIVE_RE = re.compile(r"[A-Za-z]:")


def check_type(value: str) -> str:
    if value not in OBSERVATION_TYPES:
        raise InvalidInput(f"unknown type {value!r}: use one of {', '.join(OBSERVATION_TYPES)}")
    return value


def check_key(value: str) -> str:
    if not KEY_RE.fullmatch(value):
        raise InvalidInput(
            f"invalid key {value!r}: a key is 1-100 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return value


def check_agent(value: Any) -> str | None:
    """The agent a memory came from (``claude``, ``codex``...): written like a key."""
    if value in (None, ""):
        return None
    agent = as_text(value, "agent").strip()
    if not KEY_RE.fullmatch(agent):
        raise InvalidInput(
            f"invalid agent {agent[:60]!r}: an agent name is 1-100 letters, digits, '.', '_' "
            "or '-', starting with a letter or digit"
        )
    return agent


def check_commit(value: Any) -> str | None:
    """The project's git commit a memory was written at: 40 hexadecimal digits."""
    if value in (None, ""):
        return None
    commit = as_text(value, "project_commit").strip().lower()
    if not COMMIT_RE.fullmatch(commit):
        raise InvalidInput(
            f"invalid project_commit {commit[:60]!r}: a full git commit id is 40 hexadecimal digits"
        )
    return commit


def check_file_ref(value: str) -> str:
    """A project file a memory is about: a relative path that stays inside the project."""
    ref = as_text(value, "files").strip()
    if not ref or "\x00" in ref or "\\" in ref:
        raise InvalidInput(f"invalid file path {value!r}: use a relative path with '/'")
    if ref.startswith("/") or _DRIVE_RE.match(ref):
        raise InvalidInput(f"invalid file path {value!r}: absolute paths are not allowed")
    parts = [part for part in ref.split("/") if part not in ("", ".")]
    if not parts or ".." in parts:
        raise InvalidInput(f"invalid file path {value!r}: '..' would leave the project")
    return "/".join(parts)


def check_importance(value: Any) -> float | None:
    if value in (None, ""):
        return None
    if isinstance(value, bool):
        raise InvalidInput("importance must be a number from 0 to 1")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"importance must be a number from 0 to 1, not {value!r}") from None
    if not 0.0 <= number <= 1.0:
        raise InvalidInput(f"importance must be from 0 to 1, not {number:g}")
    return round(number, 3)


def check_text(value: str, what: str) -> str:
    """Refuse text that cannot be stored: NUL bytes, undecodable bytes from argv, too much."""
    if len(value) > MAX_TEXT_CHARS:
        raise InvalidInput(
            f"{what} is longer than {MAX_TEXT_CHARS:,} characters; split it into several memories"
        )
    if "\x00" in value:
        raise InvalidInput(f"{what} contains a NUL byte")
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{what} is not valid UTF-8") from None
    return value


def check_identity(metadata: dict[str, Any], required: tuple[str, ...]) -> tuple[str, str]:
    """The required fields are present; the id is a ULID; ``created`` is a timestamp."""
    missing = [name for name in required if metadata.get(name) in (None, "")]
    if missing:
        raise InvalidInput(
            f"missing required field{'s' * (len(missing) > 1)}: " + ", ".join(missing)
        )
    identity = as_text(metadata["id"], "id")
    if not is_ulid(identity):
        raise InvalidInput(f"id {identity!r} is not a ULID (26 characters, Crockford base32)")
    created = check_timestamp(metadata, "created")
    assert created is not None
    return identity, created


def check_timestamp(metadata: dict[str, Any], name: str) -> str | None:
    """The field ``name`` as a canonical UTC timestamp, or None when it is absent."""
    value = metadata.get(name)
    if value in (None, ""):
        return None
    try:
        return normalize_timestamp(value)
    except (ValueError, TypeError) as exc:
        if isinstance(value, dt.date):
            shown = value.isoformat()
        elif isinstance(value, str) and value.isprintable() and len(value) <= 40:
            shown = value
        else:
            shown = repr(value)[:60]
        raise InvalidInput(
            f"{name} {shown} is not a valid time ({exc}): created/updated must be ISO "
            "timestamps like 2026-11-21T20:15:03Z"
        ) from None


def strip_private(text: str) -> str:
    """Remove ``<private>…</private>`` spans: they are never stored."""
    return _PRIVATE_RE.sub("", text)


def strip_private_deep(value: Any) -> Any:
    """``value`` with private spans removed from every string in it (lists, mappings)."""
    return map_strings(value, strip_private)


def map_strings(value: Any, change: Callable[[str], str]) -> Any:
    """``value`` with ``change`` applied to every string in it (lists and mappings too)."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [map_strings(item, change) for item in value]
    if isinstance(value, dict):
        return {name: map_strings(item, change) for name, item in value.items()}
    return value


def clean_title(value: str) -> str:
    title = " ".join(check_text(value, "title").split())
    if not title:
        raise InvalidInput("title is empty")
    if len(title) > MAX_TITLE_CHARS:
        raise InvalidInput(f"title is longer than {MAX_TITLE_CHARS} characters")
    return title


def clean_narrative(value: str) -> str:
    text = check_text(value, "text").replace("\r\n", "\n").replace("\r", "\n")
    return re.sub(r"\A(?:[ \t]*\n)+", "", text).rstrip()


def clean_session(value: Any) -> str | None:
    if value in (None, ""):
        return None
    session = " ".join(check_text(as_text(value, "session"), "session").split())
    if len(session) > MAX_SESSION_CHARS:
        raise InvalidInput(f"session is longer than {MAX_SESSION_CHARS} characters")
    return session or None


def check_supersedes(value: Any, identity: str | None = None) -> list[str]:
    """The ids a memory replaces: ULIDs, never its own."""
    ids = clean_list(value, "supersedes")
    for item in ids:
        if not is_ulid(item):
            raise InvalidInput(f"supersedes: {item!r} is not a memory id (a ULID)")
        if item == identity:
            raise InvalidInput("supersedes: a memory cannot replace itself")
    return ids


def clean_list(value: Any, what: str) -> list[str]:
    """A list of non-empty strings without duplicates; a lone string is a list of one."""
    if value in (None, ""):
        return []
    items = value if isinstance(value, list) else [value]
    result: list[str] = []
    for item in items:
        if isinstance(item, dict | list):
            raise InvalidInput(f"{what} must be a list of strings")
        text = check_text(as_text(item, what), what).strip()
        if what != "facts":
            text = " ".join(text.split())
        if text and text not in result:
            result.append(text)
    return result


def clean_section(value: Any, what: str) -> str | None:
    """One summary field: text, private spans removed, blank lines at the ends dropped."""
    if value in (None, ""):
        return None
    if isinstance(value, list):
        value = "\n".join(f"- {as_text(item, what)}" for item in value)
    text = clean_narrative(strip_private(as_text(value, what)))
    return text or None


def as_text(value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None or isinstance(value, dict | list):
        raise InvalidInput(f"{what} must be text")
    return str(value)
