"""What the agent found: the root causes of failures it fixed, and the notes it flagged.

A root cause is told by three things in a row: a command whose result failed (by its
status, or by its output: ``failures.looks_failed``), the agent's explanation, and a
change (a file edited) after which the same command passed. The explanation is a
sentence saying why (``CAUSE``), or else the agent's first message of substance after
the failure that the change followed; either is quoted with the sentences around it
(``MAX_QUOTED_SENTENCES``). "The same command" is compared up to its first pipe or
redirect, with arguments added or dropped. When the explanation came before the change,
any other command that passed, or the agent saying it works now, also confirms it. A
failure the person reports (``reports``) is explained only by such a message of
substance. The files edited between the failure and the pass are the files involved.
An explanation that names the root cause outright ("The culprit was …") counts after
an edit even when the command was not run again. Notes are read on the way
(``notes``).
"""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field

from memcli.capture.lessons import patterns
from memcli.capture.lessons.failures import looks_failed
from memcli.capture.lessons.notes import notes
from memcli.capture.lessons.reports import goes_on, picks, reported
from memcli.capture.lessons.session import Candidate, Turn, add_files
from memcli.capture.lessons.text import aside, paths, words
from memcli.capture.session_summary import SHELL_TOOLS
from memcli.core.secrets import redacted_head

MAX_OPEN_FAILURES = 20
MAX_EXPLANATIONS = 8
MAX_TRACKED_CALLS = 256
MAX_ERROR_CHARS = 200
MAX_OUTPUT_TAIL = 4000
"""Of a failed tool result, the end read for its error line."""
MIN_ACCOUNT_WORDS = 14
MIN_CAUSE_WORDS = 5
MAX_QUOTED_SENTENCES = 5
_SHELLS = SHELL_TOOLS | {"shell_command"}
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_OUTRIGHT = re.compile(
    r"\b(?:root cause|culprit|turns out|the (?:real )?(?:problem|issue|bug|cause) (?:was|is))\b",
    re.IGNORECASE,
)
_NAMED = re.compile(r"\b(?:root cause|culprit)\b", re.IGNORECASE)
"""Words that name a root cause outright: such a sentence needs no failure around it."""
_ERROR_LINE = re.compile(r"(?:error|exception|failed|fail|cannot|can't|not found|denied)", re.I)
_GUESS = re.compile(
    r"\b(?:maybe|perhaps|might be|may be|could be|not sure|i'?ll check|let me check)\b", re.I
)
"""An agent's sentence that guesses or goes to look: no account of a cause yet."""
_AGREES = re.compile(
    r"^(?:right|sorry|makes sense|fair|good (?:point|catch|call)|true|agreed|you'?re right|"
    r"ok|okay|got it|understood)\b",
    re.I,
)
"""An agent's reply that takes the user's word: what follows is the new plan, not a new
account of the failure."""
MAX_NOD_WORDS = 3
"""A first sentence this short ("Right.") is a nod before the account, not its start."""


def _agrees(parts: list[str]) -> bool:
    """Whether an account opens by taking the user's word ("Right, sorry, dueAt is …")."""
    said = next((p for p in parts if len(words(p)) > MAX_NOD_WORDS), "")
    return bool(_AGREES.match(said))


_PIPE = re.compile(r"\s(?:\||\d?>|<)")
_WORKS_NOW = re.compile(
    r"\b(?:(?:passes|passing|works|working|green|builds|links|succeeds|rolled out) "
    r"(?:now|again)|now (?:passes|works|builds|links))\b",
    re.I,
)
"""The agent saying the change worked: a pass without a run of its own."""
_REPORTED = "#reported"
"""The key of the failure the user last reported (no command's key holds a "#")."""
_LOOKING = re.compile(
    r"^\s*(?:git (?:status|diff|log|show)|ls|cat|grep|rg|head|tail|find|sed -n|echo|pwd|wc|cd|"
    r"export|sleep|true)\b"
)
"""Commands that only look (or move about): their passing confirms no change, and
changes nothing."""


