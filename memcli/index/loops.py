"""Supersede loops in the index: the tags between members of a loop get a kind of their own.

Reads leave out a memory another one supersedes (tags of kind 'supersedes'); a loop
written by hand would hide all its members. After each refresh that changed rows,
the tags inside a loop become 'supersedes-loop' and those of a loop since broken
become 'supersedes' again. Stores without supersedes pay one indexed query.
"""

from __future__ import annotations

import apsw

from memcli.core.loops import loops
from memcli.index.schema import LOOP_KIND, SET_SUPERSEDE_KIND, SUPERSEDE_EDGES


def mark_loops(db: apsw.Connection) -> None:
    """Give each supersedes tag the kind its place (in a loop or not) calls for."""
    edges = [
        (str(source), str(target), str(kind))
        for source, target, kind in db.execute(SUPERSEDE_EDGES)
    ]
    if not edges:
        return
    replaces: dict[str, list[str]] = {}
    for source, target, _ in edges:
        replaces.setdefault(source, []).append(target)
    member_of: dict[str, int] = {}
    for number, members in enumerate(loops(replaces)):
        member_of.update((identity.upper(), number) for identity in members)
    for source, target, kind in edges:
        held = member_of.get(source.upper())
        wanted = (
            LOOP_KIND
            if held is not None and member_of.get(target.upper()) == held
            else "supersedes"
        )
        if wanted != kind:
            db.execute(
                SET_SUPERSEDE_KIND, {"new": wanted, "old": kind, "value": target, "id": source}
            )
