"""``mem mcp`` through the SDK's own client, and ``mem install claude --mcp``.

One server (the installed entry point, in a subprocess) serves the whole module:
starting the SDK costs most of a second.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.context import RequestContext
from mcp.types import (
    LATEST_PROTOCOL_VERSION,
    CallToolResult,
    ClientCapabilities,
    Implementation,
    InitializeRequestParams,
    JSONRPCMessage,
    JSONRPCNotification,
    JSONRPCRequest,
    ListRootsResult,
    Root,
    TextContent,
)

from memcli.adapters.agents import claude_mcp
from memcli.core.schema import OBSERVATION_TYPES

from .conftest import git, git_project, mem, mem_executable, server_env


class Client:
    """A ``ClientSession`` with a running ``mem mcp``, driven from synchronous tests."""

    def __init__(self, portal: BlockingPortal, session: ClientSession, errlog: Path) -> None:
        self.portal = portal
        self.session = session
        self.errlog = errlog

    def call(self, name: str, **arguments: Any) -> CallToolResult:
        return self.portal.call(self.session.call_tool, name, arguments)

    def ok(self, name: str, **arguments: Any) -> Any:
        result = self.call(name, **arguments)
        text = _text(result)
        assert not result.isError, text
        return text if name == "context" else json.loads(text)

    def error(self, name: str, **arguments: Any) -> str:
        result = self.call(name, **arguments)
        assert result.isError, _text(result)
        return _text(result)


def _text(result: CallToolResult) -> str:
    (content,) = result.content
    assert isinstance(content, TextContent)
    return content.text


def start_client(
    stack: ExitStack,
    args: list[str],
    base: Path,
    cwd: Path | None = None,
    roots: list[Path] | None = None,
    env: dict[str, str] | None = None,
    command: str | None = None,
    name: str = "mcp",
) -> Client:
    """``command`` (the installed ``mem``) ``args`` as an MCP host starts it, with ``env``."""
    portal = stack.enter_context(start_blocking_portal())
    errlog = base / "server-stderr.txt"
    log = stack.enter_context(errlog.open("w"))
    params = StdioServerParameters(
        command=command or mem_executable(),
        args=args if command else ["mcp", *args],
        env=server_env(base) if env is None else env,
        cwd=cwd,
    )
    streams: AbstractContextManager[Any] = portal.wrap_async_context_manager(
        stdio_client(params, errlog=log)
    )
    read, write = stack.enter_context(streams)

    async def list_roots(context: RequestContext[ClientSession, Any]) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=f"file://{path}") for path in roots or []])

    session = stack.enter_context(
        portal.wrap_async_context_manager(
            ClientSession(
                read,
                write,
                list_roots_callback=list_roots if roots else None,
                client_info=Implementation(name=name, version="1.0"),
            )
        )
    )
    portal.call(session.initialize)
    return Client(portal, session, errlog)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Client, Path]]:
    base = tmp_path_factory.mktemp("mcp")
    store = base / "store"
    # Made here, not by whichever test saves first: each test passes alone and in any order.
    init = [mem_executable(), "init", "--store", str(store)]
    subprocess.run(init, env=server_env(base), check=True, capture_output=True)
    with ExitStack() as stack:
        yield start_client(stack, ["--store", str(store)], base), store


@pytest.fixture
def client(server: tuple[Client, Path]) -> Client:
    return server[0]


@pytest.mark.e2e
def test_tools_are_listed_in_under_3300_characters(client: Client) -> None:
    listed = client.portal.call(client.session.list_tools)
    assert [tool.name for tool in listed.tools] == [
        "search",
        "timeline",
        "get",
        "save",
        "forget",
        "context",
        "search_transcripts",
        "drafts",
    ]
    size = len(listed.model_dump_json(by_alias=True, exclude_none=True))
    assert size < 3300, size  # 3,000 until the drafts tool
    for tool in listed.tools:
        assert tool.description and len(tool.description) < 300
    search = next(tool for tool in listed.tools if tool.name == "search")
    assert "timeline" in (search.description or "") and "get" in (search.description or "")


RECORDING_MEM = """
import atexit, sys
from pathlib import Path

record = Path(sys.argv[1])
atexit.register(lambda: record.write_text("\\n".join(sorted(sys.modules))))
from memcli.adapters.cli.main import main

