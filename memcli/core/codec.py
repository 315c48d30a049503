"""The on-disk form of a memory: YAML frontmatter between ``---`` fences, then markdown.

mem writes frontmatter in one canonical form, chosen so that it is plain YAML a
person can read and edit, and so that mem can read it back without a YAML
parser (which costs ~190 µs a file, most of a full rebuild):

- one ``key: value`` line per field, in a fixed order;
- a string is written bare when YAML would read it back as the same string,
  and as a JSON string (also valid YAML) otherwise;
- short lists in flow style (``[sqlite, fts5]``), facts as a block list, guards
  as a block list of flow mappings (``- {tool: Bash, glob: "npm *", action: deny}``).

``read_document`` tries that fast path first and falls back to python-frontmatter's
YAML handler with a *safe* loader for anything else (hand-edited files). Both paths must
agree on every file mem writes; the tests check it with hypothesis.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Iterable
from typing import Any

from memcli.core.ids import ULID_RE
from memcli.core.timeutil import CANONICAL_RE

_FENCED_RE = re.compile(r"\A---[ \t]*\n(?:(.*?)\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)
_KEY_LINE_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?")
# Characters YAML reads differently from JSON inside quotes (line breaks it
# folds, a BOM, non-characters): always written as \u escapes.
_NEEDS_ESCAPE_RE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
_UNSAFE_CHARS = "\x00-\x1f\x7f-\x9f:#\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff"
# A bare string in block context: starts with a letter (so it can be neither a
# number, a date nor a YAML indicator), has no ": " or " #", ends with no space.
_PLAIN_RE = re.compile(rf"[A-Za-z](?:[^{_UNSAFE_CHARS}]*[^ {_UNSAFE_CHARS}])?")
# A bare string inside a flow list: stricter, since , [ ] { } end it there.
_FLOW_PLAIN_RE = re.compile(r"[A-Za-z][A-Za-z0-9_./+-]*")
# Words YAML 1.1 reads as booleans or null, whatever their case.
_RESERVED_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null", "y", "n"})
_INT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+")
_TIMESTAMP_KEYS = frozenset({"created", "updated"})
MAX_YAML_CHARS = 1_000_000
"""Frontmatter read by the YAML parser (hand-written); mem's own form has no limit."""
MAX_YAML_DEPTH = 20
"""Levels of lists and mappings in frontmatter; a memory's own fields use two."""


class _NotCanonical(Exception):
    """The frontmatter is not in mem's canonical form: use the YAML parser."""


class _Refused(ValueError):
    """Frontmatter that would cost more than its size to read: refused as it is."""


# --------------------------------------------------------------------- writing


def quote(text: str) -> str:
    """A double-quoted scalar that JSON and YAML both read back as ``text``."""
    return _escaped(json.dumps(text, ensure_ascii=False))


def _escaped(encoded: str) -> str:
    """JSON text with every character YAML would read differently as a \\u escape
    (such characters can only be inside its strings)."""
    return _NEEDS_ESCAPE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


def _is_plain(text: str, pattern: re.Pattern[str]) -> bool:
    return pattern.fullmatch(text) is not None and text.lower() not in _RESERVED_WORDS


def emit_scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _emit_float(value)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return value if _is_plain(value, _PLAIN_RE) else quote(value)
    if isinstance(value, list | tuple | dict):
        return _escaped(json.dumps(value, ensure_ascii=False, default=str))
    raise TypeError(f"cannot write {type(value).__name__} to frontmatter")


def _emit_float(value: float) -> str:
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value)
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"  # YAML 1.1 wants a dot in the mantissa
    return text


def emit_flow_list(items: Iterable[str]) -> str:
    """``[a, b]`` when every item can stand bare, else a JSON array (valid YAML too)."""
    items = list(items)
    if all(_is_plain(item, _FLOW_PLAIN_RE) for item in items):
        return "[" + ", ".join(items) + "]"
    return "[" + ", ".join(quote(item) for item in items) + "]"


def emit_block_list(items: Iterable[str]) -> str:
    return "".join(f"\n  - {emit_scalar(item)}" for item in items)


def emit_flow_mapping(mapping: dict[str, str]) -> str:
    """``{tool: Bash, glob: "npm *"}``: names bare, a value bare when it can stand so in a
    flow collection, else a JSON string (valid YAML too)."""
    entries = (
        f"{name}: {value if _is_plain(value, _FLOW_PLAIN_RE) else quote(value)}"
        for name, value in mapping.items()
    )
    return "{" + ", ".join(entries) + "}"


def emit_mapping_list(items: Iterable[dict[str, str]]) -> str:
    """A block list of flow mappings, one a line."""
    return "".join(f"\n  - {emit_flow_mapping(item)}" for item in items)


