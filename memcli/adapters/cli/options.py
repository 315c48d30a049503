"""Options shared by several commands, and how commands open the memory.

The memory itself (index, store, service) is imported by the functions that open
or filter it, not here: ``mem mcp`` takes these options and must start without it.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from memcli.core.errors import InvalidInput
from memcli.core.schema import LAYERS, OBSERVATION_TYPES
from memcli.core.timeutil import parse_since, parse_until

if TYPE_CHECKING:
    from memcli.service.layers import LayeredMemory
    from memcli.service.memory import Memory

F = TypeVar("F", bound=Callable[..., Any])


def notice(message: str) -> None:
    """A one-line notice on stderr, where it never mixes with --json output."""
    click.echo(f"mem: {message}", err=True)


def store_options(f: F) -> F:
    f = click.option(
        "--project",
        metavar="NAME",
        help="Use this project's central store instead of the one found from here.",
    )(f)
    return click.option(
        "--store",
        "store_dir",
        metavar="DIR",
        help="Use the store in DIR (also MEM_STORE).",
    )(f)


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")(f)


def open_memory(
    store_dir: str | None, project: str | None, layer: str | None = None, *, borrow: bool = False
) -> LayeredMemory:
    """The memory found from here, reading every layer present (``layer``: only that one).

    Its writer writes to the store found (the project's); a command that writes
    elsewhere asks ``memory.layers`` for that layer's own memory.
    """
    from memcli.service.layers import Layers
    from memcli.store.location import locate

    terminal = sys.stderr is not None and sys.stderr.isatty()
    progress = terminal_progress() if terminal else None
    cwd = Path.cwd()
    location = locate(store_dir, project, cwd)
    layers = Layers(location, cwd, notice, progress)
    memory = layers.reader(layer, borrow=borrow)
    if terminal:
        memory.embedding_progress = terminal_progress("embedding", "memories")
    return memory


def layer_store(store_dir: str | None, project: str | None, layer: str | None) -> Memory:
    """One layer's own memory, which must exist: the found store's, or ``layer``'s."""
    memory = open_memory(store_dir, project).layers.memory(layer)
    memory.require_store()
    return memory


def layer_option(f: F) -> F:
    """``--layer``: read only the user's, the project's or the team's memories."""
    return click.option(
        "--layer",
        type=click.Choice(LAYERS),
        help="Only this layer's memories (default: every layer present).",
    )(f)


def open_existing(
    store_dir: str | None, project: str | None, layer: str | None = None, *, borrow: bool = False
) -> LayeredMemory:
    """The memory of a store that must exist already (a clear error when it does not)."""
    memory = open_memory(store_dir, project, layer, borrow=borrow)
    memory.require_store()
    return memory


def terminal_progress(
    doing: str = "indexing", what: str = "memory files", *, after: float = 0.0
) -> Callable[[int, int], None]:
    """A one-line counter on the terminal, redrawn at most ten times a second.

    With ``after``, nothing is drawn until that many seconds have passed (a quick
    run stays quiet), and then to the end.
    """
    last = 0.0
    quiet_until = time.monotonic() + after

    def report(done: int, total: int) -> None:
        nonlocal last
        moment = time.monotonic()
        if moment < quiet_until and not last:
            return
        if done < total and moment - last < 0.1:
            return
        last = moment
        end = "\n" if done >= total else ""
        click.echo(f"\rmem: {doing} {done:,} of {total:,} {what}{end}", err=True, nl=False)

    return report


def _time_value(parse: Callable[[str], str | None]) -> Callable[..., str | None]:
    """A click callback turning a --since/--until value into a timestamp, or a usage error."""

    def callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return parse(value)
        except InvalidInput as exc:
            raise click.BadParameter(str(exc)) from None

    return callback


since_value = _time_value(parse_since)
until_value = _time_value(parse_until)
"""Before this time; a bare date includes that whole day."""


def since_option(what: str) -> Callable[[F], F]:
    """``--since WHEN``; ``what`` starts its help line."""
    return click.option(
        "--since",
        callback=since_value,
        metavar="WHEN",
        help=f"{what}: 12h, 3d, 2w, 1m, 1y or an ISO date.",
    )


def filter_options(f: F) -> F:
    """--type, --kind, --since, --until, --concept, --file; the command gets ``filters``."""

    def collect(**kwargs: Any) -> Any:
        from memcli.index import Filters

        names = ("types", "kind", "since", "until", "concepts", "files", "superseded")
        kwargs["filters"] = Filters(**{name: kwargs.pop(name) for name in names})
        return f(**kwargs)

    wrapped: Any = functools.update_wrapper(collect, f)
    for decorator in reversed(
        [
            click.option(
                "--type",
                "types",
                multiple=True,
                type=click.Choice(OBSERVATION_TYPES),
                help="Only memories of this type (repeatable).",
            ),
            click.option(
                "--kind",
                type=click.Choice(["observation", "summary"]),
                help="Only observations, or only session summaries.",
            ),
            since_option("Only memories created since"),
            click.option(
                "--until",
                callback=until_value,
                metavar="WHEN",
                help="Only memories created before (a date includes that day).",
            ),
            click.option(
                "--concept",
                "concepts",
                multiple=True,
                metavar="CONCEPT",
                help="Only memories tagged with this concept (repeatable: any of them).",
            ),
            click.option(
                "--file",
                "files",
                multiple=True,
                metavar="PATH",
                help="Only memories about this file or folder (repeatable: any of them).",
            ),
            superseded_option,
        ]
    ):
        wrapped = decorator(wrapped)
    return wrapped  # type: ignore[no-any-return]


def superseded_option(f: F) -> F:
    """``--include-superseded``: the command gets ``superseded``."""
    return click.option(
        "--include-superseded",
        "superseded",
        is_flag=True,
        help="Also memories another one supersedes (left out by default).",
    )(f)


def budget_option(f: F) -> F:
    return click.option(
        "--budget",
        type=click.IntRange(200, 1_000_000),
        metavar="CHARS",
        help="Hard limit in characters (default: mem.toml, else 8000).",
    )(f)


def format_option(f: F) -> F:
    """``--json`` (JSON with details), as every command has it; the command gets
    ``output_format``: ``md`` or ``json``. ``--format md|json``, the older spelling,
    stays as a hidden alias."""

    @functools.wraps(f)
    def chosen(*args: Any, as_json: bool, output_format: str, **kwargs: Any) -> Any:
        return f(*args, output_format="json" if as_json else output_format, **kwargs)

    chosen = click.option(
        "--format",
        "output_format",
        type=click.Choice(["md", "json"]),
        default="md",
        hidden=True,
    )(chosen)
    return cast(F, json_option(chosen))


def secrets_options(f: F) -> F:
    """--redact and --allow-secret; the command gets ``secrets``: refuse, redact or allow."""

    def policy(**kwargs: Any) -> Any:
        redact, allow = kwargs.pop("redact"), kwargs.pop("allow_secret")
        if redact and allow:
            raise click.UsageError("give one of --redact and --allow-secret, not both")
        kwargs["secrets"] = "redact" if redact else "allow" if allow else "refuse"
        return f(**kwargs)

    wrapped: Any = functools.update_wrapper(policy, f)
    wrapped = click.option(
        "--allow-secret",
        is_flag=True,
        help="Store it even though it looks like it holds a secret (deliberately).",
    )(wrapped)
    return click.option(  # type: ignore[no-any-return]
        "--redact",
        is_flag=True,
        help="Store likely secrets (keys, tokens, passwords) as [REDACTED:…].",
    )(wrapped)
