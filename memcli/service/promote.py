"""``mem promote``: a memory moved to another layer, its id and history kept.

The memory is written in the destination (a commit; in the team folder, a
staged file) and then removed from its source (a commit; in the team folder, a
staged deletion), both with ``promote`` as the action, so each layer's log says
where it went. The secret scan and ``<private>`` stripping run again first, with
the destination's rules: a likely secret is refused unless redacted (the team's
layer never takes one as it is), and nothing is written. When the source cannot
be changed after the destination was written (it is checked first: its lock, git's
state), the destination's copy is removed again: both layers hold what they held.
A promotion killed between the two is finished by running it again: the
destination's copy (same id, same text) is kept and the source's is removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from memcli.core.crashpoints import crash_point
from memcli.core.errors import InvalidInput, InvalidMemoryFile

if TYPE_CHECKING:
    from memcli.core.model import Record
    from memcli.core.secrets import Policy
    from memcli.index.queries import Entry
    from memcli.service.layers import LayeredMemory
    from memcli.service.memory import Memory


class Promotion(NamedTuple):
    record: Record
    """The memory as the destination holds it (redacted, its private spans dropped)."""
    source: str
    destination: str
    path: str
    """Its file in the destination store."""
    text: str
    """That file's text."""
    commit: str | None
    """The destination's commit ('' when the team folder only staged it; None: a dry run)."""
    removed: str | None
    """The source's commit, likewise."""


def promote(
    reader: LayeredMemory,
    ref: str,
    destination: str,
    *,
    secrets: Policy = "refuse",
    dry_run: bool = False,
) -> Promotion:
    """Move the memory ``ref`` names (id, id prefix or key; any layer) to ``destination``."""
    from memcli.core.model import Observation, without_private
    from memcli.service.layers import check_layer
    from memcli.service.screening import screened, screening_for

    check_layer(destination)
    if not dry_run:
        _settled(reader)  # a write a crash cut short (this promotion's, maybe) finished first
    entry = _source_entry(reader, ref, destination)
    if entry.layer == destination:
        raise InvalidInput(f"{entry.id} ({entry.title}) is in the {destination} layer already")
    source = reader.layer_memory(entry.layer)
    try:
        record = source.load(entry)
    except InvalidMemoryFile as exc:
        raise InvalidInput(f"{exc}; fix it (mem doctor) before promoting it") from None
    if not isinstance(record, Observation):
        raise InvalidInput("a session summary stays in its project: promote memories only")
    target = reader.layers.memory(destination)
    with screening_for(target.store, secrets) as policy:
        moved = screened(without_private(record), None, policy)
    if destination == "team":
        target.require_store()  # made on purpose: `mem init --layer team`
    text = moved.to_markdown()
    if dry_run:
        if target.store.exists():
            target.check_key_free(moved)
        shown = target.store.new_path(moved)
        return Promotion(moved, entry.layer, destination, shown, text, None, None)
    _ready_to_write(source)  # a busy source fails the promotion before anything is written
    path = _written_before(target, moved, text)
    if path is None:
        written = target.writer.adopt(moved)
        path, commit = written.path, written.commit or ""
    else:
        commit = ""  # a promotion cut short wrote it: only the source's removal is left
    crash_point("promote-adopted")
    try:
        _, removed = source.writer.forget([entry.id], verb="promote")
    except BaseException:
        target.writer.forget([moved.id])  # the destination as it was: never in two layers
        raise
    return Promotion(moved, entry.layer, destination, path, text, commit, removed)


def _settled(reader: LayeredMemory) -> None:
    """Every layer's write a crash left half done, finished or undone (and said so)."""
    for name in reader.layers.present():
        memory = reader.layers.memory(name)
        outcome = memory.writer.settle()
        if outcome is not None:
            memory.notify(outcome)


def _source_entry(reader: LayeredMemory, ref: str, destination: str) -> Entry:
    """The memory ``ref`` names, in the layer it moves from.

    A promotion cut short leaves its id in two layers, the destination and the
    source: that is no ambiguity for running it again (by id, or by a key the
    destination now finds first), so the copy outside the destination is the one
    that moves. Any other id held twice still needs ``--layer``.
    """
    found = reader.resolve_each(ref)
    if len(found) == 1 and found[0].layer == destination:
        found = reader.resolve_each(found[0].id)
    if len(found) > 1:
        elsewhere = [entry for entry in found if entry.layer != destination]
        if len(elsewhere) == 1 and len(found) == 2:
            return elsewhere[0]
        return reader.resolve(ref)  # raises: say which with --layer
    return reader.to_write(ref, found[0])


def _written_before(target: Memory, moved: Record, text: str) -> str | None:
    """The path of the destination's copy a promotion cut short wrote (the same id, the
    same text); None when it holds no copy, which ``adopt`` then checks for clashes."""
    if not target.store.exists():
        return None
    path = target.read(lambda index: index.path_of(moved.id))
    if path is None:
        return None
    try:
        same = target.store.read_bytes(path) == text.encode("utf-8")
    except InvalidMemoryFile:
        same = False
    return path if same else None


def _ready_to_write(memory: Memory) -> None:
    """Refuse now, not half way, when the store cannot take a commit: its write lock is held
    past ``MEM_LOCK_TIMEOUT``, git is mid-way through something, or git's index is locked."""
    from memcli.store.commit import wait_for_git_index_lock

    with memory.store.write_lock():
        memory.store.check_writable()
        wait_for_git_index_lock(memory.store.git)