@dataclass
class _Failure:
    command: str
    error: str
    explanations: list[tuple[Turn, list[str], bool]] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)
    reported: bool = False  # told by the user, not by a command's result
    pending: tuple[Turn, list[str]] | None = None  # the first message of substance since
    account: tuple[Turn, list[str]] | None = None  # ...the user last spoke, once a change followed
    ran: bool = False  # a command that changes things (not a look, not a rerun) passed since
    redirected: bool = False  # the user turned the fix around: a new account replaces pending

    @property
    def changed(self) -> bool:
        """Whether something changed since the failure: a file edited, or a command run."""
        return bool(self.edited) or self.ran


def command_key(command: str) -> str:
    """A command up to its first pipe or redirect, without its flags, environment and
    leading ``cd``: runs of "the same" one."""
    command = command.split("&&")[-1].split(";")[-1].strip()
    command = _PIPE.split(command, maxsplit=1)[0]
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
    # A cause named outright counts only where work was done: in talk alone ("the usual
    # culprit" of a houseplant's trouble) it is no lesson.
    worked = any(turn.role == "tool" or turn.message.tools for turn in turns)
    opening = True  # the user has not spoken yet
    for turn in turns:
        message = turn.message
        if turn.role == "assistant":
            said = list(turn.said)
            # a shell call's text may hold its command's lines (a commit message): no account
            waiting = not message.commands and any(
                (f.pending is None and not f.changed) or (f.redirected and not f.edited)
                for f in open_failures.values()
            )
            parts = _account(said) if waiting else None
            account = (turn, parts) if parts else None
            anew = (
                account is not None
                and any(f.redirected and not f.edited for f in open_failures.values())
                and _explains(account[1])
                and not _agrees(account[1])  # "Makes sense, X only changes when …"
            )
            for failure in open_failures.values():
                if not failure.changed and failure.pending is None:
                    failure.pending = account
                    failure.redirected = False
                elif failure.redirected and not failure.edited and anew:
                    # turned around, the agent looked again and explains anew: that
                    # account counts, whatever it ran to look
                    failure.pending = account
                    failure.account = account if failure.changed else failure.account
                    failure.redirected = False
                add_files(failure.edited, message.edited)
                if message.edited and failure.account is None:
                    failure.account = failure.pending
                if not failure.reported:
                    _explain(failure, turn, said)
            if _awaits_pass(open_failures) and any(_WORKS_NOW.search(s) for s in said):
                yield from _confirmed(open_failures)
            yield from notes(turn, said, talk_only=not worked)
            if worked:
                yield from _named_causes(turn, said)
            if message.tools:
                if message.commands:
                    last = tuple(message.commands)
                if message.uuid:
                    calls[message.uuid] = tuple(message.commands)
                    if len(calls) > MAX_TRACKED_CALLS:
                        del calls[next(iter(calls))]
        elif turn.role == "user":
            if _awaits_pass(open_failures) and any(_WORKS_NOW.search(s) for s in turn.said):
                yield from _confirmed(open_failures)  # "ok that works now"
            # "no, don't paper over it, delete the field": the fix is turned around, and
            # the explanation stands unless the agent explains anew
            redirected = bool(turn.said and patterns.CORRECTION_START.match(turn.said[0]))
            going_on = goes_on(turn) or redirected
            picked_of: dict[int, bool] = {}  # per proposing message: does the answer pick?
            for failure in open_failures.values():
                proposal = failure.pending[0] if failure.pending is not None else None
                if proposal is not None and proposal.position not in picked_of:
                    picked_of[proposal.position] = picks(turn, proposal)
                picked = proposal is not None and picked_of[proposal.position]
                if not failure.changed and (going_on or picked) and failure.pending is not None:
                    # a yes to a choice the account proposed: that is a decision, and
                    # what the account said before proposing stays the explanation
                    failure.pending = _before_the_proposal(failure.pending)
                elif not failure.changed:
                    failure.pending = None
                failure.redirected = redirected and failure.pending is not None
            # "cant we just restart them? the branches stay forever", "b. creds shouldnt
            # live in the image": a question about the fix just explained, or a go-ahead
            # with its reason, reports no new failure
            about_fix = (goes_on(turn) or any(picked_of.values())) and not redirected
            explained = any(f.pending is not None for f in open_failures.values())
            # a correction says what the agent's way would break, not a new failure
            quiet = (about_fix and explained) or (redirected and not opening)
            report = "" if quiet else reported(turn, opening=opening)
            opening = opening and not turn.said
            if report and len(open_failures) < MAX_OPEN_FAILURES:
                open_failures.pop(_REPORTED, None)  # the latest report only
                open_failures[_REPORTED] = _Failure("", report, reported=True)
        elif turn.role == "tool":
            commands = calls.get(message.parent or "")
            if commands is None:  # no id to tell its call by (Codex): the last shell call's
                shell = _SHELLS.intersection(message.tools) or not message.tools
                commands = last if shell else ()
            failed = message.failed or bool(commands) and looks_failed(message.text)
            for command in commands:
                if failed:
                    _failed(open_failures, command, _error(message.text))
                else:
                    yield from _passed(open_failures, command)
            if not failed and any(_does(c) for c in commands):
                yield from _confirmed(open_failures)
                _ran(open_failures, commands)  # after: a change confirms nothing itself
    for failure in open_failures.values():
        if failure.changed:
            found = _root_cause(failure, outright_only=True)
            if found is not None:
                yield found


