"""The index compared with the memory and notes files in the work tree (``mem doctor``,
``mem reindex --check``): what is missing, extra, stale, invalid, or without a vector."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcli.core.errors import InvalidInput, InvalidMemoryFile
from memcli.store.files import digest

if TYPE_CHECKING:
    from memcli.service.memory import Memory


class Drift:
    """Differences between the index and the memory files."""

    def __init__(self) -> None:
        self.checked = 0
        self.missing: list[str] = []
        self.extra: list[str] = []
        self.stale: list[str] = []
        self.invalid: list[str] = []
        self.vectors_missing: list[str] = []
        """Memories without a vector of the semantic model (when one is in use)."""
        self.vectors_stale: list[str] = []
        """Memories whose vector is of an older version of their file."""

    @property
    def clean(self) -> bool:
        return not (
            self.missing or self.extra or self.stale or self.vectors_missing or self.vectors_stale
        )


def check(memory: Memory) -> Drift:
    """Compare the index with the memory and notes files in the work tree."""
    memory.refresh_index(temporary_ok=False)
    indexed = memory.read(lambda index: {**index.digests(), **index.note_digests()})
    drift = Drift()
    on_disk: dict[str, str] = {}
    for path in memory.store.memory_paths():
        try:
            data = memory.store.read_bytes(path)
            memory.store.parse(path, data)
        except InvalidMemoryFile as exc:
            drift.invalid.append(str(exc))
            continue
        on_disk[path] = digest(data)
    _check_notes(memory, on_disk, drift)
    drift.checked = len(on_disk)
    drift.missing = sorted(set(on_disk) - set(indexed))
    drift.extra = sorted(set(indexed) - set(on_disk))
    drift.stale = sorted(p for p in set(on_disk) & set(indexed) if on_disk[p] != indexed[p])
    if memory.semantic_model() and not memory.semantic_problem:
        from memcli.index import vectors

        missing, stale = memory.read(lambda index: vectors.drift(index.db))
        drift.vectors_missing, drift.vectors_stale = missing, stale
    return drift


def _check_notes(memory: Memory, on_disk: dict[str, str], drift: Drift) -> None:
    """The notes files the index should hold: those that have a section to search."""
    from memcli.index.notes import has_sections, note_digest

    for path in memory.store.note_paths():
        try:
            data = memory.store.read_note(path)
        except (InvalidMemoryFile, InvalidInput) as exc:
            drift.invalid.append(str(exc))
            continue
        if has_sections(data, path):
            on_disk[path] = note_digest(data)
