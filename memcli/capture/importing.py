"""What an importer yields for each source row (the framework's contract)."""

from __future__ import annotations

from dataclasses import dataclass

from memcli.core.model import Observation, Summary


@dataclass
class Incoming:
    source_id: str
    label: str
    record: Observation | Summary | None = None
    problem: str | None = None
    skip: str | None = None
