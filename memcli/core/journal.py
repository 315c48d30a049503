"""The memory journal: the messages of mem's own commits, built and read in one place.

``git log --oneline`` of a store reads as a journal. A commit that touches one
memory says ``<verb>: <type>: <title>`` (a summary has no type); one that
touches several says ``<verb>: <N> memories`` and lists them as ``- <type>:
<title>`` lines. Every one ends with a ``Memory-Id: <id>`` trailer per memory,
so history can be searched by id after a file was renamed or removed. A purge
commits ``purge: <N> memories`` with a ``Purged-Id: <id>`` trailer per id. Any
other commit that touches memory files is a *hand edit*.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from memcli.core.schema import OBSERVATION_TYPES

if TYPE_CHECKING:
    from memcli.core.model import Record

SUBJECT_TITLE_CHARS = 60
"""A longer title is cut in the subject line (the list lines keep it whole)."""
VERBS = (
    "save",
    "update",
    "forget",
    "summarize",
    "restore",
    "edit",
    "init",
    "import",
    "promote",
    "merge",
)
"""The actions of mem's commits that touch memories."""
HAND_EDIT = "hand edit"
INIT_MESSAGE = "init: mem store"
"""The first commit of a new store."""
MEMORY_ID = "Memory-Id"
IMPORT_LIST_LINES = 50
"""An import's commit lists this many of its memories by title (trailers: all)."""
PURGED_ID = "Purged-Id"

_SUBJECT_RE = re.compile(rf"({'|'.join(VERBS)}): (?:({'|'.join(OBSERVATION_TYPES)}): )?(.*)")
_MEMORY_ID_RE = re.compile(rf"^{MEMORY_ID}: ([0-9A-Z]{{26}})$", re.MULTILINE)
_COUNT_SUBJECT_RE = re.compile(rb"^(\w+): (\d+) memories$")


# ------------------------------------------------------------------ building


def commit_message(verb: str, records: list[Record]) -> str:
    """``save: gotcha: FTS5 MATCH rejects bare hyphens`` plus a Memory-Id trailer each."""
    if len(records) == 1:
        record = records[0]
        title = record.title
        if len(title) > SUBJECT_TITLE_CHARS:
            title = title[: SUBJECT_TITLE_CHARS - 1].rstrip() + "…"
        subject = f"{verb}: {_label(record)}{title}"
        body = ""
    else:
        subject = f"{verb}: {len(records)} memories"
        body = "".join(f"{list_line(r)}\n" for r in records) + "\n"
    return f"{subject}\n\n{body}{memory_id_trailers(r.id for r in records)}"


def import_message(source: str, records: list[Record], *, notes: bool = False) -> str:
    """``import: <N> memories`` from ``source``: the first list lines, every trailer.

    An import may bring thousands of memories; the message lists at most
    ``IMPORT_LIST_LINES`` of them (the trailers name every one, for history).
    ``notes``: the commit also brings the curated MEMORY.md.
    """
    if len(records) == 1 and not notes:
        return commit_message("import", records)
    shown = records[:IMPORT_LIST_LINES]
    lines = "".join(f"{list_line(r)}\n" for r in shown)
    if len(records) > len(shown):
        lines += f"- … and {len(records) - len(shown)} more\n"
    what = f"{len(records)} {'memory' if len(records) == 1 else 'memories'}" if records else ""
    what += (" and " if what and notes else "") + ("MEMORY.md" if notes else "")
    brought = "\nMEMORY.md comes from it too.\n" if notes and records else ""
    message = (
        f"import: {what}\n\nImported from {source}.\n{brought}\n{lines}"
        + ("\n" if lines else "")
        + memory_id_trailers(r.id for r in records)
    )
    return message.rstrip("\n") + "\n"


def uncommitted_message(count: int, ids: list[str]) -> str:
    """What ``mem doctor --fix`` commits: memory files left uncommitted."""
    return (
        f"edit: commit {count} uncommitted memory file(s)\n\n"
        "Committed by mem doctor --fix: edits by hand, or saves interrupted before\n"
        "their commit.\n\n" + memory_id_trailers(ids)
    )


def purge_message(ids: list[str]) -> str:
    """The commit recording purged ids in ``purged.txt``."""
    noun = "memory" if len(ids) == 1 else "memories"
    trailers = "".join(f"{PURGED_ID}: {i}\n" for i in ids)
    return f"purge: {len(ids)} {noun}\n\n{trailers}"


def memory_id_trailers(ids: Iterable[str]) -> str:
    return "".join(f"{MEMORY_ID}: {i}\n" for i in ids)


def list_line(record: Record) -> str:
    """How a message of several memories names one: ``- <type>: <title>``."""
    return f"- {_label(record)}{record.title}"


def _label(record: Record) -> str:
    return f"{record.type}: " if record.kind == "observation" else ""


# ------------------------------------------------------------------- reading


class Subject(NamedTuple):
    action: str
    """One of :data:`VERBS`, or :data:`HAND_EDIT` for a commit mem did not make."""
    type: str
    """The observation type, ``summary``, or empty."""
    title: str


def parse_subject(subject: str) -> Subject:
    """What a commit's first line says was done, to which kind of memory."""
    match = _SUBJECT_RE.fullmatch(subject)
    if not match:
        return Subject(HAND_EDIT, "", subject)
    action, kind, title = match.group(1), match.group(2) or "", match.group(3)
    if action == "summarize":
        kind = "summary"
    return Subject(action, kind, title)


def memory_ids(message: str) -> list[str]:
    """The ids of the Memory-Id trailers of a commit message."""
    return _MEMORY_ID_RE.findall(message)


def memory_id_grep(prefix: str) -> str:
    """A ``git log --grep`` pattern for commits naming ids that start with ``prefix``."""
    return f"{MEMORY_ID}: {prefix}"


def without_memories(message: bytes, trailers: set[bytes], list_lines: set[bytes]) -> bytes:
    """A commit message without some memories' trailers and list lines, its count fixed.

    ``trailers`` and ``list_lines`` are the lines :func:`memory_id_trailers` and
    :func:`list_line` made for those memories, encoded.
    """
    lines = message.split(b"\n")
    if not trailers & set(lines):
        return message
    kept = [ln for ln in lines if ln not in trailers and ln not in list_lines]
    removed = sum(1 for ln in lines if ln in trailers)
    match = _COUNT_SUBJECT_RE.match(kept[0]) if kept else None
    if match:
        left = int(match.group(2)) - removed
        noun = b"memory" if left == 1 else b"memories"
        kept[0] = b"%s: %d %s" % (match.group(1), left, noun)
    return b"\n".join(kept)
