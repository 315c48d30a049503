"""``mem dedupe``: clusters of near-duplicate memories, and their merge into a keeper.

Finding clusters never compares every two memories. Each current observation
of every layer given (one :class:`~memcli.service.memory.Memory` a layer) is
read once from the index, and its word pairs sketched (``likeness.sketch``); the
sketch is cut into bands, and memories of the same type sharing a whole band
are candidates. The candidates alone are compared in full (``likeness.similarity``,
with how many memories hold each word counted in the same pass: a rare word
differing counts against likeness) and those at least ``THRESHOLD`` alike are
linked; linked memories are cut into clusters around their keepers, every member
at least ``THRESHOLD`` alike to its keeper. Memory stays small: a band is one
64-bit number in one array, and only candidates are read again.

The keeper is the memory with a key, else the most important, else the most
recent. A merge rewrites the keeper alone, in one commit: the others' facts,
concepts, files and guards are added to it, and it supersedes them (they stay in the store
and in git, left out of reads). ``[consolidate] command`` may write the merged
text; any failure falls back to the deterministic merge, and the reason is in
the commit message and the result.
"""

from __future__ import annotations

import json
import operator
import re
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from memcli.core.schema import OBSERVATION_TYPES
from memcli.retrieval.likeness import (
    SKETCH_SIZE,
    THRESHOLD,
    Features,
    bands,
    features,
    is_rare,
    similarity,
    sketch_numbers,
    stem_number,
    word_numbers,
)

if TYPE_CHECKING:
    from memcli.core.guards import Guard
    from memcli.core.model import Observation
    from memcli.index import Entry, Index
    from memcli.service.memory import Memory

_ROW_BITS = 22
"""A memory's number within a pass takes this many bits of a band's entry (4M memories)."""
_KEY_MASK = (1 << (63 - _ROW_BITS)) - 1
READ_CHUNK = 500
MIN_AGREEING = 7
"""Of the ``SKETCH_SIZE`` values, two candidates' sketches must agree on this many (their
word pairs overlapping by about a quarter) to be compared in full. Memories alike
enough to cluster mostly overlap by more; the same fact in another order may not,
and is then found only when it shares a band."""


class Member(NamedTuple):
    entry: Entry
    layer: int
    """Which of the memories (layers) given holds it."""
    similarity: float
    """How alike it is to the cluster's keeper (1.0 for the keeper)."""

    def to_json(self, layers: Sequence[str] = ()) -> dict[str, Any]:
        """``layers``: the name of each layer given (then each member says its own)."""
        return {
            "id": self.entry.id,
            **({"layer": layers[self.layer]} if layers else {}),
            "key": self.entry.key,
            "type": self.entry.type,
            "title": self.entry.title,
            "created": self.entry.created,
            "updated": self.entry.updated,
            "importance": self.entry.importance,
            "similarity": round(self.similarity, 3),
        }


class Cluster(NamedTuple):
    keeper: Member
    members: list[Member]
    """Every member, the keeper first, then the most alike."""

    @property
    def similarity(self) -> float:
        """The least alike member's similarity to the keeper."""
        return min(m.similarity for m in self.members[1:])

    def to_json(self, layers: Sequence[str] = ()) -> dict[str, Any]:
        return {
            "keeper": self.keeper.entry.id,
            "similarity": round(self.similarity, 3),
            "members": [member.to_json(layers) for member in self.members],
        }


def find_clusters(
    memories: Sequence[Memory],
    *,
    threshold: float = THRESHOLD,
    progress: Callable[[int], None] | None = None,
) -> list[Cluster]:
    """The clusters of near-duplicates among the current observations of every layer.

    Largest first, then most alike. ``progress`` is called with the number of
    memories read so far, every 10,000.
    """
    rows: list[tuple[int, str]] = []  # (layer, id) by number
    entries = array("q")
    sketches = array("Q")
    held: Counter[int] = Counter()
    for layer, memory in enumerate(memories):
        _sketch_layer(memory.index(), layer, rows, entries, sketches, held, progress)
    total = len(rows)

    def rare(word: str) -> bool:
        return is_rare(word, held[stem_number(word)], total)

    pairs = _likely(_candidate_pairs(entries), sketches)
    wanted = sorted({n for pair in pairs for n in pair})
    known = _read(memories, [rows[n] for n in wanted])
    linked = _linked(pairs, rows, known, threshold, rare)
    return _clusters(linked, rows, known, threshold, rare)


