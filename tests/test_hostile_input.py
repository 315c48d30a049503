"""Hostile and odd input, one table: each row is an input and what must happen.

(Input that is refused with an error is in test_bad_input.py.)

Kinds of row:
- ``query``: searched as words; exit 0, no error; ``expect`` says whether the
  memory holding the odd words is found.
- ``verbatim``: saved as a title and as a fact, read back byte for byte.
- ``template``: template syntax in a memory is shown literally by every template.
- ``hand-file``: a file dropped into observations/ and committed past the hooks:
  reindex skips it with this warning, doctor reports it, the pre-commit hook
  blocks it, and the other memories are still found.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .conftest import git, mem, mem_json

ODD_WORDS = "Odd words: NEAR title x foo bar caret 🙂 日本語 end"
GOOD = "---\nid: {id}\ntype: gotcha\ntitle: {title}\ncreated: 2026-11-01T00:00:00Z\n---\n{body}\n"
TWIN_ID = "01JD0000000000000000000TWN"
# Nested aliases: nine levels of ten make 10**9 strings once expanded.
ALIAS_BOMB = (
    "a0: &a0 ["
    + ", ".join(["lol"] * 10)
    + "]\n"
    + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9))
)

ROWS: list[tuple[str, str, Any, Any]] = [
    # (kind, id, input, expected)
    ("query", "quote", '"', False),
    ("query", "two-quotes", '""', False),
    ("query", "star", "*", False),
    ("query", "inner-star", "foo*bar", True),
    ("query", "near", "NEAR(title x)", True),
    ("query", "column-filter", "title:x", True),
    ("query", "minus", "-x", True),
    ("query", "dangling-or", "a OR", False),
    ("query", "paren", "(", False),
    ("query", "caret", "^", False),
    ("query", "emoji", "🙂", True),
    ("query", "cjk", "日本語", True),
    ("query", "10k-chars", "x" * 10_000, False),
    ("query", "sql", "'; DROP TABLE memories; --", False),
    ("verbatim", "fence", "before --- after", None),
    ("verbatim", "colon-space", "key: value", None),
    ("verbatim", "hash", "# not a comment", None),
    ("verbatim", "python-tag", "!!python/object/apply:os.system ['touch pwned']", None),
    ("verbatim", "anchor", "&anchor shared", None),
    ("verbatim", "alias", "*anchor", None),
    ("verbatim", "bom", "\ufeffTitle after a byte order mark", None),
    ("verbatim", "yaml-words", "yes", None),
    ("verbatim", "flow", "[1, 2] {a: b}", None),
    ("template", "expression", "{{ config }} and {{ ''.__class__ }}", None),
    ("template", "statement", "{% for x in range(3) %}loop{% endfor %}", None),
    (
        "hand-file",
        "binary",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe",
        "is not UTF-8 text",
    ),
    ("hand-file", "broken-yaml", b"---\ntitle: [unclosed\n---\n", "broken YAML frontmatter"),
    (
        "hand-file",
        "python-tag",
        b"---\nid: !!python/object/apply:os.system ['touch pwned']\ntype: gotcha\n---\n",
        "broken YAML frontmatter",
    ),
    (
        "hand-file",
        "no-id",
        b"---\ntype: gotcha\ntitle: t\ncreated: 2026-01-01T00:00:00Z\n---\n",
        "missing required field: id",
    ),
    (
        "hand-file",
        "unknown-type",
        GOOD.format(id="01JD0000000000000000000TYP", title="t", body="b")
        .replace("gotcha", "rumour")
        .encode(),
        "unknown type 'rumour'",
    ),
    (
        "hand-file",
        "duplicate-id",
        GOOD.format(id=TWIN_ID, title="Second twin", body="b").encode(),
        f"id {TWIN_ID} is already used by",
    ),
    (
        "hand-file",
        "yaml-bomb",
        b"---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\n"
        b"facts: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n---\n",
        "YAML aliases (*name) are not allowed in frontmatter",
    ),
    (
        "hand-file",
        "alias-bomb-in-unknown-keys",
        GOOD.format(id="01JD0000000000000000000BMB", title="Bomb", body="b")
        .replace("---\nb", ALIAS_BOMB + "---\nb")
        .encode(),
        "YAML aliases (*name) are not allowed in frontmatter",
    ),
    (
        "hand-file",
        "alias-in-facts",
        GOOD.format(id="01JD0000000000000000000AXS", title="Alias", body="b")
        .replace("---\nb", "shared: &s one fact\nfacts: [*s, *s]\n---\nb")
        .encode(),
        "YAML aliases (*name) are not allowed in frontmatter",
    ),
    (
        "hand-file",
        "deep-nesting",
        GOOD.format(id="01JD0000000000000000000DEP", title="Deep", body="b")
        .replace("---\nb", "x: " + "[" * 100_000 + "]" * 100_000 + "\n---\nb")
        .encode(),
        "frontmatter is nested deeper than",
    ),
    (
        "hand-file",
        "deep-nesting-behind-an-anchor",
        GOOD.format(id="01JD0000000000000000000DPA", title="Deep", body="b")
        .replace("---\nb", "x: &deep " + "[" * 5_000 + "]" * 5_000 + "\n---\nb")
        .encode(),
        "frontmatter is nested deeper than",
    ),
    (
        "hand-file",
        "created-after-year-9999",
        GOOD.format(id="01JD0000000000000000000BGG", title="Late", body="b")
        .replace("2026-11-01T00:00:00Z", "9999-12-31T23:00:00-05:00")
        .encode(),
        "created 9999-12-31T23:00:00-05:00 is not a valid time",
    ),
    (
        "hand-file",
        "created-impossible-day",
        GOOD.format(id="01JD0000000000000000000DAY", title="Day", body="odd words")
        .replace("2026-11-01T00:00:00Z", "2026-11-31T10:00:00Z")
        .encode(),
        "created 2026-11-31T10:00:00Z is not a valid time",
    ),
    (
        "hand-file",
        "created-impossible-yaml-date",
        GOOD.format(id="01JD0000000000000000000YMM", title="Day", body="b")
        .replace("2026-11-01T00:00:00Z", "2026-02-30")
        .encode(),
        "broken YAML frontmatter",
    ),
    (
        "hand-file",
        "updated-impossible-hour",
        GOOD.format(id="01JD0000000000000000000VPD", title="Hour", body="b")
        .replace("2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z\nupdated: 2026-11-02T24:00:00Z")
        .encode(),
        "updated 2026-11-02T24:00:00Z is not a valid time",
    ),
]


@pytest.fixture
def populated(store: Path) -> Path:
    mem("save", ODD_WORDS, "--key", "odd")
    twin = store / "observations" / "2026" / "11" / "first-twin.md"
    twin.parent.mkdir(parents=True, exist_ok=True)
    twin.write_text(GOOD.format(id=TWIN_ID, title="First twin", body="the first twin"))
    git(store, "add", "-A")
    git(store, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "first twin")  # fast
    return store


@pytest.mark.parametrize(
    ("kind", "value", "expected"),
    [(kind, value, expected) for kind, _, value, expected in ROWS],
    ids=[f"{kind}-{name}" for kind, name, _, _ in ROWS],
)
def test_hostile_input(
    populated: Path, tmp_path: Path, kind: str, value: Any, expected: Any
) -> None:
    CHECKS[kind](populated, tmp_path, value, expected)


def check_query(store: Path, tmp_path: Path, query: str, found: bool) -> None:
    # By words, where the query's syntax matters; by meaning too, which must not fail.
    for mode in ("lexical", "hybrid"):
        result = mem("search", "--json", "--mode", mode, "--", query)
        hits = json.loads(result.stdout or "[]")
        if mode == "lexical":
            assert ("odd" in [hit["key"] for hit in hits]) is found
        assert "Error" not in result.stderr and len(result.stderr) < 200


def check_verbatim(store: Path, tmp_path: Path, text: str, _: Any) -> None:
    identity = mem("save", "Some narrative", "--title", text, "--fact", text).stdout.strip()
    (shown,) = mem_json("show", identity)
    assert shown["title"] == " ".join(text.split()) and shown["facts"] == [text]
    mem("reindex", "--full")
    (again,) = mem_json("show", identity)
    assert again == shown
    assert not (tmp_path / "pwned").exists() and not (store / "pwned").exists()


def check_template(store: Path, tmp_path: Path, text: str, _: Any) -> None:
    with pytest.MonkeyPatch.context() as env:
        env.setenv("MEM_NOW", "2026-11-01T00:00:00Z")
        saved = mem("save", f"Template text {text} about caching", "--title", text).stdout
        env.setenv("MEM_NOW", "2026-11-03T00:00:00Z")
        outputs = {
            "show": mem("show", saved.strip()).stdout,
            "session start": mem("context").stdout,
        }
        # Session start lists memories by a line each: recall may bring it.
        (store / "mem.toml").write_text("[context]\nhot_count = 0\n")
        outputs["prompt"] = mem("recall", "why is the template text about caching?").stdout
        (store / "mem.toml").unlink()
        # The sections stay in the frontmatter; the context shows the summary's.
        outputs["compaction"] = mem_json("compact", "--learned", text, "--request", "x")["learned"]
        outputs["latest session"] = mem("context").stdout.split("## Memories", 1)[0]
    for template, output in outputs.items():
        assert text in output, template
    assert "loop" * 3 not in "".join(outputs.values())


def check_hand_file(store: Path, tmp_path: Path, data: bytes, warning: str) -> None:
    path = store / "observations" / "2026" / "11" / "dropped-in.md"
    path.write_bytes(data)
    git(store, "add", "-A")
    blocked = subprocess.run(
        ["git", "commit", "-q", "-m", "drop a file in"], cwd=store, capture_output=True, text=True
    )
    assert blocked.returncode != 0 and "mem: commit refused" in blocked.stderr
    assert warning in blocked.stderr
    git(store, "commit", "-q", "--no-verify", "-m", "drop a file in anyway")
    reindexed = mem("reindex", "--full")
    assert "skipped observations/2026/11/" in reindexed.stderr and warning in reindexed.stderr
    doctor = mem("doctor", expect=1).stdout
    assert "dropped-in.md" in doctor
    hits = mem_json("search", "odd words")
    assert hits[0]["key"] == "odd"
    assert "odd" in mem("list", "--keys").stdout
    assert "Odd words" in mem("context").stdout
    assert path.read_bytes() == data  # reported, never rewritten
    assert not (store / "pwned").exists() and not (tmp_path / "pwned").exists()


CHECKS = {
    "query": check_query,
    "verbatim": check_verbatim,
    "template": check_template,
    "hand-file": check_hand_file,
}


def test_an_alias_bomb_with_a_key_is_skipped_by_show_and_save(store: Path) -> None:
    """The file is refused wherever it is read: show and save --key never expand it."""
    bomb = (
        "a0: &a0 ["
        + ", ".join(["lol"] * 10)
        + "]\n"
        + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 6))
    )
    path = store / "observations" / "2026" / "11" / "bomb.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        GOOD.format(id="01JD0000000000000000000BMB", title="Bomb", body="b").replace(
            "---\nb", f"key: boom\n{bomb}---\nb"
        )
    )
    git(store, "add", "-A")
    git(store, "commit", "-q", "--no-verify", "-m", "bomb")
    shown = mem("show", "boom", "--json", expect=None)
    assert "lol" not in shown.stdout and "no memory has the key 'boom'" in shown.stderr
    saved = mem("save", "--key", "boom", "A memory with the key", expect=None)
    assert saved.exit_code == 0 and "lol" not in git(store, "log", "-p", "-1")


def test_one_huge_memory_file_costs_nothing_but_a_refusal(store: Path) -> None:
    """Over the size bound a memory is refused on save and by pre-commit, and skipped on read."""
    from memcli.core.validate import MAX_TEXT_CHARS
    from memcli.store.files import MAX_MEMORY_FILE_BYTES

    payload = json.dumps({"text": "huge", "facts": ["x" * (MAX_TEXT_CHARS + 1)]})
    refused = mem("save", "--input", "json", "--json", input=payload, expect=1)
    assert "facts is longer than 8,000,000 characters" in refused.stderr
    assert git(store, "log", "--format=%s").count("\n") == 1  # only the store's first commit
    big = "x" * (MAX_MEMORY_FILE_BYTES + 10)
    path = store / "observations" / "2026" / "11" / "2026-11-01-huge-aaaaaa.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "---\nid: 01JDX3Z6T0V6K8M2Q9R4AAAAAA\ntype: discovery\ntitle: Huge\n"
        f"created: 2026-11-01T00:00:00Z\nfacts:\n  - {big}\n---\n\nhuge\n"
    )
    git(store, "add", "-A")
    blocked = subprocess.run(
        ["git", "commit", "-q", "-m", "huge"], cwd=store, capture_output=True, text=True
    )
    assert blocked.returncode != 0 and "larger than 16 MB" in blocked.stderr
    git(store, "commit", "-q", "--no-verify", "-m", "huge anyway")
    assert mem_json("list") == []
    assert "larger than 16 MB" in mem("reindex", "--full").stderr
