"""Lesson drafts as files of the store: ``drafts/<id>.md``, apart from every memory.

A lesson draft (``core.lesson.LessonDraft``) waiting for ``mem review`` is kept as a
markdown file in the store's ``drafts/`` folder: frontmatter (``draft``, ``kind``,
``type``, ``title``, ``created``, ``files``, ``session``, ``message``, ``agent``,
``guard``, then the draft's extra fields) and the lesson's text as the body. It is
committed with the memories, so ``git log -- drafts/`` shows what was drafted,
accepted and rejected, but it is no memory: only ``observations/`` and
``summaries/`` are (``store.files.MEMORY_DIRS``), so no index, search, context,
export or check of memory files ever reads one.

Every commit that adds, accepts or rejects a draft names it with a
``Lesson-Draft: <id>`` trailer: a lesson drafted once is never drafted again.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memcli.core import codec
from memcli.core.errors import InvalidMemoryFile

if TYPE_CHECKING:
    from memcli.core.lesson import LessonDraft
    from memcli.store.files import Store

DRAFTS_DIR = "drafts"
DRAFT_TRAILER = "Lesson-Draft"
MAX_DRAFT_BYTES = 64 << 10
"""A larger file in ``drafts/`` is not a draft mem wrote: passed over."""
_ID_RE = re.compile(r"^[0-9a-f]{12}$")
_TRAILER_RE = re.compile(rf"^{DRAFT_TRAILER}: ([0-9a-f]{{12}})$", re.MULTILINE)
_KNOWN = frozenset(
    {"draft", "kind", "type", "title", "created", "files", "session", "message", "agent", "guard"}
)


def is_draft_path(path: str) -> bool:
    """``drafts/<12 hex digits>.md``: a lesson draft's file."""
    folder, _, name = path.partition("/")
    return folder == DRAFTS_DIR and name.endswith(".md") and bool(_ID_RE.match(name[:-3]))


def draft_path(draft_id: str) -> str:
    return f"{DRAFTS_DIR}/{draft_id}.md"


@dataclass(frozen=True)
class StoredDraft:
    """A lesson draft as the store keeps it, waiting to be accepted or rejected."""

    id: str
    kind: str
    type: str
    title: str
    text: str
    created: str
    session: str = ""
    message: str = ""
    agent: str = ""
    files: tuple[str, ...] = ()
    guard: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def path(self) -> str:
        return draft_path(self.id)

    @classmethod
    def of(cls, lesson: LessonDraft, created: str) -> StoredDraft:
        return cls(
            id=lesson.draft_id,
            kind=lesson.kind,
            type=lesson.memory_type,
            title=lesson.title,
            text=lesson.text,
            created=created,
            session=lesson.session,
            message=lesson.message,
            agent=lesson.agent,
            files=tuple(lesson.files),
            guard=lesson.guard,
            extra=dict(lesson.extra),
        )

    def to_markdown(self) -> str:
        fields = [
            ("draft", codec.quote(self.id)),
            ("kind", self.kind),
            ("type", self.type),
            ("title", codec.emit_scalar(self.title)),
            ("created", self.created),
        ]
        if self.files:
            fields.append(("files", codec.emit_flow_list(self.files)))
        for name in ("session", "message", "agent", "guard"):
            value = getattr(self, name)
            if value:
                fields.append((name, codec.emit_scalar(value)))
        for name, value in self.extra.items():
            if name not in _KNOWN:
                fields.append((name, codec.emit_scalar(value)))
        return codec.write_document(fields, self.text)

    @classmethod
    def from_markdown(cls, path: str, text: str) -> StoredDraft:
        try:
            head, body = codec.read_document(text)
        except ValueError as exc:
            raise InvalidMemoryFile(path, str(exc)) from None
        identity = str(head.get("draft", ""))
        if identity != path.rsplit("/", 1)[-1].removesuffix(".md"):
            raise InvalidMemoryFile(path, "its draft id is not its file name")
        files = head.get("files") or []
        return cls(
            id=identity,
            kind=str(head.get("kind", "")),
            type=str(head.get("type", "")),
            title=str(head.get("title", "")),
            text=body.strip(),
            created=str(head.get("created", "")),
            session=str(head.get("session") or ""),
            message=str(head.get("message") or ""),
            agent=str(head.get("agent") or ""),
            files=tuple(str(f) for f in files) if isinstance(files, list) else (),
            guard=str(head["guard"]) if head.get("guard") else None,
            extra={k: str(v) for k, v in head.items() if k not in _KNOWN and v is not None},
        )

    def to_json(self) -> dict[str, Any]:
        """The shape ``mem review --json``, MCP and HTTP give."""
        return {
            "id": self.id,
            "type": self.type,
            "kind": self.kind,
            "title": self.title,
            "text": self.text,
            "files": list(self.files),
            "source": {"agent": self.agent, "session": self.session, "message": self.message},
            "created": self.created,
            **({"guard": self.guard} if self.guard else {}),
        }


def read_drafts(store: Store) -> list[StoredDraft]:
    """Every draft in the work tree, newest first; a file that is not one is passed over."""
    from memcli.core.regular import NotRegularFile, open_regular
    from memcli.store.files import read_at_most

    folder = store.root / DRAFTS_DIR
    if not folder.is_dir() or folder.is_symlink():
        return []
    found = []
    for name in os.listdir(folder):
        path = f"{DRAFTS_DIR}/{name}"
        if not is_draft_path(path):
            continue
        try:
            with open_regular(str(folder / name), follow_links=False) as handle:
                data = read_at_most(handle, MAX_DRAFT_BYTES + 1)
            if len(data) > MAX_DRAFT_BYTES:
                continue
            found.append(StoredDraft.from_markdown(path, data.decode("utf-8")))
        except (OSError, NotRegularFile, InvalidMemoryFile, UnicodeDecodeError):
            continue
    found.sort(key=lambda d: (d.created, d.id), reverse=True)
    return found


def drafted_before(store: Store) -> set[str]:
    """The ids every commit of the store named as a lesson draft (added, accepted, rejected,
    expired): one ``git log`` over the commits that carry the trailer."""
    if store.head() is None:
        return set()
    out = store.git.run(
        ["log", "--format=%B", "--fixed-strings", f"--grep={DRAFT_TRAILER}: "], check=False
    ).stdout.decode("utf-8", "replace")
    return set(_TRAILER_RE.findall(out))


def trailers(ids: list[str]) -> str:
    return "".join(f"{DRAFT_TRAILER}: {i}\n" for i in ids)
