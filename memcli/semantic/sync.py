"""Keeping memories' vectors in step with the index, after each refresh.

Cheap when nothing changed: the index commit and the model files' stamp are
compared with what ``semantic_meta`` recorded, and that is all. Otherwise the
memories whose file changed are looked at; a text embedded before (same digest)
reuses its vector; the rest are embedded, a few in pure Python, many with numpy
in batches (each its own transaction, with progress), and vectors no memory uses
any more are dropped.
"""

from __future__ import annotations

import itertools
import json
import struct
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from memcli.core.regular import open_regular
from memcli.core.text import counted
from memcli.index import vectors
from memcli.semantic.model import (
    MAX_TOKENIZER_BYTES,
    ModelError,
    ModelInfo,
    QueryEmbedder,
    StaticEmbedder,
    download,
    locate,
    read_model,
    stamp,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from memcli.index import Index, Progress
    from memcli.semantic.batch import BatchEmbedder
    from memcli.semantic.transformer import TransformerEmbedder
    from memcli.semantic.wordpiece import WordPieceSpec

EMBED_TEXT_CHARS = 2000
"""Of title, facts and narrative, the first this many characters are embedded."""
PURE_PYTHON_MAX = 64
"""Fewer texts than this are embedded without importing numpy."""
NOTICE_FROM = PURE_PYTHON_MAX
"""Embedding this many memories or more says so; fewer take milliseconds (a save's one),
except with an ONNX model, which always says so."""
BATCH = 2048
ONNX_BATCH = 256
"""An ONNX model embeds ~100 memories a second: its progress comes oftener."""


class SyncReport(NamedTuple):
    embedded: int = 0
    reused: int = 0
    removed: int = 0
    """Memories whose vector went with them."""
    waiting: int = 0
    """Memories left without a vector: more than the limit were to be embedded."""


def embedded_text(title: str, facts: str, narrative: str) -> str:
    """What a memory's vector is of: title, facts (a JSON list), narrative; capped."""
    try:
        fact_list = json.loads(facts) if facts else []
    except ValueError:
        fact_list = []
    parts = [title, *(str(f) for f in fact_list if f), narrative]
    return "\n".join(p for p in parts if p)[:EMBED_TEXT_CHARS]


def text_digest(text: str) -> bytes:
    import hashlib

    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def int8_bytes(vector: Sequence[float]) -> bytes:
    """The vector scaled so that its largest value is 127, as bytes (cosine is unchanged)."""
    top = max((abs(x) for x in vector), default=0.0)
    scale = 127.0 / top if top else 0.0
    return struct.pack(f"{len(vector)}b", *(max(-127, min(127, round(x * scale))) for x in vector))


def sign_code(vector: Sequence[float], center: Sequence[float] | None = None) -> bytes:
    """One bit a dimension, set where the value is above the center's (little-endian bytes)."""
    out = bytearray((len(vector) + 7) // 8)
    # A center of other dimensions (a damaged index, or one an older mem kept from
    # another model) is no center.
    middle = center if center and len(center) == len(vector) else [0.0] * len(vector)
    for i, (x, c) in enumerate(zip(vector, middle, strict=True)):
        if x > c:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def center_of(meta: dict[str, str]) -> list[float] | None:
    raw = meta.get("center")
    return [float(x) for x in json.loads(raw)] if raw else None


def model_directory(
    name: str, store_root: Path, notify: Callable[[str], None], *, fetch: bool = True
) -> Path:
    """The model's folder, downloaded first when it is not here and ``fetch`` allows it."""
    directory = locate(name, store_root)
    if directory is None:
        if not fetch:
            raise ModelError(f"the model {name} is not downloaded (run `mem model pull`)")
        notify(f"downloading the semantic model {name}")
        directory = download(name)
    return directory


def follow(
    index: Index,
    name: str,
    store_root: Path,
    *,
    changed: bool,
    notify: Callable[[str], None],
    progress: Progress | None = None,
    limit: int | None = None,
    update: tuple[str, set[str]] | None = None,
    fetch: bool = True,
) -> SyncReport | None:
    """Bring the vectors in step with the index; None when they already were.

    ``changed``: the refresh before this one changed the index (so the commit
    alone does not tell). More than ``limit`` memories to embed (a hook has no
    time for it) are left waiting, with a notice, for the next command.
    ``update``: the refresh updated the index from this commit, touching these
    memory ids; when the vectors followed that commit, only those are looked at.
    ``fetch``: a model not on this machine may be downloaded (a hook's may not).
    """
    db = index.db
    meta = vectors.read_meta(db)
    commit = index.indexed_commit() or ""
    directory = model_directory(name, store_root, notify, fetch=fetch)
    current = stamp(directory)
    if (
        meta is not None
        and not changed
        and meta.get("commit") == commit
        and meta.get("stamp") == current
        and meta.get("name") == name
    ):
        return None
    known = meta is not None and meta.get("stamp") == current and meta.get("name") == name
    if meta is None or not known:
        meta = _take_model(index, name, directory, current)
    old: list[int] | None = None
    if known and update is not None and meta.get("commit") == update[0]:
        todo, gone, old = vectors.touched(db, sorted(update[1]))
    else:  # every memory compared with its vector (two scans: ~0.2 s at 100k)
        todo, gone = vectors.to_embed(db), vectors.gone(db)
    # First the digests (texts read a chunk at a time, not kept), then the embedding.
    reused: list[tuple[str, str, bytes, bytes | None, bytes | None]] = []
    fresh: list[tuple[str, str, bytes]] = []
    seen: set[bytes] = set()
    for start in range(0, len(todo), BATCH):
        chunk = todo[start : start + BATCH]
        found = vectors.texts(db, [ident for ident, _ in chunk])
        for ident, source in chunk:
            if ident not in found:
                continue  # removed meanwhile
            digest = text_digest(embedded_text(*found[ident]))
            if digest in seen or vectors.vector_of_digest(db, digest) is not None:
                reused.append((ident, source, digest, None, None))
            else:
                seen.add(digest)
                fresh.append((ident, source, digest))
    with index._write():
        vectors.remove(db, gone)
    waiting = limit is not None and len(fresh) > limit
    memories = counted(len(fresh), "memory", "memories")
    if waiting:
        notify(f"{memories} without vectors yet (`mem reindex` embeds them)")
    elif fresh:
        if len(fresh) >= NOTICE_FROM or meta.get("backend") == "onnx":
            notify(f"embedding {memories} with {name}")
        _embed(index, name, meta, directory, fresh, progress)
    with index._write():
        vectors.store(db, reused)
        if gone or todo:
            vectors.prune(db, old)
        if not waiting:
            vectors.set_meta(db, {"commit": commit})
    if waiting:
        return SyncReport(reused=len(reused), removed=len(gone), waiting=len(fresh))
    return SyncReport(embedded=len(fresh), reused=len(reused), removed=len(gone))


def _take_model(index: Index, name: str, directory: Path, current: str) -> dict[str, str]:
    """Read the model (its files changed, or it is new here); another model: clear the vectors."""
    from memcli.semantic import transformer
    from memcli.semantic.wordpiece import Unsupported, spec_of

    info: ModelInfo | transformer.TransformerInfo
    spec: WordPieceSpec | None = None
    if transformer.graph_path(directory) is not None:
        info = transformer.read_transformer(directory)
        if not info.dim:  # no pooling config: a session tells
            embedder = transformer.TransformerEmbedder(name, info)
            info = info._replace(dim=embedder.dim)
    else:
        info, tokenizer = read_model(directory)
        try:
            spec = spec_of(tokenizer)
        except Unsupported:
            spec = None
    db = index.db
    with index._write():
        vectors.ensure_tables(db)
        old = vectors.read_meta(db) or {}
        another = old.get("identity") != info.identity
        if another:
            vectors.clear(db)
            vocab = tokenizer["model"]["vocab"] if spec is not None else {}
            # An ONNX model's queries are tokenized by the library: no vocabulary kept.
            vectors.replace_vocab(db, {str(k): int(v) for k, v in vocab.items()})
        values = {
            "name": name,
            "identity": info.identity,
            "stamp": current,
            "info": json.dumps(info.to_json()),
            "spec": json.dumps(spec.to_json()) if spec is not None else "",
            "backend": "onnx" if isinstance(info, transformer.TransformerInfo) else "static",
            "commit": "",
        }
        if another:  # the old model's center is not this one's (nor of its length)
            values["center"] = ""
        vectors.set_meta(db, values)
        meta = vectors.read_meta(db)
    assert meta is not None
    return meta


def query_embedder(index: Index, name: str, meta: dict[str, str]) -> QueryEmbedder:
    """The pure-Python embedder, its vocabulary read from the index (WordPiece) or the library.

    An ONNX model's is its batch embedder, for one query.
    """
    from memcli.semantic.wordpiece import WordPiece, WordPieceSpec

    if meta.get("backend") == "onnx":
        return _transformer_embedder(name, meta)
    info = ModelInfo.from_json(vectors.meta_json(meta, "info"))
    if meta.get("spec"):
        spec = WordPieceSpec.from_json(json.loads(meta["spec"]))
        wordpiece = WordPiece(spec, vectors.vocab_lookup(index.db))
        return StaticEmbedder(name, info, wordpiece.encode, wordpiece.unk_id)
    return _library_embedder(name, info)


def _read_tokenizer(path: Path) -> tuple[str, Any]:
    """A model's tokenizer.json, as text and parsed; at most ``MAX_TOKENIZER_BYTES`` are read."""
    try:
        with open_regular(path) as handle:
            text = handle.read(MAX_TOKENIZER_BYTES + 1).decode("utf-8")
        return text, json.loads(text)
    except (OSError, ValueError, RecursionError) as exc:
        raise ModelError(f"cannot read {path}: {exc}") from None


def _library_embedder(name: str, info: ModelInfo) -> StaticEmbedder:
    try:
        from memcli.semantic.batch import library_tokenizer, unk_id_of
    except ImportError:
        raise ModelError("embedding needs numpy: reinstall mem") from None
    text, parsed = _read_tokenizer(info.directory / "tokenizer.json")
    tokenizer = library_tokenizer(text)
    unk = unk_id_of(tokenizer, parsed)

    def tokenize(text: str) -> list[int]:
        return list(tokenizer.encode(text, add_special_tokens=False).ids)

    return StaticEmbedder(name, info, tokenize, unk)


def _transformer_embedder(name: str, meta: dict[str, str]) -> TransformerEmbedder:
    from memcli.semantic.transformer import TransformerInfo, embedder_for

    return embedder_for(name, TransformerInfo.from_json(vectors.meta_json(meta, "info")))


def _embed(
    index: Index,
    name: str,
    meta: dict[str, str],
    directory: Path,
    fresh: list[tuple[str, str, bytes]],
    progress: Progress | None,
) -> None:
    """Embed and store, a batch at a time, each batch its own transaction."""
    db = index.db
    center = center_of(meta)
    onnx = meta.get("backend") == "onnx"
    pure = not onnx and len(fresh) < PURE_PYTHON_MAX and bool(meta.get("spec"))
    embedder = query_embedder(index, name, meta) if pure else None
    batch: BatchEmbedder | TransformerEmbedder | None = None
    if onnx:
        batch = _transformer_embedder(name, meta)
    elif not pure:
        info = ModelInfo.from_json(vectors.meta_json(meta, "info"))
        batch = _batch_embedder(index, name, info, meta, directory)
    size = ONNX_BATCH if onnx else BATCH
    done = 0
    try:
        for start in range(0, len(fresh), size):
            chunk = fresh[start : start + size]
            found = vectors.texts(db, [ident for ident, _, _ in chunk])
            chunk = [row for row in chunk if row[0] in found]
            texts = [embedded_text(*found[ident]) for ident, _, _ in chunk]
            if embedder is not None:
                encoded = [(int8_bytes(v), sign_code(v, center)) for v in embedder.embed(texts)]
            else:
                assert batch is not None
                encoded = _encoded(batch.embed_array(texts), center)
            rows = [
                (ident, source, digest, vec, code)
                for (ident, source, digest), (vec, code) in zip(chunk, encoded, strict=True)
            ]
            with index._write():
                vectors.store(db, rows)
            done += len(chunk)
            if progress is not None:
                progress(done, len(fresh))
    finally:
        if embedder is not None:
            embedder.close()
    if batch is not None:
        _recenter(index)


def _encoded(matrix: NDArray[np.float32], center: list[float] | None) -> list[tuple[bytes, bytes]]:
    """int8 vectors and sign-bit codes of a batch, as ``int8_bytes`` and ``sign_code``."""
    import numpy as np

    top = np.abs(matrix).max(axis=1, keepdims=True)
    top[top == 0] = 1.0
    quantized = np.clip(np.rint(matrix * (127.0 / top)), -127, 127).astype(np.int8)
    same = center and len(center) == matrix.shape[1]  # as in sign_code
    middle = np.array(center, dtype=np.float32) if same else np.zeros(matrix.shape[1])
    codes = np.packbits(matrix > middle, axis=1, bitorder="little")
    return [(quantized[i].tobytes(), codes[i].tobytes()) for i in range(len(matrix))]


def _recenter(index: Index) -> None:
    """After many new vectors: the center is their mean again, and every code follows it.

    Read a chunk at a time, twice (the mean, then the codes): bounded memory.
    """
    import numpy as np

    db = index.db

    def chunks() -> Iterator[tuple[list[int], NDArray[np.float32]]]:
        rows = vectors.all_vectors(db)
        while chunk := list(itertools.islice(rows, BATCH * 4)):
            raw = np.frombuffer(b"".join(vec for _, vec in chunk), dtype=np.int8)
            matrix = raw.reshape(len(chunk), -1).astype(np.float32)
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            yield [rowid for rowid, _ in chunk], matrix / norms

    with index._write():
        total, count = None, 0
        for _, matrix in chunks():
            total = matrix.sum(axis=0) if total is None else total + matrix.sum(axis=0)
            count += len(matrix)
        if total is None:
            return
        kept = [round(float(x), 6) for x in total / count]
        center = np.array(kept, dtype=np.float32)
        for rowids, matrix in chunks():
            codes = np.packbits(matrix > center, axis=1, bitorder="little")
            vectors.replace_codes(db, zip(rowids, (row.tobytes() for row in codes), strict=True))
        vectors.set_meta(db, {"center": json.dumps(kept)})


def _batch_embedder(
    index: Index, name: str, info: ModelInfo, meta: dict[str, str], directory: Path
) -> BatchEmbedder:
    try:
        from memcli.semantic.batch import (
            BatchEmbedder,
            library_encoder,
            library_tokenizer,
            unk_id_of,
        )
    except ImportError:
        raise ModelError("embedding many memories needs numpy: reinstall mem") from None
    from memcli.semantic.wordpiece import WordPiece, WordPieceSpec

    if meta.get("spec"):  # WordPiece in Python, its vocabulary in memory for the many look-ups
        spec = WordPieceSpec.from_json(json.loads(meta["spec"]))
        vocab = dict(index.db.execute("SELECT token, id FROM semantic_vocab"))
        wordpiece = WordPiece(spec, vocab.get)

        def encode(texts: Sequence[str]) -> list[list[int]]:
            return [wordpiece.encode(text) for text in texts]

        return BatchEmbedder(name, info, encode, wordpiece.unk_id)
    text, parsed = _read_tokenizer(directory / "tokenizer.json")
    tokenizer = library_tokenizer(text)
    return BatchEmbedder(name, info, library_encoder(tokenizer), unk_id_of(tokenizer, parsed))
