"""mem as the memory backend of a chat host: one store per group folder.

The contract is the memory-provider protocol of chat hosts such as pynchy
(``pynchy.memory.MemoryProvider``): an object with a ``name`` and the
coroutines ``init()``, ``save(group_folder, key, content, category, metadata)``,
``recall(group_folder, query, category, limit)``, ``forget(group_folder, key)``,
``list_keys(group_folder, category)`` and ``close()``. The host awaits each on
its event loop, so every call runs mem's blocking work (git, SQLite) in a worker
thread; calls for several folders, or several for one folder, may run at once.

How the host's words map onto mem's:

* ``group_folder`` names the store: ``<root>/<group_folder>``, where the root is
  the constructor's, else ``$MEM_HOME`` (then ``mem --project <group_folder>``
  reads the same store). It is checked like a project name (letters, digits,
  ``.``, ``_``, ``-``; never a path), so one folder cannot reach another's store.
* ``key`` is the memory's key: saving an existing key updates that memory.
* ``category`` is the memory's type, one of the seven (the error lists them);
  the host's default ``"core"`` (and None) means no particular type: a new memory
  is mem's default type, an update keeps its type, a filter filters nothing.
* ``metadata``: ``title``, ``facts``, ``concepts``, ``files``, ``importance`` and
  ``session`` become those fields. The rest is kept in the text, as a fenced
  ``mem-metadata`` JSON block at its end, where the secret screening sees it
  like any text (extra frontmatter would escape it); ``recall`` splits it off
  again and returns the whole dict.

Bad input raises ``memcli.InvalidInput`` (a ``MemError``) with a one-line message.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.core.errors import Ambiguous, InvalidInput, NotFound, StoreError

if TYPE_CHECKING:
    from memcli.api import MemStore

HOST_DEFAULT_CATEGORY = "core"
METADATA_FENCE = "```mem-metadata"
MAX_METADATA_CHARS = 64_000
LIST_KEYS_LIMIT = 10_000
"""``list_keys`` answers at most this many keys, newest first."""
FIELDS = ("title", "facts", "concepts", "files", "importance", "session")
"""Metadata names that are memory fields."""


class MemoryPlugin:
    """A chat host's memory provider backed by mem stores, one per group folder."""

    name = "mem"

    def __init__(
        self, root: str | Path | None = None, *, notify: Callable[[str], None] | None = None
    ) -> None:
        self._root = Path(root) if root is not None else None
        self._notify = notify
        self._stores: dict[str, MemStore] = {}
        self._opening = threading.Lock()
        self._ready = False

    @property
    def root(self) -> Path:
        from memcli.store.location import mem_home

        return (self._root or mem_home()).expanduser().absolute()

    async def init(self) -> None:
        """Ready the root folder (stores are created on a folder's first save)."""
        await asyncio.to_thread(self.root.mkdir, parents=True, exist_ok=True)
        self._ready = True

    async def close(self) -> None:
        """Close every store's index connection; the plugin needs ``init()`` again after."""
        with self._opening:
            stores, self._stores = list(self._stores.values()), {}
            self._ready = False
        for store in stores:
            await asyncio.to_thread(store.close)

    async def save(
        self,
        group_folder: str,
        key: str,
        content: str,
        category: str | None = HOST_DEFAULT_CATEGORY,
        metadata: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Save ``content`` under ``key`` in the folder's store (an existing key is updated).

        Returns ``key``, ``status`` (created, updated or unchanged), ``id`` and
        ``commit`` (None when unchanged).
        """
        folder = self._folder(group_folder)
        name = _key(key)
        if not isinstance(content, str):
            raise InvalidInput(f"content must be a string, not {type(content).__name__}")
        fields, extra = _split_metadata(metadata)
        kind = _category(category)

        def work() -> dict[str, Any]:
            saved = self._store(folder, create=True)
            assert saved is not None
            return saved.save(_with_metadata(content, extra), type=kind, key=name, **fields)

        result = await asyncio.to_thread(work)
        status = {"saved": "created"}.get(result["action"], result["action"])
        return {"key": name, "status": status, "id": result["id"], "commit": result["commit"]}

    async def recall(
        self,
        group_folder: str,
        query: str,
        category: str | None = None,
        limit: int = 5,
    ) -> list[dict[str, Any]]:
        """The folder's memories best matching ``query``, best first ([] for a blank query).

        Each: ``key``, ``content``, ``category``, ``metadata``, ``updated_at``,
        ``score``, ``id``, ``title``.
        """
        folder = self._folder(group_folder)
        kind = _category(category)
        if not isinstance(query, str):
            raise InvalidInput(f"query must be a string, not {type(query).__name__}")
        if not query.strip():
            return []

        def work() -> list[dict[str, Any]]:
            store = self._store(folder)
            if store is None:
                return []
            hits = store.search(query, type=kind, limit=limit)
            if not hits:
                return []
            scores = {hit["id"]: hit["score"] for hit in hits}
            return [
                _recalled(record, scores[record["id"]])
                for record in store.get([hit["id"] for hit in hits])
            ]

        return await asyncio.to_thread(work)

    async def forget(self, group_folder: str, key: str) -> dict[str, Any]:
        """Forget the memory with ``key`` (one commit); ``removed`` says whether there was one."""
        folder = self._folder(group_folder)
        name = _key(key)

        def work() -> dict[str, Any]:
            store = self._store(folder)
            if store is None:
                return {"key": name, "removed": False}
            try:
                found = store.get(name)[0]
                if found.get("key") != name:  # an id prefix, not this key
                    raise NotFound(name)
                forgotten = store.forget(found["id"])
            except (NotFound, Ambiguous):  # no such key (an id prefix is not one)
                return {"key": name, "removed": False}
            return {"key": name, "removed": True, "commit": forgotten[0]["commit"]}

        return await asyncio.to_thread(work)

    async def list_keys(
        self, group_folder: str, category: str | None = None
    ) -> list[dict[str, Any]]:
        """The folder's keyed memories, newest first: ``key``, ``category``, ``updated_at``."""
        folder = self._folder(group_folder)
        kind = _category(category)

        def work() -> list[dict[str, Any]]:
            store = self._store(folder)
            if store is None:
                return []
            return [
                {
                    "key": entry["key"],
                    "category": entry["type"],
                    "updated_at": entry["updated"] or entry["created"],
                    "id": entry["id"],
                    "title": entry["title"],
                }
                for entry in store.list(type=kind, limit=LIST_KEYS_LIMIT, keys=True)
            ]

        return await asyncio.to_thread(work)

    # --------------------------------------------------------------- stores

    def _folder(self, group_folder: object) -> str:
        from memcli.store.location import check_project_name

        if not self._ready:
            raise StoreError("the mem memory plugin is not initialised: await init() first")
        if not isinstance(group_folder, str):
            raise InvalidInput(f"group folder must be a string, not {type(group_folder).__name__}")
        try:
            return check_project_name(group_folder)
        except InvalidInput:
            raise InvalidInput(
                f"invalid group folder {group_folder!r}: use letters, digits, '.', '_' or '-' "
                "(a name, not a path)"
            ) from None

    def _store(self, folder: str, *, create: bool = False) -> MemStore | None:
        """The folder's store, opened once; None when it has none yet and ``create`` is off."""
        from memcli.api import open_store

        with self._opening:
            if not self._ready:
                raise StoreError("the mem memory plugin is closed: await init() first")
            store = self._stores.get(folder)
            if store is None:
                path = self.root / folder
                if not create and not path.is_dir():
                    return None
                store = open_store(path, create=create, notify=self._notify)
                self._stores[folder] = store
            return store


# ----------------------------------------------------------------- mapping


def _key(value: object) -> str:
    from memcli.core.validate import check_key

    if not isinstance(value, str) or not value:
        raise InvalidInput("a key is required: 1-100 letters, digits, '.', '_' or '-'")
    return check_key(value)


def _category(value: object) -> str | None:
    from memcli.core.validate import check_type

    if value is None or value == HOST_DEFAULT_CATEGORY:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"category must be a string, not {type(value).__name__}")
    try:
        return check_type(value)
    except InvalidInput as exc:
        raise InvalidInput(f"category: {exc}") from None


