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
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

from memcli.core.errors import InvalidInput, StoreError

if TYPE_CHECKING:
    from memcli.core.draft import Draft
    from memcli.core.lesson import LessonDraft
    from memcli.index import Filters
    from memcli.service.layers import LayeredMemory
    from memcli.service.lesson_drafts import LessonDrafts
    from memcli.service.memory import Memory
    from memcli.store.location import StoreLocation

Records = list[dict[str, Any]]
"""Memories as dicts: records (``record_dict``) or entries (``entry_dict``)."""
SecretsPolicy = Literal["refuse", "redact", "allow"]
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
        from memcli.core.draft import Draft, parse_guards
        from memcli.core.validate import check_importance, check_key, check_type

        draft = Draft(
            text=_text(text, "text"),
            type=check_type(_text(type, "type")) if type is not None else None,
            title=_optional_text(title, "title"),
            facts=_texts(facts, "facts"),
            concepts=_texts(concepts, "concepts"),
            files=_texts(files, "files"),
            key=check_key(_text(key, "key")) if key is not None else None,
            importance=check_importance(importance),
            session=_optional_text(session, "session"),
            agent=_optional_text(agent, "agent"),
            project_commit=_optional_text(project_commit, "project_commit"),
            supersedes=_texts(supersedes, "supersedes"),
            guards=parse_guards(guards, guard_action),
        )
        return self.save_draft(draft, secrets=secrets, layer=layer)

    def save_draft(
        self, draft: Draft, *, secrets: SecretsPolicy = "refuse", layer: str | None = None
    ) -> dict[str, Any]:
        """Save what a :class:`~memcli.core.draft.Draft` holds (``mem save`` builds one).

        ``layer``: ``user``, ``project`` or ``team``; by default the layer holding
        the draft's key, else ``[layers]`` of mem.toml for its type (the project).
        """
        from memcli.core.serialize import record_dict

        if secrets not in SECRETS_POLICIES:
            raise InvalidInput(
                f"unknown secrets policy {secrets!r}: use one of {', '.join(SECRETS_POLICIES)}"
            )
        with self._use() as memory:
            reader = _layered(memory)
            target = reader.save_target(draft, layer)
            writer = target.writer
            if layer is None and set(reader.layers.present()) - {target.layer}:
                # A memory another layer holds is no new memory either, unless a layer
                # is named: then only that layer's twin counts (another layer's copy may
                # be the team's, staged and not yet committed, or another person's).
                writer.seen = reader
            result = writer.save(draft, secrets=secrets)
            held = target.layer
            if result.action == "duplicate":  # the layer holding it, which may be another
                twins = writer.seen.resolve_each(result.record.id)
                held = next((e.layer for e in twins if e.path == result.path), twins[0].layer)
            team = reader.team_key(draft.key, target)
        answer = {
            **record_dict(result.record),
            "path": result.path,
            "layer": held,
            "action": result.action,
            "commit": result.commit,
        }
        if result.action == "duplicate":
            answer["duplicate_of"] = result.record.id
        else:
            answer["similar"] = [similar.to_json() for similar in result.similar]
        if team is not None:
            answer["key_held_by_team"] = team.id
        return answer

    def dedupe(self, *, apply: bool = False, threshold: float | None = None) -> dict[str, Any]:
        """Clusters of near-duplicate memories (``mem dedupe --json``); ``apply``: merge each.

        Returns ``clusters`` (each with its ``keeper``, ``similarity`` and ``members``)
        and, with ``apply``, ``merged``: one commit a cluster, the keeper superseding
        the others (``merged_by``: deterministic or command; ``fallback``: why the
        ``[consolidate] command`` was not used, when it failed).
        """
        from memcli.retrieval.likeness import THRESHOLD
        from memcli.service.dedupe import find_clusters, merge_cluster

        if threshold is not None and (
            isinstance(threshold, bool)
            or not isinstance(threshold, int | float)
            or not 0.3 <= threshold <= 1
        ):
            raise InvalidInput("threshold must be a number from 0.3 to 1")
        with self._use() as memory:
            memory.require_store()
            layers = _layered(memory).layers
            memories = [layers.memory(name) for name in layers.present()]
            clusters = find_clusters(memories, threshold=threshold or THRESHOLD)
            team = layers.home == "team"  # the team's memories merge when its store is named
            merged = (
                [merge_cluster(memories, cluster, team=team) for cluster in clusters]
                if apply
                else []
            )
        names = [m.layer for m in memories]
        return {"clusters": [c.to_json(names) for c in clusters], "merged": merged}

    def forget(self, ids: str | Sequence[str]) -> Records:
        """Remove memories (ids, id prefixes or keys) in one commit; history keeps them.

        Nothing is removed unless every one is found (``NotFound`` names those
        that are not). Returns each forgotten memory's entry, with the ``commit``.
        """
        refs = _refs(ids)
        forgotten: Records = []
        with self._use() as memory:
            for layer, chosen in _layered(memory).owners(refs).items():
                own = _layered(memory).layer_memory(layer)
                entries, commit = own.writer.forget(chosen)
                forgotten += [{**entry, "commit": commit} for entry in own.entry_dicts(entries)]
        return forgotten

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
        from memcli.core.serialize import record_dict
        from memcli.service.promote import promote

        if secrets not in SECRETS_POLICIES:
            raise InvalidInput(
                f"unknown secrets policy {secrets!r}: use one of {', '.join(SECRETS_POLICIES)}"
            )
        target = _text(to, "to")
        if not isinstance(dry_run, bool):
            raise InvalidInput("dry_run must be true or false")
        with self._use() as memory:
            moved = promote(
                _layered(memory), _text(ref, "ref"), target, secrets=secrets, dry_run=dry_run
            )
        result = {
            **record_dict(moved.record),
            "layer": moved.destination,
            "from": moved.source,
            "path": moved.path,
            "commit": moved.commit,
            "removed": moved.removed,
        }
        return result | {"text": moved.text} if dry_run else result

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
        from memcli.retrieval.search import Searcher

        text = _text(query, "query")
        if not text.strip():
            raise InvalidInput("the query is empty")
        filters = _filters(type, since, until, concept, file)._replace(
            superseded=bool(include_superseded)
        )
        count = _bounded(limit, "limit", SEARCH_LIMIT)
        if mode is not None and mode not in SEARCH_MODES:
            raise InvalidInput(f"unknown mode {mode!r}: use one of {', '.join(SEARCH_MODES)}")
        if not isinstance(all_projects, bool):
            raise InvalidInput("all_projects must be true or false")
        if all_projects and layer is not None:
            raise InvalidInput("all_projects reads every layer: leave out layer")
        with self._use() as memory:
            if all_projects:
                return _search_all(_layered(memory), text, filters, count, mode)
            memory = _of_layer(memory, layer)
            outcome = Searcher(memory).search(text, filters, limit=count, mode=mode)
            _lexical_notice(memory.notify, mode, outcome.mode, outcome.semantic)
            return memory.entry_dicts(outcome.entries)

    def get(self, ids: str | Sequence[str]) -> Records:
        """Memories in full (``record_dict`` plus ``path``), in the order asked.

        ``superseded_by``: the ids of the memories that replace it (its successors).

        By id, unique id prefix (4+ characters) or key; ``NotFound`` names every
        one that matches nothing. An id two layers hold gives each layer's record.
        """
        from memcli.core.serialize import record_dict

        refs = _refs(ids)
        with self._use() as memory:
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

    def timeline(
        self, anchor: str, *, before: int = 5, after: int = 5, kind: str | None = None
    ) -> Records:
        """The anchor memory and what was recorded around it, oldest first.

        Each entry has ``anchor``: true for the anchor. ``kind``: only
        ``observation`` or ``summary`` around it.
        """
        ref = _text(anchor, "anchor")
        span = (_bounded(before, "before", TIMELINE_SPAN), _bounded(after, "after", TIMELINE_SPAN))
        if kind not in (None, "observation", "summary"):
            raise InvalidInput(f"unknown kind {kind!r}: use observation or summary")
        with self._use() as memory:
            found = memory.resolve_each(ref)[0]  # an id two layers hold: the time is one
            entries = memory.read(
                lambda index: index.around(found, before=span[0], after=span[1], kind=kind)
            )
            return memory.entry_dicts(entries, anchor=found.id)

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
        from memcli.index import Filters

        types = _types(type)
        count = _bounded(limit, "limit", LIST_LIMIT)
        keyed = bool(keys)
        with self._use() as memory:
            memory = _of_layer(memory, layer)
            entries = memory.read(
                lambda index: index.recent(
                    Filters(types=types, superseded=bool(include_superseded)),
                    limit=count,
                    keyed=keyed,
                )
            )
            return memory.entry_dicts(entries)

    def context(self, *, budget: int | None = None) -> str:
        """The session-start context (``mem context``), within ``budget`` characters."""
        from memcli.retrieval.context import session_start

        chars = _bounded(budget, "budget", BUDGET) if budget is not None else None
        with self._use() as memory:
            return session_start(memory, chars)[1]

    def recall(self, prompt: str, *, session: str | None = None, budget: int | None = None) -> str:
        """The memories worth showing for one prompt (``mem recall``); "" when none qualifies.

        ``session``: what earlier prompts of that session were given is left out.
        """
        from memcli.retrieval.recall import Recall

        text = _text(prompt, "prompt")
        chars = _bounded(budget, "budget", BUDGET) if budget is not None else None
        with self._use() as memory:
            memory.require_store()
            return Recall.gather(
                memory, text, chars, session=_optional_text(session, "session")
            ).render()

    # --------------------------------------------------------------- lifetime

    # ---------------------------------------------------------- lesson drafts

    def drafts(self) -> Records:
        """The lesson drafts waiting for review, newest first: each ``id``, ``type``,
        ``kind``, ``title``, ``text``, ``files``, ``source`` (agent, session, message),
        ``created``. Drafts are no memories: no other read returns them."""
        with self._use() as memory:
            if not memory.store.exists():
                return []
            return [draft.to_json() for draft in _lesson_drafts(memory).waiting()]

    def add_drafts(self, lessons: Sequence[LessonDraft]) -> dict[str, Any]:
        """Write lesson drafts (``core.lesson.LessonDraft``) in one commit, screened as a
        save is, those kept already or drafted before left out: ``added`` (drafts),
        ``dropped`` (id, why), ``expired`` (paths removed), ``commit``."""
        with self._use() as memory:
            done = _lesson_drafts(memory).add(lessons)
        return {
            "added": [draft.to_json() for draft in done.added],
            "dropped": [{"id": i, "why": why} for i, why in done.dropped],
            "expired": done.expired,
            "commit": done.commit,
        }

    def accept_draft(
        self, ref: str, *, text: str | None = None, title: str | None = None
    ) -> dict[str, Any]:
        """Save a waiting lesson draft (id or unique prefix) as a memory with its provenance
        (session, agent, ``source_message``, ``lesson_draft``), the draft removed in the
        same commit. ``text``/``title``: the draft as edited. Returns the record with
        ``path``, ``action`` (saved, or duplicate: kept already), ``commit``, ``draft``."""
        from memcli.core.serialize import record_dict

        ref = _text(ref, "id")
        text, title = _optional_text(text, "text"), _optional_text(title, "title")
        with self._use() as memory:
            memory.require_store()
            done = _lesson_drafts(memory).accept(ref, text=text, title=title)
        return {
            **record_dict(done.result.record),
            "path": done.result.path,
            "action": done.result.action,
            "commit": done.result.commit,
            "draft": done.draft.id,
        }

    def accept_drafts(self, ids: str | Sequence[str] | None = None) -> Records:
        """Accept several waiting lesson drafts (``None``: every one), each in its own
        commit; none is accepted unless every id is found. Each answer as ``accept_draft``.
        One refused (a secret, a bad field) stops the rest; its error names those accepted
        before it, which stay accepted."""
        from memcli.core.errors import MemError

        with self._use() as memory:
            if not memory.store.exists():
                return []
            drafts = _lesson_drafts(memory)
            chosen = drafts.waiting() if ids is None else drafts.resolve(_refs(ids))
        done: list[dict[str, Any]] = []
        for draft in chosen:
            try:
                done.append(self.accept_draft(draft.id))
            except MemError as exc:
                if done:
                    kept = ", ".join(answer["draft"] for answer in done)
                    exc.args = (
                        f"accepted {kept}; {draft.id} and the rest are left waiting: {exc}",
                    )
                raise
        return done

    def expire_drafts(self) -> tuple[str, ...]:
        """Remove the lesson drafts older than ``[review] expire`` in one commit; their ids."""
        with self._use() as memory:
            if not memory.store.exists():
                return ()
            removed, _ = _lesson_drafts(memory).expire()
        return tuple(path.rsplit("/", 1)[-1].removesuffix(".md") for path in removed)

    def reject_draft(self, ids: str | Sequence[str]) -> dict[str, Any]:
        """Remove waiting lesson drafts (ids or unique prefixes) in one commit naming them;
        nothing is removed unless every one is found. ``rejected`` (ids), ``commit``."""
        refs = _refs(ids)
        with self._use() as memory:
            memory.require_store()
            rejected, commit = _lesson_drafts(memory).reject(refs)
        return {"rejected": [draft.id for draft in rejected], "commit": commit}

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
        from memcli.core.timeutil import parse_since, parse_until
        from memcli.service.transcripts import SearchFilters, search, transcripts_path

        text = _text(query, "query")
        start, end = _optional_text(since, "since"), _optional_text(until, "until")
        who = _optional_text(role, "role")
        if who is not None and who not in TRANSCRIPT_ROLES:
            raise InvalidInput(f"unknown role {who!r}: use one of {', '.join(TRANSCRIPT_ROLES)}")
        filters = SearchFilters(
            since=parse_since(start) if start is not None else None,
            until=parse_until(end) if end is not None else None,
            session=_optional_text(session, "session"),
            role=who,
        )
        count = _bounded(limit, "limit", TRANSCRIPT_LIMIT)
        with self._use() as memory:
            path = transcripts_path(memory.store)
        hits, _ = search(path, text, filters, limit=count)
        return [hit.to_json() for hit in hits]

    def close(self) -> None:
        """Close the index connection; the store cannot be used after."""
        with self._lock:
            self._closed = True
            self.memory.close()

    def __enter__(self) -> MemStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<MemStore {str(self.location.root)!r}>"

    def _use(self) -> _Using:
        return _Using(self)

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


