"""The optional ``[summarize] command``: any program that turns a session's facts into prose.

The command gets a prompt and the extracted facts on stdin, within
``max_input_chars``, and is run bounded (``capture.bounded_command``): its stdout
becomes the summary's text. Any failure is a ``SummarizeFailed`` with the reason:
the caller keeps the extractive summary.
"""

from __future__ import annotations

from memcli.capture.bounded_command import MAX_OUTPUT_BYTES, CommandFailed, run_bounded

__all__ = ["MAX_OUTPUT_BYTES", "PROMPT", "SummarizeFailed", "run_summarize_command"]

PROMPT = (
    "Summarize this coding-agent session for the team's memory in a few short paragraphs: "
    "what was asked, what was found, what was done and what is left. Answer in markdown, "
    "without a preamble. The facts extracted from the session's transcript follow.\n\n"
)


class SummarizeFailed(CommandFailed):
    """The command gave no usable answer; the message says why."""


def run_summarize_command(command: str, facts: str, *, timeout: float, max_input: int) -> str:
    """The command's answer to the prompt and ``facts`` (cut to ``max_input`` characters)."""
    try:
        return run_bounded(command, PROMPT + facts, timeout=timeout, max_input=max_input)
    except CommandFailed as exc:
        raise SummarizeFailed(str(exc)) from None
