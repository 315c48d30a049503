"""What the agent found: the root causes of failures it fixed, and the notes it flagged.

A root cause is told by three things in a row: a command whose result failed, the
agent's explanation (a sentence saying why: ``CAUSE``), and a change (a file
edited) after which the same command passed. The explanation is quoted; the files
edited between the failure and the pass are the files involved. An explanation
that names the root cause outright ("The culprit was …") counts after an edit even
when the command was not run again.

A note is an agent's sentence that flags something as worth knowing
("Note that the dev server must be restarted after …").
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field

from memcli.capture.lessons import patterns
from memcli.capture.lessons.session import Candidate, Turn, add_files
from memcli.capture.lessons.text import paths, words
from memcli.capture.session_summary import SHELL_TOOLS
from memcli.core.secrets import redacted_head

MAX_OPEN_FAILURES = 20
MAX_EXPLANATIONS = 8
MAX_TRACKED_CALLS = 256
MAX_ERROR_CHARS = 200
MAX_OUTPUT_TAIL = 4000
"""Of a failed tool result, the end read for its error line."""
MIN_NOTE_WORDS = 5
_SHELLS = SHELL_TOOLS | {"shell_command"}
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_OUTRIGHT = re.compile(
    r"\b(?:root cause|culprit|turns out|the (?:real )?(?:problem|issue|bug|cause) (?:was|is))\b",
    re.IGNORECASE,
)
_NAMED = re.compile(r"\b(?:root cause|culprit)\b", re.IGNORECASE)
"""Words that name a root cause outright: such a sentence needs no failure around it."""
_ERROR_LINE = re.compile(r"(?:error|exception|failed|fail|cannot|can't|not found|denied)", re.I)
_GOTCHA = re.compile(r"\b(?:gotcha|watch out|careful|silently|caveat|warning)\b", re.I)


@dataclass
class _Failure:
    command: str
    error: str
    explanations: list[tuple[Turn, list[str], bool]] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)


def command_key(command: str) -> str:
    """A command without its flags, environment and leading ``cd``: runs of "the same" one."""
    command = command.split("&&")[-1].split(";")[-1].strip()
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    kept = [a for a in argv if not a.startswith("-") and not _ENV.match(a)]
    return " ".join(kept[:6])


def agent_lessons(turns: list[Turn]) -> Iterator[Candidate]:
    """Root causes and notes, in the order the session reached them."""
    calls: dict[str, tuple[str, ...]] = {}  # a tool call's message id -> the commands it ran
    last: tuple[str, ...] = ()
    open_failures: dict[str, _Failure] = {}
    for turn in turns:
        message = turn.message
        if turn.role == "assistant":
            said = list(turn.said)
            for failure in open_failures.values():
                add_files(failure.edited, message.edited)
                _explain(failure, turn, said)
            yield from _notes(turn, said)
            yield from _named_causes(turn, said)
            if message.tools:
                if message.commands:
                    last = tuple(message.commands)
                if message.uuid:
                    calls[message.uuid] = tuple(message.commands)
                    if len(calls) > MAX_TRACKED_CALLS:
                        del calls[next(iter(calls))]
        elif turn.role == "tool":
            commands = calls.get(message.parent or "")
            if commands is None:  # no id to tell its call by (Codex): the last shell call's
                shell = _SHELLS.intersection(message.tools) or not message.tools
                commands = last if shell else ()
            for command in commands:
                key = command_key(command)
                if not key:
                    continue
                if message.failed:
                    if key not in open_failures and len(open_failures) < MAX_OPEN_FAILURES:
                        open_failures[key] = _Failure(command, _error(message.text))
                elif (failed_key := _same_run(open_failures, key)) is not None:
                    failure = open_failures.pop(failed_key)
                    if failure.edited:
                        found = _root_cause(failure, outright_only=False)
                        if found is not None:
                            yield found
    for failure in open_failures.values():
        if failure.edited:
            found = _root_cause(failure, outright_only=True)
            if found is not None:
                yield found


def _same_run(open_failures: dict[str, _Failure], key: str) -> str | None:
    """The failed command a passing one is a run of: the same, or the same with
    arguments added or dropped ("cargo test -p client" then "… --features rustls")."""
    if key in open_failures:
        return key
    for failed in open_failures:
        shorter, longer = sorted((failed, key), key=len)
        if shorter.count(" ") >= 1 and longer.startswith(shorter + " "):
            return failed
    return None


def _explain(failure: _Failure, turn: Turn, said: list[str]) -> None:
    """Keep the sentences of ``turn`` that say why ``failure`` failed."""
    if len(failure.explanations) >= MAX_EXPLANATIONS:
        return
    for index, sentence in enumerate(said):
        if sentence.rstrip().endswith("?") or patterns.NARRATION.match(sentence):
            continue
        if not patterns.CAUSE.search(sentence) or len(words(sentence)) < MIN_NOTE_WORDS:
            continue
        parts = [sentence]
        following = said[index + 1] if index + 1 < len(said) else ""
        if (
            following
            and not following.rstrip().endswith("?")
            and not patterns.NARRATION.match(following)
            and (patterns.CAUSE.search(following) or sentence.rstrip().endswith(":"))
        ):
            parts.append(following)
        strong = bool(patterns.STRONG_CAUSE.search(sentence))
        failure.explanations.append((turn, parts, strong))
        return


def _root_cause(failure: _Failure, *, outright_only: bool) -> Candidate | None:
    chosen = None
    for turn, parts, strong in failure.explanations:
        if outright_only and not _OUTRIGHT.search(" ".join(parts)):
            continue
        if chosen is None or (strong and not chosen[2]):
            chosen = (turn, parts, strong)
    if chosen is None:
        return None
    turn, parts, _strong = chosen
    files: list[str] = []
    add_files(files, failure.edited)
    add_files(files, paths(" ".join(parts)))
    extra = {"command": redacted_head(failure.command, MAX_ERROR_CHARS)}
    if failure.error:
        extra["error"] = failure.error
    return Candidate("root_cause", parts, turn, files, extra)


def _error(output: str) -> str:
    """The line of a failed result that names the error (short), or its last line."""
    tail = output[-MAX_OUTPUT_TAIL:]
    if len(output) > MAX_OUTPUT_TAIL:
        tail = tail.partition("\n")[2]  # its first line cut: maybe through a secret
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    for line in reversed(lines):
        if _ERROR_LINE.search(line):
            return redacted_head(line, MAX_ERROR_CHARS)
    return redacted_head(lines[-1], MAX_ERROR_CHARS) if lines else ""


def _named_causes(turn: Turn, said: list[str]) -> Iterator[Candidate]:
    for sentence in said:
        if sentence.rstrip().endswith("?") or not _NAMED.search(sentence):
            continue
        if patterns.NARRATION.match(sentence) or len(words(sentence)) < MIN_NOTE_WORDS:
            continue
        files: list[str] = []
        add_files(files, paths(sentence))
        add_files(files, turn.message.files)
        yield Candidate("root_cause", [sentence], turn, files)


def _notes(turn: Turn, said: list[str]) -> Iterator[Candidate]:
    for sentence in said:
        if sentence.rstrip().endswith("?") or patterns.NARRATION.match(sentence):
            continue
        if not patterns.NOTE.search(sentence) or len(words(sentence)) < MIN_NOTE_WORDS:
            continue
        files: list[str] = []
        add_files(files, paths(sentence))
        kind_type = "gotcha" if _GOTCHA.search(sentence) else ""
        yield Candidate("note", [sentence], turn, files, type=kind_type)
