"""``mem export`` and ``mem import jsonl``: every memory and summary, one JSON object a line.

A line is the record shape of ``core.serialize`` without the unknown frontmatter
keys at its top, plus ``extra`` (those keys, in file order), ``path`` (where the
file was) and, when some extra values are YAML dates, ``dates`` (their keys:
the values are ISO strings in ``extra``). Lines come in a stable order (created,
then id). Importing an export into an empty store and exporting again gives the
same bytes; an id already in the store is skipped, never overwritten.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from memcli.core.errors import InvalidInput, InvalidMemoryFile, MemError
from memcli.core.model import SUMMARY_FIELDS
from memcli.core.schema import KNOWN_FIELDS

if TYPE_CHECKING:
    from memcli.capture.importing import Incoming
    from memcli.core.model import Record
    from memcli.service.memory import Memory

MAX_LINE_BYTES = 32 << 20
"""A line longer than this is no export of mem's (a memory file holds at most 16 MB)."""


def export_records(memory: Memory) -> Iterator[tuple[Record, str]]:
    """Every memory and summary of the store with its path, ordered by created then id.

    A file that cannot be read is named through ``memory.notify`` and left out.
    """
    store = memory.store
    records: list[tuple[Record, str]] = []
    for path in store.memory_paths():
        try:
            records.append((store.load(path)[0], path))
        except InvalidMemoryFile as exc:
            memory.notify(f"not exported: {exc}")
    records.sort(key=lambda pair: (pair[0].created, pair[0].id))
    yield from records


def export_line(record: Record, path: str | None = None) -> str:
    """One record as one JSON line (no newline)."""
    from memcli.core.serialize import record_dict, to_json

    data = record_dict(dataclasses.replace(record, extra={}))
    extra: dict[str, Any] = {}
    dates: list[str] = []
    for key, value in record.extra.items():
        if isinstance(value, dt.date):
            dates.append(key)
            value = value.isoformat()
        extra[key] = value
    data["extra"] = extra
    if dates:
        data["dates"] = dates
    if path:
        data["path"] = path
    return to_json(data, default=str)


def read_jsonl(stream: IO[bytes], name: str) -> Iterator[Incoming]:
    """Each line of a mem export as a row to import; blank lines are passed over.

    A line that is not JSON, not an object, or not a valid memory is a failed
    row naming its line number; a file that is not UTF-8, or a line longer than
    ``MAX_LINE_BYTES``, stops the import (``InvalidInput``) before anything is written.
    """
    from memcli.capture.importing import Incoming

    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise InvalidInput(
                f"{name}: line {number} is longer than {MAX_LINE_BYTES >> 20} MB; "
                "not an export of mem's, nothing was imported"
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput(
                f"{name}: line {number} is not UTF-8 text; nothing was imported"
            ) from None
        if not text.strip():
            continue
        label = f"line {number}"
        try:
            record, path = record_from_line(text)
        except MemError as exc:
            yield Incoming("", label, problem=str(exc))
            continue
        yield Incoming("", f"{label} ({record.id})", record=record, path=path)


def record_from_line(text: str) -> tuple[Record, str | None]:
    """The record one export line holds, read as its file would be; ``InvalidInput`` if not."""
    from memcli.core import codec
    from memcli.core.serialize import from_json
    from memcli.store.files import parse_memory_file

    try:
        data = from_json(text)
    except ValueError as exc:
        raise InvalidInput(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"not a JSON object but {type(data).__name__}")
    kind = data.pop("kind", "observation")
    if kind not in ("observation", "summary"):
        raise InvalidInput(f"unknown kind {kind!r}: use observation or summary")
    extra = data.pop("extra", {})
    if not isinstance(extra, dict):
        raise InvalidInput("extra must be a JSON object")
    _check_extra_names(extra)
    dates = data.pop("dates", [])
    path = data.pop("path", None)
    body = data.pop("narrative", "") or ""
    if not isinstance(body, str):
        raise InvalidInput("narrative must be text")
    if kind == "summary":
        data.pop("type", None)
    _check_types(data)
    fields: list[tuple[str, str]] = []
    try:
        for key, value in [*data.items(), *extra.items()]:
            if key in data and key not in extra and (value is None or value == []):
                continue  # a known field left empty is not written (an extra is kept)
            if key in dates and isinstance(value, str) and key in extra:
                value = _date(value)
            fields.append((str(key), codec.emit_scalar(value)))
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"a value mem cannot store: {exc}") from None
    unknown = [key for key in data if key not in _LINE_KEYS]
    if unknown:
        raise InvalidInput(f"unknown field {unknown[0]!r}: unknown frontmatter goes in 'extra'")
    folder = "summaries" if kind == "summary" else "observations"
    document = codec.write_document(fields, body)
    try:
        record = parse_memory_file(f"{folder}/line.md", document.encode("utf-8"))
    except InvalidMemoryFile as exc:
        raise InvalidInput(exc.problem) from None
    return record, path if isinstance(path, str) else None


def _check_extra_names(extra: dict[str, Any]) -> None:
    """Refuse a field of mem's own under ``extra``: it would replace the one given at the top.

    Refused, not ignored: which of two ids (or types) was meant, only the person
    who wrote the line knows, and a row imported under the other would be silently wrong.
    """
    own = [repr(key) for key in extra if key in _LINE_KEYS or key in ("kind", "narrative")]
    if own:
        raise InvalidInput(
            f"extra holds {', '.join(own)}: mem's own fields go at the top level of the line, "
            "extra holds only the others"
        )


def _check_types(data: dict[str, Any]) -> None:
    """JSON's types as a memory's fields want them (YAML would quietly read 5 as a title)."""
    for key, value in data.items():
        if value is None:
            continue
        if key in _LIST_KEYS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise InvalidInput(f"{key} must be a list of strings")
        elif key == "importance":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidInput("importance must be a number from 0 to 1")
        elif key == "guards":
            if not isinstance(value, list):
                raise InvalidInput("guards must be a list of {tool, glob, action} objects")
        elif key in _LINE_KEYS and not isinstance(value, str):
            raise InvalidInput(f"{key} must be a string, not {type(value).__name__}")


_LIST_KEYS = frozenset({"concepts", "files", "facts", "supersedes"})


def _date(value: str) -> dt.date:
    if "T" in value or " " in value:
        return dt.datetime.fromisoformat(value)
    return dt.date.fromisoformat(value)


_LINE_KEYS = frozenset({*KNOWN_FIELDS, *SUMMARY_FIELDS})
"""The top-level keys of an export line besides kind, extra, dates, path and narrative."""
