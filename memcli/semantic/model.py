"""A static embedding model in model2vec's format, read without numpy.

A model is a folder of three files: ``config.json`` (``normalize``,
``max_length``), ``tokenizer.json`` and ``model.safetensors`` holding the tensor
``embeddings`` (vocabulary x dimensions) and, in vocabulary-quantized models,
``weights`` (one per token) and ``mapping`` (token id to embeddings row). A text's
vector is what model2vec's ``StaticModel.encode`` computes: the text cut to
``max_length`` times the median token length in characters, its token ids
without special tokens, cut to ``max_length``, unknown tokens dropped, each
mapped and weighted, then the mean; mem always makes it unit length.

Every file is read within bounds (sizes, header length, shapes against the file
size), and anything wrong is a ``ModelError`` saying what, in one line.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from memcli.core.errors import MemError
from memcli.core.model_choice import (
    BUNDLED,
    MODEL_FILES,
    bundled_folder,
    cached,
    hub_files,
    is_hub_name,
    offline,
)
from memcli.core.regular import open_regular

MAX_CONFIG_BYTES = 1 << 20
MAX_TOKENIZER_BYTES = 64 << 20
MAX_HEADER_BYTES = 16 << 20
MAX_DIM = 8192
MAX_VOCAB = 4_000_000
DEFAULT_MAX_LENGTH = 512
# dtype: (struct code, bytes per value); BF16 is widened to float32 by hand.
DTYPES = {"F16": ("e", 2), "F32": ("f", 4), "F64": ("d", 8), "BF16": ("", 2), "I8": ("b", 1)}
INDEX_DTYPES = {"I64": ("q", 8), "I32": ("i", 4), "U32": ("I", 4), "I16": ("h", 2)}


class ModelError(MemError):
    """A semantic model cannot be found, downloaded or read."""


class Embedder(Protocol):
    """Texts to unit-length vectors (an all-zero vector for a text with no known token)."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class QueryEmbedder(Embedder, Protocol):
    """An embedder for one query at a time (a static model's or an ONNX model's)."""

    def embed_one(self, text: str) -> list[float]: ...

    def close(self) -> None: ...


class Tensor(NamedTuple):
    dtype: str
    shape: tuple[int, ...]
    start: int
    """Offset of the first byte in the file."""
    end: int


class ModelInfo(NamedTuple):
    """What mem keeps of a model: enough to embed without reading its tokenizer again."""

    directory: Path
    identity: str
    """A digest of the three files' contents that matter: another model, another identity."""
    normalize: bool
    max_length: int | None
    dim: int
    rows: int
    embeddings: Tensor
    weights: Tensor | None
    mapping: Tensor | None
    median_token_chars: int

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = self._asdict()
        data["directory"] = str(self.directory)
        for name in ("embeddings", "weights", "mapping"):
            tensor = data[name]
            data[name] = (
                None
                if tensor is None
                else [tensor.dtype, list(tensor.shape), tensor.start, tensor.end]
            )
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelInfo:
        values = dict(data)
        values["directory"] = Path(data["directory"])
        for name in ("embeddings", "weights", "mapping"):
            raw = data[name]
            values[name] = None if raw is None else Tensor(raw[0], tuple(raw[1]), raw[2], raw[3])
        return cls(**values)


# ------------------------------------------------------------------ finding a model


def locate(name: str, store_root: Path) -> Path | None:
    """The folder of the model ``name`` on this machine, or None if it must be downloaded.

    ``BUNDLED`` is the model inside mem's package; a path (absolute, or relative to
    the store) is used as it is; a hub name is looked up in the hub's cache, at the
    revision ``main`` points to.
    """
    if name == BUNDLED:
        folder = bundled_folder()
        if not folder.is_dir():
            raise ModelError(f"mem's bundled model is missing from this install ({folder})")
        return folder
    path = Path(name).expanduser()
    if not path.is_absolute():
        path = store_root / path
    if path.is_dir() or not is_hub_name(name):
        if not path.is_dir():
            raise ModelError(f"the model folder {path} does not exist")
        return path
    return cached(name)


