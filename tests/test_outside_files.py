"""Paths from outside mem that are not plain files: FIFOs, devices, links, private copies.

Every command here that could hang runs as a subprocess with a timeout: a
regression fails the test instead of stopping the suite.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memcli.service import transcripts as service
from memcli.store.files import Store

from .conftest import git, mem, mem_executable, mem_json, run_mem
from .test_claude_mem import crashed_db
from .test_transcripts import conversation, write

HANG = 30
"""Seconds a command that should answer at once may take before it counts as hung."""


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# ------------------------------------------------------------------ export -o


def test_export_writes_through_a_link_and_keeps_the_file_s_mode(
    store: Path, tmp_path: Path
) -> None:
    mem("save", "Exports keep the file they are given", "--type", "gotcha")
    expected = mem("export").stdout
    private = tmp_path / "private.jsonl"
    private.write_text("old\n")
    private.chmod(0o600)
    link = tmp_path / "dotfile.jsonl"
    link.symlink_to(private.name)
    mem("export", "-o", str(link))
    assert link.is_symlink() and os.readlink(link) == private.name
    assert private.read_text() == expected
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.glob("*.jsonl*")) == ["dotfile.jsonl", "private.jsonl"]


def test_export_writes_into_a_fifo_and_leaves_it_a_fifo(store: Path, tmp_path: Path) -> None:
    mem("save", "Exports can go to a pipe", "--type", "gotcha")
    expected = mem("export").stdout.encode()
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is waiting already
    try:
        mem("export", "-o", str(fifo))
        assert os.read(reader, 1 << 20) == expected
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


# ------------------------------------------------------------------ transcripts


def test_transcripts_sync_skips_fifos_and_devices_and_frees_its_lock(
    store: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "sessions"
    write(folder / "a.jsonl", conversation())
    os.mkfifo(folder / "x.jsonl")
    (folder / "zero.jsonl").symlink_to("/dev/zero")
    result = run_mem("transcripts", "sync", "--path", str(folder), "--json", timeout=HANG)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["messages_added"] == 4
    notices = [line for line in result.stderr.splitlines() if "not a regular file" in line]
    assert len(notices) == 2
    assert "x.jsonl" in notices[0] and "zero.jsonl" in notices[1]
    again = run_mem("transcripts", "sync", "--path", str(folder), "--json", timeout=HANG)
    assert json.loads(again.stdout)["busy"] is False


@pytest.mark.parametrize("command", [["status"], ["search", "upload"], ["sync"]])
def test_a_transcripts_db_that_is_a_fifo_is_one_line_error(
    store: Path, tmp_path: Path, command: list[str]
) -> None:
    db = service.transcripts_path(Store(store))
    db.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(db)
    line = one_error_line(run_mem("transcripts", *command, timeout=HANG))
    assert str(db) in line and "not a regular file" in line
    assert stat.S_ISFIFO(db.lstat().st_mode)


# ------------------------------------------------------------------ imports


def test_import_claude_mem_refuses_a_fifo_and_a_device(store: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "claude-mem.db"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero"):
        result = run_mem("import", "claude-mem", path, "--all-projects", timeout=HANG)
        line = one_error_line(result)
        assert path in line and "not a regular file" in line
    assert mem_json("list") == []


def _claude_memory_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "deploys.md").write_text(
        "---\nname: Deploys go through CI\ntype: project\n---\nNever deploy by hand.\n"
    )
    return folder


def test_import_claude_memory_reads_no_fifo(store: Path, tmp_path: Path) -> None:
    folder = _claude_memory_folder(tmp_path)
    os.mkfifo(folder / "pipe.md")
    os.mkfifo(folder / "MEMORY.md")
    result = run_mem("import", "claude-memory", str(folder), timeout=HANG)
    assert result.returncode == 1 and "imported 1" in result.stdout
    assert "pipe.md" in result.stderr and "not a regular file" in result.stderr
    assert [m["title"] for m in mem_json("list")] == ["Deploys go through CI"]


def test_import_claude_memory_follows_no_link_out_of_its_folder(
    store: Path, tmp_path: Path
) -> None:
    folder = _claude_memory_folder(tmp_path)
    outside = tmp_path / "hostname"
    outside.write_text("---\nname: Host secret\n---\nbuild-host-7f3a\n")
    (folder / "link.md").symlink_to(outside)
    (folder / "again.md").symlink_to("deploys.md")  # inside the folder: read
    (folder / "MEMORY.md").symlink_to(outside)
    result = mem("import", "claude-memory", str(folder))
    skipped = [line for line in result.output.splitlines() if "outside" in line]
    assert len(skipped) == 2
    assert "link.md" in skipped[0] or "link.md" in skipped[1]
    assert any("MEMORY.md" in line for line in skipped)
    assert "build-host-7f3a" not in git(store, "log", "-p", "--all")
    assert not (store / "MEMORY.md").exists()
    assert len(mem_json("list")) == 2


@pytest.mark.parametrize("kind", ["dangling link", "folder"])
def test_dry_run_says_what_a_store_memory_md_that_is_no_file_gets(
    store: Path, tmp_path: Path, kind: str
) -> None:
    folder = _claude_memory_folder(tmp_path)
    (folder / "MEMORY.md").write_text("# Memory\n\n- deploys go through CI\n")
    target = store / "MEMORY.md"
    if kind == "folder":
        target.mkdir()
    else:
        target.symlink_to("nowhere.md")
    dry = mem("import", "claude-memory", str(folder), "--dry-run")
    real = mem("import", "claude-memory", str(folder))
    for result in (dry, real):
        assert "copy" not in result.output.replace("not copied", "")
        assert "not copied" in result.output
    assert os.path.lexists(target) and not target.is_file()


# ------------------------------------------------------------------ claude-mem's private copy


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_the_private_copy_goes_when_the_import_is_stopped(
    store: Path, tmp_path: Path, signum: int
) -> None:
    db = crashed_db(tmp_path)
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    with Store(store).write_lock():  # the import waits for it, its copy made
        process = subprocess.Popen(
            [mem_executable(), "import", "claude-mem", str(db), "--all-projects"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + HANG
            while not list(temp.glob("mem-claude-mem-*/*")) and process.poll() is None:
                assert time.monotonic() < deadline, "the import made no copy"
                time.sleep(0.02)
            process.send_signal(signum)
            assert process.wait(timeout=HANG) == -signum
        finally:
            process.kill()
            process.wait()
    assert list(temp.iterdir()) == []


def test_a_store_memory_md_that_is_a_fifo_is_left_out_of_the_context(store: Path) -> None:
    mem("save", "Context still comes without MEMORY.md", "--type", "gotcha")
    os.mkfifo(store / "MEMORY.md")
    result = run_mem("context", timeout=HANG)
    assert result.returncode == 0, result.stderr
    assert "Context still comes without MEMORY.md" in result.stdout
    assert "MEMORY.md is a FIFO" in result.stderr


@pytest.mark.parametrize(
    ("agent", "settings"),
    [
        ("claude", ".claude/settings.json"),
        ("codex", ".codex/config.toml"),
        ("gemini", ".gemini/settings.json"),
    ],
)
def test_install_leaves_a_settings_fifo_alone(tmp_path: Path, agent: str, settings: str) -> None:
    project = tmp_path / "proj"
    git(project.parent, "init", "-q", str(project))
    fifo = project / settings
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    line = one_error_line(run_mem("install", agent, cwd=project, timeout=HANG))
    assert str(fifo) in line and "not a regular file" in line
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_token_file_that_is_a_fifo_is_refused(tmp_path: Path) -> None:
    from memcli.adapters.http.auth import TOKEN_ENV

    fifo = tmp_path / "token"
    os.mkfifo(fifo)
    script = (
        "from pathlib import Path\n"
        "from memcli.adapters.http.auth import load_token\n"
        "from memcli.core.errors import MemError\n"
        "try:\n"
        f"    load_token(Path({str(fifo)!r}))\n"
        "except MemError as exc:\n"
        "    print(exc)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=HANG
    )
    assert "is not a regular file" in result.stdout, result.stderr


@pytest.mark.parametrize("name", ["tokenizer.json", "model.safetensors"])
def test_a_model_file_that_is_a_fifo_leaves_search_lexical(
    store: Path, tmp_path: Path, name: str
) -> None:
    from .test_semantic import use_model, write_model

    model = write_model(tmp_path / "model")
    (model / name).unlink()
    os.mkfifo(model / name)
    mem("save", "Feature toggle for dark mode")
    use_model(store, str(model))
    result = run_mem("search", "toggle", timeout=HANG)
    assert result.returncode == 0 and "Feature toggle" in result.stdout
    assert "semantic search is off: " in result.stderr and "Traceback" not in result.stderr
