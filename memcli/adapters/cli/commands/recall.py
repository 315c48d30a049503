from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from memcli.adapters.cli.options import (
    budget_option,
    format_option,
    layer_option,
    notice,
    open_existing,
    store_options,
    superseded_option,
)
from memcli.adapters.cli.output import echo_json
from memcli.core.text import one_line


@click.command()
@click.argument("prompt")
@budget_option
@click.option(
    "--session",
    metavar="ID",
    help="The agent session asking: what an earlier prompt of it was given is left out.",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Show each candidate's evidence, the thresholds, and why it was or was not shown.",
)
@format_option
@superseded_option
@layer_option
@store_options
def recall(
    prompt: str,
    budget: int | None,
    session: str | None,
    explain: bool,
    superseded: bool,
    output_format: str,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Print the memories worth showing an agent for one prompt, if any.

    Trivial prompts ("ok", "continue", anything under 15 characters by
    default) get nothing. Any other prompt, a question or an instruction, is
    ranked like mem search, among the memories the session-start context does
    not show in full and, with --session, that the session was not given
    before. Each prompt word weighs by how rare it is in the store; the best
    memory must cover enough of that weight, and stand out from the next,
    for recall to answer; a cue (a question mark, a file name, a time word
    such as "yesterday", ten words or more) lowers the bar. Then at most 3
    memories covering nearly as much ([recall] in mem.toml sets these),
    within the budget. --explain says why, candidate by candidate.

    \b
    Example:
        mem recall "why does search fail on hyphenated words?"
        mem recall "Bump the Terraform provider for the staging VPC" --explain
    """
    if output_format != "json" and not explain and not superseded:
        from memcli.adapters.worker import reads

        arguments = {"prompt": prompt, "budget": budget, "session": session}
        text = reads.ask("recall", store_dir, project, arguments, notice) if not layer else None
        if text is None:  # no worker answered: the same text, computed here
            reader = open_existing(store_dir, project, layer, borrow=True)
            text = reads.recall_text(reader, prompt, budget, session, Path.cwd())
        if text:
            click.echo(text, nl=not text.endswith("\n"))
        return
    from memcli.retrieval.recall import Recall

    memory = open_existing(store_dir, project, layer, borrow=True)
    result = Recall.gather(memory, prompt, budget, session=session, superseded=superseded)
    text = result.render()
    if output_format == "json":
        data = result.to_json(text)
        echo_json(data | {"explain": result.explain()} if explain else data)
    elif explain:
        _echo_explained(result.explain(), text)
    elif text:
        click.echo(text, nl=not text.endswith("\n"))


EXPLAINED_CANDIDATES = 10
"""Candidates --explain lists in text (JSON has them all)."""


def _echo_explained(data: dict[str, Any], text: str) -> None:
    if data["trivial"]:
        click.echo("trivial prompt (short, or a bare acknowledgement): nothing is recalled")
        return
    terms = ", ".join(
        f"{one_line(t['term'], 60)} {t['weight']:.2f} ({t['memories']})" for t in data["terms"]
    )
    click.echo(f"terms, weight (memories holding it): {terms or '(none)'}")
    click.echo(
        f"the prompt weighs {data['total_weight']:.2f}: its terms (words no memory holds "
        f"count for two at most) and {data['unsaid_weight']:.2f}, what any prompt says "
        "beyond its words"
    )
    limits = data["thresholds"]
    cues = ", ".join(data["cues"]) or "none"
    click.echo(
        f"cues: {cues}; evidence needed {data['evidence_needed']:.2f} "
        f"({limits['min_evidence']:.2f} without a cue, {limits['cue_evidence']:.2f} with one); "
        f"evidence = coverage + {limits['margin_weight']:g} x margin over the next; "
        f"others need {limits['relative_score']:.0%} of the best's coverage; "
        f"at most {limits['limit']}"
    )
    left = data["left_out"]
    click.echo(
        f"left out: {left.get('context', 0)} shown at session start, "
        f"{left.get('session', 0)} given earlier in this session"
    )
    candidates = data["candidates"]
    if not candidates:
        holding = any(term["memories"] for term in data["terms"])
        click.echo(
            "no candidate: every memory holding the prompt's terms was left out (above)"
            if holding and any(left.values())
            else "no candidate: no memory holds any of the prompt's terms"
        )
    for hit in candidates[:EXPLAINED_CANDIDATES]:
        mark = "shown" if hit["shown"] else "-"
        held = ", ".join(hit["held"]) or "nothing"
        click.echo("")
        click.echo(f"{mark:<6}{hit['short_id']}  {hit['type']:<10} {one_line(hit['title'], 70)}")
        click.echo(
            f"      coverage {hit['coverage']:.2f} ({held}), margin {hit['margin']:+.2f}, "
            f"evidence {hit['evidence']:.2f}"
            + (f", similarity {hit['similarity']:.2f}" if hit["similarity"] is not None else "")
        )
        click.echo(f"      {hit['why']}")
    if len(candidates) > EXPLAINED_CANDIDATES:
        click.echo(f"\n… {len(candidates) - EXPLAINED_CANDIDATES} more candidates (--json)")
    shown = sum(1 for hit in candidates if hit["shown"])
    click.echo(f"\nanswer: {shown} memor{'y' if shown == 1 else 'ies'} ({len(text)} characters)")
