"""Decisions agreed: a choice the agent proposed with its reason, then the user confirmed.

The proposal is a sentence of the agent's last message before the user's answer
(``PROPOSAL``) with a reason in it or next to it (``REASON``); the answer starts
like a yes (``CONFIRM``), with no "but". When the answer names one of several
options the agent listed ("go with the queue"), that option's line is quoted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memcli.capture.lessons import patterns
from memcli.capture.lessons.session import Candidate, Turn, add_files
from memcli.capture.lessons.text import (
    MAX_SCANNED_CHARS,
    content_words,
    paths,
    prose,
    sentences,
    words,
)
from memcli.core.secrets import redacted_head

_CHOSEN_STOP = frozenset(
    "yes yep yeah yup sure ok okay agreed agree go with for ahead let's lets do use keep take "
    "pick it that the a an option please sounds good great perfect makes sense one first second "
    "third and to of we i you this then thing way".split()
)
_CHOSEN_STEMS = _CHOSEN_STOP | content_words(" ".join(_CHOSEN_STOP))
"""The same words as ``content_words`` gives them ("agreed" as "agr")."""
_ORDINALS = {"first": 0, "second": 1, "third": 2, "a": 0, "b": 1, "c": 2, "1": 0, "2": 1, "3": 2}
_OPTION_REF = re.compile(
    r"\b(?:option|approach|choice|number)\s+([abc123])\b|\bthe (first|second|third)\b"
    r"|\b(?:with|take|pick|do|go) \(?([abc1-3])\)?(?=\s*(?:[,.!;]|$))"  # "agree with a, go"
    r"|^\(?([1-3])\)?(?=[,.!:]|\s|$)|^\(?([a-c])\)?(?=[,.!:)]|$)",  # "3, weight critical 5 …"
    re.I,
)
_LABEL = re.compile(r"\(([a-c1-3])\)")
"""An option named by its label in prose: "(a) filter … (b) salt the key … I'd do (a)"."""
_OPTION_ITEM = re.compile(
    r"^\s*(?:\d[.)]|[a-c][.)]|[-*•]|(?:option|approach)\s+\w+[:.)])\s+(.+)$", re.I | re.M
)
"""A listed option: its line after the number, letter or bullet."""

_OWN_PICK = re.compile(
    r"\bi(?:'d| would)? (?:suggest|recommend|propose|go with|pick|prefer|lean)\b"
    r"|\bi(?:'d| would) \w+|\bmy (?:recommendation|suggestion|preference|vote)\b",
    re.I,
)
"""A proposal that picks one way, not one that lists the ways there are."""

MAX_QUESTIONS = 2
"""Questions the user may ask about a proposal before confirming it."""


def decisions(turns: list[Turn]) -> Iterator[Candidate]:
    """Each proposal the user's next message confirmed, after any questions about it."""
    proposal: Turn | None = None
    answers: list[Turn] = []  # the agent's answers to the user's questions since
    asked = 0
    for turn in turns:
        if turn.role == "assistant" and turn.prose.strip():
            if asked:
                answers = [turn, *answers[: MAX_QUESTIONS - 1]]
            else:
                proposal = turn
        elif turn.role == "user":
            said = list(turn.said)
            if proposal is not None and asked < MAX_QUESTIONS and _asks_about(said, proposal):
                asked += 1  # "does polling pause in the background?": the proposal stays open
                continue
            if proposal is not None:
                found = _agreed([proposal, *answers], turn)
                if found is not None:
                    yield found
            proposal, answers, asked = None, [], 0


def _asks_about(said: list[str], proposal: Turn) -> bool:
    """Whether the user's message asks about the proposal: it opens with a question, and
    each sentence names a word of the proposal ("cant we just restart them? GetVersion
    branches stay in the code forever")."""
    if not said or not said[0].rstrip().endswith("?"):
        return False
    if any(patterns.CONFIRM.match(s) for s in said if not s.rstrip().endswith("?")):
        return False  # "the age check is not showing?? ok yes go back to …": an answer
    offered = proposal.prose[:MAX_SCANNED_CHARS].lower()  # a stem is in the text it came from
    return all(any(word in offered for word in content_words(sentence)) for sentence in said)


