"""Optional semantic retrieval with an embedding model (``memcli[semantic]``).

``semantic_status`` says in one line whether search is semantic and why not;
``SemanticSearch`` finds the memories nearest to a query by meaning. Which model
(mem.toml's, or the one in ``bundled/`` that ships with mem) is
``memcli.core.model_choice``'s to say; with none, nothing here is imported.
Importable without numpy: only bulk embedding (``batch``) needs it.

    model.py     the model's files (model2vec format), checked; pure-Python embedding
    transformer.py  an ONNX sentence encoder (sentence-transformers layout), onnxruntime
    wordpiece.py BERT WordPiece tokenization, as the tokenizers library does it
    batch.py     embedding many texts with numpy (and tokenizers, for other tokenizers)
    bundled/     mem's own static model, its license and provenance
    sync.py      keeping the vectors in step with the index
    search.py    nearest memories: Hamming scan of sign bits, exact cosine after
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from memcli.core.model_choice import (
    BASE_MODULES,
    choose,
    importable,
    is_hub_name,
    missing_packages,
    offline,
)
from memcli.core.text import counted
from memcli.semantic.model import ModelError
from memcli.semantic.search import SemanticSearch

__all__ = ["ModelReport", "SemanticSearch", "SemanticStatus", "model_report", "semantic_status"]


class SemanticStatus(NamedTuple):
    enabled: bool
    model: str
    reason: str


@dataclass
class ModelReport:
    """What ``mem model status`` says: the model chosen, its files, its vectors here."""

    configured: str
    """``[semantic] model`` in mem.toml ('' when none is named)."""
    model: str
    """The model chosen (mem's bundled one when none is named), '' for none."""
    default: bool
    enabled: bool
    reason: str
    """One line: semantic with the model, dimensions and vectors, or why lexical."""
    problem: bool = False
    """A model is chosen but cannot be used (``mem doctor`` counts it as a problem)."""
    folder: str | None = None
    """Where the model's files are on this machine (None: not downloaded)."""
    dims: int | None = None
    vectors: int | None = None
    memories: int | None = None


def semantic_status(store_root: Path, settings: dict[str, Any]) -> SemanticStatus:
    """Whether search is semantic here, in one line; never raises for a bad model."""
    report = model_report(store_root, settings)
    return SemanticStatus(report.enabled, report.model, report.reason)


def model_report(store_root: Path, settings: dict[str, Any]) -> ModelReport:
    """The model this store's search uses, checked; never raises for a bad model."""
    configured = str(settings.get("semantic", {}).get("model") or "")
    choice = choose(configured)
    report = ModelReport(configured, choice.name, choice.default, False, choice.reason)
    if not choice.name:
        report.problem = choice.default  # mem's own dependencies are missing
        return report
    name = choice.name
    needed = {package for package, _ in BASE_MODULES}
    if is_hub_name(name):
        needed.add("huggingface_hub")
    try:
        _read(report, name, store_root, [p for p in missing_packages() if p in needed])
    except ModelError as exc:
        report.reason, report.problem = f"lexical only: {exc}", True
    return report


def _read(report: ModelReport, name: str, store_root: Path, missing: list[str]) -> None:
    """The model's folder and dimensions, and the store's vectors of it, into ``report``;
    ``missing``: packages any model of this kind needs that are not installed."""
    from memcli.semantic import transformer
    from memcli.semantic.model import locate, read_model
    from memcli.semantic.wordpiece import Unsupported, spec_of

    directory = locate(name, store_root)
    if directory is None:
        why = "HF_HUB_OFFLINE is set" if offline() else "the next search downloads it"
        report.reason = f"lexical only: the model {name} is not downloaded ({why})"
        report.problem = True
        return
    report.folder = str(directory)
    onnx = transformer.graph_path(directory) is not None
    if onnx:
        missing += [m for m in ("onnxruntime", "tokenizers") if not importable(m)]
    else:
        info, tokenizer = read_model(directory)
        try:
            spec_of(tokenizer)
        except Unsupported:  # embedded with the tokenizers library
            missing += [m for m in ("tokenizers",) if not importable(m)]
    if missing:
        report.reason = f"lexical only: install memcli[semantic] ({', '.join(missing)} missing)"
        report.problem = True
        return
    if onnx:
        transformer_info = transformer.read_transformer(directory)
        identity = transformer_info.identity
        dim = transformer.embedder_for(name, transformer_info).dim
    else:
        identity, dim = info.identity, info.dim
    have, total = _vector_counts(store_root, identity)
    report.enabled, report.dims, report.vectors, report.memories = True, dim, have, total
    if have == total:
        counts = counted(have, "vector")
    else:
        counts = f"{have:,} of {total:,} memories have vectors; the next search embeds the rest"
    report.reason = f"semantic: {name} ({dim} dims, {counts})"


def _vector_counts(store_root: Path, identity: str) -> tuple[int, int]:
    """Memories with a vector of this model, and memories, in the store's index file."""
    import apsw

    from memcli.index import vectors
    from memcli.index.readonly import open_read_only
    from memcli.store.team import store_at

    path = store_at(store_root).index_path
    if not path.is_file():  # none yet, or not a regular file (SQLite would wait on a FIFO)
        return 0, 0
    try:
        db = open_read_only(path)
    except apsw.Error:
        return 0, 0
    try:
        total = int(next(iter(db.execute("SELECT count(*) FROM memories")))[0])
        meta = vectors.read_meta(db)
        if meta is None or meta.get("identity") != identity:
            return 0, total
        have = int(
            next(
                iter(
                    db.execute(
                        "SELECT count(*) FROM semantic_docs d JOIN memories m ON m.id = d.id "
                        "AND m.digest = d.source"
                    )
                )
            )[0]
        )
        return have, total
    except apsw.Error:
        return 0, 0
    finally:
        db.close()
