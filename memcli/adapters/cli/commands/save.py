from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from memcli.adapters.cli.guard_options import given_guards, guard_options, suggestion_hint
from memcli.adapters.cli.options import (
    json_option,
    notice,
    open_memory,
    secrets_options,
    store_options,
)
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import InvalidInput
from memcli.core.schema import LAYERS, OBSERVATION_TYPES

if TYPE_CHECKING:
    from memcli.core.secrets import Policy
    from memcli.service.layers import LayeredMemory


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
@click.option(
    "--supersedes",
    "supersedes",
    multiple=True,
    metavar="ID|KEY",
    help="A memory this one replaces (repeatable): it leaves search, context and recall.",
)
@guard_options(
    "A tool call the memory watches (repeatable): the agents' pre-tool hook "
    "refuses it, asks about it or warns of it."
)
@click.option("--session", help="The agent session it came from.")
@click.option(
    "--agent",
    help="The agent that wrote it (claude, codex, ...; default: the one detected, if any).",
)
@click.option(
    "--input",
    "input_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="What stdin holds: the text, or one JSON object of fields (as agents send).",
)
@click.option(
    "--layer",
    type=click.Choice(LAYERS),
    help="Where it goes: your own memory for every project (user), the project's, or the "
    "team's folder in the project's repository, staged for review. [default: the layer "
    "holding --key (the team's only when asked), else [layers] in mem.toml, else project]",
)
@click.option(
    "--commit",
    "commit_team",
    is_flag=True,
    help="In the team layer (a .mem-team folder), commit the memory in the project's "
    "repository instead of only staging it for review (implies --layer team).",
)
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
    supersedes: tuple[str, ...],
    guard_specs: tuple[str, ...],
    guard_action: str | None,
    session: str | None,
    agent: str | None,
    input_format: str,
    layer: str | None,
    commit_team: bool,
    secrets: Policy,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Save a memory and commit it; prints its id.

    The text comes from the argument or, without one, from stdin. With
    --input json, stdin holds one JSON object instead (text, type, title,
    facts, concepts, files, key, importance, session, agent, guards,
    guard_action) and options override its fields. --json prints the stored
    memory as JSON.

    A guard makes the memory a rule the agents' pre-tool hook checks each tool
    call against: --guard 'Bash:npm install*' --guard-action deny refuses such
    a command and tells the agent which memory forbids it. A malformed guard is
    refused and nothing is saved.

    Provenance: the agent (--agent, or Claude Code when run from its shell) and,
    when the current directory is in a project's git repository, that
    repository's HEAD are recorded with the memory (`mem stale` uses them).

    Text that looks like it holds a secret (a private key, an API key or token,
    a password assignment) is refused before anything reaches git, unless
    --redact or --allow-secret says what to do. <private>...</private> spans
    are never stored.

    An exact duplicate of a stored memory (same type, same text once case,
    spaces and punctuation are folded) is not saved again: its id is printed
    and nothing is committed (--json: "duplicate_of"). A near-duplicate is saved,
    and the memories it resembles are named on stderr (--json: "similar"):
    update one by its key instead, or replace it with --supersedes.

    \b
    Example:
        mem save "FTS5 MATCH parses foo-bar as a column filter" --type gotcha \\
            --fact "quote each term before MATCH" --concept sqlite,fts5
        mem save "I use pnpm, never npm" --type preference --layer user \\
            --guard 'Bash:npm *' --guard-action deny
        echo '{"text": "...", "type": "decision"}' | mem save --input json --json
    """
    from pathlib import Path

    from memcli.api import MemStore
    from memcli.capture.provenance import detected_agent, project_commit
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
        agent=agent,
        supersedes=list(supersedes) or None,
        guards=given_guards(guard_specs, guard_action),
    )
    stdin = _read_stdin() if text is None else ""
    if input_format == "text" and as_json and text is None and stdin.lstrip().startswith("{"):
        click.echo(
            "mem: reading a JSON object with --json is deprecated: use --input json "
            "(--json only prints the result)",
            err=True,
        )
        input_format = "json"
    if input_format == "json":
        if text is not None:
            raise click.UsageError("--input json reads stdin: give no TEXT argument")
        try:
            payload = json.loads(stdin)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"the JSON payload on stdin is not valid JSON: {exc}") from None
        draft = Draft.from_json(payload).merged(given)
    elif text is None:
        draft = given.merged(Draft(text=stdin))
    else:
        draft = given
    memory = open_memory(store_dir, project)
    if commit_team:
        layer = _commit_in_team(memory, layer)
    if not draft.agent:
        draft.agent = detected_agent()
    if not draft.project_commit:
        draft.project_commit = project_commit(Path.cwd(), store_root=memory.store.root)
    saved = MemStore(memory).save_draft(draft, secrets=secrets, layer=layer)
    hint = suggestion_hint(saved) if saved["action"] != "duplicate" else None
    if as_json:
        echo_json(saved)
        if hint:
            notice(hint)
        return
    click.echo(saved["id"])
    where = f" in the {saved['layer']} layer" if saved["layer"] != memory.layers.home else ""
    if saved["action"] == "duplicate":
        click.echo(
            f"mem: not saved: {saved['id']} holds the same text already{where} "
            f"({saved['title'][:60]})",
            err=True,
        )
    elif saved["action"] != "saved":
        click.echo(f"mem: {saved['action']} the memory with key {draft.key!r}{where}", err=True)
    elif where:
        click.echo(f"mem: saved{where}", err=True)
    if "key_held_by_team" in saved:
        click.echo(_team_key_line(draft.key or "", saved), err=True)
    for similar in saved.get("similar", []):
        handle = f"key {similar['key']!r}" if similar["key"] else similar["id"]
        click.echo(
            f"mem: similar to {similar['id']} ({similar['title'][:60]}; "
            f"{similar['similarity']:.2f}): update {handle} instead, or --supersedes it",
            err=True,
        )
    if hint:
        notice(hint)


def _team_key_line(key: str, saved: dict[str, Any]) -> str:
    """The team holds the key too, and this save left its memory alone."""
    return (
        f"mem: the team layer holds the key {key!r} too ({saved['key_held_by_team']}); "
        "it is left as it is (--layer team updates it)"
    )


def _commit_in_team(memory: LayeredMemory, layer: str | None) -> str:
    """``--commit``: the team store commits its write (every other store always does)."""
    if layer not in (None, "team"):
        raise click.UsageError(
            "--commit is for the team layer (a .mem-team folder); every other store commits "
            "each save already"
        )
    from memcli.store.team import TeamStore

    store = memory.layers.memory("team").store
    if isinstance(store, TeamStore):
        store.commit_writes = True
    return "team"


def _read_stdin() -> str:
    """All of stdin, or nothing when it is a terminal (never wait for typing)."""
    if sys.stdin is None or sys.stdin.isatty():
        return ""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("stdin is not valid UTF-8 text") from None
