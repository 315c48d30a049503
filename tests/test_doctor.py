"""mem doctor: what it finds, and what --fix repairs."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from .conftest import git, mem, mem_json, semantic_line


def test_a_healthy_store(store: Path) -> None:
    mem("save", "All is well")
    assert mem("doctor").stdout.splitlines() == [
        semantic_line(1),
        "The store is healthy.",
    ]
    assert mem_json("doctor")["healthy"] is True


def test_problems_are_found_and_safe_ones_fixed(store: Path) -> None:
    mem("save", "A committed memory", "--key", "kept")
    folder = next((store / "observations").rglob("*.md")).parent
    (folder / ".leftover.md.1234.abcd.tmp").write_text("half a save")
    (folder / "by-hand.md").write_text(
        "---\nid: 01JDM3N4P5Q6R7S8T9V0W1X2Y3\ntype: gotcha\ntitle: Written by hand\n"
        "created: 2026-11-20T10:00:00Z\n---\nNot committed yet.\n"
    )
    (folder / "broken.md").write_text("---\ntitle: [unclosed\n---\n")
    (store / "notes.txt").write_text("stray")
    lock = store / ".git" / "index.lock"
    lock.write_text("")
    old = time.time() - 3600
    os.utime(lock, (old, old))

    report = mem("doctor", expect=1).stdout
    for expected in (
        "invalid file: observations/",
        "broken.md: broken YAML",
        ".leftover.md.1234.abcd.tmp: left by an interrupted save",
        "index.lock is 60 min old",
        "memory file(s) changed but not committed",
        "notes.txt: outside the memory folders",
    ):
        assert expected in report, expected

    fixed = mem("doctor", "--fix", expect=1).stdout
    assert "fixed: removed observations/" in fixed and "fixed: removed git's stale" in fixed
    assert "fixed: committed 1 uncommitted memory file(s)" in fixed
    assert "problem: not committed, invalid: observations/" in fixed  # left for a person
    assert not lock.exists()
    assert "Written by hand" in [m["title"] for m in mem_json("list")]
    assert git(store, "log", "-1", "--format=%s").startswith(
        "edit: commit 1 uncommitted memory file"
    )


def test_duplicate_ids_and_index_drift(store: Path) -> None:
    mem("save", "An original memory")
    original = next((store / "observations").rglob("*.md"))
    original.with_name("copy.md").write_text(original.read_text())
    report = mem("doctor", expect=1).stdout
    assert "is used by 2 files" in report
    git(store, "add", "-A")
    git(store, "commit", "-qm", "copy", "--no-verify")
    (store / ".cache" / "index.db").unlink()
    assert "is used by 2 files" in mem("doctor", expect=1).stdout


def test_duplicate_keys_are_reported(store: Path) -> None:
    mem("save", "The alpha memory", "--key", "alpha")
    mem("save", "The beta memory", "--key", "beta")
    beta = next(p for p in (store / "observations").rglob("*.md") if "beta" in p.name)
    beta.write_text(beta.read_text().replace("key: beta", "key: alpha"))
    git(store, "commit", "-qam", "by hand", "--no-verify")
    report = mem("doctor", expect=1).stdout
    assert "key 'alpha' is used by 2 files" in report
    as_json = json.loads(mem("doctor", "--json", expect=1).stdout)
    assert as_json["healthy"] is False
    assert any("key 'alpha' is used by 2 files" in line for line in as_json["problems"])


def test_fix_leaves_files_whose_id_or_key_another_holds_uncommitted(store: Path) -> None:
    """The pre-commit hook refuses two files with one id or key: so does doctor --fix."""
    mem("save", "The alpha memory", "--key", "alpha")
    original = next((store / "observations").rglob("*.md"))
    copy = original.with_name("copy.md")
    copy.write_text(original.read_text())
    same_key = original.with_name("same-key.md")
    same_key.write_text(
        "---\nid: 01JDM3N4P5Q6R7S8T9V0W1X2Y4\ntype: gotcha\ntitle: Another alpha\n"
        "key: alpha\ncreated: 2026-11-20T10:00:00Z\n---\nSame key by hand.\n"
    )
    fine = original.with_name("fine.md")
    fine.write_text(
        "---\nid: 01JDM3N4P5Q6R7S8T9V0W1X2Y5\ntype: gotcha\ntitle: A fine hand edit\n"
        "created: 2026-11-20T10:00:00Z\n---\nNothing shared.\n"
    )
    fixed = mem("doctor", "--fix", expect=1).stdout
    assert "fixed: committed 1 uncommitted memory file(s)" in fixed
    committed = git(store, "ls-files", "observations")
    assert "fine.md" in committed
    assert "copy.md" not in committed and "same-key.md" not in committed
    assert f"not committed, {copy.relative_to(store)}: its id" in fixed
    assert f"not committed, {same_key.relative_to(store)}: its key 'alpha'" in fixed
    assert copy.exists() and same_key.exists()  # left for a person to resolve
    assert "fine.md" in git(store, "show", "--stat", "--format=", "HEAD")


def test_a_renamed_memory_file_is_one_uncommitted_path(store: Path) -> None:
    mem("save", "A memory a person renames by hand")
    (old,) = (store / "observations").rglob("*.md")
    new = old.with_name("renamed-by-hand.md")
    git(store, "mv", str(old), str(new))
    report = json.loads(mem("doctor", "--json", expect=None).stdout)
    said = " ".join(report["problems"] + report["warnings"])
    assert new.name in said  # the renamed file is reported uncommitted
    assert old.name not in said  # and its old name is no path of its own
