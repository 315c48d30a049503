"""Memories for one prompt: only when the prompt says something, only strong matches.

A prompt is *trivial* when it is short or a bare acknowledgement ("ok",
"continue"): it gets nothing. Otherwise its content words (stop words dropped)
are searched, any of them, among the memories the session-start context does
not show in full (its hot tier and its summaries are in the agent's context
already). A hit is *strong* when it shares at
least ``min_matched_terms`` distinct words with the prompt and scores at least
``relative_score`` of the best such hit. Same store, same prompt, same answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memcli.core import config
from memcli.core.serialize import entry_dict
from memcli.core.timeutil import now
from memcli.index import NO_FILTERS, Entry, Index
from memcli.index.fts import Term, parse_terms
from memcli.retrieval.budgets import MAX_EXCERPT_CHARS, MAX_FACT_CHARS, clip, fit
from memcli.retrieval.context import shown_in_full
from memcli.service.memory import Memory

CANDIDATES = 25
MAX_TERMS = 24
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
STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    few for from further had has have having he her here hers him his how i if in into is
    it its itself just let lets me more most my no nor not now of off on once only or other
    our out over own same she should so some such than that the their them then there these
    they this those through to too under until up very was we were what when where which
    while who whom why will with would you your yours please thanks hey hi hello ok okay
    can't don't won't isn't aren't i'm it's that's what's let's make get use using want need
    like look see tell show give help try work now also still just some thing things""".split()
)


def is_trivial(prompt: str, min_chars: int) -> bool:
    """Short prompts and bare acknowledgements carry nothing worth recalling for."""
    text = " ".join(prompt.lower().split()).strip(" .!?,")
    return len(text) < min_chars or text in ACKNOWLEDGEMENTS


def content_terms(prompt: str) -> list[Term]:
    """The prompt's distinct words minus stop words, as prefix-free FTS terms."""
    seen: set[str] = set()
    terms = []
    for term in parse_terms(prompt.replace('"', " ")):
        word = term.text.lower().strip("'`.,;:!?()[]{}<>")
        if len(word) < 3 or word in STOP_WORDS or word in seen:
            continue
        seen.add(word)
        terms.append(Term(word))
        if len(terms) == MAX_TERMS:
            break
    return terms


def strong_matches(
    index: Index, terms: list[Term], shown: set[str], settings: dict[str, Any]
) -> list[tuple[Entry, int]]:
    """The strong hits for ``terms`` outside ``shown``, best first, with how many terms each has."""
    found = index.search_terms(terms, NO_FILTERS, limit=CANDIDATES + len(shown))
    candidates = [e for e in found if e.id not in shown][:CANDIDATES]
    if not candidates:
        return []
    matched = index.matched_terms([e.id for e in candidates], terms)
    need = min(settings["min_matched_terms"], len(terms))
    qualified = [e for e in candidates if matched[e.id] >= need]
    if not qualified:
        return []
    best = max(e.score or 0.0 for e in qualified)
    strong = [e for e in qualified if (e.score or 0.0) >= best * settings["relative_score"]]
    strong.sort(key=lambda e: (-matched[e.id], -(e.score or 0.0), e.id))
    return [(e, matched[e.id]) for e in strong[: settings["limit"]]]


@dataclass
class Recall:
    """The strong matches for one prompt (``gather``), fitted to a budget when rendered.

    Each hit is a memory in the entry shape (``core.serialize``) plus ``matched``
    (how many of the prompt's words it has), ``facts`` and ``excerpt``, clipped.
    """

    memory: Memory
    prompt: str
    settings: dict[str, Any]
    budget: int
    trivial: bool = False
    hits: list[dict[str, Any]] = field(default_factory=list)
    omitted: int = 0

    @classmethod
    def gather(cls, memory: Memory, prompt: str, budget: int | None = None) -> Recall:
        """Search the store for the prompt's content words, unless the prompt is trivial."""
        settings = config.load(memory.store.root)
        own = settings["recall"]
        trivial = is_trivial(prompt, own["min_prompt_chars"])
        recall = cls(memory, prompt, own, budget if budget is not None else own["budget"], trivial)
        terms = [] if trivial else content_terms(prompt)
        if not terms:
            return recall
        moment = now()
        strong = memory.read(
            lambda index: strong_matches(
                index, terms, shown_in_full(index, settings["context"], moment), own
            )
        )
        short_ids = memory.read(lambda index: index.short_ids([e.id for e, _ in strong]))
        texts = memory.read(lambda index: index.texts([e.id for e, _ in strong]))
        recall.hits = [
            {
                **entry_dict(entry, short_ids[entry.id]),
                "matched": matched,
                "facts": [clip(f, MAX_FACT_CHARS) for f in entry.facts],
                "excerpt": clip(" ".join(texts[entry.id].split()), MAX_EXCERPT_CHARS),
            }
            for entry, matched in strong
        ]
        return recall

    def render(self) -> str:
        if not self.hits:
            return ""
        from memcli.retrieval.render import Renderer

        renderer = Renderer(self.memory.store.root)

        def drop_weakest() -> bool:
            if len(self.hits) <= 1:
                return False
            self.hits.pop()
            self.omitted += 1
            return True

        return fit(
            lambda: renderer.render(
                "prompt_context.md.j2",
                prompt=clip(self.prompt, 200),
                memories=self.hits,
                omitted=self.omitted,
            ),
            [drop_weakest],
            self.budget,
        )

    def to_json(self, text: str) -> dict[str, Any]:
        return {
            "context": text,
            "chars": len(text),
            "budget": self.budget,
            "trivial": self.trivial,
            "memories": [{k: v for k, v in hit.items() if k != "excerpt"} for hit in self.hits],
            "omitted": self.omitted,
        }
