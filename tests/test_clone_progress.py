"""`mem clone` draws git's transfer progress on stderr only when stderr is a terminal."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

import pytest

from .conftest import mem, mem_executable, read_until_closed

pytestmark = pytest.mark.e2e


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    store = tmp_path / "alice"
    mem("init", "--remote", str(remote), "--store", str(store))
    mem("save", "Progress is drawn only on a terminal", "--store", str(store))
    mem("sync", "--store", str(store))
    return remote


def test_clone_draws_progress_on_a_terminal(remote: Path, tmp_path: Path) -> None:
    controller, terminal = pty.openpty()
    target = tmp_path / "bob"
    with subprocess.Popen(
        [mem_executable(), "clone", f"file://{remote}", "--store", str(target)],
        stdout=subprocess.PIPE,
        stderr=terminal,
        text=True,
    ) as process:
        os.close(terminal)
        shown = read_until_closed(controller)
        stdout = process.stdout.read() if process.stdout else ""
    os.close(controller)
    assert process.returncode == 0
    assert "Receiving objects: 100%" in shown.decode()
    assert stdout == f"Cloned file://{remote} (branch main) into {target}: 1 memory indexed.\n"


def test_clone_draws_nothing_when_stderr_is_not_a_terminal(remote: Path, tmp_path: Path) -> None:
    cloned = mem("clone", f"file://{remote}", "--store", str(tmp_path / "bob"))
    assert "objects" not in cloned.stderr
