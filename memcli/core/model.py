"""Observations: what they hold, what is valid, and their markdown round trip (pure)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from memcli.core import codec
from memcli.core.errors import InvalidInput, InvalidMemoryFile
from memcli.core.ids import is_ulid
from memcli.core.schema import (
    DEFAULT_TYPE,
    KEY_RE,
    KNOWN_FIELDS,
    OBSERVATION_TYPES,
    REQUIRED_FIELDS,
)
from memcli.core.timeutil import normalize_timestamp

MAX_TITLE_CHARS = 200
MAX_SESSION_CHARS = 200
_PRIVATE_RE = re.compile(r"<private>.*?(?:</private>|\Z)", re.IGNORECASE | re.DOTALL)
_DRIVE_RE = re.compile(r"[A-Za-z]:")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s")


@dataclass
class Observation:
    """One memory. ``id`` is its identity; the file path is only where it lives."""

    id: str
    type: str
    title: str
    created: str
    narrative: str = ""
    updated: str | None = None
    key: str | None = None
    concepts: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    importance: float | None = None
    session: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Frontmatter keys mem does not know, kept as they are, in file order."""

    kind = "observation"

    def to_markdown(self) -> str:
        fields: list[tuple[str, str]] = [
            ("id", _emit_id(self.id)),
            ("type", self.type),
            ("title", codec.emit_scalar(self.title)),
            ("created", self.created),
        ]
        if self.updated:
            fields.append(("updated", self.updated))
        if self.key:
            fields.append(("key", codec.emit_scalar(self.key)))
        if self.concepts:
            fields.append(("concepts", codec.emit_flow_list(self.concepts)))
        if self.files:
            fields.append(("files", codec.emit_flow_list(self.files)))
        if self.facts:
            fields.append(("facts", codec.emit_block_list(self.facts)))
        if self.importance is not None:
            fields.append(("importance", codec.emit_scalar(self.importance)))
        if self.session:
            fields.append(("session", codec.emit_scalar(self.session)))
        for name, value in self.extra.items():
            fields.append((name, codec.emit_scalar(value)))
        return codec.write_document(fields, self.narrative)

    @classmethod
    def from_markdown(cls, text: str, path: str) -> Observation:
        """Read a memory file; raise ``InvalidMemoryFile`` naming the file and the problem."""
        try:
            metadata, body = codec.read_document(text)
            return cls.from_metadata(metadata, body)
        except (ValueError, InvalidInput) as exc:
            raise InvalidMemoryFile(path, str(exc)) from None

    @classmethod
    def from_metadata(cls, metadata: dict[str, Any], body: str) -> Observation:
        identity, created = _identity(metadata, REQUIRED_FIELDS)
        updated = _timestamp(metadata, "updated")
        key = metadata.get("key")
        return cls(
            id=identity,
            type=check_type(_as_text(metadata["type"], "type")),
            title=clean_title(_as_text(metadata["title"], "title")),
            created=created,
            updated=updated,
            key=check_key(_as_text(key, "key")) if key not in (None, "") else None,
            concepts=clean_list(metadata.get("concepts"), "concepts"),
            files=[check_file_ref(f) for f in clean_list(metadata.get("files"), "files")],
            facts=clean_list(metadata.get("facts"), "facts"),
            importance=check_importance(metadata.get("importance")),
            session=clean_session(metadata.get("session")),
            narrative=clean_narrative(body),
            extra={k: v for k, v in metadata.items() if k not in KNOWN_FIELDS},
        )

    def to_dict(self) -> dict[str, Any]:
        """Every frontmatter field plus ``kind`` and ``narrative``, for ``--json``."""
        return _record_dict(self)

    def replace(self, **changes: Any) -> Observation:
        return dataclasses.replace(self, **changes)


# ------------------------------------------------------------------ validation


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


def check_file_ref(value: str) -> str:
    """A project file a memory is about: a relative path that stays inside the project."""
    ref = _as_text(value, "files").strip()
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
    """Refuse text that cannot be stored: NUL bytes, undecodable bytes from argv."""
    if "\x00" in value:
        raise InvalidInput(f"{what} contains a NUL byte")
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{what} is not valid UTF-8") from None
    return value


