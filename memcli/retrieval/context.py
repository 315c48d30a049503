"""What an agent sees at session start, chosen by value, within a hard budget.

Session start: the curated MEMORY.md, the latest sessions (one summary each),
then the memories worth most now, best first: the best ``hot_count`` with all
their facts and their text (a short one whole), the next ``warm_count`` with their
first fact (or the first line of their text), then a footer saying how to find
the rest and how to save.

The candidates are every preference, decision and context (background that
holds until replaced, whatever its age), the important memories, the newest ones, and those
touching what the project is changing now (``service.working_set``: its files,
or concepts named by their paths). One score orders them: type, recency and
importance (the factors of search, with ``[context]``'s weights), a boost for
touching the current work, a cut for files changed since the memory was
written (``mem stale``). Near-identical memories are shown once.

Over budget, whole items go first from the least useful part: the warm list
(worst first), then summaries, then MEMORY.md (from its end, by lines), then
the hot list (worst first); only then is the text cut, at a line boundary.
"""

from __future__ import annotations

import datetime as dt
import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memcli.core import config
from memcli.core.errors import MemError
from memcli.core.fences import closed
from memcli.core.regular import NotRegularFile, open_regular
from memcli.core.serialize import entry_dict
from memcli.core.timeutil import now, parse_timestamp
from memcli.index import Entry, Filters, Index
from memcli.retrieval.budgets import (
    CUT_MARK,
    MAX_FACT_CHARS,
    MAX_SUMMARY_CHARS,
    clip,
    clip_lines,
    fit,
)
from memcli.retrieval.ranking import Standing, Weights, standing
from memcli.retrieval.similar import distinct, near_identical, says_more, signature
from memcli.service.memory import Memory

MEMORY_MD = "MEMORY.md"
MAX_MEMORY_MD_BYTES = 4 << 20
"""Only so much of MEMORY.md is read (its first ``memory_md_lines`` lines are used)."""
DURABLE_TYPES = ("preference", "decision", "context")
"""Types that hold until replaced: candidates whatever their age."""
IMPORTANT = 0.7
"""Observations of at least this importance are candidates whatever their age."""
POOL = 40
"""Candidates of each kind (newest, durable, important, touching the work) at most."""
STALE_CHECKS = 12
"""Shown memories with files whose staleness is checked at most, best first (each costs
reading its file for the commit it was written at)."""
DUPLICATE_MARGIN = 10
"""Candidates read beyond those shown, to replace near-identical ones."""
SESSION_START_TEMPLATE = "session_start.md.j2"
"""The template session start renders (a store's own ``templates/`` may replace it)."""
SUMMARY_POOL = 20
"""The newest summaries looked at, to find the latest ``summaries`` sessions."""
MAX_DETAIL_CHARS = 240
MAX_HOT_TEXT_CHARS = 480
"""A hot memory's text is shown up to this many characters (cut at a line): whole when shorter."""
SECTION_LABELS = {
    "request": "Request",
    "investigated": "Investigated",
    "learned": "Learned",
    "completed": "Completed",
    "next_steps": "Next steps",
}


class Candidate:
    """A memory in the running for session start: what scores it, then (when needed) itself."""

    __slots__ = ("created", "entry", "id", "standing", "type")

    def __init__(
        self, identity: str, kind: str, created: str, parts: Standing, entry: Entry | None = None
    ) -> None:
        self.id = identity
        self.type = kind
        self.created = created
        self.standing = parts
        self.entry = entry

    @property
    def score(self) -> float:
        return self.standing.score


def context_weights(settings: dict[str, dict[str, Any]]) -> Weights:
    """Search's weights (its half-lives) with ``[context]``'s recency and importance."""
    own = settings["context"]
    return Weights.from_settings(settings["ranking"])._replace(
        recency=float(own["recency"]), importance=float(own["importance"])
    )


def candidates(
    index: Index,
    settings: dict[str, dict[str, Any]],
    moment: dt.datetime,
    working: Any = None,
    *,
    superseded: bool = False,
) -> list[Candidate]:
    """Every candidate for session start, scored (without staleness), best first.

    ``working``: the project's ``WorkingSet``, whose files and path words boost the
    memories touching them (None: no boost). Only what scores them is read.
    ``superseded``: memories another one supersedes are candidates too.
    """
    from memcli.index.layered import twin_id

    weights = context_weights(settings)
    boost = float(settings["context"]["working_set"])
    touching = working is not None and bool(working.files)
    found = index.standing(
        types=DURABLE_TYPES,
        floor=IMPORTANT,
        files=working.paths if touching else [],
        words=sorted(working.words) if touching else [],
        limit=POOL,
        superseded=superseded,
    )
    at = moment.timestamp()
    scored = []
    for identity, (kind, created, importance, touches) in found.items():
        age = at - _seconds(created)
        parts = standing(kind, age, importance, weights, touches=touches, working_weight=boost)
        scored.append(Candidate(twin_id(identity), kind, created, parts))
    return ranked(scored)


