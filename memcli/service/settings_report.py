"""What ``mem status`` and ``mem doctor`` say of the settings: what was not taken, and why.

A bad value or an unreadable file (its default used), a setting a store's
``mem.toml`` may not hold (``memcli.core.trust``: it belongs in the user's own
``config.toml``), a team folder's ``mem.toml`` (never read), a ``.mem/`` folder that
is not a store (passed over): one line each, each said once for all the layers.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class SettingsReport(NamedTuple):
    problems: list[str]
    """Settings that could not be taken: wrong, and the default is used."""
    ignored: list[str]
    """Settings and folders passed over on purpose, and where they belong."""


def settings_report(roots: list[Path], cwd: Path) -> SettingsReport:
    """The lines for the stores at ``roots`` (none: the user's config alone), found from ``cwd``."""
    from memcli.core import config
    from memcli.store.location import passed_over, passed_over_line

    problems: list[str] = []
    ignored = [passed_over_line(folder) for folder in passed_over(cwd)]
    read: list[Path | None] = [*roots] or [None]
    for root in read:
        found = config.read(root)
        problems += found.problems
        ignored += found.ignored
    return SettingsReport(list(dict.fromkeys(problems)), list(dict.fromkeys(ignored)))
