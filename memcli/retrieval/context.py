"""What an agent sees at session start, and for one prompt, within a hard budget.

Session start: the curated MEMORY.md, the latest session summaries, the *hot*
tier (the last day's memories, with their facts) and the *warm* tier (the last
week's, one line each), then a footer with how many more exist and how to reach
them. Over budget, whole items go first from the least important part: warm,
then summaries, then MEMORY.md (from its end, by lines), then hot (oldest
first); only then is the text cut, at a line boundary.
"""

from __future__ import annotations

import datetime as dt
import errno
import os
from collections.abc import Callable
from typing import Any

from memcli.core import config
from memcli.core.timeutil import format_timestamp, now
from memcli.index import Entry, Filters, Index
from memcli.service.memory import Memory

MEMORY_MD = "MEMORY.md"
MAX_FACT_CHARS = 300
MAX_SUMMARY_CHARS = 1500
MAX_EXCERPT_CHARS = 600
MAX_MEMORY_MD_BYTES = 4 << 20
"""Only so much of MEMORY.md is read (its first ``memory_md_lines`` lines are used)."""
CUT_MARK = "\n[…cut to fit the context budget]"


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut after a whole word, marked with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"


def clip_lines(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at the end of a line (or a word, for one long line)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    newline = cut.rfind("\n")
    if newline > 0:
        return cut[:newline].rstrip() + "\n…"
    return clip(text, limit)


def cut_to_budget(text: str, budget: int) -> str:
    """The last resort: drop the end of the text, at a line boundary, never mid-word.

    A budget too small for the mark gives nothing at all (``budget = 0`` turns a context off).
    """
    if len(text) <= budget:
        return text
    if budget <= len(CUT_MARK):
        return ""
    room = max(budget - len(CUT_MARK), 0)
    cut = text[:room]
    boundary = cut.rfind("\n")
    if boundary <= 0:
        boundary = cut.rfind(" ")
    return (cut[:boundary] if boundary > 0 else "").rstrip() + CUT_MARK


def fit(render: Callable[[], str], trimmers: list[Callable[[], bool]], budget: int) -> str:
    """Render; while over budget, let the first trimmer that still can drop something."""
    text = render()
    while len(text) > budget:
        if not any(trim() for trim in trimmers):
            return cut_to_budget(text, budget)
        text = render()
    return text


def _since(moment: dt.datetime, window: str) -> str:
    return format_timestamp(moment - dt.timedelta(seconds=config.window_seconds(window)))


def _item(entry: Entry, short_ids: dict[str, str], **extra: Any) -> dict[str, Any]:
    return {
        "id": entry.id,
        "short_id": short_ids[entry.id],
        "type": entry.type,
        "title": entry.title,
        "created": entry.created,
        "key": entry.key,
        **extra,
    }


def tiers(
    index: Index, settings: dict[str, Any], moment: dt.datetime
) -> tuple[list[Entry], list[Entry], list[Entry]]:
    """The hot tier, the warm tier and the latest summaries, as session start selects them."""
    hot_since = _since(moment, settings["hot_window"])
    warm_since = _since(moment, settings["warm_window"])
    hot = index.recent(Filters(kind="observation", since=hot_since), limit=settings["hot_count"])
    warm = index.recent(
        Filters(kind="observation", since=warm_since, until=hot_since),
        limit=settings["warm_count"],
    )
    summaries = index.recent(Filters(kind="summary"), limit=settings["summaries"])
    return hot, warm, summaries


def shown_in_full(index: Index, settings: dict[str, Any], moment: dt.datetime) -> set[str]:
    """The ids session start shows with their content: the hot tier and the summaries.

    The warm tier is only listed by title, so recall may still bring its facts.
    """
    hot, _, summaries = tiers(index, settings, moment)
    return {entry.id for entry in [*hot, *summaries]}


class SessionContext:
    """The session-start context of one store, assembled, then fitted to a budget."""

    def __init__(
        self, memory: Memory, budget: int | None = None, *, with_index: bool = True
    ) -> None:
        self.memory = memory
        self.settings = config.load(memory.store.root)["context"]
        self.budget = budget if budget is not None else self.settings["budget"]
        self.notes: list[str] = []
        self.omitted = {"warm": 0, "summaries": 0, "hot": 0, "memory_md_lines": 0}
        moment = now()

        def gather(index: Index) -> tuple[list[Entry], list[Entry], list[Entry], int]:
            return (*tiers(index, self.settings, moment), index.count())

        if not with_index:  # the index is being rebuilt: MEMORY.md alone, read from its file
            self.hot, self.warm, self.summaries, self.total = [], [], [], 0
            self.memory_md_lines = self._memory_md()
            return
        hot, warm, summaries, self.total = memory.read(gather)
        ids = [e.id for e in [*hot, *warm, *summaries]]
        short_ids = memory.read(lambda index: index.short_ids(ids))
        texts = memory.read(lambda index: index.texts([e.id for e in summaries]))
        self.hot = [
            _item(e, short_ids, facts=[clip(f, MAX_FACT_CHARS) for f in e.facts]) for e in hot
        ]
        self.warm = [_item(e, short_ids) for e in warm]
        self.summaries = [
            _item(e, short_ids, text=clip_lines(texts[e.id], MAX_SUMMARY_CHARS)) for e in summaries
        ]
        self.memory_md_lines = self._memory_md()

    def _memory_md(self) -> list[str]:
        path = self.memory.store.root / MEMORY_MD
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            return []
        except OSError as exc:
            if exc.errno == errno.ELOOP or path.is_symlink():
                self.notes.append(
                    f"{MEMORY_MD} is a symbolic link; mem reads only a plain file there, "
                    "so it is left out"
                )
            else:
                self.notes.append(f"{MEMORY_MD} cannot be read ({exc.strerror}); left out")
            return []
        try:
            with os.fdopen(fd, "rb") as handle:
                data = handle.read(MAX_MEMORY_MD_BYTES)
        except IsADirectoryError:
            return []
        lines = data.decode("utf-8", errors="replace").splitlines()
        limit = self.settings["memory_md_lines"]
        if len(lines) > limit:
            self.notes.append(
                f"{MEMORY_MD} has {len(lines)} lines; only the first {limit} "
                "are used in the context"
            )
        return lines[:limit]

    def variables(self) -> dict[str, Any]:
        shown = len(self.hot) + len(self.warm) + len(self.summaries)
        return {
            "project": self.memory.location.project or self.memory.store.root.name,
            "memory_md": "\n".join(self.memory_md_lines).strip(),
            "summaries": self.summaries,
            "hot": self.hot,
            "warm": self.warm,
            "hot_window": self.settings["hot_window"],
            "warm_window": self.settings["warm_window"],
            "total": self.total,
            "more": max(self.total - shown, 0),
            "omitted": {name: n for name, n in self.omitted.items() if n},
            "budget": self.budget,
        }

    def render(self) -> str:
        from memcli.retrieval.render import Renderer

        renderer = Renderer(self.memory.store.root)
        return fit(
            lambda: renderer.render("session_start.md.j2", **self.variables()),
            [self._drop_warm, self._drop_summary, self._drop_memory_md, self._drop_hot],
            self.budget,
        )

    def _drop_warm(self) -> bool:
        return self._drop(self.warm, "warm")

    def _drop_summary(self) -> bool:
        return self._drop(self.summaries, "summaries")

    def _drop_hot(self) -> bool:
        return len(self.hot) > 1 and self._drop(self.hot, "hot")

    def _drop(self, items: list[dict[str, Any]], name: str) -> bool:
        if not items:
            return False
        items.pop()  # each tier is newest first: the oldest goes
        self.omitted[name] += 1
        return True

    def _drop_memory_md(self) -> bool:
        if not self.memory_md_lines:
            return False
        step = max(1, len(self.memory_md_lines) // 10)
        del self.memory_md_lines[-step:]
        self.omitted["memory_md_lines"] += step
        return True

    def to_json(self, text: str) -> dict[str, Any]:
        return {
            "context": text,
            "chars": len(text),
            "budget": self.budget,
            "hot": [item["id"] for item in self.hot],
            "warm": [item["id"] for item in self.warm],
            "summaries": [item["id"] for item in self.summaries],
            "memory_md_lines": len(self.memory_md_lines),
            "total": self.total,
            "omitted": self.omitted,
        }
