"""The store's git hooks: plain `git commit` is validated, and the index follows git."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from memcli.index import Index

from .conftest import git, mem, mem_json

pytestmark = pytest.mark.e2e


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "store"
    monkeypatch.setenv("MEM_STORE", str(root))
    mem("init")
    mem("save", "The first memory about caching", "--type", "decision", "--key", "first")
    return root


def commit(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A plain `git commit` in the store, as a person would make it."""
    return subprocess.run(["git", "commit", "-q", *args], cwd=store, capture_output=True, text=True)


def indexed_commit(store: Path) -> str | None:
    index = Index(store / ".cache" / "index.db")
    try:
        return index.indexed_commit()
    finally:
        index.close()


def memory_file(store: Path) -> Path:
    return next((store / "observations").rglob("*.md"))


def test_init_installs_every_hook(store: Path) -> None:
    states = mem("hooks", "status").stdout.split("\n")
    assert [line.split()[0] for line in states if line] == [
        "pre-commit",
        "post-commit",
        "post-merge",
        "post-checkout",
        "post-rewrite",
    ]
    assert all(line.endswith("installed") for line in states if line)


def test_a_hand_edit_committed_with_git_is_indexed_at_once(store: Path) -> None:
    path = memory_file(store)
    path.write_text(path.read_text().replace("about caching", "about edge caching in Varnish"))
    git(store, "add", "-A")
    result = commit(store, "-m", "sharpen the caching memory")
    assert result.returncode == 0, result.stderr
    assert indexed_commit(store) == git(store, "rev-parse", "HEAD").strip()
    assert mem_json("search", "varnish")[0]["key"] == "first"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("---\ntitle: [unclosed\n---\n", "broken YAML frontmatter"),
        (
            "---\nid: 01JDM3N4P5Q6R7S8T9V0W1X2Y3\ntype: rumour\ntitle: t\n"
            "created: 2026-01-01T00:00:00Z\n---\n",
            "unknown type 'rumour'",
        ),
        (
            "---\ntype: gotcha\ntitle: t\ncreated: 2026-01-01T00:00:00Z\n---\n",
            "missing required field: id",
        ),
    ],
    ids=["broken-yaml", "unknown-type", "no-id"],
)
def test_a_broken_memory_file_cannot_be_committed(store: Path, content: str, problem: str) -> None:
    head = git(store, "rev-parse", "HEAD")
    bad = store / "observations" / "2026" / "11" / "bad.md"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text(content)
    git(store, "add", "-A")
    result = commit(store, "-m", "a bad file")
    assert result.returncode != 0
    assert f"mem: observations/2026/11/bad.md: {problem}" in result.stderr
    assert "commit refused" in result.stderr
    assert git(store, "rev-parse", "HEAD") == head


def test_a_copied_memory_with_the_same_id_is_refused(store: Path) -> None:
    original = memory_file(store)
    copy = original.with_name("copy.md")
    copy.write_text(original.read_text())
    git(store, "add", "-A")
    result = commit(store, "-m", "a copy")
    assert result.returncode != 0 and "is already used by observations/" in result.stderr


def test_a_memory_taking_another_memorys_key_is_refused(store: Path) -> None:
    mem("save", "A second memory", "--key", "second")
    second = next(p for p in (store / "observations").rglob("*.md") if "second" in p.name)
    second.write_text(second.read_text().replace("key: second", "key: first"))
    git(store, "add", "-A")
    result = commit(store, "-m", "a duplicate key")
    assert result.returncode != 0
    assert "key 'first' is already used by observations/" in result.stderr
    # Swapping keys in one commit is fine: each file's new key is free once staged.
    first = next(p for p in (store / "observations").rglob("*.md") if "first" in p.name)
    first.write_text(first.read_text().replace("key: first", "key: second"))
    git(store, "add", "-A")
    result = commit(store, "-m", "swap keys")
    assert result.returncode == 0, result.stderr