def _successors(memory: Memory, identity: str) -> list[str]:
    """The ids of the memories that supersede ``identity`` (any layer read)."""
    return memory.read(lambda index: index.replacing(identity))


# ------------------------------------------------------------------- checks


def _of_layer(memory: Memory, layer: object) -> Memory:
    """The memory reading only ``layer`` (None: every layer, as it is)."""
    if layer is None:
        return memory
    from memcli.service.layers import check_layer

    if not isinstance(layer, str):
        raise InvalidInput("layer must be user, project or team")
    return _layered(memory).layers.reader(check_layer(layer))


def _layered(memory: Memory) -> LayeredMemory:
    """The memory as every layer's reader (one opened some other way reads its own layer)."""
    from memcli.service.layers import LayeredMemory, Layers

    if isinstance(memory, LayeredMemory):
        return memory
    return Layers(memory.location, memory.location.root, memory.notify).reader(memory.layer)


def _lesson_drafts(memory: Memory) -> LessonDrafts:
    """The drafts of the found store, a lesson counting as kept in any layer."""
    from memcli.service.lesson_drafts import drafts_for

    reader = _layered(memory)
    return drafts_for(reader.layers.memory(), reader)


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string, not {_type_name(value)}")
    return value


def _optional_text(value: object, name: str) -> str | None:
    return None if value is None else _text(value, name)


