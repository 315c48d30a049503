"""MemStore's lesson drafts: listed, added, accepted as memories, expired, rejected."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memcli.api_calls import checks
from memcli.core.errors import MemError

if TYPE_CHECKING:
    from memcli.api import MemStore, Records
    from memcli.core.lesson import LessonDraft
    from memcli.service.lesson_drafts import LessonDrafts
    from memcli.service.memory import Memory


def _lesson_drafts(memory: Memory) -> LessonDrafts:
    """The drafts of the found store, a lesson counting as kept in any layer."""
    from memcli.service.lesson_drafts import drafts_for

    reader = checks.layered(memory)
    return drafts_for(reader.layers.memory(), reader)


def waiting(store: MemStore) -> Records:
    """``MemStore.drafts``: each waiting draft as JSON."""
    with store.using() as memory:
        if not memory.store.exists():
            return []
        return [draft.to_json() for draft in _lesson_drafts(memory).waiting()]


def add(store: MemStore, lessons: Sequence[LessonDraft]) -> dict[str, Any]:
    """``MemStore.add_drafts``: what was added, dropped and expired, and the commit."""
    with store.using() as memory:
        done = _lesson_drafts(memory).add(lessons)
    return {
        "added": [draft.to_json() for draft in done.added],
        "dropped": [{"id": i, "why": why} for i, why in done.dropped],
        "expired": done.expired,
        "commit": done.commit,
    }


def accept(store: MemStore, ref: object, text: object, title: object) -> dict[str, Any]:
    """``MemStore.accept_draft``: the memory saved, with the draft it came from."""
    from memcli.core.serialize import record_dict

    ref = checks.text(ref, "id")
    text, title = checks.optional_text(text, "text"), checks.optional_text(title, "title")
    with store.using() as memory:
        memory.require_store()
        done = _lesson_drafts(memory).accept(ref, text=text, title=title)
    return {
        **record_dict(done.result.record),
        "path": done.result.path,
        "action": done.result.action,
        "commit": done.result.commit,
        "draft": done.draft.id,
    }


def accept_each(store: MemStore, ids: object) -> Records:
    """``MemStore.accept_drafts``: every one found first, then each accepted."""
    with store.using() as memory:
        if not memory.store.exists():
            return []
        drafts = _lesson_drafts(memory)
        chosen = drafts.waiting() if ids is None else drafts.resolve(checks.refs(ids))
    done: list[dict[str, Any]] = []
    for draft in chosen:
        try:
            done.append(store.accept_draft(draft.id))
        except MemError as exc:
            if done:
                kept = ", ".join(answer["draft"] for answer in done)
                exc.args = (f"accepted {kept}; {draft.id} and the rest are left waiting: {exc}",)
            raise
    return done


def expire(store: MemStore) -> tuple[str, ...]:
    """``MemStore.expire_drafts``: the ids of the drafts removed."""
    with store.using() as memory:
        if not memory.store.exists():
            return ()
        removed, _ = _lesson_drafts(memory).expire()
    return tuple(path.rsplit("/", 1)[-1].removesuffix(".md") for path in removed)


def reject(store: MemStore, ids: object) -> dict[str, Any]:
    """``MemStore.reject_draft``: the ids rejected and the commit."""
    refs = checks.refs(ids)
    with store.using() as memory:
        memory.require_store()
        rejected, commit = _lesson_drafts(memory).reject(refs)
    return {"rejected": [draft.id for draft in rejected], "commit": commit}