def strip_private(text: str) -> str:
    """Remove ``<private>…</private>`` spans: they are never stored."""
    return _PRIVATE_RE.sub("", text)


def _strip_private_any(value: Any) -> Any:
    """``value`` with private spans removed from every string in it (lists, mappings)."""
    if isinstance(value, str):
        return strip_private(value)
    if isinstance(value, list):
        return [_strip_private_any(item) for item in value]
    if isinstance(value, dict):
        return {name: _strip_private_any(item) for name, item in value.items()}
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
    session = " ".join(check_text(_as_text(value, "session"), "session").split())
    if len(session) > MAX_SESSION_CHARS:
        raise InvalidInput(f"session is longer than {MAX_SESSION_CHARS} characters")
    return session or None


def clean_list(value: Any, what: str) -> list[str]:
    """A list of non-empty strings without duplicates; a lone string is a list of one."""
    if value in (None, ""):
        return []
    items = value if isinstance(value, list) else [value]
    result: list[str] = []
    for item in items:
        if isinstance(item, dict | list):
            raise InvalidInput(f"{what} must be a list of strings")
        text = check_text(_as_text(item, what), what).strip()
        if what != "facts":
            text = " ".join(text.split())
        if text and text not in result:
            result.append(text)
    return result


def default_title(narrative: str) -> str:
    """The first line of the text, cut at its first sentence end and at a word boundary."""
    for line in narrative.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            break
    else:
        return ""
    line = _SENTENCE_END_RE.split(line, maxsplit=1)[0].rstrip(".")
    if len(line) <= 80:
        return line
    cut = line[:80].rsplit(" ", 1)[0]
    return (cut if len(cut) >= 20 else line[:80]).rstrip(" ,;:") + "…"