def write_document(fields: list[tuple[str, str]], body: str) -> str:
    """Assemble a file from already-emitted ``(key, value)`` pairs and a body.

    A value starting with a newline (a block list) follows the colon directly.
    """
    lines = ["---"]
    for key, value in fields:
        lines.append(f"{key}:{value}" if value.startswith("\n") else f"{key}: {value}")
    lines.append("---")
    head = "\n".join(lines) + "\n"
    return head + (f"\n{body}\n" if body else "")


# --------------------------------------------------------------------- reading


def read_document(text: str) -> tuple[dict[str, Any], str]:
    """Split a memory file into its frontmatter mapping and its markdown body.

    Raises ``ValueError`` with a short description when the file is not a
    memory file (no frontmatter, broken YAML, frontmatter that is not a mapping).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    match = _FENCED_RE.match(text)
    if match is None:
        raise ValueError("no frontmatter: the file must start with a '---' line and close it")
    head, body = match.group(1) or "", text[match.end() :]
    try:
        return _parse_canonical(head.split("\n") if head else []), body
    except _NotCanonical:
        return _parse_yaml(head), body


def _parse_yaml(head: str) -> dict[str, Any]:
    """The slow path for hand-edited frontmatter: python-frontmatter's handler, safe loader.

    What one file can cost stays in proportion to its size: aliases, which
    multiply what a few lines hold (and every copy is walked again by whatever
    reads or rewrites the memory), are refused, and so is deep nesting, which
    costs libyaml time quadratic in the depth and Python's stack.
    """
    import yaml
    from frontmatter.default_handlers import YAMLHandler

    if len(head) > MAX_YAML_CHARS:
        raise ValueError(
            f"frontmatter is longer than {MAX_YAML_CHARS} characters and not in mem's own form"
        )
    if _flow_depth(head) > MAX_YAML_DEPTH:
        raise _Refused(f"frontmatter is nested deeper than {MAX_YAML_DEPTH} levels")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        _check_structure(yaml, head, loader)
        metadata = YAMLHandler().load(head, Loader=loader)
    except yaml.YAMLError as exc:
        if _opener_run(head) > MAX_YAML_DEPTH:  # what a parser's own nesting bound refuses
            raise _Refused(f"frontmatter is nested deeper than {MAX_YAML_DEPTH} levels") from None
        problem = str(getattr(exc, "problem", None) or exc).splitlines()[0]
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        raise ValueError(f"broken YAML frontmatter: {problem}{where}") from None
    except _Refused:
        raise
    except (ValueError, OverflowError) as exc:  # a date or a number no Python value holds
        raise ValueError(f"broken YAML frontmatter: {str(exc).splitlines()[0]}") from None
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise ValueError("frontmatter is not a mapping of keys to values")
    return {str(key): value for key, value in metadata.items()}


def _flow_depth(head: str) -> int:
    """The deepest nesting of flow collections (``[`` and ``{``) in YAML text.

    Run before the parser, so mem's own bound applies whatever the parser's is:
    a scanner may read a whole flow collection ahead and refuse it in words of
    its own. A bracket opens a collection only where YAML allows one (at the
    start of a value, after a node's anchor or tag, or inside another flow
    collection); quoted scalars and comments are skipped. Block nesting needs
    indentation, which costs a line a level, and is bounded by ``_check_structure``.
    """
    deepest = depth = 0
    i, size = 0, len(head)
    # Where a bracket would start a collection: after these (spaces skipped).
    openers_block, openers_flow = "\n:-?", "[{,:?"
    previous = "\n"
    while i < size:
        char = head[i]
        if char in " \t":
            i += 1
            continue
        if char == "#" and (i == 0 or head[i - 1] in " \t\n"):
            end = head.find("\n", i)
            i = size if end < 0 else end
            continue
        at_value_start = previous in (openers_flow if depth else openers_block)
        if char in "&!" and at_value_start:  # an anchor or a tag: the value comes after it
            i = _skip_property(head, i)
            continue
        if char in "\"'" and at_value_start:
            i = _skip_quoted(head, i)
            previous = char
            continue
        if char in "[{" and at_value_start:
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}" and depth:
            depth -= 1
        if char in ":-?" and not _indicator(head, i, after_quote=previous in "\"'"):
            char = "a"  # inside a plain scalar (``:[``, ``a-[``), not an indicator
        elif char in "\"'":
            char = "a"  # a quote inside a plain scalar (``:':[``) ends no quoted key
        previous = char
        i += 1
    return deepest


def _indicator(text: str, i: int, *, after_quote: bool) -> bool:
    """Whether the ``:``, ``-`` or ``?`` at ``i`` is YAML's indicator, not scalar text:
    followed by a space, a line end or the end (``:`` also right after a quoted key)."""
    following = text[i + 1 : i + 2]
    return following in ("", " ", "\t", "\n") or (text[i] == ":" and after_quote)


def _skip_property(text: str, start: int) -> int:
    """The index just past the anchor (``&name``) or tag (``!!seq``) at ``start``."""
    i = start + 1
    while i < len(text) and text[i] not in " \t\n,[]{}":
        i += 1
    return i


_OPENER_RUN_RE = re.compile(r"[\[{][\[{ \t]*")


def _opener_run(head: str) -> int:
    """The most ``[`` and ``{`` in one run (blanks between them allowed), quoted or not.

    A parser that refuses nesting beyond its own bound must have met hundreds of
    levels within its read-ahead, so a long run of them: when YAML is refused and such
    a run is there, the nesting is what is wrong, whatever the pre-scan could place.
    """
    runs = (match.group() for match in _OPENER_RUN_RE.finditer(head))
    return max((len(run) - run.count(" ") - run.count("\t") for run in runs), default=0)


def _skip_quoted(text: str, start: int) -> int:
    """The index just past the quoted scalar that opens at ``start``."""
    quote, i = text[start], start + 1
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            if quote == "'" and text[i + 1 : i + 2] == "'":  # '' is a quote inside '...'
                i += 2
                continue
            return i + 1
        i += 1
    return i


def _check_structure(yaml: Any, head: str, loader: Any) -> None:
    """Refuse aliases and deep nesting from the event stream, before anything is built.

    Stops at the first offence, so a hostile file costs no more than its first levels.
    """
    depth = 0
    for event in yaml.parse(head, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(
                "YAML aliases (*name) are not allowed in frontmatter: write the value out"
            )
        if isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                raise _Refused(f"frontmatter is nested deeper than {MAX_YAML_DEPTH} levels")
        elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
            depth -= 1


def _parse_canonical(lines: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    i = 0
    while i < len(lines):
        match = _KEY_LINE_RE.fullmatch(lines[i])
        if match is None:
            raise _NotCanonical
        key, raw = match.group(1), match.group(2)
        if key in data:
            raise _NotCanonical
        i += 1
        if not raw:
            items: list[str | dict[str, str]] = []
            while i < len(lines) and lines[i].startswith("  - "):
                item = lines[i][4:]
                items.append(_parse_flow_mapping(item) if item[:1] == "{" else _parse_string(item))
                i += 1
            if not items:
                raise _NotCanonical
            data[key] = items
        else:
            data[key] = _parse_value(key, raw)
    return data


def _parse_json(raw: str) -> Any:
    """JSON that YAML reads the same way: no raw character YAML would fold."""
    if _NEEDS_ESCAPE_RE.search(raw):
        raise _NotCanonical
    try:
        return json.loads(raw)
    except ValueError:
        raise _NotCanonical from None


def _parse_string(raw: str) -> str:
    if raw.startswith('"'):
        value = _parse_json(raw)
        if not isinstance(value, str):
            raise _NotCanonical
        return value
    if _is_plain(raw, _PLAIN_RE):
        return raw
    raise _NotCanonical


def _parse_value(key: str, raw: str) -> Any:
    first = raw[0]
    if first == "[":
        return _parse_flow_list(raw)
    if first.isdigit() or first == "-":  # a bare string starts with a letter
        if key in _TIMESTAMP_KEYS and CANONICAL_RE.fullmatch(raw):
            return raw
        if key == "id" and ULID_RE.fullmatch(raw) and not raw.isdigit():
            return raw  # YAML reads a ULID with a letter in it as a string
        if _INT_RE.fullmatch(raw):
            try:
                return int(raw)
            except ValueError:  # more digits than int() reads: YAML says what is wrong
                raise _NotCanonical from None
        if _FLOAT_RE.fullmatch(raw):
            return float(raw)
        raise _NotCanonical
    return _parse_string(raw)


_MAPPING_NAME_RE = re.compile(r"([a-z_]+): ")
_JSON_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"')


def _parse_flow_mapping(raw: str) -> dict[str, str]:
    """A mapping as ``emit_flow_mapping`` writes it: ``{name: value, name: "value"}``."""
    if not raw.endswith("}"):
        raise _NotCanonical
    inner, pos = raw[1:-1], 0
    data: dict[str, str] = {}
    while True:
        name = _MAPPING_NAME_RE.match(inner, pos)
        if name is None or name.group(1) in data:
            raise _NotCanonical
        pos = name.end()
        if inner.startswith('"', pos):
            found = _JSON_STRING_RE.match(inner, pos)
            value = _parse_string(found.group()) if found else None
        else:
            found = _FLOW_PLAIN_RE.match(inner, pos)
            value = found.group() if found and _is_plain(found.group(), _FLOW_PLAIN_RE) else None
        if found is None or value is None:
            raise _NotCanonical
        data[name.group(1)] = value
        pos = found.end()
        if pos == len(inner):
            return data
        if not inner.startswith(", ", pos):
            raise _NotCanonical
        pos += 2


def _parse_flow_list(raw: str) -> list[str]:
    if not raw.endswith("]"):
        raise _NotCanonical
    inner = raw[1:-1]
    if not inner:
        return []
    if '"' in inner:
        value = _parse_json(raw)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _NotCanonical
        return value
    items = inner.split(", ")
    if not all(_is_plain(item, _FLOW_PLAIN_RE) for item in items):
        raise _NotCanonical
    return items