def _sketch_layer(
    index: Index,
    layer: int,
    rows: list[tuple[int, str]],
    entries: array[int],
    sketches: array[int],
    held: Counter[int],
    progress: Callable[[int], None] | None,
) -> None:
    """Sketch each memory of a layer; count in ``held`` how many memories hold each word."""
    for identity, type_, title, facts, narrative in index.observation_texts():
        numbers = word_numbers("\n".join([title, *json.loads(facts), narrative]))
        sketched = sketch_numbers(numbers)
        if not sketched:
            continue
        held.update(set(numbers))
        number = len(rows)
        rows.append((layer, identity))
        sketches.extend(sketched)
        kind = OBSERVATION_TYPES.index(type_) if type_ in OBSERVATION_TYPES else -1
        for band in bands(sketched):
            entries.append(((hash((kind, *band)) & _KEY_MASK) << _ROW_BITS) | number)
        if progress is not None and len(rows) % 10_000 == 0:
            progress(len(rows))


def _candidate_pairs(entries: array[int]) -> set[tuple[int, int]]:
    """Memories sharing a band: each with the first of its run, and with the one before."""
    pairs: set[tuple[int, int]] = set()
    low = (1 << _ROW_BITS) - 1
    run_key = -1
    first = previous = -1
    for value in sorted(entries):
        key, number = value >> _ROW_BITS, value & low
        if key != run_key:
            run_key, first, previous = key, number, number
            continue
        pairs.add((first, number))
        if previous != first:
            pairs.add((previous, number))
        previous = number
    return pairs


def _likely(pairs: set[tuple[int, int]], sketches: array[int]) -> list[tuple[int, int]]:
    """The candidates whose sketches agree on at least ``MIN_AGREEING`` values (an estimate
    of their overlap): a band shared by chance is dropped before any text is read again."""
    size = SKETCH_SIZE
    kept = []
    for a, b in sorted(pairs):
        first, second = sketches[a * size : (a + 1) * size], sketches[b * size : (b + 1) * size]
        if sum(map(operator.eq, first, second)) >= MIN_AGREEING:
            kept.append((a, b))
    return kept


def _read(
    memories: Sequence[Memory], wanted: list[tuple[int, str]]
) -> dict[tuple[int, str], tuple[Entry, Features]]:
    """The entry and the features of each (layer, id), read in chunks from its index."""
    found: dict[tuple[int, str], tuple[Entry, Features]] = {}
    by_layer: dict[int, list[str]] = {}
    for layer, identity in wanted:
        by_layer.setdefault(layer, []).append(identity)
    for layer, ids in by_layer.items():
        index = memories[layer].index()
        for start in range(0, len(ids), READ_CHUNK):
            chunk = ids[start : start + READ_CHUNK]
            listed, texts = index.with_ids(chunk), index.texts(chunk)
            for entry in listed:
                mine = features(entry.title, entry.facts, texts.get(entry.id, ""))
                found[(layer, entry.id)] = (entry, mine)
    return found


