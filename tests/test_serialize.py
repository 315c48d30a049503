"""The one dict shape of a memory: its keys are the documented ones, for both kinds."""

from __future__ import annotations

import dataclasses

import pytest

from memcli.core.model import SUMMARY_FIELDS, Observation, Summary
from memcli.core.serialize import ENTRY_KEYS, RECORD_KEYS, entry_dict, record_dict
from memcli.index import Entry
from memcli.retrieval.render import sample_variables

ULID = "01JDX3Z6T0V6K8M2Q9R4S5T7W8"
CREATED = "2026-11-21T20:15:03Z"


def test_an_observation_has_the_record_keys_after_its_unknown_fields() -> None:
    observation = Observation(
        id=ULID, type="gotcha", title="t", created=CREATED, extra={"custom": 1}
    )
    assert list(record_dict(observation)) == ["custom", *RECORD_KEYS]


def test_a_summary_has_the_record_keys_and_its_sections_before_the_narrative() -> None:
    summary = Summary(id=ULID, title="t", created=CREATED, learned="quote terms")
    data = record_dict(summary)
    assert list(data) == [*RECORD_KEYS[:-1], *SUMMARY_FIELDS, "narrative"]
    assert data["kind"] == data["type"] == "summary" and data["learned"] == "quote terms"
    assert (data["updated"], data["key"], data["importance"]) == (None, None, None)


def test_a_summary_cannot_take_fields_its_file_cannot_keep() -> None:
    summary = Summary(id=ULID, title="t", created=CREATED)
    with pytest.raises(AttributeError):
        summary.key = "k"  # type: ignore[misc]
    names = {item.name for item in dataclasses.fields(Summary)}
    assert not names & {"updated", "key", "importance", "type", "concepts"}


def test_an_entry_has_the_entry_keys() -> None:
    entry = Entry(
        ULID, "observation", "gotcha", "t", CREATED, None, "k", 0.5, None, "p.md", [], [], []
    )
    assert list(entry_dict(entry, "01JDX3Z6")) == list(ENTRY_KEYS)
    assert entry.to_json() == entry_dict(entry, ULID[:8])


def test_the_template_samples_hold_every_key_of_both_shapes() -> None:
    memory = sample_variables("show.md.j2")["memory"]
    assert set(RECORD_KEYS) | set(ENTRY_KEYS) <= set(memory)
    assert set(SUMMARY_FIELDS) <= set(sample_variables("compaction.md.j2")["summary"])
