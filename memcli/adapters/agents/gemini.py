"""Connecting mem to Gemini CLI: its hooks and ``mcpServers`` in ``settings.json``.

What Gemini CLI reads and sends, from its repository (google-gemini/gemini-cli):

- Settings: ``~/.gemini/settings.json`` (the user's) and the project's
  ``.gemini/settings.json``, merged with the system's and extensions' (docs/hooks/
  index.md). They are parsed after ``strip-json-comments`` (packages/cli/src/
  config/settings.ts), so a file may hold comments: mem does not rewrite such a
  file (they would be lost) and says so instead.
- Hooks (docs/hooks/reference.md, packages/core/src/hooks/types.ts): Claude Code's
  shape, ``hooks.EVENT = [{matcher?, sequential?, hooks: [{type: "command",
  command, name?, timeout?, description?}]}]`` with ``timeout`` in milliseconds
  (default 60,000); mem names its hooks mem-context, mem-recall and mem-summary.
  Every hook gets on stdin ``session_id``, ``transcript_path``, ``cwd``,
  ``hook_event_name``, ``timestamp`` (hookEventHandler.ts, createBaseInput);
  SessionStart adds ``source`` (startup, resume, clear), BeforeAgent ``prompt``,
  PreCompress ``trigger`` (auto, manual), SessionEnd ``reason`` (exit, clear,
  logout, prompt_input_exit, other). Exit 0 with JSON on stdout, which is parsed
  as JSON: mem answers ``{}`` when it has nothing to add (a folder without a
  store), with nothing on stderr. ``hookSpecificOutput.additionalContext`` is
  added to the model's context (SessionStart: the first turn; BeforeAgent:
  appended to the prompt for this turn). PreCompress is advisory (fired before
  compression, output ignored but ``systemMessage``); SessionEnd is best effort
  (the CLI does not wait for it).
- ``mcpServers.NAME``: ``command``, ``args``, ``env``, ``cwd``, ``timeout`` (ms),
  ``trust`` (skip confirmations; mem leaves it to the user), or ``url`` /
  ``httpUrl`` for remote servers (docs/tools/mcp-server.md).
- ``transcript_path``: the session file of ChatRecordingService,
  ``~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`` (JSONL; older
  versions wrote one ``.json`` document); its records are read by
  capture/transcripts/gemini.py.

mem registers SessionStart (context), BeforeAgent (recall) and SessionEnd (a
detached summary of the session file); PreCompress carries no summary (protocol.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memcli.adapters.agents.claude_mcp import is_ours, mcp_servers, server_entry
from memcli.adapters.agents.claude_settings import project_top
from memcli.adapters.agents.config_file import (
    SettingsChange,
    finish_uninstall,
    merged_entry,
    read_json,
    read_regular,
    resolve_links,
    shared_entry,
    write_json,
)
from memcli.adapters.agents.hook_settings import HookSettings
from memcli.adapters.agents.pretool import MATCHERS as GUARDED_TOOLS
from memcli.core.errors import MemError

GEMINI_HOOKS = HookSettings(
    "gemini",
    {
        "SessionStart": 10_000,
        "BeforeAgent": 10_000,
        "PreCompress": 10_000,
        "SessionEnd": 10_000,
        "BeforeTool": 5_000,
    },
    names={
        "SessionStart": "mem-context",
        "BeforeAgent": "mem-recall",
        "PreCompress": "mem-compression",
        "SessionEnd": "mem-summary",
        "BeforeTool": "mem-guards",
    },
    matchers={"BeforeTool": GUARDED_TOOLS["gemini"]},
)
"""The events mem answers for Gemini CLI, with their timeouts in milliseconds and the name
each hook is shown by."""
SERVER_NAME = "mem"


def settings_path(*, user: bool, cwd: Path) -> Path:
    """``~/.gemini/settings.json``, or ``.gemini/settings.json`` at the project's top."""
    folder = Path.home() / ".gemini" if user else project_top(cwd) / ".gemini"
    return folder / "settings.json"


def install(
    path: Path,
    *,
    dry_run: bool = False,
    with_mcp: bool = True,
    worker: bool = False,
    shared: bool = False,
) -> SettingsChange:
    """mem's hooks and (``with_mcp``) its MCP server into settings.json, in one write.

    ``shared``: the project's file, which is committed: plain ``mem``, and no ``env``
    (Gemini CLI gives its servers its own environment, where mem finds its folders).
    """
    real = resolve_links(path)
    original, data = _read(real)
    servers = data.get("mcpServers")
    registered = isinstance(servers, dict) and is_ours(servers.get(SERVER_NAME))
    # Only the first install backs the file up: the file as it was before mem.
    first = not GEMINI_HOOKS.installed(data) and not registered
    GEMINI_HOOKS.add(real, data, worker=worker, shared=shared)
    if with_mcp:
        _add_server(path, real, data, shared=shared)
    change = write_json(real, original, data, dry_run=dry_run, keep_backup=first)
    return change._replace(path=path)


def _add_server(path: Path, real: Path, data: dict[str, Any], *, shared: bool) -> None:
    """mem's entry in ``mcpServers``; one of mem's there is kept current."""
    servers = mcp_servers(real, data, create=True)
    current = servers.get(SERVER_NAME)
    if current is not None and not is_ours(current):
        raise MemError(
            f"{path}: mcpServers.{SERVER_NAME} is another server; mem leaves it untouched"
        )
    entry = {key: value for key, value in server_entry(shared=shared).items() if key != "type"}
    merged = merged_entry(current, entry)
    servers[SERVER_NAME] = shared_entry(merged) if shared else merged


def uninstall(path: Path, *, dry_run: bool = False, with_mcp: bool = True) -> SettingsChange:
    """Exactly mem's hooks and (``with_mcp``) its server out; the original bytes when
    nothing else changed."""
    real = resolve_links(path)
    if not real.exists():
        return SettingsChange(path, "", False)
    original, data = _read(real)
    assert original is not None
    GEMINI_HOOKS.remove(data)
    servers = mcp_servers(real, data, create=False)
    if with_mcp and is_ours(servers.get(SERVER_NAME)):
        del servers[SERVER_NAME]
        if not servers:
            del data["mcpServers"]
    return finish_uninstall(real, original, data, dry_run=dry_run)._replace(path=path)


def _read(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    try:
        return read_json(path)
    except MemError:
        data = read_regular(path) or b""  # a path that is no file: its own refusal again
        lines = data.decode("utf-8", errors="replace").splitlines()
        if any(line.lstrip().startswith(("//", "/*")) for line in lines):
            raise MemError(
                f"{path} holds comments, which mem would lose; add mem's hooks by hand "
                "(`mem install gemini --dry-run` on a copy without them shows what)"
            ) from None
        raise
