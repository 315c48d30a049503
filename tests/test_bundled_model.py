"""The semantic model that ships inside mem: found in the package, used with no setting and
no network, read within bounds when damaged, and turned off by ``model = "none"``.

Vectors follow the text: a memory whose text did not change keeps the vector it has.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import apsw
import pytest

from memcli.core import config
from memcli.core.model_choice import BUNDLED, bundled_folder
from memcli.semantic import semantic_status
from memcli.semantic.model import ModelError, read_model
from memcli.semantic.wordpiece import spec_of

from .conftest import mem, mem_json, user_config

PNPM = "use pnpm, never npm"
DISTRACTORS = [
    "The database connection pool is exhausted under load",
    "Deploys happen on Tuesdays after the standup",
    "Feature flags live in config/flags.yaml",
    "Run the integration tests with pytest -m slow",
    "The CI cache is keyed by the lockfile hash",
]


@pytest.fixture(scope="module")
def bundled() -> Path:
    folder = bundled_folder()
    if not (folder / "model.safetensors").is_file():
        pytest.fail(f"mem's bundled model is not in {folder}")
    return folder


def vector_rows(store: Path) -> tuple[dict[str, int], list[int]]:
    """Each memory's vector (its row in the index), and every vector row there is."""
    db = apsw.Connection(str(store / ".cache" / "index.db"), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        docs = {str(i): int(v) for i, v in db.execute("SELECT id, vector FROM semantic_docs")}
        rows = [int(r) for (r,) in db.execute("SELECT rowid FROM semantic_vectors ORDER BY 1")]
        return docs, rows
    finally:
        db.close()


def search_titles(*args: str) -> list[str]:
    return [hit["title"] for hit in mem_json("search", *args)]


# ------------------------------------------------------------------ in the package


def test_the_bundled_model_is_package_data_with_its_license(bundled: Path) -> None:
    assert bundled == Path(str(files("memcli"))) / "semantic" / "bundled"
    for name in ("config.json", "tokenizer.json", "model.safetensors", "LICENSE", "PROVENANCE.md"):
        assert (bundled / name).is_file(), name
    info, tokenizer = read_model(bundled)
    assert info.rows > 1000 and 0 < info.dim <= 1024
    spec_of(tokenizer)  # WordPiece: embedded in pure Python, without the tokenizers library


def test_with_no_setting_the_bundled_model_is_used(store: Path, bundled: Path) -> None:
    mem("save", PNPM, "--type", "preference")
    status = mem_json("model", "status")
    assert (status["configured"], status["model"], status["default"]) == ("", BUNDLED, True)
    assert status["enabled"] and status["folder"] == str(bundled)
    assert (status["vectors"], status["memories"], status["problem"]) == (1, 1, False)
    layer = mem_json("status")["layers"][0]
    assert layer["model"] == BUNDLED and layer["semantic"] == status["reason"]
    assert status["reason"].startswith(f"semantic: {BUNDLED} (")
    assert f"semantic     {status['reason']}" in mem("status").stdout
    assert mem("doctor").stdout.splitlines()[0] == status["reason"]
    assert mem("model", "pull").stdout.startswith("no hub model is named in mem.toml")


@pytest.mark.parametrize("name", ["bundled", "Bundled"])
def test_a_store_may_name_the_bundled_model(store: Path, bundled: Path, name: str) -> None:
    """A harmless choice: nothing is downloaded, so mem.toml may make it."""
    (store / "mem.toml").write_text(f'[semantic]\nmodel = "{name}"\n')
    mem("save", PNPM)
    status = mem_json("model", "status")
    assert (status["configured"], status["model"], status["default"]) == (name, BUNDLED, False)
    assert status["enabled"] and status["vectors"] == 1


def test_model_none_turns_meaning_off(store: Path) -> None:
    user_config('[semantic]\nmodel = "none"\n')
    for text in (*DISTRACTORS, PNPM):
        mem("save", text)
    status = mem_json("model", "status")
    assert (status["model"], status["enabled"], status["problem"]) == ("", False, False)
    assert status["reason"] == 'lexical only: [semantic] model = "none" in mem.toml'
    assert mem_json("status")["layers"][0]["model"] is None
    assert search_titles("which tool adds a javascript dependency here?") == []
    assert semantic_status(store, config.load(store)).reason == status["reason"]


@pytest.mark.xfail(
    strict=True, reason="the bundled model ranks the pnpm preference below 0.1 cosine here"
)
def test_a_fresh_store_finds_a_preference_that_shares_no_word_with_the_question(
    store: Path,
) -> None:
    for text in DISTRACTORS:
        mem("save", text)
    mem("save", PNPM, "--type", "preference")
    assert search_titles("which tool adds a javascript dependency here?")[0] == PNPM


# ------------------------------------------------------------------ a damaged copy


def _cut(at: float) -> object:
    def damage(folder: Path) -> None:
        path = folder / "model.safetensors"
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * at)])

    return damage