def _failed(open_failures: dict[str, _Failure], command: str, error: str) -> None:
    key = command_key(command)
    if not key:
        return
    known = open_failures.get(key)
    if known is not None and known.changed and known.error != error:
        del open_failures[key]  # a change got it past its error to another: explained anew
        known = None
    if known is None and len(open_failures) < MAX_OPEN_FAILURES:
        open_failures[key] = _Failure(command, error)


def _passed(open_failures: dict[str, _Failure], command: str) -> Iterator[Candidate]:
    """A passing command: a rerun of a failed one confirms its explanation once something
    changed. Of a command of parts ("git add x && nix build && echo ok"), its last part
    that does more than look is the rerun."""
    parts = [p for p in _PARTS.split(command) if not _LOOKING.match(p.strip())] or [command]
    _ran(open_failures, tuple(parts[:-1]))  # "git add x" before the rerun
    key = command_key(parts[-1])
    failed_key = _same_run(open_failures, key) if key else None
    if failed_key is not None:
        failure = open_failures.pop(failed_key)
        if failure.changed:
            found = _root_cause(failure, outright_only=False)
            if found is not None:
                yield found


def _ran(open_failures: dict[str, _Failure], commands: tuple[str, ...]) -> None:
    """Commands that passed and did more than look (``bazel run //:requirements.update``,
    ``git add x`` before a rerun) are a change for the failures the agent explained."""
    doing = [
        part
        for command in commands
        for part in _PARTS.split(command)
        if command_key(part) and not _LOOKING.match(part.strip())
    ]
    if not doing:
        return
    for failure in open_failures.values():
        if failure.pending is not None or failure.explanations:
            failure.ran = True
            failure.account = failure.account or failure.pending


_PARTS = re.compile(r"&&|;|\|\|")


def _does(command: str) -> bool:
    """Whether a command does more than look: a part of it ("cd app && cargo build") does."""
    return any(not _LOOKING.match(part.strip()) for part in _PARTS.split(command))


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


def _before_the_proposal(account: tuple[Turn, list[str]]) -> tuple[Turn, list[str]] | None:
    """Of an account, the sentences before it proposes a choice (what the user confirms
    then is a decision, drafted as one), if they still account for something."""
    turn, parts = account
    kept = list(itertools.takewhile(lambda s: not _proposes(s), parts))
    if len(kept) == len(parts):
        return account
    return (turn, kept) if len(words(" ".join(kept))) >= MIN_ACCOUNT_WORDS else None


