from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from memcli.adapters.cli.options import (
    filter_options,
    json_option,
    layer_option,
    notice,
    open_memory,
    store_options,
)
from memcli.adapters.cli.output import echo_entries, echo_json, note_lines
from memcli.core.serialize import note_dict
from memcli.index import NO_FILTERS, Filters

if TYPE_CHECKING:
    from memcli.retrieval.search import Hit, Outcome
    from memcli.service.memory import Memory
    from memcli.service.transcripts import TranscriptHit

NOTES = 3
"""Sections of the curated notes shown below the memories, at most."""
TRANSCRIPT_HITS = 5
"""Transcript messages shown below the memories with --transcripts, at most."""
_STRATEGY_NOTICES = {
    "substring": "no word matched; showing memories containing the text",
}


@click.command()
@click.argument("query")
@filter_options
@click.option(
    "--limit",
    default=10,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="At most this many results.",
)
@click.option(
    "--all",
    "strict",
    is_flag=True,
    help="Only memories with every word of the query (stop words are still dropped).",
)
@click.option(
    "--mode",
    type=click.Choice(["lexical", "semantic", "hybrid"]),
    help="Ranking: full text, meaning (needs a model), or both fused. [default: from mem.toml, "
    "hybrid when a model is set]",
)
@click.option(
    "--raw",
    is_flag=True,
    help="Pass the query to SQLite FTS5 as it is (AND, OR, NOT, NEAR, column:term, prefix*).",
)
@click.option(
    "--explain", is_flag=True, help="Show how each hit was scored, the terms and the SQL."
)
@click.option(
    "--transcripts",
    "with_transcripts",
    is_flag=True,
    help="Also the best messages of the indexed session transcripts, below the memories.",
)
@json_option
@layer_option
@store_options
def search(
    query: str,
    filters: Filters,
    limit: int,
    strict: bool,
    mode: str | None,
    raw: bool,
    explain: bool,
    with_transcripts: bool,
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Search memories; prints one line per hit: id, type, age, title.

    The query can be a whole sentence: stop words ("the", "why", "does") are
    dropped, the other words are matched whole (with stemming), any of them,
    and memories matching more of them rank higher. "an exact phrase" and
    prefix* work; --all wants every word. When no word matches, a substring
    search answers. --explain prints each hit's score and why. The best
    sections of MEMORY.md and notes/**/*.md follow, as "note  FILE:LINE
    Heading — text" (not with filters; in --json as kind "note"). With
    --transcripts, messages of `mem transcripts sync`'s index come last, as
    "transcript  SESSION:N  time  role  snippet" (in --json as kind "transcript").

    \b
    Example:
        mem search "why does the upload keep failing after a minute?"
        mem search "column filter" --all --type gotcha --since 2w
        mem search index* --concept sqlite --json
    """
    if not query.strip():
        raise click.BadParameter("the query is empty", param_hint="QUERY")
    if raw and strict:
        raise click.UsageError("--raw and --all cannot be used together")
    if strict and mode == "semantic":
        raise click.UsageError("--all matches words, and --mode semantic matches meaning only")
    from memcli.retrieval.search import Searcher

    memory = open_memory(store_dir, project, layer)
    searcher = Searcher(memory)
    outcome = searcher.search(query, filters, limit=limit, mode=mode, strict=strict, raw=raw)
    if mode in ("semantic", "hybrid") and outcome.mode != mode:
        notice(f"{outcome.semantic}; searching by full text")
    # Curated notes have no type, time or tags: a filtered search is about memories only.
    notes = [] if raw or strict or filters != NO_FILTERS else searcher.notes(query, limit=NOTES)
    if not outcome.hits and not notes:
        shown = query if len(query) <= 80 else f"{query[:77]}..."
        notice(f"no memory matches {shown!r}")
    elif outcome.strategy in _STRATEGY_NOTICES:
        notice(_STRATEGY_NOTICES[outcome.strategy])
    short_ids = memory.read(lambda index: index.short_ids([e.id for e in outcome.entries]))
    messages = _transcript_hits(memory, query, filters) if with_transcripts else []
    if as_json:
        sections = [note_dict(hit) | {"matched": matched} for hit, matched in notes]
        sections += [hit.to_json() for hit in messages]
        if explain:
            explained = _explained_json(outcome, short_ids, searcher.semantic_line())
            echo_json(explained | {"notes": sections})
        else:
            echo_json([entry.to_json(short_ids[entry.id]) for entry in outcome.entries] + sections)
        return
    # Notes and transcript messages are labelled where a memory shows its id: one column.
    labels = ["note"] * bool(notes) + ["transcript"] * bool(messages)
    width = max([len(short_id) for short_id in short_ids.values()] + [len(x) for x in labels] + [0])
    if explain:
        _echo_explained(outcome, short_ids, searcher.semantic_line())
    else:
        echo_entries(outcome.entries, short_ids, width=width)
    for line in note_lines([hit for hit, _ in notes]):
        click.echo(f"{'note':<{width}}  {line}")
    if messages:
        from memcli.adapters.cli.commands.transcripts import hit_line

        for hit in messages:
            click.echo(f"{'transcript':<{width}}  {hit_line(hit)}")


def _transcript_hits(memory: Memory, query: str, filters: Filters) -> list[TranscriptHit]:
    from memcli.service import transcripts

    path = transcripts.transcripts_path(memory.store)
    if not path.exists():
        notice("no transcripts are indexed yet; run `mem transcripts sync`")
        return []
    chosen = transcripts.SearchFilters(since=filters.since, until=filters.until)
    hits, _ = transcripts.search(path, query, chosen, limit=TRANSCRIPT_HITS)
    return hits


def _echo_explained(outcome: Outcome, short_ids: dict[str, str], semantic: str) -> None:
    from memcli.retrieval.search import explain_sql

    plan = outcome.plan
    terms = ", ".join(term.to_fts() for term in plan.terms) or "(none)"
    if outcome.strategy == "raw":
        click.echo(f"query (FTS5, as typed): {outcome.match}")
    else:
        click.echo(f"query terms: {terms}" + (" (all required)" if plan.strict else " (any)"))
    if plan.dropped and outcome.strategy != "raw":
        click.echo(f"stop words dropped: {', '.join(plan.dropped)}")
    if outcome.common:
        click.echo(
            f"too common to pick candidates by (in over a tenth of the memories; "
            f"still counted): {', '.join(outcome.common)}"
        )
    click.echo(f"mode: {outcome.mode}; {semantic}")
    click.echo(f"strategy: {outcome.strategy}")
    click.echo(f"sql: {explain_sql(outcome.match)}")
    for hit in outcome.hits:
        click.echo("")
        echo_entries([hit.entry], short_ids)
        click.echo(f"    {_parts_line(hit, len(plan.terms))}")


def _parts_line(hit: Hit, terms: int) -> str:
    parts = hit.parts
    pieces = []
    if parts.lexical_rank is not None:
        pieces.append(
            f"bm25 #{parts.lexical_rank} ({parts.bm25:.3g}, {parts.matched}/{terms} terms,"
            f" boosted {parts.lexical:.3g})"
        )
    if parts.semantic_rank is not None:
        pieces.append(f"semantic #{parts.semantic_rank} (similarity {parts.similarity:.3f})")
    if not pieces:
        return "substring match (no score)"
    pieces.append(f"fused {parts.fused:.5f}")
    pieces.append(f"x recency {parts.recency:.3f}")
    pieces.append(f"x importance {parts.importance:.3f}")
    return " · ".join(pieces) + f" = {parts.score:.5f}"


def _explained_json(outcome: Outcome, short_ids: dict[str, str], semantic: str) -> dict[str, Any]:
    from memcli.retrieval.search import explain_sql

    return {
        "terms": [term.to_fts() for term in outcome.plan.terms],
        "dropped": outcome.plan.dropped,
        "common": list(outcome.common),
        "strict": outcome.plan.strict,
        "mode": outcome.mode,
        "semantic": semantic,
        "strategy": outcome.strategy,
        "sql": explain_sql(outcome.match),
        "hits": [
            {**hit.entry.to_json(short_ids[hit.entry.id]), "explain": hit.parts._asdict()}
            for hit in outcome.hits
        ],
    }
