"""git's transfer progress as one line on stderr, through GitPython's progress parser.

Imports GitPython: imported only inside the function that clones.
"""

from __future__ import annotations

import sys

from git import RemoteProgress

_STAGES = {
    RemoteProgress.COUNTING: "Counting objects",
    RemoteProgress.COMPRESSING: "Compressing objects",
    RemoteProgress.RECEIVING: "Receiving objects",
    RemoteProgress.RESOLVING: "Resolving deltas",
}


class CloneProgress(RemoteProgress):
    """Keeps git's other messages (``error_lines``, ``other_lines``); draws when ``shown``."""

    def __init__(self, *, shown: bool) -> None:
        super().__init__()
        self.shown = shown
        self.drawn = False

    def update(
        self,
        op_code: int,
        cur_count: str | float,
        max_count: str | float | None = None,
        message: str = "",
    ) -> None:
        stage = _STAGES.get(op_code & RemoteProgress.OP_MASK)
        if not self.shown or stage is None:
            return
        done = f"{float(cur_count):.0f}"
        if max_count:
            percent = 100 * float(cur_count) / float(max_count)
            done = f"{percent:3.0f}% ({done}/{float(max_count):.0f})"
        sys.stderr.write(f"\r{stage}: {done}\x1b[K")
        sys.stderr.flush()
        self.drawn = True

    def end_line(self) -> None:
        """End the drawn line, if any, so that what follows starts on its own."""
        if self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
