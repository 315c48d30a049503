from __future__ import annotations

import json
import os
import sys
from typing import Any

import click


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


@hook.command()
@click.argument("event")
def claude(event: str) -> None:
    """Answer a Claude Code hook event (SessionStart, UserPromptSubmit, PostCompact, ...).

    \b
    Example:
        mem hook claude UserPromptSubmit < hook-input.json
    """
    _answer("claude", event)


@hook.command()
@click.argument("event")
def codex(event: str) -> None:
    """Answer a Codex hook event (SessionStart, UserPromptSubmit, SessionEnd; others: none).

    \b
    Example:
        mem hook codex SessionStart < hook-input.json
    """
    _answer("codex", event)


@hook.command()
@click.argument("event")
def gemini(event: str) -> None:
    """Answer a Gemini CLI hook event (SessionStart, BeforeAgent; others get no answer).

    \b
    Example:
        mem hook gemini BeforeAgent < hook-input.json
    """
    _answer("gemini", event)


def _answer(agent: str, event: str) -> None:
    reply: dict[str, Any] | None = None
    try:
        # Not cli.options (it loads the index and the store): a session end must answer at once.
        from memcli.adapters.agents.protocol import MAX_HOOK_INPUT_BYTES, answer, nothing_to_add

        reply = nothing_to_add(agent)  # also what a failing hook answers, where there is one
        raw = sys.stdin.buffer.read(MAX_HOOK_INPUT_BYTES + 1) if sys.stdin is not None else b""
        if len(raw) > MAX_HOOK_INPUT_BYTES:
            raise ValueError(f"the hook input is over {MAX_HOOK_INPUT_BYTES >> 20} MB")
        payload = json.loads(raw.decode("utf-8")) if raw.strip() else {}
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


def _notice(message: str) -> None:
    """A one-line notice on stderr (as ``options.notice``, without its imports)."""
    click.echo(f"mem: {message}", err=True)
