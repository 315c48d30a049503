"""The installed ``mem`` command: an agent's hook goes straight to its answer, the rest to click.

``mem hook AGENT EVENT`` runs on every prompt an agent sends, and a warm worker
answers it in a few milliseconds: importing click to parse three words would be
the largest part of the process's own cost. That one exact shape of command line
is answered here, as its click command would answer it; anything else (an option
before the event, ``--help``, a mistyped agent) goes through click as before.
"""

from __future__ import annotations

import os
import sys

from memcli.core.failure_log import DETACHED_ENV

PRE_TOOL_EVENTS = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}
"""Each agent's pre-tool hook event: answered by ``adapters.agents.pretool`` alone, on the
lightest path of all (it runs before every tool call the agent makes)."""


def main() -> None:
    """Entry point of the ``mem`` console script and of ``python -m memcli``."""
    args = sys.argv[1:]
    if _pre_tool_hook(args):
        from memcli.adapters.agents.pretool import run

        run(args[1], args[2])
        return
    if _plain_hook(args):
        from memcli.adapters.cli.hook_answer import answer

        try:
            answer(args[1], args[2], start_worker=len(args) == 4)
        except KeyboardInterrupt:
            sys.exit(130)
        return
    from memcli.adapters.cli.main import main as run_click

    run_click()


def _pre_tool_hook(args: list[str]) -> bool:
    """Whether the command line is exactly ``hook AGENT PRE-TOOL-EVENT``."""
    return (
        len(args) == 3
        and args[0] == "hook"
        and PRE_TOOL_EVENTS.get(args[1]) == args[2]
        and not os.environ.get(DETACHED_ENV)
    )


def _plain_hook(args: list[str]) -> bool:
    """Whether the command line is ``hook AGENT EVENT [--worker]``, text that click would
    pass on unchanged; a detached run keeps click's path, which logs its failures."""
    if len(args) not in (3, 4) or args[0] != "hook":
        return False
    from memcli.adapters.cli.hook_answer import AGENTS

    if args[1] not in AGENTS:
        return False
    if args[2].startswith("-") or args[3:] not in ([], ["--worker"]):
        return False
    if os.environ.get(DETACHED_ENV):
        return False
    try:
        args[2].encode("utf-8")
    except UnicodeEncodeError:
        return False  # click refuses it in one line
    return True
