"""The memory's history as ``mem log`` and ``mem diff`` ask for it.

``mem diff`` without revisions shows what changed since the last time it
was run that way: the commit it showed up to is kept in the store's cache as a
bookmark (``.cache/diff-bookmark``), never committed. In a team store it shows
what is staged for review instead: from HEAD to git's index.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memcli.service.memory import Memory
    from memcli.service.writer import SaveResult
    from memcli.store.files import Store
    from memcli.store.history import JournalEntry, MemoryDiff

DIFF_BOOKMARK = "diff-bookmark"


def _staged(store: Store) -> MemoryDiff:
    """A team store's memories staged for review: from HEAD to what git's index holds."""
    from memcli.store.history import EMPTY_TREE, memory_diff

    return memory_diff(store, store.git.head() or EMPTY_TREE, store.head() or EMPTY_TREE)


def log(memory: Memory, ref: str | None, *, limit: int, since: str | None) -> list[JournalEntry]:
    """The journal, newest first; with ``ref``, that memory's own (across renames)."""
    from memcli.store.history import journal

    memory.require_store()
    if not ref:
        _require_own_store(memory)
        return journal(memory.store, limit=limit, since=since)
    own, path = _path_of(memory, ref)
    return journal(own.store, limit=limit, since=since, follow=path)


def _path_of(memory: Memory, ref: str) -> tuple[Memory, str]:
    """The file of a memory, present or forgotten (its last path), by id, prefix or key,
    and the memory of the layer holding it (a forgotten one: the first layer whose
    history has it, the command's own first)."""
    from memcli.core.errors import NotFound
    from memcli.store.history import find_forgotten

    try:
        entry = memory.resolve(ref)
        return layer_memory(memory, entry.layer), entry.path
    except NotFound as absent:
        for own in each_layer(memory):
            try:
                return own, find_forgotten(own.store, ref)[0]
            except NotFound:
                continue
        raise absent from None


def _require_own_store(memory: Memory) -> None:
    """The store the command found (or ``--layer``'s) must exist, not only another layer."""
    layer_memory(memory, memory.layer).require_store()


def layer_memory(memory: Memory, layer: str) -> Memory:
    """The memory of ``layer`` (``memory`` itself when it reads one layer only)."""
    from memcli.service.layers import LayeredMemory

    return memory.layer_memory(layer) if isinstance(memory, LayeredMemory) else memory


def each_layer(memory: Memory) -> list[Memory]:
    """The memory of each present layer, the command's own first."""
    from memcli.service.layers import LayeredMemory

    if not isinstance(memory, LayeredMemory):
        return [memory]
    present = memory.layers.present()
    names = dict.fromkeys([memory.layer, *present])  # a layer without a store has no history
    chosen = [n for n in names if n in present and memory.only in (None, n)]
    if not chosen:
        memory.require_store()
    return [memory.layer_memory(name) for name in chosen]


def restore(memory: Memory, ref: str) -> SaveResult:
    """Bring a forgotten memory back in the layer whose history has it (own layer first)."""
    from memcli.core.errors import NotFound

    problem: NotFound | None = None
    for own in each_layer(memory):
        try:
            return own.writer.restore(ref)
        except NotFound as exc:
            problem = problem or exc
    assert problem is not None
    raise problem


def diff(memory: Memory, revs: Sequence[str]) -> MemoryDiff:
    """What changed between ``revs`` (two; one and HEAD; none: since the bookmark).

    Without revisions the diff starts at the bookmark, else at HEAD's parent,
    and the bookmark moves to HEAD.
    """
    from memcli.core.errors import InvalidInput
    from memcli.store.history import EMPTY_TREE, commit_id, memory_diff

    _require_own_store(memory)
    store = memory.store
    if not revs and not store.own_repository:
        return _staged(store)
    bookmark = store.cache_dir / DIFF_BOOKMARK
    head = store.git.head() or EMPTY_TREE
    if revs:
        old = revs[0]
        new = revs[1] if len(revs) == 2 else "HEAD"
        old_id, new_id = commit_id(store, old), commit_id(store, new)
    else:
        saved = bookmark.read_text().strip() if bookmark.exists() else ""
        if saved:
            old = saved
        else:
            try:
                old = commit_id(store, "HEAD~1")
            except InvalidInput:
                old = EMPTY_TREE
        new = new_id = head
        old_id = commit_id(store, old) if saved and saved != EMPTY_TREE else old
    result = memory_diff(store, old_id, new_id)._replace(old=old, new=new)
    if not revs:
        bookmark.parent.mkdir(exist_ok=True)
        bookmark.write_text(head + "\n")
    return result
