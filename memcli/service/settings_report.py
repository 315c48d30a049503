"""What ``mem status`` and ``mem doctor`` say of the settings: what was not taken, and why.

A bad value, an unknown setting or an unreadable file (its default used): one
line each, each said once for all the layers.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class SettingsReport(NamedTuple):
    problems: list[str]
    """Settings that could not be taken: wrong, and the default is used."""


def settings_report(roots: list[Path]) -> SettingsReport:
    """The lines for the stores at ``roots``."""
    from memcli.core import config

    problems: list[str] = []
    for root in roots:
        problems += config.read(root).problems
    return SettingsReport(list(dict.fromkeys(problems)))