sys.argv = ["mem", *sys.argv[2:]]
main()
"""
"""``mem`` that writes, as it exits, the names of every module it imported (to argv[1])."""
STORE_CODE = ("memcli.api", "memcli.service", "memcli.store", "memcli.index", "memcli.retrieval")


@pytest.mark.e2e
def test_the_server_lists_its_tools_without_importing_the_store_code(tmp_path: Path) -> None:
    project = _git_project(tmp_path)
    script, imported = tmp_path / "recording_mem.py", tmp_path / "imported.txt"
    script.write_text(RECORDING_MEM)
    with ExitStack() as stack:
        client = start_client(
            stack,
            [str(script), str(imported), "mcp"],
            tmp_path,
            cwd=project,
            command=sys.executable,
        )
        listed = client.portal.call(client.session.list_tools)
        assert "search" in [tool.name for tool in listed.tools]
    modules = imported.read_text().split()
    assert "memcli.adapters.mcp.server" in modules  # the file is the server's own account
    loaded = [m for m in modules if m.startswith(STORE_CODE) or m in ("apsw", "git", "yaml")]
    assert loaded == []


@pytest.mark.e2e
def test_a_save_is_a_commit_and_search_timeline_get_read_it(
    server: tuple[Client, Path],
) -> None:
    client, store = server
    first = client.ok(
        "save",
        text="The upload proxy drops bodies over 10 MB; chunk the uploads.",
        type="gotcha",
        facts=["the proxy limit is 10 MB"],
        concepts=["upload"],
        files=["src/upload.py"],
        importance=0.8,
    )
    assert first["type"] == "gotcha" and first["action"] == "saved"
    assert first["facts"] == ["the proxy limit is 10 MB"] and first["files"] == ["src/upload.py"]
    assert git(store, "rev-parse", "HEAD").strip() == first["commit"]
    assert first["id"] in git(store, "log", "-1", "--format=%B")
    second = client.ok("save", text="Uploads retry three times before failing.", key="retries")
    hits = client.ok("search", query="upload proxy", type="gotcha")
    assert [hit["id"] for hit in hits] == [first["id"]]
    assert "narrative" not in hits[0]  # the compact index, not the record
    around = client.ok("timeline", anchor=second["id"], before=3, after=0)
    assert [entry["id"] for entry in around][-2:] == [first["id"], second["id"]]
    records = client.ok("get", ids=["retries", first["id"]])
    assert [record["id"] for record in records] == [second["id"], first["id"]]
    assert "chunk the uploads" in records[1]["narrative"]
    again = client.ok("save", text="Uploads retry five times before failing.", key="retries")
    assert again["id"] == second["id"] and again["action"] != "saved"


def hand_edit(store: Path, path: str, lines: str) -> None:
    """Add frontmatter lines to a memory file and commit it, as a person would."""
    file = store / path
    file.write_text(file.read_text().replace("\n---\n", f"\n{lines}\n---\n", 1))
    git(store, "commit", "-q", "-am", "hand edit")


def test_get_answers_strict_json_for_a_hand_edited_infinity(server: tuple[Client, Path]) -> None:
    client, store = server
    saved = client.ok("save", text="The cache never expires.", key="cache-ttl")
    hand_edit(store, saved["path"], "ttl: .inf\nratio: .nan")
    result = client.call("get", ids=["cache-ttl"])
    assert not result.isError
    (record,) = json.loads(_text(result), parse_constant=lambda name: pytest.fail(name))
    assert (record["ttl"], record["ratio"]) == ("Infinity", "NaN")


@pytest.mark.e2e
def test_search_transcripts_finds_what_a_past_session_did(
    server: tuple[Client, Path], tmp_path: Path
) -> None:
    from .test_transcripts import SESSION, conversation, write

    client, store = server
    assert "no transcripts are indexed yet" in client.error("search_transcripts", query="socket")
    folder = tmp_path / "sessions"
    write(folder / f"{SESSION}.jsonl", conversation())
    synced = subprocess.run(
        [mem_executable(), "transcripts", "sync", "--path", str(folder), "--store", str(store)],
        env=server_env(store.parent),
        capture_output=True,
        text=True,
        check=False,
    )
    assert synced.returncode == 0, synced.stderr
    (hit, *_) = client.ok("search_transcripts", query="socket timeout client.py")
    assert hit["ref"].startswith(f"{SESSION}:") and "socket timeout" in hit["snippet"]
    assert client.ok("search_transcripts", query="socket", since="2000-01-01", limit=1)
    assert "limit" in client.error("search_transcripts", query="socket", limit=0)
    assert "needs 'query'" in client.error("search_transcripts")


@pytest.mark.e2e
def test_forget_and_context(client: Client) -> None:
    saved = client.ok("save", text="Deploys go out on Tuesdays only.", type="decision")
    assert "Deploys go out on Tuesdays" in client.ok("context")
    forgotten = client.ok("forget", ids=saved["id"])
    assert [record["id"] for record in forgotten] == [saved["id"]]
    assert saved["id"] in client.error("get", ids=[saved["id"]])


@pytest.mark.e2e
def test_concurrent_saves_and_searches_each_get_their_answer(server: tuple[Client, Path]) -> None:
    client, store = server
    before = int(git(store, "rev-list", "--count", "HEAD"))
    results: dict[str, CallToolResult] = {}

    async def one(label: str, name: str, arguments: dict[str, Any]) -> None:
        results[label] = await client.session.call_tool(name, arguments)

    async def together() -> None:
        async with anyio.create_task_group() as group:
            for n in range(4):
                group.start_soon(one, f"save{n}", "save", {"text": f"Concurrent note {n}."})
                group.start_soon(one, f"search{n}", "search", {"query": "upload"})

    client.portal.call(together)
    assert not any(result.isError for result in results.values())
    assert int(git(store, "rev-list", "--count", "HEAD")) == before + 4
    hits = client.ok("search", query="concurrent note", limit=10)
    assert sum(hit["title"].startswith("Concurrent note") for hit in hits) == 4


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("name", "arguments", "says"),
    [
        ("search", {"query": "x", "type": "bogus"}, "preference"),
        ("save", {"text": "x", "type": "bogus"}, "preference"),
        ("search", {}, "query"),
        ("save", {"title": "no text"}, "text"),
        ("get", {"ids": ["01JDX3Z6NOSUCHMEMORY0000"]}, "01JDX3Z6NOSUCHMEMORY0000"),
        ("search", {"query": "x", "since": "last tuesday"}, "last tuesday"),
        ("search", {"query": "x", "limit": 0}, "limit"),
        ("search", {"query": "x", "colour": "red"}, "colour"),
        ("save", {"text": "api_key = 'sk-live-0123456789abcdef0123456789abcdef'"}, "secret"),
        ("nonesuch", {}, "nonesuch"),
        ("search", {"query": 5}, "query"),
        ("save", {"text": "x", "importance": 2}, "importance"),
        ("save", {"text": "x", "facts": [1, 2]}, "facts"),
        ("timeline", {"anchor": "x", "before": 10_000}, "before"),
    ],
    ids=[
        "bad-type-search",
        "bad-type-save",
        "missing-query",
        "missing-text",
        "unknown-id",
        "bad-since",
        "bad-limit",
        "unknown-argument",
        "secret",
        "unknown-tool",
        "query-not-text",
        "importance-out-of-range",
        "facts-not-text",
        "timeline-too-wide",
    ],
)
def test_bad_calls_are_tool_errors_and_the_server_goes_on(
    client: Client, name: str, arguments: dict[str, Any], says: str
) -> None:
    message = client.error(name, **arguments)
    assert says in message.lower() or says in message
    if says == "preference":
        assert all(kind in message for kind in OBSERVATION_TYPES)
    assert "Traceback" not in message
    assert isinstance(client.ok("search", query="anything"), list)  # still serving


@pytest.mark.e2e
def test_the_store_comes_from_the_clients_root(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    (workspace / ".mem").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with ExitStack() as stack:
        client = start_client(stack, [], tmp_path, cwd=elsewhere, roots=[workspace])
        assert "no memory store" in client.error("search", query="root")  # reading creates none
        client.ok("save", text="Found through the client's root.")  # a save does
        assert len(client.ok("search", query="root")) == 1
    assert "Found through the client's root" in git(workspace / ".mem", "log", "-p")


@pytest.mark.e2e
def test_a_save_records_the_client_as_its_agent_and_the_projects_commit(tmp_path: Path) -> None:
    project = tmp_path / "project"
    head = git_project(project, {"src/app.py": "print('hi')\n"})
    (project / ".mem").mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with ExitStack() as stack:  # the project is the client's root, not the server's folder
        client = start_client(
            stack, [], tmp_path, cwd=elsewhere, roots=[project], name="claude-code"
        )
        saved = client.ok("save", text="The app prints a greeting.", files=["src/app.py"])
    assert (saved["agent"], saved["project_commit"]) == ("claude", head)
    stored = (project / ".mem" / saved["path"]).read_text()
    assert "agent: claude" in stored and head in stored


# ---- mem install claude --mcp ----

EXISTING = {"mcpServers": {"github": {"command": "npx", "args": ["-y", "gh-mcp"]}}}


@pytest.mark.parametrize("indent", [2, 4], ids=["2-spaces", "4-spaces"])
def test_install_then_uninstall_is_byte_identical(tmp_path: Path, indent: int) -> None:
    config = tmp_path / ".mcp.json"
    original = json.dumps(EXISTING, indent=indent) + "\n"
    config.write_text(original)
    change = claude_mcp.install(config)
    data = json.loads(config.read_text())
    assert data["mcpServers"]["github"] == EXISTING["mcpServers"]["github"]
    assert data["mcpServers"]["mem"]["args"][-1] == "mcp" and "+" in change.diff
    assert claude_mcp.is_ours(data["mcpServers"]["mem"])
    assert not claude_mcp.install(config).changed  # idempotent
    claude_mcp.uninstall(config)
    assert config.read_text() == original
    assert not config.with_name(".mcp.json.mem-backup").exists()


def test_another_server_named_mem_is_left_alone(tmp_path: Path) -> None:
    config = tmp_path / ".mcp.json"
    theirs = json.dumps({"mcpServers": {"mem": {"command": "node", "args": ["mem.js"]}}})
    config.write_text(theirs)
    with pytest.raises(Exception, match="another server"):
        claude_mcp.install(config)
    assert not claude_mcp.uninstall(config).changed
    assert config.read_text() == theirs


def test_cli_install_mcp_in_the_project_and_for_the_user(
    tmp_path: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    monkeypatch.chdir(project / "src")
    assert "Would have registered" in mem("install", "claude", "--mcp", "--dry-run").stdout
    assert not (project / ".mcp.json").exists()
    assert "Registered mem's MCP server in" in mem("install", "claude", "--mcp").stdout
    entry = json.loads((project / ".mcp.json").read_text())["mcpServers"]["mem"]
    assert entry["type"] == "stdio" and claude_mcp.is_ours(entry)
    mem("uninstall", "claude", "--mcp")
    assert not (project / ".mcp.json").exists()
    assert not (project / ".claude" / "settings.json").exists()

    user_config = isolated_env / ".claude.json"
    user_config.write_text(json.dumps({"numStartups": 3, "projects": {}}, indent=2))
    mem("install", "claude", "--mcp", "--user")
    data = json.loads(user_config.read_text())
    assert data["numStartups"] == 3 and claude_mcp.is_ours(data["mcpServers"]["mem"])
    data["numStartups"] = 4  # Claude Code rewrites this file all the time
    user_config.write_text(json.dumps(data, indent=2))
    mem("uninstall", "claude", "--mcp", "--user")
    assert json.loads(user_config.read_text()) == {"numStartups": 4, "projects": {}}


# ---- the store's location travels with the registration ----


def _git_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    return project


def _stripped_env(home: Path) -> dict[str, str]:
    """What an MCP host that passes only a few variables gives its servers."""
    return {"PATH": os.environ["PATH"], "HOME": str(home)}


@pytest.mark.e2e
def test_a_registered_server_finds_the_store_in_a_stripped_environment(
    tmp_path: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _git_project(tmp_path)
    monkeypatch.chdir(project)
    mem("save", "Deploys go out on Tuesdays after the freeze")  # under MEM_HOME, not ~/.local
    # The project's server is plain `mem`: the one on the user's PATH.
    monkeypatch.setenv("PATH", f"{Path(mem_executable()).parent}{os.pathsep}{os.environ['PATH']}")
    mem("install", "claude", "--mcp")
    entry = json.loads((project / ".mcp.json").read_text())["mcpServers"]["mem"]
    assert "env" not in entry  # committed: nothing of this machine's
    # Claude Code gives the session, and so its servers, the env of its local settings.
    local = json.loads((project / ".claude" / "settings.local.json").read_text())["env"]
    assert local["MEM_HOME"] == os.environ["MEM_HOME"]
    env = {**_stripped_env(isolated_env), **local}
    with ExitStack() as stack:
        client = start_client(
            stack, entry["args"], tmp_path, cwd=project, env=env, command=entry["command"]
        )
        assert len(client.ok("search", query="deploys tuesdays")) == 1


@pytest.mark.e2e
def test_a_save_never_creates_a_store_where_the_other_commands_do_not_look(
    tmp_path: Path, isolated_env: Path
) -> None:
    project = _git_project(tmp_path)
    with ExitStack() as stack:
        client = start_client(stack, [], tmp_path, cwd=project, env=_stripped_env(isolated_env))
        assert "no memory store" in client.error("search", query="deploys")
        refused = client.error("save", text="Deploys go out on Tuesdays")
        assert "MEM_HOME" in refused and "mem init" in refused
        assert "no memory store" in client.error("search", query="deploys")
    assert not (isolated_env / ".local" / "share" / "mem").exists()


@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_codex_and_gemini_registrations_carry_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_env: Path, agent: str
) -> None:
    monkeypatch.chdir(tmp_path)
    git(tmp_path, "init", "-q")
    monkeypatch.setenv("MEM_STORE", str(tmp_path / "one-store"))
    mem("install", agent, "--user")
    if agent == "codex":
        table = tomllib.loads((isolated_env / ".codex" / "config.toml").read_text())
        env = table["mcp_servers"]["mem"]["env"]
    else:
        settings = json.loads((isolated_env / ".gemini" / "settings.json").read_text())
        env = settings["mcpServers"]["mem"]["env"]
    assert env == {"MEM_HOME": os.environ["MEM_HOME"], "MEM_STORE": str(tmp_path / "one-store")}
    mem("uninstall", agent, "--user")
    # The project's files are committed: Codex is asked to pass the variables on instead.
    mem("install", agent)
    if agent == "codex":
        table = tomllib.loads((tmp_path / ".codex" / "config.toml").read_text())
        assert table["mcp_servers"]["mem"]["env_vars"] == ["MEM_HOME", "MEM_STORE"]
    else:
        settings = json.loads((tmp_path / ".gemini" / "settings.json").read_text())
        assert "env" not in settings["mcpServers"]["mem"]
    mem("uninstall", agent)


@pytest.mark.e2e
def test_a_save_through_mcp_names_its_duplicate_and_supersedes(
    server: tuple[Client, Path],
) -> None:
    client, _ = server
    old = client.ok("save", text="Staging deploys need the VPN; ask ops for access.", type="gotcha")
    twin = client.ok("save", text="staging deploys need the VPN, ask ops for access", type="gotcha")
    assert (twin["action"], twin["duplicate_of"]) == ("duplicate", old["id"])
    new = client.ok(
        "save", text="Staging deploys run from CI now; no VPN.", type="gotcha", supersedes=old["id"]
    )
    assert new["supersedes"] == [old["id"]]
    found = [hit["id"] for hit in client.ok("search", query="staging deploys VPN")]
    assert found[0] == new["id"] and old["id"] not in found


def _rpc(process: subprocess.Popen[bytes], message: JSONRPCMessage) -> None:
    assert process.stdin is not None
    process.stdin.write(message.model_dump_json(by_alias=True, exclude_none=True).encode() + b"\n")
    process.stdin.flush()


@pytest.mark.e2e
@pytest.mark.parametrize("initialized", [True, False])
def test_sigint_stops_the_server_at_once_and_cleanly(tmp_path: Path, initialized: bool) -> None:
    # An agent ending its session sends SIGINT, and SIGTERM soon after when that did not work.
    argv = [mem_executable(), "mcp", "--store", str(tmp_path / "store")]
    pipes = {name: subprocess.PIPE for name in ("stdin", "stdout", "stderr")}
    with subprocess.Popen(argv, env=server_env(tmp_path), **pipes) as process:  # type: ignore[call-overload]
        try:
            assert process.stdout is not None
            params = InitializeRequestParams(
                protocolVersion=LATEST_PROTOCOL_VERSION,
                capabilities=ClientCapabilities(),
                clientInfo=Implementation(name="test", version="1.0"),
            )
            request = JSONRPCRequest(
                jsonrpc="2.0", id=1, method="initialize", params=params.model_dump(by_alias=True)
            )
            _rpc(process, JSONRPCMessage(request))
            answer = json.loads(process.stdout.readline())  # the SDK is loaded and serving
            assert answer["id"] == 1 and answer["result"]["serverInfo"]["name"] == "mem"
            if initialized:
                done = JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized")
                _rpc(process, JSONRPCMessage(done))
                _rpc(
                    process,
                    JSONRPCMessage(JSONRPCRequest(jsonrpc="2.0", id=2, method="tools/list")),
                )
                assert json.loads(process.stdout.readline())["id"] == 2
            # Idle now, waiting for standard input, which the client keeps open.
            process.send_signal(signal.SIGINT)
            returncode = process.wait(timeout=5)  # the agent waits far less; generous under load
            stderr = process.stderr.read()
        finally:
            if process.poll() is None:
                process.kill()
    assert returncode in (0, 130) and b"Traceback" not in stderr, stderr.decode()
