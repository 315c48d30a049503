"""Reading memory files for the index: each read costs about the file, not the size bound."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from memcli.core.model import Observation
from memcli.store.files import MAX_MEMORY_FILE_BYTES, Store, read_at_most


def test_reading_a_memory_file_allocates_about_its_size(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    store.create()
    memory = Observation(
        id="01JDZZZZZZZZZZZZZZZZZZZZZZ",
        type="gotcha",
        title="A small memory",
        created="2026-11-21T10:00:00Z",
        narrative="Short.",
    )
    path = store.new_path(memory)
    (store.root / path).parent.mkdir(parents=True, exist_ok=True)
    (store.root / path).write_text(memory.to_markdown(), encoding="utf-8")

    tracemalloc.start()
    try:
        data = store.read_bytes(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert data == memory.to_markdown().encode()
    assert peak < MAX_MEMORY_FILE_BYTES // 16  # never the whole 16 MB bound


def test_read_at_most_stops_at_the_limit_and_reads_to_the_end(tmp_path: Path) -> None:
    file = tmp_path / "f"
    file.write_bytes(b"x" * 1000)
    with file.open("rb") as handle:
        assert read_at_most(handle, 10) == b"x" * 10
    with file.open("rb") as handle:
        assert read_at_most(handle, 1001) == b"x" * 1000
    with file.open("rb") as handle:
        handle_size = len(read_at_most(handle, 1000))
    assert handle_size == 1000
