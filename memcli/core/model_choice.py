"""Which semantic model a command uses, decided without importing the model's libraries.

``[semantic] model`` in mem.toml names one (a hub name or a folder); ``"none"``
turns semantic search off. With no model named, a mem installed with its
``semantic`` extra uses ``DEFAULT_MODEL`` once it is in the Hugging Face hub's
cache. Finding that out costs a few ``find_spec`` calls (no import) and a stat
of the cache folder, so every command can ask, hooks included.

A download of the default model happens only where ``choose`` is told that it
may (an interactive command; never a hook): one that failed is not tried again
by itself for ``RETRY_SECONDS`` (``mem model pull`` always tries).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import time
from pathlib import Path
from typing import NamedTuple

DEFAULT_MODEL = "minishlab/potion-retrieval-32M"
"""model2vec's static retrieval model: embedded in pure Python, cheap in every process."""
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
EXTRA_MODULES = (
    ("sqlite-vec", "sqlite_vec"),
    ("numpy", "numpy"),
    ("tokenizers", "tokenizers"),
    ("huggingface_hub", "huggingface_hub"),
)
"""The ``memcli[semantic]`` packages a static model needs, and their modules."""
FAILED_FILE = "model-download.json"
"""In mem's cache folder: the last automatic download that failed (model, time, why)."""
RETRY_SECONDS = 24 * 3600


class Choice(NamedTuple):
    name: str
    """The model to use ('' for lexical search)."""
    default: bool
    """No model is named in mem.toml: the choice is mem's."""
    reason: str
    """Why search is lexical ('' when ``name`` is set)."""


def choose(configured: str, *, fetch: bool = False) -> Choice:
    """The model for ``[semantic] model = configured``; ``fetch``: the default may be downloaded."""
    name = model_name(configured, fetch=fetch)
    if name:
        return Choice(name, not configured, "")
    if configured.strip().lower() in OPT_OUT:
        return Choice("", False, f'lexical only: [semantic] model = "{configured}" in mem.toml')
    if missing_packages():
        return Choice("", True, "lexical only: no [semantic] model in mem.toml")
    return Choice("", True, not_downloaded(DEFAULT_MODEL))


def model_name(configured: str, *, fetch: bool = False) -> str:
    """``choose(configured, fetch=fetch).name``, without the reason it would give for ''
    (a search asks several times, and only wants the name)."""
    if configured.strip().lower() in OPT_OUT:
        return ""
    if configured:
        return configured
    if missing_packages():
        return ""
    if cached(DEFAULT_MODEL) is not None:
        return DEFAULT_MODEL
    if fetch and not offline() and recent_failure(DEFAULT_MODEL) is None:
        return DEFAULT_MODEL
    return ""


def not_downloaded(name: str) -> str:
    """The one line saying why the default model is not in use."""
    if offline():
        why = "HF_HUB_OFFLINE is set; run `mem model pull` online"
    else:
        failed = recent_failure(name)
        why = f"{failed}; run `mem model pull`" if failed else "run `mem model pull`"
    return f"lexical only: the default model {name} is not downloaded ({why})"


@functools.cache
def missing_packages() -> tuple[str, ...]:
    """The ``memcli[semantic]`` packages not installed (found, not imported)."""
    return tuple(package for package, module in EXTRA_MODULES if not importable(module))


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


# ------------------------------------------------------------------ failed downloads


def _failed_path() -> Path:
    from memcli.core.failure_log import cache_dir

    return cache_dir() / FAILED_FILE


def recent_failure(name: str) -> str | None:
    """Why the last automatic download of ``name`` failed, if it did lately."""
    try:
        data = json.loads(_failed_path().read_text(encoding="utf-8"))
        if data["model"] != name or not 0 <= time.time() - float(data["time"]) < RETRY_SECONDS:
            return None
        return str(data["reason"]).splitlines()[0][:300] or "the download failed"
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def record_failure(name: str, reason: str) -> None:
    """Remember a failed download, so that reads stay lexical without trying again at once."""
    path = _failed_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"model": name, "time": time.time(), "reason": reason}
        path.write_text(json.dumps(data), encoding="utf-8")
    except OSError:
        pass  # not remembered: the next interactive read tries again


def clear_failure() -> None:
    try:
        _failed_path().unlink()
    except OSError:
        pass