def slugify(title: str, max_chars: int = 50) -> str:
    """An ASCII file-name slug for a title (``memory`` when nothing is left)."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")
    if len(slug) > max_chars:
        slug = slug[:max_chars].rsplit("-", 1)[0] or slug[:max_chars]
    return slug or "memory"


def _as_text(value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None or isinstance(value, dict | list):
        raise InvalidInput(f"{what} must be text")
    return str(value)


# ---------------------------------------------------------------------- input


DRAFT_FIELDS = (
    "text",
    "type",
    "title",
    "facts",
    "concepts",
    "files",
    "key",
    "importance",
    "session",
)


@dataclass
class Draft:
    """What a person or an agent asked ``mem save`` to store; None means not given."""

    text: str = ""
    type: str | None = None
    title: str | None = None
    facts: list[str] | None = None
    concepts: list[str] | None = None
    files: list[str] | None = None
    key: str | None = None
    importance: float | None = None
    session: str | None = None

    @classmethod
    def from_json(cls, payload: Any) -> Draft:
        """An agent's JSON object; ``narrative`` is accepted as a synonym of ``text``."""
        if not isinstance(payload, dict):
            raise InvalidInput("the --json payload must be one JSON object")
        data = dict(payload)
        if "narrative" in data:
            if "text" in data:
                raise InvalidInput(
                    "give either 'text' or 'narrative' in the JSON payload, not both"
                )
            data["text"] = data.pop("narrative")
        unknown = sorted(set(data) - set(DRAFT_FIELDS))
        if unknown:
            raise InvalidInput(
                f"unknown field{'s' * (len(unknown) > 1)} in the JSON payload: "
                f"{', '.join(unknown)} (allowed: {', '.join(DRAFT_FIELDS)}, narrative)"
            )
        for name in ("text", "type", "title", "key", "session"):
            if data.get(name) is not None and not isinstance(data[name], str):
                raise InvalidInput(f"'{name}' in the JSON payload must be a string")
        for name in ("facts", "concepts", "files"):
            value = data.get(name)
            if isinstance(value, str):
                data[name] = [value]
            elif value is not None and not (
                isinstance(value, list) and all(isinstance(v, str) for v in value)
            ):
                raise InvalidInput(f"'{name}' in the JSON payload must be a list of strings")
        if data.get("text") is None:
            data["text"] = ""
        if "importance" in data:
            data["importance"] = check_importance(data["importance"])
        return cls(**data)

    def merged(self, other: Draft) -> Draft:
        """This draft with every field ``other`` gives taken from ``other``."""
        changes = {
            name: getattr(other, name)
            for name in DRAFT_FIELDS
            if getattr(other, name) not in (None, "", [])
        }
        return dataclasses.replace(self, **changes)

    def new_observation(self, identity: str, created: str) -> Observation:
        narrative = clean_narrative(strip_private(self.text))
        if not narrative:
            raise InvalidInput("nothing to save: give the memory's text as an argument or on stdin")
        lists = self._lists()
        return Observation(
            id=identity,
            type=check_type(self.type or DEFAULT_TYPE),
            title=clean_title(strip_private(self.title or "") or default_title(narrative)),
            created=created,
            narrative=narrative,
            key=check_key(self.key) if self.key else None,
            concepts=lists["concepts"],
            files=lists["files"],
            facts=lists["facts"],
            importance=check_importance(self.importance),
            session=clean_session(_strip_private_any(self.session)),
        )

    def update(self, old: Observation, updated: str) -> Observation:
        """The memory ``old`` with what this draft gives; the rest is kept."""
        narrative = clean_narrative(strip_private(self.text))
        lists = self._lists()
        new = old.replace(
            type=check_type(self.type) if self.type else old.type,
            title=clean_title(strip_private(self.title)) if self.title else old.title,
            narrative=narrative or old.narrative,
            facts=lists["facts"] if self.facts else old.facts,
            concepts=lists["concepts"] if self.concepts else old.concepts,
            files=lists["files"] if self.files else old.files,
            importance=(
                check_importance(self.importance) if self.importance is not None else old.importance
            ),
            session=clean_session(_strip_private_any(self.session)) or old.session,
        )
        return new if new == old else new.replace(updated=updated)

    def _lists(self) -> dict[str, list[str]]:
        return {
            "facts": clean_list([strip_private(f) for f in self.facts or []], "facts"),
            "concepts": clean_list(_strip_private_any(self.concepts), "concepts"),
            "files": [
                check_file_ref(f) for f in clean_list(_strip_private_any(self.files), "files")
            ],
        }


# ------------------------------------------------------------------ summaries


SUMMARY_FIELDS = ("request", "investigated", "learned", "completed", "next_steps")
SUMMARY_REQUIRED = ("id", "title", "created")


@dataclass
class Summary:
    """A session (compaction) summary: what was asked, found, learned, done, and next.

    Its body is rendered through ``compaction.md.j2``; the fields stay in the
    frontmatter so they can be read back without parsing the markdown.
    """

    id: str
    title: str
    created: str
    narrative: str = ""
    session: str | None = None
    request: str | None = None
    investigated: str | None = None
    learned: str | None = None
    completed: str | None = None
    next_steps: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    kind = "summary"
    type = "summary"
    updated: str | None = None
    key: str | None = None
    importance: float | None = None

    @property
    def concepts(self) -> list[str]:
        return []

    @property
    def files(self) -> list[str]:
        return []

    @property
    def facts(self) -> list[str]:
        return []

    def sections(self) -> dict[str, str]:
        """The summary's fields that are filled in, in their order."""
        return {name: getattr(self, name) for name in SUMMARY_FIELDS if getattr(self, name)}

    def to_markdown(self) -> str:
        fields: list[tuple[str, str]] = [
            ("id", _emit_id(self.id)),
            ("title", codec.emit_scalar(self.title)),
            ("created", self.created),
        ]
        if self.session:
            fields.append(("session", codec.emit_scalar(self.session)))
        for name, value in self.sections().items():
            fields.append((name, codec.emit_scalar(value)))
        for name, value in self.extra.items():
            fields.append((name, codec.emit_scalar(value)))
        return codec.write_document(fields, self.narrative)

    @classmethod
    def from_markdown(cls, text: str, path: str) -> Summary:
        try:
            metadata, body = codec.read_document(text)
            identity, created = _identity(metadata, SUMMARY_REQUIRED)

            def section(name: str) -> str | None:
                return clean_section(metadata.get(name), name)

            known = {"id", "title", "created", "session", *SUMMARY_FIELDS}
            return cls(
                id=identity,
                title=clean_title(_as_text(metadata["title"], "title")),
                created=created,
                narrative=clean_narrative(body),
                session=clean_session(metadata.get("session")),
                extra={k: v for k, v in metadata.items() if k not in known},
                request=section("request"),
                investigated=section("investigated"),
                learned=section("learned"),
                completed=section("completed"),
                next_steps=section("next_steps"),
            )
        except (ValueError, InvalidInput) as exc:
            raise InvalidMemoryFile(path, str(exc)) from None

    def to_dict(self) -> dict[str, Any]:
        """The same keys as an observation's, plus the summary's sections."""
        return _record_dict(self, {name: getattr(self, name) for name in SUMMARY_FIELDS})