def _agreed(offers: list[Turn], answer: Turn) -> Candidate | None:
    """The decision ``answer`` confirms: the proposal first, then the agent's answers to
    the questions asked about it."""
    # "oh wow the age check is not showing?? ok yes go back to the shortcode": the yes
    # after the user's exclamations and questions
    stated = [s for s in answer.said if not s.rstrip().endswith("?")]
    if not stated or patterns.NOT_CONFIRM.match(stated[0]):
        return None
    # the yes, or a pick said after the person's own context ("mobile app only, it does
    # infinite scroll. … do the cursor thing")
    confirming = [stated[0]] if patterns.CONFIRM.match(stated[0]) else []
    confirming += [s for s in stated[1:MAX_REPLY_SENTENCES] if _PICK_SAID.match(s)]
    pick = confirming[0] if confirming else stated[0]
    for proposal in offers:
        offered = list(proposal.said)
        if not confirming and not names_a_pick(pick, proposal.prose):
            continue
        parts = (
            _chosen_option(proposal.prose, offered, pick)
            or _recommended(offered)
            or _pick_named(offered, pick)
        )
        if parts:
            files: list[str] = []
            add_files(files, paths(" ".join(parts)))
            reply = stated[:MAX_REPLY_SENTENCES]
            # more than a yes ("yeah do b, lazy=raise on all of them"): the person's words
            told = len(words(" ".join(reply))) > MAX_BARE_YES_WORDS
            return Candidate(
                "decision",
                parts,
                proposal,
                files,
                {"confirmed": redacted_head(" ".join(reply), MAX_REPLY_CHARS)},
                reply=reply if told else [],
            )
    return None


MAX_REPLY_SENTENCES = 3
_PICK_SAID = re.compile(
    r"^(?:(?:so|then|ok|okay|yes|yeah),? )?(?:do|go with|use|take|pick|let'?s (?:do|go with|use)) "
    r"(?:the |option )?[\w-]+",
    re.I,
)
"""A later sentence of the answer that picks ("do the cursor thing", "go with b")."""
MAX_BARE_YES_WORDS = 4
"""An answer this short ("yes do it", "agreed, option 1") adds nothing to quote."""
MAX_REPLY_CHARS = 200
MAX_PICK_WORDS = 5
_NEGATION = re.compile(r"\b(?:no|not|nope|don'?t|never|neither|nor|without|instead)\b", re.I)


def names_a_pick(sentence: str, proposal: str) -> bool:
    """Whether a short answer names what the proposal offers ("kv.", "window store
    processor."): a pick, as a yes is."""
    if len(words(sentence)) > MAX_PICK_WORDS or _NEGATION.search(sentence):
        return False
    named = content_words(sentence) - _CHOSEN_STEMS
    if not named:
        return False
    offered = proposal[:MAX_SCANNED_CHARS].lower()  # a stem is in the text it came from
    return all(word in offered for word in named)


def _pick_named(offered: list[str], answer: str) -> list[str]:
    """The agent's own pick ("I'd go with createFeature for cart") that the answer names
    ("ok go with createFeature"): agreed by name, its reasons in the options above."""
    named = content_words(answer) - _CHOSEN_STEMS
    picks = [
        s
        for s in offered
        if _OWN_PICK.search(s) and not s.rstrip().endswith("?") and named & content_words(s)
    ]
    return picks[:1]


def _recommended(offered: list[str]) -> list[str]:
    """The proposing sentence that gives its reason, else one whose next sentence does;
    the agent's own pick ("I'd filter …") before a list of the ways there are."""
    proposing = [
        index
        for index, sentence in enumerate(offered)
        if patterns.PROPOSAL.search(sentence)
        and not patterns.NARRATION.match(sentence)
        and not sentence.rstrip().endswith("?")
    ]
    proposing.sort(key=lambda index: not _OWN_PICK.search(offered[index]))
    for index in proposing:
        if patterns.REASON.search(offered[index]):
            return [*_asked(offered, index), *_referred(offered, index), offered[index]]
        if _LABEL.search(offered[index]) and _referred(offered, index):
            return [*_referred(offered, index), offered[index]]  # "I'd do (a)."
    for index in proposing:
        following = offered[index + 1] if index + 1 < len(offered) else ""
        if following and patterns.REASON.search(following):
            return [*_asked(offered, index), offered[index], following]
    for index in proposing:
        following = offered[index + 1] if index + 1 < len(offered) else ""
        if _OWN_PICK.search(offered[index]) and following and not following.endswith("?"):
            return [offered[index], following]  # "I recommend the trigger." and its why
    offer = _offered_work(offered)
    if offer:
        return offer
    if any(map(_APPROVAL.search, offered)):
        # "Plan: … because … Is that fine?": what the plan says is the proposal
        stated = [s for s in offered if not s.rstrip().endswith("?")]
        return stated[:MAX_PLAN_SENTENCES]
    return []


MAX_PLAN_SENTENCES = 3
_APPROVAL = re.compile(
    r"\b(?:is (?:that|this) (?:ok|okay|fine|alright|all right|good)|does (?:that|this) "
    r"(?:sound|work)|shall i (?:go|do)|should i go ahead|ok(?:ay)? with (?:that|this)|"
    r"want me to go ahead|sounds? (?:right|good|ok|okay|fine)(?=\s*\?))",
    re.I,
)
"""The agent asking the user to approve what it laid out."""


