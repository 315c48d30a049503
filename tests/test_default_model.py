"""A semantic model named by its hub name: used from the hub's cache, downloaded only by a
read that may (never a hook, never a write), and offline lexical with one line saying why.

The hub's cache is a folder of this test's, holding the tiny model of test_semantic
laid out as huggingface_hub lays out a download of a model's repository. A download
that would be tried goes to a closed port on the loopback address.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import time
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="needs memcli[semantic]")
pytest.importorskip("tokenizers", reason="needs memcli[semantic]")
pytest.importorskip("sqlite_vec", reason="needs memcli[semantic]")
pytest.importorskip("huggingface_hub", reason="needs memcli[semantic]")
pytest.importorskip("safetensors", reason="the tiny model is written with safetensors")

from .conftest import (  # noqa: E402
    mem,
    mem_executable,
    mem_json,
    run_mem,
    user_config,
)
from .test_semantic import DIM, search_titles, write_model  # noqa: E402

HUB_MODEL = "minishlab/potion-retrieval-32M"
REVISION = "0123456789abcdef0123456789abcdef01234567"
TOGGLE = "Feature toggle for dark mode lives in settings"
CLOSED_PORT = "http://127.0.0.1:9"
"""Where a download that should not happen would go: refused at once, never the network."""
NOT_DOWNLOADED = f"lexical only: the model {HUB_MODEL} is not downloaded (HF_HUB_OFFLINE is set)"


@pytest.fixture
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty hub cache of this test's (offline, as every test is), and the hub model
    named in the user's own settings (a store's mem.toml may not name one)."""
    folder = tmp_path / "hub"
    folder.mkdir()
    monkeypatch.setenv("HF_HUB_CACHE", str(folder))
    user_config(f'[semantic]\nmodel = "{HUB_MODEL}"\n')
    return folder


def cache_hub_model(hub: Path) -> Path:
    """The tiny model where huggingface_hub keeps a download of ``HUB_MODEL``."""
    repo = hub / f"models--{HUB_MODEL.replace('/', '--')}"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(REVISION)
    return write_model(repo / "snapshots" / REVISION)


def save_three() -> None:
    mem("save", TOGGLE)
    mem("save", "The database connection pool is exhausted under load")
    mem("save", "Use pytest fixtures for temporary repositories")


def semantic_lines(output: str) -> list[str]:
    """The lines about semantic search, their spacing made single."""
    lines = [" ".join(line.split()) for line in output.splitlines()]
    return [line for line in lines if "semantic" in line or "lexical" in line]


def test_a_hub_model_in_the_cache_is_used_as_it_is(store: Path, hub: Path) -> None:
    folder = cache_hub_model(hub)
    save_three()
    assert search_titles("where is the flag switch?")[0] == TOGGLE  # by meaning alone
    status = mem_json("model", "status")
    assert status["configured"] == HUB_MODEL and status["model"] == HUB_MODEL
    assert not status["default"] and status["default_model"] == "bundled"
    assert status["enabled"] and status["folder"] == str(folder)
    assert (status["dims"], status["vectors"], status["memories"]) == (DIM, 3, 3)
    line = f"semantic: {HUB_MODEL} ({DIM} dims, 3 vectors)"
    assert status["reason"] == line
    assert semantic_lines(mem("status").stdout) == [f"semantic {line}"]
    assert mem("doctor").stdout.splitlines()[0] == line
    text = mem("model", "status").stdout.splitlines()
    assert text[:2] == [f"model: {HUB_MODEL} (mem.toml)", f"files: {folder}"]


def test_model_none_in_mem_toml_keeps_search_lexical(store: Path, hub: Path) -> None:
    cache_hub_model(hub)
    user_config('[semantic]\nmodel = "none"\n')
    save_three()
    assert search_titles("where is the flag switch?") == []
    status = mem_json("model", "status")
    assert (status["model"], status["enabled"], status["problem"]) == ("", False, False)
    assert status["reason"] == 'lexical only: [semantic] model = "none" in mem.toml'
    assert mem("doctor").stdout.splitlines() == [status["reason"], "The store is healthy."]


def test_offline_with_an_empty_cache_search_is_lexical_and_says_why(store: Path, hub: Path) -> None:
    save_three()
    found = mem("search", "database connection")
    assert "connection pool" in found.stdout and "Traceback" not in found.output
    assert f"semantic search is off: the model {HUB_MODEL} is not in the cache" in found.stderr
    assert mem("doctor", expect=1).stdout.splitlines()[0] == NOT_DOWNLOADED
    assert semantic_lines(mem("status").stdout) == [f"semantic {NOT_DOWNLOADED}"]
    status = mem_json("model", "status")
    assert status["model"] == HUB_MODEL and status["folder"] is None
    assert (status["enabled"], status["problem"], status["dims"]) == (False, True, None)
    assert status["reason"] == NOT_DOWNLOADED


def test_model_status_json_has_every_field(store: Path, hub: Path) -> None:
    assert set(mem_json("model", "status")) == {
        "configured",
        "model",
        "default",
        "default_model",
        "enabled",
        "problem",
        "reason",
        "folder",
        "dims",
        "vectors",
        "memories",
        "missing_packages",
        "store",
    }


def test_model_pull_offline_is_one_clear_line(store: Path, hub: Path) -> None:
    result = run_mem("model", "pull")
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and "Traceback" not in result.stderr
    assert f"the model {HUB_MODEL} is not in the cache, and HF_HUB_OFFLINE is set" in errors[0]
    assert not any(hub.iterdir())


