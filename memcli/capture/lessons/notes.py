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
_GOTCHA = re.compile(r"\b(?:gotcha|watch out|careful|silently|caveat|warning)\b", re.I)


def notes(turn: Turn, said: list[str]) -> Iterator[Candidate]:
    """The notes among ``said``, the sentences of one of the agent's messages."""
    for index, sentence in enumerate(said):
        if aside(sentence):
            continue
        if not patterns.NOTE.search(sentence) or len(words(sentence)) < MIN_NOTE_WORDS:
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
