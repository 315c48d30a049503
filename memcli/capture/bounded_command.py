"""A program of the user's run with bounded input, time and output: the optional commands.

``[summarize] command`` and ``[consolidate] command`` are run this way. The command
(split like a shell would, but run without one) gets its input on stdin, cut to
``max_input`` characters, every likely secret in it redacted and ``<private>`` spans
left out (the command is often a hosted model); its stdout, read up to
``MAX_OUTPUT_BYTES``, is the answer. The deadline runs from its start, its input
written within it; what a process it started elsewhere writes after it ended is not
waited for. A non-zero exit, a timeout (its whole process group is killed), no
answer or too long an answer is a ``CommandFailed`` with the reason: the caller falls
back to what mem does without it.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import threading

MAX_OUTPUT_BYTES = 64 * 1024


class CommandFailed(Exception):
    """The command gave no usable answer; the message says why."""


def run_bounded(command: str, text: str, *, timeout: float, max_input: int) -> str:
    """The command's answer to ``text`` on its stdin (cut to ``max_input`` characters)."""
    from memcli.core.secrets import CUT_MARGIN, redact, redacted_head
    from memcli.core.validate import strip_private

    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise CommandFailed(f"the command cannot be split into words ({exc})") from None
    if not argv:
        raise CommandFailed("the command is empty")
    # Redacted whole, then cut: a secret the cut goes through is redacted by the cut.
    head = redact(strip_private(text)[: max_input + 2 * CUT_MARGIN])
    given = redacted_head(head, max_input).encode("utf-8", "replace")
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
        raise CommandFailed(f"the command cannot be started ({exc.strerror or exc})") from None
    assert process.stdin is not None and process.stdout is not None
    output = bytearray()
    over = threading.Event()

    def read() -> None:
        # Closes what it reads: a process the command started in a session of its own may
        # hold the pipe open long after the command is done, and mem does not wait for it.
        assert process.stdout is not None
        try:
            while chunk := os.read(process.stdout.fileno(), 8192):
                if len(output) + len(chunk) > MAX_OUTPUT_BYTES:
                    over.set()
                    _kill(process)
                    return
                output.extend(chunk)
        finally:
            process.stdout.close()

    def write() -> None:
        # In its own thread: a command that never reads would block a write larger than
        # a pipe holds, and the deadline must run from the start.
        assert process.stdin is not None
        try:
            process.stdin.write(given)
        except OSError:
            pass  # it did not read its input: its exit status tells the rest
        finally:
            try:
                process.stdin.close()
            except OSError:
                pass

    reader = threading.Thread(target=read, daemon=True)
    writer = threading.Thread(target=write, daemon=True)
    reader.start()
    writer.start()
    try:
        status = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        process.wait()
        raise CommandFailed(f"the command timed out (over {timeout:g} s) and was stopped") from None
    finally:
        writer.join(timeout=1)
        reader.join(timeout=1)
    answer = bytes(output).decode("utf-8", "replace").strip()
    if over.is_set():
        raise CommandFailed(f"the command's answer is over {MAX_OUTPUT_BYTES // 1024} KB")
    if status != 0:
        raise CommandFailed(f"the command exited with status {status}")
    if not answer:
        raise CommandFailed("the command gave an empty answer")
    return answer


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Stop the command and everything it started (its own process group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        pass
