from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.options import json_option, open_memory, secrets_options, store_options
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import InvalidInput

if TYPE_CHECKING:
    from memcli.core.secrets import Policy


@click.command()
@click.option("--request", help="What the session was asked to do.")
@click.option("--investigated", help="What was looked into.")
@click.option("--learned", help="What was learned.")
@click.option("--completed", help="What got done.")
@click.option("--next-steps", "next_steps", help="What remains to do.")
@click.option("--title", help="Title (default: the request's first line).")
@click.option("--session", help="The agent session it summarises.")
@click.option(
    "--input",
    "input_format",
    type=click.Choice(["json"]),
    help="Read the sections as one JSON object on stdin (as agents do).",
)
# The older spelling of --input json, kept for scripts.
@click.option("--stdin", "from_stdin", is_flag=True, hidden=True)
@secrets_options
@json_option
@store_options
def compact(
    title: str | None,
    session: str | None,
    input_format: str | None,
    from_stdin: bool,
    secrets: Policy,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
    **sections: str | None,
) -> None:
    """Record a session summary, committed under summaries/ (`mem compact` is an alias).

    The sections are rendered through the compaction.md.j2 template; the
    summary is searchable and shown in later session-start contexts.

    \b
    Example:
        mem summarize --request "Fix search on hyphens" --learned "FTS5 needs quoted terms" \\
            --next-steps "Add a test for NEAR"
        echo '{"request": "…", "learned": "…"}' | mem summarize --input json
    """
    from memcli.core.model import SUMMARY_FIELDS

    from_stdin = from_stdin or input_format == "json"
    payload = _read_payload(SUMMARY_FIELDS) if from_stdin else {}
    # A section given as a list is the model's to join (clean_section).
    merged = {name: _checked(payload.get(name)) for name in SUMMARY_FIELDS}
    merged.update({k: v for k, v in sections.items() if v})
    result = open_memory(store_dir, project).writer.summarize(
        merged,
        title=title or _text(payload.get("title")),
        session=session or _text(payload.get("session")),
        text=_text(payload.get("text")) or "",
        secrets=secrets,
    )
    if as_json:
        from memcli.core.serialize import record_dict

        echo_json({**record_dict(result.record), "path": result.path, "commit": result.commit})
    else:
        click.echo(result.record.id)


def _read_payload(sections: tuple[str, ...]) -> dict[str, object]:
    data = sys.stdin.buffer.read() if sys.stdin is not None else b""
    try:
        payload = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"stdin is not a JSON object: {exc}") from None
    if not isinstance(payload, dict):
        raise InvalidInput("stdin must hold one JSON object")
    allowed = {*sections, "title", "session", "text"}
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise InvalidInput(
            f"unknown field in the JSON payload: {', '.join(unknown)} "
            f"(allowed: {', '.join(sorted(allowed))})"
        )
    return payload


def _checked(value: object) -> str | list[str] | None:
    """A field of the payload: a string, a list of strings, or nothing."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise InvalidInput("summary fields must be strings (or lists of strings)")


def _text(value: object) -> str | None:
    """A plain-text field of the payload (title, session, text); a list is joined as bullets."""
    checked = _checked(value)
    if isinstance(checked, list):
        return "\n".join(f"- {v}" for v in checked)
    return checked
