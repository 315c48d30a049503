"""Notices a process gives once however often it meets their cause: a setting not taken,
a folder ignored. One line each on stderr, ``mem: `` first, as every notice of mem.

Settings are read many times in one command (each ranking, each layer); saying the
same thing each time would bury what the command printed. ``forget`` starts over: a
new command in the same process (the tests' in-process runner) says them again.
"""

from __future__ import annotations

import sys

_given: set[str] = set()


def once(line: str) -> None:
    """``line`` on stderr, unless this process said it already."""
    if line in _given:
        return
    _given.add(line)
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(f"mem: {line}\n")
        stream.flush()
    except (OSError, ValueError):
        pass  # nobody is left to read it


def forget() -> None:
    _given.clear()