def _huge_header(folder: Path) -> None:
    path = folder / "model.safetensors"
    with path.open("r+b") as handle:
        handle.write((1 << 62).to_bytes(8, "little"))


def _half_tokenizer(folder: Path) -> None:
    path = folder / "tokenizer.json"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _config_not_an_object(folder: Path) -> None:
    (folder / "config.json").write_text("[1, 2]")


DAMAGE = {
    "empty": _cut(0),
    "cut-in-the-length": _cut(0.0000005),
    "cut-in-the-header": _cut(0.000005),
    "cut-in-the-vectors": _cut(0.5),
    "one-byte-short": _cut(0.9999999),
    "huge-header": _huge_header,
    "half-a-tokenizer": _half_tokenizer,
    "config-not-an-object": _config_not_an_object,
}


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_copy_of_the_bundled_model_is_one_line(
    bundled: Path, tmp_path: Path, kind: str
) -> None:
    copy = Path(shutil.copytree(bundled, tmp_path / "copy"))
    DAMAGE[kind](copy)  # type: ignore[operator]
    with pytest.raises(ModelError) as raised:
        read_model(copy)
    assert "\n" not in str(raised.value)
    status = semantic_status(tmp_path, {"semantic": {"model": str(copy)}})
    assert not status.enabled and status.reason.startswith("lexical only: ")
    assert "\n" not in status.reason


def test_with_a_damaged_copy_named_search_stays_lexical(
    store: Path, bundled: Path, tmp_path: Path
) -> None:
    copy = Path(shutil.copytree(bundled, tmp_path / "copy"))
    _cut(0.5)(copy)  # type: ignore[operator]
    (store / "mem.toml").write_text(f'[semantic]\nmodel = "{copy}"\n')
    mem("save", PNPM)
    found = mem("search", "pnpm")
    assert PNPM in found.stdout
    assert "semantic search is off: " in found.stderr and "Traceback" not in found.output


# ------------------------------------------------------------------ vectors follow the text


def embedded(*args: str) -> list[str]:
    """``mem *args``: what it said it embedded."""
    return [line for line in mem(*args).stderr.splitlines() if "embedding" in line]


def test_a_text_is_embedded_once_whatever_else_changes(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every embedding says so (here even one memory's), and takes the next vector row; a
    forgotten memory leaves a gap in the rows, so a vector made again for an unchanged text
    (or all made again) would show there too."""
    from memcli.semantic import sync

    monkeypatch.setattr(sync, "NOTICE_FROM", 1)
    one = ["mem: embedding 1 memory with bundled"]
    keep = mem("save", "Deploys happen on Tuesdays after the standup").stdout.strip()
    gone = mem("save", "The staging database is reset every night").stdout.strip()
    other = mem("save", "Feature flags live in config/flags.yaml").stdout.strip()
    assert embedded("forget", gone) == []
    before = vector_rows(store)
    assert set(before[0]) == {keep, other} and len(before[1]) == 2
    assert embedded("edit", keep, "--set", "concepts=deploys") == []  # not the embedded text
    assert embedded("reindex") == []
    assert embedded("reindex", "--full") == []
    saved = ("save", "Deploys happen on Tuesdays after the standup", "--type", "decision")
    assert embedded(*saved) == []  # the same text saved again shares the vector
    docs, rows = vector_rows(store)
    assert {ident: docs[ident] for ident in before[0]} == before[0] and rows == before[1]
    assert embedded("edit", other, "--set", "title=Feature flags live in flags.yaml") == one
    docs, rows = vector_rows(store)
    assert docs[keep] == before[0][keep] and docs[other] > max(before[1])
    assert len(rows) == 2  # the old text's vector went with it


BULK_WITHOUT_TOKENIZERS = """
import sys
sys.modules["tokenizers"] = None  # not installed: a plain `pip install memcli`
from memcli.semantic import sync
sync.PURE_PYTHON_MAX = 0  # the numpy path, as for many memories
sync.NOTICE_FROM = 1
from memcli.adapters.cli.main import cli
cli.main(["reindex", "--store", sys.argv[1]], standalone_mode=False)
"""


def test_many_memories_are_embedded_without_the_tokenizers_library(store: Path) -> None:
    user_config('[semantic]\nmodel = "none"\n')  # no vectors: the reindex embeds them all
    for text in DISTRACTORS[:3]:
        mem("save", text)
    user_config("")
    result = subprocess.run(
        [sys.executable, "-c", BULK_WITHOUT_TOKENIZERS, str(store)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "embedding 3 memories with bundled" in result.stderr
    assert "semantic search is off" not in result.stderr
    assert mem_json("model", "status")["vectors"] == 3
    assert json.loads(mem("search", "database pool", "--json").stdout)
