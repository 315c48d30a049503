from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import click

from memcli.adapters.cli.options import (
    filter_options,
    json_option,
    layer_option,
    notice,
    open_memory,
    store_options,
)
from memcli.adapters.cli.output import entry_lines, json_text, note_lines
from memcli.core.serialize import note_dict
from memcli.index import NO_FILTERS, Entry, Filters

if TYPE_CHECKING:
    from memcli.retrieval.search import Hit, Outcome, Searcher
    from memcli.service.all_projects import AllProjects
    from memcli.service.memory import Memory
    from memcli.service.transcripts import TranscriptHit

NOTES = 3
"""Sections of the curated notes shown below the memories, at most."""
TRANSCRIPT_HITS = 5
"""Transcript messages shown below the memories with --transcripts, at most."""
MAX_LIMIT = 1000
MODES = ("lexical", "semantic", "hybrid")
KINDS = (None, "observation", "summary")
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
    type=click.IntRange(1, MAX_LIMIT),
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
    type=click.Choice(MODES),
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
@click.option(
    "--all-projects",
    "all_projects",
    is_flag=True,
    help="Every project's memories under MEM_HOME (and the user's), in one ranking; each hit "
    "names its project and how to show it.",
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
    all_projects: bool,
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
    With --all-projects, every project's store is searched too (memories only),
    each hit ending with the command that shows it ("mem show ID --project NAME").

    \b
    Example:
        mem search "why does the upload keep failing after a minute?"
        mem search "column filter" --all --type gotcha --since 2w
        mem search index* --concept sqlite --json
        mem search "retry policy for uploads" --all-projects
    """
    if not query.strip():
        raise click.BadParameter("the query is empty", param_hint="QUERY")
    if raw and strict:
        raise click.UsageError("--raw and --all cannot be used together")
    if strict and mode == "semantic":
        raise click.UsageError("--all matches words, and --mode semantic matches meaning only")
    asked = SearchAsked(
        query, filters, limit, strict, mode, raw, explain, with_transcripts, as_json
    )
    if all_projects:
        if layer or with_transcripts:
            option = "--layer" if layer else "--transcripts"
            raise click.UsageError(f"{option} reads this project only: drop it or --all-projects")
        reader = _all_projects(store_dir, project)
        try:
            found = reader.searched(lambda notify: search_text(reader, asked, notify, across=True))
            click.echo(found, nl=False)
        finally:
            reader.close()
        return
    from memcli.adapters.worker import reads

    text = reads.ask("search", store_dir, project, asked.request(), notice) if not layer else None
    if text is None:  # no worker answered: the same text, computed here
        text = search_text(open_memory(store_dir, project, layer), asked, notice)
    click.echo(text, nl=False)


class SearchAsked(NamedTuple):
    """A ``mem search`` as asked: what ``search_text`` answers, here or in the worker."""

    query: str
    filters: Filters
    limit: int
    strict: bool
    mode: str | None
    raw: bool
    explain: bool
    transcripts: bool
    as_json: bool

    def request(self) -> dict[str, Any]:
        """As JSON, for the worker (``from_request`` reads it back)."""
        return self._asdict() | {"filters": self.filters._asdict()}

    @classmethod
    def from_request(cls, request: dict[str, Any]) -> SearchAsked:
        """What ``request`` made; ValueError for anything ``mem search`` would not pass."""
        fields = request.get("filters")
        if not isinstance(fields, dict):
            raise ValueError("a search's filters are missing")
        filters = Filters(
            types=_texts(fields.get("types")),
            kind=_optional_text(fields.get("kind")),
            since=_optional_text(fields.get("since")),
            until=_optional_text(fields.get("until")),
            concepts=_texts(fields.get("concepts")),
            files=_texts(fields.get("files")),
            superseded=_checked(fields.get("superseded"), bool),
        )
        asked = cls(
            query=_checked(request.get("query"), str),
            filters=filters,
            limit=_checked(request.get("limit"), int),
            strict=_checked(request.get("strict"), bool),
            mode=request.get("mode"),
            raw=_checked(request.get("raw"), bool),
            explain=_checked(request.get("explain"), bool),
            transcripts=_checked(request.get("transcripts"), bool),
            as_json=_checked(request.get("as_json"), bool),
        )
        fits = asked.query.strip() and 1 <= asked.limit <= MAX_LIMIT
        if not fits or asked.mode not in (None, *MODES) or filters.kind not in KINDS:
            raise ValueError("not a search mem search would run")
        return asked


def _texts(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(each, str) for each in value):
        raise ValueError("a search's filter is not a list of texts")
    return tuple(value)


def _optional_text(value: Any) -> str | None:
    return None if value is None else str(_checked(value, str))


def _checked(value: Any, kind: type) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"a search's field is not {kind.__name__}")
    return value


def _all_projects(store_dir: str | None, project: str | None) -> AllProjects:
    """Every project's memory, read from the one found here (outside any, the user's)."""
    from pathlib import Path

    from memcli.service.all_projects import AllProjects, home_location
    from memcli.service.layers import Layers

    cwd = Path.cwd()
    return AllProjects(Layers(home_location(store_dir, project, cwd), cwd, notice).reader())


def search_text(
    memory: Memory, asked: SearchAsked, notify: Callable[[str], None], *, across: bool = False
) -> str:
    """What ``mem search`` prints on stdout (its notices given to ``notify``); ``across``: a
    search of every project (``AllProjects``), each hit naming its project."""
    from memcli.retrieval.search import Searcher

    query, filters = asked.query, asked.filters
    searcher = Searcher(memory)
    outcome = searcher.search(
        query, filters, limit=asked.limit, mode=asked.mode, strict=asked.strict, raw=asked.raw
    )
    if asked.mode in ("semantic", "hybrid") and outcome.mode != asked.mode:
        notify(f"{outcome.semantic}; searching by full text")
    # Curated notes have no type, time or tags: a filtered search is about memories only.
    plain = not (asked.raw or asked.strict or filters != NO_FILTERS or across)
    notes = searcher.notes(query, limit=NOTES) if plain else []
    if not outcome.hits and not notes:
        shown = query if len(query) <= 80 else f"{query[:77]}..."
        notify(f"no memory matches {shown!r}")
    elif outcome.strategy in _STRATEGY_NOTICES:
        notify(_STRATEGY_NOTICES[outcome.strategy])
    short_ids = memory.read(lambda index: index.short_ids([e.id for e in outcome.entries]))
    messages = _transcript_hits(memory, query, filters, notify) if asked.transcripts else []
    lines: list[str] = []
    if asked.as_json:
        sections = [note_dict(hit) | {"matched": matched} for hit, matched in notes]
        sections += [hit.to_json() for hit in messages]
        if asked.explain:
            explained = _explained_json(outcome, short_ids, searcher, across)
            lines.append(json_text(explained | {"notes": sections}))
        else:
            entries = [_hit_json(entry, short_ids, across) for entry in outcome.entries]
            lines.append(json_text(entries + sections))
        return _joined(lines)
    # Notes and transcript messages are labelled where a memory shows its id: one column.
    labels = ["note"] * bool(notes) + ["transcript"] * bool(messages)
    width = max([len(short_id) for short_id in short_ids.values()] + [len(x) for x in labels] + [0])
    if asked.explain:
        lines += _explained_lines(outcome, short_ids, searcher, across)
    else:
        lines += _hit_lines(outcome.entries, short_ids, across, width)
    lines += [f"{'note':<{width}}  {line}" for line in note_lines([hit for hit, _ in notes])]
    if messages:
        from memcli.adapters.cli.commands.transcripts import hit_line

        lines += [f"{'transcript':<{width}}  {hit_line(hit)}" for hit in messages]
    return _joined(lines)


def _hit_lines(
    entries: list[Entry], short_ids: dict[str, str], across: bool, width: int = 0
) -> list[str]:
    """A line a hit; ``across``: each ending with the command that shows it."""
    lines = entry_lines(entries, short_ids, width=width)
    if not across:
        return lines
    from memcli.service.all_projects import reference

    return [
        f"{line}  ({reference(entry, short_ids[entry.id])})"
        for line, entry in zip(lines, entries, strict=True)
    ]


def _hit_json(entry: Entry, short_ids: dict[str, str], across: bool) -> dict[str, Any]:
    """A hit's entry shape; ``across``: with its ``project`` and the ``show`` command."""
    if not across:
        return entry.to_json(short_ids[entry.id])
    from memcli.service.all_projects import hit_dict

    return hit_dict(entry, short_ids[entry.id])


