from __future__ import annotations

from pathlib import Path

import click

from memcli.adapters.cli.options import json_option, notice, store_options
from memcli.adapters.cli.output import echo_json


@click.group()
def capture() -> None:
    """Capture what an agent session did as memories (run by the agent hooks).

    \b
    Example:
        mem capture session-end --agent claude --session ID \\
            --transcript ~/.claude/projects/P/ID.jsonl --cwd "$PWD"
    """


@capture.command("session-end")
@click.option("--agent", default="claude", show_default=True, help="The agent of the session.")
@click.option("--session", help="The session id (required).")
@click.option(
    "--transcript",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The session's transcript, JSONL (required).",
)
@click.option(
    "--cwd",
    type=click.Path(path_type=Path),
    help="The session's working directory: it selects the store and the project commit.",
)
@click.option(
    "--drafts-only",
    is_flag=True,
    help="Only draft the session's lessons (after a compaction: the session goes on).",
)
@json_option
@store_options
def session_end(
    agent: str,
    session: str | None,
    transcript: Path | None,
    cwd: Path | None,
    drafts_only: bool,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Write one summary of a finished session from its transcript, once.

    What the SessionEnd hook starts in the background: it extracts the first
    request, the files read and edited, the commands run, the last answer and
    the compaction summaries, and commits them as a session summary (likely
    secrets redacted), and the lessons the session taught as drafts for `mem
    review` (one commit); then it brings the transcript index up to date (best
    effort). Run again for the same session, it changes nothing. A session
    without a real request writes nothing.

    \b
    Example:
        mem capture session-end --agent claude --session 8f2e... \\
            --transcript ~/.claude/projects/-home-me-app/8f2e....jsonl --cwd ~/app
    """
    from memcli.capture.session_end import SYNC_TIMEOUT, capture_session_end, transcripts_sync
    from memcli.capture.transcripts.records import AGENTS
    from memcli.core.errors import InvalidInput
    from memcli.core.validate import check_agent
    from memcli.service.memory import Memory
    from memcli.store.location import locate

    if not session or transcript is None:
        raise click.UsageError(f"Missing option '--{'session' if not session else 'transcript'}'.")
    agent = check_agent(agent) or "claude"
    if agent not in AGENTS:
        known = ", ".join(AGENTS)
        raise InvalidInput(f"no transcript reader for the agent {agent!r} (known: {known})")
    if not transcript.is_file():
        raise InvalidInput(f"the transcript {transcript} is not a file")
    if cwd is not None and not cwd.is_dir():  # its store and project are unknown: write nowhere
        raise InvalidInput(f"the session's working directory {cwd} is not a folder")
    where = cwd or Path.cwd()
    memory = Memory(locate(store_dir, project, where), notify=notice)
    memory.model_downloads = "none"  # run by a session-end hook: no waiting for a model
    result = capture_session_end(
        memory,
        agent=agent,
        session=session,
        transcript=transcript,
        cwd=cwd,
        summary=not drafts_only,
    )
    # After the summary (the next session wants it soon), and best effort: its
    # failure stops nothing.
    if not drafts_only:
        transcripts_sync(agent, f"{agent} session end: transcript sync", wait=SYNC_TIMEOUT)
    if as_json:
        echo_json(
            {
                "action": result.action,
                "id": result.summary_id,
                "commit": result.commit,
                "summarize_fallback": result.fallback,
                "drafts": result.drafts,
            }
        )
    elif result.action == "saved":
        click.echo(result.summary_id)
    elif drafts_only:
        notice(f"{result.drafts} lesson draft{'s' * (result.drafts != 1)} for `mem review`")
    else:
        notice(
            "this session's summary was captured before"
            if result.action == "already"
            else "no request in the transcript: nothing to summarize"
        )
