"""mem status: the store a command here uses, its state, and the agents connected; read only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memcli.capture.transcripts.locate import claude_project_dir

from .conftest import git, mem, mem_json, run_mem, user_config

AGENTS = ("claude", "codex", "gemini")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git project, the current directory, with no store yet; agents' homes in tmp_path."""
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "home" / ".claude"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "home" / ".codex"))
    monkeypatch.chdir(root)
    return root


def central(tmp_path: Path) -> Path:
    return tmp_path / "mem-home" / "proj"


def status() -> dict[str, Any]:
    """``mem status --json`` with no team folder: the project's layer, then the user's."""
    found = mem_json("status")
    assert [entry["layer"] for entry in found["layers"]] == ["project", "user"]
    return found


def layer() -> dict[str, Any]:
    found: dict[str, Any] = status()["layers"][0]
    return found


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under ``root``, .git and .cache included."""
    found: dict[str, bytes | None] = {}
    for directory, folders, files in os.walk(root):
        for name in folders:
            found[os.path.relpath(os.path.join(directory, name), root)] = None
        for name in files:
            path = Path(directory, name)
            found[os.path.relpath(path, root)] = path.read_bytes()
    return found


def commit_by_hand(store: Path, name: str, text: str) -> None:
    """A commit the store's hooks do not see (so the index is not brought up to date)."""
    (store / name).write_text(text)
    git(store, "add", name)
    git(store, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", f"add {name}")


# ------------------------------------------------------------------ the store


def test_no_store_yet_says_where_the_first_save_creates_it(project: Path, tmp_path: Path) -> None:
    found = status()
    assert found["writes_to"] == "project" and found["problem"] is None
    entry = found["layers"][0]
    assert entry["layer"] == "project" and entry["source"] == "central"
    assert entry["path"] == str(central(tmp_path)) and entry["exists"] is False
    assert entry["memories"] == 0 and entry["index"] is None
    text = mem("status").stdout
    assert f"the first `mem save` or `mem init` creates it at {central(tmp_path)}" in text
    assert not (tmp_path / "mem-home").exists()


def test_outside_a_git_repository_it_says_why_no_store_is_found(tmp_path: Path) -> None:
    found = mem_json("status")
    assert found["layers"] == [] and found["writes_to"] is None
    assert "not inside a git repository" in found["problem"]
    assert "no store: " in mem("status").stdout
    assert len(found["agents"]) == 7  # three agents' project and user scopes, Claude Code's local


def test_a_bad_project_name_is_a_one_line_error(project: Path) -> None:
    result = mem("status", "--project", "no/such", expect=1)
    assert "invalid project name" in result.output and "Traceback" not in result.output


def test_a_central_store_its_counts_index_remote_and_semantic_line(
    project: Path, tmp_path: Path
) -> None:
    mem("save", "FTS5 MATCH treats foo-bar as a column filter", "--type", "gotcha")
    mem("save", "Reuse one httpx client for every upload")
    mem("summarize", "--request", "fix the upload", "--learned", "the timeout was 60 s")
    store = central(tmp_path)
    (store / "MEMORY.md").write_text("# Deploy\n\nmake deploy\n\n# Tests\n\nrun pytest\n")
    git(store, "add", "MEMORY.md")
    git(store, "commit", "-q", "-m", "notes")  # the store's hooks bring the index up to date
    mem("remote", "add", "git@example.com:team/memory.git")
    entry = layer()
    assert (entry["path"], entry["source"], entry["project"]) == (str(store), "central", "proj")
    assert entry["exists"] is True
    assert (entry["memories"], entry["summaries"], entry["notes_sections"]) == (2, 1, 2)
    assert entry["newest"] and entry["newest"][:4].isdigit() and entry["newest_age"]
    assert entry["index"]["state"] == "current"
    assert (
        entry["index"]["indexed_commit"]
        == entry["index"]["head"]
        == git(store, "rev-parse", "HEAD").strip()
    )
    assert entry["remotes"] == [{"name": "origin", "url": "git@example.com:team/memory.git"}]
    assert entry["uncommitted"] == [] and entry["problems"] == []
    assert entry["transcripts"] is None
    doctor = mem_json("doctor")
    assert entry["semantic"] == doctor["semantic"]
    text = mem("status").stdout
    assert str(store) in text and "central store of the git repository 'proj'" in text
    assert "2 memories, 1 summary, 2 notes sections; newest " in text
    assert "up to date with HEAD" in text
    assert "remote origin git@example.com:team/memory.git; nothing uncommitted" in text
    assert doctor["semantic"] in text
    assert "writes go to the project store" in text
    assert len(text.splitlines()) <= 24, "one screen"


def test_a_local_store_is_found_from_a_subfolder(project: Path) -> None:
    mem("init", "--local")
    mem("save", "The local store lives in .mem/")
    (project / "src").mkdir()
    os.chdir(project / "src")
    entry = layer()
    assert entry["source"] == ".mem/" and entry["path"] == str(project / ".mem")
    assert entry["memories"] == 1 and entry["remotes"] == []
    text = mem("status").stdout
    assert "the .mem/ folder of this project" in text
    assert "no remote (`mem remote add URL` to share)" in text


def test_each_way_of_naming_a_store_is_reported(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    found = mem_json("status", "--store", str(elsewhere))["layers"][0]
    assert (found["source"], found["path"], found["exists"]) == ("--store", str(elsewhere), False)
    found = mem_json("status", "--project", "other")["layers"][0]
    assert (found["source"], found["project"]) == ("--project", "other")
    assert found["path"] == str(tmp_path / "mem-home" / "other")
    assert "--project other" in mem("status", "--project", "other").stdout
    monkeypatch.setenv("MEM_STORE", str(elsewhere))
    assert layer()["source"] == "MEM_STORE"
    assert not elsewhere.exists() and not (tmp_path / "mem-home").exists()


def test_a_stale_or_missing_index_is_reported_and_left_alone(project: Path, tmp_path: Path) -> None:
    mem("save", "An indexed memory")
    store = central(tmp_path)
    indexed = layer()["index"]["indexed_commit"]
    commit_by_hand(store, "MEMORY.md", "# Notes\n\nkept by hand\n")
    entry = layer()
    assert entry["index"]["state"] == "stale"
    assert entry["index"]["indexed_commit"] == indexed != entry["index"]["head"]
    text = mem("status").stdout
    assert "stale: behind HEAD (1 file changed)" in text and "`mem reindex`" in text
    assert layer()["index"]["state"] == "stale", "status does not bring the index up to date"
    (store / ".cache" / "index.db").unlink()
    assert layer()["index"]["state"] == "missing"
    assert "missing: not built yet" in mem("status").stdout
    assert not (store / ".cache" / "index.db").exists()
    (store / ".cache" / "index.db").write_bytes(b"not a database")
    assert layer()["index"]["state"] == "unusable"
    assert "`mem reindex --full`" in mem("status").stdout


def test_a_broken_cache_or_index_is_a_problem_line_not_a_failure(
    project: Path, tmp_path: Path
) -> None:
    mem("save", "A memory")
    cache = central(tmp_path) / ".cache"
    (cache / "index.db").unlink()
    os.mkfifo(cache / "index.db")  # SQLite would wait on it for ever
    result = run_mem("status", timeout=30)
    assert result.returncode == 0 and "unusable: not a regular file" in result.stdout
    (cache / "index.db").unlink()
    (cache / "write.lock").unlink()
    (cache / "guards.json").unlink()
    cache.rmdir()
    cache.symlink_to(tmp_path)
    result = run_mem("status", "--json")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    (problem,) = json.loads(result.stdout)["layers"][0]["problems"]
    assert "is a symbolic link, not a folder of the store" in problem
    assert "problem      " in run_mem("status").stdout


def test_uncommitted_changes_are_listed(project: Path, tmp_path: Path) -> None:
    mem("save", "A committed memory")
    store = central(tmp_path)
    (store / "MEMORY.md").write_text("# Draft\n\nnot committed yet\n")
    entry = layer()
    assert entry["uncommitted"] == ["MEMORY.md"] and entry["notes_sections"] == 1
    assert "1 uncommitted change (MEMORY.md;" in mem("status").stdout


def test_the_transcripts_index_is_reported_when_there_is_one(project: Path) -> None:
    mem("save", "A memory")
    assert layer()["transcripts"] is None
    session = claude_project_dir(project) / "6f1c2d3e-0000-4000-8000-000000000001.jsonl"
    session.parent.mkdir(parents=True)
    lines = [
        {
            "type": kind,
            "sessionId": "6f1c2d3e-0000-4000-8000-000000000001",
            "uuid": f"u{number}",
            "parentUuid": f"u{number - 1}" if number > 1 else None,
            "timestamp": f"2026-03-01T10:00:0{number}.000Z",
            "cwd": str(project),
            "message": {"role": kind, "content": text},
        }
        for number, (kind, text) in enumerate(
            [("user", "Why is the upload slow?"), ("assistant", "The timeout is 60 s.")], 1
        )
    ]
    session.write_text("".join(json.dumps(line) + "\n" for line in lines))
    mem("transcripts", "sync")
    found = layer()["transcripts"]
    assert found["messages"] == 2 and found["sessions"] == 1 and found["last_sync"]
    assert "2 messages in 1 session; last sync " in mem("status").stdout


# ------------------------------------------------------------------ the agents


def agent(found: dict[str, Any], name: str, scope: str) -> dict[str, Any]:
    (entry,) = [a for a in found["agents"] if (a["agent"], a["scope"]) == (name, scope)]
    return entry


@pytest.mark.parametrize("name", AGENTS)
def test_an_agent_with_mem_s_hooks_is_shown_for_its_scope(project: Path, name: str) -> None:
    before = status()
    assert not any(a["hooks"] or a["mcp"] for a in before["agents"])
    assert f"not installed (`mem install {name}`)" in mem("status").stdout
    mem("install", name, "--no-mcp")
    found = status()
    mine = agent(found, name, "project")
    assert mine["hooks"] is True and mine["mcp"] is False and mine["problem"] is None
    assert Path(mine["hooks_path"]).is_file()
    assert agent(found, name, "user")["hooks"] is False
    others = [a for a in found["agents"] if a["agent"] != name]
    assert not any(a["hooks"] for a in others)
    assert f"project: hooks in {mine['hooks_path']}" in mem("status").stdout
    mem("install", name, "--no-mcp", "--user")
    user = agent(status(), name, "user")
    assert user["hooks"] is True and Path(user["hooks_path"]).is_file()
    assert "user: hooks in ~/" in mem("status").stdout
    mem("uninstall", name)
    mem("uninstall", name, "--user")
    assert not any(a["hooks"] for a in status()["agents"])


def test_mem_s_mcp_server_registered_by_hand_is_shown(project: Path) -> None:
    server = {"mcpServers": {"mem": {"command": "mem", "args": ["mcp"]}}}
    (project / ".mcp.json").write_text(json.dumps(server))
    mine = agent(status(), "claude", "project")
    assert (mine["hooks"], mine["mcp"]) == (False, True)
    assert mine["mcp_path"] == str(project / ".mcp.json")
    assert f"project: MCP server in {project / '.mcp.json'}" in mem("status").stdout


def test_settings_mem_cannot_read_are_named_not_a_traceback(project: Path) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text("{not json")
    result = run_mem("status")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "cannot read: " in result.stdout and "settings.json" in result.stdout
    mine = agent(json.loads(run_mem("status", "--json").stdout), "claude", "project")
    assert mine["hooks"] is False and "settings.json" in mine["problem"]


# ------------------------------------------------------------------ read only


def test_status_writes_nothing_to_the_store(project: Path, tmp_path: Path) -> None:
    """The store's files, .git and .cache stay byte for byte; a stale index stays stale."""
    mem("save", "A memory to count")
    mem("remote", "add", "git@example.com:team/memory.git")
    store = central(tmp_path)
    commit_by_hand(store, "MEMORY.md", "# Notes\n\nby hand\n")
    (store / "notes").mkdir()
    (store / "notes" / "draft.md").write_text("# Draft\n\nuncommitted\n")
    before = snapshot(store)
    assert any(path.startswith(".cache") for path in before)
    for args in (["status"], ["status", "--json"]):
        result = run_mem(*args)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        assert snapshot(store) == before
    assert "stale" in run_mem("status").stdout


def test_status_creates_no_store(project: Path, tmp_path: Path) -> None:
    for args in (["status"], ["status", "--json"], ["status", "--store", str(tmp_path / "s")]):
        assert run_mem(*args).returncode == 0
    assert not (tmp_path / "mem-home").exists() and not (tmp_path / "s").exists()


def test_status_imports_no_heavy_module(project: Path) -> None:
    mem("save", "A memory to count")
    guard = (
        "import sys\n"
        "from memcli.adapters.cli.main import cli\n"
        "cli.main(['status'], standalone_mode=False)\n"
        "heavy = ('git', 'jinja2', 'frontmatter', 'yaml', 'mcp', 'starlette', 'numpy')\n"
        "print('HEAVY:' + ','.join(m for m in heavy if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", guard], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines()[-1] == "HEAVY:"


def test_the_newest_memory_s_age(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM_NOW", "2026-11-18T09:00:00Z")
    mem("save", "An older memory")
    monkeypatch.setenv("MEM_NOW", "2026-11-20T12:00:00Z")
    mem("save", "The newest memory")
    monkeypatch.setenv("MEM_NOW", "2026-11-23T12:30:00Z")
    entry = layer()
    assert (entry["newest"], entry["newest_age"]) == ("2026-11-20T12:00:00Z", "3d")
    assert "newest 3d ago (2026-11-20)" in mem("status").stdout


# ------------------------------------------------------------------ the layers


def team_and_user_memories(project: Path) -> None:
    """A memory in each layer: the project's, the team folder's (staged) and the user's."""
    mem("save", "The shop's checkout uses Stripe webhooks")
    mem("init", "--layer", "team")
    mem("save", "Deploys freeze on Fridays", "--type", "decision", "--layer", "team")
    mem("save", "I use pnpm, never npm", "--type", "preference", "--layer", "user")


def test_every_layer_found_here_is_reported_nearest_first(project: Path, tmp_path: Path) -> None:
    from memcli.store.team import TeamStore

    team_and_user_memories(project)
    found = mem_json("status")
    assert found["writes_to"] == "project" and found["writes_by_type"] == {}
    project_layer, team, user = found["layers"]
    assert [project_layer["layer"], team["layer"], user["layer"]] == ["project", "team", "user"]
    assert (team["path"], team["source"], team["exists"]) == (
        str(project / ".mem-team"),
        "team",
        True,
    )
    assert (user["path"], user["source"], user["exists"]) == (
        str(tmp_path / "mem-home" / "_user"),
        "user",
        True,
    )
    assert [entry["memories"] for entry in found["layers"]] == [1, 1, 1]
    cache = TeamStore(project / ".mem-team").cache_dir
    assert team["index"]["path"] == str(cache / "index.db")  # in the user's cache
    assert team["index"]["state"] == "current" and team["index"]["head"].startswith("staged-")
    (saved,) = team["staged"]
    assert saved.startswith("observations/") and user["staged"] == []
    assert all(entry["semantic"] for entry in found["layers"])
    text = mem("status").stdout
    for heading in ("project store: ", "team store: ", "user store: "):
        assert text.count(heading) == 1
    assert text.index("project store") < text.index("team store") < text.index("user store")
    assert "up to date with the folder's staged state" in text
    assert "1 file staged for review (`git diff --cached -- .mem-team/`)" in text
    assert "your own store, for every project" in text
    assert "writes go to the project store\n" in text


def test_a_missing_user_store_says_how_to_make_it_and_no_team_folder_is_named(
    project: Path, tmp_path: Path
) -> None:
    user = status()["layers"][1]
    assert (user["exists"], user["memories"], user["index"]) == (False, 0, None)
    text = mem("status").stdout
    assert "`mem init --layer user` or the first `mem save --layer user`" in text
    assert "team layer: none here (`mem init --layer team` makes .mem-team/)" in text
    assert not (tmp_path / "mem-home").exists()


def test_writes_to_names_mem_toml_s_layer_per_type(project: Path, tmp_path: Path) -> None:
    mem("save", "A first memory makes the store")
    (central(tmp_path) / "mem.toml").write_text('[layers]\npreference = "user"\n')
    user_config('[layers]\ndecision = "team"\n')  # the team: the user's own config only
    found = status()
    assert found["writes_to"] == "project"
    assert found["writes_by_type"] == {"decision": "team", "preference": "user"}
    text = mem("status").stdout
    assert "writes go to the project store (mem.toml [layers]: " in text
    assert "preference to user" in text and "decision to team" in text


def test_a_team_folder_named_with_store_is_where_writes_go(project: Path) -> None:
    mem("init", "--layer", "team")
    found = mem_json("status", "--store", ".mem-team")
    assert found["writes_to"] == "team"
    assert [entry["layer"] for entry in found["layers"]] == ["team", "user"]


def test_status_writes_nothing_in_the_team_folder_its_cache_or_the_user_store(
    project: Path, tmp_path: Path
) -> None:
    """git's index changed since the team's index was built: status reads, never records."""
    from memcli.store.team import TeamStore

    team_and_user_memories(project)
    (project / ".mem-team" / "MEMORY.md").write_text("# Team\n\nstaged by hand\n")
    git(project, "add", ".mem-team/MEMORY.md")  # the folder's staged state is new to mem's cache
    places = [project, TeamStore(project / ".mem-team").cache_dir, tmp_path / "mem-home"]
    before = [snapshot(place) for place in places]
    for args in (["status"], ["status", "--json"]):
        result = run_mem(*args)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        assert [snapshot(place) for place in places] == before