def _texts(value: object, name: str) -> list[str] | None:
    """A list of strings (one string counts as a list of one); None or [] for none."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"{name} must be a list of strings, not {_type_name(value)}")
    return list(value) or None


def _refs(ids: object) -> list[str]:
    refs = _texts(ids, "ids")
    if not refs:
        raise InvalidInput("no id given: give an id, an id prefix or a key")
    if len(refs) > MAX_IDS:
        raise InvalidInput(f"too many ids: at most {MAX_IDS} at once")
    return refs


def _types(value: object) -> tuple[str, ...]:
    from memcli.core.validate import check_type

    return tuple(check_type(t) for t in _texts(value, "type") or [])


def _bounded(value: object, name: str, bounds: tuple[int, int]) -> int:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be a whole number, not {_type_name(value)}")
    if not low <= value <= high:
        raise InvalidInput(f"{name} must be from {low:,} to {high:,}, not {value:,}")
    return value


def _filters(types: object, since: object, until: object, concept: object, file: object) -> Filters:
    from memcli.core.timeutil import parse_since, parse_until
    from memcli.index import Filters

    start = _optional_text(since, "since")
    end = _optional_text(until, "until")
    concepts = _optional_text(concept, "concept")
    path = _optional_text(file, "file")
    return Filters(
        types=_types(types),
        since=parse_since(start) if start is not None else None,
        until=parse_until(end) if end is not None else None,
        concepts=(concepts,) if concepts else (),
        files=(path,) if path else (),
    )


def _type_name(value: object) -> str:
    return type(value).__name__
