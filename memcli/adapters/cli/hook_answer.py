"""An agent's hook answered: its JSON on stdin, the answer on stdout, never a failure.

Kept apart from the ``mem hook`` click commands so that the ``mem`` entry point
(``adapters.cli.entry``) can answer a hook without importing click: a hook runs
on every prompt, and click is a third of what a hook answered by the warm worker
would otherwise import. What is written is UTF-8 whatever the locale (as
``click.echo`` does), each line flushed.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memcli.adapters.worker.hooks import Answer, Target

AGENTS = ("claude", "codex", "gemini")
"""The agents ``mem hook`` answers (a click command each in ``commands.hook``)."""


def answer(agent: str, event: str, *, start_worker: bool = False) -> None:
    """The hook's answer: from the store's warm worker when one answers within its budget
    (the same answer), else computed here; a session start may then start the worker."""
    from memcli.adapters.cli.entry import PRE_TOOL_EVENTS

    if PRE_TOOL_EVENTS.get(agent) == event:
        from memcli.adapters.agents.pretool import run

        run(agent, event)
        return
    reply: dict[str, Any] | None = None
    found: Target | None = None
    moment: str | None = None
    asked: Answer | None = None
    try:
        # Not cli.options (it loads the index and the store): a session end must answer at once.
        from memcli.adapters.agents.protocol import (
            MAX_HOOK_INPUT_BYTES,
            MOMENTS,
            answer,
            nothing_to_add,
        )

        reply = nothing_to_add(agent)  # also what a failing hook answers, where there is one
        raw = sys.stdin.buffer.read(MAX_HOOK_INPUT_BYTES + 1) if sys.stdin is not None else b""
        if len(raw) > MAX_HOOK_INPUT_BYTES:
            raise ValueError(f"the hook input is over {MAX_HOOK_INPUT_BYTES >> 20} MB")
        payload = json.loads(raw.decode("utf-8")) if raw.strip() else {}
        moment = MOMENTS[agent].get(event)
        found, asked = _from_worker(agent, event, moment, payload)
        if asked is not None:
            for message in asked.notices:
                notice(message)
            reply = asked.reply
        else:
            reply = answer(agent, event, payload, notice)
    except Exception as exc:  # fail open, whatever it was
        if os.environ.get("MEM_DEBUG"):
            raise
        from memcli.core import failure_log

        message = " ".join(str(exc).split()) or type(exc).__name__
        _write_line(sys.stderr, f"mem: {event} hook skipped: {message}")
        failure_log.record(f"{agent} {event} hook", message)  # stderr may reach nobody
    if reply is not None:
        _write_line(sys.stdout, json.dumps(reply, ensure_ascii=False))
    if found is not None and asked is None and (found.auto or start_worker):
        _start_worker(agent, event, found, moment)  # the agent has its answer: flushed above


def notice(message: str) -> None:
    """A one-line notice on stderr (as ``options.notice``, without its imports)."""
    _write_line(sys.stderr, f"mem: {message}")


def _write_line(stream: Any, text: str) -> None:
    """``text`` and a newline as UTF-8 bytes, flushed; a closed or missing stream is skipped."""
    if stream is None:
        return
    try:
        stream.flush()
        binary = getattr(stream, "buffer", None)
        if binary is None:
            stream.write(text + "\n")
        else:
            binary.write((text + "\n").encode("utf-8", "replace"))
        stream.flush()
    except (OSError, ValueError):
        pass  # the agent closed the pipe: nobody is left to read it


def _from_worker(
    agent: str, event: str, moment: str | None, payload: Any
) -> tuple[Target | None, Answer | None]:
    """The store's worker (None: no worker to ask) and its answer (None: none in time).
    Never raises: whatever goes wrong, the hook answers in its own process."""
    try:
        from memcli.adapters.worker import hooks as worker

        found = worker.target(moment, payload)
        return found, (worker.ask(found, agent, event, payload) if found is not None else None)
    except Exception:
        return None, None


def _start_worker(agent: str, event: str, found: Target, moment: str | None) -> None:
    """Start the store's worker, detached; a failure is one line in mem's failure log."""
    try:
        from memcli.adapters.worker import hooks as worker

        worker.start(found, moment)
    except Exception as exc:
        from memcli.core import failure_log

        failure_log.record(f"{agent} {event} hook: warm worker", str(exc) or type(exc).__name__)
