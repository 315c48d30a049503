"""Where a memory comes from: the agent that wrote it and the project's git commit.

Both are looked up cheaply and never fail: an unknown agent or a directory outside
any git repository simply gives None.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from memcli.core.schema import COMMIT_RE, KEY_RE

GIT_TIMEOUT = 2.0
"""Seconds one ``git rev-parse`` may take before the commit is left out."""


def detected_agent() -> str | None:
    """The agent whose tool runs this process, from what it sets in the environment.

    Claude Code sets ``CLAUDECODE=1`` in its Bash tool's shell. ``MEM_AGENT`` names
    any other agent (or overrides the detection).
    """
    named = os.environ.get("MEM_AGENT", "").strip()
    if named and KEY_RE.fullmatch(named):
        return named
    if os.environ.get("CLAUDECODE") == "1":
        return "claude"
    return None


MCP_CLIENTS = {
    "claude-code": "claude",
    "codex-mcp-client": "codex",
    "gemini-cli-mcp-client": "gemini",
}
"""The names these agents give themselves as MCP clients, and mem's names for them."""


def agent_of_client(name: object) -> str | None:
    """The agent an MCP client is, from the name it gives in ``initialize`` (clientInfo):
    claude, codex or gemini for those agents, else that name made fit for the field
    (lower case; runs of other characters than letters, digits, '.', '_', '-' as '-')."""
    if not isinstance(name, str):
        return None
    lowered = name.strip().lower()
    for known, agent in MCP_CLIENTS.items():
        if lowered == known or lowered.startswith(f"{known}-"):
            return agent
    cleaned = re.sub(r"[^a-z0-9._-]+", "-", lowered).strip("-._")[:100]
    return cleaned if KEY_RE.fullmatch(cleaned) else None


def _git(args: list[str], cwd: Path, timeout: float) -> str | None:
    from memcli.store.git import run_project_git

    try:
        done = run_project_git(["git", *args], cwd, timeout)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "replace").strip()


def working_directory() -> Path | None:
    """The current directory, or None when it is gone."""
    try:
        return Path.cwd()
    except OSError:
        return None


def project_top(cwd: Path, timeout: float = GIT_TIMEOUT) -> Path | None:
    """The top directory of the git repository holding ``cwd``, or None."""
    top = _git(["rev-parse", "--show-toplevel"], cwd, timeout)
    return Path(top) if top else None


def project_commit(
    cwd: Path, *, store_root: Path | None = None, timeout: float = GIT_TIMEOUT
) -> str | None:
    """HEAD of the git repository holding ``cwd``, or None (no repository, no commit yet).

    When that repository is the store itself (``store_root``), there is no project
    commit to record: None as well.
    """
    answer = _git(["rev-parse", "--show-toplevel", "HEAD"], cwd, timeout)
    if not answer:
        return None
    lines = answer.splitlines()
    if len(lines) != 2 or not COMMIT_RE.fullmatch(lines[1]):
        return None
    if store_root is not None:
        try:
            if Path(lines[0]).resolve() == store_root.resolve():
                return None
        except OSError:
            return None
    return lines[1]
