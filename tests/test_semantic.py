"""Semantic retrieval: a tiny model2vec-format model made here, its vectors in the index.

The model's vocabulary is a few dozen words with vectors on a handful of axes of
meaning, so that synonyms ("toggle", "flag", "switch") are near and a query can
find a memory it shares no word with.
"""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import apsw
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from safetensors.numpy import save_file
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

from memcli.core import config
from memcli.index import Index
from memcli.index import vectors as vector_tables
from memcli.semantic import SemanticSearch, semantic_status
from memcli.semantic.batch import BatchEmbedder, library_encoder, library_tokenizer, unk_id_of
from memcli.semantic.model import ModelError, StaticEmbedder, read_model
from memcli.semantic.wordpiece import WordPiece, spec_of

from .conftest import git, mem, user_config

AXES = {
    0: ["feature", "toggle", "flag", "switch", "##es"],
    1: ["database", "sql", "postgres", "connection", "pool", "query", "##ing"],
    2: ["test", "pytest", "fixture", "fixtures", "##s"],
    3: ["cache", "memo", "##ize"],
    4: ["dark", "mode", "theme", "settings"],
}
FILLER = ["the", "a", "for", "in", "is", "on", "of", "and", "to", "use", "under", "load"]
FILLER += ["temporary", "lives", "un", "##known", "é", "日", ".", ",", "!", "-", "##b"]
VOCAB = ["[PAD]", "[UNK]", *FILLER, *(word for words in AXES.values() for word in words)]
DIM = 8


def _vectors() -> np.ndarray:
    rng = np.random.default_rng(7)
    matrix = rng.normal(0, 0.05, size=(len(VOCAB), DIM)).astype(np.float32)
    for axis, words in AXES.items():
        for word in words:
            matrix[VOCAB.index(word), axis] += 1.0
    for word in FILLER:
        matrix[VOCAB.index(word), 7] += 0.2
    return matrix


def _tokenizer_json(vocab: list[str]) -> str:
    tokenizer = Tokenizer(
        models.WordPiece({token: i for i, token in enumerate(vocab)}, unk_token="[UNK]")
    )
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.add_special_tokens(["[PAD]", "[UNK]"])
    return str(tokenizer.to_str())


def write_model(folder: Path, *, variant: str = "f32", max_length: int = 512) -> Path:
    """A model2vec folder: config.json, tokenizer.json, model.safetensors."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(
        json.dumps({"model_type": "model2vec", "normalize": True, "max_length": max_length})
    )
    (folder / "tokenizer.json").write_text(_tokenizer_json(VOCAB))
    matrix = _vectors()
    if variant == "f32":
        save_file({"embeddings": matrix}, str(folder / "model.safetensors"))
    elif variant == "f16":
        save_file({"embeddings": matrix.astype(np.float16)}, str(folder / "model.safetensors"))
    elif variant == "quantized":  # vocabulary quantization: shared rows, weights, a mapping
        mapping = np.arange(len(VOCAB), dtype=np.int64) % (len(VOCAB) - 5)
        weights = np.linspace(0.5, 1.5, len(VOCAB)).astype(np.float32)
        tensors = {"embeddings": matrix[: len(VOCAB) - 5], "weights": weights, "mapping": mapping}
        save_file(tensors, str(folder / "model.safetensors"))
    elif variant == "bf16":  # numpy has no bfloat16: written by hand
        raw = (matrix.view(np.uint32) >> 16).astype("<u2").tobytes()
        write_safetensors(folder / "model.safetensors", "BF16", list(matrix.shape), raw)
    return folder


def write_safetensors(path: Path, dtype: str, shape: list[int], data: bytes) -> None:
    header = json.dumps(
        {"embeddings": {"dtype": dtype, "shape": shape, "data_offsets": [0, len(data)]}}
    ).encode()
    path.write_bytes(struct.pack("<Q", len(header)) + header + data)


@pytest.fixture(scope="session")
def _model_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_model(tmp_path_factory.mktemp("model") / "m2v-tiny")


@pytest.fixture
def model_dir(_model_template: Path, tmp_path: Path) -> Path:
    import shutil

    return Path(shutil.copytree(_model_template, tmp_path / "m2v-tiny"))


def use_model(store: Path, model: str) -> None:
    (store / "mem.toml").write_text(f'[semantic]\nmodel = "{model}"\n')
    git(store, "add", "mem.toml")
    commit_without_hooks(store, "semantic model")


def commit_without_hooks(store: Path, message: str) -> None:
    """A commit by hand; the store's post-commit hook would bring the index up to date."""
    git(store, "-c", f"core.hooksPath={store / 'no-hooks'}", "commit", "-q", "-am", message)


