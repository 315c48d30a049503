from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.options import json_option, open_memory, secrets_options, store_options
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import InvalidInput
from memcli.core.schema import OBSERVATION_TYPES

if TYPE_CHECKING:
    from memcli.core.secrets import Policy


@click.command()
@click.argument("text", required=False)
@click.option(
    "--type",
    "type_",
    type=click.Choice(OBSERVATION_TYPES),
    help="Kind of memory (default: discovery).",
)
@click.option("--title", help="One-line title (default: the text's first sentence).")
@click.option("--fact", "facts", multiple=True, help="A short fact worth recalling (repeatable).")
@click.option(
    "--concept",
    "concepts",
    multiple=True,
    help="A concept it is about (repeatable, or comma-separated).",
)
@click.option("--file", "files", multiple=True, help="A project file it is about (repeatable).")
@click.option("--key", help="Stable handle: saving with a key that exists updates that memory.")
@click.option("--importance", type=click.FloatRange(0, 1), help="How much it matters, 0 to 1.")
@click.option("--session", help="The agent session it came from.")
@secrets_options
@json_option
@store_options
def save(
    text: str | None,
    type_: str | None,
    title: str | None,
    facts: tuple[str, ...],
    concepts: tuple[str, ...],
    files: tuple[str, ...],
    key: str | None,
    importance: float | None,
    session: str | None,
    secrets: Policy,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Save a memory and commit it; prints its id.

    The text comes from the argument or, without one, from stdin. With --json,
    stdin holds one JSON object instead (text, type, title, facts, concepts,
    files, key, importance, session), options override its fields, and the
    stored memory is printed as JSON.

    Text that looks like it holds a secret (a private key, an API key or token,
    a password assignment) is refused before anything reaches git, unless
    --redact or --allow-secret says what to do. <private>...</private> spans
    are never stored.

    \b
    Example:
        mem save "FTS5 MATCH parses foo-bar as a column filter" --type gotcha \\
            --fact "quote each term before MATCH" --concept sqlite,fts5
        echo '{"text": "...", "type": "decision"}' | mem save --json
    """
    from memcli.api import MemStore
    from memcli.core.draft import Draft

    given = Draft(
        text=text or "",
        type=type_,
        title=title,
        facts=list(facts) or None,
        concepts=[c for value in concepts for c in value.split(",")] or None,
        files=list(files) or None,
        key=key,
        importance=importance,
        session=session,
    )
    if as_json:
        try:
            payload = json.loads(_read_stdin())
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"the --json payload on stdin is not valid JSON: {exc}") from None
        draft = Draft.from_json(payload).merged(given)
    elif text is None:
        draft = given.merged(Draft(text=_read_stdin()))
    else:
        draft = given
    saved = MemStore(open_memory(store_dir, project)).save_draft(draft, secrets=secrets)
    if as_json:
        echo_json(saved)
    else:
        click.echo(saved["id"])
        if saved["action"] != "saved":
            click.echo(f"mem: {saved['action']} the memory with key {draft.key!r}", err=True)


def _read_stdin() -> str:
    """All of stdin, or nothing when it is a terminal (never wait for typing)."""
    if sys.stdin is None or sys.stdin.isatty():
        return ""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("stdin is not valid UTF-8 text") from None
