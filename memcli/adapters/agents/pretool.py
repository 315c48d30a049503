"""The pre-tool hook: a tool call checked against every layer's guards, in the agent's form.

``mem hook claude PreToolUse``, ``mem hook codex PreToolUse`` and ``mem hook gemini
BeforeTool`` run before every tool call the agent makes, so this path imports
only the standard library's lightest modules, ``core.guards``, ``core.places`` and
``core.guard_table``: no SQLite, no click, no templates, no store or index code.
It reads the compiled guard table of each layer (``core.guard_table``), never the
index.

The agent's tool and input are mapped onto mem's vocabulary (``core.guards.TOOLS``):

- Claude Code: ``Bash`` (``command``); ``Read``, ``Edit``, ``MultiEdit`` (Edit),
  ``Write`` (``file_path``); ``NotebookEdit`` (Edit, ``notebook_path``).
- Codex: ``Bash`` (``command``, a string or an argv list); ``apply_patch`` (the
  patch in ``command``: each ``*** Add File:`` is a Write, each ``*** Update
  File:`` / ``*** Delete File:`` an Edit, a ``*** Move to:`` a Write).
- Gemini CLI: ``run_shell_command`` (Bash, ``command``); ``read_file`` (Read,
  ``file_path``, or ``absolute_path`` of older versions); ``read_many_files``
  (Read, each of ``paths``); ``write_file`` (Write); ``replace`` (Edit).

When several guards match, the strictest action wins (deny, then ask, then
warn). Every answer is in the agent's own form (``answer_for``); no match is no
decision. Any error (a damaged table, input that is not a tool call, a budget
overrun) fails open: no decision, exit 0, one line in mem's failure log.
"""

from __future__ import annotations

import json
import os
import sys
import time

from memcli.adapters.cli.entry import PRE_TOOL_EVENTS
from memcli.core import guard_table, places
from memcli.core.globs import SHELL_TOOLS, fires

TYPE_CHECKING = False  # not typing's: the hook never imports typing
if TYPE_CHECKING:
    from typing import Any

EVENTS = PRE_TOOL_EVENTS
"""Each agent's pre-tool hook event (the entry point answers them on this path alone)."""
MATCHERS = {
    "claude": "Bash|Read|Edit|MultiEdit|Write|NotebookEdit",
    "codex": "Bash|apply_patch|Edit|Write",
    "gemini": "run_shell_command|read_file|read_many_files|write_file|replace",
}
"""The tools each agent runs the hook for (its settings' matcher): the ones mem guards."""
MAX_INPUT_BYTES = 4 << 20
"""A larger hook input is not read: the call gets no decision."""
BUDGET_SECONDS = 1.0
"""Past this, the hook gives no decision (a slow disk, a huge table): it fails open."""
MAX_SUBJECTS = 64
"""Of one call (a patch of many files, many paths read), the first this many are checked."""
MAX_NAMED = 3
"""Memories a reason names at most (the rest are counted)."""
REFRESH_RETRY_SECONDS = 600
"""A refresh started for a stale table is started again for the same state after this."""
STRICTNESS = {"deny": 3, "ask": 2, "warn": 1}

_CLAUDE = {
    "Bash": ("Bash", "command"),
    "Read": ("Read", "file_path"),
    "Edit": ("Edit", "file_path"),
    "MultiEdit": ("Edit", "file_path"),
    "Write": ("Write", "file_path"),
    "NotebookEdit": ("Edit", "notebook_path"),
}
_GEMINI = {
    "run_shell_command": ("Bash", "command"),
    "read_file": ("Read", "file_path"),
    "write_file": ("Write", "file_path"),
    "replace": ("Edit", "file_path"),
}
_PATCH_MARKERS = (
    ("*** Add File: ", "Write"),
    ("*** Update File: ", "Edit"),
    ("*** Delete File: ", "Edit"),
    ("*** Move to: ", "Write"),
)


class Match:
    """A guard that fired: its row in a table, and the call it fired on."""

    __slots__ = ("row", "subject")

    def __init__(self, row: guard_table.Row, subject: str) -> None:
        self.row, self.subject = row, subject