def _linked(
    pairs: Iterable[tuple[int, int]],
    rows: list[tuple[int, str]],
    known: dict[tuple[int, str], tuple[Entry, Features]],
    threshold: float,
    rare: Callable[[str], bool],
) -> dict[int, int]:
    """Union-find parents of the memories linked by a pair at least ``threshold`` alike."""
    parent: dict[int, int] = {}

    def root(n: int) -> int:
        while parent.get(n, n) != n:
            parent[n] = parent.get(parent[n], parent[n])
            n = parent[n]
        return n

    for a, b in sorted(pairs):
        first, second = known.get(rows[a]), known.get(rows[b])
        if first is None or second is None:
            continue
        if similarity(first[1], second[1], rare) >= threshold:
            ra, rb = root(a), root(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
            parent.setdefault(a, a)
            parent.setdefault(b, b)
    return {n: root(n) for n in parent}


def _clusters(
    linked: dict[int, int],
    rows: list[tuple[int, str]],
    known: dict[tuple[int, str], tuple[Entry, Features]],
    threshold: float,
    rare: Callable[[str], bool],
) -> list[Cluster]:
    """The linked memories cut into clusters around their keepers.

    Linked pair by pair, a group may chain memories that are not alike; so the
    greatest (``keeper_rank``) of a group keeps those at least ``threshold`` alike to
    it, and the rest are grouped again the same way: every member of a cluster is
    close to its keeper.
    """
    groups: dict[int, list[int]] = {}
    for n, top in linked.items():
        groups.setdefault(top, []).append(n)
    clusters = []
    for numbers in groups.values():
        found = [(rows[n][0], *known[rows[n]]) for n in sorted(numbers)]
        found.sort(key=lambda item: keeper_rank(item[1]), reverse=True)
        while len(found) > 1:
            layer, keeper, keeper_features = found[0]
            members = [Member(keeper, layer, 1.0)]
            rest = []
            for at, entry, mine in found[1:]:
                alike = similarity(keeper_features, mine, rare)
                if alike >= threshold:
                    members.append(Member(entry, at, alike))
                else:
                    rest.append((at, entry, mine))
            if len(members) > 1:
                members[1:] = sorted(members[1:], key=lambda m: (-m.similarity, m.entry.id))
                clusters.append(Cluster(members[0], members))
            found = rest
    clusters.sort(key=lambda c: (-len(c.members), -c.similarity, c.keeper.entry.id))
    return clusters


def keeper_rank(entry: Entry) -> tuple[bool, float, str, str]:
    """The keeper is the greatest: a key first, then importance, then the latest change."""
    latest = max(entry.created, entry.updated or "")
    return entry.key is not None, entry.importance or 0.0, latest, entry.id


# ------------------------------------------------------------------- merging


class Merge(NamedTuple):
    record: Observation
    merged_by: str
    """``deterministic`` or ``command``."""
    fallback: str | None
    """Why the ``[consolidate] command`` was not used, when one is set and failed."""


def merge_cluster(
    memories: Sequence[Memory], cluster: Cluster, *, team: bool = False
) -> dict[str, object]:
    """Merge a cluster into its keeper in one commit, in the keeper's layer; what was done.

    ``memories``: those the clusters were found in. Members of another layer are
    left as they are (a memory supersedes within its own store). A cluster of the
    team's is merged (staged in its folder) only when ``team`` says the team's layer
    was asked for: its folder goes out with the project's next commit.
    """
    from memcli.core import config

    memory = memories[cluster.keeper.layer]
    settings = config.load(memory.store.root)["consolidate"]
    used: dict[str, str | None] = {}

    def merge(keeper: Observation, others: list[Observation]) -> tuple[Observation, str]:
        outcome = merge_records(keeper, others, settings)
        used["merged_by"], used["fallback"] = outcome.merged_by, outcome.fallback
        if outcome.merged_by == "command":
            return outcome.record, "merged by the [consolidate] command"
        failed = outcome.fallback
        why = f" (the [consolidate] command failed: {failed})" if failed else ""
        return outcome.record, f"merged deterministically{why}"

    layer = cluster.keeper.layer
    others = [m.entry for m in cluster.members[1:] if m.layer == layer]
    if not others or (memory.layer == "team" and not team):  # nothing to merge here
        keeper = cluster.keeper.entry
        return {
            "keeper": keeper.id,
            "title": keeper.title,
            "superseded": [],
            "commit": None,
            "merged_by": None,
            "fallback": None,
        }
    result = memory.writer.merge(cluster.keeper.entry, others, merge)
    merged = set(result.record.supersedes) if result.action == "merged" else set()
    return {
        "keeper": result.record.id,
        "title": result.record.title,
        "superseded": [e.id for e in others if e.id in merged],
        "commit": result.commit,
        "merged_by": used.get("merged_by"),
        "fallback": used.get("fallback"),
    }


def deterministic_merge(keeper: Observation, others: list[Observation]) -> Observation:
    """The keeper with the others' facts, concepts, files and guards added, the highest
    importance, and the sentences of their text it does not hold already (``sentences_added``).

    The guards of the memories it supersedes would stop: the keeper takes them on, the
    strictest action kept where two watch the same call."""
    every = [keeper, *others]
    importances = [o.importance for o in every if o.importance is not None]
    return keeper.replace(
        narrative=sentences_added(keeper, others),
        facts=_union(o.facts for o in every),
        concepts=_union(o.concepts for o in every),
        files=_union(o.files for o in every),
        importance=max(importances) if importances else None,
        guards=_union_guards(o.guards for o in every),
    )


def merge_records(
    keeper: Observation, others: list[Observation], settings: dict[str, Any]
) -> Merge:
    """The merged memory: by the ``[consolidate] command`` when set and it answers well."""
    fallback = deterministic_merge(keeper, others)
    command = str(settings.get("command") or "").strip()
    if not command:
        return Merge(fallback, "deterministic", None)
    from memcli.capture.bounded_command import CommandFailed, run_bounded
    from memcli.core.errors import MemError
    from memcli.core.secrets import report
    from memcli.service.screening import new_secrets

    cluster = cluster_json(keeper, others)
    try:
        answer = run_bounded(
            command,
            json.dumps(cluster, ensure_ascii=False),
            timeout=float(settings["timeout"]),
            max_input=int(settings["max_input_chars"]),
        )
        merged = from_command(fallback, answer)
    except (CommandFailed, MemError) as exc:
        return Merge(fallback, "deterministic", str(exc))
    found = new_secrets(merged, [keeper, *others])
    if found:
        return Merge(
            fallback, "deterministic", f"its answer holds a likely secret: {report(found)}"
        )
    return Merge(merged, "command", None)


CONSOLIDATE_PROMPT = (
    "These memories of a coding project say nearly the same thing. Merge them into one "
    "memory that keeps every distinct fact. Answer with one JSON object with the keys "
    "title, narrative, facts (a list of short statements), concepts and files (lists): "
    "nothing else."
)


def cluster_json(keeper: Observation, others: list[Observation]) -> dict[str, Any]:
    """What the ``[consolidate] command`` reads on stdin."""
    from memcli.core.serialize import record_dict

    return {
        "instructions": CONSOLIDATE_PROMPT,
        "keeper": keeper.id,
        "memories": [record_dict(o) for o in [keeper, *others]],
    }


def from_command(merged: Observation, answer: str) -> Observation:
    """The deterministic merge with the command's title, narrative and facts; its concepts
    and files added, ``<private>`` spans dropped as a save drops them. ``InvalidInput``
    when the answer is not such a JSON object."""
    from memcli.core.errors import InvalidInput
    from memcli.core.validate import (
        check_file_ref,
        clean_list,
        clean_narrative,
        clean_title,
        strip_private_deep,
    )

    try:
        data = strip_private_deep(json.loads(answer))
    except json.JSONDecodeError:
        raise InvalidInput("the command's answer is not JSON") from None
    except RecursionError:  # arrays or objects nested thousands deep
        raise InvalidInput("the command's answer is not JSON mem reads (nested too deep)") from None
    if not isinstance(data, dict):
        raise InvalidInput("the command's answer is not a JSON object")
    title, narrative = data.get("title"), data.get("narrative")
    if not isinstance(title, str) or not isinstance(narrative, str) or not narrative.strip():
        raise InvalidInput("the command's answer has no title and narrative (strings)")
    facts = clean_list(data.get("facts"), "facts") or merged.facts
    concepts = _union([merged.concepts, clean_list(data.get("concepts"), "concepts")])
    files = [check_file_ref(f) for f in clean_list(data.get("files"), "files")]
    return merged.replace(
        title=clean_title(title),
        narrative=clean_narrative(narrative),
        facts=facts,
        concepts=concepts,
        files=_union([merged.files, files]),
    )


_SENTENCE_END = re.compile(r"(?<=[.!?])(\s+)")
_FENCED = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)


