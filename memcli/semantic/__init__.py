"""Optional semantic retrieval with an embedding model (``memcli[semantic]``).

``semantic_status`` says in one line whether search is semantic and why not;
``SemanticSearch`` finds the memories nearest to a query by meaning. With no
``[semantic] model`` in mem.toml nothing here is imported. Importable without
numpy: only bulk embedding (``batch``) needs it.

    model.py     the model's files (model2vec format), checked; pure-Python embedding
    transformer.py  an ONNX sentence encoder (sentence-transformers layout), onnxruntime
    wordpiece.py BERT WordPiece tokenization, as the tokenizers library does it
    batch.py     embedding many texts with numpy and tokenizers
    sync.py      keeping the vectors in step with the index
    search.py    nearest memories: Hamming scan of sign bits, exact cosine after
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, NamedTuple

from memcli.semantic.search import SemanticSearch

__all__ = ["SemanticSearch", "SemanticStatus", "semantic_status"]

EXTRA_MODULES = (("sqlite-vec", "sqlite_vec"), ("numpy", "numpy"), ("tokenizers", "tokenizers"))


class SemanticStatus(NamedTuple):
    enabled: bool
    model: str
    reason: str


def semantic_status(store_root: Path, settings: dict[str, Any]) -> SemanticStatus:
    """Whether search is semantic here, in one line; never raises for a bad model."""
    from memcli.semantic import transformer
    from memcli.semantic.model import ModelError, is_hub_name, locate, offline, read_model

    name = str(settings.get("semantic", {}).get("model") or "")
    if not name:
        return SemanticStatus(False, "", "lexical only: no [semantic] model in mem.toml")
    missing = [package for package, module in EXTRA_MODULES if not _importable(module)]
    if is_hub_name(name) and not _importable("huggingface_hub"):
        missing.append("huggingface_hub")
    if missing:
        return SemanticStatus(
            False, name, f"lexical only: install memcli[semantic] ({', '.join(missing)} missing)"
        )
    try:
        directory = locate(name, store_root)
        if directory is None:
            why = "HF_HUB_OFFLINE is set" if offline() else "the next search downloads it"
            return SemanticStatus(
                False, name, f"lexical only: the model {name} is not downloaded ({why})"
            )
        if transformer.graph_path(directory) is None:
            info, _ = read_model(directory)
            identity, dim = info.identity, info.dim
        else:
            if not _importable("onnxruntime"):
                return SemanticStatus(
                    False, name, "lexical only: install memcli[semantic] (onnxruntime missing)"
                )
            onnx = transformer.read_transformer(directory)
            identity, dim = onnx.identity, transformer.embedder_for(name, onnx).dim
    except ModelError as exc:
        return SemanticStatus(False, name, f"lexical only: {exc}")
    have, total = _vector_counts(store_root, identity)
    if have == total:
        counts = f"{have:,} vectors"
    else:
        counts = f"{have:,} of {total:,} memories have vectors; the next search embeds the rest"
    return SemanticStatus(True, name, f"semantic: {name} ({dim} dims, {counts})")


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _vector_counts(store_root: Path, identity: str) -> tuple[int, int]:
    """Memories with a vector of this model, and memories, in the store's index file."""
    import apsw

    from memcli.index import vectors
    from memcli.index.readonly import open_read_only
    from memcli.store.team import store_at

    try:
        db = open_read_only(store_at(store_root).index_path)
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