def _text_of(entry: Entry, texts: dict[str, str]) -> str:
    """The entry's narrative in ``texts`` (its own layer's, where two layers hold its id)."""
    from memcli.index.layered import twin_key

    return texts.get(twin_key(entry.id, entry.layer), texts.get(entry.id, ""))


def _seconds(created: str) -> float:
    """A stored creation time as seconds since the epoch (the index holds them in ISO form)."""
    try:
        return dt.datetime.fromisoformat(created).timestamp()
    except ValueError:
        return parse_timestamp(created).timestamp()


def ranked(scored: list[Candidate]) -> list[Candidate]:
    """Best first; newest first among equal scores."""
    scored.sort(key=lambda c: (c.created, c.id), reverse=True)
    scored.sort(key=lambda c: -c.score)
    return scored


def read_entries(index: Index, chosen: list[Candidate]) -> None:
    """Read the memories of ``chosen`` that are not read yet."""
    missing = [c.id for c in chosen if c.entry is None]
    if not missing:
        return
    entries: dict[str, list[Entry]] = {}  # an id two layers hold: an entry each
    for entry in index.with_ids(missing, Filters(superseded=True)):
        entries.setdefault(entry.id, []).append(entry)
    for candidate in chosen:
        if candidate.entry is None and entries.get(candidate.id):
            candidate.entry = entries[candidate.id].pop(0)


def best_distinct(
    index: Index, ranking: list[Candidate], count: int
) -> tuple[list[Candidate], list[Candidate]]:
    """The best ``count`` candidates no two near-identical, and those left out as such.

    Read in windows from the top of the ranking, wider while duplicates leave too few.
    """
    window = count + DUPLICATE_MARGIN
    while True:
        read_entries(index, ranking[:window])
        present = [c for c in ranking[:window] if c.entry is not None]
        kept, dropped = distinct(present, candidate_signature, limit=count)
        if len(kept) >= count or window >= len(ranking):
            return kept, dropped
        window *= 2


def candidate_signature(candidate: Candidate) -> frozenset[str]:
    assert candidate.entry is not None
    return entry_signature(candidate.entry)


def entry_signature(entry: Entry) -> frozenset[str]:
    return signature(entry.title, entry.facts)


def latest_sessions(index: Index, count: int) -> list[Entry]:
    """The newest summary of each of the ``count`` latest sessions, newest first.

    A session's summaries (its compactions, then its end) make one entry: the
    newest, which covers the most of it. Summaries without a session are their own.
    One that says nothing but its title (written before a session that did nothing
    left none) is passed over.
    """
    if count <= 0:
        return []
    chosen: list[Entry] = []
    sessions: set[str] = set()
    pool = index.recent(Filters(kind="summary"), limit=max(SUMMARY_POOL, count * 4))
    bare = [entry.id for entry in pool if _only_title(entry)]
    texts = index.texts(bare) if bare else {}
    for entry in pool:
        if entry.id in texts and not _body(texts[entry.id], entry.title):
            continue  # nothing but its title (a session that did nothing): never shown
        if entry.session:
            if entry.session in sessions:
                continue
            sessions.add(entry.session)
        chosen.append(entry)
        if len(chosen) == count:
            break
    return chosen


def _only_title(entry: Entry) -> bool:
    """A summary none of whose sections says more than its title."""
    title = entry.title.strip()
    return all(fact.strip() in ("", title) for fact in entry.facts)


def _body(narrative: str, title: str) -> str:
    """A summary's text without its first line when that repeats the title."""
    lines = narrative.strip().splitlines()
    if lines and lines[0].strip().lstrip("#").strip() == title:
        lines = lines[1:]  # a compaction summary's first line is its title
    return "\n".join(lines).strip()


def shown_in_full(
    memory: Memory, settings: dict[str, dict[str, Any]], moment: dt.datetime
) -> dict[str, Entry]:
    """What session start shows whole when no session says (``shown_whole``): rendered as
    ``mem context`` renders it, within the store's context budget, without asking git
    (the boost for the project's current work and the staleness cut are left out).
    Nothing, when the store has a session-start template of its own or rendering fails:
    recall may then repeat what session start showed, and never withholds.
    """
    from memcli.retrieval.render import TEMPLATES_DIR

    if os.path.lexists(memory.store.root / TEMPLATES_DIR / SESSION_START_TEMPLATE):
        return {}  # a store's own template may take its whole time limit: nothing counts
    context = SessionContext.gather(memory, settings=settings, moment=moment, with_git=False)
    try:
        context.render()
    except MemError:
        return {}
    ids = context.shown_whole()
    return memory.read(lambda index: {entry.id: entry for entry in index.with_ids(ids)})