def test_model_pull_keeps_a_cached_model_and_refuses_a_folder(store: Path, hub: Path) -> None:
    folder = cache_hub_model(hub)
    assert mem("model", "pull").stdout == f"{HUB_MODEL} is already downloaded: {folder}\n"
    assert mem_json("model", "pull", "--json") == {
        "model": HUB_MODEL,
        "folder": str(folder),
        "downloaded": False,
    }
    refused = mem("model", "pull", "./some-folder", expect=1)
    assert "'./some-folder' is not a hub name (owner/model)" in refused.output


def online_env() -> dict[str, str]:
    """Not offline, but any download refused at once on the loopback address."""
    return {**os.environ, "HF_HUB_OFFLINE": "0", "HF_ENDPOINT": CLOSED_PORT}


def test_model_pull_with_the_hub_unreachable_fails_at_once_in_one_line(
    store: Path, hub: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not told it is offline, mem asks the hub once, not through five retries."""
    for name in list(os.environ):  # straight to the hub: a proxy would carry it elsewhere
        if name.lower() in ("http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.delenv(name)
    started = time.monotonic()
    result = run_mem("model", "pull", env=online_env())
    took = time.monotonic() - started
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines[0] == f"mem: downloading the semantic model {HUB_MODEL}"
    assert len(lines) == 2 and lines[1].startswith(f"Error: cannot download the model {HUB_MODEL}")
    assert "127.0.0.1:9" in lines[1]
    assert took < 10  # five retries took 23 s
    assert not any(hub.iterdir())


def test_model_pull_of_nothing_named_has_nothing_to_fetch(store: Path, hub: Path) -> None:
    user_config("")  # mem's bundled model
    assert mem("model", "pull").stdout.startswith("no hub model is named in mem.toml")
    assert mem_json("model", "pull")["downloaded"] is False
    assert not any(hub.iterdir())


def test_a_hook_never_downloads_the_model(store: Path, hub: Path, tmp_path: Path) -> None:
    save_three()
    event = {
        "session_id": "s1",
        "cwd": str(tmp_path),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "where is the feature toggle for dark mode?",
    }
    result = run_mem(
        "hook", "claude", "UserPromptSubmit", input=json.dumps(event), env=online_env()
    )
    assert result.returncode == 0, result.stderr
    assert "downloading" not in result.stderr
    assert not any(hub.iterdir())


def run_in_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """``mem`` with its stderr on a pseudo-terminal (an interactive read); (exit code, stderr)."""
    controller, terminal = pty.openpty()
    try:
        process = subprocess.run(
            [mem_executable(), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=terminal,
            env=env,
            timeout=60,
        )
    finally:
        os.close(terminal)
    chunks = []
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the terminal side is closed: all read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(controller)
    return process.returncode, b"".join(chunks).decode(errors="replace")


def test_an_interactive_read_tries_the_download_and_stays_lexical(
    store: Path, hub: Path, tmp_path: Path
) -> None:
    save_three()
    env = online_env()
    code, stderr = run_in_terminal(["search", "database connection"], env)
    assert code == 0, stderr
    assert f"mem: downloading the semantic model {HUB_MODEL}" in stderr
    assert f"semantic search is off: cannot download the model {HUB_MODEL}" in stderr
    assert "Traceback" not in stderr
    line = f"lexical only: the model {HUB_MODEL} is not downloaded (the next search downloads it)"
    assert line in semantic_lines(run_mem("doctor", env=env).stdout)
    assert not any(hub.iterdir())


ENCODER = "sentence-transformers/tiny-encoder"


def test_an_onnx_encoder_named_by_its_hub_name_is_used_from_the_cache(
    store: Path, hub: Path
) -> None:
    pytest.importorskip("onnx")
    from .test_semantic_onnx import write_onnx_model

    repo = hub / f"models--{ENCODER.replace('/', '--')}"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(REVISION)
    folder = write_onnx_model(repo / "snapshots" / REVISION, nested=True)
    user_config(f'[semantic]\nmodel = "{ENCODER}"\n')  # a hub name: yours only
    save_three()
    status = mem_json("model", "status")
    assert (status["model"], status["folder"], status["enabled"]) == (ENCODER, str(folder), True)
    assert mem("model", "pull", ENCODER).stdout == f"{ENCODER} is already downloaded: {folder}\n"
    assert search_titles("where is the flag switch?")[0] == TOGGLE  # by meaning alone


def test_what_is_fetched_of_a_hub_repository() -> None:
    from memcli.core.model_choice import MODEL_FILES, hub_files

    static = ["README.md", *MODEL_FILES]
    assert hub_files(static) == list(MODEL_FILES)
    sentence_transformers = [
        *static,
        "pytorch_model.bin",
        "onnx/model.onnx",
        "onnx/model_qint8_avx512.onnx",
        "1_Pooling/config.json",
        "modules.json",
        "sentence_bert_config.json",
    ]
    assert hub_files(sentence_transformers) == [
        "onnx/model.onnx",
        "tokenizer.json",
        "config.json",
        "1_Pooling/config.json",
        "modules.json",
        "sentence_bert_config.json",
    ]
    assert hub_files(["model.onnx", "onnx/model.onnx", "tokenizer.json"]) == [
        "model.onnx",
        "tokenizer.json",
    ]
    large = ["onnx/model.onnx", "onnx/model.onnx_data", "onnx/model_fp16.onnx", "tokenizer.json"]
    assert hub_files(large) == ["onnx/model.onnx", "onnx/model.onnx_data", "tokenizer.json"]


@pytest.mark.parametrize(
    "configured", ["", "none", "Lexical", "  ", "bundled", "owner/model", "./folder"]
)
def test_the_model_name_alone_is_the_one_choose_gives(configured: str) -> None:
    from memcli.core.model_choice import choose, model_name

    assert model_name(configured) == choose(configured).name
