"""Connecting mem to Codex: its hooks in ``hooks.json``, ``mem mcp`` in ``config.toml``.

What Codex reads (openai/codex, ``codex-rs/``):

- Where: ``hooks.json`` beside each config layer's ``config.toml``: the user's
  ``$CODEX_HOME`` (default ``~/.codex``) and a project's ``.codex/``
  (hooks/src/engine/discovery.rs ``load_hooks_json``). A project's layer is
  loaded only in a trusted project (``[projects."PATH"] trust_level``).
- Shape: ``{"hooks": {EVENT: [{"matcher": ..., "hooks": [{"type": "command",
  "command": ..., "timeout": SECONDS}]}]}}``, Claude Code's; no timeout means
  600 s (config/src/hook_config.rs ``HooksFile``, ``HookHandlerConfig``).
  Events: PreToolUse, PermissionRequest, PostToolUse, PreCompact, PostCompact,
  SessionStart, SessionEnd (newer versions), UserPromptSubmit, SubagentStart,
  SubagentStop, Stop. An event a version does not know is ignored.
- Hooks are on by default (``[features] hooks``, formerly the experimental
  ``codex_hooks``), but a user's or project's hook runs only once trusted: its
  hash is recorded under ``[hooks.state."FILE:event:GROUP:HANDLER"]`` in
  ``config.toml`` when the user trusts it in ``/hooks`` (or the start-up
  review); an untrusted or changed hook is skipped silently
  (discovery.rs ``hook_trust_status``). mem never writes that trust itself.
- Input on stdin (hooks/schema/generated/*.command.input.schema.json):
  ``session_id``, ``transcript_path`` (the rollout file, or null), ``cwd``,
  ``hook_event_name``, ``model``, ``permission_mode``; SessionStart adds
  ``source`` (startup, resume, clear, compact), UserPromptSubmit ``turn_id``
  and ``prompt``, SessionEnd ``reason``, PostCompact ``trigger`` (no summary).
- Answer: ``{"hookSpecificOutput": {"hookEventName": EVENT,
  "additionalContext": TEXT}}`` (plain stdout is taken as context too; stdout
  that looks like JSON but does not parse fails the hook), given to the model
  as a developer message (hooks/src/events/session_start.rs). Text over 2,500
  tokens, counted as a token per 4 bytes, is written to
  ``$CODEX_HOME/hook_outputs/`` and the model gets a cut preview
  (hooks/src/output_spill.rs): protocol.py keeps mem's text under that.
- MCP servers: ``[mcp_servers.NAME]`` in the same ``config.toml``, ``command``
  and ``args`` (optional ``env``, ``cwd``, ``startup_timeout_sec``,
  ``tool_timeout_sec``, ``enabled``) (docs/config.md).

``config.toml`` is someone's hand-written file: it is never rewritten through a
TOML serializer (comments and order would be lost). mem appends its own table
as a marked block of text and removes exactly that block again; the result is
parsed before it is written, and a ``[mcp_servers.mem]`` that mem did not write
is left alone.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memcli.adapters.agents.claude_settings import project_top
from memcli.adapters.agents.config_file import (
    BACKUP_SUFFIX,
    SettingsChange,
    mem_command,
    resolve_links,
    write_bytes,
)
from memcli.adapters.agents.hook_settings import HookSettings
from memcli.core.errors import MemError

CODEX_HOOKS = HookSettings("codex", {"SessionStart": 10, "UserPromptSubmit": 10, "SessionEnd": 5})
"""The events mem answers for Codex, with their timeouts in seconds."""


def trust_note(*, user: bool) -> str:
    """What the user still has to do in Codex for the hooks to run."""
    note = "Codex runs a new or changed hook only once you trust it: /hooks in Codex"
    note += " (or its start-up review)"
    return note + ("." if user else "; and it reads .codex/ in a trusted project only.")


SERVER_NAME = "mem"
BLOCK_START = "# mem's MCP server (`mem uninstall codex` removes this block)\n"
MAX_CONFIG_BYTES = 4 << 20


def codex_home() -> Path:
    configured = os.environ.get("CODEX_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".codex"


def paths(*, user: bool, cwd: Path) -> tuple[Path, Path]:
    """``hooks.json`` and ``config.toml``: the user's (``$CODEX_HOME``) or the project's."""
    folder = codex_home() if user else project_top(cwd) / ".codex"
    return folder / "hooks.json", folder / "config.toml"


def server_block() -> str:
    """mem's ``[mcp_servers.mem]`` table, as the block of text it adds."""
    import shlex

    words = [*shlex.split(mem_command()), "mcp"]
    args = ", ".join(_toml_string(word) for word in words[1:])
    return (
        f"{BLOCK_START}[mcp_servers.{SERVER_NAME}]\n"
        f"command = {_toml_string(words[0])}\nargs = [{args}]\n"
    )


