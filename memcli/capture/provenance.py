"""Where a memory comes from: the agent that wrote it and the project's git commit.

Both are looked up cheaply and never fail: an unknown agent or a directory outside
any git repository simply gives None.
"""

from __future__ import annotations

import os
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


def _git(args: list[str], cwd: Path, timeout: float) -> str | None:
    from memcli.store.git import clean_env

    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            env=clean_env({"GIT_TERMINAL_PROMPT": "0"}),
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "replace").strip()


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
