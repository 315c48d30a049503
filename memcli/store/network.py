"""git's network commands (fetch, push, clone) under a time limit.

A remote that takes the connection and never answers would hold ``mem sync`` (and
whatever started it, such as a hook) for ever: git has no overall timeout of its
own, and its transports' settings differ (ssh, http, git://). So each command may
run ``MEM_GIT_TIMEOUT`` seconds (120 by default); past that, git and the processes
it started (ssh, ``git-remote-http``, an ``ext::`` command) are killed and a
:class:`NetworkTimeout` names the remote.

The processes stay in mem's process group and session, so ssh and git can still
ask for a passphrase or a password on the terminal.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from memcli.core.env import env_seconds
from memcli.store.git import GitError, clean_env

TIMEOUT_ENV = "MEM_GIT_TIMEOUT"
DEFAULT_TIMEOUT = 120.0
READ_GRACE = 5.0
"""Seconds to wait for the output of a stopped command (a process that escaped the kill
may hold its pipes)."""


class NetworkTimeout(GitError):
    """A fetch, push or clone did not finish within ``MEM_GIT_TIMEOUT``."""


def network_timeout() -> float:
    """``MEM_GIT_TIMEOUT`` in seconds, else the default."""
    return env_seconds(TIMEOUT_ENV, DEFAULT_TIMEOUT, 86400)


def shown_url(url: str) -> str:
    """A remote's URL without a password or token in it (``https://user:pw@host`` -> host)."""
    return re.sub(r"^([a-z][a-z0-9+.-]*://)[^/@]*@", r"\1", url, flags=re.IGNORECASE)


def run_git(
    args: Sequence[str],
    *,
    cwd: Path,
    what: str | Callable[[], str],
    on_line: Callable[[str], None] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """``git ARGS`` in ``cwd``, stopped after ``network_timeout()`` seconds.

    ``what`` says what it does, for the error (``git fetch from origin (URL)``); a
    function giving it is called only when the error is raised.
    ``on_line`` receives each line git writes on stderr as it comes (progress,
    whose updates end in a carriage return, count as lines).
    """
    timeout = network_timeout()
    try:
        process = subprocess.Popen(
            ["git", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=clean_env()
        )
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH") from None
    assert process.stdout is not None and process.stderr is not None
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [_reader(process.stdout, out, None), _reader(process.stderr, err, on_line)]
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        _kill_tree(process.pid)
        process.wait()
        said = what() if callable(what) else what
        raise NetworkTimeout(
            f"{said} did not finish within {timeout:g} s, so it was stopped "
            f"({TIMEOUT_ENV} sets the limit)"
        ) from None
    finally:
        for reader in readers:
            reader.join(READ_GRACE)
    return subprocess.CompletedProcess(
        process.args, process.returncode, b"".join(out), b"".join(err)
    )


def _reader(
    stream: IO[bytes], into: list[bytes], on_line: Callable[[str], None] | None
) -> threading.Thread:
    """A thread that reads ``stream`` to its end into ``into``, line by line to ``on_line``."""

    def read() -> None:
        pending = b""
        with stream:
            while chunk := os.read(stream.fileno(), 65536):
                into.append(chunk)
                if on_line is None:
                    continue
                *lines, pending = re.split(rb"\r\n|\r|\n", pending + chunk)
                for line in lines:
                    on_line(line.decode("utf-8", "replace"))
        if on_line is not None and pending:
            on_line(pending.decode("utf-8", "replace"))

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def _kill_tree(pid: int) -> None:
    """Kill ``pid`` and every process it started, children first."""
    for victim in [*reversed(_descendants(pid)), pid]:
        try:
            os.kill(victim, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid``, parents before their children (none when the process
    table cannot be read)."""
    children: dict[int, list[int]] = {}
    for child, parent in _process_table():
        children.setdefault(parent, []).append(child)
    found: list[int] = []
    queue = [pid]
    while queue:
        for child in children.get(queue.pop(0), []):
            found.append(child)
            queue.append(child)
    return found


def _process_table() -> list[tuple[int, int]]:
    """(pid, parent pid) of every process: from /proc, else from ``ps``."""
    table: list[tuple[int, int]] = []
    try:
        entries = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        entries = []
    for name in entries:
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
            table.append((int(name), int(fields[1])))
        except (OSError, IndexError, ValueError):
            continue
    if table:
        return table
    try:
        listed = subprocess.run(
            ["ps", "-A", "-o", "pid=,ppid="], capture_output=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    for line in listed.decode("ascii", "replace").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            table.append((int(parts[0]), int(parts[1])))
    return table
