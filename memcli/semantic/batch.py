"""Embedding many texts at once with numpy (index builds).

The same computation as ``model.StaticEmbedder``, vectorised: numpy gathers and
averages the rows. Imported only when many memories need vectors. The ids come
from the pure-Python WordPiece, or, for tokenizers that are not WordPiece, from
the ``tokenizers`` library (``memcli[semantic]``), imported only then.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from memcli.semantic.model import ModelError, ModelInfo

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from tokenizers import Tokenizer

NUMPY_DTYPES = {"F16": "<f2", "F32": "<f4", "F64": "<f8", "I8": "i1", "I64": "<i8", "I32": "<i4"}
NUMPY_DTYPES.update({"U32": "<u4", "I16": "<i2"})


def library_tokenizer(text: str) -> Tokenizer:
    """The tokenizer of a ``tokenizer.json``, with padding and truncation off."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise ModelError("this model's tokenizer needs memcli[semantic] (tokenizers)") from None
    try:
        tokenizer = Tokenizer.from_str(text)
    except Exception as exc:  # the library raises plain Exceptions
        raise ModelError(f"the model's tokenizer.json cannot be used: {exc}") from None
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def unk_id_of(tokenizer: Tokenizer, parsed: dict[str, Any]) -> int | None:
    """The unknown token's id, as model2vec finds it (then drops it from every text)."""
    model = parsed.get("model") or {}
    if "unk_token" in model:
        token = model.get("unk_token")
        return None if token is None else tokenizer.token_to_id(str(token))
    unk = model.get("unk_id")
    return unk if isinstance(unk, int) else None


EncodeBatch = Callable[[Sequence[str]], list[list[int]]]
"""Texts to their token ids, without special tokens, not truncated."""


def library_encoder(tokenizer: Tokenizer) -> EncodeBatch:
    def encode(texts: Sequence[str]) -> list[list[int]]:
        encodings = tokenizer.encode_batch_fast(list(texts), add_special_tokens=False)
        return [list(encoding.ids) for encoding in encodings]

    return encode


class BatchEmbedder:
    """Texts to unit vectors (float32 rows), many at a time.

    The ids come from ``encode``: the pure-Python WordPiece (faster here than the
    library, which tokenizes ~350k tokens/s on two busy cores, and the same ids)
    or the library for other tokenizers.
    """

    def __init__(self, name: str, info: ModelInfo, encode: EncodeBatch, unk_id: int | None):
        self.name = name
        self.info = info
        self.dim = info.dim
        self.encode = encode
        self.unk_id = unk_id
        path = info.directory / "model.safetensors"
        try:
            raw = np.memmap(path, dtype=np.uint8, mode="r")
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot read {path}: {exc}") from None
        self.embeddings = self._tensor(raw, "embeddings").reshape(info.rows, info.dim)
        self.weights = self._tensor(raw, "weights") if info.weights else None
        self.mapping = self._tensor(raw, "mapping") if info.mapping else None
        if (
            self.mapping is not None
            and len(self.mapping)
            and (int(self.mapping.min()) < 0 or int(self.mapping.max()) >= info.rows)
        ):
            raise ModelError(f"{path}: 'mapping' points outside 'embeddings'")

    def _tensor(self, raw: NDArray[np.uint8], name: str) -> NDArray[Any]:
        tensor = getattr(self.info, name)
        chunk = raw[tensor.start : tensor.end]
        if tensor.dtype == "BF16":
            wide = np.zeros(len(chunk) // 2, dtype="<u4")
            wide |= chunk.view("<u2").astype("<u4") << 16
            return wide.view("<f4")
        return chunk.view(NUMPY_DTYPES[tensor.dtype])

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        info = self.info
        if info.max_length is not None:
            cut = info.max_length * info.median_token_chars
            ids = [row[: info.max_length] for row in self.encode([text[:cut] for text in texts])]
        else:
            ids = self.encode(texts)
        if self.unk_id is not None:
            ids = [[i for i in row if i != self.unk_id] for row in ids]
        return ids

    def embed_array(self, texts: Sequence[str]) -> NDArray[np.float32]:
        try:
            return self._embed_array(texts)
        except IndexError:
            raise ModelError("a token id is outside the model's tensors") from None

    def _embed_array(self, texts: Sequence[str]) -> NDArray[np.float32]:
        ids = self.token_ids(texts)
        out = np.zeros((len(ids), self.dim), dtype=np.float32)
        if self.mapping is None and self.weights is None:
            by_length: dict[int, list[int]] = defaultdict(list)
            for i, row in enumerate(ids):
                if row:
                    by_length[len(row)].append(i)
            for indices in by_length.values():
                matrix = np.array([ids[i] for i in indices], dtype=np.int64)
                out[indices] = self.embeddings[matrix].astype(np.float32).mean(axis=1)
        else:
            for i, row in enumerate(ids):
                if row:
                    tokens = np.array(row, dtype=np.int64)
                    rows = tokens if self.mapping is None else self.mapping[tokens]
                    vectors = self.embeddings[rows].astype(np.float32)
                    if self.weights is not None:
                        vectors = vectors * self.weights[tokens].astype(np.float32)[:, None]
                    out[i] = vectors.mean(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        result: NDArray[np.float32] = out / norms
        return result

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[float(x) for x in row] for row in self.embed_array(texts)]
