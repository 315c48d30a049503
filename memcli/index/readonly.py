"""Reading an index file without leaving a trace (``mem status``, hooks' quick checks)."""

from __future__ import annotations

from pathlib import Path

import apsw


def open_read_only(path: Path) -> apsw.Connection:
    """A connection that reads a WAL database and leaves no file behind.

    Even a read-only connection to a WAL database creates its ``-wal`` and ``-shm``
    files, and leaves them there. With no ``-wal`` file there, no connection is open
    (the first one creates it) and none crashed mid-write: the file is then opened
    immutable, which creates nothing. Otherwise the files exist already and are used.
    """
    import urllib.parse

    quoted = urllib.parse.quote(str(Path(path).absolute()))
    idle = not Path(f"{path}-wal").exists()
    uri = f"file:{quoted}?mode=ro" + ("&immutable=1" if idle else "")
    return apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