def _proposes(sentence: str) -> bool:
    return bool(patterns.PROPOSAL.search(sentence)) or sentence.rstrip().endswith(":")


def _awaits_pass(open_failures: dict[str, _Failure]) -> bool:
    """Whether the latest failure was explained and changed, and waits for its pass."""
    if not open_failures:
        return False
    failure = open_failures[next(reversed(open_failures))]
    return failure.changed and failure.account is not None


def _confirmed(open_failures: dict[str, _Failure]) -> Iterator[Candidate]:
    """The root causes a pass of another command (or "it works now") confirms: those
    explained before the change that followed."""
    if _awaits_pass(open_failures):  # the latest failure only
        found = _root_cause(open_failures.pop(next(reversed(open_failures))), outright_only=False)
        if found is not None:
            yield found


def _explains(parts: list[str]) -> bool:
    """Whether an account says why (not only what the agent will do instead)."""
    return any(map(patterns.CAUSE.search, parts))


def _account(said: list[str]) -> list[str] | None:
    """A message of substance (not narration, not a question): its first sentences."""
    for index, sentence in enumerate(said):
        if aside(sentence):
            continue
        if _GUESS.search(sentence):
            return None  # "maybe a user id type mismatch, I'll check": no account yet
        parts = _window(said, index)
        told = " ".join(p for p in parts if not aside(p))
        return parts if len(words(told)) >= MIN_ACCOUNT_WORDS else None
    return None


def _window(said: list[str], start: int) -> list[str]:
    """Up to ``MAX_QUOTED_SENTENCES`` sentences from ``start``, ending before a question."""
    parts: list[str] = []
    for sentence in said[start : start + MAX_QUOTED_SENTENCES]:
        if sentence.rstrip().endswith("?"):
            break
        parts.append(sentence)
    return parts


def _lead(said: list[str], index: int) -> int:
    """Where the quote of sentence ``index`` starts: the sentence before it, when that
    one is neither narration nor a question."""
    if index == 0:
        return 0
    before = said[index - 1]
    if aside(before):
        return index
    return index - 1


def _explain(failure: _Failure, turn: Turn, said: list[str]) -> None:
    """Keep the sentences of ``turn`` that say why ``failure`` failed."""
    if len(failure.explanations) >= MAX_EXPLANATIONS:
        return
    for index, sentence in enumerate(said):
        if aside(sentence):
            continue
        if not patterns.CAUSE.search(sentence) or len(words(sentence)) < MIN_CAUSE_WORDS:
            continue
        parts = _window(said, _lead(said, index))
        strong = bool(patterns.STRONG_CAUSE.search(sentence))
        failure.explanations.append((turn, parts, strong))
        return


def _root_cause(failure: _Failure, *, outright_only: bool) -> Candidate | None:
    """The failure's explanation: one that says "because" and the like first, then the
    message of substance before the change, then any sentence saying why."""
    told = [
        (turn, parts, strong)
        for turn, parts, strong in failure.explanations
        if not outright_only or _OUTRIGHT.search(" ".join(parts))
    ]
    chosen = next((e for e in told if e[2]), None)
    if chosen is None and failure.account is not None and not outright_only:
        chosen = (*failure.account, False)
    if chosen is None and told:
        chosen = told[0]
    if chosen is None:
        return None
    turn, parts, _strong = chosen
    files: list[str] = []
    add_files(files, failure.edited)
    add_files(files, paths(" ".join(parts)))
    extra = {"command": redacted_head(failure.command, MAX_ERROR_CHARS)} if failure.command else {}
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
    for index, sentence in enumerate(said):
        if sentence.rstrip().endswith("?") or not _NAMED.search(sentence):
            continue
        if patterns.NARRATION.match(sentence) or len(words(sentence)) < MIN_CAUSE_WORDS:
            continue
        parts = _window(said, _lead(said, index))
        files: list[str] = []
        add_files(files, paths(" ".join(parts)))
        add_files(files, turn.message.files)
        yield Candidate("root_cause", parts, turn, files)
