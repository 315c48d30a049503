from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from memcli.adapters.cli.options import (
    budget_option,
    format_option,
    layer_option,
    notice,
    open_memory,
    store_options,
    superseded_option,
)
from memcli.adapters.cli.output import echo_json
from memcli.service.memory import Memory

TEMPLATE_SAMPLES = ("session_start.md.j2", "prompt_context.md.j2", "compaction.md.j2", "show.md.j2")


@click.command()
@budget_option
@format_option
@click.option(
    "--explain",
    is_flag=True,
    help="Show how each memory was scored and why it was shown or left out.",
)
@click.option(
    "--check-templates",
    is_flag=True,
    help="Render every template (the store's overrides first) and report failures.",
)
@superseded_option
@layer_option
@store_options
def context(
    budget: int | None,
    output_format: str,
    explain: bool,
    superseded: bool,
    check_templates: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Print the session-start context: what an agent should know before it begins.

    MEMORY.md (the store's curated notes), the latest sessions (one summary
    each), then the memories worth most now, best first: one score of type,
    importance, recency, whether they touch the files changed in this git work
    tree (and on its branch), and whether their own files changed since
    (`mem stale`). Preferences and decisions hold whatever their age; a
    near-identical memory is shown once. Within a hard character budget.
    --explain prints each candidate's score and its parts.

    \b
    Example:
        mem context
        mem context --explain
        mem context --budget 4000 --json
        mem context --check-templates
    """
    if output_format != "json" and not (explain or check_templates or superseded):
        from memcli.adapters.worker import reads

        asked = {"budget": budget}
        text = reads.ask("context", store_dir, project, asked, notice) if not layer else None
        if text is None:  # no worker answered: the same text, computed here
            reader = open_memory(store_dir, project, layer, borrow=True)
            text = reads.context_text(reader, budget, Path.cwd())
        if text:
            click.echo(text, nl=not text.endswith("\n"))
        return
    memory = open_memory(store_dir, project, layer, borrow=True)
    if check_templates:
        _check_templates(memory)
        return
    from memcli.retrieval.context import session_start

    session, text = session_start(memory, budget, explain=explain, superseded=superseded)
    if output_format == "json":
        echo_json(session.to_json(text) | ({"explain": session.explained()} if explain else {}))
    elif explain:
        explained = session.explained()
        ids = [item["id"] for item in explained["memories"]]
        _echo_explained(explained, memory.read(lambda index: index.short_ids(ids)))
    elif text:
        click.echo(text, nl=not text.endswith("\n"))


def _echo_explained(explained: dict[str, Any], short_ids: dict[str, str]) -> None:
    weights = ", ".join(f"{name} {value:g}" for name, value in explained["weights"].items())
    click.echo(f"weights: {weights} ([context] in mem.toml); half-lives from [ranking]")
    working = explained["working_set"]
    if working["files"]:
        shown = ", ".join(working["files"][:10]) + (", …" if len(working["files"]) > 10 else "")
        count = len(working["files"])
        files = "1 file" if count == 1 else f"{count} files"
        click.echo(f"working set: {files} changed ({working['base']}): {shown}")
    else:
        click.echo("working set: none (no git work tree here, or nothing changed)")
    click.echo("score = type x recency x importance x working x stale")
    duplicates = explained["duplicates"]
    for item in explained["memories"]:
        shown = item["shown"] or ("duplicate" if item["id"] in duplicates else "-")
        touches = f" touches {item['touches']}" if item["touches"] else ""
        short = short_ids[item["id"]]
        click.echo(f"{item['score']:8.4f}  {shown:9}  [{short}] {item['type']}: {item['title']}")
        click.echo(
            f"          type {item['type_weight']:g} x recency {item['recency']:.3f}"
            f" x importance {item['importance']:.3f} x working {item['working']:g}"
            f" x stale {item['stale']:g}{touches}"
            + (
                f"; near-identical to {short_ids[duplicates[item['id']]]}"
                if item["id"] in duplicates
                else ""
            )
        )


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
