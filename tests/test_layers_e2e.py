"""Layers end to end, through every interface: the installed ``mem`` (CLI, ``mem mcp``,
``mem serve``) in subprocesses, the Python API, real git clones and real clients.

* a team folder committed in one project is a layer of a teammate's fresh clone;
* MCP: a save in the user layer is found from another project;
* HTTP: a save in the team layer is staged in the project's repository;
* the Python API ranks every layer's memories with one ranking;
* forget in the team layer is a staged deletion;
* a key in two layers resolves in the nearest and ``mem doctor`` warns.
"""

from __future__ import annotations

import json
import os
import subprocess
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

import memcli
from tests.conftest import git, git_project, mem, mem_json, run_mem, server_env
from tests.test_mcp import start_client
from tests.test_serve import Server

pytestmark = pytest.mark.e2e


def ok(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    """The installed mem, which must succeed; its standard output."""
    done = run_mem(*args, cwd=cwd, env=env)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def staged(project: Path) -> list[str]:
    return git(project, "diff", "--cached", "--name-only").split()


def commits(project: Path) -> int:
    return int(git(project, "rev-list", "--count", "HEAD"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with one commit and a team folder (staged), the current directory."""
    root = tmp_path / "shop"
    git_project(root, {"src/app.py": "print('hi')\n"})
    monkeypatch.chdir(root)
    mem("init", "--layer", "team")
    return root


# ------------------------------------------------------------ a teammate's clone


def test_a_team_folder_committed_is_a_layer_of_a_teammates_fresh_clone(
    project: Path, tmp_path: Path
) -> None:
    mem("save", "Deploys freeze on Fridays after noon", "--type", "decision", "--layer", "team")
    git(project, "commit", "-q", "-m", "the team's deploy rule")
    (tmp_path / "teammate").mkdir()
    teammate = server_env(tmp_path / "teammate")  # another person: own home, own MEM_HOME
    clone = tmp_path / "teammate-clone"
    subprocess.run(
        ["git", "clone", "-q", str(project), str(clone)],
        check=True,
        env=teammate,
        capture_output=True,
    )
    hits = json.loads(ok("search", "deploys friday", "--json", cwd=clone, env=teammate))
    assert [(hit["layer"], hit["title"]) for hit in hits] == [
        ("team", "Deploys freeze on Fridays after noon")
    ]
    assert "(team) Deploys freeze" in ok("search", "deploys friday", cwd=clone, env=teammate)
    context = ok("context", cwd=clone, env=teammate)
    assert "decision (team): Deploys freeze on Fridays after noon" in context
    assert staged(clone) == [] and git(clone, "status", "--porcelain") == ""  # read only
    assert not (clone / ".mem").exists()


# ------------------------------------------------------------------------- MCP


def test_mcp_save_in_the_user_layer_is_found_from_another_project(tmp_path: Path) -> None:
    shop = tmp_path / "shop"
    blog = tmp_path / "blog"
    git_project(shop, {"README.md": "shop\n"})
    git_project(blog, {"README.md": "blog\n"})
    base = tmp_path / "mcp"
    base.mkdir()
    env = server_env(base)
    with ExitStack() as stack:
        client = start_client(stack, [], base, cwd=shop, roots=[shop], env=env)
        saved = client.ok("save", text="I use pnpm, never npm, to install packages.", layer="user")
        assert saved["layer"] == "user"
    with ExitStack() as stack:
        client = start_client(stack, [], base, cwd=blog, roots=[blog], env=env)
        hits = client.ok("search", query="pnpm packages")
    assert [(hit["id"], hit["layer"]) for hit in hits] == [(saved["id"], "user")]
    assert not (base / "mem-home" / "blog").exists()  # reading created no project store


# ------------------------------------------------------------------------ HTTP


def test_http_save_in_the_team_layer_is_staged_and_searched(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    base = tmp_path_factory.mktemp("lay")  # a short path: the socket is in the store
    project = base / "project"
    git_project(project, {"src/app.py": "print('hi')\n"})
    env = server_env(base)
    ok("init", cwd=project, env=env)
    ok("init", "--layer", "team", cwd=project, env=env)
    server = Server([], base, "layers")  # no --store: the project of its folder
    try:
        socket = server.where.removeprefix("unix socket ")
        transport = httpx.HTTPTransport(uds=socket)
        with httpx.Client(transport=transport, base_url="http://mem", timeout=60) as http:
            saved = http.post(
                "/api/memory/save",
                json={"text": "Every migration is reviewed by two people.", "layer": "team"},
            )
            assert saved.status_code == 201, saved.text
            body = saved.json()
            assert body["layer"] == "team" and body["commit"] in ("", None)
            assert f".mem-team/{body['path']}" in staged(project)
            assert commits(project) == 1
            found = http.get("/api/memory/search", params={"query": "migration", "layer": "team"})
            assert found.status_code == 200, found.text
            assert [(h["id"], h["layer"]) for h in found.json()["results"]] == [
                (body["id"], "team")
            ]
            mine = http.get("/api/memory/search", params={"query": "migration", "layer": "user"})
            assert mine.status_code == 404, mine.text  # no user layer yet: not a server fault
            assert "mem init --layer user" in mine.json()["error"]
            bogus = http.get("/api/memory/search", params={"query": "migration", "layer": "bogus"})
            assert 400 <= bogus.status_code < 500
            assert bogus.headers["content-type"] == "application/json"
            assert "layer" in bogus.json()["error"]
    finally:
        assert server.stop() == 0, server.log.read_text()


# ------------------------------------------------------------------ Python API


def test_the_python_api_ranks_every_layer_s_memories_together(project: Path) -> None:
    mem("save", "The shop's CI runs the linter", "--type", "decision")
    mem(
        "save",
        "Run the linter and the formatter before every commit",
        "--type",
        "preference",
        "--layer",
        "user",
    )
    mem("save", "The team pins the linter version", "--type", "decision", "--layer", "team")
    with memcli.open_store(cwd=project) as store:
        hits = store.search("linter formatter commit")
        assert [hit["layer"] for hit in hits][0] == "user"  # the better match, from any layer
        assert {hit["layer"] for hit in store.search("linter")} == {"user", "project", "team"}
        assert [hit["layer"] for hit in store.search("linter", layer="team")] == ["team"]


# ------------------------------------------------------------- forget in team


def test_forget_in_the_team_layer_stages_the_deletion_and_commits_nothing(
    project: Path,
) -> None:
    identity = mem("save", "Use the staging bucket for previews", "--layer", "team").stdout.strip()
    git(project, "commit", "-q", "-m", "team memory")
    path = mem_json("show", identity)[0]["path"]
    forgotten = mem_json("forget", identity)
    assert [entry["layer"] for entry in forgotten] == ["team"]
    assert commits(project) == 2
    status = git(project, "diff", "--cached", "--name-status").splitlines()
    assert status == [f"D\t.mem-team/{path}"]
    assert not (project / ".mem-team" / path).exists()
    assert mem_json("search", "staging bucket") == []


# ------------------------------------------------------------- a key in two


def test_a_key_in_the_team_and_user_layers_resolves_in_the_team_and_doctor_warns(
    project: Path,
) -> None:
    def save(text: str, layer: str) -> Any:
        return mem_json("save", text, "--type", "preference", "--key", "style", "--layer", layer)

    save("I like long descriptive names", "user")
    team = save("The team keeps names short", "team")
    shown = mem_json("show", "style")
    assert (shown[0]["layer"], shown[0]["id"]) == ("team", team["id"])
    assert "names short" in mem("show", "style").stdout
    report = mem_json("doctor")
    (warning,) = [line for line in report["warnings"] if "'style'" in line]
    assert "team" in warning and "user" in warning and "find the team one" in warning


def test_doctor_checks_a_clone_with_only_team_and_user_layers(project: Path) -> None:
    """No project store here: doctor examines the layers present, not the missing one."""
    mem("save", "The team reviews memories", "--layer", "team")
    mem("save", "I review my own memories", "--layer", "user")
    report = mem_json("doctor")
    assert report["healthy"], report
    (staged_line,) = [line for line in report["warnings"] if "staged for review" in line]
    assert staged_line.startswith("team layer: ")  # each line names its layer
    assert not (Path(os.environ["MEM_HOME"]) / "shop").exists()


def test_a_read_of_a_layer_with_no_store_yet_says_how_to_make_it(project: Path) -> None:
    mem("save", "A project memory")
    for command in (["search", "memory"], ["list"]):
        refused = mem(*command, "--layer", "user", expect=1)
        assert "no user layer yet" in refused.output
        assert "mem init --layer user" in refused.output
    assert not (Path(os.environ["MEM_HOME"]) / "_user").exists()
