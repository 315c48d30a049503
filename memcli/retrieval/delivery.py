"""What reaches an agent for one prompt: what session start showed whole, or what recall gives.

Measured on the paths the hooks take. Session start is the context ``mem context``
renders at the agent's budget (``SessionContext``): a memory counts only when the
rendered text gives it whole, every fact and every word of its text; the first line
of a longer text, or a memory the budget cut, does not. Its whole memories are noted
for a session, as the SessionStart hook notes them, so recall leaves them out. Each
prompt then gets what ``Recall`` gives it in that session, rendered at the agent's
recall budget (what did not fit was not given), without noting it: every prompt is
the first of its session.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memcli.service.memory import Memory

AGENT = "claude"
"""The agent whose hook budgets are used (``[agents]``)."""
SESSION = "mem-eval"


@dataclass(frozen=True)
class Delivery:
    """One store's session start, and recall for prompts after it."""

    memory: Memory
    settings: dict[str, dict[str, Any]]
    project: Path
    """The folder the agent works in (its git work tree, if any, boosts and marks memories)."""
    at_start: frozenset[str]
    """The ids of the memories session start gave whole."""
    listed: frozenset[str]
    """The ids of every memory session start named (whole, in part, or one line)."""
    budget: int
    """The session-start context's budget, in characters."""
    session: str = SESSION

    @classmethod
    def start(cls, memory: Memory, settings: dict[str, dict[str, Any]], project: Path) -> Delivery:
        """Render session start as the hook does, and note what it gave whole."""
        from memcli.core import config
        from memcli.retrieval import injected
        from memcli.retrieval.context import SessionContext

        budget = config.agent_budget(settings, AGENT, "context")
        context = SessionContext.gather(memory, budget, project=project)
        text = context.render()
        whole = context.shown_whole() if text else []
        injected.note(memory.store, SESSION, whole, context=True)
        listed = frozenset(item["id"] for item in [*context.hot, *context.warm])
        return cls(memory, settings, project, frozenset(whole), listed, budget)

    def recalled(
        self, prompt: str, mode: str | None = None, moment: dt.datetime | None = None
    ) -> dict[str, str]:
        """The memories recall gives ``prompt`` in this session, within the hook's budget:
        their ids and titles, in the order given."""
        from memcli.core import config
        from memcli.retrieval.recall import Recall

        recall = Recall.gather(
            self.memory,
            prompt,
            config.agent_budget(self.settings, AGENT, "recall"),
            session=self.session,
            moment=moment,
            remember=False,
            mode=mode,
            settings=self.settings,
            project=self.project,
        )
        recall.render()  # drops what does not fit the budget
        return {hit["id"]: hit["title"] for hit in recall.hits}
