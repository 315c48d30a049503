"""The user's corrections and stated rules.

A correction is a user message that turns the agent around just after it acted
("No, we use pnpm here, never npm."): it starts like one (``CORRECTION_START``)
and holds something to do or not to do. A rule is a user's sentence that says
always / never / don't / we use / prefer / instead of, about the work and not
about themself; a question is neither.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memcli.capture.lessons import patterns
from memcli.capture.lessons.session import Candidate, Turn, add_files
from memcli.capture.lessons.text import paths, words

MAX_CORRECTION_SENTENCES = 3
MIN_RULE_WORDS = 4
MIN_SELF_CONTAINED_WORDS = 6
"""A rule shorter than this ("we never do that.") is quoted with the sentence after it."""


def user_lessons(turns: list[Turn]) -> Iterator[Candidate]:
    """Corrections and rules, in the order the user said them.

    In a session where no tool ran (talk only), a correction needs the agent to have
    announced or proposed work, and a user's rule counts only when the agent's reply
    takes it as an instruction ("Will do.") or it says it stands ("from now on"): talk
    of one's week that happens to say "never" is no rule for the work."""
    worked = any(turn.role == "tool" or turn.message.tools for turn in turns)
    acted = False  # the agent did or said something since the user's last message
    used_tools = False  # and ran a tool meanwhile
    announced = False  # and its last words announced or proposed work
    opening = True  # no agent turn yet: the user's message is the session's task
    touched: list[str] = []  # the files it edited meanwhile
    for position, turn in enumerate(turns):
        if turn.role != "user":
            opening = False
            if turn.role == "assistant":
                used_tools = used_tools or bool(turn.message.tools)
                if turn.said:
                    announced = _offers_work(turn.said)
                acted = (
                    acted
                    or bool(turn.message.tools)
                    or (bool(turn.said) and (worked or _offers_work(turn.said)))
                )
                add_files(touched, turn.message.edited)
            continue
        said = list(turn.said)
        correction = _correction(said, redirect=used_tools, announced=announced) if acted else None
        if correction is not None:
            files: list[str] = []
            add_files(files, paths(" ".join(correction)))
            add_files(files, touched)
            yield Candidate("correction", correction, turn, files)
            rest = said[len(correction) :]
        else:
            rest = said
        if not worked and not _acknowledged(turns, position):
            rest = [sentence for sentence in rest if patterns.STANDING.search(sentence)]
        ruled = [is_rule(sentence, task=opening) for sentence in rest]
        for index, sentence in enumerate(rest):
            if ruled[index]:
                parts = [sentence]
                following = rest[index + 1] if index + 1 < len(rest) else ""
                if following and (
                    _REASON_START.match(following)
                    or patterns.CONSEQUENCE.search(following)  # "X will collide with …"
                    or ruled[index + 1]
                    or len(words(sentence)) < MIN_SELF_CONTAINED_WORDS  # "we never do that."
                ):
                    parts.append(following)  # the reason, or the rule's other half
                found: list[str] = []
                add_files(found, paths(" ".join(parts)))
                yield Candidate("rule", parts, turn, found)
        acted = used_tools = announced = False
        touched = []


def _offers_work(said: tuple[str, ...]) -> bool:
    """Whether the agent's words announce or propose work ("I'll hard-code the date
    format"): in a talk-only session, only that is there to correct."""
    return any(patterns.NARRATION.match(s) or patterns.PROPOSAL.search(s) for s in said)


def _acknowledged(turns: list[Turn], position: int) -> bool:
    """Whether the agent's next words take the user's message as an instruction."""
    for turn in turns[position + 1 :]:
        if turn.role == "assistant" and turn.said:
            return bool(patterns.ACKNOWLEDGE.match(turn.said[0]))
        if turn.role == "user":
            return False
    return False


_REASON_START = re.compile(
    r"^(?:because|since|otherwise|that way|so that|the reason|it (?:breaks|fails|causes)|"
    r"if (?:we|you|someone|anyone|it|they)\b[^.?]*\b"
    r"(?:it'?d|it would|it will|would|will|breaks?|fails?))\b",
    re.IGNORECASE,
)


