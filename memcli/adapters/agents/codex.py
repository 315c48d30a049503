"""Connecting mem to Codex: its hooks in ``hooks.json``, ``mem mcp`` in ``config.toml``.

What Codex reads (openai/codex, ``codex-rs/``):

- Where: ``hooks.json`` beside each config layer's ``config.toml``: the user's
  ``$CODEX_HOME`` (default ``~/.codex``) and a project's ``.codex/``
  (hooks/src/engine/discovery.rs ``load_hooks_json``). A project's layer is
  loaded only in a trusted project (``[projects."PATH"] trust_level``).
- Shape: ``{"hooks": {EVENT: [{"matcher": ..., "hooks": [{"type": "command",
  "command": ..., "timeout": SECONDS}]}]}}``, Claude Code's; no timeout means
  600 s (config/src/hook_config.rs ``HooksFile``, ``HookHandlerConfig``;
  ``timeoutSec`` is read too). Events: PreToolUse, PermissionRequest,
  PostToolUse, PreCompact, PostCompact, SessionStart, SessionEnd (its input
  schema is in the source; released builds may not fire it yet),
  UserPromptSubmit, SubagentStart, SubagentStop, Stop. An event a version does
  not know is ignored (serde skips the key). A layer's ``config.toml`` may
  declare the same events under ``[hooks]``; with both, Codex runs both and
  warns at every start (discovery.rs): ``mem install codex`` says so.
- Hooks are on by default (``[features] hooks``, formerly the experimental
  ``codex_hooks``), but a user's or project's hook runs only once trusted: its
  hash is recorded under ``[hooks.state."FILE:event:GROUP:HANDLER"]`` in
  the user's ``config.toml`` when the user trusts it in ``/hooks`` (or the
  start-up review; config/src/hook_edit.rs, a toml_edit write); an untrusted or
  changed hook is skipped silently (discovery.rs ``hook_trust_status``). The
  hash covers the event, matcher, command and timeout, so a hook whose
  command changes (mem moved) must be trusted again. mem appends its groups
  last, and an uninstall leaves an empty group in the place of one that
  others follow, so no one else's hook moves to another index (the key) and
  loses its trust. mem never writes that trust itself.
- Running (hooks/src/engine/command_runner.rs): the command string through
  the user's shell (``$SHELL -lc``; newer versions the default shell), in the
  session's directory; the input is written to stdin, which is then closed,
  and Codex reads stdout and stderr to their end (a detached child must not
  hold them: mem's get /dev/null) within the timeout.
- Input on stdin (hooks/schema/generated/*.command.input.schema.json):
  ``session_id``, ``transcript_path`` (the rollout file, or null), ``cwd``,
  ``hook_event_name``, ``model``, ``permission_mode``; SessionStart adds
  ``source`` (startup, resume, clear, compact: core queues a SessionStart
  with ``compact`` after replacing the history), UserPromptSubmit ``turn_id``
  and ``prompt``, SessionEnd ``reason`` (``other``), PostCompact ``trigger``
  (no summary). SessionEnd has no output schema: Codex reads no answer.
- Answer: ``{"hookSpecificOutput": {"hookEventName": EVENT,
  "additionalContext": TEXT}}`` (plain stdout is taken as context too; stdout
  that looks like JSON but does not parse fails the hook), given to the model
  as a developer message (hooks/src/events/session_start.rs). Text over 2,500
  tokens, counted as a token per 4 bytes, is written to
  ``$CODEX_HOME/hook_outputs/`` and the model gets a cut preview
  (hooks/src/output_spill.rs): protocol.py keeps mem's text under that.
- MCP servers: ``[mcp_servers.NAME]`` in the same ``config.toml``, ``command``
  and ``args`` (optional ``env``, ``cwd``, ``startup_timeout_sec``,
  ``tool_timeout_sec``, ``enabled``) (docs/config.md, config/src/mcp_types.rs
  ``RawMcpServerConfig``). A server gets only a few of Codex's variables (HOME,
  PATH, ...; ``env_vars`` lists more) and its ``env``: mem's table names mem's
  data folder there. Codex waits 10 s for a server's ``initialize`` and
  tool list by default (core ``DEFAULT_STARTUP_TIMEOUT``); ``mem mcp`` took
  1.0-1.6 s, and 3.5-4.8 s with no bytecode cached yet, on a busy 2-core
  machine, so mem's table asks for 30.

``config.toml`` is someone's hand-written file: it is never rewritten through a
TOML serializer (comments and order would be lost). mem appends its own table
as a marked block of text and removes exactly that block again; the result is
parsed before it is written, and a ``[mcp_servers.mem]`` that mem did not write
is left alone. Installing again rewrites mem's block in place when it differs
(mem moved, a new setting), keeping lines someone added to it. Only the first
install keeps a backup (of the file before mem), here and in ``hooks.json``:
that is what an uninstall gives back when nothing else changed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memcli.adapters.agents.claude_settings import project_top
from memcli.adapters.agents.config_file import (
    MACHINE_VARIABLES,
    SettingsChange,
    backup_path,
    mem_argv,
    read_regular,
    remove_file,
    resolve_links,
    server_env,
    write_bytes,
)
from memcli.adapters.agents.hook_settings import HookSettings
from memcli.adapters.agents.pretool import MATCHERS as GUARDED_TOOLS
from memcli.core.errors import MemError

CODEX_HOOKS = HookSettings(
    "codex",
    {"SessionStart": 10, "UserPromptSubmit": 10, "SessionEnd": 5, "PreToolUse": 5},
    keep_positions=True,
    matchers={"PreToolUse": GUARDED_TOOLS["codex"]},
)
"""The events mem answers for Codex, with their timeouts in seconds."""


def trust_note(*, user: bool) -> str:
    """What the user still has to do in Codex for the hooks to run."""
    note = "Codex runs a new or changed hook only once you trust it: /hooks in Codex"
    note += " (or its start-up review)"
    return note + ("." if user else "; and it reads .codex/ in a trusted project only.")


SERVER_NAME = "mem"
BLOCK_START = "# mem's MCP server (`mem uninstall codex` removes this block)\n"
_MARKER = BLOCK_START.rstrip("\n")
"""The block's first line, found whatever the file's line endings."""
MAX_CONFIG_BYTES = 4 << 20
STARTUP_TIMEOUT_SEC = 30
"""Seconds Codex waits for ``mem mcp`` to start (its default, 10, is near what a first start
takes on a slow or busy machine, before Python's bytecode is cached)."""


def codex_home() -> Path:
    configured = os.environ.get("CODEX_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".codex"


def paths(*, user: bool, cwd: Path) -> tuple[Path, Path]:
    """``hooks.json`` and ``config.toml``: the user's (``$CODEX_HOME``) or the project's."""
    folder = codex_home() if user else project_top(cwd) / ".codex"
    return folder / "hooks.json", folder / "config.toml"


def server_table(*, shared: bool = False) -> dict[str, Any]:
    """What mem's ``[mcp_servers.mem]`` table holds.

    Codex passes its servers a few variables only: the user's table names mem's data
    folder in ``env``; a project's (committed: ``shared``) names no path of this machine,
    and asks Codex to pass on the variables naming mem's folders (``env_vars``) instead.
    """
    words = [*mem_argv(shared=shared), "mcp"]
    table: dict[str, Any] = {
        "command": words[0],
        "args": words[1:],
        "startup_timeout_sec": STARTUP_TIMEOUT_SEC,
    }
    if shared:
        return {**table, "env_vars": list(MACHINE_VARIABLES)}
    return {**table, "env": server_env()}


def server_block(*, shared: bool = False) -> str:
    """mem's ``[mcp_servers.mem]`` table, as the block of text it adds."""
    table = server_table(shared=shared)
    args = ", ".join(_toml_string(word) for word in table["args"])
    if shared:
        names = ", ".join(_toml_string(name) for name in table["env_vars"])
        passed = f"env_vars = [{names}]"
    else:
        env = ", ".join(f"{name} = {_toml_string(value)}" for name, value in table["env"].items())
        passed = f"env = {{ {env} }}"
    return (
        f"{BLOCK_START}[mcp_servers.{SERVER_NAME}]\n"
        f"command = {_toml_string(table['command'])}\nargs = [{args}]\n"
        f"startup_timeout_sec = {table['startup_timeout_sec']}\n{passed}\n"
    )


def install_server(path: Path, *, dry_run: bool = False, shared: bool = False) -> SettingsChange:
    """Append mem's server block to ``config.toml``; a block of mem's there is kept current
    (``shared``: a project's, as ``server_table``)."""
    real = resolve_links(path)
    original = _read(real)
    text = original.decode("utf-8") if original is not None else ""
    current = _servers(real, text).get(SERVER_NAME)
    if current is not None:
        start = text.find(_MARKER)
        if start >= 0:
            return _update_block(path, real, original, text, start, dry_run=dry_run, shared=shared)
        if _is_ours(current):
            return SettingsChange(path, "", False)  # registered by hand: left as it is
        raise MemError(
            f"{path}: mcp_servers.{SERVER_NAME} is another server; mem leaves it untouched"
        )
    eol = _line_ending(text)
    separator = (
        "" if not text or text.endswith(eol * 2) else (eol if text.endswith("\n") else eol * 2)
    )
    new = text + separator + server_block(shared=shared).replace("\n", eol)
    if not _reads_as_ours(real, new):
        raise MemError(f"{path}: mem's table would not be read as intended; add it by hand")
    backup = backup_path(real) if original is not None else None
    change = write_bytes(real, original, new.encode("utf-8"), dry_run=dry_run, backup=backup)
    return change._replace(path=path)


def _reads_as_ours(path: Path, text: str) -> bool:
    """Whether ``text`` (the file with mem's block) is TOML holding mem's table.

    The file itself was read: TOML that no longer reads came of mem's block (an inline
    ``mcp_servers = {...}`` cannot take another table), so it is not called broken.
    """
    try:
        return SERVER_NAME in _servers(path, text)
    except MemError:
        return False


def _line_ending(text: str) -> str:
    """The file's line ending: CRLF when its first line ends so, else LF."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _update_block(
    path: Path,
    real: Path,
    original: bytes | None,
    text: str,
    start: int,
    *,
    dry_run: bool,
    shared: bool = False,
) -> SettingsChange:
    """mem's block rewritten as this mem writes it (another path to ``mem``, a new setting).

    No new backup: the one kept holds the file from before mem's first install, which
    is what an uninstall gives back.
    """
    end = _block_end(text, start)
    intended = server_table(shared=shared)
    # Lines someone added to mem's table (``enabled = false``, ``env``) stay; mem's own
    # ``env`` or ``env_vars`` line (the other scope's way) goes.
    ours = {*intended, "env", "env_vars"}
    added = [
        line
        for line in text[start:end].splitlines(keepends=True)[2:]
        if line.split("=", 1)[0].strip() not in ours or not _mem_line(line)
    ]
    block = server_block(shared=shared).replace("\n", _line_ending(text)) + "".join(added)
    if text[start:end] == block:
        return SettingsChange(path, "", False)
    new = text[:start] + block + text[end:]
    table = _servers(real, new).get(SERVER_NAME)
    if not isinstance(table, dict) or any(table.get(k) != v for k, v in intended.items()):
        raise MemError(f"{path}: mem's table would not be read as intended; change it by hand")
    return write_bytes(real, original, new.encode("utf-8"), dry_run=dry_run)._replace(path=path)


def _mem_line(line: str) -> bool:
    """Whether a line of mem's table is one mem writes (a key of its own, or its ``env`` or
    ``env_vars`` naming only mem's variables)."""
    key, _, value = line.partition("=")
    if key.strip() not in ("env", "env_vars"):
        return True
    names = {word.strip(" {}[]\"'\r\n") for word in value.replace("=", ",").split(",")}
    return bool(names & set(MACHINE_VARIABLES))


def registers_server(path: Path) -> bool:
    """Whether ``config.toml`` at ``path`` holds mem's ``[mcp_servers.mem]``."""
    real = resolve_links(path)
    original = _read(real) if real.is_file() else None
    if original is None:
        return False
    return _is_ours(_servers(real, original.decode("utf-8")).get(SERVER_NAME))


def toml_hook_events(path: Path) -> list[str]:
    """Events ``config.toml`` itself declares hooks for (Codex's other way to write them).

    Codex loads both a layer's ``hooks.json`` and its ``[hooks]`` tables, and warns at
    every start that the layer uses two representations. ``[hooks.state]`` is Codex's
    own record of trusted hooks, not a declaration. A file mem cannot read: none.
    """
    try:
        original = _read(resolve_links(path))
        data = _parse(original.decode("utf-8")) if original is not None else {}
    except (MemError, ValueError, RecursionError):  # TOMLDecodeError is a ValueError
        return []
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    return [event for event, groups in hooks.items() if event != "state" and groups]


def uninstall_server(path: Path, *, dry_run: bool = False) -> SettingsChange:
    """Take exactly mem's block out of ``config.toml``; the original bytes when nothing changed."""
    real = resolve_links(path)
    original = _read(real)
    backup = backup_path(real)
    start = original.decode("utf-8").find(_MARKER) if original else -1
    if original is None or start < 0:
        return SettingsChange(path, "", False, backup if backup.exists() else None)
    text = original.decode("utf-8")
    end = _block_end(text, start)
    before, after = text[:start], text[end:]
    eol = _line_ending(text)
    if not after and before.endswith(eol * 2):
        before = before[: -len(eol)]  # the blank line mem put before its block
    new = (before + after).encode("utf-8")
    if SERVER_NAME in _servers(real, new.decode("utf-8")):
        raise MemError(f"{path}: mcp_servers.{SERVER_NAME} would stay; remove it by hand")
    if not new.strip() and not backup.exists():
        return remove_file(real, original, dry_run=dry_run)._replace(path=path)  # mem made it
    # The original bytes when only mem's block (and the blank line before it) is gone.
    kept = read_regular(backup)
    if kept is not None and kept.rstrip(b"\r\n") == new.rstrip(b"\r\n"):
        new = kept
    change = write_bytes(real, original, new, dry_run=dry_run, remove_backup=backup)
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
    data = read_regular(path, MAX_CONFIG_BYTES)
    if data is None:
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise MemError(f"{path} is not UTF-8; mem leaves it untouched") from None
    return data


def _parse(text: str) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(text)


def _servers(path: Path, text: str) -> dict[str, Any]:
    import tomllib

    try:
        data = _parse(text)
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
