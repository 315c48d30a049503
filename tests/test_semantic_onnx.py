"""Semantic retrieval with an ONNX sentence encoder: a tiny graph made here with ``onnx``.

The graph looks up each token's row of the test vocabulary's vectors (those of
tests/test_semantic.py: synonyms share an axis) and gives them as
``last_hidden_state``; mem averages them over the attention mask, so a text's
vector is the mean of its tokens' rows, [CLS] and [SEP] included.
"""

from __future__ import annotations

import json
import math
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

from memcli.core import config
from memcli.index import Index
from memcli.index import vectors as vector_tables
from memcli.semantic import semantic_status
from memcli.semantic.model import ModelError
from memcli.semantic.transformer import TransformerEmbedder, read_transformer

from .conftest import mem
from .test_semantic import (
    AXES,
    DIM,
    FILLER,
    embeddings_notices,
    ids_by_title,
    open_search,
    use_model,
)

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
VOCAB = [*SPECIAL, *FILLER, *(word for words in AXES.values() for word in words)]


def _vectors(sign: float = 1.0) -> np.ndarray:
    rng = np.random.default_rng(11)
    matrix = rng.normal(0, 0.05, size=(len(VOCAB), DIM)).astype(np.float32)
    for axis, words in AXES.items():
        for word in words:
            matrix[VOCAB.index(word), axis] += 1.0
    for word in FILLER:
        matrix[VOCAB.index(word), 7] += 0.2
    return sign * matrix