def download(name: str) -> Path:
    """Fetch a hub model's files into the hub's cache, with progress on stderr: a static
    model's three, or an ONNX encoder's graph and small files (``hub_files``)."""
    if offline():
        raise ModelError(f"the model {name} is not in the cache, and HF_HUB_OFFLINE is set")
    try:
        import huggingface_hub
    except ImportError:
        raise ModelError("downloading a model needs memcli[semantic] (huggingface_hub)") from None
    from huggingface_hub.constants import ENDPOINT

    from memcli.semantic.reach import unreachable

    why = unreachable(ENDPOINT)
    if why is not None:  # at once, rather than after the hub client's retries
        raise ModelError(f"cannot download the model {name}: {why}")
    try:
        listed = huggingface_hub.list_repo_files(name, repo_type="model")
        folder = huggingface_hub.snapshot_download(
            name, repo_type="model", allow_patterns=hub_files(list(listed))
        )
    except Exception as exc:  # the hub's errors have no common base worth naming
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelError(f"cannot download the model {name}: {first}") from None
    return Path(folder)


def missing_files(name: str, folder: Path) -> list[str]:
    """What the hub repository ``name`` has of its model (``hub_files``) that ``folder``, its
    cached snapshot, lacks: a repository first fetched by another tool (sentence-transformers
    fetches the PyTorch weights, not the ONNX graph). [] offline, or when the hub cannot be
    asked: the cached files are then taken as they are."""
    if offline():
        return []
    try:
        import huggingface_hub
        from huggingface_hub.constants import ENDPOINT

        from memcli.semantic.reach import unreachable

        if unreachable(ENDPOINT):
            return []
        listed = list(huggingface_hub.list_repo_files(name, repo_type="model"))
    except Exception:  # no hub, no network: nothing to compare with
        return []
    return [file for file in hub_files(listed) if not (folder / file).is_file()]


def stamp(directory: Path) -> str:
    """The model files' sizes and modification times: cheap to compare on every search."""
    from memcli.semantic import transformer

    parts: list[Any] = [str(directory)]
    if transformer.graph_path(directory) is not None:
        for path in transformer.model_files(directory):
            try:
                status = path.stat()
            except OSError:
                parts.append(None)  # an optional file, absent
                continue
            parts.append([str(path.relative_to(directory)), status.st_size, status.st_mtime_ns])
        return json.dumps(parts)
    for file in MODEL_FILES:
        try:
            status = (directory / file).stat()
        except OSError:
            return ""
        parts.append([status.st_size, status.st_mtime_ns])
    return json.dumps(parts)


# ------------------------------------------------------------------ reading a model


def _read_bounded(path: Path, limit: int) -> bytes:
    try:
        with open_regular(path) as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise ModelError(f"the model has no {path.name} (in {path.parent})") from None
    except OSError as exc:
        raise ModelError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise ModelError(f"{path} is larger than {limit >> 20} MB")
    return data


