"""mem starting itself never imports a module from the folder it runs in.

``python -m`` puts the working directory first on ``sys.path``; mem's git hooks run
in a store's work tree, whose files come with git (`mem sync`, a clone, a submodule),
so a ``click.py`` or a ``memcli/`` committed there must never be imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memcli.core.own_command import own_command

from .conftest import git, mem

pytestmark = pytest.mark.e2e

PLANTED = 'open({marker!r}, "w").write("ran")\n'


def plant(folder: Path, marker: Path) -> None:
    """Modules mem imports (and mem itself), each leaving ``marker`` if it runs."""
    code = PLANTED.format(marker=str(marker))
    (folder / "click.py").write_text(code)
    (folder / "memcli").mkdir()
    (folder / "memcli" / "__init__.py").write_text(code)
    (folder / "memcli" / "__main__.py").write_text(code)


def commit_planted(root: Path, marker: Path) -> None:
    """Plant modules in the store ``root`` and commit them, its git hooks running."""
    plant(root, marker)
    git(root, "add", "-A")
    subprocess.run(["git", "commit", "-qm", "planted"], cwd=root, capture_output=True, check=False)


def test_a_module_committed_in_the_store_never_runs_in_its_git_hooks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "store"
    monkeypatch.setenv("MEM_STORE", str(root))
    mem("init")
    marker = tmp_path / "ran"
    commit_planted(root, marker)
    git(root, "checkout", "-q", "-b", "other")  # post-checkout, as a rebase of `mem sync` runs
    assert not marker.exists()


def runs_cleanly(argv: list[str], folder: Path, marker: Path) -> bool:
    """``argv --version`` in ``folder`` works and leaves no ``marker``."""
    done = subprocess.run(
        [*argv, "--version"], cwd=folder, capture_output=True, text=True, check=False
    )
    return done.returncode == 0 and not marker.exists()


def test_mem_started_by_itself_imports_nothing_from_its_working_directory(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    marker = tmp_path / "ran"
    plant(folder, marker)
    assert runs_cleanly(own_command(), folder, marker)


def test_python_m_memcli_drops_its_working_directory_before_importing_more(
    tmp_path: Path,
) -> None:
    """A hook written by an older mem runs plain ``python -m memcli`` in the store."""
    folder = tmp_path / "work"
    folder.mkdir()
    marker = tmp_path / "ran"
    (folder / "click.py").write_text(PLANTED.format(marker=str(marker)))
    assert runs_cleanly([sys.executable, "-m", "memcli"], folder, marker)


def new_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A new store (``MEM_STORE``) and its git hooks folder."""
    root = tmp_path / "store"
    monkeypatch.setenv("MEM_STORE", str(root))
    mem("init")
    return root, root / ".git" / "hooks"


def test_hooks_an_older_mem_wrote_are_reported_and_fixed_by_doctor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older mem's hooks ran ``python -m memcli`` with the store's folder first on the
    import path: doctor says so, and ``--fix`` rewrites mem's own hooks, and only those."""
    root, hooks = new_store(tmp_path, monkeypatch)
    for name in ("pre-commit", "post-merge"):
        shim = hooks / name
        shim.write_text(shim.read_text().replace(" -P -m memcli", " -m memcli"))
    foreign = hooks / "post-checkout"  # replaced by hand: no longer mem's
    foreign.write_text("#!/bin/sh\nexit 0\n")
    states = {s["name"]: s["state"] for s in json.loads(mem("hooks", "status", "--json").stdout)}
    assert states["pre-commit"].startswith("outdated") and states["post-commit"] == "installed"
    found = mem("doctor", expect=None)
    assert found.exit_code != 0 and "older mem (pre-commit, post-merge)" in found.output
    fixed = mem("doctor", "--fix", expect=None)
    assert "(pre-commit, post-merge)" in fixed.output
    assert " -P -m memcli" in (hooks / "post-merge").read_text()
    assert foreign.read_text() == "#!/bin/sh\nexit 0\n"
    assert not (hooks / "post-checkout.legacy").exists()
    assert "older mem" not in mem("doctor", expect=None).output
    marker = tmp_path / "ran"
    commit_planted(root, marker)
    assert not marker.exists()


def test_doctor_passes_over_a_hook_that_is_a_fifo_or_a_link_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, hooks = new_store(tmp_path, monkeypatch)
    (hooks / "post-merge").unlink()
    os.mkfifo(hooks / "post-merge")
    (hooks / "post-commit").unlink()
    (hooks / "post-commit").symlink_to("post-commit")
    done = subprocess.run(
        [sys.executable, "-m", "memcli", "doctor"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