def _joined(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


def _transcript_hits(
    memory: Memory, query: str, filters: Filters, notify: Callable[[str], None]
) -> list[TranscriptHit]:
    from memcli.service import transcripts

    path = transcripts.transcripts_path(memory.store)
    if not path.exists():
        notify("no transcripts are indexed yet; run `mem transcripts sync`")
        return []
    chosen = transcripts.SearchFilters(since=filters.since, until=filters.until)
    hits, _ = transcripts.search(path, query, chosen, limit=TRANSCRIPT_HITS)
    return hits


def _explained_lines(
    outcome: Outcome, short_ids: dict[str, str], searcher: Searcher, across: bool
) -> list[str]:
    from memcli.retrieval.search import explain_sql

    plan = outcome.plan
    terms = ", ".join(term.to_fts() for term in plan.terms) or "(none)"
    lines = []
    if outcome.strategy == "raw":
        lines.append(f"query (FTS5, as typed): {outcome.match}")
    else:
        lines.append(f"query terms: {terms}" + (" (all required)" if plan.strict else " (any)"))
    if plan.dropped and outcome.strategy != "raw":
        lines.append(f"stop words dropped: {', '.join(plan.dropped)}")
    if outcome.common:
        lines.append(
            f"too common to pick candidates by (in over a tenth of the memories; "
            f"still counted): {', '.join(outcome.common)}"
        )
    if outcome.newest_only is not None:
        lines.append(
            f"ranked by bm25: the newest {outcome.newest_only:,} matches only "
            "(more memories match; [search] ranked_matches)"
        )
    lines.append(f"mode: {outcome.mode}; {searcher.semantic_line()}")
    lines.append(f"strategy: {outcome.strategy}")
    lines.append(f"sql: {explain_sql(outcome.match, outcome.newest_only)}")
    for hit in outcome.hits:
        lines.append("")
        lines += _hit_lines([hit.entry], short_ids, across)
        lines.append(f"    {_parts_line(hit, len(plan.terms))}")
    return lines


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
    line = " · ".join(pieces) + f" = {parts.score:.5f}"
    if parts.held_by_lead:
        line += f" · kept at bm25's #{parts.lexical_rank} ([ranking] lexical_lead)"
    return line


def _explained_json(
    outcome: Outcome, short_ids: dict[str, str], searcher: Searcher, across: bool
) -> dict[str, Any]:
    from memcli.retrieval.search import explain_sql

    return {
        "terms": [term.to_fts() for term in outcome.plan.terms],
        "dropped": outcome.plan.dropped,
        "common": list(outcome.common),
        "newest_only": outcome.newest_only,
        "strict": outcome.plan.strict,
        "mode": outcome.mode,
        "semantic": searcher.semantic_line(),
        "strategy": outcome.strategy,
        "sql": explain_sql(outcome.match, outcome.newest_only),
        "hits": [
            {**_hit_json(hit.entry, short_ids, across), "explain": hit.parts._asdict()}
            for hit in outcome.hits
        ],
    }
