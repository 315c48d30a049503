"""A file written atomically: a temporary file in the same folder, fsync, rename (or a hard
link, which never replaces). Imported by the first write of a command (``Store.write_file``).
"""

from __future__ import annotations

import os
from pathlib import Path

from memcli.core.crashpoints import crash_point
from memcli.core.errors import StoreError


def write_atomically(full: Path, path: str, content: bytes, *, sync: bool, exclusive: bool) -> None:
    """``content`` at ``full`` (``path`` as the store names it, for the message), whole or not
    at all; ``exclusive``: only where nothing is, else a ``StoreError`` and nothing written."""
    full.parent.mkdir(parents=True, exist_ok=True)
    temp = full.parent / f".{full.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        crash_point("temp-written")
        if not exclusive:
            os.replace(temp, full)
            return
        try:
            os.link(temp, full)
        except FileExistsError:
            raise StoreError(
                f"{path} appeared in the store meanwhile; nothing was written, and it "
                "was left as it is"
            ) from None
        temp.unlink()
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
