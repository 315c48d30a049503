"""Where Claude Code and Codex keep their session transcripts.

Claude Code: ``$CLAUDE_CONFIG_DIR`` (else ``~/.claude``) ``/projects/<dir>/``, where
``<dir>`` is the project's absolute path with every character other than an ASCII
letter or digit written as ``-`` (``/home/u/my.proj`` -> ``-home-u-my-proj``); a
session is ``<id>.jsonl`` and its subagents ``<id>/subagents/*.jsonl``.
Codex: ``$CODEX_HOME`` (else ``~/.codex``) ``/sessions/YYYY/MM/DD/rollout-*.jsonl``,
every project together, and ``/archived_sessions/rollout-*.jsonl`` (a session Codex
archived is moved there); the first record of each file names its working directory.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from memcli.core.regular import open_regular

_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")
MAX_FIRST_LINE_BYTES = 4 * 1024 * 1024  # session_meta may carry long instructions


def claude_home() -> Path:
    """``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def claude_project_dir(project: Path) -> Path:
    """The folder of Claude Code's transcripts for sessions started in ``project``."""
    return claude_home() / "projects" / _NOT_ALNUM.sub("-", str(project))


def codex_home() -> Path:
    """``$CODEX_HOME``, else ``~/.codex``."""
    configured = os.environ.get("CODEX_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".codex"


def claude_session_files(directory: Path) -> list[Path]:
    """A project folder's session files and its subagents' (``*/subagents/*.jsonl``)."""
    if not directory.is_dir():
        return []
    found = [*directory.glob("*.jsonl"), *directory.glob("*/subagents/*.jsonl")]
    return sorted((path for path in found if path.is_file()), key=str)


def codex_session_files(root: Path) -> list[Path]:
    """Every rollout under a Codex home, oldest first: ``sessions/YYYY/MM/DD/rollout-*.jsonl``,
    then the archived ones (``archived_sessions/rollout-*.jsonl``)."""
    found: list[Path] = []
    sessions, archived = root / "sessions", root / "archived_sessions"
    if sessions.is_dir():
        dated = sessions.glob("[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/rollout-*.jsonl")
        found += sorted((path for path in dated if path.is_file()), key=str)
    if archived.is_dir():
        found += sorted(
            (path for path in archived.glob("rollout-*.jsonl") if path.is_file()), key=str
        )
    return found


def codex_session_cwd(path: Path) -> str | None:
    """The working directory named in a rollout's first record, or None (a bounded read)."""
    try:
        with open_regular(path) as handle:
            line = handle.readline(MAX_FIRST_LINE_BYTES + 1)
    except OSError:
        return None
    if len(line) > MAX_FIRST_LINE_BYTES:
        return None
    try:
        record = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict):
        return None
    payload = record.get("payload", record)
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    return cwd if isinstance(cwd, str) and cwd else None
