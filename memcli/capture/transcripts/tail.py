"""Reading only what was appended to a JSONL transcript since the last time.

A transcript grows by appends. What was read is remembered as a cursor: the
bytes of whole lines consumed, the file's identity (inode and device), where
the last consumed line starts and a digest of it. Next time, ``plan`` decides
from one ``stat`` (and, when the file grew, one short read of that last line):

- ``same``: nothing new (size, time and identity as they were): nothing is read;
- ``append``: the file grew and still holds the same last line: parse from the cursor;
- ``restart``: the file shrank, was replaced (another inode) or rewritten (the
  last line differs): parse it again from the start, its old messages replaced.

A last line without its newline is left for later (a writer may be in the
middle of it): the cursor stops before it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from memcli.capture.transcripts.records import MAX_LINE_BYTES, iter_lines
from memcli.core.regular import open_regular

Plan = Literal["same", "append", "restart"]


@dataclass
class Cursor:
    """Where reading a file stopped."""

    size: int = 0
    """The file's size when last looked at (a partial last line included)."""
    mtime_ns: int = 0
    inode: int = 0
    device: int = 0
    consumed: int = 0
    """Bytes of whole lines read: the next read starts here."""
    last_start: int = 0
    """Where the last consumed line starts."""
    last_digest: str | None = None
    """Digest of the last consumed line (None: nothing consumed yet)."""


def line_digest(line: bytes) -> str:
    return hashlib.blake2b(line, digest_size=12).hexdigest()


def plan(path: Path, cursor: Cursor | None, info: os.stat_result) -> Plan:
    """What to do with ``path`` (whose ``stat`` is ``info``) given where reading stopped."""
    if cursor is None or cursor.last_digest is None and cursor.consumed == 0:
        return "same" if cursor is not None and _unchanged(cursor, info) else "restart"
    if (info.st_ino, info.st_dev) != (cursor.inode, cursor.device):
        return "restart"
    if info.st_size < cursor.consumed:
        return "restart"
    if _unchanged(cursor, info):
        return "same"
    if cursor.last_digest is not None and _last_line_digest(path, cursor) != cursor.last_digest:
        return "restart"
    return "append"


def _unchanged(cursor: Cursor, info: os.stat_result) -> bool:
    return (info.st_size, info.st_mtime_ns, info.st_ino, info.st_dev) == (
        cursor.size,
        cursor.mtime_ns,
        cursor.inode,
        cursor.device,
    )


def _last_line_digest(path: Path, cursor: Cursor) -> str | None:
    length = cursor.consumed - cursor.last_start
    if length <= 0 or length > MAX_LINE_BYTES + 1:
        return None
    try:
        with open_regular(path) as handle:
            handle.seek(cursor.last_start)
            data = handle.read(length)
    except OSError:
        return None
    return line_digest(data.removesuffix(b"\n"))


def read_lines(handle: BinaryIO, cursor: Cursor) -> Iterator[bytes]:
    """The whole lines after ``cursor.consumed``, moving the cursor past each one yielded.

    ``handle`` is the open file; the cursor's identity and size are the caller's to set.
    """
    handle.seek(cursor.consumed)
    start = cursor.consumed
    for line, end in iter_lines(handle, partial=False):
        cursor.last_start, cursor.consumed = start, end
        cursor.last_digest = line_digest(line) if end - start <= MAX_LINE_BYTES + 1 else None
        start = end
        yield line
