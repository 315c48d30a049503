"""Lesson drafts waiting for a person: added from a session, accepted into memories, rejected.

A finished session's drafts (``core.lesson.LessonDraft``) arrive in the store in one
commit (``add``), through the writer's one commit path, so that a crash leaves none
half written (``store.pending``). Before that each is screened as every save is
(``<private>`` spans dropped, likely secrets redacted: nobody is there to decide),
and dropped when the store holds its lesson already in any layer (an exact or near
duplicate, as ``mem save`` finds them), when it was drafted before (pending,
accepted, rejected: ``store.drafts.drafted_before``), or when a pending draft says
nearly the same. Drafts older than ``[review] expire`` are removed by the next
commit of drafts (or ``mem review``) and are never listed.

Accepting a draft saves it through the normal save (screening, duplicates, the
journal) with its provenance (``session``, ``agent``, ``source_message``,
``lesson_draft``) and removes the draft in the same commit; rejecting removes it,
the commit naming it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from memcli.core.errors import Ambiguous, InvalidInput, NotFound
from memcli.store.drafts import StoredDraft, drafted_before, read_drafts, trailers

if TYPE_CHECKING:
    import datetime as dt

    from memcli.core.lesson import LessonDraft
    from memcli.core.model import Observation
    from memcli.core.secrets import Policy
    from memcli.service.layers import LayeredMemory
    from memcli.service.memory import Memory
    from memcli.service.writer import SaveResult

SOURCE_MESSAGE = "source_message"
"""The frontmatter field of an accepted draft's memory: the message it was drafted from."""
LESSON_DRAFT = "lesson_draft"
"""The frontmatter field of an accepted draft's memory: the draft's id."""
SUBJECT_TITLE_CHARS = 60


class DraftsAdded(NamedTuple):
    commit: str | None
    """None when nothing was written (every draft dropped, nothing expired)."""
    added: list[StoredDraft]
    dropped: list[tuple[str, str]]
    """(draft id, why): drafts not written."""
    expired: list[str]


class Accepted(NamedTuple):
    draft: StoredDraft
    result: SaveResult
    """The save; ``action`` ``duplicate`` when the store held the lesson already (the
    draft is removed all the same)."""


