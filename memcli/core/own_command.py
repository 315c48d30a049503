"""How mem starts itself (its git hooks, a detached reindex, capture or worker).

``python -m`` puts the working directory first on ``sys.path``, and mem starts
itself in a store's work tree, whose files come with git (``mem sync``, a clone, a
submodule): a ``click.py`` or a ``memcli/`` committed there would be imported in
mem's place. ``-P`` (Python 3.11) leaves the working directory out.
"""

from __future__ import annotations

import sys


def own_command() -> list[str]:
    """The command line that runs this mem: ``python -P -m memcli``."""
    return [sys.executable, "-P", "-m", "memcli"]
