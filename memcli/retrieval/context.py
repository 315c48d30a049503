"""What an agent sees at session start, and for one prompt, within a hard budget.

Session start: the curated MEMORY.md, the latest session summaries, the *hot*
tier (the last day's memories, with their facts) and the *warm* tier (the last
week's, one line each), then a footer with how many more exist and how to reach
them. A memory whose files changed in the project's git history since it was
written is marked (``stale``). Over budget, whole items go first from the least
important part: warm, then summaries, then MEMORY.md (from its end, by lines), then hot (oldest
first); only then is the text cut, at a line boundary.
"""

from __future__ import annotations

import datetime as dt
import errno
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memcli.core import config
from memcli.core.regular import NotRegularFile, open_regular
from memcli.core.serialize import entry_dict
from memcli.core.timeutil import format_timestamp, now
from memcli.index import Entry, Filters, Index
from memcli.retrieval.budgets import MAX_FACT_CHARS, MAX_SUMMARY_CHARS, clip, clip_lines, fit
from memcli.service.memory import Memory

MEMORY_MD = "MEMORY.md"
MAX_MEMORY_MD_BYTES = 4 << 20
"""Only so much of MEMORY.md is read (its first ``memory_md_lines`` lines are used)."""


def _since(moment: dt.datetime, window: str) -> str:
    """The start of a window ending at ``moment``; never before the first day of year 1."""
    try:
        start = moment - dt.timedelta(seconds=config.window_seconds(window))
    except OverflowError:  # a window reaching back past year 1 starts there
        start = dt.datetime.min.replace(tzinfo=dt.UTC)
    return format_timestamp(start)


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


def read_memory_md(root: Path, limit: int, notes: list[str]) -> list[str]:
    """The first ``limit`` lines of the store's MEMORY.md, if it is a plain file.

    Why it is left out or cut, when it is, goes to ``notes``.
    """
    path = root / MEMORY_MD
    try:
        handle = open_regular(path, follow_links=False)
    except FileNotFoundError:
        return []
    except NotRegularFile as exc:
        if not stat.S_ISDIR(exc.mode):
            notes.append(f"{MEMORY_MD} {exc.reason}; left out")
        return []
    except OSError as exc:
        if exc.errno == errno.ELOOP or path.is_symlink():
            notes.append(
                f"{MEMORY_MD} is a symbolic link; mem reads only a plain file there, "
                "so it is left out"
            )
        else:
            notes.append(f"{MEMORY_MD} cannot be read ({exc.strerror}); left out")
        return []
    with handle:
        data = handle.read(MAX_MEMORY_MD_BYTES)
    lines = data.decode("utf-8", errors="replace").splitlines()
    if len(lines) > limit:
        notes.append(
            f"{MEMORY_MD} has {len(lines)} lines; only the first {limit} are used in the context"
        )
    return lines[:limit]


def session_start(memory: Memory, budget: int | None = None) -> tuple[SessionContext, str]:
    """The session-start context of an existing store, rendered; its notes go to ``notify``."""
    memory.require_store()
    session = SessionContext.gather(memory, budget)
    text = session.render()
    for note in session.notes:
        memory.notify(note)
    return session, text


def _mark_stale(
    memory: Memory, entries: list[Entry], shown: list[dict[str, Any]], project: Path | None
) -> None:
    """``stale: True`` on the memories shown whose files changed since their commit.

    Costs nothing unless one of them has files and the project is a git work tree;
    then a few git calls at most, each with a short timeout.
    """
    for item in shown:
        item["stale"] = False
    if not any(entry.files for entry in entries):
        return
    from memcli.service.stale import stale_ids

    stale = stale_ids(memory, entries, project if project is not None else Path.cwd())
    for item in shown:
        item["stale"] = item["id"] in stale


@dataclass
class SessionContext:
    """The session-start context of one store: what ``gather`` found, fitted when rendered.

    Each tier is newest first, its memories in the entry shape (``core.serialize``)
    plus what the template shows of them: ``facts`` for the hot tier, ``text`` for
    a summary. Rendering drops items from these lists until the text fits.
    """

    memory: Memory
    settings: dict[str, Any]
    budget: int
    hot: list[dict[str, Any]] = field(default_factory=list)
    warm: list[dict[str, Any]] = field(default_factory=list)
    summaries: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0
    memory_md_lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    omitted: dict[str, int] = field(
        default_factory=lambda: {"warm": 0, "summaries": 0, "hot": 0, "memory_md_lines": 0}
    )

    @classmethod
    def gather(
        cls,
        memory: Memory,
        budget: int | None = None,
        *,
        with_index: bool = True,
        project: Path | None = None,
    ) -> SessionContext:
        """Query the tiers and read MEMORY.md; without the index (being rebuilt), MEMORY.md only.

        ``project`` (default: the current directory) is the project whose git
        history marks the memories shown whose files changed since they were written.
        """
        settings = config.load(memory.store.root)["context"]
        context = cls(memory, settings, budget if budget is not None else settings["budget"])
        if with_index:
            moment = now()

            def query(index: Index) -> tuple[list[Entry], list[Entry], list[Entry], int]:
                return (*tiers(index, settings, moment), index.count())

            hot, warm, summaries, context.total = memory.read(query)
            ids = [e.id for e in [*hot, *warm, *summaries]]
            short_ids = memory.read(lambda index: index.short_ids(ids))
            texts = memory.read(lambda index: index.texts([e.id for e in summaries]))
            context.hot = [
                {
                    **entry_dict(e, short_ids[e.id]),
                    "facts": [clip(f, MAX_FACT_CHARS) for f in e.facts],
                }
                for e in hot
            ]
            context.warm = [entry_dict(e, short_ids[e.id]) for e in warm]
            _mark_stale(memory, [*hot, *warm], [*context.hot, *context.warm], project)
            context.summaries = [
                {
                    **entry_dict(e, short_ids[e.id]),
                    "text": clip_lines(texts[e.id], MAX_SUMMARY_CHARS),
                }
                for e in summaries
            ]
        context.memory_md_lines = read_memory_md(
            memory.store.root, settings["memory_md_lines"], context.notes
        )
        return context

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
