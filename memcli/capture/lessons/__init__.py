"""Lessons drafted from a finished session's transcript, without a language model.

``draft_lessons`` reads the messages ``capture.transcripts`` parsed and returns
``core.lesson.LessonDraft`` values: the user's corrections and rules (``user``),
the root causes and notes the agent found (``agent``), the decisions agreed
(``decisions``). ``draft_session`` lets the user's ``[extract] command`` draft
instead, falling back to ``draft_lessons`` on any failure.
"""

from __future__ import annotations

from memcli.capture.lessons.drafting import draft_lessons
from memcli.capture.lessons.extract_command import draft_session

__all__ = ["draft_lessons", "draft_session"]
