"""A lesson drafted from a session transcript: a proposed memory a person must accept.

Drafting (``memcli.capture.lessons``) turns a finished session's messages into
``LessonDraft`` values; the draft store keeps them apart from memories until
``mem review`` accepts one (it then becomes a memory with the draft's provenance)
or rejects it. No agent ever reads a draft.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

LessonKind = Literal["correction", "rule", "root_cause", "decision", "note"]
LESSON_KINDS: tuple[LessonKind, ...] = ("correction", "rule", "root_cause", "decision", "note")
"""What a session taught: a user's correction of the agent, a rule the user stated, the
root cause of a failure the agent found, a decision proposed and confirmed, a note the
agent flagged as worth knowing."""

KIND_TYPES: dict[LessonKind, str] = {
    "correction": "preference",
    "rule": "preference",
    "root_cause": "gotcha",
    "decision": "decision",
    "note": "discovery",
}
"""The memory type a lesson of each kind becomes unless drafting says otherwise."""


@dataclass(frozen=True, slots=True)
class LessonDraft:
    """One drafted lesson, with where it came from."""

    kind: LessonKind
    title: str
    text: str  # the lesson in the transcript's own words (quoted), not paraphrased
    session: str  # the agent's session id
    message: str  # the id (uuid) or 1-based position of the message it was drafted from
    agent: str  # "claude" | "codex" | "gemini"
    type: str = ""  # the memory type; empty means KIND_TYPES[kind]
    files: tuple[str, ...] = ()  # files the lesson is about, as the transcript names them
    guard: str | None = None  # a suggested guard, "ACTION TOOL:GLOB", for a rule naming one
    extra: dict[str, str] = field(default_factory=dict)  # e.g. the error a root cause fixed

    @property
    def memory_type(self) -> str:
        """The type of the memory this draft becomes when accepted."""
        return self.type or KIND_TYPES[self.kind]

    @property
    def draft_id(self) -> str:
        """A stable id: the same lesson from the same session is one draft, whoever drafts it."""
        digest = hashlib.sha256(
            "\0".join((self.agent, self.session, self.kind, " ".join(self.text.split()))).encode()
        )
        return digest.hexdigest()[:12]