def clean_section(value: Any, what: str) -> str | None:
    """One summary field: text, private spans removed, blank lines at the ends dropped."""
    if value in (None, ""):
        return None
    if isinstance(value, list):
        value = "\n".join(f"- {_as_text(item, what)}" for item in value)
    text = clean_narrative(strip_private(_as_text(value, what)))
    return text or None


def summary_title(sections: dict[str, str | None], given: str | None) -> str:
    """The given title, else the first line of the request or of what was learned."""
    visible = strip_private(given or "")
    if visible.strip():
        return clean_title(visible)
    for name in ("request", "learned", "completed", "investigated", "next_steps"):
        line = default_title(sections.get(name) or "")
        if line:
            return clean_title(line)
    return "Session summary"


Record = Observation | Summary
"""Anything stored in a memory file."""


def without_private(record: Record) -> Record:
    """The record with ``<private>…</private>`` spans removed from every field.

    Identity and timestamps are left alone; what stripping leaves (an empty list
    item, doubled spaces) is tidied when the file is read back.
    """
    changes = {}
    for item in dataclasses.fields(record):
        if item.name in ("id", "created", "updated"):
            continue
        value = getattr(record, item.name)
        stripped = _strip_private_any(value)
        if stripped != value:
            changes[item.name] = stripped
    return dataclasses.replace(record, **changes) if changes else record


# ------------------------------------------------------ shared by both kinds


def _identity(metadata: dict[str, Any], required: tuple[str, ...]) -> tuple[str, str]:
    """The required fields are present; the id is a ULID; ``created`` is a timestamp."""
    missing = [name for name in required if metadata.get(name) in (None, "")]
    if missing:
        raise InvalidInput(
            f"missing required field{'s' * (len(missing) > 1)}: " + ", ".join(missing)
        )
    identity = _as_text(metadata["id"], "id")
    if not is_ulid(identity):
        raise InvalidInput(f"id {identity!r} is not a ULID (26 characters, Crockford base32)")
    created = _timestamp(metadata, "created")
    assert created is not None
    return identity, created


def _timestamp(metadata: dict[str, Any], name: str) -> str | None:
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


def _emit_id(identity: str) -> str:
    """A ULID bare, unless it is all digits (YAML would read a number)."""
    return codec.quote(identity) if identity.isdigit() else identity


def _record_dict(record: Record, more: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every frontmatter field plus ``kind`` and ``narrative``: the ``--json`` shape."""
    data: dict[str, Any] = dict(record.extra)
    data.update(
        {
            "id": record.id,
            "kind": record.kind,
            "type": record.type,
            "title": record.title,
            "created": record.created,
            "updated": record.updated,
            "key": record.key,
            "concepts": list(record.concepts),
            "files": list(record.files),
            "facts": list(record.facts),
            "importance": record.importance,
            "session": record.session,
            **(more or {}),
            "narrative": record.narrative,
        }
    )
    return data