@pytest.fixture(autouse=True)
def _every_embedding_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Embedding a few memories says nothing (it takes milliseconds); here every embedding
    says so, so that the notices count what was embedded."""
    from memcli.semantic import sync

    monkeypatch.setattr(sync, "NOTICE_FROM", 1)


def embeddings_notices(result: Any) -> list[str]:
    return [line for line in result.stderr.splitlines() if "embedding" in line]


def open_search(store: Path) -> tuple[Index, SemanticSearch]:
    index = Index(store / ".cache" / "index.db")
    search = SemanticSearch.open(index, store, config.load(store))
    assert search is not None
    return index, search


def ids_by_title(store: Path) -> dict[str, str]:
    listed = json.loads(mem("list", "--json").stdout)
    return {entry["title"]: entry["id"] for entry in listed}


# ------------------------------------------------------------------ tokenization


def _pure_and_library(folder: Path) -> tuple[WordPiece, Tokenizer]:
    text = (folder / "tokenizer.json").read_text()
    parsed = json.loads(text)
    return WordPiece(spec_of(parsed), parsed["model"]["vocab"].get), library_tokenizer(text)


WORDS = st.sampled_from([*VOCAB, "toggles", "flagged", "unknown", "É", "naïve", "ΣΑΣ", "İ"])
PIECES = st.one_of(WORDS, st.text(max_size=4), st.sampled_from(" \t\n\x0b\x85\u3000\u200b.,!"))


@settings(max_examples=150, deadline=None)
@given(st.lists(PIECES, max_size=20))
def test_tokenization_is_the_tokenizers_librarys(_model_template: Path, pieces: list[str]) -> None:
    pure, library = _pure_and_library(_model_template)
    text = "".join(pieces)
    assert pure.encode(text) == library.encode(text, add_special_tokens=False).ids


def test_tokenization_agrees_on_characters_across_unicode(_model_template: Path) -> None:
    """Where Python's Unicode tables are newer than the library's, the library is followed."""
    from memcli.semantic import wordpiece

    pure, library = _pure_and_library(_model_template)
    rng = random.Random(3)
    codes = list(map(ord, wordpiece._CATEGORY_OVERRIDES))
    codes += [c for c in rng.sample(range(0x30000), 3000) if not 0xD800 <= c < 0xE000]
    texts = [f"a{chr(c)}b {chr(c)}fixture{chr(c)}" for c in codes]
    expected = library.encode_batch(texts, add_special_tokens=False)
    wrong = [t for t, e in zip(texts, expected, strict=True) if pure.encode(t) != e.ids]
    assert [unicodedata.name(t[1], hex(ord(t[1]))) for t in wrong] == []


# ------------------------------------------------------------------ embedding


def _embedders(folder: Path) -> tuple[StaticEmbedder, BatchEmbedder]:
    info, parsed = read_model(folder)
    pure, _ = _pure_and_library(folder)
    library = library_tokenizer((folder / "tokenizer.json").read_text())
    return (
        StaticEmbedder("tiny", info, pure.encode, pure.unk_id),
        BatchEmbedder("tiny", info, library_encoder(library), unk_id_of(library, parsed)),
    )


@pytest.mark.parametrize("variant", ["f32", "f16", "quantized", "bf16", "short"])
def test_query_embedding_equals_the_batch_path(tmp_path: Path, variant: str) -> None:
    folder = write_model(
        tmp_path / variant,
        variant="f32" if variant == "short" else variant,
        max_length=3 if variant == "short" else 512,
    )
    pure, batch = _embedders(folder)
    rng = random.Random(variant)
    texts = ["", "nothing known here", "Feature toggle!", "flag " * 600, "pytest fixtures"]
    texts += [" ".join(rng.choice(VOCAB[2:]) for _ in range(rng.randint(1, 40))) for _ in range(40)]
    together = batch.embed_array(texts)
    for text, expected in zip(texts, together, strict=True):
        got = np.array(pure.embed_one(text))
        if not expected.any():
            assert not got.any(), text
            continue
        assert float(got @ expected) > 0.999, text
        assert abs(float(np.linalg.norm(got)) - 1) < 1e-6
    assert pure.dim == batch.dim == DIM


def test_a_model_folder_is_read_and_checked(model_dir: Path) -> None:
    info, _ = read_model(model_dir)
    assert (info.dim, info.rows, info.normalize, info.max_length) == (DIM, len(VOCAB), True, 512)
    assert info.embeddings.dtype == "F32" and info.weights is None and info.mapping is None
    assert len(info.identity) == 32


def _break(kind: str) -> Callable[[Path], None]:
    def garbage_config(folder: Path) -> None:
        (folder / "config.json").write_text("{not json")

    def missing_tokenizer(folder: Path) -> None:
        (folder / "tokenizer.json").unlink()

    def wrong_shape(folder: Path) -> None:
        save_file(
            {"embeddings": np.zeros((3, 4, 2), np.float32)}, str(folder / "model.safetensors")
        )

    def huge_header(folder: Path) -> None:
        (folder / "model.safetensors").write_bytes(struct.pack("<Q", 1 << 40) + b"{}")

    def vocabulary_mismatch(folder: Path) -> None:
        save_file({"embeddings": np.zeros((5, DIM), np.float32)}, str(folder / "model.safetensors"))

    def outside_the_file(folder: Path) -> None:
        write_safetensors(folder / "model.safetensors", "F32", [len(VOCAB), DIM], b"\0" * 64)

    def unknown_dtype(folder: Path) -> None:
        write_safetensors(folder / "model.safetensors", "C64", [len(VOCAB), DIM], b"")

    return dict(
        garbage_config=garbage_config,
        missing_tokenizer=missing_tokenizer,
        wrong_shape=wrong_shape,
        huge_header=huge_header,
        vocabulary_mismatch=vocabulary_mismatch,
        outside_the_file=outside_the_file,
        unknown_dtype=unknown_dtype,
    )[kind]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    header=st.one_of(
        st.binary(max_size=64),
        JSON.map(lambda value: json.dumps(value).encode()),
        st.dictionaries(
            st.sampled_from(["embeddings", "weights", "mapping"]),
            st.fixed_dictionaries(
                {"dtype": st.sampled_from(["F32", "F16", "I8", "I64", "X"]), "shape": JSON},
                optional={"data_offsets": JSON},
            ),
        ).map(lambda value: json.dumps(value).encode()),
    ),
    data=st.binary(max_size=64),
)
def test_any_safetensors_file_is_read_or_refused_in_one_line(
    model_dir: Path, header: bytes, data: bytes
) -> None:
    path = model_dir / "model.safetensors"  # rewritten whole by each example
    path.write_bytes(struct.pack("<Q", len(header)) + header + data)
    try:
        read_model(model_dir)
    except ModelError as exc:
        assert "\n" not in str(exc)


BREAKS = [
    "garbage_config",
    "missing_tokenizer",
    "wrong_shape",
    "huge_header",
    "vocabulary_mismatch",
    "outside_the_file",
    "unknown_dtype",
]


@pytest.mark.parametrize("kind", BREAKS)
def test_a_broken_model_is_one_line(model_dir: Path, kind: str) -> None:
    _break(kind)(model_dir)
    with pytest.raises(ModelError):
        read_model(model_dir)
    status = semantic_status(model_dir, {"semantic": {"model": str(model_dir)}})
    assert not status.enabled and status.reason.startswith("lexical only: ")
    assert "\n" not in status.reason


def test_with_a_broken_model_search_stays_lexical(store: Path, model_dir: Path) -> None:
    _break("wrong_shape")(model_dir)
    mem("save", "Feature toggle for dark mode")
    use_model(store, str(model_dir))
    found = mem("search", "toggle")
    assert "Feature toggle" in found.stdout
    assert "semantic search is off: " in found.stderr and "Traceback" not in found.stderr
    reason = semantic_status(store, config.load(store)).reason
    assert f"problem: {reason}" in mem("doctor", expect=1).stdout


# ------------------------------------------------------------------ in the index


def test_nearest_finds_a_synonym_sharing_no_word(store: Path, model_dir: Path) -> None:
    use_model(store, str(model_dir))
    mem("save", "Feature toggle for dark mode lives in settings")
    mem("save", "The database connection pool is exhausted under load")
    mem("save", "Use pytest fixtures for temporary repositories")
    titles = ids_by_title(store)
    index, search = open_search(store)
    try:
        best = search.nearest("flag switch", 2)
        assert best[0][0] == titles["Feature toggle for dark mode lives in settings"]
        assert best[0][1] > 0.5 > best[1][1]
        assert (
            search.nearest("postgres query", 1)[0][0]
            == titles["The database connection pool is exhausted under load"]
        )
        assert search.nearest("", 5) == [] and search.nearest("zzz qqq", 5) == []
        similar = search.similarity("flag", list(titles.values()))
        assert max(similar, key=lambda k: similar[k]) == best[0][0]
        assert all(-1 <= value <= 1 for value in similar.values())
    finally:
        index.close()
    status = semantic_status(store, config.load(store))
    assert status == (True, str(model_dir), f"semantic: {model_dir} ({DIM} dims, 3 vectors)")
    assert mem("doctor").stdout.splitlines()[0] == status.reason


def test_vectors_follow_saves_and_are_reused_by_digest(store: Path, model_dir: Path) -> None:
    mem("save", "Feature toggle for dark mode")
    mem("save", "Use pytest fixtures")
    use_model(store, str(model_dir))
    assert embeddings_notices(mem("list")) == [f"mem: embedding 2 memories with {model_dir}"]
    assert embeddings_notices(mem("list")) == []  # nothing new: nothing done
    saved = mem("save", "Cache with a memo table")
    assert embeddings_notices(saved) == [f"mem: embedding 1 memory with {model_dir}"]
    identity = saved.stdout.strip()
    # A new file with the same text (a concept added) keeps its vector.
    assert embeddings_notices(mem("edit", identity, "--set", "concepts=caching")) == []
    # A full rebuild of the lexical tables embeds nothing again.
    assert embeddings_notices(mem("reindex", "--full")) == []
    mem("forget", identity)
    index = Index(store / ".cache" / "index.db")
    try:
        assert vector_tables.count(index.db) == 2
        assert index.db.execute("SELECT count(*) FROM semantic_vectors").fetchall() == [(2,)]
    finally:
        index.close()
    assert "matches the 2 memory and notes files" in mem("reindex", "--check").stdout


def test_a_hand_commit_is_embedded_by_the_next_read(store: Path, model_dir: Path) -> None:
    use_model(store, str(model_dir))
    mem("save", "Feature toggle for dark mode", "--key", "toggle")
    path = next((store / "observations").rglob("*.md"))
    path.write_text(path.read_text().replace("Feature toggle", "Database query"))
    commit_without_hooks(store, "by hand")
    assert embeddings_notices(mem("list")) == [f"mem: embedding 1 memory with {model_dir}"]
    index, search = open_search(store)
    try:
        assert search.nearest("sql", 1)[0][1] > 0.5
    finally:
        index.close()


def test_another_model_embeds_everything_again(store: Path, model_dir: Path) -> None:
    use_model(store, str(model_dir))
    mem("save", "Feature toggle for dark mode")
    mem("save", "Use pytest fixtures")
    save_file({"embeddings": -_vectors()}, str(model_dir / "model.safetensors"))
    assert embeddings_notices(mem("list")) == [f"mem: embedding 2 memories with {model_dir}"]


def test_dropped_vector_tables_are_built_again(store: Path, model_dir: Path) -> None:
    use_model(store, str(model_dir))
    mem("save", "Feature toggle for dark mode")
    db = apsw.Connection(str(store / ".cache" / "index.db"))
    db.execute(vector_tables.DROP)
    db.close()
    assert embeddings_notices(mem("list")) == [f"mem: embedding 1 memory with {model_dir}"]


def test_reindex_check_reports_missing_and_stale_vectors(store: Path, model_dir: Path) -> None:
    use_model(store, str(model_dir))
    mem("save", "Feature toggle for dark mode")
    mem("save", "Use pytest fixtures")
    db = apsw.Connection(str(store / ".cache" / "index.db"))
    paths = [row[0] for row in db.execute("SELECT path FROM memories ORDER BY path")]
    db.execute(
        "DELETE FROM semantic_docs WHERE id = (SELECT id FROM memories WHERE path = ?)", (paths[0],)
    )
    db.execute(
        "UPDATE semantic_docs SET source = 'old' "
        "WHERE id = (SELECT id FROM memories WHERE path = ?)",
        (paths[1],),
    )
    db.close()
    result = mem("reindex", "--check", expect=1)
    assert f"no vector: {paths[0]}" in result.stdout
    assert f"vector out of date: {paths[1]}" in result.stdout
    assert "1 without a vector, 1 with an outdated vector" in result.stdout
    mem("doctor", "--fix")
    assert "matches the 2 memory and notes files" in mem("reindex", "--check").stdout


# ------------------------------------------------------------------ finding the model


def test_status_with_a_hub_model(
    store: Path, model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    user_config('[semantic]\nmodel = "someone/tiny-model"\n')  # a hub name: yours only
    status = semantic_status(store, config.load(store))
    assert status.reason == (
        "lexical only: the model someone/tiny-model is not downloaded (HF_HUB_OFFLINE is set)"
    )
    listed = mem("list")
    assert "semantic search is off: the model someone/tiny-model is not in the cache" in (
        listed.stderr
    )
    # Where the hub's cache has it, it is used as it is, without the network.
    repo = tmp_path / "hub" / "models--someone--tiny-model"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("abc123")
    (repo / "snapshots").mkdir()
    model_dir.rename(repo / "snapshots" / "abc123")
    mem("save", "Feature toggle for dark mode")
    assert semantic_status(store, config.load(store)).enabled


SEARCH_IMPORTS = """
import sys
from pathlib import Path
from memcli.core import config
from memcli.index import Index
from memcli.semantic import SemanticSearch
root = Path(sys.argv[1])
index = Index(root / ".cache" / "index.db")
search = SemanticSearch.open(index, root, config.load(root))
print(search.nearest("flag", 1)[0][1] > 0.5)
print(sorted(m for m in ("numpy", "tokenizers", "sqlite_vec", "onnxruntime") if m in sys.modules))
"""


def test_a_semantic_query_imports_neither_numpy_nor_tokenizers(
    store: Path, model_dir: Path
) -> None:
    use_model(store, str(model_dir))
    mem("save", "Feature toggle for dark mode")
    result = subprocess.run(
        [sys.executable, "-c", SEARCH_IMPORTS, str(store)], capture_output=True, text=True
    )
    assert result.stdout.splitlines() == ["True", "[]"], result.stderr


def test_many_memories_are_embedded_in_batches_around_their_center(
    store: Path, model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memcli.semantic import sync

    monkeypatch.setattr(sync, "PURE_PYTHON_MAX", 0)  # numpy and tokenizers even for three
    for text in ("Feature toggle for dark mode", "Postgres query cache", "Nothing known zzz"):
        mem("save", text)
    use_model(store, str(model_dir))
    assert embeddings_notices(mem("reindex")) == [f"mem: embedding 3 memories with {model_dir}"]
    titles = ids_by_title(store)
    index, search = open_search(store)
    try:
        assert search.center is not None and len(search.center) == DIM
        assert [i for i, _ in search.nearest("switch flag", 3)][0] == titles[
            "Feature toggle for dark mode"
        ]
        # The codes the batch stored are the codes pure Python makes of the same vectors.
        for rowid, vec in vector_tables.all_vectors(index.db):
            values = list(struct.unpack(f"{DIM}b", vec))
            (code,) = index.db.execute(
                "SELECT code FROM semantic_codes WHERE rowid = ?", (rowid,)
            ).fetchone()
            norm = sum(v * v for v in values) ** 0.5 or 1.0
            assert sync.sign_code([v / norm for v in values], search.center) == code
    finally:
        index.close()


def test_a_hook_leaves_many_memories_waiting_for_the_next_command(
    store: Path, model_dir: Path
) -> None:
    from memcli.service.memory import Memory
    from memcli.store.location import locate

    mem("save", "Feature toggle for dark mode")
    mem("save", "Use pytest fixtures")
    use_model(store, str(model_dir))
    notices: list[str] = []
    memory = Memory(locate(None, None, Path.cwd()), notices.append)
    memory.embed_limit = 1
    memory.refresh_index()
    assert memory.vectors_waiting == 2
    assert notices == ["2 memories without vectors yet (`mem reindex` embeds them)"]
    assert embeddings_notices(mem("reindex")) == [f"mem: embedding 2 memories with {model_dir}"]


# ------------------------------------------------- fused into search and recall


@pytest.fixture
def three(store: Path, model_dir: Path) -> dict[str, str]:
    use_model(store, str(model_dir))
    mem("save", "Feature toggle for dark mode lives in settings")
    mem("save", "The database connection pool is exhausted under load")
    mem("save", "Use pytest fixtures for temporary repositories")
    return ids_by_title(store)


def search_titles(*args: str) -> list[str]:
    import json

    return [hit["title"] for hit in json.loads(mem("search", *args, "--json").stdout)]


def test_hybrid_search_finds_a_synonym_that_full_text_cannot(three: dict[str, str]) -> None:
    toggle = "Feature toggle for dark mode lives in settings"
    assert search_titles("where is the flag switch?", "--mode", "lexical") == []
    assert search_titles("where is the flag switch?", "--mode", "semantic")[0] == toggle
    assert search_titles("where is the flag switch?")[0] == toggle  # hybrid: mem.toml's default
    # A word match and a meaning match agree: the memory holding both ranks first.
    assert search_titles("postgres connection", "--mode", "hybrid")[0] == (
        "The database connection pool is exhausted under load"
    )


def test_explain_shows_both_ranks_and_the_model(three: dict[str, str], model_dir: Path) -> None:
    out = mem("search", "flag switch for dark mode", "--explain").stdout
    assert f"mode: hybrid; semantic: {model_dir} ({DIM} dims, 3 vectors)" in out
    assert "bm25 #1" in out and "semantic #1 (similarity" in out
    import json

    data = json.loads(mem("search", "flag switch", "--explain", "--json").stdout)
    parts = data["hits"][0]["explain"]
    assert parts["lexical_rank"] is None and parts["semantic_rank"] == 1
    assert parts["fused"] == pytest.approx(1 / (10 + 1))  # rrf_k 10, semantic weight 1


def test_semantic_weight_zero_leaves_the_lexical_order(store: Path, three: dict[str, str]) -> None:
    (store / "mem.toml").write_text(
        (store / "mem.toml").read_text() + "[ranking]\nsemantic_weight = 0.0\n"
    )
    import json

    data = json.loads(mem("search", "flag switch", "--explain", "--json").stdout)
    assert all(hit["explain"]["fused"] == 0 for hit in data["hits"])


def test_recall_answers_by_meaning_above_the_similarity_floor(
    store: Path, three: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    monkeypatch.setenv("MEM_NOW", "2099-01-01T00:00:00Z")
    # Session start lists memories by a line each: recall may bring any of them.
    settings = (store / "mem.toml").read_text() + "[context]\nhot_count = 0\n"
    # The tiny model's similarities are small: the floor is set for it (0.514 here).
    (store / "mem.toml").write_text(settings + "[recall]\nmin_similarity = 0.5\n")
    prompt = "where do we keep the flag switch?"
    report = json.loads(mem("recall", prompt, "--format", "json").stdout)
    assert [m["title"] for m in report["memories"]] == [
        "Feature toggle for dark mode lives in settings"
    ]
    (store / "mem.toml").write_text(settings + "[recall]\nmin_similarity = 0.6\n")
    assert json.loads(mem("recall", prompt, "--format", "json").stdout)["memories"] == []


def test_explain_says_which_hits_bm25s_lead_kept_in_place(three: dict[str, str]) -> None:
    """With a model, bm25's first ``lexical_lead`` keep their places whatever their fused
    score: ``--explain`` says so of each the lead put above a higher score, so that the
    higher score below it is no puzzle, and of no other."""
    query = ["search", "dark or database or temporary", "--explain"]
    hits = json.loads(mem(*query, "--json").stdout)["hits"]
    held = [h["explain"]["held_by_lead"] for h in hits]
    scores = [h["score"] for h in hits]
    assert held == [any(later > score for later in scores[n:]) for n, score in enumerate(scores)]
    assert held == [True, False, False]  # bm25's #2 stands where its score puts it
    assert [h["explain"]["lexical_rank"] for h in hits] == [1, 2, 3]
    shown = mem(*query).stdout
    assert "kept at bm25's #1 ([ranking] lexical_lead)" in shown and "bm25's #2" not in shown
    lexical = json.loads(mem(*query, "--mode", "lexical", "--json").stdout)["hits"]
    assert lexical and not any(h["explain"]["held_by_lead"] for h in lexical)


def test_every_hit_the_lead_keeps_above_a_higher_score_is_marked() -> None:
    """bm25's #2 stands above a higher score once its #1 is lifted above both."""
    from memcli.index import Entry
    from memcli.retrieval.ranking import Parts
    from memcli.retrieval.search import Hit, with_lead_kept

    def hit(name: str, bm25_rank: int, score: float) -> Hit:
        entry = Entry(
            name, "observation", "pattern", name, "", None, None, None, None, "", [], [], []
        )
        return Hit(entry, Parts(lexical_rank=bm25_rank, score=score))

    fused = [hit("X", 3, 0.030), hit("L2", 2, 0.029), hit("L1", 1, 0.028)]
    kept = with_lead_kept(fused, 2)
    assert [(h.entry.id, h.parts.held_by_lead) for h in kept] == [
        ("L1", True),
        ("L2", True),
        ("X", False),
    ]
    tied = with_lead_kept([hit("L2", 2, 0.029), hit("L1", 1, 0.029)], 2)
    assert [h.parts.held_by_lead for h in tied] == [False, False]  # nothing higher below


