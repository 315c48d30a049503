"""MemStore's arguments checked as the command line checks them, its bounds, and the
layers a call reads.

Each check returns the value as the service takes it, or raises ``InvalidInput``
with a one-line message naming the argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memcli.core.errors import InvalidInput

if TYPE_CHECKING:
    from memcli.index import Filters
    from memcli.service.layers import LayeredMemory
    from memcli.service.memory import Memory

SECRETS_POLICIES = ("refuse", "redact", "allow")
SEARCH_LIMIT = (1, 1000)
LIST_LIMIT = (1, 100_000)
TIMELINE_SPAN = (0, 1000)
BUDGET = (200, 1_000_000)
TRANSCRIPT_LIMIT = (1, 200)
TRANSCRIPT_ROLES = ("user", "assistant", "tool", "summary")
MAX_IDS = 1000
"""At most this many ids in one ``get`` or ``forget``."""
SEARCH_MODES = ("lexical", "semantic", "hybrid")


def secrets_policy(secrets: object) -> None:
    if secrets not in SECRETS_POLICIES:
        raise InvalidInput(
            f"unknown secrets policy {secrets!r}: use one of {', '.join(SECRETS_POLICIES)}"
        )


def text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string, not {type_name(value)}")
    return value


def optional_text(value: object, name: str) -> str | None:
    return None if value is None else text(value, name)


def texts(value: object, name: str) -> list[str] | None:
    """A list of strings (one string counts as a list of one); None or [] for none."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"{name} must be a list of strings, not {type_name(value)}")
    return list(value) or None


def refs(ids: object) -> list[str]:
    found = texts(ids, "ids")
    if not found:
        raise InvalidInput("no id given: give an id, an id prefix or a key")
    if len(found) > MAX_IDS:
        raise InvalidInput(f"too many ids: at most {MAX_IDS} at once")
    return found


def types(value: object) -> tuple[str, ...]:
    from memcli.core.validate import check_type

    return tuple(check_type(t) for t in texts(value, "type") or [])


def bounded(value: object, name: str, bounds: tuple[int, int]) -> int:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be a whole number, not {type_name(value)}")
    if not low <= value <= high:
        raise InvalidInput(f"{name} must be from {low:,} to {high:,}, not {value:,}")
    return value


def optional_budget(value: object) -> int | None:
    return bounded(value, "budget", BUDGET) if value is not None else None


def filters(kinds: object, since: object, until: object, concept: object, file: object) -> Filters:
    from memcli.core.timeutil import parse_since, parse_until
    from memcli.index import Filters

    start = optional_text(since, "since")
    end = optional_text(until, "until")
    concepts = optional_text(concept, "concept")
    path = optional_text(file, "file")
    return Filters(
        types=types(kinds),
        since=parse_since(start) if start is not None else None,
        until=parse_until(end) if end is not None else None,
        concepts=(concepts,) if concepts else (),
        files=(path,) if path else (),
    )


def type_name(value: object) -> str:
    return type(value).__name__


def of_layer(memory: Memory, layer: object) -> Memory:
    """The memory reading only ``layer`` (None: every layer, as it is)."""
    if layer is None:
        return memory
    from memcli.service.layers import check_layer

    if not isinstance(layer, str):
        raise InvalidInput("layer must be user, project or team")
    return layered(memory).layers.reader(check_layer(layer))


def layered(memory: Memory) -> LayeredMemory:
    """The memory as every layer's reader (one opened some other way reads its own layer)."""
    from memcli.service.layers import LayeredMemory, Layers

    if isinstance(memory, LayeredMemory):
        return memory
    return Layers(memory.location, memory.location.root, memory.notify).reader(memory.layer)
