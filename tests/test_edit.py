"""mem edit: in $EDITOR (re-opened while invalid) or with --set; always checked, one commit."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .conftest import git, mem, mem_executable, mem_json

EDITOR = """
import sys, pathlib
path = pathlib.Path(sys.argv[1])
count = pathlib.Path(sys.argv[0]).with_suffix(".count")
n = int(count.read_text()) if count.exists() else 0
count.write_text(str(n + 1))
text = path.read_text()
mode = {mode!r}
if mode == "fix-title":
    path.write_text(text.replace("Old title", "New title"))
elif mode == "break-then-fix":
    if n == 0:
        path.write_text(text.replace("type: gotcha", "type: rumour"))
    else:
        assert "# mem: " in text and "unknown type 'rumour'" in text
        path.write_text(text.replace("type: rumour", "type: pattern"))
elif mode == "empty":
    path.write_text("")
elif mode == "take-key-then-fix":
    if n == 0:
        path.write_text(text.replace("key: note", "key: alpha"))
    else:
        assert "# mem: " in text and "key 'alpha' is already used by" in text
        path.write_text(text.replace("key: alpha", "key: gamma"))
elif mode == "always-broken":
    path.write_text("---\\ntitle: [unclosed\\n---\\n")
"""


def use_editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str) -> Path:
    script = tmp_path / f"editor-{mode}.py"
    script.write_text(EDITOR.format(mode=mode))
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)
    return script.with_suffix(".count")


@pytest.fixture
def memory(store: Path) -> str:
    return mem(
        "save", "Some narrative", "--title", "Old title", "--type", "gotcha", "--key", "note"
    ).stdout.strip()


def test_edit_in_the_editor_commits_and_reindexes(
    store: Path, memory: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_editor(tmp_path, monkeypatch, "fix-title")
    assert mem("edit", "note").stdout.startswith(f"edited {memory}")
    assert git(store, "log", "-1", "--format=%s").strip() == "edit: gotcha: New title"
    assert mem_json("search", "new title")[0]["id"] == memory


def test_an_invalid_edit_reopens_the_editor(
    store: Path, memory: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = use_editor(tmp_path, monkeypatch, "break-then-fix")
    mem("edit", "note")
    assert count.read_text() == "2"
    assert mem_json("show", "note")[0]["type"] == "pattern"
    assert "# mem:" not in next((store / "observations").rglob("*.md")).read_text()


@pytest.mark.parametrize(
    ("mode", "message"),
    [("empty", "edit cancelled"), ("always-broken", "still invalid after 5 edits")],
)
def test_cancelled_or_hopeless_edits_change_nothing(
    store: Path,
    memory: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
    message: str,
) -> None:
    use_editor(tmp_path, monkeypatch, mode)
    head = git(store, "rev-parse", "HEAD")
    result = mem("edit", "note", expect=None)
    assert message in result.stderr
    assert git(store, "rev-parse", "HEAD") == head
    assert mem_json("show", "note")[0]["title"] == "Old title"


def test_set_edits_without_an_editor(store: Path, memory: str) -> None:
    mem(
        "edit",
        "note",
        "--set",
        "type=decision",
        "--set",
        'facts=["one", "two"]',
        "--set",
        "concepts=a, b",
    )
    shown = mem_json("show", "note")[0]
    assert (shown["type"], shown["facts"], shown["concepts"]) == (
        "decision",
        ["one", "two"],
        ["a", "b"],
    )
    assert shown["updated"] is not None
    bad = mem("edit", "note", "--set", "type=rumour", expect=1)
    assert "unknown type 'rumour'" in bad.stderr
    assert "cannot set 'colour=red'" in mem("edit", "note", "--set", "colour=red", expect=1).stderr


SAVING_EDITOR = """
import os, pathlib, subprocess, sys
path = pathlib.Path(sys.argv[1])
if {change!r}:
    path.write_text(path.read_text().replace("Old title", "My careful new title"))
# While this person edits, another agent updates the same memory.
subprocess.run([{mem!r}, "save", "--key", "note", "--fact", "learned meanwhile", "x"], check=True)
"""


def test_an_editor_session_never_undoes_a_change_made_meanwhile(
    store: Path, memory: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "saving-editor.py"
    script.write_text(SAVING_EDITOR.format(mem=mem_executable(), change=True))
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)
    result = mem("edit", "note", expect=1)
    assert "changed while it was being edited" in result.stderr
    shown = mem_json("show", "note")[0]
    assert shown["facts"] == ["learned meanwhile"]  # the other change stays
    assert shown["title"] == "Old title"
    kept = Path(result.stderr.split("kept in ")[1].split()[0].rstrip(";:,"))
    assert "My careful new title" in kept.read_text()  # nothing typed is lost
    assert git(store, "status", "--porcelain") == ""


def test_edit_never_gives_a_memory_a_key_another_has(
    store: Path, memory: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha = mem("save", "The alpha memory", "--key", "alpha").stdout.strip()
    refused = mem("edit", "note", "--set", "key=alpha", expect=1)
    assert f"the key 'alpha' is already used by {alpha}" in refused.stderr
    assert mem_json("show", "alpha")[0]["id"] == alpha
    assert mem_json("show", "note")[0]["id"] == memory
    # In the editor the problem is shown on top, and the file opened again.
    count = use_editor(tmp_path, monkeypatch, "take-key-then-fix")
    mem("edit", "note")
    assert count.read_text() == "2"
    assert mem_json("show", "gamma")[0]["id"] == memory
    assert mem_json("show", "alpha")[0]["id"] == alpha
    mem("edit", "alpha", "--set", "key=alpha", "--set", "title=Still alpha")  # its own key


def test_an_editor_session_that_changed_nothing_is_not_refused(
    store: Path, memory: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "idle-editor.py"
    script.write_text(SAVING_EDITOR.format(mem=mem_executable(), change=False))
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)
    assert mem("edit", "note").stdout.startswith(f"unchanged {memory}")
    assert mem_json("show", "note")[0]["facts"] == ["learned meanwhile"]


def two_memories_with_one_key(store: Path, memory: str) -> str:
    """A second memory with the key ``note``, as a sync of two clones can bring."""
    original = next((store / "observations").rglob("*.md"))
    other = "01M80Q4BF5QMWQMEJBY2BSD0AA"
    copy = original.with_name("copy.md")
    copy.write_text(original.read_text().replace(memory, other).replace("Old title", "Other"))
    git(store, "add", "-A")
    git(store, "commit", "-q", "--no-verify", "-m", "a second memory keyed note")
    return other


def test_an_edit_keeping_a_shared_key_is_allowed(
    store: Path, memory: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = two_memories_with_one_key(store, memory)
    assert mem("edit", memory, "--set", "title=New title").stdout.startswith(f"edited {memory}")
    use_editor(tmp_path, monkeypatch, "fix-title")
    mem("edit", other, "--set", "title=Old title")
    assert mem("edit", other).stdout.startswith(f"edited {other}")
    # Taking the shared key anew is still refused.
    third = mem("save", "A third memory", "--key", "third").stdout.strip()
    refused = mem("edit", third, "--set", "key=note", expect=1)
    assert "the key 'note' is already used by" in refused.output
