"""The ids a store's work-tree ``purged.txt`` lists, read again only when the file changes.

Every memory file read is checked against it, so the list is kept between reads and
the file is only ``lstat``-ed while its inode, time and size stay the same.
"""

from __future__ import annotations

import os
from pathlib import Path

from memcli.core.ids import ULID_RE

MAX_PURGED_LIST_BYTES = 1 << 24
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


class PurgedList:
    """The purged ids of one ``purged.txt`` (none when it is missing or unreadable)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._read: tuple[tuple[int, int, int], frozenset[str]] | None = None

    def ids(self) -> frozenset[str]:
        try:
            status = self.path.lstat()
        except OSError:
            return frozenset()
        stamp = (status.st_ino, status.st_mtime_ns, status.st_size)
        if self._read is None or self._read[0] != stamp:
            try:
                fd = os.open(self.path, os.O_RDONLY | _NO_FOLLOW)
                with os.fdopen(fd, "rb") as handle:
                    text = handle.read(MAX_PURGED_LIST_BYTES).decode("ascii", "replace")
            except OSError:
                text = ""
            self._read = (stamp, frozenset(ULID_RE.findall(text)))
        return self._read[1]
