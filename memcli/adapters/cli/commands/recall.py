from __future__ import annotations

import click

from memcli.adapters.cli.options import (
    budget_option,
    format_option,
    open_existing,
    store_options,
)
from memcli.adapters.cli.output import echo_json


@click.command()
@click.argument("prompt")
@budget_option
@click.option(
    "--session",
    metavar="ID",
    help="The agent session asking: what an earlier prompt of it was given is left out.",
)
@format_option
@store_options
def recall(
    prompt: str,
    budget: int | None,
    session: str | None,
    output_format: str,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Print the memories worth showing an agent for one prompt, if any.

    Trivial prompts ("ok", "continue", anything under 15 characters by
    default) get nothing, and so do prompts without a cue (a question mark, a
    file name, a time word such as "yesterday", or ten words or more). Otherwise
    at most 3 strong matches (by default; [recall] in mem.toml sets these),
    ranked like mem search, among the memories the
    session-start context does not show in full and, with --session, that the
    session was not given before, within the budget.

    \b
    Example:
        mem recall "why does search fail on hyphenated words?"
    """
    from memcli.retrieval.recall import Recall

    memory = open_existing(store_dir, project)
    result = Recall.gather(memory, prompt, budget, session=session)
    text = result.render()
    if output_format == "json":
        echo_json(result.to_json(text))
    elif text:
        click.echo(text, nl=not text.endswith("\n"))
