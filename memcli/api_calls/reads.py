"""MemStore's reads: search (one project or every one), get, timeline, list, context,
recall, and the search of the agents' transcripts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memcli.api_calls import checks
from memcli.core.errors import InvalidInput

if TYPE_CHECKING:
    from memcli.api import MemStore, Records
    from memcli.index import Filters
    from memcli.service.layers import LayeredMemory
    from memcli.service.memory import Memory


def search(
    store: MemStore,
    query: object,
    narrowing: tuple[object, object, object, object, object],
    superseded: object,
    limit: object,
    mode: str | None,
    layer: str | None,
    all_projects: object,
) -> Records:
    """``MemStore.search``; ``narrowing``: its type, since, until, concept and file."""
    from memcli.retrieval.search import Searcher

    text = checks.text(query, "query")
    if not text.strip():
        raise InvalidInput("the query is empty")
    filters = checks.filters(*narrowing)._replace(superseded=bool(superseded))
    count = checks.bounded(limit, "limit", checks.SEARCH_LIMIT)
    if mode is not None and mode not in checks.SEARCH_MODES:
        modes = ", ".join(checks.SEARCH_MODES)
        raise InvalidInput(f"unknown mode {mode!r}: use one of {modes}")
    if not isinstance(all_projects, bool):
        raise InvalidInput("all_projects must be true or false")
    if all_projects and layer is not None:
        raise InvalidInput("all_projects reads every layer: leave out layer")
    with store.using() as memory:
        if all_projects:
            return _search_all(checks.layered(memory), text, filters, count, mode)
        memory = checks.of_layer(memory, layer)
        outcome = Searcher(memory).search(text, filters, limit=count, mode=mode)
        _lexical_notice(memory.notify, mode, outcome.mode, outcome.semantic)
        return memory.entry_dicts(outcome.entries)


def _search_all(
    home: LayeredMemory, text: str, filters: Filters, count: int, mode: str | None
) -> Records:
    """``MemStore.search`` of every project (``service.all_projects``)."""
    from memcli.retrieval.search import Searcher
    from memcli.service.all_projects import AllProjects, hit_dicts

    reader = AllProjects(home)

    def run(notify: Callable[[str], None]) -> Records:
        outcome = Searcher(reader).search(text, filters, limit=count, mode=mode)
        _lexical_notice(notify, mode, outcome.mode, outcome.semantic)
        return hit_dicts(reader, outcome.entries)

    try:
        return reader.searched(run)
    finally:
        reader.close()


def _lexical_notice(notify: Callable[[str], None], asked: str | None, used: str, why: str) -> None:
    if asked in ("semantic", "hybrid") and used != asked:
        notify(f"{why}; searching by full text")


def get(store: MemStore, ids: object) -> Records:
    """``MemStore.get``: each record with its path, layer and successors."""
    from memcli.core.serialize import record_dict

    refs = checks.refs(ids)
    with store.using() as memory:
        entries = memory.resolve_all(refs, each_layer=True)
        return [
            {
                **record_dict(memory.load(entry)),
                "path": entry.path,
                "layer": entry.layer,
                "superseded_by": _successors(memory, entry.id),
            }
            for entry in entries
        ]


def _successors(memory: Memory, identity: str) -> list[str]:
    """The ids of the memories that supersede ``identity`` (any layer read)."""
    return memory.read(lambda index: index.replacing(identity))


def timeline(
    store: MemStore, anchor: object, before: object, after: object, kind: str | None
) -> Records:
    """``MemStore.timeline``: the entries around the anchor, the anchor marked."""
    ref = checks.text(anchor, "anchor")
    span = checks.TIMELINE_SPAN
    wanted = (checks.bounded(before, "before", span), checks.bounded(after, "after", span))
    if kind not in (None, "observation", "summary"):
        raise InvalidInput(f"unknown kind {kind!r}: use observation or summary")
    with store.using() as memory:
        found = memory.resolve_each(ref)[0]  # an id two layers hold: the time is one
        entries = memory.read(
            lambda index: index.around(found, before=wanted[0], after=wanted[1], kind=kind)
        )
        return memory.entry_dicts(entries, anchor=found.id)


def recent(
    store: MemStore, kinds: object, limit: object, keys: object, layer: object, superseded: object
) -> Records:
    """``MemStore.list``: the most recent entries, newest first."""
    from memcli.index import Filters

    types = checks.types(kinds)
    count = checks.bounded(limit, "limit", checks.LIST_LIMIT)
    keyed = bool(keys)
    with store.using() as memory:
        memory = checks.of_layer(memory, layer)
        entries = memory.read(
            lambda index: index.recent(
                Filters(types=types, superseded=bool(superseded)), limit=count, keyed=keyed
            )
        )
        return memory.entry_dicts(entries)


def context(store: MemStore, budget: object) -> str:
    """``MemStore.context``: the session-start context."""
    from memcli.retrieval.context import session_start

    chars = checks.optional_budget(budget)
    with store.using() as memory:
        return session_start(memory, chars)[1]


def recall(store: MemStore, prompt: object, session: object, budget: object) -> str:
    """``MemStore.recall``: what one prompt recalls, rendered."""
    from memcli.retrieval.recall import Recall

    text = checks.text(prompt, "prompt")
    chars = checks.optional_budget(budget)
    with store.using() as memory:
        memory.require_store()
        return Recall.gather(
            memory, text, chars, session=checks.optional_text(session, "session")
        ).render()


def search_transcripts(
    store: MemStore,
    query: object,
    since: object,
    until: object,
    session: object,
    role: object,
    limit: object,
) -> Records:
    """``MemStore.search_transcripts``: the hits as ``--json`` prints them."""
    from memcli.core.timeutil import parse_since, parse_until
    from memcli.service.transcripts import SearchFilters, search, transcripts_path

    text = checks.text(query, "query")
    start, end = checks.optional_text(since, "since"), checks.optional_text(until, "until")
    who = checks.optional_text(role, "role")
    if who is not None and who not in checks.TRANSCRIPT_ROLES:
        roles = ", ".join(checks.TRANSCRIPT_ROLES)
        raise InvalidInput(f"unknown role {who!r}: use one of {roles}")
    filters = SearchFilters(
        since=parse_since(start) if start is not None else None,
        until=parse_until(end) if end is not None else None,
        session=checks.optional_text(session, "session"),
        role=who,
    )
    count = checks.bounded(limit, "limit", checks.TRANSCRIPT_LIMIT)
    with store.using() as memory:
        path = transcripts_path(memory.store)
    hits, _ = search(path, text, filters, limit=count)
    return [hit.to_json() for hit in hits]