def run(agent: str, event: str) -> None:
    """The hook's process: stdin in, the answer (or nothing) out, always exit 0."""
    started = time.monotonic()
    reply: dict[str, Any] | None = nothing(agent)
    try:
        _arm_budget()
        raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1) if sys.stdin is not None else b""
        if len(raw) > MAX_INPUT_BYTES:
            raise ValueError(f"the hook input is over {MAX_INPUT_BYTES >> 20} MB")
        payload = json.loads(raw.decode("utf-8")) if raw.strip() else {}
        found = decide(agent, payload)
        if time.monotonic() - started > BUDGET_SECONDS:
            raise TimeoutError(f"over its budget of {BUDGET_SECONDS:g} s")
        if found:
            reply = answer_for(agent, event, found)
        _disarm_budget()
    except Exception as exc:  # fail open, whatever it was
        _disarm_budget()
        if os.environ.get("MEM_DEBUG"):
            raise
        from memcli.core import failure_log

        message = " ".join(str(exc).split()) or type(exc).__name__
        failure_log.record(f"{agent} {event} hook", message)
        reply = nothing(agent)
    if reply is not None:
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def _arm_budget() -> None:
    """A timer that interrupts whatever the hook waits on past ``BUDGET_SECONDS`` (a disk
    that hangs, a stdin never closed): the hook then fails open. POSIX only."""
    import signal

    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, _over_budget)
        signal.setitimer(signal.ITIMER_REAL, BUDGET_SECONDS)


def _disarm_budget() -> None:
    import signal

    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)


def _over_budget(signum: int, frame: object) -> None:
    raise TimeoutError(f"over its budget of {BUDGET_SECONDS:g} s")


def nothing(agent: str) -> dict[str, Any] | None:
    """No decision: no output at all, except for Gemini CLI, which parses stdout as JSON."""
    return {} if agent == "gemini" else None


def decide(agent: str, payload: Any) -> list[Match]:
    """The guards the call in ``payload`` fires, strictest first (empty: none)."""
    if not isinstance(payload, dict):
        raise ValueError("the hook input is not a JSON object")
    calls = tool_calls(agent, payload.get("tool_name"), payload.get("tool_input"))
    if not calls:
        return []
    cwd = payload.get("cwd")
    cwd = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else os.getcwd()
    return check(calls, cwd)


def check(calls: list[tuple[str, str]], cwd: str) -> list[Match]:
    """The guards of every layer for ``cwd`` that ``calls`` ((tool, subject) pairs) fire."""
    tables = [_current(layer) for layer in guard_table.layer_tables(cwd)]
    return fired(calls, cwd, [table for table in tables if table is not None])


def fired(calls: list[tuple[str, str]], cwd: str, tables: list[guard_table.Table]) -> list[Match]:
    """The rows of ``tables`` that ``calls`` fire, strictest first. A relative path is
    the call's folder's (``cwd``); paths are compared from the top of its work tree."""
    project = places.work_tree_top(cwd) or cwd
    calls = [
        (tool, subject if tool in SHELL_TOOLS else os.path.join(cwd, subject))
        for tool, subject in calls
    ]
    found: list[Match] = []
    for table in tables:
        for row in table.rows:
            for tool, subject in calls:
                if tool == row.tool and fires(tool, row.glob, subject, project):
                    found.append(Match(row, subject))
                    break
    found.sort(key=lambda match: -STRICTNESS.get(match.row.action, 0))
    return found


def _current(layer: guard_table.LayerTable) -> guard_table.Table | None:
    """The layer's table (None: none yet); a stale or missing one starts a refresh."""
    table = guard_table.read(layer.path)
    if table is None:
        if os.path.exists(os.path.join(layer.root, ".git")) or layer.team:
            refresh_once(layer, "none")
        return None
    state = layer.state()
    if table.state != state:
        refresh_once(layer, state)
    return table


