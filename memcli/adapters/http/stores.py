"""The served store's ``MemStore`` objects: several readers and one writer.

A ``MemStore`` serializes its calls with one lock, so a single shared store would
make every search wait for a commit. Here each call borrows a store of its own:
up to ``readers`` searches run at once in worker threads (SQLite's WAL lets them
read while a commit writes), and writes go one at a time through a store of their
own. A write waiting its turn holds no thread: it waits on the event loop, so 50
saves at once never starve the readers. Every write also takes the store's file
lock, which orders it with other mem processes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import anyio
import anyio.to_thread

if TYPE_CHECKING:
    from memcli.api import MemStore

R = TypeVar("R")
MAX_READERS = 64


class StorePool:
    """Borrowed ``MemStore`` objects of one store, for worker threads (see the module doc)."""

    def __init__(self, root: Path, readers: int, notify: Callable[[str], None]) -> None:
        self.root = root
        self.readers = readers
        self.notify = notify
        self._idle: list[MemStore] = []
        self._opened: list[MemStore] = []
        self._lock = threading.Lock()
        self._writer: MemStore | None = None
        self._read_limit: anyio.CapacityLimiter | None = None
        self._write_limit: anyio.CapacityLimiter | None = None

    def adopt(self, store: MemStore) -> None:
        """A store opened already (and warmed: its index up to date) becomes a reader."""
        with self._lock:
            self._opened.append(store)
            self._idle.append(store)

    async def read(self, call: Callable[[MemStore], R]) -> R:
        """``call`` with a reader of its own, in a worker thread."""
        if self._read_limit is None:
            self._read_limit = anyio.CapacityLimiter(self.readers)
        return await anyio.to_thread.run_sync(self._read, call, limiter=self._read_limit)

    async def run(self, call: Callable[[], R]) -> R:
        """``call`` in a worker thread, among the readers (it opens what it reads itself)."""
        if self._read_limit is None:
            self._read_limit = anyio.CapacityLimiter(self.readers)
        return await anyio.to_thread.run_sync(call, limiter=self._read_limit)

    async def write(self, call: Callable[[MemStore], R]) -> R:
        """``call`` with the writer, after the writes before it, in a worker thread.

        A client that goes away does not cancel a write under way: the thread
        finishes it (a commit is never left half done).
        """
        if self._write_limit is None:
            self._write_limit = anyio.CapacityLimiter(1)
        return await anyio.to_thread.run_sync(self._write, call, limiter=self._write_limit)

    def _read(self, call: Callable[[MemStore], R]) -> R:
        with self._lock:
            store = self._idle.pop() if self._idle else None
        if store is None:
            store = self._open()
        try:
            return call(store)
        finally:
            with self._lock:
                self._idle.append(store)

    def _write(self, call: Callable[[MemStore], R]) -> R:
        if self._writer is None:
            self._writer = self._open()
        return call(self._writer)

    def _open(self) -> MemStore:
        from memcli.api import open_store

        store = open_store(self.root, notify=self.notify)
        with self._lock:
            self._opened.append(store)
        return store

    def close(self) -> None:
        """Close every store opened (their index connections)."""
        with self._lock:
            opened, self._opened, self._idle = self._opened, [], []
        self._writer = None
        for store in opened:
            store.close()