def listed(entry: Entry, text: str, *, hot: bool) -> dict[str, Any]:
    """What session start shows of a memory under its title, and whether that is all of it.

    ``facts``: every fact in the hot list, the first in the warm one, each clipped;
    ``detail``: in the hot list, its text when that says more than its title and facts
    (up to ``MAX_HOT_TEXT_CHARS``, cut at a line), so that the best memories arrive
    with their reasons; in the warm list, the first line of its text that says more
    than its title, when it has no facts. ``whole``: the agent is given every fact
    uncut and every word of its text, so that it counts as shown (recall does not
    give it again).
    """
    facts = [clip(fact, MAX_FACT_CHARS) for fact in (entry.facts if hot else entry.facts[:1])]
    if hot:
        body = text.strip()
        more = says_more(body, entry.title, *facts)
        detail = clip_lines(body, MAX_HOT_TEXT_CHARS) if more else ""
    else:
        detail = "" if facts else first_line(text, entry.title)
    whole = facts == entry.facts and not says_more(text, entry.title, *facts, detail)
    return {"facts": facts, "detail": detail, "whole": whole}


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


def session_start(
    memory: Memory,
    budget: int | None = None,
    *,
    explain: bool = False,
    project: Path | None = None,
    superseded: bool = False,
) -> tuple[SessionContext, str]:
    """The session-start context of an existing store, rendered; its notes go to ``notify``.

    ``explain``: every candidate is read, for ``SessionContext.explained``. ``project``:
    as ``SessionContext.gather`` (the current directory by default). ``superseded``:
    memories another one supersedes are considered too.
    """
    memory.require_store()
    session = SessionContext.gather(
        memory, budget, explain=explain, project=project, superseded=superseded
    )
    text = session.render()
    for note in session.notes:
        memory.notify(note)
    return session, text


def _drafts_waiting(memory: Memory) -> int:
    """How many lesson drafts wait in the store for ``mem review`` (none expired)."""
    from memcli.store.drafts import DRAFTS_DIR

    if not (memory.store.root / DRAFTS_DIR).is_dir():
        return 0  # every session start of a store that never drafted: one stat, no reading
    from memcli.service.lesson_drafts import LessonDrafts

    return len(LessonDrafts(memory).waiting())


def first_line(text: str, title: str) -> str:
    """The first line of a memory's text that says more than its title ('' when none does).

    A line says more when it holds a word the title does not: a title cut short (a
    derived one stops at 80 characters) leaves the rest of its line to say.
    """
    for line in text.splitlines():
        line = line.strip().lstrip("#").strip()
        if line and says_more(line, title):
            return clip(line, MAX_DETAIL_CHARS)
    return ""


def summary_text(record: Any, title: str) -> str:
    """A summary as session start shows it: each section once, its title never again.

    Sections its body already holds (summaries written before the body stopped
    repeating them) and one that only repeats the title are left out.
    """
    body = _body(str(getattr(record, "narrative", "") or ""), title)
    parts = []
    for name, label in SECTION_LABELS.items():
        value = getattr(record, name, None)
        if not value or value.strip() == title or value.strip() in body:
            continue
        parts.append(f"**{label}:** {value.strip()}")
    if body:
        parts.append(body)
    return "\n\n".join(parts)