def test_a_memory_far_in_meaning_is_no_semantic_match(three: dict[str, str]) -> None:
    found = search_titles("dark theme", "--mode", "semantic")
    assert "The database connection pool is exhausted under load" not in found
    assert found[0] == "Feature toggle for dark mode lives in settings"
    assert search_titles("theme", "--type", "gotcha") == []


def test_with_a_model_on_a_save_names_a_near_duplicate_by_cosine(
    store: Path, model_dir: Path
) -> None:
    use_model(store, str(model_dir))
    first = json.loads(mem("save", "feature toggle flag", "--type", "decision", "--json").stdout)
    # No word in common: only the model's cosine finds it.
    near = json.loads(mem("save", "switch the toggles", "--type", "decision", "--json").stdout)
    assert [s["id"] for s in near["similar"]] == [first["id"]]
    assert near["similar"][0]["similarity"] >= 0.9
    other = json.loads(mem("save", "pytest fixtures", "--type", "decision", "--json").stdout)
    assert other["similar"] == []


def test_semantic_search_reads_every_layer(store: Path, model_dir: Path) -> None:
    """A user layer without vectors is searched by its words; the project's by meaning too."""
    use_model(store, str(model_dir))
    mem("save", "Feature toggle for dark mode lives in settings")
    mem("save", "The database connection pool is exhausted under load")
    mem("save", "My dark mode preference: always on", "--type", "preference", "--layer", "user")
    found = mem("search", "flag switch dark mode", "--json")
    assert "Traceback" not in found.stderr
    hits = json.loads(found.stdout)
    assert {h["layer"] for h in hits} == {"project", "user"}
    # bm25's first two keep their places ([ranking] lexical_lead): both hold "dark mode".
    assert "Feature toggle for dark mode lives in settings" in [h["title"] for h in hits[:2]]
    assert mem("recall", "is the dark mode flag switch in the settings?").exit_code == 0


def test_another_model_of_other_dimensions_takes_over_the_vectors(
    store: Path, model_dir: Path
) -> None:
    """The vectors' center (the mean their sign bits are taken from) goes with the model."""
    use_model(store, str(model_dir))
    rows = [
        {
            "id": f"01J0000000000000000000{n:04d}",
            "created": "2026-01-01T00:00:00Z",
            "type": "decision",
            "title": f"feature toggle flag number {n}",
        }
        for n in range(80)
    ]
    (store.parent / "rows.jsonl").write_text("\n".join(json.dumps(row) for row in rows))
    mem("import", "jsonl", str(store.parent / "rows.jsonl"))  # many at once: a center is kept
    assert mem("search", "toggle", "--mode", "semantic").exit_code == 0
    bundled = Path(__file__).resolve().parents[1] / "memcli" / "semantic" / "bundled"
    use_model(store, str(bundled))
    found = mem("search", "toggle", "--mode", "semantic", expect=None)
    assert found.exit_code == 0, found.stderr
    assert "internal error" not in found.stderr
    status = mem("status", "--json").stdout
    assert "256 dims" in status or '"dims": 256' in status