def _split_metadata(metadata: object) -> tuple[dict[str, Any], dict[str, Any]]:
    """The memory fields the metadata gives, and the rest."""
    if metadata is None:
        return {}, {}
    if not isinstance(metadata, dict) or not all(isinstance(k, str) for k in metadata):
        raise InvalidInput("metadata must be an object with string keys")
    fields = {name: metadata[name] for name in FIELDS if metadata.get(name) is not None}
    extra = {k: v for k, v in metadata.items() if k not in FIELDS}
    return fields, extra


def _with_metadata(content: str, extra: dict[str, Any]) -> str:
    """The text to store: the content, then the extra metadata as a JSON block.

    ``<private>`` spans go first, from each part on its own (an unclosed one
    would otherwise swallow the block); content that could be read as holding
    such a block gets one, empty, so that recall never takes its text for one.
    """
    from memcli.core.validate import strip_private, strip_private_deep

    content = strip_private(content)
    if not extra and f"\n{METADATA_FENCE}\n" not in f"\n{content}":
        return content
    try:
        block = json.dumps(
            strip_private_deep(extra), ensure_ascii=False, sort_keys=True, allow_nan=False
        )
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"metadata must be plain JSON values: {exc}") from None
    if len(block) > MAX_METADATA_CHARS:
        raise InvalidInput(f"metadata is too large: at most {MAX_METADATA_CHARS:,} characters")
    return f"{content.rstrip()}\n\n{METADATA_FENCE}\n{block}\n```"


def _parts(narrative: str) -> tuple[str, dict[str, Any]]:
    """The content and the extra metadata of a narrative ``_with_metadata`` wrote."""
    head, fence, tail = f"\n{narrative}".rpartition(f"\n{METADATA_FENCE}\n")
    if not fence or not tail.rstrip().endswith("```"):
        return narrative, {}
    try:
        extra = json.loads(tail.rstrip()[:-3])
    except ValueError:
        return narrative, {}
    if not isinstance(extra, dict):
        return narrative, {}
    return head[1:].rstrip("\n"), extra


def _recalled(record: dict[str, Any], score: float | None) -> dict[str, Any]:
    content, extra = _parts(record["narrative"])
    fields = {
        "facts": record["facts"],
        "concepts": record["concepts"],
        "files": record["files"],
        "importance": record["importance"],
        "session": record["session"],
    }
    metadata = {**extra, **{k: v for k, v in fields.items() if v not in (None, [])}}
    return {
        "key": record["key"],
        "content": content,
        "category": record["type"],
        "metadata": metadata,
        "updated_at": record["updated"] or record["created"],
        "score": score,
        "id": record["id"],
        "title": record["title"],
    }
