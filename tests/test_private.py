"""<private>…</private> spans are never stored: in any field, on any write path."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .conftest import git, mem

HIDDEN = "quokka-zebra"
SPAN = f"<private>{HIDDEN}</private>"
BASE = ("save", "A visible memory about caching", "--key", "base")

# (what is written, the commands that write it: each (argv, stdin))
WRITES: list[tuple[str, list[tuple[list[str], str | None]]]] = [
    ("save text", [(["save", f"Visible text {SPAN} stays"], None)]),
    ("save --title", [(["save", "Visible text", "--title", f"Title {SPAN}"], None)]),
    ("save --fact", [(["save", "Visible text", "--fact", f"a fact {SPAN}"], None)]),
    ("save --concept", [(["save", "Visible text", "--concept", f"db{SPAN},cache"], None)]),
    ("save --file", [(["save", "Visible text", "--file", f"src/a.py{SPAN}"], None)]),
    ("save --session", [(["save", "Visible text", "--session", f"s1 {SPAN}"], None)]),
    (
        "save --input json",
        [
            (
                ["save", "--input", "json"],
                json.dumps(
                    {
                        "text": f"Visible {SPAN}",
                        "title": f"Title {SPAN}",
                        "facts": [f"fact {SPAN}"],
                        "concepts": [f"db {SPAN}"],
                        "files": [f"src/{SPAN}a.py"],
                        "session": f"s1 {SPAN}",
                    }
                ),
            )
        ],
    ),
    (
        "save --key (update)",
        [
            (list(BASE), None),
            (
                [
                    "save",
                    "--key",
                    "base",
                    f"New text {SPAN}",
                    "--title",
                    f"T {SPAN}",
                    "--fact",
                    f"f {SPAN}",
                    "--concept",
                    f"c {SPAN}",
                    "--file",
                    f"src/b.py{SPAN}",
                    "--session",
                    f"s2 {SPAN}",
                ],
                None,
            ),
        ],
    ),
    *(
        (f"edit --set {field}", [(list(BASE), None), (["edit", "base", "--set", value], None)])
        for field, value in [
            ("title", f"title=New title {SPAN}"),
            ("narrative", f"narrative=New text {SPAN}"),
            ("facts", f'facts=["one {SPAN}"]'),
            ("concepts", f"concepts=db {SPAN}, cache"),
            ("files", f"files=src/c.py{SPAN}"),
            ("session", f"session=s3 {SPAN}"),
        ]
    ),
    *(
        (f"compact --{option}", [(["compact", "--request", "Visible", f"--{option}", value], None)])
        for option, value in [
            ("request", f"Fix it {SPAN}"),
            ("investigated", f"Looked {SPAN}"),
            ("learned", f"Learned {SPAN}"),
            ("completed", f"Done {SPAN}"),
            ("next-steps", f"Next {SPAN}"),
            ("title", f"Title {SPAN}"),
            ("session", f"s4 {SPAN}"),
        ]
    ),
    (
        "compact --stdin",
        [
            (
                ["compact", "--stdin"],
                json.dumps(
                    {
                        "request": f"Fix {SPAN}",
                        "learned": [f"item {SPAN}"],
                        "title": f"T {SPAN}",
                        "session": f"s5 {SPAN}",
                        "text": f"More {SPAN}",
                    }
                ),
            )
        ],
    ),
    (
        "PostCompact hook",
        [
            (
                ["hook", "claude", "PostCompact"],
                json.dumps(
                    {
                        "hook_event_name": "PostCompact",
                        "compact_summary": f"Summary {SPAN}",
                        "session_id": f"s6 {SPAN}",
                    }
                ),
            )
        ],
    ),
]


def stored(store: Path) -> str:
    """Everything git holds, and every file in the work tree."""
    files = "".join(
        p.read_text(errors="replace") for p in store.rglob("*.md") if ".git" not in p.parts
    )
    return git(store, "log", "--all", "-p") + files


@pytest.mark.parametrize(("what", "commands"), WRITES, ids=[what for what, _ in WRITES])
def test_private_spans_are_never_stored(
    store: Path, what: str, commands: list[tuple[list[str], str | None]]
) -> None:
    for argv, stdin in commands:
        mem(*argv, input=stdin)
    assert HIDDEN not in stored(store)
    assert "private>" not in stored(store)


EDITOR = f"""
import pathlib, sys
path = pathlib.Path(sys.argv[1])
text = path.read_text()
text = text.replace("title: A visible memory", "title: A {SPAN}visible memory")
text = text.replace("key: base", "key: base\\nfacts:\\n  - a fact {SPAN}\\nsession: s {SPAN}")
path.write_text(text + "\\nMore text {SPAN} here.\\n")
"""


def test_private_spans_written_in_the_editor_are_never_stored(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem(*BASE)
    script = tmp_path / "editor.py"
    script.write_text(EDITOR)
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)
    mem("edit", "base")
    assert HIDDEN not in stored(store)
    shown = json.loads(mem("show", "base", "--json").stdout)[0]
    assert shown["facts"] == ["a fact"] and "More text  here." in shown["narrative"]


ESCAPED_EDITOR = r"""
import pathlib, sys
path = pathlib.Path(sys.argv[1])
text = path.read_text()
title = 'title: "t \\x3cprivate>PSECRET2</private>"'
concepts = 'concepts: ["c\\u003cPRIVATE>PSECRET2\\u003c/private>"]'
text = text.replace("title: A visible memory about caching", title)
text = text.replace("key: base", "key: base\n" + concepts)
path.write_text(text)
"""


def test_private_spans_written_with_yaml_escapes_are_never_stored(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem(*BASE)
    script = tmp_path / "editor.py"
    script.write_text(ESCAPED_EDITOR)
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)
    mem("edit", "base")
    assert "PSECRET2" not in stored(store)
    assert mem("search", "PSECRET2", "--mode", "lexical").stdout == ""
    shown = json.loads(mem("show", "base", "--json").stdout)[0]
    assert shown["title"] == "t" and shown["concepts"] == ["c"]