def is_rule(sentence: str, *, task: bool = False) -> bool:
    """Whether a user's sentence states a rule for the work (``task``: it opens the
    session, where "do X so we can see Y" asks for this session's work, not a rule)."""
    if sentence.rstrip().endswith("?") or len(words(sentence)) < MIN_RULE_WORDS:
        return False
    if patterns.NOT_A_RULE.search(sentence):
        return False
    body = patterns.LEAD_IN.sub("", sentence)
    if patterns.NARRATIVE_START.match(body):
        return False
    if patterns.STANDING_RULE.search(sentence) and len(words(body)) >= MIN_RULE_WORDS:
        return True  # "from now on the whole config is kept in git"
    if not _states_rule(body, purpose=not task, scoped=bool(patterns.SCOPED.search(sentence))):
        return False
    if task and (not _FIRMLY.search(body) or _REQUEST.search(body)):
        # the opening task's background ("we use Flyway", "we run 6 instances") and what
        # it asks for ("we need an embargo date", "the theme needs swatches instead of …")
        return False
    # news for a one-off task ("we now publish as tidemark, so …") states no rule
    return not patterns.NEWS.search(body) or bool(patterns.STANDING.search(body))


_FIRMLY = re.compile(
    r"\b(?:always|never|only|must|mustn'?t|should|shouldn'?t|don'?t|do not|prefer|instead|"
    r"rather|avoid|not allowed|nobody|no one|from now|going forward|whenever|lives?|belongs?)\b"
    r"|, not\b",
    re.IGNORECASE,
)
"""Words that make a rule of what the session's opening message says about the work."""

_REQUEST = re.compile(
    r"\b(?:we|i) (?:need|want|would like|'d like)\b"
    r"|^(?:the|our|this|my) (?:\S+ ){0,4}needs (?:the|a|an|to)\b",
    re.IGNORECASE,
)
"""What the session's opening message asks for: a feature, not a rule."""


def _states_rule(body: str, *, purpose: bool = True, scoped: bool = False) -> bool:
    """Whether ``body`` (a sentence without its lead-in) states a rule; ``scoped``: the
    whole sentence says it holds project-wide ("for this project please keep …")."""
    if patterns.RULE_START.match(body) or patterns.RULE_ANYWHERE.search(body):
        return True
    if patterns.RULE_SCOPED.search(body) or patterns.EVERY_TIME.match(body):
        return True
    if patterns.REDIRECT.match(body) and scoped:
        return True  # "use Decimal everywhere for money amounts in this project"
    # "Before you start: from now on, always …", "the files are latin-1, never assume …",
    # "CI runs it with --all-features, do the same locally so we see the same failures"
    # "use the tokens, no raw hex values in components"
    purposed = purpose and bool(patterns.PURPOSE.search(body))
    clauses = _CLAUSE.split(body)
    if len(clauses) < 2 and not purposed:
        return False
    bodies = [patterns.LEAD_IN.sub("", clause.strip()) for clause in clauses]
    instructed = any(map(patterns.IMPERATIVE.match, bodies))
    for index, clause in enumerate(bodies):
        ruled = (
            (index and patterns.RULE_START.match(clause))
            or (instructed and patterns.NONE_IN.match(clause))
            or patterns.EVERY_TIME.match(clause)
            or (purposed and patterns.IMPERATIVE.match(clause) and patterns.PURPOSE.search(clause))
        )
        if ruled and len(words(clause)) >= MIN_RULE_WORDS:
            return True
    return False


_CLAUSE = re.compile(r"(?:[:;,—–]|[.!](?=\s+[a-z]))\s+")
"""Where a clause ends: punctuation, or a full stop before a lower-case word ("etc. no …")."""