_OFFER = re.compile(
    r"^(?:(?:do you |would you )?(?:want|like) me to|shall i|should i)\b(?!.*\b(?:run|rerun|"
    r"check|commit|push|merge|deploy|open|look|test|try|show|start|continue|go on|fix|apply|"
    r"update|clean)\b)",
    re.I,
)
"""The agent offering a piece of work as a question ("Want me to add it?"), not a step."""


def _offered_work(offered: list[str]) -> list[str]:
    """The work the agent offered with its reason ("Since nobody has a save yet, this is
    a cheap moment to add a version key … Want me to add it?"): the reasoned sentences
    before the offer, not narration."""
    for index, sentence in enumerate(offered):
        if not _OFFER.match(sentence):
            continue
        stated = [
            s
            for s in offered[max(0, index - MAX_PLAN_SENTENCES) : index]
            if not s.rstrip().endswith("?") and not patterns.NARRATION.match(s)
        ]
        if any(map(patterns.REASON.search, stated)):
            return stated
    return []


def _referred(offered: list[str], index: int) -> list[str]:
    """The option the pick at ``index`` refers to: the sentence holding the label it names
    ("I'd do (a)"), else the sentence before it when that one describes the way it picks
    ("… map it as an owned type with OwnsOne … so I'd go with the owned type")."""
    pick = offered[index]
    label = _LABEL.search(pick)
    if label is not None:
        named = f"({label.group(1)})"
        return [s for s in offered[:index] if named in s][:1]
    before = offered[index - 1] if index else ""
    if not before or before.rstrip().endswith("?") or patterns.NARRATION.match(before):
        return []
    if " or " in before:
        return []  # the list of ways there are, not the way picked
    shared = content_words(before) & content_words(pick) - _CHOSEN_STEMS
    return [before] if len(shared) >= 2 else []


def _why_picked(offered: list[str], label: str, option: str) -> list[str]:
    """The agent's own pick of the option labelled ``label`` with its reason ("I'd go
    with 1: keying on the version matters because …"), or naming what ``option`` does
    ("I'd use sink_parquet … rather than looping"), if it gave one."""
    named = re.compile(
        rf"(?:\b(?:with|option|pick|do|take)|^) \(?{re.escape(label)}\)?(?!\w)", re.I
    )
    reasoned = [s for s in offered if _OWN_PICK.search(s) and patterns.REASON.search(s)]
    by_label = [s for s in reasoned if named.search(s)]
    described = content_words(option) - _CHOSEN_STEMS
    by_words = [s for s in reasoned if len(content_words(s) & described) >= MIN_SHARED_WORDS]
    return (by_label or by_words)[:1]


MIN_SHARED_WORDS = 2


def _asked(offered: list[str], index: int) -> list[str]:
    """The question of options the proposal at ``index`` answers ("Should I only fix
    zip, or read all id-like columns as strings? I'd do all three: …"), if it follows one."""
    before = offered[index - 1] if index else ""
    if before.rstrip().endswith("?") and " or " in before:
        return [before]
    return []


def _chosen_option(proposal: str, offered: list[str], answer: str) -> list[str]:
    """The option the answer names, when the proposal lists several and it names one."""
    reference = _OPTION_REF.search(answer)
    if reference:
        label = next(group for group in reference.groups() if group).lower()
        items = _OPTION_ITEM.findall(prose(proposal))
        index = _ORDINALS.get(label)
        if index is not None and index < len(items):
            option = sentences(items[index])[:2]
            return [*option, *_why_picked(offered, label, " ".join(option))]
        return []
    named = [
        w[:-1] if len(w) > 4 and w.endswith("s") else w  # "workers" names "worker tasks"
        for w in words(answer)
        if len(w) > 2 and w not in _CHOSEN_STOP
    ]
    if not named:
        return []
    options = [s for s in offered if len(words(s)) >= 3]
    # "cursor" names "CursorPagination": a word of the answer in the option's text
    holding = [i for i, s in enumerate(options) if all(w in s.lower() for w in named[:2])]
    if len(holding) > 1:  # the option's line and the agent's pick of it: the pick
        picked = [i for i in holding if _OWN_PICK.search(options[i])]
        reasoned = [i for i in holding if patterns.REASON.search(options[i])]
        holding = picked or reasoned[-1:] or holding[:1]
    if len(holding) != 1:
        return []
    index = holding[0]
    if patterns.REASON.search(options[index]):
        return [*_asked(options, index), *_referred(options, index), options[index]]
    if _PICK_SAID.match(answer):  # "do the cursor thing": the option's line and what follows
        return options[index : index + 2]
    return []