def test_a_memory_outside_the_memory_folders_is_refused(store: Path) -> None:
    (store / "stray.md").write_text(memory_file(store).read_text())
    git(store, "add", "-A")
    result = commit(store, "-m", "a stray memory")
    assert result.returncode != 0 and "stray.md: memory files belong under" in result.stderr


def test_commit_all_is_validated_from_gits_temporary_index(store: Path) -> None:
    path = memory_file(store)
    path.write_text("---\ntitle: [unclosed\n---\n")
    result = commit(store, "-am", "break it")  # stages into a temporary index
    assert result.returncode != 0 and "broken YAML" in result.stderr


def test_valid_renames_and_deletions_pass(store: Path) -> None:
    mem("save", "A second memory")
    path = memory_file(store)
    git(store, "mv", str(path), str(path.with_name("renamed.md")))
    result = commit(store, "-m", "rename")
    assert result.returncode == 0, result.stderr
    git(store, "rm", "-q", str(path.with_name("renamed.md")))
    assert commit(store, "-m", "delete").returncode == 0
    assert len(mem_json("list")) == 1


def test_a_foreign_hook_is_kept_and_chained(store: Path) -> None:
    hooks = store / ".git" / "hooks"
    mem("hooks", "uninstall")
    (hooks / "pre-commit").write_text(
        '#!/bin/sh\necho foreign >> "$(git rev-parse --git-dir)/foreign-ran"\n'
    )
    (hooks / "pre-commit").chmod(0o755)
    assert (
        "kept the existing pre-commit hook as pre-commit.legacy" in mem("hooks", "install").stdout
    )
    assert "runs the previous hook first" in mem("hooks", "status").stdout
    path = memory_file(store)
    path.write_text(path.read_text() + "\nMore.\n")
    assert commit(store, "-am", "edit").returncode == 0
    assert (store / ".git" / "foreign-ran").exists()
    mem("hooks", "uninstall")
    assert "echo foreign" in (hooks / "pre-commit").read_text()
    assert not (hooks / "pre-commit.legacy").exists()


def test_core_hooks_path_is_refused_clearly(store: Path, tmp_path: Path) -> None:
    git(store, "config", "core.hooksPath", str(tmp_path / "shared-hooks"))
    result = mem("hooks", "install", expect=1)
    assert "core.hooksPath is set" in result.stderr
    assert not (tmp_path / "shared-hooks").exists()


def test_checkout_of_another_branch_reindexes(store: Path) -> None:
    git(store, "checkout", "-q", "-b", "experiment")
    mem("save", "Only on the experiment branch")
    git(store, "checkout", "-q", "main")
    assert indexed_commit(store) == git(store, "rev-parse", "HEAD").strip()
    assert [m["title"] for m in mem_json("list")] == ["The first memory about caching"]


def test_a_missing_mem_installation_never_blocks_git(store: Path) -> None:
    hook = store / ".git" / "hooks" / "pre-commit"
    hook.write_text(hook.read_text().replace(" -m memcli ", " -m memcli_not_installed "))
    path = memory_file(store)
    path.write_text(path.read_text() + "\nMore.\n")
    result = commit(store, "-am", "edit while mem is gone")
    assert result.returncode == 0 and "hook could not run" in result.stderr