def install_server(path: Path, *, dry_run: bool = False) -> SettingsChange:
    """Append mem's server block to ``config.toml`` (nothing when it is there)."""
    real = resolve_links(path)
    original = _read(real)
    text = original.decode("utf-8") if original is not None else ""
    current = _servers(real, text).get(SERVER_NAME)
    if current is not None:
        if BLOCK_START in text or _is_ours(current):
            return SettingsChange(path, "", False)  # registered already
        raise MemError(
            f"{path}: mcp_servers.{SERVER_NAME} is another server; mem leaves it untouched"
        )
    separator = (
        "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
    )
    new = text + separator + server_block()
    if SERVER_NAME not in _servers(real, new):
        raise MemError(f"{path}: mem's table would not be read as intended; add it by hand")
    backup = real.with_name(real.name + BACKUP_SUFFIX) if original else None
    change = write_bytes(real, original, new.encode("utf-8"), dry_run=dry_run, backup=backup)
    return change._replace(path=path)


def uninstall_server(path: Path, *, dry_run: bool = False) -> SettingsChange:
    """Take exactly mem's block out of ``config.toml``; the original bytes when nothing changed."""
    real = resolve_links(path)
    original = _read(real)
    if original is None:
        return SettingsChange(path, "", False)
    text = original.decode("utf-8")
    start = text.find(BLOCK_START)
    if start < 0:
        return SettingsChange(path, "", False)
    end = _block_end(text, start)
    before, after = text[:start], text[end:]
    if not after and before.endswith("\n\n"):
        before = before[:-1]  # the blank line mem put before its block
    new = before + after
    if SERVER_NAME in _servers(real, new):
        raise MemError(f"{path}: mcp_servers.{SERVER_NAME} would stay; remove it by hand")
    backup = real.with_name(real.name + BACKUP_SUFFIX)
    if not new.strip() and not backup.exists():
        import difflib

        lines = text.splitlines(keepends=True)
        diff = "".join(difflib.unified_diff(lines, [], fromfile=str(path), tofile="/dev/null"))
        if not dry_run:
            real.unlink()  # mem's install created the file
        return SettingsChange(path, diff, True)
    # The original bytes when only mem's block (and the blank line before it) is gone.
    if backup.exists() and backup.read_bytes().rstrip(b"\n") == new.encode("utf-8").rstrip(b"\n"):
        new = backup.read_text(encoding="utf-8")
    if backup.exists() and backup.read_bytes() == new.encode("utf-8"):
        change = write_bytes(
            real, original, new.encode("utf-8"), dry_run=dry_run, remove_backup=backup
        )
    else:
        change = write_bytes(real, original, new.encode("utf-8"), dry_run=dry_run)
    return change._replace(path=path)


def _block_end(text: str, start: int) -> int:
    """Where mem's block ends: after its table's lines (up to a blank line or a new table)."""
    position = text.index("\n", start) + 1  # the marker line
    position = text.index("\n", position) + 1 if "\n" in text[position:] else len(text)
    while position < len(text):
        line_end = text.find("\n", position)
        line_end = len(text) if line_end < 0 else line_end + 1
        line = text[position:line_end].strip()
        if not line or line.startswith("["):
            break
        position = line_end
    return position


def _read(path: Path) -> bytes | None:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    if size > MAX_CONFIG_BYTES:
        raise MemError(
            f"{path} is larger than {MAX_CONFIG_BYTES >> 20} MB; mem leaves it untouched"
        )
    data = path.read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise MemError(f"{path} is not UTF-8; mem leaves it untouched") from None
    return data


def _servers(path: Path, text: str) -> dict[str, Any]:
    import tomllib

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise MemError(f"{path} is not valid TOML ({exc}); mem leaves it untouched") from None
    servers = data.get("mcp_servers", {})
    if not isinstance(servers, dict):
        raise MemError(f"{path}: 'mcp_servers' is not a table; fix the file by hand first")
    return servers


def _is_ours(entry: Any) -> bool:
    from memcli.adapters.agents.claude_mcp import is_ours

    return is_ours(entry)


def _toml_string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for these characters)."""
    import json

    return json.dumps(value, ensure_ascii=False)