def sentences_added(keeper: Observation, others: list[Observation]) -> str:
    """The keeper's text, then each sentence of the others' texts holding a content word
    the keeper's title, facts and text (and the sentences added) do not: nothing a
    member said is lost, and a sentence said again in the same words is not repeated.

    A fenced code block is one sentence, and a sentence added keeps the line or
    paragraph break it followed: lists and code stay as they were written."""
    from memcli.retrieval.likeness import content_words

    held = set(content_words("\n".join([keeper.title, *keeper.facts, keeper.narrative])))
    added: list[str] = []
    for other in others:
        apart = "\n"  # each member's sentences start on a line of their own
        for before, sentence in _sentences(other.narrative):
            words = set(content_words(sentence))
            if words - held:
                added.append(_break(apart + before) + sentence if added else sentence)
                held |= words
                apart = ""
    return "\n\n".join(part for part in [keeper.narrative.rstrip(), "".join(added)] if part)


def _sentences(text: str) -> list[tuple[str, str]]:
    """The sentences of a text (a fenced code block whole), each with the white space
    before it."""
    pieces: list[tuple[str, bool]] = []
    at = 0
    for block in _FENCED.finditer(text):
        pieces += [(text[at : block.start()], False), (block.group(), True)]
        at = block.end()
    pieces.append((text[at:], False))
    found: list[tuple[str, str]] = []
    space = ""
    for piece, fenced in pieces:
        parts = [piece] if fenced else _SENTENCE_END.split(piece)
        for n, part in enumerate(parts):
            if n % 2 or not part.strip():
                space += part
                continue
            stripped = part.strip()
            found.append((space + part[: len(part) - len(part.lstrip())], stripped))
            space = part[len(part.rstrip()) :]
    return found


def _break(space: str) -> str:
    """A paragraph break, a line break or a space, as the white space before a sentence had."""
    lines = space.count("\n")
    return "\n\n" if lines > 1 else "\n" if lines else " "


def _union(lists: Iterable[list[str]]) -> list[str]:
    return list(dict.fromkeys(item for items in lists for item in items))


def _union_guards(lists: Iterable[list[Guard]]) -> list[Guard]:
    """Every guard once a tool and glob, in first-seen order, with its strictest action."""
    from memcli.core.guards import ACTIONS

    kept: dict[tuple[str, str], Guard] = {}
    for guard in (guard for guards in lists for guard in guards):
        held = kept.get((guard.tool, guard.glob))
        if held is None or ACTIONS.index(guard.action) < ACTIONS.index(held.action):
            kept[(guard.tool, guard.glob)] = guard
    return list(kept.values())
