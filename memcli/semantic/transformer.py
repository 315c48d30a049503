"""A sentence-transformers encoder exported to ONNX, run with onnxruntime.

A model is a folder in sentence-transformers' layout: ``model.onnx`` (or
``onnx/model.onnx``) and ``tokenizer.json``, with ``1_Pooling/config.json``
(mean pooling; its ``word_embedding_dimension``), ``modules.json`` and
``sentence_bert_config.json`` (``max_seq_length``) when present. A text's vector
is what sentence-transformers computes: its tokens with the special ones, cut to
256 (or the model's shorter ``max_seq_length``), through the graph (inputs
``input_ids``, ``attention_mask`` and, if the graph has it, ``token_type_ids``),
``last_hidden_state`` (or the first output) averaged over the attention mask,
made unit length.

Reading the folder imports nothing heavy; ``TransformerEmbedder`` imports numpy,
tokenizers and onnxruntime, so nothing here is loaded for a static model.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from memcli.core.model_choice import ONNX_GRAPHS
from memcli.core.regular import open_regular
from memcli.semantic.model import MAX_CONFIG_BYTES, MAX_DIM, MAX_TOKENIZER_BYTES, ModelError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

MODEL_PATHS = ONNX_GRAPHS
OPTIONAL_FILES = ("1_Pooling/config.json", "modules.json", "sentence_bert_config.json")
MAX_TOKENS = 256
CHARS_PER_TOKEN = 16
"""A text is cut to this many characters per token kept before tokenizing: bounded work."""
TOKEN_BUDGET = 8192
"""Tokens (padding included) run through the graph at once, texts of like length together."""


class TransformerInfo(NamedTuple):
    """What mem keeps of an ONNX model (in the index's semantic meta)."""

    directory: Path
    identity: str
    """A digest of the graph, the tokenizer and the pooling files."""
    model_path: str
    """The graph's path inside the folder."""
    dim: int
    """0 until a session tells (no ``1_Pooling/config.json``)."""
    max_tokens: int

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = self._asdict()
        data["directory"] = str(self.directory)
        data["backend"] = "onnx"
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TransformerInfo:
        values = {name: data[name] for name in cls._fields}
        values["directory"] = Path(data["directory"])
        return cls(**values)


def graph_path(directory: Path) -> Path | None:
    """The folder's ONNX graph, or None: a folder with one is an ONNX model."""
    for relative in MODEL_PATHS:
        if (directory / relative).is_file():
            return directory / relative
    return None


def model_files(directory: Path) -> list[Path]:
    """The files whose change makes another model (for the cheap stamp)."""
    graph = graph_path(directory)
    files = [graph] if graph is not None else []
    return [*files, directory / "tokenizer.json", *(directory / f for f in OPTIONAL_FILES)]


def _read(path: Path, limit: int, *, required: bool) -> bytes | None:
    try:
        with open_regular(path) as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        if required:
            raise ModelError(f"the model has no {path.name} (in {path.parent})") from None
        return None
    except OSError as exc:
        raise ModelError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise ModelError(f"{path} is larger than {limit >> 20} MB")
    return data


def _json(path: Path, data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise ModelError(f"{path} is not valid JSON ({exc})") from None


def read_transformer(directory: Path) -> TransformerInfo:
    """The ONNX model in ``directory``, its small files checked (the graph by a session)."""
    import hashlib

    graph = graph_path(directory)
    if graph is None:
        raise ModelError(f"the model has no model.onnx (in {directory})")
    digest = hashlib.sha256()
    tokenizer = _read(directory / "tokenizer.json", MAX_TOKENIZER_BYTES, required=True)
    assert tokenizer is not None
    if not isinstance(_json(directory / "tokenizer.json", tokenizer), dict):
        raise ModelError(f"{directory / 'tokenizer.json'} is not a JSON object")
    digest.update(hashlib.sha256(tokenizer).digest())
    dim, max_tokens = 0, MAX_TOKENS
    for relative in OPTIONAL_FILES:
        path = directory / relative
        data = _read(path, MAX_CONFIG_BYTES, required=False)
        digest.update(hashlib.sha256(data or b"").digest())
        if data is None:
            continue
        value = _json(path, data)
        if relative == "1_Pooling/config.json":
            dim = _pooling_dim(path, value)
        elif relative == "modules.json":
            _check_modules(path, value)
        elif isinstance(value, dict) and isinstance(value.get("max_seq_length"), int):
            max_tokens = max(1, min(MAX_TOKENS, value["max_seq_length"]))
    try:
        with open_regular(graph) as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    except OSError as exc:
        raise ModelError(f"cannot read {graph}: {exc.strerror or exc}") from None
    return TransformerInfo(
        directory=directory,
        identity=digest.hexdigest()[:32],
        model_path=str(graph.relative_to(directory)),
        dim=dim,
        max_tokens=max_tokens,
    )


def _pooling_dim(path: Path, value: Any) -> int:
    if not isinstance(value, dict):
        raise ModelError(f"{path} is not a JSON object")
    modes = [k for k, v in value.items() if k.startswith("pooling_mode_") and v is True]
    if modes and modes != ["pooling_mode_mean_tokens"]:
        raise ModelError(f"{path}: mem pools by the mean only, not {', '.join(modes)}")
    dim = value.get("word_embedding_dimension", 0)
    if not isinstance(dim, int) or not 0 <= dim <= MAX_DIM:
        raise ModelError(f"{path}: word_embedding_dimension is malformed")
    return dim


def _check_modules(path: Path, value: Any) -> None:
    """Transformer, pooling and normalization are what mem computes; any other layer is not."""
    if not isinstance(value, list):
        raise ModelError(f"{path} is not a JSON list")
    known = ("Transformer", "Pooling", "Normalize")
    for module in value:
        kind = module.get("type") if isinstance(module, dict) else None
        if not (isinstance(kind, str) and kind.endswith(known)):
            shown = kind[:100] if isinstance(kind, str) else type(kind).__name__
            raise ModelError(f"{path}: mem cannot compute the module {shown!r}")


class TransformerEmbedder:
    """Texts to unit vectors with onnxruntime, a batch of like lengths at a time."""

    def __init__(self, name: str, info: TransformerInfo) -> None:
        try:
            import numpy  # noqa: F401
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError:
            raise ModelError(
                "an ONNX model needs memcli[semantic] (onnxruntime, numpy, tokenizers)"
            ) from None
        self.name = name
        self.info = info
        path = info.directory / "tokenizer.json"
        text = _read(path, MAX_TOKENIZER_BYTES, required=True)
        assert text is not None
        try:
            self._tokenizer = Tokenizer.from_str(text.decode("utf-8"))
        except Exception as exc:  # the library raises plain Exceptions
            raise ModelError(f"the model's tokenizer.json cannot be used: {exc}") from None
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(info.max_tokens)
        graph = info.directory / info.model_path
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        if _serving:
            # Each request's thread runs its own embedding; a pool of threads spinning for
            # more work would take the cores the other requests need (same vectors).
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self._session = onnxruntime.InferenceSession(
                str(graph), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime's errors share no useful base
            raise ModelError(f"{graph} cannot be loaded: {_first_line(exc)}") from None
        inputs = {i.name for i in self._session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= inputs:
            raise ModelError(f"{graph} does not take input_ids and attention_mask")
        self._type_ids = "token_type_ids" in inputs
        unknown = inputs - {"input_ids", "attention_mask", "token_type_ids"}
        if unknown:
            raise ModelError(f"{graph} asks for inputs mem does not give: {sorted(unknown)}")
        outputs = [o.name for o in self._session.get_outputs()]
        self._output = "last_hidden_state" if "last_hidden_state" in outputs else outputs[0]
        self.dim = info.dim or self._probe_dim()

    def _probe_dim(self) -> int:
        return int(self._run([[0]]).shape[1])

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        cut = self.info.max_tokens * CHARS_PER_TOKEN
        encodings = self._tokenizer.encode_batch([text[:cut] for text in texts])
        return [list(encoding.ids) for encoding in encodings]

    def embed_array(self, texts: Sequence[str]) -> NDArray[np.float32]:
        import numpy as np

        ids = self.token_ids(texts)
        out = np.zeros((len(ids), self.dim), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        start = 0
        while start < len(order):
            width = len(ids[order[start]])
            end = start + 1
            while end < len(order) and (end - start + 1) * len(ids[order[end]]) <= TOKEN_BUDGET:
                width = len(ids[order[end]])
                end += 1
            chosen = order[start:end]
            pooled = self._run([ids[i] for i in chosen], width)
            if pooled.shape[1] != self.dim:
                raise ModelError(f"the model gives {pooled.shape[1]} dimensions, not {self.dim}")
            out[chosen] = pooled
            start = end
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        result: NDArray[np.float32] = out / norms
        return result

    def _run(self, rows: list[list[int]], width: int | None = None) -> NDArray[np.float32]:
        """The mean over each row's tokens of the graph's output (not yet unit length)."""
        import numpy as np

        width = width or max(len(row) for row in rows)
        input_ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for i, row in enumerate(rows):
            input_ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if self._type_ids:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        try:
            (hidden,) = self._session.run([self._output], feed)
        except Exception as exc:  # onnxruntime's errors share no useful base
            raise ModelError(f"the model cannot embed: {_first_line(exc)}") from None
        hidden = np.asarray(hidden, dtype=np.float32)
        if hidden.ndim != 3 or hidden.shape[:2] != input_ids.shape:
            raise ModelError(
                f"the model's output {self._output} has the shape {list(hidden.shape)}, "
                "not [batch, tokens, dimensions]"
            )
        weights = mask[:, :, None].astype(np.float32)
        pooled: NDArray[np.float32] = (hidden * weights).sum(axis=1) / np.maximum(
            weights.sum(axis=1), 1.0
        )
        return pooled

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[float(x) for x in row] for row in self.embed_array(texts)]

    def embed_one(self, text: str) -> list[float]:
        return self.embed([text])[0]

    def close(self) -> None:
        pass


_loaded: dict[tuple[str, TransformerInfo], TransformerEmbedder] = {}
_serving = False


def serve_requests() -> None:
    """Models loaded from now on serve many requests at once (``mem serve``): each
    embedding runs on one thread, its caller's, and no thread spins waiting for work.
    A query then takes 2.7 ms instead of 1.6 (all-MiniLM-L6-v2, 2 cores) and leaves the
    other core to the other requests; the vectors are the same to the last bit."""
    global _serving
    _serving = True


def embedder_for(name: str, info: TransformerInfo) -> TransformerEmbedder:
    """The embedder of this model, loaded once a process (a session takes ~0.5 s to load).

    Only the last model is kept; ``info`` holds the files' digest, so a changed
    model is loaded again.
    """
    key = (name, info)
    if key not in _loaded:
        embedder = TransformerEmbedder(name, info)
        _loaded.clear()
        _loaded[key] = embedder
    return _loaded[key]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
