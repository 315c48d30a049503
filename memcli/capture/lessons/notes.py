"""The agent's notes: a sentence that flags something as worth knowing.

"Note that the dev server must be restarted after …", "Heads-up before this is
applied: …", "One thing I want to flag: …" (``patterns.NOTE``). A note is quoted with
the sentences that go on with it, up to narration or a question.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memcli.capture.lessons import patterns
from memcli.capture.lessons.session import Candidate, Turn, add_files
from memcli.capture.lessons.text import aside, paths, words

MIN_NOTE_WORDS = 5
MAX_NOTE_SENTENCES = 3
_ADVICE = re.compile(r"\b(?:it'?s|it is) worth (?!it\b)\w+ing\b", re.I)
"""The weakest cue of a note: advice, which talk about anything gives."""
_FLAGGED = re.compile(
    r"\bnote that\b|\bgotcha\b|\bheads[- ]up\b|\bcaveat\b|\bkeep in mind\b|\bwatch out\b", re.I
)
"""A cue that flags the sentence whatever the session."""
_GOTCHA = re.compile(r"\b(?:gotcha|watch out|careful|silently|caveat|warning)\b", re.I)


def notes(turn: Turn, said: list[str], *, talk_only: bool = False) -> Iterator[Candidate]:
    """The notes among ``said``, the sentences of one of the agent's messages
    (``talk_only``: of a session where no tool ran, where advice said as "it's worth
    seeing a doctor" is no note)."""
    for index, sentence in enumerate(said):
        if aside(sentence):
            continue
        if not patterns.NOTE.search(sentence) or len(words(sentence)) < MIN_NOTE_WORDS:
            continue
        if talk_only and _ADVICE.search(sentence) and not _FLAGGED.search(sentence):
            continue
        parts = [sentence]
        for following in said[index + 1 : index + MAX_NOTE_SENTENCES]:
            if aside(following):
                break
            parts.append(following)  # what the note goes on with, or carries it
        files: list[str] = []
        add_files(files, paths(" ".join(parts)))
        kind_type = "gotcha" if _GOTCHA.search(sentence) else ""
        yield Candidate("note", parts, turn, files, type=kind_type)
