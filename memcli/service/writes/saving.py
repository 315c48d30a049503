"""A new memory saved (or the one its key names updated), and a session summary recorded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memcli.core import journal
from memcli.core.errors import StoreError
from memcli.core.ids import new_ulid
from memcli.core.timeutil import format_timestamp, now
from memcli.service.screening import screened
from memcli.service.writer import SaveResult, by_layer_rules

if TYPE_CHECKING:
    from memcli.core.draft import Draft
    from memcli.core.model import Observation
    from memcli.core.secrets import Policy
    from memcli.service.duplicates import Similar
    from memcli.service.summaries import SummaryInput
    from memcli.service.writer import Writer


@by_layer_rules
def save(
    writer: Writer,
    draft: Draft,
    *,
    secrets: Policy = "refuse",
    removing: Sequence[str] = (),
    trailer: str = "",
) -> SaveResult:
    """Write one memory and commit it; a known ``key`` updates that memory instead.

    Likely secrets in it are refused (or redacted, or allowed: ``secrets``),
    before anything is written. ``removing``: files (a lesson draft accepted)
    removed in the same commit, whose message ends with ``trailer`` lines.
    """
    memory, store = writer.memory, writer.store
    stamp = format_timestamp(now())
    # Without a key, or without a store yet, it is surely new: refuse bad input
    # before creating anything (with a key, the lock decides: new or an update).
    fresh = (
        None
        if draft.key and store.exists()
        else screened(draft.new_observation(new_ulid(), stamp), None, secrets)
    )
    memory.ensure_store()
    with writer.transaction():
        existing = memory.entry_for_key(draft.key) if draft.key else None
        similar: tuple[Similar, ...] = ()
        if existing is not None:
            from memcli.core.model import Observation

            old = memory.load(existing)
            if not isinstance(old, Observation):
                raise StoreError(f"the key {draft.key!r} belongs to a summary, not a memory")
            observation = _replacing(
                writer, screened(draft.update(old, stamp), old, secrets), draft
            )
            if observation == old:
                return SaveResult(old, existing.path, "unchanged", None)
            path, action = existing.path, "updated"
        else:
            observation = _replacing(
                writer,
                fresh or screened(draft.new_observation(new_ulid(), stamp), None, secrets),
                draft,
            )
            duplicate, similar = _likeness(writer, observation, draft)
            if duplicate is not None:
                return duplicate
            path, action = store.new_path(observation), "saved"
        verb = "save" if action == "saved" else "update"
        message = journal.commit_message(verb, [observation]) + trailer
        commit = writer.commit_files({path: observation.to_markdown()}, list(removing), message)
        return SaveResult(observation, path, action, commit, similar)


def _replacing(writer: Writer, observation: Observation, draft: Draft) -> Observation:
    """The observation, replacing also the memories ``draft.supersedes`` names."""
    if not draft.supersedes:
        return observation
    from memcli.service.supersede import resolve_replaced

    ids = resolve_replaced(writer.memory, draft.supersedes, observation.id)
    return observation.replace(supersedes=list(dict.fromkeys([*observation.supersedes, *ids])))


def _likeness(
    writer: Writer, observation: Observation, draft: Draft
) -> tuple[SaveResult | None, tuple[Similar, ...]]:
    """An exact duplicate already stored (as the result of this save), or the near ones.

    A save that names a key or memories it supersedes is never refused as a
    duplicate: it says what it is for. Hooks that leave the index alone skip both.
    Duplicates are looked for where ``writer.seen`` reads (this store, or every layer).
    """
    if writer.memory.index_deferred:
        return None, ()
    from memcli.service.duplicates import exact_duplicate, similar_memories

    if not draft.key and not draft.supersedes:
        twin = exact_duplicate(writer.seen, observation)
        if twin is not None:
            return SaveResult(writer.seen.load(twin), twin.path, "duplicate", None), ()
    near = similar_memories(writer.seen, observation)
    return None, tuple(s for s in near if s.entry.id not in observation.supersedes)


def summarize(writer: Writer, given: SummaryInput, extra: dict[str, str]) -> SaveResult:
    """Record a session summary, its body rendered through ``compaction.md.j2``."""
    writer.memory.ensure_store()
    with writer.transaction():
        summary = given.summary(writer.store.root, extra, writer.memory.notify)
        path = writer.store.new_path(summary)
        message = journal.commit_message("summarize", [summary])
        commit = writer.commit_files({path: summary.to_markdown()}, [], message)
        return SaveResult(summary, path, "saved", commit)