@pytest.mark.network
def test_the_pre_commit_framework_runs_mem_validate(store: Path) -> None:
    """The real pre-commit tool, against this repository's .pre-commit-hooks.yaml."""
    import os
    import shutil
    import sys

    from .conftest import REPO_ROOT

    if os.environ.get("MEM_OFFLINE"):
        pytest.skip("MEM_OFFLINE is set: pre-commit would fetch mem's dependencies")
    tool = Path(sys.executable).parent / "pre-commit"
    if not tool.exists() and shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    command = str(tool) if tool.exists() else "pre-commit"
    if not (REPO_ROOT / ".git").exists():
        pytest.skip("pre-commit try-repo needs this repository as a git checkout")
    bad = store / "observations" / "bad.md"
    bad.write_text("---\ntitle: [unclosed\n---\n")
    git(store, "add", "-A")
    refused = subprocess.run(
        [command, "try-repo", str(REPO_ROOT), "mem-validate"],
        cwd=store,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert refused.returncode != 0
    assert "observations/bad.md: broken YAML frontmatter" in refused.stdout
    git(store, "rm", "-q", "--cached", str(bad))
    bad.unlink()
    passed = subprocess.run(
        [command, "try-repo", str(REPO_ROOT), "mem-validate", "--all-files"],
        cwd=store,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert passed.returncode == 0, passed.stdout


@pytest.mark.parametrize("name", ["MEMORY.md", "templates/x", "observations/2026/11/link.md"])
def test_a_symbolic_link_cannot_be_committed(store: Path, tmp_path: Path, name: str) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("root:x:0:0:root:/root:/bin/bash\n")
    link = store / name
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside)
    git(store, "add", "-A")
    result = commit(store, "-m", "a link")
    assert result.returncode != 0 and f"{name}: is a symbolic link" in result.stderr
    # Refused as a link, and only as that: its target is never read as a memory.
    assert sum(name in line for line in result.stderr.splitlines()) == 1, result.stderr


NON_UTF8_MEMORY = (
    "---\nid: 01M80Q4BF5QMWQMEJBY2BSD005\ntype: discovery\ntitle: t\n"
    "created: 2026-11-01T00:00:00Z\n---\n\nx\n"
)


def test_a_file_name_that_is_not_utf8_is_refused_then_skipped(store: Path) -> None:
    folder = store / "observations" / "2026" / "11"
    folder.mkdir(parents=True, exist_ok=True)
    bad = Path(os.fsdecode(bytes(folder) + b"/bad\xffbyte.md"))
    bad.write_text(NON_UTF8_MEMORY)
    git(store, "add", "-A")
    result = commit(store, "-m", "a name that is not UTF-8")
    assert result.returncode != 0, result.stderr
    assert "observations/2026/11/bad\\xffbyte.md: its name is not UTF-8" in result.stderr
    assert "could not run" not in result.stderr
    # Committed anyway: the index skips the file with a warning naming it; all else works.
    forced = commit(store, "--no-verify", "-m", "anyway")
    assert forced.returncode == 0
    assert "skipped observations/2026/11/bad\\xffbyte.md: its name is not UTF-8" in forced.stderr
    (store / ".cache" / "index.db").unlink()
    for args in (["list"], ["reindex", "--full"]):
        assert "bad\\xffbyte.md: its name is not UTF-8" in mem(*args).stderr, args
    mem("save", "Another one")
    assert [m["key"] for m in mem_json("search", "caching")] == ["first"]
    mem("log")
    mem("diff", "HEAD~3", "HEAD", "--json")
    doctor = mem("doctor", expect=1)
    assert "bad\\xffbyte.md: its name is not UTF-8" in doctor.output
    # Uncommitted, doctor --fix reports it and commits nothing in its name.
    head = git(store, "rev-parse", "HEAD")
    Path(os.fsdecode(bytes(folder) + b"/new\xfe.md")).write_text(NON_UTF8_MEMORY)
    doctor = mem("doctor", "--fix", expect=1)
    assert "not committed: observations/2026/11/new\\xfe.md: its name is not UTF-8" in (
        doctor.output
    )
    assert "fixed" not in doctor.output and git(store, "rev-parse", "HEAD") == head


@pytest.mark.parametrize("what", ["link", "file"])
def test_a_path_under_the_cache_cannot_be_committed(store: Path, tmp_path: Path, what: str) -> None:
    if what == "link":
        import shutil

        shutil.rmtree(store / ".cache")
        (store / ".cache").symlink_to(tmp_path)
        name = ".cache"
    else:
        name = ".cache/notes.txt"
        (store / name).write_text("derived\n")
    git(store, "add", "-f", name)
    result = commit(store, "-m", "the cache")
    assert result.returncode != 0 and f"{name}: " in result.stderr and ".cache" in result.stderr
