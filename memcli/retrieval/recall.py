"""Memories for one prompt: only when the evidence says one of them answers it.

A prompt is *trivial* when it is short or a bare acknowledgement ("ok",
"continue"): it gets nothing. Any other prompt, a question or an instruction
("Bump the Terraform provider for the staging VPC"), is searched with the same
ranking as ``mem search``, among the memories neither the session-start
context shows in full nor an earlier prompt of the same session was given. The
gate (``retrieval.gate``) then weighs how much of what the prompt says its best
memory covers, by the rarity of each word, and its lead over the next; a *cue*
(a question mark, a file name, a time word, which also narrows the search to
its time, or at least ``long_prompt_words`` words) lowers the evidence needed,
it is not needed itself.

Sections of the curated notes and other sessions' transcript messages keep
their word gate: a cue, then ``min_matched_terms`` distinct content words (all
of them if the prompt has fewer) and a score within ``relative_score`` of the
best. At most ``limit`` memories, within the budget. Same store, same prompt,
same session history: same answer; ``explain`` says why.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memcli.core import config
from memcli.core.serialize import entry_dict
from memcli.core.timeutil import format_timestamp, now
from memcli.index import Entry, Filters, Index
from memcli.retrieval import injected, meaning
from memcli.retrieval.budgets import MAX_EXCERPT_CHARS, MAX_FACT_CHARS, clip, fit
from memcli.retrieval.context import entry_signature, shown_in_full
from memcli.retrieval.gate import UNSAID, Judged, Tokens, Weights, idf, judge, weigh
from memcli.retrieval.query import QueryPlan
from memcli.retrieval.search import Hit, Searcher
from memcli.retrieval.similar import distinct, says_more
from memcli.service.memory import Memory

CANDIDATES = 25
NOTES = 1
TRANSCRIPT_HITS = 2
"""Transcript messages recalled at most, and only when no memory or note answers."""
ACKNOWLEDGEMENTS = frozenset(
    {
        "yes",
        "y",
        "yeah",
        "yep",
        "ok",
        "okay",
        "k",
        "sure",
        "no",
        "n",
        "nope",
        "thanks",
        "thank you",
        "thx",
        "ty",
        "continue",
        "go on",
        "go ahead",
        "go for it",
        "proceed",
        "do it",
        "lgtm",
        "done",
        "next",
        "cool",
        "great",
        "nice",
        "good",
        "right",
        "agreed",
        "perfect",
        "please continue",
        "keep going",
        "carry on",
        "sounds good",
        "makes sense",
        "got it",
        "yes please",
        "ok continue",
        "looks good",
        "ship it",
    }
)
# A path (a separator among name characters) or a name with an extension. Each alternative
# starts only where a run of name characters starts, and the name before the dot is read
# once (leading hyphens, a word character, more): the same matches as "anywhere, after a word
# boundary", but read in one pass, not once per character of a long word.
_FILE_RE = re.compile(
    r"(?<![\w.-])[\w.-]*[/\\][\w./\\-]+|(?<![\w-])-*+\w[\w-]++\.[a-z][a-z0-9]{0,5}\b",
    re.IGNORECASE,
)
_WORD_COUNT_RE = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
# A time word and how far back it reaches, in days (a day more than it says: "yesterday"
# at 00:30 still means most of the day before).
TIME_WORDS: tuple[tuple[re.Pattern[str], int], ...] = tuple(
    (re.compile(rf"\b{pattern}\b", re.IGNORECASE), days)
    for pattern, days in (
        (r"today|this morning|this afternoon|tonight|earlier today", 1),
        (r"yesterday|last night", 2),
        (r"this week|last few days|past few days|the other day|recently|lately", 8),
        (r"last week|past week|a week ago", 15),
        (r"this month|last few weeks|past few weeks|weeks ago", 32),
        (r"last month|past month|a month ago", 62),
    )
)


def is_trivial(prompt: str, min_chars: int) -> bool:
    """Short prompts and bare acknowledgements carry nothing worth recalling for."""
    text = " ".join(prompt.lower().split()).strip(" .!?,")
    return len(text) < min_chars or text in ACKNOWLEDGEMENTS


def cues(prompt: str, long_prompt_words: int) -> list[str]:
    """Why a prompt is worth recalling for: ``question``, ``file``, ``time``, ``long``."""
    found = []
    if "?" in prompt:
        found.append("question")
    if _FILE_RE.search(prompt):
        found.append("file")
    if time_window_days(prompt) is not None:
        found.append("time")
    if len(_WORD_COUNT_RE.findall(prompt)) >= long_prompt_words:
        found.append("long")
    return found


def time_window_days(prompt: str) -> int | None:
    """How many days back a prompt's time words reach (the widest), None without any."""
    reach = [days for pattern, days in TIME_WORDS if pattern.search(prompt)]
    return max(reach) if reach else None


