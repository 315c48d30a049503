"""``mem search --all-projects``: every project's store (and the user's) in one ranking.

Nothing crosses between projects unless asked; when asked, each hit names its project
and the command that shows it, other projects' stores are only read, and a store that
cannot be read is passed over with one line.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import apsw
import httpx
import pytest

import memcli
from memcli.store.files import Store

from .conftest import (
    INDEX_DAMAGE,
    git,
    git_project,
    mem,
    mem_executable,
    run_mem,
    server_env,
    user_config,
)

TWENTY = [f"svc{n:02d}" for n in range(1, 21)]


def save(project: str, text: str, *extra: str) -> str:
    """A memory saved in ``project``'s central store; its id."""
    result = mem("save", text, "--project", project, "--json", *extra)
    return str(json.loads(result.stdout)["id"])


@pytest.fixture
def projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Three projects (the one the tests run in, "home", and two others) and the user layer,
    each holding one memory about uploads; the ids by where they are."""
    git_project(tmp_path / "home", {"README.md": "home\n"})
    monkeypatch.chdir(tmp_path / "home")
    return {
        "home": save("home", "Uploads go through the home gateway", "--type", "decision"),
        "alpha": save(
            "alpha", "The upload proxy times out after sixty seconds", "--type", "gotcha"
        ),
        "beta": save(
            "beta",
            "Uploads retry three times with backoff",
            "--type",
            "pattern",
            "--concept",
            "net",
        ),
        "user": save("home", "I want upload errors shown in full", "--layer", "user"),
    }


def test_a_plain_search_never_shows_another_projects_memory(projects: dict[str, str]) -> None:
    found = {hit["id"] for hit in json.loads(mem("search", "upload", "--json").stdout)}
    assert found == {projects["home"], projects["user"]}
    text = mem("search", "upload proxy sixty seconds backoff").stdout
    assert "sixty seconds" not in text and "backoff" not in text
    with memcli.open_store() as store:
        assert {hit["id"] for hit in store.search("upload")} == found


def test_all_projects_ranks_every_store_as_one_and_names_each_hits_project(
    projects: dict[str, str],
) -> None:
    result = mem("search", "upload", "--all-projects", "--json")
    hits = json.loads(result.stdout)
    assert {hit["id"] for hit in hits} == set(projects.values())
    by_id = {hit["id"]: hit for hit in hits}
    assert by_id[projects["alpha"]]["project"] == "alpha"
    assert by_id[projects["beta"]]["project"] == "beta"
    assert by_id[projects["home"]]["project"] == "home"
    assert by_id[projects["user"]]["project"] is None
    assert by_id[projects["user"]]["layer"] == "user"
    scores = [hit["score"] for hit in hits]
    assert scores == sorted(scores, reverse=True)
    assert result.stderr == ""
    lines = mem("search", "upload", "--all-projects").stdout.splitlines()
    assert len(lines) == 4
    alpha = next(line for line in lines if "sixty seconds" in line)
    assert alpha.endswith(f"(mem show {by_id[projects['alpha']]['short_id']} --project alpha)")


def test_the_printed_reference_shows_the_memory_of_the_other_project(
    projects: dict[str, str], tmp_path: Path
) -> None:
    hits = json.loads(mem("search", "sixty seconds", "--all-projects", "--json").stdout)
    command = shlex.split(hits[0]["show"])
    assert command[:2] == ["mem", "show"] and "--project" in command
    shown = mem(*command[1:], "--json")
    assert json.loads(shown.stdout)[0]["id"] == projects["alpha"]
    assert mem("show", projects["alpha"][:12], expect=1).exit_code == 1  # not this project's


def test_filters_work_across_projects(projects: dict[str, str]) -> None:
    def ids(*args: str) -> set[str]:
        found = json.loads(mem("search", "upload", "--all-projects", "--json", *args).stdout)
        return {hit["id"] for hit in found}

    assert ids("--type", "gotcha") == {projects["alpha"]}
    assert ids("--concept", "net") == {projects["beta"]}
    assert ids("--type", "gotcha", "--type", "pattern") == {projects["alpha"], projects["beta"]}
    assert ids("--since", "1d") == set(projects.values())
    assert ids("--until", "2001-01-01") == set()
    assert ids("--all", "--mode", "lexical") == set(projects.values())


def test_all_projects_takes_no_layer_or_transcripts(projects: dict[str, str]) -> None:
    for extra in (["--layer", "user"], ["--transcripts"]):
        result = mem("search", "upload", "--all-projects", *extra, expect=2)
        assert "--all-projects" in result.output and "Traceback" not in result.output


def test_outside_any_project_it_searches_every_store(
    projects: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "nowhere"
    outside.mkdir()
    monkeypatch.chdir(outside)
    hits = json.loads(mem("search", "upload", "--all-projects", "--json").stdout)
    assert {hit["id"] for hit in hits} == set(projects.values())


def test_a_central_store_named_by_its_path_is_named_by_its_project(
    projects: dict[str, str], tmp_path: Path
) -> None:
    alpha = str(tmp_path / "mem-home" / "alpha")
    hits = json.loads(mem("search", "upload", "--all-projects", "--store", alpha, "--json").stdout)
    assert {hit["id"]: hit["project"] for hit in hits}[projects["alpha"]] == "alpha"
    assert {hit["id"] for hit in hits} == set(projects.values())


def test_the_python_api_searches_every_project_when_asked(projects: dict[str, str]) -> None:
    notices: list[str] = []
    with memcli.open_store(notify=notices.append) as store:
        hits = store.search("upload", all_projects=True, type="gotcha")
        assert [(hit["id"], hit["project"]) for hit in hits] == [(projects["alpha"], "alpha")]
        with pytest.raises(memcli.InvalidInput):
            store.search("upload", all_projects=True, layer="user")
        with pytest.raises(memcli.InvalidInput):
            store.search("upload", all_projects="yes")  # type: ignore[arg-type]
        assert projects["alpha"] not in {hit["id"] for hit in store.search("upload")}
    assert notices == []


def _index_state(root: Path) -> dict[str, bytes]:
    cache = root / ".cache"
    return {path.name: path.read_bytes() for path in sorted(cache.iterdir()) if path.is_file()}


def test_twenty_projects_with_broken_ones_each_skipped_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user_config('[semantic]\nmodel = "none"\n')  # twenty stores: full text is enough here
    for name in TWENTY:
        save(name, f"The {name} deploy needs the upload token rotated", "--type", "gotcha")
    home = Path(memcli.open_store(project=TWENTY[0]).location.root).parent
    stores = {name: home / name for name in TWENTY}
    (stores["svc02"] / ".cache" / "index.db").write_bytes(b"not a database at all" * 300)
    # a commit made where the store's hooks did not run: its index is behind
    git(stores["svc03"], "-c", "core.hooksPath=/dev/null", "commit", "-qm", "x", "--allow-empty")
    db = apsw.Connection(str(stores["svc04"] / ".cache" / "index.db"))
    db.pragma("user_version", 1)  # an index of another version of mem
    db.close()
    (home / "svc05" / ".git").rename(home / "svc05" / "git-gone")  # no repository
    (home / "svc21").mkdir()  # an empty folder: no store
    before = {name: _index_state(root) for name, root in stores.items() if name != "svc05"}
    outside = tmp_path / "nowhere"
    outside.mkdir()
    monkeypatch.chdir(outside)
    with Store(stores["svc06"]).write_lock():  # a write under way
        result = run_mem("search", "upload token", "--all-projects", "--json", "--limit", "50")
    assert result.returncode == 0, result.stderr
    skipped = result.stderr.splitlines()
    assert sorted(line.split()[3].rstrip(":") for line in skipped) == [
        "svc02",
        "svc03",
        "svc04",
        "svc05",
        "svc06",
        "svc21",
    ], skipped
    assert all(line.startswith("mem: skipped project ") for line in skipped)
    assert "mem reindex --project svc02" in next(line for line in skipped if "svc02" in line)
    assert "mem reindex --project svc03" in next(line for line in skipped if "svc03" in line)
    assert "Traceback" not in result.stderr
    found = sorted(hit["project"] for hit in json.loads(result.stdout))
    assert found == [
        name for name in TWENTY if name not in {"svc02", "svc03", "svc04", "svc05", "svc06"}
    ]
    after = {name: _index_state(root) for name, root in stores.items() if name != "svc05"}
    assert after == before  # read only: nothing written, no -wal or -shm left behind


@pytest.mark.parametrize("damage", sorted(INDEX_DAMAGE))
def test_a_damaged_index_of_another_project_is_skipped_in_one_line(
    projects: dict[str, str], damage: str, tmp_path: Path
) -> None:
    index = tmp_path / "mem-home" / "alpha" / ".cache" / "index.db"
    INDEX_DAMAGE[damage](index)
    result = run_mem("search", "upload sixty seconds", "--all-projects", "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        line
        for line in result.stderr.splitlines()
        if line.startswith("mem: skipped project alpha: ")
    ]
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "mem reindex --project alpha" in result.stderr
    found = {hit["id"] for hit in json.loads(result.stdout)}
    assert found == set(projects.values()) - {projects["alpha"]}


def test_an_index_damaged_where_only_the_search_reads_is_skipped_and_home_left_alone(
    projects: dict[str, str], tmp_path: Path
) -> None:
    index = tmp_path / "mem-home" / "alpha" / ".cache" / "index.db"
    db = apsw.Connection(str(index))
    size = db.pragma("page_size")
    found = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'memories_fts_data'")
    (page,) = found.fetchone()
    db.close()
    with index.open("r+b") as handle:  # the full-text index's pages, not what opening reads
        handle.seek((page - 1) * size)
        handle.write(b"\xff" * size)
    home = tmp_path / "mem-home" / "home" / ".cache" / "index.db"
    before = home.stat().st_mtime_ns
    result = run_mem("search", "upload sixty seconds", "--all-projects", "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "mem: skipped project alpha: its index is damaged; run `mem reindex --project alpha`"
    ]
    found_ids = {hit["id"] for hit in json.loads(result.stdout)}
    assert found_ids == set(projects.values()) - {projects["alpha"]}
    assert home.stat().st_mtime_ns == before  # the home project's index was not rebuilt


def test_a_project_that_has_no_index_yet_is_skipped_until_reindexed(
    projects: dict[str, str], tmp_path: Path
) -> None:
    index = tmp_path / "mem-home" / "beta" / ".cache" / "index.db"
    index.unlink()
    result = mem("search", "upload", "--all-projects", "--json")
    assert projects["beta"] not in {hit["id"] for hit in json.loads(result.stdout)}
    assert "skipped project beta" in result.stderr and "mem reindex --project beta" in result.stderr
    assert not index.exists()
    mem("reindex", "--project", "beta")
    found = json.loads(mem("search", "upload", "--all-projects", "--json").stdout)
    assert projects["beta"] in {hit["id"] for hit in found}


# ------------------------------------------------------------- MCP and HTTP


def _served_projects(base: Path) -> tuple[Path, dict[str, str]]:
    """Two projects under the servers' MEM_HOME and a home project to run in."""
    env = server_env(base)
    home = base / "home-project"
    git_project(home, {"README.md": "home\n"})
    ids = {}
    for name, text in (
        ("home-project", "Uploads go through the home gateway"),
        ("alpha", "The upload proxy times out after sixty seconds"),
    ):
        saved = run_mem("save", text, "--project", name, "--json", env=env, cwd=base)
        assert saved.returncode == 0, saved.stderr
        ids[name] = json.loads(saved.stdout)["id"]
    return home, ids


