"""Reading and parsing every memory file for a full rebuild, in worker processes on large stores.

The index reads the store only through ``IndexSource``. A rebuild receives the
files as batches of row parts in path order; the inserting process assigns the
rowids (see ``Refreshing._rebuild``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from memcli.core.errors import InvalidInput, InvalidMemoryFile, StoreError
from memcli.index.schema import memory_rows

if TYPE_CHECKING:
    from memcli.core.model import Record


class IndexSource(Protocol):
    """What the index reads: the store, seen through a narrow window."""

    def head(self) -> str | None: ...
    def memory_paths(self) -> Iterator[str]: ...
    def load(self, path: str) -> tuple[Record, str]: ...
    def changes(self, old: str, new: str, *, notes: bool = False) -> list[Any]: ...
    def note_paths(self) -> Iterator[str]: ...
    def read_note(self, path: str) -> bytes: ...


Warn = Callable[[str], None]
Progress = Callable[[int, int], None]
"""Told ``(files done, files in all)`` during a rebuild."""
Loaded = tuple["Record", str]

LOAD_BATCH = 512
WORKER_THRESHOLD = 2000
"""From this many files on, worker processes read and parse while this one inserts."""
WORKERS = 2
Parts = tuple[tuple[Any, ...], list[tuple[str, str]], tuple[Any, ...]]
LoadedRow = tuple[str, str, "Parts | None", str]  # path, id, row parts, problem


def printable(path: str) -> str:
    """A path as it can be shown: bytes of a name that are not UTF-8 become ``\\xNN``."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _row_parts(path: str, record: Record, digest: str) -> Parts:
    """``memory_rows`` without the rowid, which only the inserting process can assign."""
    memory, tags, text = memory_rows(0, path, record, digest)
    return memory[1:], [(kind, value) for _, kind, value in tags], text[1:]


def _load_into(source: IndexSource, chunks: list[list[str]], send: Callable[[Any], None]) -> None:
    """Read and parse each chunk of paths, sending one batch of row parts per chunk."""
    for chunk in chunks:
        batch: list[LoadedRow] = []
        for path in chunk:
            try:
                record, digest = source.load(path)
                batch.append((path, record.id, _row_parts(path, record, digest), ""))
            except (InvalidMemoryFile, InvalidInput) as exc:
                batch.append((path, "", None, str(exc)))
        send(batch)


def _worker(
    source: IndexSource, chunks: list[list[str]], connection: Any, inherited: list[Any]
) -> None:
    """Send the parsed chunks to the parent; die with it.

    ``inherited``: the read ends of the pipes, which a forked worker holds
    copies of. They are closed first: while a worker holds a read end, its
    writes never fail, and a worker whose parent was killed would wait forever.
    """
    for receiver in inherited:
        receiver.close()
    try:
        _load_into(source, chunks, connection.send)
    except OSError:
        pass  # the parent is gone (broken pipe): nobody is waiting for the rest
    except BaseException as exc:  # reported to the parent, which raises it there
        with contextlib.suppress(OSError):
            connection.send(f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()


def loaded_batches(
    source: IndexSource, warn: Warn, skipped: list[str], progress: Progress | None = None
) -> Iterator[list[LoadedRow]]:
    """Every memory file as row parts, in path order; unreadable ones warned about.

    The paths of files that could not be read go to ``skipped``. On a large
    store worker processes read and parse the files while this one inserts
    (threads would not help: parsing holds the GIL between SQLite's steps).
    Worker k takes every k-th chunk and they are received in turn, so the
    order stays the paths' order. A pipe blocks when full: memory stays flat.
    """
    paths = list(source.memory_paths())
    chunks = [paths[i : i + LOAD_BATCH] for i in range(0, len(paths), LOAD_BATCH)]
    workers: list[Any] = []
    if len(paths) < WORKER_THRESHOLD:
        collected: list[Any] = []
        _load_into(source, chunks, collected.append)
        batches: Iterator[Any] = iter(collected)
    else:
        import multiprocessing

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context: Any = multiprocessing.get_context(method)
        count = max(1, min(WORKERS, os.cpu_count() or 1))
        receivers = []
        for k in range(count):
            receiver, sender = context.Pipe(duplex=False)
            receivers.append(receiver)
            worker = context.Process(
                target=_worker,
                args=(source, chunks[k::count], sender, list(receivers)),
                daemon=True,
            )
            worker.start()
            sender.close()
            workers.append(worker)
        batches = _received(receivers, len(chunks))
    done = 0
    try:
        for batch in batches:
            if isinstance(batch, str):
                raise StoreError(f"reading the memory files failed: {batch}")
            done += len(batch)
            if progress is not None:
                progress(done, len(paths))
            for path, _, parts, problem in batch:
                if parts is None:
                    warn(f"skipped {problem}")
                    skipped.append(printable(path))
            yield [item for item in batch if item[2] is not None]
    finally:
        for worker in workers:
            worker.join(timeout=5)
            if worker.is_alive():
                worker.kill()


def _received(receivers: list[Any], count: int) -> Iterator[Any]:
    """``count`` batches, taken from the workers in turn."""
    try:
        for n in range(count):
            yield receivers[n % len(receivers)].recv()
    except EOFError:
        raise StoreError("a process reading memory files died") from None
    finally:
        for receiver in receivers:
            receiver.close()
