"""The typed Python API: a store opened once, used like the ``mem`` commands.

    >>> import memcli
    >>> with memcli.open_store(project="my-project", create=True) as store:
    ...     saved = store.save("Deploys go out on Tuesdays", type="decision", key="deploy-day")
    ...     hits = store.search("deploy", since="1w")
    ...     records = store.get([hit["id"] for hit in hits])

Every method checks its arguments as the command line does (types against the
seven, ``since`` like ``--since 1w``, bounded limits) and raises a
:class:`~memcli.core.errors.MemError` subclass (``InvalidInput``, ``NotFound``,
``StoreError``, ...) with a one-line message. Results are the dict shapes of
``memcli.core.serialize`` (records and entries), as ``--json`` prints them.

The commands call these same methods (``mem show``, ``forget``, ``save``,
``timeline``, ``list``, ``context``, ``recall``), so there is one code path.

A :class:`MemStore` may be shared by the threads of one process (an MCP or HTTP
server): one lock serializes its calls, since the index connection must not be
used by two threads at once, and writes also take the store's file lock, which
orders them with other processes. It may live long: each call first brings the
index up to date with what other processes committed meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from memcli.core.errors import StoreError

if TYPE_CHECKING:
    from memcli.core.draft import Draft
    from memcli.core.lesson import LessonDraft
    from memcli.service.memory import Memory
    from memcli.store.location import StoreLocation

Records = list[dict[str, Any]]
"""Memories as dicts: records (``record_dict``) or entries (``entry_dict``)."""
SecretsPolicy = Literal["refuse", "redact", "allow"]


def open_store(
    path: str | Path | None = None,
    *,
    project: str | None = None,
    cwd: str | Path | None = None,
    create: bool = False,
    notify: Callable[[str], None] | None = None,
) -> MemStore:
    """The store at ``path``, else ``project``'s central store, else the one ``cwd`` belongs to.

    Found like the command line finds it (``--store``, ``--project``,
    ``MEM_STORE``, a ``.mem/`` above ``cwd``, the central store of ``cwd``'s git
    repository). ``create``: make the store when it does not exist yet; without
    it a missing store is a ``StoreError``. ``notify`` receives mem's notices
    (an index rebuilt, a store created); by default they go to the ``memcli``
    logger.
    """
    from memcli.service.layers import Layers
    from memcli.store.location import locate

    where = Path(cwd) if cwd is not None else Path.cwd()
    location = locate(str(path) if path is not None else None, project, where)
    memory = Layers(location, where, notify or _log).reader()
    if create:
        memory.ensure_store()
    else:
        memory.require_store()
    return MemStore(memory)


def _log(message: str) -> None:
    import logging

    logging.getLogger("memcli").info(message)


class MemStore:
    """One store: save, search, get, timeline, forget, list, context and recall."""

    location: StoreLocation

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.location = memory.location
        self._lock = threading.RLock()
        self._closed = False

    # --------------------------------------------------------------- writing

    def save(
        self,
        text: str,
        *,
        type: str | None = None,
        title: str | None = None,
        facts: Sequence[str] | None = None,
        concepts: Sequence[str] | None = None,
        files: Sequence[str] | None = None,
        key: str | None = None,
        importance: float | None = None,
        session: str | None = None,
        secrets: SecretsPolicy = "refuse",
        agent: str | None = None,
        project_commit: str | None = None,
        supersedes: Sequence[str] | None = None,
        layer: str | None = None,
        guards: Sequence[str] | None = None,
        guard_action: str | None = None,
    ) -> dict[str, Any]:
        """Save a memory and commit it; a ``key`` that exists updates that memory.

        ``agent`` (who saved it) and ``project_commit`` (the project's HEAD then)
        are its provenance: ``mem stale`` compares the memory's files since that
        commit. ``supersedes``: ids or keys of memories this one replaces (they
        leave search, context and recall; git and ``get`` keep them). ``guards``:
        ``TOOL:GLOB`` tool calls the memory watches (``Bash:npm install*``), each with
        ``guard_action`` (deny, ask or warn; default ask); a key's memory given guards
        has them replace its own. Returns the
        stored record (``record_dict``) with ``path``, ``action`` (saved, updated,
        unchanged, or duplicate) and ``commit`` (None when nothing was written).

        An exact duplicate (same type, same text with case, spaces and punctuation
        folded) of a stored memory is not saved again: the answer is that memory,
        with ``action`` "duplicate" and ``duplicate_of`` its id. Otherwise
        ``similar`` lists near-duplicates (id, key, type, title, similarity), so a
        caller may update one by key instead.
        """
        from memcli.api_calls.writes import draft_of

        content = (text, type, title, facts, concepts, files, key, importance)
        provenance = (session, agent, project_commit)
        draft = draft_of(content, provenance, supersedes, guards, guard_action)
        return self.save_draft(draft, secrets=secrets, layer=layer)

    def save_draft(
        self, draft: Draft, *, secrets: SecretsPolicy = "refuse", layer: str | None = None
    ) -> dict[str, Any]:
        """Save what a :class:`~memcli.core.draft.Draft` holds (``mem save`` builds one).

        ``layer``: ``user``, ``project`` or ``team``; by default the layer holding
        the draft's key, else ``[layers]`` of mem.toml for its type (the project).
        """
        from memcli.api_calls import writes

        return writes.save_draft(self, draft, secrets, layer)

    def dedupe(self, *, apply: bool = False, threshold: float | None = None) -> dict[str, Any]:
        """Clusters of near-duplicate memories (``mem dedupe --json``); ``apply``: merge each.

        Returns ``clusters`` (each with its ``keeper``, ``similarity`` and ``members``)
        and, with ``apply``, ``merged``: one commit a cluster, the keeper superseding
        the others (``merged_by``: deterministic or command; ``fallback``: why the
        ``[consolidate] command`` was not used, when it failed).
        """
        from memcli.api_calls import writes

        return writes.dedupe(self, apply, threshold)

    def forget(self, ids: str | Sequence[str]) -> Records:
        """Remove memories (ids, id prefixes or keys) in one commit; history keeps them.

        Nothing is removed unless every one is found (``NotFound`` names those
        that are not). Returns each forgotten memory's entry, with the ``commit``.
        """
        from memcli.api_calls import writes

        return writes.forget(self, ids)

    def promote(
        self,
        ref: str,
        *,
        to: str,
        secrets: SecretsPolicy = "refuse",
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Move a memory (id, id prefix or key; any layer) to the ``to`` layer, keeping its id.

        ``to``: ``user``, ``project`` or ``team``. The secret scan and ``<private>``
        stripping run again: a likely secret is refused (``secrets="redact"``
        stores it redacted) and nothing is written. Returns the record as the
        destination holds it, with ``layer``, ``from``, ``path``, ``commit`` and
        ``removed`` (the destination's and the source's commits; ``""`` where the
        team folder only staged; None for a ``dry_run``, which writes nothing and
        adds ``text``, the file that would be added).
        """
        from memcli.api_calls import writes

        return writes.promote(self, ref, to, secrets, dry_run)

    # --------------------------------------------------------------- reading

    def search(
        self,
        query: str,
        *,
        type: str | Sequence[str] | None = None,
        since: str | None = None,
        until: str | None = None,
        concept: str | None = None,
        file: str | None = None,
        limit: int = 10,
        mode: str | None = None,
        include_superseded: bool = False,
        layer: str | None = None,
        all_projects: bool = False,
    ) -> Records:
        """The best memories for ``query``, as compact entries (``entry_dict``), best first.

        Ranked like ``mem search`` (stop words dropped, any word, phrases and
        prefix* honoured, a substring search when no word matches). ``since`` and
        ``until``: 12h, 3d, 2w, 1m, 1y or an ISO date. Every layer present is
        searched (``layer``: only ``user``, ``project`` or ``team``). Memories another
        one supersedes are left out unless ``include_superseded``. ``all_projects``:
        every project's store under MEM_HOME too, in one ranking (``mem search
        --all-projects``); each entry then has its ``project`` and ``show``, the
        command that shows it.
        """
        from memcli.api_calls import reads

        narrowing = (type, since, until, concept, file)
        return reads.search(
            self, query, narrowing, include_superseded, limit, mode, layer, all_projects
        )

    def get(self, ids: str | Sequence[str]) -> Records:
        """Memories in full (``record_dict`` plus ``path``), in the order asked.

        ``superseded_by``: the ids of the memories that replace it (its successors).

        By id, unique id prefix (4+ characters) or key; ``NotFound`` names every
        one that matches nothing. An id two layers hold gives each layer's record.
        """
        from memcli.api_calls import reads

        return reads.get(self, ids)

    def timeline(
        self, anchor: str, *, before: int = 5, after: int = 5, kind: str | None = None
    ) -> Records:
        """The anchor memory and what was recorded around it, oldest first.

        Each entry has ``anchor``: true for the anchor. ``kind``: only
        ``observation`` or ``summary`` around it.
        """
        from memcli.api_calls import reads

        return reads.timeline(self, anchor, before, after, kind)

    def list(
        self,
        *,
        type: str | None = None,
        limit: int = 20,
        keys: bool = False,
        layer: str | None = None,
        include_superseded: bool = False,
    ) -> Records:
        """The most recent memories, newest first, as compact entries; ``keys``: keyed ones only;
        ``layer``: only that layer's. Memories another one supersedes are left out unless
        ``include_superseded``."""
        from memcli.api_calls import reads

        return reads.recent(self, type, limit, keys, layer, include_superseded)

    def context(self, *, budget: int | None = None) -> str:
        """The session-start context (``mem context``), within ``budget`` characters."""
        from memcli.api_calls import reads

        return reads.context(self, budget)

    def recall(self, prompt: str, *, session: str | None = None, budget: int | None = None) -> str:
        """The memories worth showing for one prompt (``mem recall``); "" when none qualifies.

        ``session``: what earlier prompts of that session were given is left out.
        """
        from memcli.api_calls import reads

        return reads.recall(self, prompt, session, budget)

    # ---------------------------------------------------------- lesson drafts

    def drafts(self) -> Records:
        """The lesson drafts waiting for review, newest first: each ``id``, ``type``,
        ``kind``, ``title``, ``text``, ``files``, ``source`` (agent, session, message),
        ``created``. Drafts are no memories: no other read returns them."""
        from memcli.api_calls import drafts

        return drafts.waiting(self)

    def add_drafts(self, lessons: Sequence[LessonDraft]) -> dict[str, Any]:
        """Write lesson drafts (``core.lesson.LessonDraft``) in one commit, screened as a
        save is, those kept already or drafted before left out: ``added`` (drafts),
        ``dropped`` (id, why), ``expired`` (paths removed), ``commit``."""
        from memcli.api_calls import drafts

        return drafts.add(self, lessons)

    def accept_draft(
        self, ref: str, *, text: str | None = None, title: str | None = None
    ) -> dict[str, Any]:
        """Save a waiting lesson draft (id or unique prefix) as a memory with its provenance
        (session, agent, ``source_message``, ``lesson_draft``), the draft removed in the
        same commit. ``text``/``title``: the draft as edited. Returns the record with
        ``path``, ``action`` (saved, or duplicate: kept already), ``commit``, ``draft``."""
        from memcli.api_calls import drafts

        return drafts.accept(self, ref, text, title)

    def accept_drafts(self, ids: str | Sequence[str] | None = None) -> Records:
        """Accept several waiting lesson drafts (``None``: every one), each in its own
        commit; none is accepted unless every id is found. Each answer as ``accept_draft``.
        One refused (a secret, a bad field) stops the rest; its error names those accepted
        before it, which stay accepted."""
        from memcli.api_calls import drafts

        return drafts.accept_each(self, ids)

    def expire_drafts(self) -> tuple[str, ...]:
        """Remove the lesson drafts older than ``[review] expire`` in one commit; their ids."""
        from memcli.api_calls import drafts

        return drafts.expire(self)

    def reject_draft(self, ids: str | Sequence[str]) -> dict[str, Any]:
        """Remove waiting lesson drafts (ids or unique prefixes) in one commit naming them;
        nothing is removed unless every one is found. ``rejected`` (ids), ``commit``."""
        from memcli.api_calls import drafts

        return drafts.reject(self, ids)

    def search_transcripts(
        self,
        query: str,
        *,
        since: str | None = None,
        until: str | None = None,
        session: str | None = None,
        role: str | None = None,
        limit: int = 10,
    ) -> Records:
        """Messages of the project's indexed agent transcripts (``mem transcripts search``).

        Hits as ``--json`` prints them (``ref`` is ``SESSION:N``; snippets have
        likely secrets redacted), at most three from one session. ``role``: user,
        assistant, tool or summary. ``NotFound`` when no transcript is indexed yet.
        """
        from memcli.api_calls import reads

        return reads.search_transcripts(self, query, since, until, session, role, limit)

    # --------------------------------------------------------------- lifetime

    def close(self) -> None:
        """Close the index connection; the store cannot be used after."""
        with self._lock:
            self._closed = True
            self.memory.close()

    def __enter__(self) -> MemStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<MemStore {str(self.location.root)!r}>"

    def using(self) -> _Using:
        """``with store.using() as memory``: the service layer's memory, caught up, under the
        store's lock (for mem's own adapters that need more than these methods: the viewer)."""
        return _Using(self)


class _Using:
    """Holds the store's lock for one call; refuses a closed store."""

    def __init__(self, store: MemStore) -> None:
        self.store = store

    def __enter__(self) -> Memory:
        self.store._lock.acquire()
        if self.store._closed:
            self.store._lock.release()
            raise StoreError(f"the store at {self.store.location.root} is closed")
        try:
            self.store.memory.catch_up()
        except BaseException:
            self.store._lock.release()
            raise
        return self.store.memory

    def __exit__(self, *exc: object) -> None:
        self.store._lock.release()