def refresh_once(layer: guard_table.LayerTable, state: str) -> None:
    """Start a detached ``mem guards --store ROOT`` (its refresh rewrites the table), once
    for each state of the store: a marker beside the table holds the state it was for."""
    marker = layer.path + ".refreshing"
    try:
        with open(marker, encoding="utf-8") as file:
            if (
                file.read() == state
                and time.time() - os.stat(marker).st_mtime < REFRESH_RETRY_SECONDS
            ):
                return
    except OSError:
        pass
    try:
        os.makedirs(os.path.dirname(marker), exist_ok=True)
        with open(marker, "w", encoding="utf-8") as file:
            file.write(state)
    except OSError:
        return  # a cache that cannot be written: no refresh either
    import subprocess

    from memcli.core.failure_log import DETACHED_ENV
    from memcli.core.own_command import own_command

    process = subprocess.Popen(
        [*own_command(), "guards", "--store", layer.root, "--json"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        cwd=layer.root if os.path.isdir(layer.root) else None,
        env={**os.environ, DETACHED_ENV: "pre-tool hook: guard table refresh"},
    )
    process.returncode = 0  # never waited for: it outlives this hook on purpose


def tool_calls(agent: str, name: Any, given: Any) -> list[tuple[str, str]]:
    """The call as mem's (tool, subject) pairs; empty for a tool mem does not guard."""
    if not isinstance(name, str) or not isinstance(given, dict):
        return []
    calls: list[tuple[str, str]] = []
    if agent == "codex" and name == "apply_patch":
        calls = patch_paths(given.get("command") or given.get("input") or given.get("patch"))
    elif agent == "gemini" and name == "read_many_files":
        paths = given.get("paths") or given.get("include")
        if isinstance(paths, list):
            calls = [("Read", path) for path in paths if isinstance(path, str)]
    else:
        table = _GEMINI if agent == "gemini" else _CLAUDE
        tool, field = table.get(name, ("", ""))
        value = given.get(field)
        if agent == "gemini" and name == "read_file" and value is None:
            value = given.get("absolute_path")
        if tool == "Bash" and isinstance(value, list):
            value = " ".join(part for part in value if isinstance(part, str))
        if tool and isinstance(value, str) and value:
            calls = [(tool, value)]
    return calls[:MAX_SUBJECTS]


def patch_paths(patch: Any) -> list[tuple[str, str]]:
    """The files a Codex patch adds (Write), changes or deletes (Edit), or moves to (Write)."""
    if isinstance(patch, list):  # an argv: ["apply_patch", PATCH]
        patch = "\n".join(part for part in patch if isinstance(part, str))
    if not isinstance(patch, str):
        return []
    calls = []
    for line in patch[: 1 << 20].splitlines():
        for marker, tool in _PATCH_MARKERS:
            if line.startswith(marker) and line[len(marker) :].strip():
                calls.append((tool, line[len(marker) :].strip()))
                break
    return calls


def reason(matched: list[Match]) -> str:
    """What the agent (and the person) is told: each memory's title, text and id."""
    action = matched[0].row.action
    rows: list[guard_table.Row] = []
    for match in matched:
        if match.row.action == action and all(row.id != match.row.id for row in rows):
            rows.append(match.row)
    verb = {"deny": "forbids", "ask": "asks about", "warn": "warns of"}.get(action, action)
    lines = []
    for row in rows[:MAX_NAMED]:
        text = "" if row.text in ("", row.title) else f" - {row.text}"
        lines.append(
            f'mem: a {row.layer} memory {verb} this call ({row.tool}:{row.glob}): "{row.title}"'
            f"{text} (`mem show {row.id}`)"
        )
    if len(rows) > MAX_NAMED:
        lines.append(f"mem: and {len(rows) - MAX_NAMED} more memories (`mem guards`)")
    return "\n".join(lines)


def answer_for(agent: str, event: str, matched: list[Match]) -> dict[str, Any]:
    """The strictest match's answer, in the agent's own form (see docs/agents.md)."""
    action = matched[0].row.action
    text = reason(matched)
    if agent == "gemini":
        if action == "warn":
            return {"systemMessage": text}
        return {"decision": action, "reason": text}
    if agent == "codex" and action == "ask":
        # Codex refuses permissionDecision "ask": the call is refused, and the reason
        # says the person's approval is what it waits for.
        action = "deny"
        text += "\nmem: Codex cannot ask the person here: ask them, and let them run it."
    if action == "warn":
        return {
            "systemMessage": text,
            "hookSpecificOutput": {"hookEventName": event, "additionalContext": text},
        }
    return {
        "hookSpecificOutput": {
            "hookEventName": event,
            "permissionDecision": action,
            "permissionDecisionReason": text,
        }
    }