def write_graph(path: Path, matrix: np.ndarray, *, type_ids: bool = True) -> None:
    """input_ids -> Gather(rows) * attention_mask -> last_hidden_state [batch, tokens, dim]."""
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
    ]
    if type_ids:
        inputs.append(
            helper.make_tensor_value_info("token_type_ids", TensorProto.INT64, ["batch", "seq"])
        )
    nodes = [
        helper.make_node("Gather", ["rows", "input_ids"], ["gathered"]),
        helper.make_node("Cast", ["attention_mask"], ["mask"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask", "axis"], ["mask3"]),
        helper.make_node("Mul", ["gathered", "mask3"], ["last_hidden_state"]),
    ]
    output = helper.make_tensor_value_info(
        "last_hidden_state", TensorProto.FLOAT, ["batch", "seq", matrix.shape[1]]
    )
    initializers = [
        numpy_helper.from_array(matrix, "rows"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "axis"),
    ]
    graph = helper.make_graph(nodes, "tiny", inputs, [output], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def write_onnx_model(folder: Path, *, pooling: bool = True, nested: bool = False) -> Path:
    """A sentence-transformers folder: model.onnx, tokenizer.json, modules.json, 1_Pooling."""
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = Tokenizer(
        models.WordPiece({token: i for i, token in enumerate(VOCAB)}, unk_token="[UNK]")
    )
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    tokenizer.add_special_tokens(SPECIAL)
    (folder / "tokenizer.json").write_text(tokenizer.to_str())
    write_graph(folder / ("onnx/model.onnx" if nested else "model.onnx"), _vectors())
    modules = [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {
            "idx": 1,
            "name": "1",
            "path": "1_Pooling",
            "type": "sentence_transformers.models.Pooling",
        },
        {
            "idx": 2,
            "name": "2",
            "path": "2_Normalize",
            "type": "sentence_transformers.models.Normalize",
        },
    ]
    (folder / "modules.json").write_text(json.dumps(modules))
    if pooling:
        (folder / "1_Pooling").mkdir(exist_ok=True)
        (folder / "1_Pooling" / "config.json").write_text(
            json.dumps({"word_embedding_dimension": DIM, "pooling_mode_mean_tokens": True})
        )
    return folder


@pytest.fixture(scope="session")
def _onnx_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_onnx_model(tmp_path_factory.mktemp("onnx") / "tiny-onnx")


@pytest.fixture
def onnx_dir(_onnx_template: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(_onnx_template, tmp_path / "tiny-onnx"))


def _expected(folder: Path, texts: list[str]) -> np.ndarray:
    """The mean of the rows of each text's tokens (special ones included), unit length."""
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    matrix = _vectors()
    rows = [matrix[tokenizer.encode(text).ids].mean(axis=0) for text in texts]
    out = np.array(rows, dtype=np.float32)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


TEXTS = ["", "Feature toggle", "the database connection pool is exhausted under load", "日 é !"]


@pytest.mark.parametrize("layout", ["flat", "nested", "no pooling config"])
def test_the_vector_is_the_mean_of_the_token_rows(tmp_path: Path, layout: str) -> None:
    folder = write_onnx_model(
        tmp_path / "m", pooling=layout != "no pooling config", nested=layout == "nested"
    )
    info = read_transformer(folder)
    assert info.model_path == ("onnx/model.onnx" if layout == "nested" else "model.onnx")
    embedder = TransformerEmbedder("tiny", info)
    assert embedder.dim == DIM
    batch = embedder.embed_array(TEXTS)  # of several lengths, padded together
    np.testing.assert_allclose(batch, _expected(folder, TEXTS), atol=1e-5)
    one = np.array([embedder.embed_one(text) for text in TEXTS])
    np.testing.assert_allclose(one, batch, atol=1e-5)
    long = embedder.token_ids(["flag " * 1000])[0]
    assert len(long) == 256 and long[0] == 2 and long[-1] == 3


def test_an_onnx_model_is_chosen_and_its_vectors_reused(store: Path, onnx_dir: Path) -> None:
    mem("save", "Feature toggle for dark mode lives in settings")
    mem("save", "The database connection pool is exhausted under load")
    use_model(store, str(onnx_dir))
    assert embeddings_notices(mem("list")) == [f"mem: embedding 2 memories with {onnx_dir}"]
    saved = mem("save", "Use pytest fixtures for temporary repositories")
    assert embeddings_notices(saved) == [f"mem: embedding 1 memory with {onnx_dir}"]
    # Same text, new file: the vector is reused by its digest.
    assert embeddings_notices(mem("edit", saved.stdout.strip(), "--set", "concepts=x")) == []
    assert embeddings_notices(mem("list")) == []
    titles = ids_by_title(store)
    index, search = open_search(store)
    try:
        assert vector_tables.read_meta(index.db)["backend"] == "onnx"  # type: ignore[index]
        best = search.nearest("flag switch", 2)
        assert best[0][0] == titles["Feature toggle for dark mode lives in settings"]
        assert best[0][1] > 0.5 > best[1][1]
        assert (
            search.nearest("postgres query", 1)[0][0]
            == titles["The database connection pool is exhausted under load"]
        )
    finally:
        index.close()
    status = semantic_status(store, config.load(store))
    assert status == (True, str(onnx_dir), f"semantic: {onnx_dir} ({DIM} dims, 3 vectors)")
    assert "Feature toggle" in mem("search", "switch").stdout


def test_changed_model_files_embed_everything_again(store: Path, onnx_dir: Path) -> None:
    use_model(store, str(onnx_dir))
    mem("save", "Feature toggle for dark mode")
    mem("save", "Use pytest fixtures")
    before = read_transformer(onnx_dir).identity
    write_graph(onnx_dir / "model.onnx", _vectors(-1.0))
    assert read_transformer(onnx_dir).identity != before
    assert embeddings_notices(mem("list")) == [f"mem: embedding 2 memories with {onnx_dir}"]


@pytest.mark.parametrize("kind", ["garbage graph", "empty graph", "max pooling"])
def test_a_broken_onnx_model_is_one_line(store: Path, onnx_dir: Path, kind: str) -> None:
    if kind == "garbage graph":
        (onnx_dir / "model.onnx").write_bytes(b"not a graph \x00\xff" * 10)
    elif kind == "empty graph":
        (onnx_dir / "model.onnx").write_bytes(b"")
    else:
        (onnx_dir / "1_Pooling" / "config.json").write_text(
            json.dumps({"word_embedding_dimension": DIM, "pooling_mode_max_tokens": True})
        )
    status = semantic_status(onnx_dir, {"semantic": {"model": str(onnx_dir)}})
    assert not status.enabled and status.reason.startswith("lexical only: ")
    assert "\n" not in status.reason
    mem("save", "Feature toggle for dark mode")
    use_model(store, str(onnx_dir))
    found = mem("search", "toggle")
    assert "Feature toggle" in found.stdout
    assert "semantic search is off: " in found.stderr and "Traceback" not in found.stderr
    with pytest.raises(ModelError):
        TransformerEmbedder("tiny", read_transformer(onnx_dir))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5000) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=30), inner),
    max_leaves=12,
)
KEYS = st.sampled_from(
    ["type", "word_embedding_dimension", "pooling_mode_mean_tokens", "pooling_mode_cls_token"]
    + ["max_seq_length", "path"]
)
SMALL_FILES = ["1_Pooling/config.json", "modules.json", "sentence_bert_config.json"]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    file=st.sampled_from(SMALL_FILES),
    value=JSON | st.dictionaries(KEYS, JSON) | st.lists(st.dictionaries(KEYS, JSON)),
    raw=st.none() | st.binary(max_size=40),
)
def test_any_small_file_is_read_or_refused_in_one_line(
    _onnx_template: Path, tmp_path_factory: pytest.TempPathFactory, file: str, value: Any, raw: Any
) -> None:
    folder = Path(shutil.copytree(_onnx_template, tmp_path_factory.mktemp("f") / "m"))
    (folder / file).write_bytes(raw if raw is not None else json.dumps(value).encode())
    try:
        info = read_transformer(folder)
    except ModelError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 500
    else:
        assert 0 <= info.dim and 1 <= info.max_tokens <= 256


