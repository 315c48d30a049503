"""The public Python API: every name in ``memcli.__all__`` resolves, lazily."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import memcli


def test_every_public_name_resolves() -> None:
    for name in memcli.__all__:
        assert getattr(memcli, name) is not None, name


def test_importing_memcli_loads_nothing_else() -> None:
    code = (
        "import sys, memcli; "
        "print(sorted(m for m in sys.modules if m.startswith('memcli') and m != 'memcli'))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]"


def test_save_and_search_through_the_public_api(tmp_path: Path) -> None:
    location = memcli.locate(str(tmp_path / "store"), None, tmp_path)
    memory = memcli.Memory(location, notify=lambda message: None)
    saved = memory.writer.save(memcli.Draft(text="Deploys go out on Tuesdays", key="deploy"))
    hits = memory.read(lambda index: index.search("deploy").entries)
    assert [memcli.entry_dict(hit)["id"] for hit in hits] == [saved.record.id]
    assert memcli.record_dict(memory.load(hits[0]))["key"] == "deploy"


def test_all_names_every_export() -> None:
    assert set(memcli.__all__) == {"__version__", *memcli._EXPORTS}


def test_architecture_names_every_module() -> None:
    """ARCHITECTURE.md's tree stays the tree under memcli/ (commands are listed as a folder)."""
    root = Path(__file__).resolve().parent.parent
    text = (root / "ARCHITECTURE.md").read_text()
    package = root / "memcli"
    missing = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
        and "commands" not in path.parts
        and path.name not in text
    ]
    assert missing == []
    folders = {p.name for p in package.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert all(f"{folder}/" in text for folder in folders), folders


def test_a_dropped_memory_closes_its_index_at_once(tmp_path: Path) -> None:
    """No reference cycle: the index connection goes when the last reference does."""
    import gc
    import weakref

    gc.disable()
    try:
        memory = memcli.Memory(memcli.locate(str(tmp_path / "s"), None, tmp_path), print)
        memory.writer.save(memcli.Draft(text="Deploys go out on Tuesdays"))
        assert memory.read(lambda index: index.count()) == 1
        dropped = weakref.ref(memory)
        del memory
        assert dropped() is None
    finally:
        gc.enable()