def _weighed_terms(index: Index, plan: QueryPlan) -> Weights:
    """The plan's terms with their weights in this store (``retrieval.gate``)."""
    size = max(index.store_size(), 1)
    terms = [(term.text, index.tokens(term.text), term.prefix) for term in plan.terms]
    return weigh(terms, size, lambda token, prefix: index.holding(token, prefix=prefix))


def _candidate_tokens(index: Index, *, hits: list[Hit]) -> dict[str, Tokens]:
    """Each candidate's tokens, its type's among them: "what did we decide" asks for a decision."""
    texts = index.token_sets([hit.entry.id for hit in hits])
    kinds = {kind: frozenset(index.tokens(kind)) for kind in {hit.entry.type for hit in hits}}
    empty: Tokens = (frozenset(), frozenset())
    return {
        hit.entry.id: _with_kind(texts.get(hit.entry.id, empty), kinds[hit.entry.type])
        for hit in hits
    }


def _with_kind(tokens: Tokens, kind: frozenset[str]) -> Tokens:
    about, narrative = tokens
    return about | kind, narrative


def _note_key(note: dict[str, Any]) -> str:
    """How a section of the notes is remembered among the ids a session was given."""
    return f"note:{note['path']}:{note['line']}"


def _strong_notes(
    searcher: Searcher,
    prompt: str,
    terms: int,
    settings: dict[str, Any],
    context: dict[str, Any],
) -> list[dict[str, Any]]:
    """The sections of the notes that share enough words with the prompt and score near the best.

    Never a section of MEMORY.md that session start already shows.
    """
    from memcli.core.serialize import note_dict
    from memcli.retrieval.context import MEMORY_MD

    shown_lines = context["memory_md_lines"]
    found = searcher.notes(
        prompt,
        limit=NOTES,
        skip=lambda hit: hit.path == MEMORY_MD and hit.line <= shown_lines,
    )
    need = min(settings["min_matched_terms"], terms)
    passing = [(hit, matched) for hit, matched in found if matched >= need]
    if not passing:
        return []
    best = max(hit.score for hit, _ in passing)
    return [
        note_dict(hit) | {"matched": matched}
        for hit, matched in passing
        if hit.score >= settings["relative_score"] * best
    ]


def _transcript_key(hit: dict[str, Any]) -> str:
    return f"transcript:{hit['ref']}"


def _strong_transcripts(
    memory: Memory, prompt: str, terms: int, settings: dict[str, Any], session: str | None
) -> list[dict[str, Any]]:
    """Messages of the indexed transcripts (never this session's) passing the memories' gates.

    The absolute gate (enough distinct words of the prompt) and the relative one
    (a score near the best passing one); ``TRANSCRIPT_HITS`` at most.
    """
    from memcli.core.errors import MemError
    from memcli.service import transcripts

    path = transcripts.transcripts_path(memory.store)
    if not terms or not path.exists():
        return []
    try:
        found, _ = transcripts.search(path, prompt, limit=10)
    except MemError:
        return []
    need = min(settings["min_matched_terms"], terms)
    passing = [hit for hit in found if hit.session != session and hit.matched >= need]
    if not passing:
        return []
    best = max(hit.score for hit in passing)
    return [hit.to_json() for hit in passing if hit.score >= settings["relative_score"] * best][
        :TRANSCRIPT_HITS
    ]


def _stale(memory: Memory, entries: list[Entry], project: Path) -> set[str]:
    """The memories given whose files changed in the project since they were written.

    Nothing is asked of git unless one of them has files (``service.stale``, bounded).
    """
    if not any(entry.files for entry in entries):
        return set()
    from memcli.service.stale import stale_ids

    return stale_ids(memory, entries, project)


