"""Supersedes: a memory that replaces others, checked, and the chains it makes.

A memory lists the ids it replaces in its ``supersedes`` field. The replaced
memories stay in the store and in git; reads leave them out by default (the
index's ``current`` filter). The chain must not loop: a memory cannot replace
one that already replaces it, directly or through others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from memcli.core.errors import InvalidInput

if TYPE_CHECKING:
    from memcli.core.model import Record
    from memcli.index import Index
    from memcli.service.memory import Memory

MAX_CHAIN = 1000
"""A chain is followed this far at most (a store holding a loop made by hand stops here)."""


def resolve_replaced(memory: Memory, refs: Iterable[str], identity: str) -> list[str]:
    """The ids of the memories ``refs`` name (ids, prefixes or keys), checked for ``identity``.

    Each must be a stored observation other than ``identity``, and none may
    already be replaced by ``identity`` through a chain that leads back to it.
    """
    ids: list[str] = []
    for ref in refs:
        entry = memory.resolve(ref)
        if entry.kind != "observation":
            raise InvalidInput(f"{entry.id} is a session summary: only a memory can be superseded")
        if entry.id not in ids:
            ids.append(entry.id)
    check_no_cycle(memory, identity, ids)
    return ids


def check_record(memory: Memory, record: Record) -> None:
    """A memory file's ``supersedes`` names stored memories and makes no loop."""
    present = memory.read(lambda index: [index.path_of(old) for old in record.supersedes])
    missing = [old for old, path in zip(record.supersedes, present, strict=True) if path is None]
    if missing:
        raise InvalidInput(
            f"supersedes: no memory has the id {missing[0]} (forgotten, or mistyped)"
        )
    check_no_cycle(memory, record.id, record.supersedes)


def check_no_cycle(memory: Memory, identity: str, replaced: Iterable[str]) -> None:
    """Refuse ``identity`` replacing ``replaced`` when one of them leads back to it."""
    for old in replaced:
        if old == identity:
            raise InvalidInput("a memory cannot supersede itself")
        if identity in predecessors(memory, old):
            raise InvalidInput(
                f"{old} already supersedes {identity} (directly or through others): "
                "superseding it back would make a loop"
            )


def predecessors(memory: Memory, identity: str) -> list[str]:
    """Every memory ``identity`` replaces, directly or through others, nearest first."""
    return _walk(memory, identity, lambda index, i: index.replaced_by(i))


def successors(memory: Memory, identity: str) -> list[str]:
    """Every memory that replaces ``identity``, directly or through others, nearest first."""
    return _walk(memory, identity, lambda index, i: index.replacing(i))


def _walk(memory: Memory, start: str, follow: Callable[[Index, str], list[str]]) -> list[str]:
    """The chain from ``start``, read as the memory reads (every layer it reads: a memory
    read across layers has no index of its own when its project has no store yet)."""
    return memory.read(lambda index: _chain(index, start, follow))


def _chain(index: Index, start: str, follow: Callable[[Index, str], list[str]]) -> list[str]:
    seen: list[str] = []
    frontier = [start]
    while frontier and len(seen) < MAX_CHAIN:
        for found in follow(index, frontier.pop(0)):
            if found != start and found not in seen:
                seen.append(found)
                frontier.append(found)
    return seen
