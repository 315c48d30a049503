from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memcli.adapters.cli.options import json_option, notice, open_existing, store_options
from memcli.adapters.cli.output import echo_json

if TYPE_CHECKING:
    from memcli.retrieval.evaluation import Report
    from memcli.service.memory import Memory

MODES = ("lexical", "semantic", "hybrid")
SUITES = ("generated", "real", "conversations")
MEASURES = ("recall@5", "recall@10", "mrr@10", "ndcg@10")


@click.command(name="eval")
@click.argument(
    "queries_file",
    metavar="[FILE]",
    required=False,
    type=click.Path(dir_okay=False, path_type=Path),
)
@click.option(
    "--mode",
    "modes",
    multiple=True,
    type=click.Choice(MODES),
    help="Measure only these modes (repeatable). [default: lexical, and semantic and hybrid "
    "when a model is available]",
)
@click.option(
    "--model",
    metavar="NAME_OR_DIR",
    help="The semantic model to measure with (default: the store's [semantic] model).",
)
@click.option("--by-style", is_flag=True, help="Also show recall@10 for each style of query.")
@click.option(
    "--suite",
    "suite_name",
    type=click.Choice(SUITES),
    help="Which of mem's suites to run: its generated distractors, a store of real "
    "engineering text and what reaches the agent there, or questions over long "
    "conversations stored one turn a memory. [default: generated]",
)
@json_option
@store_options
def eval_command(
    queries_file: Path | None,
    modes: tuple[str, ...],
    model: str | None,
    by_style: bool,
    suite_name: str | None,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Measure how well search and recall find the right memories.

    Without FILE, runs mem's own labelled suite, which ships inside the
    installed package (eval/ of mem's repository: its queries over its
    memories and thousands of distractors, in a new store in a temporary
    folder). With FILE, runs your queries on your store: one JSON
    object a line, {"query": "...", "relevant": ["<id or key>", ...]}, with an
    empty list for a prompt nothing should answer.

    Prints recall@5, recall@10, MRR@10 and nDCG@10 for each mode beside plain
    bm25 (every word OR'ed, no boosts) measured in the same run, then how the
    recall gate did, by style of prompt and on each half of a fixed split (the
    suite's defaults were chosen on the first): the share of labelled prompts
    given a right memory, and of prompts nothing answers that were given any.

    With --suite real, the other memories are sentences from public projects'
    release notes, and it reports, by style of prompt and half, beside plain
    bm25: a right memory in search's top 5; a right memory delivered (shown
    whole at session start, or given by recall for the prompt); and recall's
    answers to prompts nothing answers. --suite conversations measures search
    alone on conversations in LoCoMo's shape: each in a store of its own, one
    memory a turn, its questions searched in it (--by-style: by category).

    \b
    Example:
        mem eval
        mem eval my-queries.jsonl --by-style
        mem eval --suite real --model none
        mem eval --suite conversations --by-style
    """
    from memcli.retrieval.evaluation import bundled_suite

    if queries_file is not None and suite_name is not None:
        raise click.UsageError("--suite runs one of mem's suites; a queries FILE runs yours")
    if queries_file is not None:
        memory = open_existing(store_dir, project)
        if model is not None and model != memory.semantic_model():
            raise click.UsageError(
                "--model measures the eval suite; on your store, name the model in mem.toml "
                "([semantic] model) so that its memories are embedded"
            )
        report = _run(memory, queries_file, modes, model)
    else:
        suite = bundled_suite()
        if suite is None:
            raise click.UsageError(
                "no queries file given, and mem's eval suite is missing from this install "
                "(set MEM_EVAL_SUITE to an eval/ folder of mem's repository): pass FILE"
            )
        if suite_name == "real":
            from memcli.adapters.cli.eval_real import run_real

            run_real(suite, modes, model, as_json)
            return
        if suite_name == "conversations":
            report = _run_conversations(suite, modes, model)
        else:
            report = _run_suite(suite, modes, model)
    if as_json:
        echo_json(report.to_json())
    else:
        _print_report(report, by_style)


def _run(
    memory: Memory,
    queries_file: Path,
    modes: tuple[str, ...],
    model: str | None,
    prompts_file: Path | None = None,
) -> Report:
    from memcli.core import config
    from memcli.retrieval.evaluation import evaluate, read_queries

    settings = config.load(memory.store.root)
    if model is not None:
        settings["semantic"]["model"] = model

    def resolve(reference: str) -> str:
        return memory.read(lambda index: index.resolve(reference)).id

    queries = read_queries(queries_file, resolve)
    prompts = read_queries(prompts_file, resolve) if prompts_file else []
    return evaluate(memory, queries, chosen_modes(memory, settings, modes), settings, prompts)


def chosen_modes(
    memory: Memory, settings: dict[str, dict[str, Any]], modes: tuple[str, ...]
) -> list[str]:
    """The modes asked for; by default lexical, and semantic and hybrid when a model is in use."""
    from memcli.retrieval.search import Searcher

    if modes:
        return list(modes)
    line = Searcher(memory, settings).semantic_line()
    if line.startswith("lexical only"):
        notice(f"{line}; measuring lexical search only")
        return ["lexical"]
    return ["lexical", "semantic", "hybrid"]


def _run_conversations(suite: Path, modes: tuple[str, ...], model: str | None) -> Report:
    from memcli.retrieval.conversations import evaluate_conversations

    folder = suite / "conversations"
    notice(f"building a store for each conversation of {folder}")
    return evaluate_conversations(
        folder, model, lambda memory, settings: chosen_modes(memory, settings, modes), notice
    )


def _run_suite(suite: Path, modes: tuple[str, ...], model: str | None) -> Report:
    from memcli.core.timeutil import now
    from memcli.retrieval.evaluation import build_suite_store
    from memcli.service.memory import Memory
    from memcli.store.location import StoreLocation

    with tempfile.TemporaryDirectory(prefix="mem-eval-") as folder:
        root = Path(folder) / "store"
        notice(f"building the eval store from {suite}")
        build_suite_store(suite, root, now())
        memory = Memory(StoreLocation(root, "--store"), notify=notice)
        memory.model = model or None  # given here: not a store's setting (core.trust)
        memory.refresh_index()
        prompts = suite / "prompts.jsonl"
        return _run(
            memory, suite / "queries.jsonl", modes, model, prompts if prompts.is_file() else None
        )


def _print_report(report: Report, by_style: bool) -> None:
    data = report.to_json()
    click.echo(
        f"{data['queries']} labelled queries and {data['offtopic']} off-topic prompts "
        f"over {data['memories']:,} memories; {data['semantic']}"
    )
    click.echo("")
    click.echo(f"{'mode':<10}" + "".join(f"{m:>11}" for m in MEASURES))
    baseline = data["modes"]["bm25"]
    for mode, values in data["modes"].items():
        click.echo(f"{mode:<10}" + "".join(f"{values[m]:>11.3f}" for m in MEASURES))
    for mode, values in data["modes"].items():
        if mode != "bm25" and baseline["recall@10"]:
            change = values["recall@10"] / baseline["recall@10"] - 1
            click.echo(f"{mode} recall@10 vs bm25: {change:+.1%}")
    if by_style:
        click.echo("")
        styles = sorted({s for per in data["by_style"].values() for s in per})
        click.echo(f"{'recall@10':<10}" + "".join(f"{s[:11]:>12}" for s in styles))
        for mode, per in data["by_style"].items():
            cells = [per.get(s, {}).get("recall@10") for s in styles]
            click.echo(
                f"{mode:<10}"
                + "".join(f"{c:>12.3f}" if c is not None else f"{'-':>12}" for c in cells)
            )
    for mode, gate in data["recall"].items():
        click.echo("")
        click.echo(
            f"recall ({mode}): helped {gate['hit_rate']:.1%} of labelled prompts, "
            f"answered {gate['answered']} with {gate['precision']:.1%} of its memories right; "
            f"answered {gate['offtopic_answered']} of {gate['offtopic']} prompts nothing answers"
        )
        _print_gate(gate["by_style"])


def _print_gate(styles: dict[str, dict[str, Any]]) -> None:
    """The gate by style and half: a right memory shown, or (nothing answers) any shown."""
    from memcli.retrieval.evaluation import HALVES

    click.echo(f"{'gate':<24}" + "".join(f"{name:>16}" for name in HALVES))
    negatives = False
    for style, halves in styles.items():
        if not halves["labelled"] and not negatives:
            click.echo("false fires (nothing answers)")
            negatives = True
        cells = []
        for name in HALVES:
            tally = halves[name]
            done = tally["shown"] if halves["labelled"] else tally["answered"]
            rate = f"{tally['rate']:.1%}" if tally["rate"] is not None else "-"
            cells.append(f"{done:>4}/{tally['prompts']:<4}{rate:>8}")
        click.echo(f"  {style[:22]:<22}" + "".join(f"{c:>16}" for c in cells))
