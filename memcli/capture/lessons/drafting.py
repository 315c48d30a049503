"""``draft_lessons``: a finished session's messages in, its lessons out, without a model.

Pure and bounded: no I/O, each message read up to ``text.MAX_SCANNED_CHARS``, at most
``session.MAX_MESSAGES`` messages, and every pattern runs on one sentence at a time,
so a 2,000-message session drafts in well under a second. The same input always
gives the same drafts, in the order the session said them.

Within a session the same lesson said twice is one draft: drafts whose words mostly
content words mostly
overlap merge into the first, keeping the kind that says most (a correction over the
rule it holds).
"""

from __future__ import annotations

from collections.abc import Sequence

from memcli.capture.lessons.agent import agent_lessons
from memcli.capture.lessons.decisions import decisions
from memcli.capture.lessons.session import Candidate, add_files, turns
from memcli.capture.lessons.text import MAX_QUOTE_CHARS, content_words, quote, title
from memcli.capture.lessons.user import user_lessons
from memcli.capture.transcripts.records import TranscriptMessage
from memcli.core.lesson import LessonDraft, LessonKind

MAX_DRAFTS = 50
MAX_REPLY_QUOTE = 200
"""Of a decision, the characters of the person's agreeing words quoted after it."""
SAME_LESSON = 0.8
"""Drafts sharing this much of their content words (of the shorter one's) are one lesson."""
_RANK: dict[LessonKind, int] = {
    "correction": 0,
    "rule": 1,
    "root_cause": 2,
    "decision": 3,
    "note": 4,
}
"""Which kind a merged lesson keeps, and which drafts a ``limit`` keeps first."""


def draft_lessons(
    messages: Sequence[TranscriptMessage], *, session: str, agent: str, limit: int = 20
) -> list[LessonDraft]:
    """The lessons of one session, each quoted from the message it came from."""
    limit = max(0, min(limit, MAX_DRAFTS))
    if not limit:
        return []
    thread = turns(messages)
    found = [*user_lessons(thread), *agent_lessons(thread), *decisions(thread)]
    found.sort(key=lambda c: (c.turn.position, _RANK[c.kind]))
    merged = _merged(found)
    if len(merged) > limit:
        kept = sorted(merged, key=lambda c: (_RANK[c.kind], c.turn.position))[:limit]
        merged = sorted(kept, key=lambda c: c.turn.position)
    return [_draft(c, session=session, agent=agent) for c in merged]


def _merged(found: list[Candidate]) -> list[Candidate]:
    kept: list[tuple[Candidate, frozenset[str]]] = []
    for candidate in found:
        bag = content_words(" ".join(candidate.parts))
        if not bag:
            continue
        for index, (other, other_bag) in enumerate(kept):
            # one message's root cause and the decision that quotes it and goes on
            # ("That's compile latency: … I'd move the loop inside Julia") are two lessons
            both = candidate.turn is other.turn and candidate.kind != other.kind
            shared = len(bag & other_bag) / (max if both else min)(len(bag), len(other_bag))
            if shared >= SAME_LESSON:
                add_files(other.files, candidate.files)
                if _RANK[candidate.kind] < _RANK[other.kind]:
                    add_files(candidate.files, other.files)
                    kept[index] = (candidate, bag)
                break
        else:
            kept.append((candidate, bag))
    return [candidate for candidate, _bag in kept]


def _draft(candidate: Candidate, *, session: str, agent: str) -> LessonDraft:
    text = quote(candidate.parts)
    if candidate.reply:
        # what the person said agreeing, when it says more than yes ("kv. no new
        # vendors for this"): their words, after the proposal's
        reply = quote(candidate.reply, MAX_REPLY_QUOTE)
        text = f"{quote(candidate.parts, MAX_QUOTE_CHARS - len(reply) - 10)}\n\nAgreed: {reply}"
    return LessonDraft(
        kind=candidate.kind,
        title=title(text),
        text=text,
        session=session,
        message=candidate.turn.id,
        agent=agent,
        type=candidate.type,
        files=tuple(candidate.files),
        guard=_suggested_guard(text) if candidate.kind in GUARDED_KINDS else None,
        extra=dict(candidate.extra),
    )


GUARDED_KINDS = frozenset({"correction", "rule"})
"""The kinds of lesson a guard can enforce: what the user said to do or not to do."""


def _suggested_guard(text: str) -> str | None:
    """The guard a rule's words ask for ("never npm install"), as ``ACTION TOOL:GLOB``."""
    from memcli.core.guard_suggest import suggest_guards

    suggested = suggest_guards(text)
    return f"{suggested[0].action} {suggested[0].spec}" if suggested else None
