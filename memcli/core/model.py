"""Memories as mem keeps them, and their markdown round trip (pure).

Two kinds of record live in memory files: an ``Observation`` (one memory) and a
``Summary`` (what one session did). Their fields are checked and tidied by
``core.validate`` when read; ``core.serialize`` gives their one dict shape.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from memcli.core import codec
from memcli.core.errors import InvalidInput, InvalidMemoryFile
from memcli.core.guards import Guard, from_frontmatter
from memcli.core.schema import KNOWN_FIELDS, PROVENANCE_FIELDS, REQUIRED_FIELDS
from memcli.core.validate import (
    as_text,
    check_agent,
    check_commit,
    check_file_ref,
    check_identity,
    check_importance,
    check_key,
    check_supersedes,
    check_timestamp,
    check_type,
    clean_list,
    clean_narrative,
    clean_section,
    clean_session,
    clean_title,
    strip_private_deep,
)


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
    agent: str | None = None
    project_commit: str | None = None
    supersedes: list[str] = field(default_factory=list)
    """The ids of the memories this one replaces (they leave search, context and recall)."""
    guards: list[Guard] = field(default_factory=list)
    """The tool calls this memory forbids, asks about or warns of (``core.guards``)."""
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
        fields.extend(_provenance(self))
        if self.supersedes:
            fields.append(("supersedes", codec.emit_flow_list(self.supersedes)))
        if self.guards:
            guards = (guard.to_frontmatter() for guard in self.guards)
            fields.append(("guards", codec.emit_mapping_list(guards)))
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
        identity, created = check_identity(metadata, REQUIRED_FIELDS)
        updated = check_timestamp(metadata, "updated")
        key = metadata.get("key")
        return cls(
            id=identity,
            type=check_type(as_text(metadata["type"], "type")),
            title=clean_title(as_text(metadata["title"], "title")),
            created=created,
            updated=updated,
            key=check_key(as_text(key, "key")) if key not in (None, "") else None,
            concepts=clean_list(metadata.get("concepts"), "concepts"),
            files=[check_file_ref(f) for f in clean_list(metadata.get("files"), "files")],
            facts=clean_list(metadata.get("facts"), "facts"),
            importance=check_importance(metadata.get("importance")),
            session=clean_session(metadata.get("session")),
            agent=check_agent(metadata.get("agent")),
            project_commit=check_commit(metadata.get("project_commit")),
            supersedes=check_supersedes(metadata.get("supersedes"), identity),
            guards=list(from_frontmatter(metadata.get("guards"))),
            narrative=clean_narrative(body),
            extra={k: v for k, v in metadata.items() if k not in KNOWN_FIELDS},
        )

    def replace(self, **changes: Any) -> Observation:
        return dataclasses.replace(self, **changes)


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
    agent: str | None = None
    project_commit: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    kind = "summary"
    type = "summary"

    # What an observation has and a summary never does: read-only, so nothing set
    # on a summary can be lost when it is written (its file has no such fields).

    @property
    def updated(self) -> str | None:
        return None

    @property
    def key(self) -> str | None:
        return None

    @property
    def importance(self) -> float | None:
        return None

    @property
    def concepts(self) -> list[str]:
        return []

    @property
    def files(self) -> list[str]:
        return []

    @property
    def facts(self) -> list[str]:
        return []

    @property
    def supersedes(self) -> list[str]:
        return []

    @property
    def guards(self) -> list[Guard]:
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
        fields.extend(_provenance(self))
        for name, value in self.extra.items():
            fields.append((name, codec.emit_scalar(value)))
        return codec.write_document(fields, self.narrative)

    @classmethod
    def from_markdown(cls, text: str, path: str) -> Summary:
        try:
            metadata, body = codec.read_document(text)
            identity, created = check_identity(metadata, SUMMARY_REQUIRED)

            def section(name: str) -> str | None:
                return clean_section(metadata.get(name), name)

            known = {"id", "title", "created", "session", *PROVENANCE_FIELDS, *SUMMARY_FIELDS}
            return cls(
                id=identity,
                title=clean_title(as_text(metadata["title"], "title")),
                created=created,
                narrative=clean_narrative(body),
                session=clean_session(metadata.get("session")),
                agent=check_agent(metadata.get("agent")),
                project_commit=check_commit(metadata.get("project_commit")),
                extra={k: v for k, v in metadata.items() if k not in known},
                request=section("request"),
                investigated=section("investigated"),
                learned=section("learned"),
                completed=section("completed"),
                next_steps=section("next_steps"),
            )
        except (ValueError, InvalidInput) as exc:
            raise InvalidMemoryFile(path, str(exc)) from None


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
        stripped = strip_private_deep(value)
        if stripped != value:
            changes[item.name] = stripped
    return dataclasses.replace(record, **changes) if changes else record


def _provenance(record: Observation | Summary) -> list[tuple[str, str]]:
    """The agent and project commit fields a record has, as frontmatter lines."""
    fields = []
    if record.agent:
        fields.append(("agent", codec.emit_scalar(record.agent)))
    if record.project_commit:
        fields.append(("project_commit", codec.quote(record.project_commit)))
    return fields


def _emit_id(identity: str) -> str:
    """A ULID bare, unless it is all digits (YAML would read a number)."""
    return codec.quote(identity) if identity.isdigit() else identity
