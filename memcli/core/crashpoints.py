"""Named points where the crash tests kill mem, the way ``kill -9`` would.

``MEM_CRASH_AT=<point>`` makes the process SIGKILL itself on reaching that
point: no cleanup, no ``finally``, no flushing. It exists for the test suite,
which proves that a store survives a crash at each point; nobody else sets it.
"""

from __future__ import annotations

import os
import signal


def crash_point(name: str) -> None:
    if os.environ.get("MEM_CRASH_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)
