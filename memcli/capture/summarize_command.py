"""The optional ``[summarize] command``: any program that turns a session's facts into prose.

The command (split like a shell would, but run without one) gets a prompt and the
extracted facts on stdin, within ``max_input_chars``; its stdout, read up to
``MAX_OUTPUT_BYTES``, becomes the summary's text. A non-zero exit, a timeout (its
whole process group is killed), no answer or too long an answer is a
``SummarizeFailed`` with the reason: the caller keeps the extractive summary.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import threading

MAX_OUTPUT_BYTES = 64 * 1024
PROMPT = (
    "Summarize this coding-agent session for the team's memory in a few short paragraphs: "
    "what was asked, what was found, what was done and what is left. Answer in markdown, "
    "without a preamble. The facts extracted from the session's transcript follow.\n\n"
)


class SummarizeFailed(Exception):
    """The command gave no usable answer; the message says why."""


def run_summarize_command(command: str, facts: str, *, timeout: float, max_input: int) -> str:
    """The command's answer to the prompt and ``facts`` (cut to ``max_input`` characters)."""
    from memcli.core.secrets import redacted_head

    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise SummarizeFailed(f"the command cannot be split into words ({exc})") from None
    if not argv:
        raise SummarizeFailed("the command is empty")
    given = redacted_head(PROMPT + facts, max_input).encode("utf-8", "replace")
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
    except OSError as exc:
        raise SummarizeFailed(f"the command cannot be started ({exc.strerror or exc})") from None
    assert process.stdin is not None and process.stdout is not None
    output = bytearray()
    over = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        while chunk := process.stdout.read(8192):
            if len(output) + len(chunk) > MAX_OUTPUT_BYTES:
                over.set()
                _kill(process)
                return
            output.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        process.stdin.write(given)
    except OSError:
        pass  # it did not read its input: its exit status tells the rest
    finally:
        try:
            process.stdin.close()
        except OSError:
            pass
    try:
        status = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        process.wait()
        raise SummarizeFailed(f"the command took over {timeout:g} s and was stopped") from None
    finally:
        reader.join(timeout=1)
        process.stdout.close()
    if over.is_set():
        raise SummarizeFailed(f"the command's answer is over {MAX_OUTPUT_BYTES // 1024} KB")
    if status != 0:
        raise SummarizeFailed(f"the command exited with status {status}")
    answer = output.decode("utf-8", "replace").strip()
    if not answer:
        raise SummarizeFailed("the command gave an empty answer")
    return answer


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Stop the command and everything it started (its own process group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        pass