@dataclass
class SessionContext:
    """The session-start context of one store: what ``gather`` found, fitted when rendered.

    ``hot`` and ``warm`` are best first, in the entry shape (``core.serialize``)
    plus what the template shows of them: ``facts`` (all of them for the hot
    list, the first for the warm one), ``detail`` (the first line of the text,
    for a memory without facts), ``stale``, ``touches``, ``whole`` (``listed``); a
    summary has ``text`` and ``whole`` (not cut). Rendering drops items from these
    lists until the text fits; ``shown_whole`` names what the agent then has whole.
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
    ranking: list[Candidate] = field(default_factory=list)
    """Every candidate, best first (for ``--explain``)."""
    duplicates: dict[str, str] = field(default_factory=dict)
    """Left out as near-identical: its id -> the id of the one shown."""
    working: Any = None
    """The project's ``WorkingSet``, when it is a git work tree."""
    explain: bool = False
    """Read every candidate (not only those shown), for ``explained``."""
    superseded: bool = False
    """Memories another one supersedes are considered too."""
    drafts: int = 0
    """Lesson drafts waiting for ``mem review`` (said in one line, never shown)."""
    _memory_md_shown: tuple[int, str] = field(default=(-1, ""), init=False, repr=False)
    """MEMORY.md as shown, for the count of its lines kept (``_memory_md_text``)."""

    @classmethod
    def gather(
        cls,
        memory: Memory,
        budget: int | None = None,
        *,
        with_index: bool = True,
        project: Path | None = None,
        explain: bool = False,
        superseded: bool = False,
        settings: dict[str, dict[str, Any]] | None = None,
        moment: dt.datetime | None = None,
        with_git: bool = True,
    ) -> SessionContext:
        """Choose the memories, read MEMORY.md; without the index (being rebuilt): MEMORY.md only.

        ``project`` (default: the current directory) is the project whose git work
        tree says what is being changed now, and whose history marks the memories
        whose files changed since they were written; ``with_git=False`` asks neither.
        ``settings``: instead of the store's; ``moment``: instead of now.
        """
        settings = settings or config.load(memory.store.root)
        own = settings["context"]
        context = cls(memory, own, budget if budget is not None else own["budget"])
        context.explain = explain
        context.superseded = superseded
        if with_index:
            project = (project or Path.cwd()) if with_git else None
            context._choose(settings, project, moment or now())
        context.memory_md_lines = read_memory_md(
            memory.store.root, own["memory_md_lines"], context.notes
        )
        context.drafts = _drafts_waiting(memory)
        return context

    def _choose(
        self, settings: dict[str, dict[str, Any]], project: Path | None, moment: dt.datetime
    ) -> None:
        from memcli.service.working_set import WorkingSet, working_set

        memory, own = self.memory, self.settings
        self.working = working_set(project, memory.store.root) if project else WorkingSet()

        count = own["hot_count"] + own["warm_count"]

        def query(
            index: Index,
        ) -> tuple[list[Candidate], list[Candidate], list[Candidate], list[Entry], int]:
            ranking = candidates(index, settings, moment, self.working, superseded=self.superseded)
            kept, dropped = best_distinct(index, ranking, count)
            if self.explain:
                read_entries(index, ranking)
            total = index.count() if self.superseded else index.current_count()
            return ranking, kept, dropped, latest_sessions(index, own["summaries"]), total

        ranking, kept, dropped, summaries, self.total = memory.read(query)
        self._note_duplicates(kept, dropped)
        shown_entries = [c.entry for c in kept if c.entry is not None]
        stale = _stale_ids(memory, shown_entries, project, self.working.top) if project else set()
        for candidate in kept:
            if candidate.id in stale:
                candidate.standing = candidate.standing._replace(stale=float(own["stale"]))
        shown = ranked(kept)
        examined = {c.id for c in [*kept, *dropped]}
        self.ranking = [
            *ranked([*shown, *dropped]),
            *(c for c in ranking if c.id not in examined),
        ]
        entries = [c.entry for c in shown if c.entry is not None]
        ids = [e.id for e in [*entries, *summaries]]
        short_ids = memory.read(lambda index: index.short_ids(ids))
        texts = memory.read(lambda index: index.texts([e.id for e in entries])) if entries else {}
        for n, candidate in enumerate(shown):
            entry = candidate.entry
            assert entry is not None  # best_distinct keeps only what it read
            hot = n < own["hot_count"]
            item = {
                **entry_dict(entry, short_ids[entry.id]),
                **listed(entry, _text_of(entry, texts), hot=hot),
                "stale": entry.id in stale,
                "touches": candidate.standing.touches,
            }
            (self.hot if hot else self.warm).append(item)
        self.summaries = []
        for e in summaries:
            full = summary_text(memory.load_or_stub(e), e.title)
            text = clip_lines(full, MAX_SUMMARY_CHARS)
            self.summaries.append(
                {**entry_dict(e, short_ids[e.id]), "text": text, "whole": text == full}
            )

    def _note_duplicates(self, kept: list[Candidate], dropped: list[Candidate]) -> None:
        for candidate in dropped:
            mine = candidate_signature(candidate)
            twin = next((k for k in kept if near_identical(mine, candidate_signature(k))), None)
            if twin is not None:
                self.duplicates[candidate.id] = twin.id

    def variables(self) -> dict[str, Any]:
        shown = len(self.hot) + len(self.warm) + len(self.summaries)
        return {
            "project": self.memory.location.project or self.memory.store.root.name,
            "memory_md": self._memory_md_text(),
            "summaries": self.summaries,
            "hot": self.hot,
            "warm": self.warm,
            "hot_window": self.settings["hot_window"],
            "warm_window": self.settings["warm_window"],
            "total": self.total,
            "more": max(self.total - shown, 0),
            "omitted": {name: n for name, n in self.omitted.items() if n},
            "budget": self.budget,
            "drafts": self.drafts,
        }

    def _memory_md_text(self) -> str:
        """MEMORY.md's kept lines, a fence their cut leaves open closed: worked out once
        for each cut, since ``fit`` draws the context again after each."""
        count = len(self.memory_md_lines)
        if self._memory_md_shown[0] != count:
            self._memory_md_shown = (count, closed("\n".join(self.memory_md_lines).strip()))
        return self._memory_md_shown[1]

    def render(self) -> str:
        from memcli.retrieval.render import Renderer

        renderer = Renderer(self.memory.store.root)
        drawn = [""]

        def draw() -> str:
            drawn[0] = renderer.render(SESSION_START_TEMPLATE, **self.variables())
            return drawn[0]

        text = fit(
            draw,
            [self._drop_warm, self._drop_summary, self._drop_memory_md, self._drop_hot],
            self.budget,
        )
        # Whole only if the agent can read all of it: not when the last cut took a part,
        # nor when the store's own template leaves a part out.
        kept = text.removesuffix(CUT_MARK)
        for item in [*self.hot, *self.warm, *self.summaries]:
            if item["whole"] and not _holds_in_order(kept, _visible_parts(item)):
                item["whole"] = False
        return text

    def shown_whole(self) -> list[str]:
        """The ids of the hot list's memories and of the summaries the rendered context
        gives whole, best first.

        What it shows in part (the first line of a longer text, what the budget cut)
        is not among them, nor the warm list (a line each): recall may still give them.
        """
        return [item["id"] for item in [*self.hot, *self.summaries] if item["whole"]]

    def _drop_warm(self) -> bool:
        return self._drop(self.warm, "warm")

    def _drop_summary(self) -> bool:
        return self._drop(self.summaries, "summaries")

    def _drop_hot(self) -> bool:
        return len(self.hot) > 1 and self._drop(self.hot, "hot")

    def _drop(self, items: list[dict[str, Any]], name: str) -> bool:
        if not items:
            return False
        items.pop()  # best first (summaries newest first): the least useful goes
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

    def explained(self) -> dict[str, Any]:
        """Why each candidate stands where it does, and what was shown (``--explain``)."""
        shown = {item["id"]: tier for tier in ("hot", "warm") for item in getattr(self, tier)}
        working = self.working
        return {
            "weights": {
                name: self.settings[name]
                for name in ("recency", "importance", "working_set", "stale")
            },
            "working_set": {
                "base": working.base if working is not None else "",
                "files": list(working.files) if working is not None else [],
            },
            "memories": [
                {
                    "id": c.id,
                    "type": c.type,
                    "title": c.entry.title if c.entry is not None else "",
                    "created": c.created,
                    "shown": shown.get(c.id, ""),
                    "score": round(c.score, 4),
                    "type_weight": c.standing.type,
                    **{
                        k: round(v, 4) if isinstance(v, float) else v
                        for k, v in c.standing._asdict().items()
                        if k != "type"
                    },
                }
                for c in self.ranking
            ],
            "duplicates": self.duplicates,
        }


def _visible_parts(item: dict[str, Any]) -> list[str]:
    """What the template shows of an item, piece by piece: its title, then its facts and
    every line of its detail (a memory), or every line of its text (a summary).

    A line is looked for without its heading marks and indentation, which the template
    changes (``demote``, ``indent``).
    """
    text = item["text"] if "text" in item else item["detail"]
    lines = (line.lstrip("#").strip() for line in text.splitlines())
    return [item["title"], *item.get("facts", []), *(line for line in lines if line)]


def _holds_in_order(text: str, parts: list[str]) -> bool:
    """Whether ``text`` holds every part, each after the one before: a short line ("}")
    found elsewhere in the context is not the item's own."""
    at = 0
    for part in parts:
        found = text.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def _stale_ids(memory: Memory, entries: list[Entry], project: Path, top: Path | None) -> set[str]:
    """The memories shown whose files changed since their commit (``mem stale``).

    Costs nothing unless one of them has files and the project is a git work tree
    (``top``); then a few git calls at most, each with a short timeout.
    """
    with_files = [entry for entry in entries if entry.files][:STALE_CHECKS]
    if top is None or not with_files:
        return set()
    from memcli.service.stale import stale_ids

    return stale_ids(memory, with_files, project, top=top)
