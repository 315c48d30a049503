"""What may be stored: likely secrets refused or redacted, ``<private>`` spans dropped.

Every write transaction passes what it is about to store through here before
anything is written; the policy (``refuse``, ``redact``, ``allow``) is the
caller's (``--redact``, ``--allow-secret``).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from memcli.core.errors import InvalidMemoryFile, SecretsFound

if TYPE_CHECKING:
    from memcli.core.model import Record
    from memcli.core.secrets import Finding, Policy
    from memcli.store.files import Store

R = TypeVar("R", bound="Record")


TEAM_RULE = (
    "the team layer never takes a likely secret as it is (--allow-secret does not apply "
    "there): remove it, or --redact stores it as [REDACTED:…]"
)


def layer_policy(store: Store, policy: Policy) -> Policy:
    """The policy a write to ``store`` follows: a team folder (the project's repository,
    shared with everyone who clones it) refuses what ``allow`` would let through."""
    return "refuse" if policy == "allow" and not store.own_repository else policy


@contextlib.contextmanager
def screening_for(store: Store, policy: Policy) -> Iterator[Policy]:
    """The policy for a write to ``store`` (:func:`layer_policy`); a refusal it causes
    says why ``--allow-secret`` did not help."""
    kept = layer_policy(store, policy)
    try:
        yield kept
    except SecretsFound as exc:
        if kept == policy:
            raise
        found = str(exc).split(". Remove them")[0]
        raise SecretsFound(f"{found}: {TEAM_RULE}") from None


def without_private(path: str, text: str) -> str:
    """A memory file's text with its ``<private>`` spans removed from every field.

    The file is written again from its fields only when it holds such a span;
    an invalid file is left for the caller to refuse. The parsed fields are
    what counts, never the raw text: YAML escapes (``"\\x3cprivate>"``) spell a
    span no search of the text would find.
    """
    from memcli.core.model import without_private as visible_part
    from memcli.store.files import parse_memory_file

    try:
        record = parse_memory_file(path, text.encode("utf-8"))
    except (InvalidMemoryFile, UnicodeEncodeError):
        return text
    visible = visible_part(record)
    return text if visible == record else visible.to_markdown()


def screened_file(path: str, text: str, before: list[Finding], policy: Policy) -> str:
    """A memory file's text once its likely secrets (new since ``before``) are dealt with.

    Scanned as a whole, comments included. A redaction in the frontmatter may not
    read back (``[REDACTED:…]`` starts a YAML list): then the file is redacted field
    by field and written again in mem's own form.
    """
    from memcli.store.files import parse_memory_file

    kept: str = screen({path: text}, before, policy)[path]
    if policy != "redact" or kept == text:
        return kept
    try:
        parse_memory_file(path, kept.encode("utf-8"))
    except (InvalidMemoryFile, UnicodeEncodeError):
        try:
            record = parse_memory_file(path, text.encode("utf-8"))
        except (InvalidMemoryFile, UnicodeEncodeError):
            return kept  # invalid as given: the caller refuses it
        return screened(record, None, policy).to_markdown()
    return kept


def screened(record: R, old: R | None, policy: Policy) -> R:
    """``record`` once the likely secrets of every field (new since ``old``) are dealt with.

    Every field is scanned, frontmatter and extra keys alike: a field left out
    would carry a secret into git whole (the session, a key, a file path).
    """
    from memcli.core.secrets import scan_fields

    before = scan_fields(_secret_fields(old)) if old is not None else []
    fields = _secret_fields(record)
    kept = screen(fields, before, policy)
    if kept == fields:
        return record
    return _redacted(record, fields, kept)


def new_secrets(record: Record, sources: Iterable[Record]) -> list[Finding]:
    """The likely secrets of ``record`` that none of ``sources`` held (a merge of them).

    What the sources hold was let in when they were saved; a merge moves it, and
    anything new is the merge's own.
    """
    from memcli.core.secrets import new_findings, scan_fields

    before = [found for source in sources for found in scan_fields(_secret_fields(source))]
    return new_findings(scan_fields(_secret_fields(record)), before)


def _secret_fields(record: Record) -> dict[str, Any]:
    """Every text a record holds, named as ``mem save`` names its fields.

    Extra frontmatter keys are named ``field NAME`` (nested ones ``field NAME.SUB``),
    so that none can hide a field of mem's own of the same name.
    """
    from memcli.core.model import SUMMARY_FIELDS, Observation

    fields: dict[str, Any] = {
        "title": record.title,
        "text": record.narrative,
        "session": record.session,
        "agent": record.agent,
    }
    if isinstance(record, Observation):
        fields.update(
            key=record.key, facts=record.facts, concepts=record.concepts, files=record.files
        )
        if record.guards:
            fields["guards"] = [guard.glob for guard in record.guards]
    else:
        fields.update({name: getattr(record, name) for name in SUMMARY_FIELDS})
    fields.update(_texts(record.extra, "field "))
    return fields


def _texts(value: Any, name: str) -> dict[str, Any]:
    """The strings in an extra field's value, each named by where it is."""
    if isinstance(value, str):
        return {name: value}
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return {name: value}
    if isinstance(value, dict):
        items: Iterable[tuple[object, Any]] = value.items()
    elif isinstance(value, list):
        items = enumerate(value, 1)
    else:
        return {}  # a number, a date: nothing a secret could hide in
    found: dict[str, Any] = {}
    for key, item in items:
        found.update(_texts(item, f"{name}{'' if name.endswith(' ') else '.'}{key}"))
    return found


_IDENTIFIERS = {
    "key": ("the key", "key"),
    "agent": ("the agent", "agent"),
    "guards": ("a guard's glob", "glob"),
}
"""Fields a redaction would make invalid or meaningless (a guard's glob would match
something else): a secret in them is refused, even with --redact."""


def _redacted(record: R, fields: dict[str, Any], kept: dict[str, Any]) -> R:
    """``record`` with the redacted fields ``kept`` (``fields`` as they were)."""
    from memcli.core.secrets import redact, report, scan_fields
    from memcli.core.validate import map_strings

    for name, (subject, noun) in _IDENTIFIERS.items():
        if kept.get(name) != fields.get(name):
            found = report(scan_fields({name: fields[name]}))
            raise SecretsFound(
                f"{subject} holds a likely secret ({found}); a {noun} cannot be redacted: "
                f"give another {noun}"
            )
    changes = {
        name: kept[name] for name in fields if not name.startswith("field ") and name != "text"
    }
    return dataclasses.replace(
        record, narrative=kept["text"], extra=map_strings(record.extra, redact), **changes
    )


def screen(fields: dict[str, Any], before: list[Finding], policy: Policy) -> dict[str, Any]:
    """Refuse fields holding likely secrets not already ``before``, or redact them all.

    ``allow`` lets them through; redaction touches only the secrets found.
    """
    from memcli.core.secrets import new_findings, redact_fields, report, scan_fields

    if policy == "allow":
        return fields
    found = scan_fields(fields)
    if policy == "redact":
        return redact_fields(fields) if found else fields
    found = new_findings(found, before)
    if not found:
        return fields
    raise SecretsFound(
        f"refusing to store likely secrets: {report(found)}. Remove them, pass --redact "
        "to store them as [REDACTED:…], or --allow-secret if they are not secrets"
    )
