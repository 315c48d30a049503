"""A draft: what a person or an agent asked ``mem save`` to store, before it is a memory."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from memcli.core.errors import InvalidInput
from memcli.core.guards import DEFAULT_ACTION, Guard, parse_spec
from memcli.core.model import Observation
from memcli.core.schema import DEFAULT_TYPE
from memcli.core.titles import default_title
from memcli.core.validate import (
    check_agent,
    check_commit,
    check_file_ref,
    check_importance,
    check_key,
    check_type,
    clean_list,
    clean_narrative,
    clean_session,
    clean_title,
    strip_private,
    strip_private_deep,
)

DRAFT_FIELDS = (
    "text",
    "type",
    "title",
    "facts",
    "concepts",
    "files",
    "key",
    "importance",
    "session",
    "agent",
    "project_commit",
    "supersedes",
    "guards",
)
JSON_FIELDS = (*DRAFT_FIELDS, "guard_action")
"""What an agent's JSON object may hold: a draft's fields, and the action of its guards."""


@dataclass
class Draft:
    """What a person or an agent asked ``mem save`` to store; None means not given."""

    text: str = ""
    type: str | None = None
    title: str | None = None
    facts: list[str] | None = None
    concepts: list[str] | None = None
    files: list[str] | None = None
    key: str | None = None
    importance: float | None = None
    session: str | None = None
    agent: str | None = None
    project_commit: str | None = None
    supersedes: list[str] | None = None
    """Ids, id prefixes or keys of the memories this one replaces (resolved when saved)."""
    guards: list[Guard] | None = None
    """The tool calls the memory watches (``parse_guards`` reads them as given)."""

    @classmethod
    def from_json(cls, payload: Any) -> Draft:
        """An agent's JSON object; ``narrative`` is accepted as a synonym of ``text``."""
        if not isinstance(payload, dict):
            raise InvalidInput("the JSON payload on stdin must be one JSON object")
        data = dict(payload)
        if "narrative" in data:
            if "text" in data:
                raise InvalidInput(
                    "give either 'text' or 'narrative' in the JSON payload, not both"
                )
            data["text"] = data.pop("narrative")
        unknown = sorted(set(data) - set(JSON_FIELDS))
        if unknown:
            raise InvalidInput(
                f"unknown field{'s' * (len(unknown) > 1)} in the JSON payload: "
                f"{', '.join(unknown)} (allowed: {', '.join(JSON_FIELDS)}, narrative)"
            )
        data["guards"] = parse_guards(data.get("guards"), data.pop("guard_action", None))
        for name in ("text", "type", "title", "key", "session", "agent", "project_commit"):
            if data.get(name) is not None and not isinstance(data[name], str):
                raise InvalidInput(f"'{name}' in the JSON payload must be a string")
        for name in ("facts", "concepts", "files", "supersedes"):
            value = data.get(name)
            if isinstance(value, str):
                data[name] = [value]
            elif value is not None and not (
                isinstance(value, list) and all(isinstance(v, str) for v in value)
            ):
                raise InvalidInput(f"'{name}' in the JSON payload must be a list of strings")
        if data.get("text") is None:
            data["text"] = ""
        if "importance" in data:
            data["importance"] = check_importance(data["importance"])
        return cls(**data)

    def merged(self, other: Draft) -> Draft:
        """This draft with every field ``other`` gives taken from ``other``."""
        changes = {
            name: getattr(other, name)
            for name in DRAFT_FIELDS
            if getattr(other, name) not in (None, "", [])
        }
        return dataclasses.replace(self, **changes)

    def new_observation(self, identity: str, created: str) -> Observation:
        narrative = clean_narrative(strip_private(self.text))
        if not narrative:
            raise InvalidInput("nothing to save: give the memory's text as an argument or on stdin")
        lists = self._lists()
        return Observation(
            id=identity,
            type=check_type(self.type or DEFAULT_TYPE),
            title=clean_title(strip_private(self.title or "") or default_title(narrative)),
            created=created,
            narrative=narrative,
            key=check_key(self.key) if self.key else None,
            concepts=lists["concepts"],
            files=lists["files"],
            facts=lists["facts"],
            importance=check_importance(self.importance),
            session=clean_session(strip_private_deep(self.session)),
            agent=check_agent(self.agent),
            project_commit=check_commit(self.project_commit),
            guards=list(self.guards or []),
        )

    def update(self, old: Observation, updated: str) -> Observation:
        """The memory ``old`` with what this draft gives; the rest is kept."""
        narrative = clean_narrative(strip_private(self.text))
        lists = self._lists()
        new = old.replace(
            type=check_type(self.type) if self.type else old.type,
            title=clean_title(strip_private(self.title)) if self.title else old.title,
            narrative=narrative or old.narrative,
            facts=lists["facts"] if self.facts else old.facts,
            concepts=lists["concepts"] if self.concepts else old.concepts,
            files=lists["files"] if self.files else old.files,
            importance=(
                check_importance(self.importance) if self.importance is not None else old.importance
            ),
            session=clean_session(strip_private_deep(self.session)) or old.session,
            guards=list(self.guards) if self.guards else old.guards,
        )
        if new == old:
            return old  # the same memory: where it was saved from again changes nothing
        return new.replace(
            updated=updated,
            agent=check_agent(self.agent) or old.agent,
            project_commit=check_commit(self.project_commit) or old.project_commit,
        )

    def _lists(self) -> dict[str, list[str]]:
        return {
            "facts": clean_list([strip_private(f) for f in self.facts or []], "facts"),
            "concepts": clean_list(strip_private_deep(self.concepts), "concepts"),
            "files": [
                check_file_ref(f) for f in clean_list(strip_private_deep(self.files), "files")
            ],
        }


def parse_guards(specs: object, action: object = None) -> list[Guard] | None:
    """Guards as ``mem save``, MCP and HTTP take them: ``TOOL:GLOB`` strings, all with
    ``action`` (deny, ask or warn; default ask). None when none are given.

    ``InvalidInput`` says in one line what is wrong, before anything is written.
    """
    if action is not None and not isinstance(action, str):
        raise InvalidInput("the guard action must be deny, ask or warn")
    if specs is None or specs == []:
        if action is not None:
            raise InvalidInput("a guard action needs a guard: give TOOL:GLOB too")
        return None
    if isinstance(specs, str):
        specs = [specs]
    if not isinstance(specs, list | tuple) or not all(isinstance(s, str) for s in specs):
        raise InvalidInput("guards must be a list of 'TOOL:GLOB' strings")
    return list(dict.fromkeys(parse_spec(spec, action or DEFAULT_ACTION) for spec in specs))
