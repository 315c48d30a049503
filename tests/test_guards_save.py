"""Guards given to a memory: ``mem save --guard``, ``mem edit``, ``mem show``, the Python
API, MCP and HTTP; and the guards kept through promote and a dedupe merge."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

import memcli
from memcli.core.errors import InvalidInput

from .conftest import git, git_project, mem, mem_json, run_mem
from .test_mcp import Client, start_client
from .test_serve import Server, refused

NPM_DENY = {"tool": "Bash", "glob": "npm install*", "action": "deny"}
TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def commits(store: Path) -> int:
    return int(git(store, "rev-list", "--count", "HEAD").strip())


def files(store: Path) -> list[Path]:
    return (
        sorted((store / "observations").rglob("*.md")) if (store / "observations").exists() else []
    )


# ------------------------------------------------------------------- mem save


def test_save_keeps_the_guards_in_the_file_and_show_prints_them(store: Path) -> None:
    saved = mem_json(
        "save",
        "Use pnpm, never npm",
        "--type",
        "preference",
        "--guard",
        "Bash:npm install*",
        "--guard",
        "Read:.env",
        "--guard-action",
        "deny",
    )
    assert saved["guards"] == [NPM_DENY, {"tool": "Read", "glob": ".env", "action": "deny"}]
    [path] = files(store)
    assert '  - {tool: Bash, glob: "npm install*", action: deny}\n' in path.read_text()
    shown = mem("show", saved["id"]).stdout
    assert "guards: deny Bash:npm install*, deny Read:.env\n" in shown
    assert mem_json("show", saved["id"])[0]["guards"] == saved["guards"]


def test_the_guard_action_is_ask_by_default(store: Path) -> None:
    saved = mem_json("save", "Never force-push main", "--guard", "Bash:git push --force*")
    assert saved["guards"] == [{"tool": "Bash", "glob": "git push --force*", "action": "ask"}]


def test_a_memory_without_guards_shows_no_guards_line(store: Path) -> None:
    identity = mem("save", "Deploys go out on Tuesdays").stdout.strip()
    assert "guards" not in mem("show", identity).stdout
    assert mem_json("show", identity)[0]["guards"] == []


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("npm install", "is not TOOL:GLOB"),
        ("Shell:npm install", "guard tool 'Shell' is not one of Bash, Read, Edit, Write"),
        ("Bash:*", "matches every call"),
        ("Bash:", "glob is empty"),
        ("Read:" + "x" * 300, "longer than 256 characters"),
        ("Bash:" + "*a" * 20, "more than 16 wildcards"),
    ],
)
def test_a_malformed_guard_is_refused_and_nothing_is_written(
    store: Path, spec: str, problem: str
) -> None:
    mem("save", "A memory already there")
    before, head = files(store), git(store, "rev-parse", "HEAD")
    done = run_mem("save", "Use pnpm, never npm", "--guard", "Bash:npm *", "--guard", spec)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("Error: ") and problem in done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""
    assert files(store) == before and git(store, "rev-parse", "HEAD") == head
    assert git(store, "status", "--porcelain") == ""


def test_guard_action_without_a_guard_is_a_usage_error(store: Path) -> None:
    head = git(store, "rev-parse", "HEAD")
    done = run_mem("save", "Use pnpm", "--guard-action", "deny")
    assert done.returncode == 2 and "--guard-action needs --guard" in done.stderr
    done = run_mem("save", "Use pnpm", "--guard", "Bash:npm *", "--guard-action", "block")
    assert done.returncode == 2
    assert files(store) == [] and git(store, "rev-parse", "HEAD") == head


def test_save_input_json_takes_guards_and_their_action(store: Path) -> None:
    payload = {
        "text": "Use pnpm, never npm",
        "guards": ["Bash:npm install*"],
        "guard_action": "deny",
    }
    saved = mem_json("save", "--input", "json", input=json.dumps(payload))
    assert saved["guards"] == [NPM_DENY]
    bad = mem("save", "--input", "json", input='{"text": "x", "guards": [1]}', expect=1)
    assert "guards must be a list of 'TOOL:GLOB' strings" in bad.output


def test_saving_a_key_again_with_guards_replaces_them_and_without_keeps_them(store: Path) -> None:
    mem("save", "Use pnpm", "--key", "pnpm", "--guard", "Bash:npm *")
    again = mem_json("save", "Use pnpm, never npm", "--key", "pnpm")
    assert again["action"] == "updated"
    assert again["guards"] == [{"tool": "Bash", "glob": "npm *", "action": "ask"}]
    again = mem_json(
        "save",
        "Use pnpm",
        "--key",
        "pnpm",
        "--guard",
        "Bash:npm install*",
        "--guard-action",
        "deny",
    )
    assert again["guards"] == [NPM_DENY]


def test_a_secret_in_a_guard_is_refused_even_with_redact(store: Path) -> None:
    for flags in ([], ["--redact"]):
        done = run_mem(
            "save", "Never call the API by hand", "--guard", f"Bash:curl *{TOKEN}*", *flags
        )
        assert done.returncode == 1 and "secret" in done.stderr, done.stderr
    assert files(store) == []


# ------------------------------------------------------------------- mem edit


def test_edit_replaces_clears_and_changes_the_action_of_guards(store: Path) -> None:
    identity = mem("save", "Use pnpm", "--guard", "Bash:npm *").stdout.strip()
    mem("edit", identity, "--guard", "Bash:npm install*", "--guard", "Bash:npx *")
    assert mem_json("show", identity)[0]["guards"] == [
        {"tool": "Bash", "glob": "npm install*", "action": "ask"},
        {"tool": "Bash", "glob": "npx *", "action": "ask"},
    ]
    mem("edit", identity, "--guard-action", "deny")
    assert [g["action"] for g in mem_json("show", identity)[0]["guards"]] == ["deny", "deny"]
    mem(
        "edit",
        identity,
        "--guard",
        "Bash:npm install*",
        "--guard-action",
        "deny",
        "--set",
        "type=preference",
    )
    [shown] = mem_json("show", identity)
    assert shown["guards"] == [NPM_DENY] and shown["type"] == "preference"
    mem("edit", identity, "--no-guards")
    assert mem_json("show", identity)[0]["guards"] == []
    assert "guards" not in next(iter(files(store))).read_text()


def test_edit_refuses_a_malformed_guard_and_bad_combinations(store: Path) -> None:
    identity = mem("save", "Use pnpm").stdout.strip()
    head = git(store, "rev-parse", "HEAD")
    done = run_mem("edit", identity, "--guard", "Bash")
    assert done.returncode == 1 and "is not TOOL:GLOB" in done.stderr
    assert done.stderr.count("\n") == 1
    done = run_mem("edit", identity, "--guard-action", "deny")
    assert done.returncode == 1 and "has no guards" in done.stderr
    done = run_mem("edit", identity, "--no-guards", "--guard", "Bash:npm *")
    assert done.returncode == 2
    assert git(store, "rev-parse", "HEAD") == head


# ------------------------------------------------------------ API, MCP, HTTP


def test_the_python_api_saves_guards_and_refuses_bad_ones(store: Path) -> None:
    with memcli.open_store(store) as memory:
        saved = memory.save("Use pnpm", guards=["Bash:npm install*"], guard_action="deny")
        assert saved["guards"] == [NPM_DENY]
        assert memory.get(saved["id"])[0]["guards"] == [NPM_DENY]
        before = commits(store)
        for guards, action in (
            (["Bash npm"], None),
            (["Bash:npm *"], "block"),
            ([3], None),
            (None, "deny"),
        ):
            with pytest.raises(InvalidInput):
                memory.save("Use yarn", guards=guards, guard_action=action)  # type: ignore[arg-type]
        assert commits(store) == before


@pytest.fixture
def mcp(tmp_path: Path) -> Iterator[tuple[Client, Path]]:
    store = tmp_path / "store"
    with ExitStack() as stack:
        yield start_client(stack, ["--store", str(store)], tmp_path), store


@pytest.mark.e2e
def test_mcp_save_takes_guards(mcp: tuple[Client, Path]) -> None:
    client, store = mcp
    saved = client.ok("save", text="Use pnpm", guards=["Bash:npm install*"], guard_action="deny")
    assert saved["guards"] == [NPM_DENY]
    assert client.ok("get", ids=saved["id"])[0]["guards"] == [NPM_DENY]
    before = commits(store)
    assert "guard tool 'Shell'" in client.error("save", text="Use yarn", guards=["Shell:npm"])
    assert "guard action" in client.error(
        "save", text="Use yarn", guards=["Bash:npm"], guard_action="block"
    )
    assert commits(store) == before


@pytest.fixture
def http(tmp_path: Path) -> Iterator[tuple[httpx.Client, Path]]:
    store = tmp_path / "store"
    git_project(tmp_path / "project", {"a.txt": "a\n"})
    server = Server(["--store", str(store)], tmp_path, "unix")
    socket = server.where.removeprefix("unix socket ").split(" (")[0]
    try:
        with httpx.Client(
            transport=httpx.HTTPTransport(uds=socket), base_url="http://mem", timeout=60
        ) as client:
            yield client, store
    finally:
        server.stop()


@pytest.mark.e2e
def test_http_save_takes_guards(http: tuple[httpx.Client, Path]) -> None:
    client, store = http
    response = client.post(
        "/api/memory/save",
        json={"text": "Use pnpm", "guards": ["Bash:npm install*"], "guard_action": "deny"},
    )
    assert response.status_code == 201, response.text
    assert response.json()["guards"] == [NPM_DENY]
    before = commits(store)
    bad = client.post("/api/memory/save", json={"text": "Use yarn", "guards": ["Read:"]})
    assert "glob is empty" in refused(bad, 422)
    assert commits(store) == before


# --------------------------------------------------- promote, dedupe merge


def test_promote_keeps_the_guards(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    root.mkdir()
    git_project(root, {"app.py": "print('hi')\n"})
    assert run_mem("init", "--layer", "team", cwd=root).returncode == 0
    done = run_mem(
        "save",
        "Use pnpm",
        "--guard",
        "Bash:npm install*",
        "--guard-action",
        "deny",
        "--json",
        cwd=root,
    )
    identity = json.loads(done.stdout)["id"]
    done = run_mem("promote", identity, "--to", "team", cwd=root)
    assert done.returncode == 0, done.stderr
    [team_file] = (root / ".mem-team" / "observations").rglob("*.md")
    assert "action: deny}" in team_file.read_text()
    shown = json.loads(run_mem("show", identity, "--json", cwd=root).stdout)
    assert shown[0]["guards"] == [NPM_DENY] and shown[0]["layer"] == "team"


def test_a_dedupe_merge_keeps_every_guard_with_the_strictest_action(store: Path) -> None:
    text = "FTS5 MATCH parses foo-bar as a column filter, so quote each term before MATCH"
    a = mem(
        "save",
        text,
        "--type",
        "gotcha",
        "--guard",
        "Bash:sqlite3 *",
        "--guard",
        "Edit:migrations/**",
    ).stdout.strip()
    b = mem(
        "save",
        text.replace(", so", ":"),
        "--type",
        "gotcha",
        "--key",
        "fts",
        "--guard",
        "Edit:migrations/**",
        "--guard-action",
        "deny",
    ).stdout.strip()
    done = mem_json("dedupe", "--apply", "-y")
    assert done["merged"][0]["keeper"] == b and done["merged"][0]["superseded"] == [a]
    assert mem_json("show", b)[0]["guards"] == [
        {"tool": "Edit", "glob": "migrations/**", "action": "deny"},
        {"tool": "Bash", "glob": "sqlite3 *", "action": "ask"},
    ]
