"""What may be stored: likely secrets refused or redacted, ``<private>`` spans dropped.

Every write transaction passes what it is about to store through here before
anything is written; the policy (``refuse``, ``redact``, ``allow``) is the
caller's (``--redact``, ``--allow-secret``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memcli.core.errors import InvalidMemoryFile

if TYPE_CHECKING:
    from memcli.core.model import Observation
    from memcli.core.secrets import Finding, Policy


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


def screened(observation: Observation, old: Observation | None, policy: Policy) -> Observation:
    """``observation`` once its likely secrets (new since ``old``) are dealt with."""
    from memcli.core.secrets import scan_fields

    before = scan_fields(_secret_fields(old)) if old is not None else []
    fields = _secret_fields(observation)
    kept = screen(fields, before, policy)
    if kept == fields:
        return observation
    return observation.replace(narrative=kept.pop("text"), **kept)


def _secret_fields(observation: Observation) -> dict[str, Any]:
    """The fields a secret could hide in, named as ``mem save`` names them."""
    return {
        "title": observation.title,
        "text": observation.narrative,
        "facts": observation.facts,
        "concepts": observation.concepts,
        "session": observation.session,
    }


def screen(fields: dict[str, Any], before: list[Finding], policy: Policy) -> dict[str, Any]:
    """Refuse fields holding likely secrets not already ``before``, or redact them all.

    ``allow`` lets them through; redaction touches only the secrets found.
    """
    from memcli.core.errors import SecretsFound
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