@dataclass
class Recall:
    """What one prompt is given (``gather``), fitted to a budget when rendered.

    Each hit is a memory in the entry shape (``core.serialize``) plus ``matched``
    (how many of the prompt's words it has), ``coverage`` (the weighted share of
    the prompt it covers), ``facts`` and ``excerpt``, clipped. ``weights`` and
    ``judged`` keep the gate's evidence for ``explain``.
    """

    memory: Memory
    prompt: str
    settings: dict[str, Any]
    budget: int
    trivial: bool = False
    cues: list[str] = field(default_factory=list)
    session: str | None = None
    remember: bool = False
    """Whether ``render`` notes for ``session`` what it gives (``gather``'s ``remember``)."""
    superseded: bool = False
    """Memories another one supersedes are candidates too."""
    hits: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    """Sections of the curated notes (at most ``NOTES``) that pass their word gate."""
    transcripts: list[dict[str, Any]] = field(default_factory=list)
    """Messages of other sessions' transcripts passing the word gate, when nothing else does."""
    omitted: int = 0
    weights: Weights = field(default_factory=lambda: Weights([], 0.0))
    judged: list[Judged] = field(default_factory=list)
    candidates: dict[str, Hit] = field(default_factory=dict)
    left_out: dict[str, int] = field(default_factory=dict)
    """Memories never considered: ``context`` (session start shows them), ``session``."""

    @classmethod
    def gather(
        cls,
        memory: Memory,
        prompt: str,
        budget: int | None = None,
        *,
        session: str | None = None,
        moment: dt.datetime | None = None,
        remember: bool = True,
        mode: str | None = None,
        settings: dict[str, dict[str, Any]] | None = None,
        superseded: bool = False,
        project: Path | None = None,
    ) -> Recall:
        """What ``prompt`` is given: nothing when it is trivial or the evidence is weak.

        ``session``: what earlier prompts of that session were given is left out,
        and (``remember``) what this one is given is noted for the next, by ``render``:
        what did not fit the budget was not given.
        ``mode``: the ranking's, instead of mem.toml's ``[search] mode``;
        ``settings``: instead of the store's mem.toml;
        ``superseded``: memories another one supersedes are candidates too;
        ``project`` (default: the current directory): the git work tree whose history
        marks the memories given whose files changed since (shown last, never left out).
        """
        settings = settings or config.load(memory.store.root)
        own = settings["recall"]
        trivial = is_trivial(prompt, own["min_prompt_chars"])
        recall = cls(
            memory,
            prompt,
            own,
            budget if budget is not None else own["budget"],
            trivial,
            session=session,
            superseded=superseded,
        )
        if trivial:
            return recall
        recall.cues = cues(prompt, own["long_prompt_words"])
        moment = moment or now()
        searcher = Searcher(memory, settings)
        plan = searcher.plan(prompt)
        if not plan.terms:
            return recall
        ids, started = injected.state(memory.store, session) if session else ([], None)
        given = frozenset(ids)
        shown_entries = (
            shown_in_full(memory, settings, moment)  # what session start would show
            if started is None
            else memory.read(lambda index: {entry.id: entry for entry in index.with_ids(started)})
        )
        shown = frozenset(shown_entries)
        recall.left_out = {"context": len(shown), "session": len(given - shown)}
        recall._judge(searcher, plan, mode, moment, shown | given)
        chosen = [recall.candidates[j.id] for j in recall.judged if j.shown]
        # Near-identical memories once: never beside each other, nor beside session start's.
        seen = [entry_signature(entry) for entry in shown_entries.values()]
        chosen, twins = distinct(chosen, lambda hit: entry_signature(hit.entry), seen)
        recall._not_shown({hit.entry.id for hit in twins}, "near-identical to a memory given")
        stale = _stale(memory, [hit.entry for hit in chosen], project or Path.cwd())
        chosen.sort(key=lambda hit: hit.entry.id in stale)  # stable: the stale ones last
        ids = [hit.entry.id for hit in chosen]
        coverage = {j.id: j.coverage for j in recall.judged}
        short_ids = memory.read(lambda index: index.short_ids(ids))
        texts = memory.read(lambda index: index.texts(ids))
        recall.hits = [
            {
                **entry_dict(hit.entry, short_ids[hit.entry.id]),
                "matched": hit.parts.matched,
                "coverage": round(coverage[hit.entry.id], 3),
                "facts": [clip(f, MAX_FACT_CHARS) for f in hit.entry.facts],
                "excerpt": _excerpt(texts[hit.entry.id], hit.entry.title),
                "stale": hit.entry.id in stale,
            }
            for hit in chosen
        ]
        if recall.cues:
            recall.notes = [
                note
                for note in _strong_notes(
                    searcher, prompt, len(plan.terms), own, settings["context"]
                )
                if _note_key(note) not in given
            ]
        if not recall.hits and not recall.notes and recall.cues:
            recall.transcripts = [
                hit
                for hit in _strong_transcripts(memory, prompt, len(plan.terms), own, session)
                if _transcript_key(hit) not in given
            ]
        recall.remember = remember
        return recall

    def _note_given(self) -> None:
        """Note for the session what its prompt was given (what fit the budget), if asked to."""
        if not (self.session and self.remember):
            return
        keys = [hit["id"] for hit in self.hits] + [_note_key(n) for n in self.notes]
        keys += [_transcript_key(t) for t in self.transcripts]
        if keys:
            injected.note(self.memory.store, self.session, keys)

    def _not_shown(self, ids: set[str], why: str) -> None:
        """Mark the candidates ``ids`` as not shown after all, and say why."""
        self.judged = [
            j._replace(shown=False, why=f"{why}; shown once") if j.id in ids else j
            for j in self.judged
        ]

    def _judge(
        self,
        searcher: Searcher,
        plan: QueryPlan,
        mode: str | None,
        moment: dt.datetime,
        exclude: frozenset[str],
    ) -> None:
        """The candidates, ranked like ``mem search``, and the gate's verdict on each.

        A time word narrows the search to its time first; when nothing there
        passes, to all time: it may say when a problem happens, not when it was noted.
        """
        days = time_window_days(self.prompt)
        since = format_timestamp(moment - dt.timedelta(days=days)) if days else None
        old = self.superseded
        windows = [Filters(superseded=old)]
        if since:
            windows.insert(0, Filters(since=since, superseded=old))
        memory = self.memory
        self.weights = memory.read(lambda index: _weighed_terms(index, plan))
        for filters in windows:
            outcome = searcher.search(
                self.prompt,
                filters,
                # What the agent has stays in, as rivals: judge never shows it.
                limit=CANDIDATES + min(len(exclude), CANDIDATES),
                mode=mode,
                moment=moment,
                fallback=False,
            )
            hits = outcome.hits if outcome.strategy in ("ranked", "all") else []
            self.candidates = {hit.entry.id: hit for hit in hits}
            tokens = memory.read(functools.partial(_candidate_tokens, hits=hits))
            self.judged = meaning.weigh_in(
                judge(
                    [(h.entry.id, tokens[h.entry.id], h.parts.similarity) for h in hits],
                    self.weights,
                    self.settings,
                    cued=bool(self.cues),
                    left_out=exclude,
                ),
                None
                if outcome.mode == "lexical"
                else memory.read(lambda index: meaning.read(searcher, index, self.prompt, exclude)),
                {h.entry.id: h.parts.lexical_rank for h in hits},
                self.settings,
                exclude,
            )
            if any(j.shown for j in self.judged):
                return

    def render(self) -> str:
        if not self.hits and not self.notes and not self.transcripts:
            return ""
        from memcli.retrieval.render import Renderer

        renderer = Renderer(self.memory.store.root)

        def drop_weakest() -> bool:
            if len(self.hits) <= 1:
                return False
            self.hits.pop()
            self.omitted += 1
            return True

        text = fit(
            lambda: renderer.render(
                "prompt_context.md.j2",
                prompt=clip(self.prompt, 200),
                memories=self.hits,
                notes=self.notes,
                transcripts=self.transcripts,
                omitted=self.omitted,
            ),
            [drop_weakest],
            self.budget,
        )
        self._note_given()
        return text

    def explain(self) -> dict[str, Any]:
        """Why the prompt was given what it was: the terms' weights, the thresholds, and
        each candidate's evidence and verdict (best covered first)."""
        own = self.settings
        ids = [j.id for j in self.judged]
        short_ids = self.memory.read(lambda index: index.short_ids(ids)) if ids else {}
        size = self.memory.read(lambda index: max(index.store_size(), 1))
        unsaid = UNSAID * idf(0, size)
        return {
            "trivial": self.trivial,
            "cues": self.cues,
            "evidence_needed": own["cue_evidence"] if self.cues else own["min_evidence"],
            "thresholds": {
                name: own[name]
                for name in (
                    "min_evidence",
                    "cue_evidence",
                    "margin_weight",
                    "relative_score",
                    "min_similarity",
                    "limit",
                )
            },
            "terms": [
                {
                    "term": term.term,
                    "counts_as": sorted({t for form in term.forms for t in form.exact})
                    + [f"{p}*" for form in term.forms for p in form.prefixes],
                    "memories": term.holding,
                    "weight": round(term.weight, 3),
                }
                for term in self.weights.terms
            ],
            "unsaid_weight": round(unsaid, 3),
            "total_weight": round(self.weights.total, 3),
            "left_out": self.left_out,
            "candidates": [
                {
                    **entry_dict(self.candidates[j.id].entry, short_ids[j.id]),
                    "coverage": round(j.coverage, 3),
                    "held": list(j.held),
                    "margin": round(j.margin, 3),
                    "similarity": None if j.similarity is None else round(j.similarity, 3),
                    "evidence": round(j.evidence, 3),
                    "shown": j.shown,
                    "why": j.why,
                }
                for j in self.judged
            ],
        }

    def to_json(self, text: str) -> dict[str, Any]:
        return {
            "context": text,
            "chars": len(text),
            "budget": self.budget,
            "trivial": self.trivial,
            "cues": self.cues,
            "memories": [{k: v for k, v in hit.items() if k != "excerpt"} for hit in self.hits],
            "notes": self.notes,
            "transcripts": self.transcripts,
            "omitted": self.omitted,
        }


def _excerpt(text: str, title: str) -> str:
    """A memory's text on one line, clipped, without leading lines that only repeat its title."""
    lines = text.strip().splitlines()
    while lines and not says_more(lines[0], title):
        lines.pop(0)
    return clip(" ".join(" ".join(lines).split()), MAX_EXCERPT_CHARS)