def test_codes_held_in_memory_pick_what_sql_picks(
    store: Path, onnx_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm worker scans the codes in numpy, a process of its own in SQL: the same rowids,
    ties (many, with 8 dimensions) to the lower rowid, before and after a save; and the
    same memories with the same cosines, to the last bit, from the vectors held or read."""
    import random

    from memcli.api import open_store
    from memcli.semantic import scan

    use_model(store, str(onnx_dir))
    words = [word for words in AXES.values() for word in words if not word.startswith("#")]
    chance = random.Random(7)
    with open_store(store) as memories:
        for n in range(30):
            memories.save(f"{' '.join(chance.sample(words, 3))} note {n}")
    mem("list")

    units = [chance.gauss(0, 1) for _ in range(DIM * 8)]
    units = [units[n : n + DIM] for n in range(0, len(units), DIM)]
    units = [[x / math.sqrt(sum(y * y for y in unit)) for x in unit] for unit in units]

    def compare(index: Any) -> None:
        codes = {code for _, code, _ in vector_tables.all_codes_and_vectors(index.db)}
        codes |= {b"\x00", b"\xff"}
        for window in (1, 2, 5, 13, 29, 40):
            for n, code in enumerate(sorted(codes)):
                expected = vector_tables.nearest_codes(index.db, code, window)
                assert scan.held_nearest_codes(index, code, window) == expected
                unit = units[n % len(units)]
                # Every memory of the picked vectors scored, then the best: what reading
                # the ids of the best vectors only must give.
                picked = dict(vector_tables.vectors_by_rowid(index.db, expected))
                kept = [rowid for rowid in expected if rowid in picked]
                matrix = np.frombuffer(b"".join(picked[r] for r in kept), dtype=np.int8)
                values = scan.cosines(matrix.reshape(len(kept), -1), unit).tolist()
                cosine = dict(zip(kept, values, strict=True))
                every = sorted(
                    (
                        (ident, cosine[v])
                        for ident, v in vector_tables.ids_of_vectors(index.db, kept)
                    ),
                    key=lambda pair: (-pair[1], pair[0]),
                )
                for limit in (1, 3, 10, 100):
                    monkeypatch.setattr(scan, "_holding", False)
                    read = scan.nearest(index, unit, code, window, limit)
                    assert read == every[:limit]
                    monkeypatch.setattr(scan, "_holding", True)
                    assert scan.nearest(index, unit, code, window, limit) == read

    index, _ = open_search(store)
    try:
        assert vector_tables.count(index.db) == 30
        compare(index)
        mem("save", "flag toggle switch feature")  # a new code: read again
        mem("list")
        # The search after a change reads the picked vectors from SQL (the same answer)
        # while a thread of its own reads the codes and vectors again.
        monkeypatch.setattr(scan, "_holding", False)
        expected = scan.nearest(index, units[0], b"\x0f", 31, 10)
        monkeypatch.setattr(scan, "_holding", True)
        assert scan.nearest(index, units[0], b"\x0f", 31, 10) == expected
        deadline = time.monotonic() + 30
        while scan._current(index) is None:
            assert time.monotonic() < deadline, "the codes were never read again"
            time.sleep(0.01)
        assert scan.nearest(index, units[0], b"\x0f", 31, 10) == expected
        compare(index)
        # The same rowids given each other's codes (as vectors made anew in another order
        # would be), by another connection: count and last rowid unchanged, read again.
        other = Index(store / ".cache" / "index.db")
        try:
            rows = [(r, c) for r, c, _ in vector_tables.all_codes_and_vectors(other.db)]
            shuffled = [code for _, code in rows][::-1]
            with other._write():
                vector_tables.replace_codes(
                    other.db, zip([r for r, _ in rows], shuffled, strict=True)
                )
        finally:
            other.close()
        compare(index)
    finally:
        index.close()


@given(
    st.integers(1, 4).flatmap(
        lambda words: st.sampled_from([8 * words, 8 * words - 3]).flatmap(
            lambda width: st.tuples(
                st.lists(st.binary(min_size=width, max_size=width), min_size=1, max_size=20),
                st.binary(min_size=width, max_size=width),
            )
        )
    )
)
def test_hamming_distance_counts_the_differing_bits(found: tuple[list[bytes], bytes]) -> None:
    """Codes of whole 64-bit words are compared a word at a time, others a byte at a time:
    both count exactly the bits that differ, from buffers at any alignment."""
    from memcli.semantic import scan

    codes, query = found
    width = len(query)
    buffer = np.frombuffer(b"\x00" + b"".join(codes), dtype=np.uint8)[1:]  # not aligned
    rows = buffer.reshape(len(codes), width)
    asked = np.frombuffer(b"\x00" + query, np.uint8)[1:]
    expected = [
        sum(bin(a ^ b).count("1") for a, b in zip(code, query, strict=True)) for code in codes
    ]
    assert scan.hamming(rows, asked).tolist() == expected
    columns = scan.word_columns(rows)
    assert (columns is None) == (width % 8 != 0)
    if columns is not None:
        assert scan.hamming_columns(columns, asked).tolist() == expected


@given(
    st.lists(st.sampled_from([0.9, 0.5, 0.5, 0.1, -0.2]), max_size=30),
    st.lists(st.integers(0, 3), min_size=30, max_size=30),
    st.integers(1, 12),
)
def test_the_best_memories_are_read_for_the_best_vectors_only(
    values: list[float], memories: list[int], limit: int
) -> None:
    """Memory ids read for the best vectors only give what scoring every memory gives, ties
    (many here: equal cosines, vectors of no memory or of several) broken by id."""
    from memcli.semantic import scan

    kept = [100 + n for n in range(len(values))]
    owners = {
        rowid: [f"m{(7 * rowid + k) % 40:02d}-{k}" for k in range(memories[n])]
        for n, rowid in enumerate(kept)
    }
    asked: list[int] = []

    def ids_of(rowids: list[int]) -> list[tuple[str, int]]:
        asked.extend(rowids)
        return [(ident, rowid) for rowid in rowids for ident in owners[rowid]]

    cosine = dict(zip(kept, values, strict=True))
    every = sorted(
        ((ident, cosine[rowid]) for rowid in kept for ident in owners[rowid]),
        key=lambda pair: (-pair[1], pair[0]),
    )
    assert scan.best(kept, values, limit, ids_of) == every[:limit]
    assert len(asked) == len(set(asked))  # no vector asked about twice