class LessonDrafts:
    """The lesson drafts of ``memory``'s store. ``seen``: where a lesson counts as kept
    already (a reader of every layer; the store itself by default)."""

    def __init__(self, memory: Memory, seen: Memory | None = None) -> None:
        self.memory = memory
        self.store = memory.store
        self.seen = seen or memory

    # --------------------------------------------------------------- reading

    def waiting(self) -> list[StoredDraft]:
        """The drafts waiting for review, newest first (none expired)."""
        return self._split()[0]

    def resolve(self, refs: Iterable[str]) -> list[StoredDraft]:
        """The waiting drafts ``refs`` name (ids or unique prefixes); every one must be found."""
        waiting = self.waiting()
        chosen: dict[str, StoredDraft] = {}
        for ref in refs:
            wanted = ref.strip().lower()
            found = [d for d in waiting if wanted and d.id.startswith(wanted)]
            if not found:
                raise NotFound(f"no lesson draft waiting matches {ref!r} (`mem review` lists them)")
            if len(found) > 1:
                ids = ", ".join(d.id for d in found)
                raise Ambiguous(
                    f"{ref!r} matches {len(found)} lesson drafts ({ids}): give more of the id"
                )
            chosen.setdefault(found[0].id, found[0])
        return list(chosen.values())

    def _split(self, moment: dt.datetime | None = None) -> tuple[list[StoredDraft], list[str]]:
        """(the drafts still waiting, the paths of the expired ones)."""
        import datetime as dt

        from memcli.core import config
        from memcli.core.timeutil import now, parse_timestamp

        drafts = read_drafts(self.store)
        if not drafts:
            return [], []
        limit = config.window_seconds(config.load(self.store.root)["review"]["expire"])
        try:
            oldest = (moment or now()) - dt.timedelta(seconds=limit)
        except OverflowError:  # a clock set in the first days of year one
            oldest = dt.datetime.min.replace(tzinfo=dt.UTC)
        live, expired = [], []
        for draft in drafts:
            try:
                old = parse_timestamp(draft.created) < oldest
            except (ValueError, InvalidInput):
                old = False  # a hand-edited date: kept until a person decides
            if old:
                expired.append(draft.path)
            else:
                live.append(draft)
        return live, expired

    # --------------------------------------------------------------- writing

    def add(self, lessons: Sequence[LessonDraft]) -> DraftsAdded:
        """Write the session's drafts worth a person's time in ONE commit (with the
        expired ones removed)."""
        from memcli.core.timeutil import format_timestamp, now

        stamp = format_timestamp(now())
        outcome: list[DraftsAdded] = []

        def plan() -> tuple[dict[str, bytes], list[str], str] | None:
            live, expired = self._split()
            kept, dropped = self._worth_keeping(lessons, live, stamp)
            outcome.append(DraftsAdded(None, kept, dropped, expired))
            if not kept and not expired:
                return None
            writes = {d.path: d.to_markdown().encode("utf-8") for d in kept}
            return writes, expired, _added_message(kept, expired)

        commit = self.memory.writer.commit_drafts(plan)
        return outcome[-1]._replace(commit=commit)

    def expire(self) -> tuple[list[str], str | None]:
        """Remove the expired drafts in one commit; (their paths, the commit)."""
        removed: list[str] = []

        def plan() -> tuple[dict[str, bytes], list[str], str] | None:
            removed[:] = self._split()[1]
            return ({}, removed, _added_message([], removed)) if removed else None

        if not self._split()[1]:
            return [], None
        return removed, self.memory.writer.commit_drafts(plan)

    def reject(self, refs: Iterable[str]) -> tuple[list[StoredDraft], str | None]:
        """Remove the drafts ``refs`` name in one commit naming them; nothing unless all
        are found."""
        chosen: list[StoredDraft] = []

        def plan() -> tuple[dict[str, bytes], list[str], str] | None:
            chosen[:] = self.resolve(wanted)
            return {}, [d.path for d in chosen], _rejected_message(chosen)

        wanted = list(refs)
        self.resolve(wanted)  # a bad id is refused before the store is locked
        return chosen, self.memory.writer.commit_drafts(plan)

    def accept(
        self,
        ref: str,
        *,
        text: str | None = None,
        title: str | None = None,
        secrets: Policy = "refuse",
    ) -> Accepted:
        """Save the draft ``ref`` names as a memory (``text``/``title``: as edited) with its
        provenance, the draft removed in the same commit."""
        from memcli.core.draft import Draft

        (draft,) = self.resolve([ref])
        extra = {LESSON_DRAFT: draft.id}
        if draft.message:
            extra[SOURCE_MESSAGE] = draft.message
        wanted = Draft(
            text=draft.text if text is None else text,
            type=draft.type,
            title=draft.title if title is None else title,
            files=_file_refs(draft.files),
            session=draft.session or None,
            agent=draft.agent or None,
            extra=extra,
        )
        writer = self.memory.writer
        writer.seen = self.seen
        result = writer.save(
            wanted,
            secrets=secrets,
            removing=[draft.path],
            trailer=trailers([draft.id]),
        )
        if result.action == "duplicate":  # kept already: the draft has nothing left to add
            note = f"Kept already as {result.record.id}\n\n"
            self.memory.writer.commit_drafts(
                lambda: ({}, [draft.path], _rejected_message([draft], "drop", note))
            )
        return Accepted(draft, result)

    # --------------------------------------------------------------- screening

    def _worth_keeping(
        self, lessons: Sequence[LessonDraft], live: list[StoredDraft], stamp: str
    ) -> tuple[list[StoredDraft], list[tuple[str, str]]]:
        """The lessons to write, screened; and those dropped, with why."""
        from memcli.retrieval.likeness import THRESHOLD, features, similarity

        before = drafted_before(self.store) | {d.id for d in live}
        compared = [features(d.title, [], d.text) for d in live]
        kept: list[StoredDraft] = []
        dropped: list[tuple[str, str]] = []
        for lesson in lessons:
            identity = lesson.draft_id
            if identity in before:
                dropped.append((identity, "drafted before"))
                continue
            screened = self._screened(lesson, stamp)
            if screened is None:
                dropped.append((identity, "nothing left once screened"))
                continue
            draft, observation = screened
            mine = features(draft.title, [], draft.text)
            if any(similarity(mine, other) >= THRESHOLD for other in compared):
                dropped.append((identity, "a draft waiting says the same"))
                continue
            held = self._kept_already(observation)
            if held:
                dropped.append((identity, f"kept already as {held}"))
                continue
            before.add(identity)
            compared.append(mine)
            kept.append(draft)
        return kept, dropped

    def _screened(self, lesson: LessonDraft, stamp: str) -> tuple[StoredDraft, Observation] | None:
        """The draft as it may be stored (``<private>`` spans out, likely secrets redacted,
        as the memory it would become), with that memory; None when nothing is left."""
        from memcli.core.draft import Draft
        from memcli.core.ids import new_ulid
        from memcli.core.secrets import redact
        from memcli.core.validate import strip_private
        from memcli.service.screening import screened, screening_for

        try:
            observation = Draft(
                text=lesson.text,
                type=lesson.memory_type,
                title=lesson.title,
                files=_file_refs(lesson.files),
                session=lesson.session or None,
                agent=lesson.agent or None,
            ).new_observation(new_ulid(), stamp)
        except InvalidInput:
            return None
        with screening_for(self.store, "redact") as policy:
            observation = screened(observation, None, policy)

        def clean(value: str) -> str:
            return redact(strip_private(value))

        draft = StoredDraft.of(lesson, stamp)
        kept = dataclasses.replace(
            draft,
            type=observation.type,
            title=observation.title,
            text=observation.narrative,
            session=observation.session or "",
            message=clean(draft.message),
            agent=observation.agent or "",
            files=tuple(observation.files),
            guard=clean(draft.guard) if draft.guard else None,
            extra={k: clean(v) for k, v in draft.extra.items()},
        )
        return kept, observation

    def _kept_already(self, observation: Observation) -> str | None:
        """The id of a memory (any layer read) holding the lesson: exact or near."""
        from memcli.service.duplicates import exact_duplicate, similar_memories

        twin = exact_duplicate(self.seen, observation)
        if twin is not None:
            return twin.id
        near = similar_memories(self.seen, observation)
        return near[0].entry.id if near else None


