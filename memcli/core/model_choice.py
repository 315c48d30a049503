"""Which semantic model a command uses, decided without importing the model's libraries.

``[semantic] model`` in mem.toml names one (a hub name or a folder); ``"none"``
turns semantic search off. With no model named, mem uses the static model that
ships inside it (``BUNDLED``): no download, no network, nothing but mem's own
dependencies. Finding that out costs a few ``find_spec`` calls (no import) and a
stat of the model's folder, so every command can ask, hooks included.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from pathlib import Path
from typing import NamedTuple

BUNDLED = "bundled"
"""``[semantic] model`` naming the model that ships inside mem (also the default)."""
DEFAULT_MODEL = BUNDLED
OPT_OUT = frozenset({"none", "off", "lexical"})
"""``[semantic] model`` values that turn semantic search off."""
MODEL_FILES = ("config.json", "tokenizer.json", "model.safetensors")
"""A static model's files (model2vec's format), fetched from the hub and nothing else."""
ONNX_GRAPHS = ("model.onnx", "onnx/model.onnx")
"""Where a sentence encoder exported to ONNX keeps its graph (the first found is used)."""
ONNX_FILES = (
    "tokenizer.json",
    "config.json",
    "1_Pooling/config.json",
    "modules.json",
    "sentence_bert_config.json",
)
"""An ONNX encoder's other files (sentence-transformers' layout; all but the tokenizer
optional), fetched beside its graph."""
BASE_MODULES = (("sqlite-vec", "sqlite_vec"), ("numpy", "numpy"))
"""What every static model needs, part of mem's own dependencies: the scan of the
vectors, and embedding many memories at once."""
EXTRA_MODULES = (
    *BASE_MODULES,
    ("tokenizers", "tokenizers"),
    ("huggingface_hub", "huggingface_hub"),
)
"""The packages a model from elsewhere may need (``memcli[semantic]``), and their modules."""


class Choice(NamedTuple):
    name: str
    """The model to use ('' for lexical search)."""
    default: bool
    """No model is named in mem.toml: the choice is mem's."""
    reason: str
    """Why search is lexical ('' when ``name`` is set)."""


def choose(configured: str) -> Choice:
    """The model for ``[semantic] model = configured``."""
    name = model_name(configured)
    if name:
        return Choice(name, not configured.strip(), "")
    if configured.strip().lower() in OPT_OUT:
        return Choice("", False, f'lexical only: [semantic] model = "{configured}" in mem.toml')
    missing = ", ".join(missing_base_packages())
    return Choice("", True, f"lexical only: {missing} missing (reinstall mem)")


def model_name(configured: str) -> str:
    """``choose(configured).name``, without the reason it would give for ''
    (a search asks several times, and only wants the name)."""
    configured = configured.strip()
    if configured.lower() in OPT_OUT:
        return ""
    if configured.lower() == BUNDLED:
        return BUNDLED
    if configured:
        return configured
    if missing_base_packages():
        return ""
    return BUNDLED


def bundled_folder() -> Path:
    """Where the model that ships inside mem is: package data of ``memcli.semantic``."""
    from importlib.resources import files

    return Path(str(files("memcli"))) / "semantic" / BUNDLED


@functools.cache
def missing_packages() -> tuple[str, ...]:
    """The ``memcli[semantic]`` packages not installed (found, not imported)."""
    return tuple(package for package, module in EXTRA_MODULES if not importable(module))


def missing_base_packages() -> tuple[str, ...]:
    """Those a static model needs (mem's own dependencies: missing only in a broken install)."""
    base = {package for package, _ in BASE_MODULES}
    return tuple(package for package in missing_packages() if package in base)


def importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


# ------------------------------------------------------------------ the hub's cache


def is_hub_name(name: str) -> bool:
    parts = name.split("/")
    return (
        len(parts) == 2
        and all(parts)
        and not name.startswith((".", "~"))
        and all(c.isalnum() or c in "-_." for part in parts for c in part)
    )


def hub_cache() -> Path:
    """Where huggingface_hub keeps downloads, found as it finds it (without importing it)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache).expanduser() / "huggingface" / "hub"


def offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def cached(name: str) -> Path | None:
    """The snapshot folder of the hub model ``name`` holding all its files, or None.

    The revision ``refs/main`` points to; without it, the newest snapshot.
    """
    repo = hub_cache() / f"models--{name.replace('/', '--')}"
    snapshots = repo / "snapshots"
    try:
        revision = (repo / "refs" / "main").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        revision = ""
    candidates = [snapshots / revision] if revision and "/" not in revision else []
    if not candidates and snapshots.is_dir():
        try:
            folders = [p for p in snapshots.iterdir() if p.is_dir()]
            candidates = sorted(folders, key=lambda p: p.stat().st_mtime)[-1:]
        except OSError:
            candidates = []
    for folder in candidates:
        if complete(folder):
            return folder
    return None


def complete(folder: Path) -> bool:
    """Whether ``folder`` holds a whole model: a static one's files, or an ONNX graph
    and its tokenizer."""
    if (folder / "tokenizer.json").is_file() and any(
        (folder / graph).is_file() for graph in ONNX_GRAPHS
    ):
        return True
    return all((folder / file).is_file() for file in MODEL_FILES)


def hub_files(listed: list[str]) -> list[str]:
    """What to fetch of a hub repository holding ``listed``: an ONNX encoder's graph (the
    first of ``ONNX_GRAPHS`` it has) and files when it has one, else a static model's
    files. A repository with both a graph and PyTorch weights (a sentence-transformers
    model) is run as ONNX, as a folder holding both is."""
    graphs = [graph for graph in ONNX_GRAPHS if graph in listed]
    if graphs:
        # A large graph keeps its weights beside it, in a file its own name leads to.
        data = [f"{graphs[0]}_data", f"{graphs[0]}.data"]
        extra = [file for file in (*data, *ONNX_FILES) if file in listed]
        return [graphs[0], *extra]
    return list(MODEL_FILES)
