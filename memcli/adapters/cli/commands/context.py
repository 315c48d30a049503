from __future__ import annotations

import click

from memcli.adapters.cli.options import (
    budget_option,
    format_option,
    open_memory,
    store_options,
)
from memcli.adapters.cli.output import echo_json
from memcli.service.memory import Memory

TEMPLATE_SAMPLES = ("session_start.md.j2", "prompt_context.md.j2", "compaction.md.j2", "show.md.j2")


@click.command()
@budget_option
@format_option
@click.option(
    "--check-templates",
    is_flag=True,
    help="Render every template (the store's overrides first) and report failures.",
)
@store_options
def context(
    budget: int | None,
    output_format: str,
    check_templates: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Print the session-start context: what an agent should know before it begins.

    MEMORY.md (the store's curated notes), the latest session summaries, the
    last day's memories with their facts, the last week's as a list, and how
    to find the rest, within a hard character budget.

    \b
    Example:
        mem context
        mem context --budget 4000 --json
        mem context --check-templates
    """
    memory = open_memory(store_dir, project)
    if check_templates:
        _check_templates(memory)
        return
    from memcli.retrieval.context import session_start

    session, text = session_start(memory, budget)
    if output_format == "json":
        echo_json(session.to_json(text))
    elif text:
        click.echo(text, nl=not text.endswith("\n"))


def _check_templates(memory: Memory) -> None:
    from memcli.core.errors import MemError, ProblemsReported
    from memcli.retrieval.render import Renderer, sample_variables

    renderer = Renderer(memory.store.root)
    failures = 0
    for name in TEMPLATE_SAMPLES:
        try:
            renderer.render(name, **sample_variables(name))
        except MemError as exc:
            failures += 1
            click.echo(f"FAIL {exc}")
        else:
            click.echo(f"ok   {renderer.origin(name)}")
    if failures:
        raise ProblemsReported()
