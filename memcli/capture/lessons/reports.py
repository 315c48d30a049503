"""What the person says about a failure: a report of one, a go-ahead, a question.

A report ("/login redirects to itself forever", "the tag step blows up") is a failure
the agent may explain and fix, as a failed command is; so is the session's opening
message when it asks for no work. What the person says after the agent explained it
decides whether that explanation stands: a go-ahead, a question about the fix, or a
pick of what it proposed lets it stand.
"""

from __future__ import annotations

import re

from memcli.capture.lessons import patterns
from memcli.capture.lessons.decisions import names_a_pick
from memcli.capture.lessons.session import Turn
from memcli.core.secrets import redacted_head

MAX_REPORT_CHARS = 200
REPORT = re.compile(
    r"\b(?:fail(?:s|ed|ing)?|broken?|breaks|crash(?:es|ed|ing)?|errors?|doesn'?t work|"
    r"isn'?t working|stopped working|(?:is|went|goes|turned) red|keeps? \w+ing|forever|"
    r"hangs?|times? out|timing out|still (?:calls|shows|returns|gets|uses|points|sends|has)|"
    r"(?:returns|throws|raises|gets?|shows) [A-Z][A-Z0-9]*_[A-Z0-9_]+|"
    r"blows? up|blew up|explod(?:es|ed)|dies|died|chokes?|choked|"
    r"still (?:getting|seeing|get|see|happening|failing|broken)|"
    r"(?:looks?|is|are) (?:weird|wrong|off)|identical|(?:get|gets|got) a different|"
    r"stopped \w+ing|still (?:there|here|visible|present)|only (?:shows?|returns?|gets?|lists?)|"
    r"at all|resets?|disappear(?:s|ed)?|vanish(?:es|ed)?|missing|nothing (?:in|shows|happens)|"
    r"why (?:does|do|is|are|did|would|can'?t|won'?t|isn'?t|doesn'?t)|hanging|shouldn'?t|"
    r"(?:is|are|went) way (?:up|down)|still (?:jumps|fails|happens|breaks|crashes|hangs)|"
    r"(?:the same|twice|duplicated?)\b[^.]*\b(?:sometimes|twice|again)|flak(?:y|es|ing)|"
    r"(?:doesn'?t|doesnt|don'?t|dont|isn'?t|aren'?t|are not|is not|never) (?:get|gets|getting|"
    r"receive|receiving|arrive|arriving|show|showing|load|loading|fire|firing|update|updating|"
    r"save|saving|start|starting)|returns? (?:null|nil|none|undefined|nothing|empty))\b",
    re.I,
)
"""A user's report that something fails: a failure the agent may explain and fix."""
ASKS_WHAT_TO_DO = re.compile(
    r"\b(?:what (?:do|should|can|shall) (?:we|i) do|what now|how (?:do|can|should) (?:we|i) "
    r"(?:fix|solve|get around|avoid|handle|change) (?:it|this|that)|what(?:'s| is) the fix)\b",
    re.I,
)
"""A user's message asking for the way out of what the agent explained."""


def reported(turn: Turn, *, opening: bool = False) -> str:
    """The sentence of a user's message that reports a failure, if one does. A session's
    opening message that asks for no work ("players on android are losing their save
    after the update") reports what the session is about: a problem."""
    said = turn.said
    found = next((s for s in said[:3] if _reports(s)), "")
    if not found and opening and said and not any(map(patterns.ASKS_FOR_WORK.search, said)):
        found = said[0]
    return redacted_head(found, MAX_REPORT_CHARS) if found else ""


def _reports(sentence: str) -> bool:
    """Whether a sentence reports a failure: a failure word not negated or asked to be
    avoided ("no hang", "check nothing downstream breaks" report none)."""
    pairs = None
    for match in REPORT.finditer(sentence):
        pairs = pairs or _Parentheses(sentence)
        if _in_parentheses(sentence, match.start(), pairs):
            continue
        if not _NEGATED_BEFORE.search(sentence, 0, match.start()):
            return True
    return False


class _Parentheses:
    """A sentence's pairs of parentheses, found in one pass: for each position the "("
    it stands inside (-1: none), and where each "(" is closed (absent: never)."""

    def __init__(self, sentence: str) -> None:
        self.inside: list[int] = []
        self.closed_at: dict[int, int] = {}
        open_ones: list[int] = []
        for n, char in enumerate(sentence):
            if char == ")" and open_ones:
                self.closed_at[open_ones.pop()] = n
            self.inside.append(open_ones[-1] if open_ones else -1)
            if char == "(":
                open_ones.append(n)


def _in_parentheses(sentence: str, at: int, pairs: _Parentheses) -> bool:
    """Whether a position falls inside a request's parenthesised aside: its reason
    ("rename it (the name is wrong)"), not a report of what fails.

    Only a closed aside after a request's words counts: not a "(" never closed (":(",
    ``redirect_to(url``), nor a call's arguments, nor a sentence all in parentheses.
    Pairs nested in the aside are passed over.
    """
    opened = pairs.inside[at]
    if opened <= 0 or opened not in pairs.closed_at:
        return False
    if sentence[opened - 1].isalnum() or sentence[opened - 1] == "_":
        return False  # redirect_to(url) and the like: code, not an aside
    return bool(patterns.ASKS_FOR_WORK.search(sentence[:opened]))


_NEGATED_BEFORE = re.compile(
    r"\b(?:no|not|nothing|never|without|make sure|ensure|check|verify)(?: \S+){0,3} $", re.I
)
"""What before a failure word says it did not happen, or should not."""


def goes_on(turn: Turn) -> bool:
    """Whether the user's message lets the agent go on with what it just explained
    ("ok do that", "so what do we do?", or a question about the fix first: "cant we
    just restart them? …"): the explanation stands."""
    said = turn.said
    if not said:
        return True
    if patterns.CONFIRM.match(said[0]) and not patterns.NOT_CONFIRM.match(said[0]):
        return True
    if any(ASKS_WHAT_TO_DO.search(sentence) for sentence in said):
        return True
    return said[0].rstrip().endswith("?")


def picks(answer: Turn, proposal: Turn) -> bool:
    """Whether the user's answer names what the proposal offered ("geography + index,
    agreed"): a go-ahead."""
    return bool(answer.said) and names_a_pick(answer.said[0], proposal.prose)
