"""The store API (``memcli.open_store`` / ``MemStore``), with real stores in tmp_path."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import memcli
from memcli import InvalidInput, MemStore, NotFound, StoreError
from tests.conftest import git, mem


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemStore]:
    with memcli.open_store(tmp_path / "store", create=True) as opened:
        yield opened


def test_open_store_finds_the_store_as_the_cli_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(StoreError, match="no memory store for project 'demo'"):
        memcli.open_store(project="demo")
    notices: list[str] = []
    with memcli.open_store(project="demo", create=True, notify=notices.append) as created:
        assert created.location.root == tmp_path / "mem-home" / "demo"
        created.save("Deploys go out on Tuesdays")
    assert notices == [f"created a memory store at {tmp_path / 'mem-home' / 'demo'}"]
    monkeypatch.setenv("MEM_STORE", str(tmp_path / "mem-home" / "demo"))
    with memcli.open_store(cwd=tmp_path) as found:
        assert [e["title"] for e in found.list()] == ["Deploys go out on Tuesdays"]


def test_save_search_get_timeline_list_forget(store: MemStore) -> None:
    saved = store.save(
        "FTS5 MATCH parses foo-bar as a column filter",
        type="gotcha",
        facts=["quote each term"],
        concepts=["sqlite", "fts5"],
        files=["memcli/index/fts.py"],
        key="fts-hyphen",
        importance=0.7,
        session="s1",
    )
    assert saved["action"] == "saved" and len(saved["commit"]) == 40
    assert saved["facts"] == ["quote each term"] and saved["importance"] == 0.7
    other = store.save("Deploys go out on Tuesdays", type="decision")
    assert store.save("Deploys go out on Tuesdays", key="fts-hyphen")["action"] == "updated"

    hits = store.search("column filter", type=["gotcha"], since="1w", concept="sqlite")
    assert [h["id"] for h in hits] == [saved["id"]]
    assert set(hits[0]) >= {"id", "short_id", "type", "title", "score", "path"}
    assert store.search("column filter", type="decision") == []

    records = store.get([other["id"], "fts-hyphen"])
    assert [r["id"] for r in records] == [other["id"], saved["id"]]
    assert records[1]["narrative"] == "Deploys go out on Tuesdays"
    assert store.get(saved["id"][:20])[0]["key"] == "fts-hyphen"

    around = store.timeline("fts-hyphen", before=0, after=5)
    assert [(e["id"], e["anchor"]) for e in around] == [
        (saved["id"], True),
        (other["id"], False),
    ]
    assert [e["id"] for e in store.list(type="decision")] == [other["id"]]
    assert [e["key"] for e in store.list(keys=True)] == ["fts-hyphen"]

    commits = git(store.location.root, "rev-list", "--count", "HEAD")
    forgotten = store.forget([saved["id"], other["id"]])
    assert {f["id"] for f in forgotten} == {saved["id"], other["id"]}
    assert len({f["commit"] for f in forgotten}) == 1
    assert int(git(store.location.root, "rev-list", "--count", "HEAD")) == int(commits) + 1
    assert store.list() == []


def test_context_and_recall(
    store: MemStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Session start lists memories by a line each: recall may bring their facts.
    (tmp_path / "store" / "mem.toml").write_text("[context]\nhot_count = 0\n")
    monkeypatch.setenv("MEM_NOW", "2026-11-01T10:00:00Z")
    store.save("Uploads fail after sixty seconds: the proxy timeout", type="gotcha")
    monkeypatch.setenv("MEM_NOW", "2026-11-05T10:00:00Z")
    store.save("Deploys go out on Tuesdays", type="decision")
    context = store.context(budget=2000)
    assert "Deploys go out on Tuesdays" in context and len(context) <= 2000
    assert store.recall("ok") == ""
    recalled = store.recall("why do uploads fail after sixty seconds?", session="s1")
    assert "proxy timeout" in recalled
    assert store.recall("why do uploads fail after sixty seconds?", session="s1") == ""


def test_secrets_are_refused_unless_the_policy_says(store: MemStore) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    with pytest.raises(memcli.MemError, match="refusing to store likely secrets"):
        store.save(f"the token is {token}")
    assert store.list() == []
    redacted = store.save(f"the token is {token}", secrets="redact")
    assert token not in redacted["narrative"]


def test_get_names_every_unknown_id_and_changes_nothing(store: MemStore) -> None:
    saved = store.save("Deploys go out on Tuesdays", key="deploy")
    with pytest.raises(NotFound, match="no memory has the key 'nokey'"):
        store.get(["deploy", "nokey"])
    with pytest.raises(NotFound, match="'zzzz', 'other-key'$"):
        store.get(["zzzz", "deploy", "other-key"])
    with pytest.raises(NotFound, match="'gone1', 'gone2'"):
        store.forget(["deploy", "gone1", "gone2"])
    assert store.get("deploy")[0]["id"] == saved["id"]


def test_show_names_every_unknown_id_through_the_cli(store: MemStore) -> None:
    result = mem("show", "zzzz", "nokey", "--store", str(store.location.root), expect=1)
    assert "'zzzz', 'nokey'" in result.output


BAD_CALLS: list[tuple[str, Callable[[MemStore], Any], str]] = [
    ("type", lambda s: s.search("x", type="note"), "unknown type 'note': use one of preference"),
    ("types", lambda s: s.search("x", type=["gotcha", "x"]), "unknown type 'x'"),
    ("since", lambda s: s.search("x", since="soon"), "cannot read 'soon' as a time"),
    ("until", lambda s: s.search("x", until="later"), "cannot read 'later' as a time"),
    ("limit", lambda s: s.search("x", limit=0), "limit must be from 1 to 1,000, not 0"),
    ("limit-big", lambda s: s.search("x", limit=10**9), "limit must be from 1 to 1,000"),
    ("limit-type", lambda s: s.search("x", limit="5"), "limit must be a whole number"),  # type: ignore[arg-type]
    ("limit-bool", lambda s: s.list(limit=True), "limit must be a whole number"),
    ("mode", lambda s: s.search("x", mode="fuzzy"), "unknown mode 'fuzzy': use one of lexical"),
    ("empty-query", lambda s: s.search("  "), "the query is empty"),
    ("query-type", lambda s: s.search(b"x"), "query must be a string, not bytes"),  # type: ignore[arg-type]
    ("save-type", lambda s: s.save("x", type="fact"), "unknown type 'fact'"),
    ("save-empty", lambda s: s.save(""), "nothing to save"),
    ("importance", lambda s: s.save("x", importance=2), "importance must be from 0 to 1"),
    ("key", lambda s: s.save("x", key="../etc"), "invalid key '../etc'"),
    ("empty-key", lambda s: s.save("x", key=""), "invalid key ''"),
    ("file", lambda s: s.save("x", files=["/etc/passwd"]), "absolute paths are not allowed"),
    ("facts", lambda s: s.save("x", facts=[1]), "facts must be a list of strings"),  # type: ignore[list-item]
    ("secrets", lambda s: s.save("x", secrets="ignore"), "unknown secrets policy"),  # type: ignore[arg-type]
    ("no-ids", lambda s: s.get([]), "no id given"),
    ("many-ids", lambda s: s.get(["abcd"] * 1001), "too many ids"),
    ("before", lambda s: s.timeline("abcd", before=-1), "before must be from 0 to 1,000"),
    ("kind", lambda s: s.timeline("abcd", kind="note"), "unknown kind 'note'"),
    ("list-limit", lambda s: s.list(limit=0), "limit must be from 1 to 100,000"),
    ("budget", lambda s: s.context(budget=10), "budget must be from 200 to 1,000,000"),
    ("recall-budget", lambda s: s.recall("why?", budget=0), "budget must be from 200"),
]


def test_bad_arguments_are_refused_with_one_line(store: MemStore) -> None:
    """One store for the whole table: each call is refused before it reads anything."""
    for name, call, message in BAD_CALLS:
        with pytest.raises(InvalidInput) as raised:
            call(store)
        assert message in str(raised.value), name
        assert "\n" not in str(raised.value), name
    assert store.list() == []


def test_a_closed_store_refuses_calls(tmp_path: Path) -> None:
    store = memcli.open_store(tmp_path / "s", create=True)
    store.save("Deploys go out on Tuesdays")
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.search("deploy")


def test_one_store_shared_by_threads(store: MemStore) -> None:
    def work(n: int) -> int:
        store.save(f"Thread note number {n} about caching", key=f"note-{n}")
        return len(store.search("caching", limit=100))

    with ThreadPoolExecutor(max_workers=4) as pool:
        counts = list(pool.map(work, range(8)))
    assert all(1 <= c <= 8 for c in counts)
    assert len(store.list(keys=True)) == 8
    assert int(git(store.location.root, "rev-list", "--count", "HEAD")) >= 8


def test_importing_the_api_loads_nothing_heavy() -> None:
    code = (
        "import sys, memcli; memcli.open_store; "
        "print(sorted(m for m in ('git', 'jinja2', 'yaml', 'frontmatter', 'apsw', "
        "'memcli.core.model', 'memcli.service.memory') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stderr


def test_a_long_lived_store_sees_commits_made_elsewhere(store: MemStore) -> None:
    store.save("Deploys go out on Tuesdays")
    assert len(store.search("deploys")) == 1
    mem("save", "Deploys pause in December", "--store", str(store.location.root))
    assert len(store.search("deploys")) == 2
    assert len(store.list()) == 2