def drafts_for(own: Memory, reader: LayeredMemory) -> LessonDrafts:
    """The drafts of ``own``'s store, a lesson counting as kept in any layer ``reader``
    reads (only ``own`` when it is the one layer present)."""
    others = set(reader.layers.present()) - {own.layer}
    return LessonDrafts(own, reader if others else own)


def _file_refs(files: Iterable[str]) -> list[str]:
    """The files a memory may name: relative paths inside the project (others left out)."""
    from memcli.core.validate import check_file_ref

    kept = []
    for name in files:
        try:
            kept.append(check_file_ref(name))
        except InvalidInput:
            continue
    return kept


def _title(text: str) -> str:
    return text if len(text) <= SUBJECT_TITLE_CHARS else text[: SUBJECT_TITLE_CHARS - 1] + "…"


def _added_message(kept: list[StoredDraft], expired: list[str]) -> str:
    """``drafts: 3 lessons from claude session 8f2e…`` (or ``drafts: 2 expired``), a line
    each, a ``Lesson-Draft`` trailer each."""
    ids = [d.id for d in kept]
    if kept:
        first = kept[0]
        where = f"{first.agent} session {first.session[:12]}".strip()
        noun = "lesson" if len(kept) == 1 else "lessons"
        subject = f"drafts: {len(kept)} {noun} from {where}"
    else:
        subject = f"drafts: {len(expired)} expired"
    lines = [f"- {d.kind}: {d.title}" for d in kept]
    if expired:
        names = [p.rsplit("/", 1)[-1].removesuffix(".md") for p in expired]
        lines.append(f"Expired: {', '.join(names)}")
        ids += names
    return f"{subject}\n\n" + "\n".join(lines) + "\n\n" + trailers(ids)


def _rejected_message(drafts: list[StoredDraft], verb: str = "reject", note: str = "") -> str:
    """``reject draft: preference: Use pnpm…`` (``drop``: kept already), a trailer each."""
    if len(drafts) == 1:
        subject = f"{verb} draft: {drafts[0].type}: {_title(drafts[0].title)}"
        body = note
    else:
        subject = f"{verb} draft: {len(drafts)} lessons"
        body = "".join(f"- {d.type}: {d.title}\n" for d in drafts) + "\n" + note
    return f"{subject}\n\n{body}{trailers([d.id for d in drafts])}"