def _json(path: Path, data: bytes) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise ModelError(f"{path} is not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise ModelError(f"{path} is not a JSON object")
    return value


def read_header(path: Path) -> tuple[bytes, dict[str, Tensor]]:
    """A safetensors file's header (its raw bytes, for the identity) and tensors, checked."""
    try:
        with open_regular(path) as handle:
            size = os.fstat(handle.fileno()).st_size
            first = handle.read(8)
            if len(first) < 8:
                raise ModelError(f"{path} is not a safetensors file (too short)")
            length = int.from_bytes(first, "little")
            if length > MAX_HEADER_BYTES or length > size - 8:
                raise ModelError(f"{path} is not a safetensors file (header of {length} bytes)")
            raw = handle.read(length)
    except FileNotFoundError:
        raise ModelError(f"the model has no {path.name} (in {path.parent})") from None
    except OSError as exc:
        raise ModelError(f"cannot read {path}: {exc.strerror or exc}") from None
    header = _json(path, raw)
    tensors: dict[str, Tensor] = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        try:
            dtype, shape, (begin, end) = entry["dtype"], entry["shape"], entry["data_offsets"]
            if not (isinstance(begin, int) and isinstance(end, int)):
                raise TypeError
            if not all(isinstance(n, int) and n >= 0 for n in shape):
                raise TypeError
            tensor = Tensor(str(dtype), tuple(shape), 8 + length + begin, 8 + length + end)
        except (KeyError, TypeError, ValueError):
            raise ModelError(f"{path}: the header entry of {name!r} is malformed") from None
        if not (8 + length <= tensor.start <= tensor.end <= size):
            raise ModelError(f"{path}: the tensor {name!r} lies outside the file")
        tensors[str(name)] = tensor
    return raw, tensors


def _itemsize(tensor: Tensor, kinds: dict[str, tuple[str, int]], path: Path, name: str) -> int:
    if tensor.dtype not in kinds:
        raise ModelError(
            f"{path}: the tensor {name!r} is {tensor.dtype} (mem reads {', '.join(kinds)})"
        )
    count = 1
    for n in tensor.shape:
        count *= n
    itemsize = kinds[tensor.dtype][1]
    if count * itemsize != tensor.end - tensor.start:
        raise ModelError(f"{path}: the tensor {name!r} does not match its shape")
    return itemsize


def read_model(directory: Path) -> tuple[ModelInfo, dict[str, Any]]:
    """The model in ``directory``, checked, and its parsed ``tokenizer.json``."""
    config_bytes = _read_bounded(directory / "config.json", MAX_CONFIG_BYTES)
    config = _json(directory / "config.json", config_bytes)
    tokenizer_bytes = _read_bounded(directory / "tokenizer.json", MAX_TOKENIZER_BYTES)
    tokenizer = _json(directory / "tokenizer.json", tokenizer_bytes)
    weights_path = directory / "model.safetensors"
    header, tensors = read_header(weights_path)
    embeddings = tensors.get("embeddings")
    if embeddings is None:
        raise ModelError(f"{weights_path} has no tensor 'embeddings'")
    if len(embeddings.shape) != 2 or not (
        0 < embeddings.shape[0] <= MAX_VOCAB and 0 < embeddings.shape[1] <= MAX_DIM
    ):
        raise ModelError(
            f"{weights_path}: 'embeddings' has the shape {list(embeddings.shape)}, "
            f"not [vocabulary, dimensions] within [{MAX_VOCAB}, {MAX_DIM}]"
        )
    _itemsize(embeddings, DTYPES, weights_path, "embeddings")
    weights, mapping = tensors.get("weights"), tensors.get("mapping")
    for name, tensor, kinds in (("weights", weights, DTYPES), ("mapping", mapping, INDEX_DTYPES)):
        if tensor is not None:
            if len(tensor.shape) != 1 or tensor.shape[0] > MAX_VOCAB:
                raise ModelError(f"{weights_path}: '{name}' is not one value per token")
            _itemsize(tensor, kinds, weights_path, name)
    model = tokenizer.get("model")
    vocab = model.get("vocab") if isinstance(model, dict) else None
    vocab_size = _vocab_size(vocab)
    if mapping is None and vocab_size is not None and vocab_size != embeddings.shape[0]:
        raise ModelError(
            f"{directory}: the tokenizer has {vocab_size} tokens but 'embeddings' "
            f"{embeddings.shape[0]} rows"
        )
    normalize = config.get("normalize", False)
    max_length = config.get("max_length", DEFAULT_MAX_LENGTH)
    if not isinstance(normalize, bool) or not (
        max_length is None or (isinstance(max_length, int) and max_length > 0)
    ):
        raise ModelError(f"{directory / 'config.json'}: normalize or max_length is malformed")
    import hashlib

    digest = hashlib.sha256()
    for part in (config_bytes, tokenizer_bytes, header):
        digest.update(hashlib.sha256(part).digest())
    digest.update(_file_digest(weights_path))
    info = ModelInfo(
        directory=directory,
        identity=digest.hexdigest()[:32],
        normalize=normalize,
        max_length=max_length,
        dim=embeddings.shape[1],
        rows=embeddings.shape[0],
        embeddings=embeddings,
        weights=weights,
        mapping=mapping,
        median_token_chars=_median_token_chars(tokenizer),
    )
    return info, tokenizer


def _file_digest(path: Path) -> bytes:
    """Of the whole file: the same header may hold other vectors."""
    import hashlib

    try:
        with open_regular(path) as handle:
            return hashlib.file_digest(handle, "sha256").digest()
    except OSError as exc:
        raise ModelError(f"cannot read {path}: {exc.strerror or exc}") from None


def _vocab_size(vocab: Any) -> int | None:
    if isinstance(vocab, dict):
        return len(vocab)
    if isinstance(vocab, list):  # Unigram: [token, score] pairs
        return len(vocab)
    return None


def _median_token_chars(tokenizer: dict[str, Any]) -> int:
    """``int(np.median)`` of the lengths of every token, added ones included, as model2vec."""
    model = tokenizer.get("model")
    vocab = model.get("vocab") if isinstance(model, dict) else None
    tokens: set[str] = set()
    if isinstance(vocab, dict):
        tokens.update(str(token) for token in vocab)
    elif isinstance(vocab, list):
        tokens.update(str(item[0]) for item in vocab if isinstance(item, list) and item)
    for added in tokenizer.get("added_tokens") or []:
        if isinstance(added, dict) and isinstance(added.get("content"), str):
            tokens.add(added["content"])
    lengths = sorted(len(token) for token in tokens)
    if not lengths:
        return 1
    middle = len(lengths) // 2
    if len(lengths) % 2:
        return lengths[middle]
    return int((lengths[middle - 1] + lengths[middle]) / 2)


# ------------------------------------------------------------------ embedding, pure Python

Tokenize = Callable[[str], list[int]]


class StaticEmbedder:
    """model2vec's ``encode`` for a few texts, reading only the rows it needs (no numpy)."""

    def __init__(self, name: str, info: ModelInfo, tokenize: Tokenize, unk_id: int | None) -> None:
        self.name = name
        self.info = info
        self.dim = info.dim
        self._tokenize = tokenize
        self._unk_id = unk_id
        path = info.directory / "model.safetensors"
        try:
            with open_regular(path) as handle:
                self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot read {path}: {exc}") from None
        if len(self._map) < info.embeddings.end:
            raise ModelError(f"{path} changed since it was read: run `mem reindex`")
        code, size = DTYPES[info.embeddings.dtype]
        self._row_bytes = info.dim * size
        self._row_format = f"<{info.dim}{code}" if code else ""

    def token_ids(self, text: str) -> list[int]:
        """The ids model2vec averages over for ``text``."""
        info = self.info
        if info.max_length is not None:
            text = text[: info.max_length * info.median_token_chars]
        ids = self._tokenize(text)
        if info.max_length is not None:
            ids = ids[: info.max_length]
        if self._unk_id is not None:
            ids = [i for i in ids if i != self._unk_id]
        return ids

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_one(text) for text in texts]

    def embed_one(self, text: str) -> list[float]:
        total = [0.0] * self.dim
        for token in self.token_ids(text):
            row = self._row(self._mapped(token))
            weight = self._weight(token)
            if weight == 1.0:
                total = [a + b for a, b in zip(total, row, strict=True)]
            else:
                total = [a + weight * b for a, b in zip(total, row, strict=True)]
        return unit(total)

    def _mapped(self, token: int) -> int:
        mapping = self.info.mapping
        if mapping is None:
            return token
        return int(self._index_value(mapping, token, INDEX_DTYPES))

    def _weight(self, token: int) -> float:
        weights = self.info.weights
        return 1.0 if weights is None else float(self._index_value(weights, token, DTYPES))

    def _index_value(self, tensor: Tensor, token: int, kinds: dict[str, tuple[str, int]]) -> float:
        code, size = kinds[tensor.dtype]
        if not 0 <= token < tensor.shape[0]:
            raise ModelError(f"the token id {token} is outside the model's tensors")
        at = tensor.start + token * size
        if not code:  # BF16
            return float(struct.unpack("<f", b"\0\0" + self._map[at : at + 2])[0])
        return float(struct.unpack_from("<" + code, self._map, at)[0])

    def _row(self, row: int) -> tuple[float, ...]:
        if not 0 <= row < self.info.rows:
            raise ModelError(f"the row {row} is outside the model's embeddings")
        at = self.info.embeddings.start + row * self._row_bytes
        if self._row_format:
            values: tuple[float, ...] = struct.unpack_from(self._row_format, self._map, at)
            return values
        raw = self._map[at : at + self._row_bytes]
        wide = bytearray(2 * len(raw))
        wide[2::4] = raw[0::2]
        wide[3::4] = raw[1::2]
        return struct.unpack(f"<{self.dim}f", wide)

    def close(self) -> None:
        self._map.close()


def unit(vector: list[float]) -> list[float]:
    norm = sum(x * x for x in vector) ** 0.5
    if norm == 0.0:
        return vector
    return [x / norm for x in vector]
