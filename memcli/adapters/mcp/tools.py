"""The MCP tools: their names, descriptions and input schemas, and each call on a MemStore.

Nothing here imports the MCP SDK: the schemas are plain JSON Schema, kept small
because a client sends the whole ``tools/list`` answer to its model on every turn
(tests/test_mcp.py holds it under 3,000 characters). The descriptions teach the
reading pattern: ``search`` for the compact index, ``timeline`` around a hit,
``get`` for the few full records worth reading.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from memcli.core.errors import InvalidInput
from memcli.core.guards import ACTIONS
from memcli.core.schema import LAYERS, OBSERVATION_TYPES
from memcli.core.serialize import to_json

if TYPE_CHECKING:
    from memcli.api import MemStore

MAX_LIMIT = 100
"""The most memories one ``search`` returns."""
MAX_AROUND = 50
"""The most memories ``timeline`` shows on each side of its anchor."""
MAX_IDS = 100
"""The most ids one ``get`` or ``forget`` takes."""

_TYPE = {"type": "string", "enum": list(OBSERVATION_TYPES)}
_IDS = {"type": ["string", "array"], "items": {"type": "string"}}
_LIST = {"type": "array", "items": {"type": "string"}}
_WHEN = "12h, 3d, 2w, 1m, 1y or an ISO date"
_LAYER = {"type": "string", "enum": list(LAYERS)}

TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "search": (
        "Search the project's memories (decisions, gotchas, preferences...), or every "
        "project's (all_projects): id, type, title, date each. Start here; then `timeline` "
        "around a hit, then `get` the ids worth reading in full.",
        {
            "query": {"type": "string"},
            "type": _TYPE,
            "since": {"type": "string", "description": _WHEN},
            "until": {"type": "string"},  # as since
            "concept": {"type": "string"},
            "file": {"type": "string"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
            "all_projects": {"type": "boolean"},
        },
    ),
    "timeline": (
        "Memories saved just before and after one (anchor: id or key): what happened around a hit.",
        {
            "anchor": {"type": "string"},
            "before": {"type": "integer", "minimum": 0, "maximum": MAX_AROUND},
            "after": {"type": "integer", "minimum": 0, "maximum": MAX_AROUND},
        },
    ),
    "get": (
        "Full records of memories by id or key (several at once). Use after `search`/`timeline`.",
        {"ids": _IDS},
    ),
    "save": (
        "Save a memory for later sessions (one git commit). Facts: short standalone "
        "statements; a key saved again is updated; supersedes: id or key it replaces; "
        "guards: TOOL:GLOB calls it forbids. Answers similar or duplicate_of.",
        {
            "text": {"type": "string"},
            "type": _TYPE,
            "title": {"type": "string"},
            "facts": _LIST,
            "concepts": _LIST,
            "files": _LIST,
            "key": {"type": "string"},
            "importance": {"type": "number", "minimum": 0, "maximum": 1},
            "supersedes": {"type": "string"},
            "layer": _LAYER,
            "guards": _LIST,
            "guard_action": {"enum": list(ACTIONS)},
        },
    ),
    "forget": (
        "Forget memories by id or key (one git commit; history keeps them).",
        {"ids": _IDS},
    ),
    "context": (
        "The session-start context: curated notes and recent memories, as text.",
        {},
    ),
    "search_transcripts": (
        "Search this project's past agent sessions (transcripts) when memories have no answer: "
        "snippets with SESSION:N refs.",
        {
            "query": {"type": "string"},
            "session": {"type": "string"},
            "since": {"type": "string", "description": _WHEN},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
        },
    ),
}
REQUIRED = {"search": ["query"], "timeline": ["anchor"], "get": ["ids"], "save": ["text"]}
REQUIRED["forget"] = ["ids"]
REQUIRED["search_transcripts"] = ["query"]


def input_schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": TOOLS[name][1]}
    if name in REQUIRED:
        schema["required"] = REQUIRED[name]
    return schema


def call(
    store: MemStore,
    name: str,
    arguments: dict[str, Any],
    provenance: Mapping[str, str | None] | None = None,
) -> str:
    """Run one tool on ``store``; its answer as text (JSON, or the context itself).

    ``provenance`` (``agent``, ``project_commit``) goes with a save. Raises
    ``InvalidInput`` for arguments the tool does not take, and whatever
    ``MemError`` the store raises (unknown ids, a bad ``since``, a store error).
    """
    if name not in TOOLS:
        raise InvalidInput(f"no tool {name!r}: use one of {', '.join(TOOLS)}")
    if not isinstance(arguments, dict):
        raise InvalidInput(f"{name}: the arguments must be an object")
    allowed = TOOLS[name][1]
    unknown = sorted(set(arguments) - set(allowed))
    if unknown:
        raise InvalidInput(
            f"{name} takes no {', '.join(map(repr, unknown))}; it takes "
            f"{', '.join(allowed) or 'no arguments'}"
        )
    for field in REQUIRED.get(name, []):
        if arguments.get(field) in (None, "", []):
            raise InvalidInput(f"{name} needs {field!r}")
    if "type" in arguments and arguments["type"] not in OBSERVATION_TYPES:
        raise InvalidInput(
            f"invalid type {arguments['type']!r}: use one of {', '.join(OBSERVATION_TYPES)}"
        )
    result = _CALLS[name](store, {**arguments, **(provenance or {})})
    if isinstance(result, str):
        return result
    return to_json(result, separators=(",", ":"))


def _ids(value: Any) -> list[str]:
    ids = [value] if isinstance(value, str) else value
    if not isinstance(ids, list) or not all(isinstance(i, str) and i for i in ids):
        raise InvalidInput("ids must be an id or key, or a list of them")
    if len(ids) > MAX_IDS:
        raise InvalidInput(f"at most {MAX_IDS} ids at once, not {len(ids)}")
    return ids


def _count(arguments: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = arguments.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{name} must be a whole number from {low} to {high}")
    return value


def _search(store: MemStore, a: dict[str, Any]) -> Any:
    return store.search(
        a["query"],
        type=a.get("type"),
        since=a.get("since"),
        until=a.get("until"),
        concept=a.get("concept"),
        file=a.get("file"),
        limit=_count(a, "limit", 10, 1, MAX_LIMIT),
        all_projects=a.get("all_projects", False),
    )


def _timeline(store: MemStore, a: dict[str, Any]) -> Any:
    return store.timeline(
        a["anchor"],
        before=_count(a, "before", 5, 0, MAX_AROUND),
        after=_count(a, "after", 5, 0, MAX_AROUND),
    )


def _save(store: MemStore, a: dict[str, Any]) -> Any:
    fields = ["type", "title", "facts", "concepts", "files", "key", "importance", "layer"]
    fields += ["guards", "guard_action"]
    fields += ["agent", "project_commit"]  # provenance: from the server, not the client
    chosen = {field: a[field] for field in fields if field in a}
    if "supersedes" in a:  # one id or key, as the schema says
        chosen["supersedes"] = [a["supersedes"]] if isinstance(a["supersedes"], str) else None
        if chosen["supersedes"] is None:
            raise InvalidInput("supersedes must be an id or key")
    return store.save(a["text"], **chosen)


def _context(store: MemStore, a: dict[str, Any]) -> Any:
    return store.context() or "(no memories yet)"


_CALLS: dict[str, Callable[[MemStore, dict[str, Any]], Any]] = {
    "search": _search,
    "timeline": _timeline,
    "get": lambda store, a: store.get(_ids(a["ids"])),
    "save": _save,
    "forget": lambda store, a: store.forget(_ids(a["ids"])),
    "context": _context,
    "search_transcripts": lambda store, a: store.search_transcripts(
        a["query"],
        session=a.get("session"),
        since=a.get("since"),
        limit=_count(a, "limit", 10, 1, MAX_LIMIT),
    ),
}