def _correction(said: list[str], *, redirect: bool, announced: bool) -> list[str] | None:
    """The sentences of a correction, when the message is one (``redirect``: it may be
    one without a correction's first words, coming just after the agent's tool call;
    ``announced``: or just after the agent announced what it would do)."""
    if not said:
        return None
    first = said[0]
    if patterns.NOT_A_CORRECTION.match(first):
        return None
    if not patterns.CORRECTION_START.match(first):
        found = _reasoned_redirect(said) if redirect else None
        if found is None and announced:
            found = _contradiction(said)
        return found
    if first.rstrip().endswith("?") and len(said) == 1:
        return None  # "No?": a question, not a correction
    parts = [first]
    index = 1
    while len(words(" ".join(parts))) < 4 and index < len(said):
        parts.append(said[index])  # "No." then what to do instead
        index += 1
    while (
        index < len(said)
        and len(parts) < MAX_CORRECTION_SENTENCES
        and _says_what_to_do(said[index])
    ):
        parts.append(said[index])  # what to do instead, and why
        index += 1
    joined = " ".join(parts)
    if patterns.NOT_A_RULE.search(joined):
        return None
    if not (patterns.DIRECTIVE.search(joined) or any(map(patterns.IMPERATIVE.match, parts))):
        return None
    return parts


def _reasoned_redirect(said: list[str]) -> list[str] | None:
    """A message that tells the agent to do otherwise and why, whatever its first words
    ("this runs on macs too. sed -i … breaks on BSD sed. use perl -pi -e"): an
    instruction and a sentence saying what goes wrong or which rule holds, the whole
    message up to a question or a new request."""
    if not any(map(patterns.CONSEQUENCE.search, said[:MAX_CORRECTION_SENTENCES])):
        return None
    parts = _told_through(said)
    if not any(map(patterns.CONSEQUENCE.search, parts)):
        return None
    clauses = [patterns.LEAD_IN.sub("", c.strip()) for part in parts for c in _CLAUSE.split(part)]
    if len(clauses) < 2 or patterns.NOT_A_RULE.search(" ".join(parts)):
        return None
    return parts if any(map(patterns.REDIRECT.match, clauses)) else None


_NEGATED = re.compile(
    r"\b(?:doesn'?t|does not|don'?t|do not|isn'?t|is not|aren'?t|are not|can'?t|cannot|"
    r"won'?t|will not|never)\b",
    re.IGNORECASE,
)
_HOW_IT_IS_DONE = re.compile(
    r"\byou (?:\S+ ){0,3}?(?:by|through|via|with|using) \S+"
    r"|\b(?:lives?|goes|belongs?|is kept|are kept) (?:in|under|inside)\b|\binstead\b",
    re.IGNORECASE,
)


def _contradiction(said: list[str]) -> list[str] | None:
    """A reply to the agent's announced plan that says things do not work that way, and
    how they do ("unit doesn't read a config file, you change it by PUTting json to the
    control socket"): the message up to a question or a new request."""
    if not _NEGATED.search(said[0]) or patterns.NOT_A_RULE.search(said[0]):
        return None
    parts = _told_through(said)
    told = " ".join(parts)
    return parts if _HOW_IT_IS_DONE.search(told) and len(words(told)) >= 8 else None


def _told_through(said: list[str]) -> list[str]:
    """The message's first sentences (at most ``MAX_CORRECTION_SENTENCES``), up to a
    question or a new request."""
    parts: list[str] = []
    for sentence in said[:MAX_CORRECTION_SENTENCES]:
        if not _says_what_to_do(sentence):
            break
        parts.append(sentence)
    return parts


def _says_what_to_do(sentence: str) -> bool:
    """A correction's next sentence belongs to it (what to do instead, a rule, the reason)
    unless it is a question, small talk, or a new request ("Then deploy it")."""
    if sentence.rstrip().endswith("?") or patterns.NOT_A_RULE.search(sentence):
        return False
    return not _NEW_REQUEST.match(sentence)


_NEW_REQUEST = re.compile(
    r"^(?:then|next|after that|afterwards|once (?:that'?s|it'?s) done|also,? (?:can|could) you|"
    r"and (?:then|can you))\b",
    re.IGNORECASE,
)
