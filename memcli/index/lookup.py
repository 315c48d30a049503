"""One memory by reference (id, key, unique id prefix), exact duplicates, supersedes links,
and what the index keeps of every memory (ids and keys, digests, texts, commits, counts).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from memcli.core.errors import Ambiguous, InvalidInput, NotFound
from memcli.core.ids import ID_PREFIX_RE, is_ulid
from memcli.core.schema import KEY_RE
from memcli.index.entries import Entry, IndexReads
from memcli.index.errors import translating_errors
from memcli.index.schema import (
    ALL_BY_KEY,
    ALL_DIGESTS,
    ANY_SUPERSEDED,
    BY_EXACT,
    BY_ID,
    BY_KEY,
    BY_PREFIX,
    COMMITS,
    COUNT,
    COUNT_CURRENT,
    IDS_AND_KEYS,
    OBSERVATION_TEXTS,
    PATH_BY_ID,
    REPLACED_BY,
    REPLACING,
    TEXTS,
)

MIN_PREFIX_CHARS = 4


class LookupQueries(IndexReads):
    """A memory found by what names it, and what the index holds of each memory."""

    @translating_errors
    def resolve(self, ref: str) -> Entry:
        """A memory by full id, key, or unique id prefix (like git's abbreviated hashes)."""
        ref = ref.strip()
        if not KEY_RE.fullmatch(ref):
            raise InvalidInput(f"{ref!r} is not a memory id or key")
        upper = ref.upper()
        if is_ulid(upper):
            found = self._entries(BY_ID, (upper,))
            if found:
                return found[0]
        by_key = self._entries(BY_KEY, (ref,))
        if by_key:
            return by_key[0]
        if not ID_PREFIX_RE.fullmatch(ref):
            raise NotFound(f"no memory has the key {ref!r}")
        if len(ref) < MIN_PREFIX_CHARS:
            raise NotFound(
                f"no memory has the key {ref!r}, and an id prefix needs at least "
                f"{MIN_PREFIX_CHARS} characters"
            )
        matches = self._entries(BY_PREFIX, {"low": upper, "high": upper + "\x7f"})
        if not matches:
            raise NotFound(f"no memory has the id or key {ref!r}")
        if len(matches) > 1:
            shown = ", ".join(f"{e.id[:12]} ({e.title[:40]})" for e in matches[:5])
            raise Ambiguous(
                f"id prefix {ref!r} matches several memories: {shown}; give more characters"
            )
        return matches[0]

    @translating_errors
    def path_of(self, identity: str) -> str | None:
        for (path,) in self.db.execute(PATH_BY_ID, (identity,)):
            return str(path)
        return None

    @translating_errors
    def by_key(self, key: str) -> Entry | None:
        found = self._entries(BY_KEY, (key,))
        return found[0] if found else None

    @translating_errors
    def with_key(self, key: str) -> list[Entry]:
        """Every memory holding ``key`` (one, unless files were committed past mem's checks)."""
        return self._entries(ALL_BY_KEY, (key,))

    @translating_errors
    def exact_duplicate(self, exact: str) -> Entry | None:
        """The oldest current observation with this exact-duplicate key (``text.exact_key``)."""
        found = self._entries(BY_EXACT, {"exact": exact, "superseded": 0})
        return found[0] if found else None

    def observation_texts(self) -> Iterator[tuple[str, str, str, str, str]]:
        """Every current observation's id, type, title, facts (JSON) and narrative."""
        yield from self.db.execute(OBSERVATION_TEXTS, {"superseded": 0})

    @translating_errors
    def replaced_by(self, identity: str) -> list[str]:
        """The ids the memory ``identity`` supersedes."""
        return [str(value) for (value,) in self.db.execute(REPLACED_BY, (identity,))]

    @translating_errors
    def replacing(self, identity: str) -> list[str]:
        """The ids of the memories that supersede ``identity``, oldest first."""
        return [str(value) for (value,) in self.db.execute(REPLACING, (identity,))]

    @translating_errors
    def short_id_chars(self) -> int:
        """How many characters of an id this store shows (see ``short_ids``)."""
        from memcli.index.short_ids import stored_length

        return stored_length(self.db)

    def short_ids(self, ids: list[str]) -> dict[str, str]:
        """Each id's prefix at the store's one length, unique among all its ids."""
        length = self.short_id_chars()
        return {identity: identity[:length] for identity in ids}

    @translating_errors
    def ids_and_keys(self) -> dict[str, str | None]:
        """Every memory's id and its key (None when it has none)."""
        return dict(self.db.execute(IDS_AND_KEYS))

    @translating_errors
    def digests(self) -> dict[str, str]:
        return {path: digest for path, digest in self.db.execute(ALL_DIGESTS)}

    @translating_errors
    def commits(self, ids: list[str]) -> dict[str, str]:
        """The project commit each of these memories was written at, where it has one."""
        return dict(self.db.execute(COMMITS, (json.dumps(ids),)))

    @translating_errors
    def texts(self, ids: list[str]) -> dict[str, str]:
        """The markdown text of each memory, from the index (no file is read)."""
        return dict(self.db.execute(TEXTS, (json.dumps(ids),)))

    @translating_errors
    def count(self) -> int:
        return int(next(iter(self.db.execute(COUNT)))[0])

    @translating_errors
    def current_count(self) -> int:
        """How many memories no other supersedes (every one, in most stores: one count)."""
        if next(iter(self.db.execute(ANY_SUPERSEDED)), None) is None:
            return self.count()
        return int(next(iter(self.db.execute(COUNT_CURRENT)))[0])