@pytest.mark.e2e
def test_the_mcp_search_tool_takes_all_projects(tmp_path: Path) -> None:
    from .test_mcp import start_client

    home, ids = _served_projects(tmp_path)
    with ExitStack() as stack:
        client = start_client(stack, [], tmp_path, cwd=home)
        plain = client.ok("search", query="upload")
        assert [hit["id"] for hit in plain] == [ids["home-project"]]
        every = client.ok("search", query="upload", all_projects=True)
        assert {(hit["id"], hit["project"]) for hit in every} == {
            (ids["home-project"], "home-project"),
            (ids["alpha"], "alpha"),
        }
        assert "true or false" in client.error("search", query="upload", all_projects="yes")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[httpx.Client, dict[str, str]]]:
    home, ids = _served_projects(tmp_path)
    log = tmp_path / "serve-stderr.txt"
    with log.open("w") as errors:
        process = subprocess.Popen(
            [mem_executable(), "serve", "--port", "0"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            env=server_env(tmp_path),
            cwd=home,
        )
    try:
        deadline = time.monotonic() + 60
        while "mem: serving " not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        line = next(x for x in log.read_text().splitlines() if x.startswith("mem: serving "))
        url = line.split(" on ", 1)[1].split(" ", 1)[0]
        token = (tmp_path / "mem-home" / ".api-token").read_text().strip()
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=url, headers=headers, timeout=60) as client:
            yield client, ids
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.e2e
def test_the_http_search_route_takes_projects_all(
    served: tuple[httpx.Client, dict[str, str]],
) -> None:
    client, ids = served
    plain = client.get("/api/memory/search", params={"query": "upload"}).json()["results"]
    assert [hit["id"] for hit in plain] == [ids["home-project"]]
    every = client.get("/api/memory/search", params={"query": "upload", "projects": "all"})
    assert every.status_code == 200, every.text
    assert {(h["id"], h["project"]) for h in every.json()["results"]} == {
        (ids["home-project"], "home-project"),
        (ids["alpha"], "alpha"),
    }
    refused = client.get("/api/memory/search", params={"query": "upload", "projects": "some"})
    assert refused.status_code == 422 and "projects must be 'all'" in refused.json()["error"]
