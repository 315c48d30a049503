"""mem stale: memories whose files changed in the project since their commit; the context mark."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import git, mem, mem_json


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    git(root, "init", "-q")
    (root / "src" / "fetch.py").write_text("a\nb\nc\n")
    (root / "README").write_text("app\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first")
    monkeypatch.chdir(root)
    return root


def _save(text: str, *files: str) -> str:
    args = [arg for path in files for arg in ("--file", path)]
    return str(mem_json("save", *args, input=json.dumps({"text": text}))["id"])


def _commit(root: Path, path: str, text: str, date: str) -> None:
    (root / path).write_text(text)
    git(root, "add", path)
    subprocess.run(
        ["git", "commit", "-qm", f"change {path}"],
        cwd=root,
        check=True,
        env={**os.environ, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date},
    )


def test_stale_lists_a_memory_whose_file_changed_with_how_much_and_since_when(
    store: Path, project: Path
) -> None:
    cited = _save("fetch retries three times", "src/fetch.py")
    untouched = _save("the readme is short", "README")
    no_files = _save("a memory about nothing in particular")
    _commit(project, "src/fetch.py", "a\nB\nc\nd\n", "2026-11-20T10:00:00Z")
    _commit(project, "src/fetch.py", "a\nB\nc\nd\ne\n", "2026-11-21T10:00:00Z")
    found = mem_json("stale")
    assert [item["id"] for item in found] == [cited]
    (item,) = found
    assert item["status"] == "changed" and item["commits"] == 2
    assert (item["added"], item["removed"]) == (3, 1)
    assert item["since"].startswith("2026-11-20")
    assert item["files"][0]["path"] == "src/fetch.py"
    text = mem("stale").stdout
    assert "src/fetch.py: +3 -1 in 2 commits since 2026-11-20" in text
    assert untouched not in json.dumps(found) and no_files not in json.dumps(found)

    context = mem("context").stdout
    line = next(line for line in context.splitlines() if "fetch retries" in line)
    assert "(files changed since)" in line
    other = next(line for line in context.splitlines() if "readme is short" in line)
    assert "files changed" not in other


def test_an_unknown_commit_is_reported_not_an_error(store: Path, project: Path) -> None:
    # As a memory written in another clone, at a commit this one never had.
    given = {"text": "cites a file", "files": ["src/fetch.py"], "project_commit": "ab" * 20}
    memory = mem_json("save", input=json.dumps(given))["id"]
    found = mem_json("stale", "--project-dir", str(project))
    assert [(item["id"], item["status"]) for item in found] == [(memory, "unknown commit")]
    assert "a commit this project does not know" in mem("stale").stdout


def test_no_memory_with_files_lists_nothing_and_outside_git_is_one_line(
    store: Path, project: Path, tmp_path: Path
) -> None:
    _save("nothing cited")
    assert mem_json("stale") == []
    outside = tmp_path / "plain"
    outside.mkdir()
    result = mem("stale", "--project-dir", str(outside), expect=1)
    assert "not in a git repository" in result.output


def test_the_session_end_hook_imports_neither_the_store_nor_the_index(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("")
    code = (
        "import sys, json\n"
        "from memcli.adapters.agents.claude import claude_answer\n"
        "claude_answer('SessionEnd', {'session_id': 's', 'transcript_path': 'nope'}, print)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('memcli.index', "
        "'memcli.service', 'memcli.store', 'apsw', 'jinja2', 'yaml')))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.splitlines()[-1]) == []


def test_recall_marks_a_stale_memory_and_gives_it_last(store: Path, project: Path) -> None:
    (store / "mem.toml").write_text("[context]\nhot_count = 0\nwarm_count = 0\n")
    for topic in ("deploys", "logging", "the cache", "migrations", "the linter", "ports"):
        _save(f"Notes about {topic} for the team")  # so that the prompt's words are rare
    _save("The fetch client retries three times with backoff", "src/fetch.py")
    _save("The fetch client retries three times with jitter", "README")
    _commit(project, "src/fetch.py", "a\nB\nc\nd\n", "2026-11-20T10:00:00Z")
    data = mem_json("recall", "does the fetch client retry three times?")
    assert [hit["stale"] for hit in data["memories"]] == [False, True]
    text = mem("recall", "does the fetch client retry three times?").stdout
    stale = next(line for line in text.splitlines() if "backoff" in line)
    assert "(files changed since)" in stale
    fresh = next(line for line in text.splitlines() if "jitter" in line)
    assert "files changed" not in fresh
