"""``mem eval --suite real``: build the real-text suite's store once, measure, print."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import click

from memcli.adapters.cli.options import notice
from memcli.adapters.cli.output import echo_json

SECTIONS = (
    ("search", "search: a right memory in the top 5"),
    ("delivered", "delivered: a right memory reaches the agent (session start whole, or recall)"),
    (
        "within_reach",
        "within reach: session start gives a right memory whole, or search ranks one in its "
        "first 10 (what a gate that never erred would deliver)",
    ),
    ("false_fires", "false fires: recall gives something to a prompt nothing answers"),
)


def run_real(suite: Path, modes: tuple[str, ...], model: str | None, as_json: bool) -> None:
    """Measure the real-text suite of ``suite`` in a new store in a temporary folder."""
    from memcli.adapters.cli.commands.eval import chosen_modes
    from memcli.core.timeutil import now
    from memcli.retrieval.evaluation import build_suite_store, open_suite_store
    from memcli.retrieval.real_eval import FILES, measure, real_suite

    folder = real_suite(suite)
    with tempfile.TemporaryDirectory(prefix="mem-eval-") as temporary:
        root, project = Path(temporary) / "store", Path(temporary) / "project"
        project.mkdir()
        notice(f"building the eval store from {folder}")
        moment = now()
        build_suite_store(folder, root, moment, FILES)
        memory, settings = open_suite_store(root, model, notice)
        chosen = chosen_modes(memory, settings, modes)
        report = measure(memory, folder, chosen, settings, project, moment).to_json()
    if as_json:
        echo_json(report)
    else:
        print_real(report)


def print_real(report: dict[str, Any]) -> None:
    """The report as tables: a row per style and mode, a column per half."""
    from memcli.retrieval.real_eval import COLUMNS

    click.echo(
        f"{report['prompts']} prompts over {report['memories']:,} memories "
        f"({report['labelled_memories']} labelled, the rest from public projects' release "
        f"notes); {report['semantic']}"
    )
    start = report["session_start"]
    labelled = ", ".join(start["labelled_whole"]) or "none of the labelled ones"
    click.echo(
        f"session start ({start['budget']:,} characters) gives {start['whole']} memories "
        f"whole: {labelled}; it names {len(start['labelled_listed'])} labelled ones in all"
    )
    for section, title in SECTIONS:
        rows = [
            (style, mode, halves)
            for mode, result in report["modes"].items()
            for style, halves in result.get(section, {}).items()
        ]
        if not rows:
            continue
        click.echo("")
        click.echo(title)
        click.echo(f"  {'':<14}{'':<10}" + "".join(f"{name:>12}" for name in COLUMNS))
        order = {style: n for n, style in enumerate(dict.fromkeys(s for s, _, _ in rows))}
        last = ""
        for style, mode, halves in sorted(rows, key=lambda row: order[row[0]]):
            cells = "".join(f"{_cell(halves[name]):>12}" for name in COLUMNS)
            click.echo(f"  {style if style != last else '':<14}{mode:<10}" + cells)
            last = style
    click.echo("")
    click.echo("--json adds each prompt: search's rank of its answer, and what recall gave it")


def _cell(count: dict[str, int]) -> str:
    return f"{count['hit']}/{count['total']}"
