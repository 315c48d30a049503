from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from memcli.adapters.worker.hooks import Answer, Target


@click.group()
def hook() -> None:
    """Answer an agent's hook: its JSON on stdin, the answer on stdout.

    Every hook fails open: on any trouble the answer is empty, the exit code 0,
    and one line on stderr says why, so memory problems never block the agent.
    `mem install AGENT` registers these.

    \b
    Example:
        echo '{"cwd": "'$PWD'", "source": "startup"}' | mem hook claude SessionStart
    """


_worker_option = click.option(
    "--worker",
    is_flag=True,
    help="At a session start, start the store's warm worker when none answers "
    "(as [serve] auto = true in mem.toml does).",
)


@hook.command()
@click.argument("event")
@_worker_option
def claude(event: str, worker: bool) -> None:
    """Answer a Claude Code hook event (SessionStart, UserPromptSubmit, PostCompact, ...).

    \b
    Example:
        mem hook claude UserPromptSubmit < hook-input.json
    """
    _answer("claude", event, start_worker=worker)


@hook.command()
@click.argument("event")
@_worker_option
def codex(event: str, worker: bool) -> None:
    """Answer a Codex hook event (SessionStart, UserPromptSubmit, SessionEnd; others: none).

    \b
    Example:
        mem hook codex SessionStart < hook-input.json
    """
    _answer("codex", event, start_worker=worker)


@hook.command()
@click.argument("event")
@_worker_option
def gemini(event: str, worker: bool) -> None:
    """Answer a Gemini CLI hook event (SessionStart, BeforeAgent; others get no answer).

    \b
    Example:
        mem hook gemini BeforeAgent < hook-input.json
    """
    _answer("gemini", event, start_worker=worker)


def _answer(agent: str, event: str, *, start_worker: bool = False) -> None:
    """The hook's answer: from the store's warm worker when one answers within its budget
    (the same answer), else computed here; a session start may then start the worker."""
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
                _notice(message)
            reply = asked.reply
        else:
            reply = answer(agent, event, payload, _notice)
    except Exception as exc:  # fail open, whatever it was
        if os.environ.get("MEM_DEBUG"):
            raise
        from memcli.core import failure_log

        message = " ".join(str(exc).split()) or type(exc).__name__
        click.echo(f"mem: {event} hook skipped: {message}", err=True)
        failure_log.record(f"{agent} {event} hook", message)  # stderr may reach nobody
    if reply is not None:
        click.echo(json.dumps(reply, ensure_ascii=False))
    if found is not None and asked is None and (found.auto or start_worker):
        sys.stdout.flush()  # the agent has its answer; the worker starts after
        _start_worker(agent, event, found, moment)


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


def _notice(message: str) -> None:
    """A one-line notice on stderr (as ``options.notice``, without its imports)."""
    click.echo(f"mem: {message}", err=True)
