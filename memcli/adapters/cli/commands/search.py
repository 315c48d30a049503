from __future__ import annotations

import click

from memcli.adapters.cli.options import (
    filter_options,
    json_option,
    notice,
    open_memory,
    store_options,
)
from memcli.adapters.cli.output import print_entries
from memcli.index import Filters

_STRATEGY_NOTICES = {
    "any": "no memory has all of the words; showing those with any of them",
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
    "--raw",
    is_flag=True,
    help="Pass the query to SQLite FTS5 as it is (AND, OR, NOT, NEAR, column:term, prefix*).",
)
@json_option
@store_options
def search(
    query: str,
    filters: Filters,
    limit: int,
    raw: bool,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Search memories; prints one line per hit: id, type, age, title.

    Words are matched whole (with stemming), all of them first, then any of
    them; "an exact phrase" and prefix* work; everything else is a plain word.
    When no word matches, a substring search answers.

    \b
    Example:
        mem search "column filter" --type gotcha --since 2w
        mem search index* --concept sqlite --json
    """
    if not query.strip():
        raise click.BadParameter("the query is empty", param_hint="QUERY")
    memory = open_memory(store_dir, project)
    result = memory.read(lambda index: index.search(query, filters, limit=limit, raw=raw))
    if not result.entries:
        shown = query if len(query) <= 80 else f"{query[:77]}..."
        notice(f"no memory matches {shown!r}")
    elif result.strategy in _STRATEGY_NOTICES:
        notice(_STRATEGY_NOTICES[result.strategy])
    print_entries(memory, result.entries, as_json=as_json)
