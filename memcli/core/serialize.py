"""A memory as a dict: the one public shape, for ``--json``, templates, MCP and HTTP.

Two shapes, versioned together by ``SHAPE_VERSION`` (bump it when a key is removed,
renamed or changes meaning; adding a key is not a new version):

**Record** (``record_dict``): a whole memory file, as ``mem show --json`` and
``mem save --json`` print it and ``show.md.j2`` / ``compaction.md.j2`` receive it.
Frontmatter keys mem does not know come first, as the file has them; then

    id          the ULID, the memory's identity
    kind        "observation" or "summary"
    type        decision, gotcha, ... ("summary" for a summary)
    title       one line
    created     ISO UTC timestamp, e.g. 2026-11-21T20:15:03Z
    updated     ISO UTC timestamp or null
    key         a stable name for the memory, or null
    concepts    list of strings
    files       list of project-relative paths
    facts       list of strings
    importance  0..1 or null
    session     the agent session it came from, or null
    agent       the agent that wrote it (claude, codex, ...), or null
    project_commit
                the project repository's git commit (40 hex digits) when it was
                written, or null
    supersedes  list of the ids of the memories this one replaces
    guards      list of {tool, glob, action}: the tool calls the memory watches
                (tool Bash, Read, Edit or Write; glob the command or path it
                matches; action deny, ask or warn), see ``core.guards``
    request, investigated, learned, completed, next_steps
                text or null; summaries only
    narrative   the markdown body

A summary has no updated, key or importance and no lists: they are null and [].

**Entry** (``entry_dict``): a memory as the index lists it, compact, for
``mem search --json`` and ``mem list --json``, and the base of every memory the
context and recall templates receive:

    id, short_id (the id cut to its store's one length, unique there), kind, key,
    type, title, created, updated, importance, score (the search rank, or null),
    path (of its file), concepts, files, layer ("user", "project" or "team": the
    store that holds it)

Retrieval adds to an entry what it shows of the memory: ``facts`` (clipped),
``text`` (a summary's body), ``excerpt`` and ``matched`` (recall).

**Note** (``note_dict``): a section of the curated notes (MEMORY.md, notes/) that
a search found:

    kind "note", path (of its file), heading ("Deploy > Rollback"), line (where
    the section starts, 1-based), excerpt (its text on one line, clipped), score

**JSON** (``to_json``, ``from_json``): every shape above is written as strict JSON.
A hand-edited file can hold numbers JSON has not (YAML's ``.inf``, ``.nan``): they
are written as the strings ``"Infinity"``, ``"-Infinity"`` and ``"NaN"``. Read as
input, such a number is refused.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from memcli.core.errors import InvalidInput
from memcli.core.schema import KNOWN_FIELDS, SHORT_ID_CHARS

if TYPE_CHECKING:  # kept out of the import: `mem search --json` needs neither
    from typing import Protocol

    from memcli.core.model import Record

    class NoteSection(Protocol):
        """What a section of the notes has (``index.notes.NoteHit``)."""

        @property
        def path(self) -> str: ...
        @property
        def heading(self) -> str: ...
        @property
        def line(self) -> int: ...
        @property
        def text(self) -> str: ...
        @property
        def score(self) -> float: ...

    class IndexedMemory(Protocol):
        """What an entry of the index has (``index.Entry``); core does not import the index."""

        @property
        def id(self) -> str: ...
        @property
        def kind(self) -> str: ...
        @property
        def type(self) -> str: ...
        @property
        def title(self) -> str: ...
        @property
        def created(self) -> str: ...
        @property
        def updated(self) -> str | None: ...
        @property
        def key(self) -> str | None: ...
        @property
        def importance(self) -> float | None: ...
        @property
        def score(self) -> float | None: ...
        @property
        def layer(self) -> str: ...
        @property
        def path(self) -> str: ...
        @property
        def concepts(self) -> list[str]: ...
        @property
        def files(self) -> list[str]: ...


SHAPE_VERSION = 1
RECORD_KEYS = ("id", "kind", *KNOWN_FIELDS[1:], "narrative")
"""Every record's keys; a summary's also has its sections, before ``narrative``."""
ENTRY_KEYS = (
    "id",
    "short_id",
    "kind",
    "key",
    "type",
    "title",
    "created",
    "updated",
    "importance",
    "score",
    "path",
    "concepts",
    "files",
    "layer",
)


def record_dict(record: Record) -> dict[str, Any]:
    """The record shape of an observation or a summary (see the module docstring)."""
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
            "agent": record.agent,
            "project_commit": record.project_commit,
            "supersedes": list(record.supersedes),
            "guards": [guard.to_frontmatter() for guard in record.guards],
        }
    )
    if record.kind == "summary":
        from memcli.core.model import SUMMARY_FIELDS

        data.update({name: getattr(record, name) for name in SUMMARY_FIELDS})
    data["narrative"] = record.narrative
    return data


def entry_dict(entry: IndexedMemory, short_id: str | None = None) -> dict[str, Any]:
    """The entry shape of an indexed memory (see the module docstring).

    ``short_id``: the id at its store's short length (``Index.short_ids``) where
    the caller knows it, else the first ``SHORT_ID_CHARS`` characters of the id.
    """
    return {
        "id": entry.id,
        "short_id": short_id or entry.id[:SHORT_ID_CHARS],
        "kind": entry.kind,
        "key": entry.key,
        "type": entry.type,
        "title": entry.title,
        "created": entry.created,
        "updated": entry.updated,
        "importance": entry.importance,
        "score": entry.score,
        "path": entry.path,
        "concepts": entry.concepts,
        "files": entry.files,
        "layer": entry.layer,
    }


def note_dict(hit: NoteSection) -> dict[str, Any]:
    """The note shape of a section of the curated notes (see the module docstring)."""
    from memcli.core.chunks import excerpt
    from memcli.core.text import one_line

    return {
        "kind": "note",
        "path": hit.path,
        "heading": one_line(hit.heading, 1000),
        "line": hit.line,
        "excerpt": excerpt(hit.text),
        "score": hit.score,
    }


def json_safe(value: Any) -> Any:
    """``value`` with each float that strict JSON cannot carry (infinite, NaN) as a string."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, dict):
        return {name: json_safe(item) for name, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    return value


def to_json(value: Any, **options: Any) -> str:
    """``value`` as strict JSON (what every JSON parser reads), UTF-8 characters as they are.

    A copy without non-finite floats is made only when there is one (a hand edit): the
    usual output is dumped as it is.
    """
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, **options)
    except ValueError:  # an infinite or NaN float somewhere
        return json.dumps(json_safe(value), ensure_ascii=False, allow_nan=False, **options)


def from_json(text: str) -> Any:
    """Parse JSON input; ``InvalidInput`` for a number that is infinite or NaN.

    Python's parser takes ``Infinity`` and ``NaN``, and reads ``1e309`` as infinity:
    stored, such a number could not be written back as JSON.
    """
    return json.loads(text, parse_constant=_refused, parse_float=_finite)


def _finite(literal: str) -> float:
    number = float(literal)
    if not math.isfinite(number):
        _refused(literal)
    return number


def _refused(literal: str) -> float:
    raise InvalidInput(f"not a finite number: infinity and NaN are not JSON ({literal[:40]})")
