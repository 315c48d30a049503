"""Many agents at once on one store; many stores at once in one process."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from memcli.core.draft import Draft
from memcli.service.memory import Memory
from memcli.store.location import StoreLocation

from .conftest import git, mem_executable, run_mem

LEAKED_ERRORS = ("index.lock", "database is locked", "Traceback", "busy")


@pytest.mark.e2e
def test_twenty_saves_with_searches_and_forgets_running_meanwhile(tmp_path: Path) -> None:
    store = tmp_path / "store"
    env = {**os.environ, "MEM_STORE": str(store)}
    doomed = []
    for n in range(3):
        saved = run_mem("save", f"Doomed memory {n} about parallel work", env=env)
        assert saved.returncode == 0, saved.stderr
        doomed.append(saved.stdout.strip())
    searches: list[subprocess.CompletedProcess[str]] = []

    def search_meanwhile() -> None:
        for _ in range(8):
            searches.append(run_mem("search", "parallel", "--limit", "100", "--json", env=env))

    searcher = threading.Thread(target=search_meanwhile)
    searcher.start()
    outcomes = _parallel(
        env,
        *(["save", f"Agent {n} learned parallel thing {n}"] for n in range(20)),
        *(["forget", identity] for identity in doomed),
    )
    searcher.join(timeout=180)

    for code, _, err in outcomes:
        assert code == 0, err
        assert not any(text in err for text in LEAKED_ERRORS), err
    saved_ids = {out.strip() for _, out, _ in outcomes[:20]}
    assert len(saved_ids) == 20
    for search in searches:  # readers never saw a half-written index
        assert search.returncode == 0, search.stderr
        assert not any(text in search.stderr for text in LEAKED_ERRORS)
        hits = json.loads(search.stdout)
        assert {hit["id"] for hit in hits} <= saved_ids | set(doomed), hits
        assert all("parallel" in hit["title"] for hit in hits), hits
    subjects = git(store, "log", "--format=%s").splitlines()
    assert sum(s.startswith("save: ") for s in subjects) == 23
    assert sum(s.startswith("forget: ") for s in subjects) == 3
    assert len(list((store / "observations").rglob("*.md"))) == 20
    final = json.loads(run_mem("search", "parallel", "--limit", "100", "--json", env=env).stdout)
    assert {hit["id"] for hit in final} == saved_ids
    assert git(store, "status", "--porcelain") == ""
    assert run_mem("reindex", "--check", env=env).returncode == 0


def test_two_stores_in_one_process_share_nothing(tmp_path: Path) -> None:
    notes: dict[str, list[str]] = {"a": [], "b": []}
    a = Memory(StoreLocation(tmp_path / "a", "--store"), notes["a"].append)
    b = Memory(StoreLocation(tmp_path / "b", "--store"), notes["b"].append)
    templates = tmp_path / "b" / "templates"
    a.writer.save(Draft(text="Store A uses Postgres for sessions", key="db"))
    b.writer.save(Draft(text="Store B uses Redis for sessions", key="db"))
    templates.mkdir()
    (templates / "session_start.md.j2").write_text("B's own session template\n")
    for _ in range(2):  # interleaved, with both indexes open
        a.writer.save(Draft(text="Store A caches with Varnish"))
        b.writer.save(Draft(text="Store B caches with nginx"))

    def titles(memory: Memory, words: str) -> list[str]:
        return [e.title for e in memory.read(lambda i: i.search(words, limit=10)).entries]

    assert titles(a, "sessions") == ["Store A uses Postgres for sessions"]
    assert titles(b, "sessions") == ["Store B uses Redis for sessions"]
    assert titles(a, "nginx") == [] and titles(b, "varnish") == []
    assert a.resolve("db").title.startswith("Store A") and b.resolve("db").title.startswith(
        "Store B"
    )
    from memcli.retrieval.context import SessionContext

    assert SessionContext.gather(b).render() == "B's own session template\n"
    assert "Store A uses Postgres" in SessionContext.gather(a).render()
    assert all("created a memory store at " + str(tmp_path / "a") in n for n in notes["a"][:1])
    assert all(str(tmp_path / "a") not in n for n in notes["b"])


def _parallel(env: dict[str, str], *commands: list[str]) -> list[tuple[int, str, str]]:
    """Start every command at once; (exit code, stdout, stderr) of each, in order."""
    processes = [
        subprocess.Popen(
            [mem_executable(), *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in commands
    ]
    return [(p.wait(timeout=180), *p.communicate()) for p in processes]


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("rounds", "commands", "expected"),
    [
        (
            4,
            [
                ["edit", "lu", "--set", "title=T{r}"],
                ["save", "--key", "lu", "--fact", "F{r}", "base"],
            ],
            {"title": "T{r}", "facts": ["F{r}"]},
        ),
        (
            3,
            [
                ["edit", "lu", "--set", "title=T{r}"],
                ["edit", "lu", "--set", "facts=F{r}"],
                ["edit", "lu", "--set", "concepts=c{r}"],
            ],
            {"title": "T{r}", "facts": ["F{r}"], "concepts": ["c{r}"]},
        ),
    ],
    ids=["edit-and-keyed-save", "three-edits-of-different-fields"],
)
def test_parallel_changes_to_one_memory_all_survive(
    tmp_path: Path, rounds: int, commands: list[list[str]], expected: dict[str, Any]
) -> None:
    """Writers that change one memory at once each keep their change: none undoes another."""
    env = {**os.environ, "MEM_STORE": str(tmp_path / "store")}
    assert run_mem("save", "base", "--key", "lu", env=env).returncode == 0
    for r in range(rounds):
        outcomes = _parallel(env, *[[arg.format(r=r) for arg in args] for args in commands])
        assert [code for code, _, _ in outcomes] == [0] * len(commands), outcomes
        shown = json.loads(run_mem("show", "lu", "--json", env=env).stdout)[0]
        wanted = {
            name: [v.format(r=r) for v in value] if isinstance(value, list) else value.format(r=r)
            for name, value in expected.items()
        }
        assert {name: shown[name] for name in wanted} == wanted
