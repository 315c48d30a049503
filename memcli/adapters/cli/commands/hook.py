from __future__ import annotations

import click

from memcli.adapters.cli.hook_answer import answer


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
    answer("claude", event, start_worker=worker)


@hook.command()
@click.argument("event")
@_worker_option
def codex(event: str, worker: bool) -> None:
    """Answer a Codex hook event (SessionStart, UserPromptSubmit, SessionEnd; others: none).

    \b
    Example:
        mem hook codex SessionStart < hook-input.json
    """
    answer("codex", event, start_worker=worker)


@hook.command()
@click.argument("event")
@_worker_option
def gemini(event: str, worker: bool) -> None:
    """Answer a Gemini CLI hook event (SessionStart, BeforeAgent; others get no answer).

    \b
    Example:
        mem hook gemini BeforeAgent < hook-input.json
    """
    answer("gemini", event, start_worker=worker)
