"""Claude Code's auto memory: ``<claude home>/projects/<project>/memory/``.

One markdown file per memory, with frontmatter (``name``, ``description``,
``type``: user, feedback, project or reference), beside ``MEMORY.md``, the
index Claude Code loads at session start. Each file becomes an observation:
its type mapped to mem's (the original kept as ``claude_type``), its
description the title (else a name written as a title, else the body's first
line), its name the key (a slug, as Claude Code writes it; else the file's),
its body the narrative, its file's modification time the created time. A file
is identified by its file name (``claude-memory:<file name>``): importing
again skips it, as it does the files an older mem imported (titled by their
name, without a key), which stay as they are. A link is read only
when it stays in the folder (one out of it is skipped, never followed), and
only regular files are read (a FIFO or device is a failed row, never a hang).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.core.errors import InvalidInput
from memcli.core.regular import open_regular

if TYPE_CHECKING:
    from memcli.capture.importing import Incoming

MEMORY_INDEX = "MEMORY.md"
MAX_FILE_BYTES = 1 << 20
"""A memory file of Claude Code's larger than this is refused (its own are a few KB)."""
MAX_FILES = 100_000
OUTSIDE = "links outside the folder (not followed)"
TYPE_MAP = {
    "user": "preference",
    "feedback": "preference",
    "project": "context",
    "reference": "context",
}
"""Claude Code's memory types -> mem's; anything else becomes a discovery."""


def default_memory_dir(project: Path) -> Path:
    """Where Claude Code keeps the auto memory of the project at ``project``.

    Its projects folder names a project by its absolute path with every
    character that is not a letter or a digit replaced by ``-``.
    """
    from memcli.capture.transcripts.locate import claude_project_dir

    return claude_project_dir(project) / "memory"


def memory_files(directory: Path) -> list[Path]:
    """The memory files of a folder (``*.md`` but ``MEMORY.md``), sorted; refuses a non-folder."""
    if not directory.exists():
        raise InvalidInput(f"{directory} does not exist: no auto memory there")
    if not directory.is_dir():
        raise InvalidInput(f"{directory} is not a folder: give the auto memory folder")
    found = sorted(
        p for p in directory.glob("*.md") if p.name != MEMORY_INDEX and not p.name.startswith(".")
    )
    if len(found) > MAX_FILES:
        raise InvalidInput(f"{directory} holds more than {MAX_FILES} markdown files")
    return found


def read_claude_memory(directory: Path) -> Iterator[Incoming]:
    """Every memory file of Claude Code's auto memory folder, as rows to import."""
    from memcli.capture.importing import Incoming

    keys: set[str] = set()
    for path in memory_files(directory):
        label, source_id = path.name, f"claude-memory:{path.name}"
        if links_outside(path, directory):
            yield Incoming(source_id, label, skip=f"{label} {OUTSIDE}")
            continue
        try:
            record = _observation(path, keys)
        except InvalidInput as exc:
            yield Incoming(source_id, label, problem=str(exc))
            continue
        yield Incoming(source_id, label, record=record)


def links_outside(path: Path, directory: Path) -> bool:
    """Whether ``path`` is a symbolic link whose target is not inside ``directory``."""
    if not path.is_symlink():
        return False
    try:
        target = path.resolve()
        return directory.resolve() not in target.parents
    except (OSError, RuntimeError):  # a loop of links: nothing inside to read
        return True


def read_index(directory: Path) -> str | None:
    """The folder's ``MEMORY.md`` as text, or None when it has none."""
    path = directory / MEMORY_INDEX
    if not path.is_file():
        return None
    return _read_text(path)


def _read_text(path: Path) -> str:
    try:
        with open_regular(path) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InvalidInput(f"cannot be read ({exc.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise InvalidInput(f"is larger than {MAX_FILE_BYTES >> 20} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("is not UTF-8 text") from None


def _observation(path: Path, keys: set[str]) -> Any:
    """The observation of one memory file; ``keys``: those given so far (its own added)."""
    from memcli.core import codec
    from memcli.core.ids import new_ulid
    from memcli.core.model import Observation
    from memcli.core.secrets import redacted_head
    from memcli.core.timeutil import format_timestamp
    from memcli.core.validate import MAX_TITLE_CHARS

    text = _read_text(path)
    try:
        metadata, body = codec.read_document(text)
    except ValueError:
        metadata, body = {}, text
    name = _text(metadata.get("name"))
    description = _text(metadata.get("description"))
    claude_type = _text(metadata.get("type"))
    title = _title(name, description, body) or path.stem
    created = format_timestamp(
        dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC).replace(microsecond=0)
    )
    extra: dict[str, Any] = {}
    if claude_type:
        extra["claude_type"] = claude_type
    for key, value in metadata.items():
        if key not in ("name", "description", "type") and isinstance(value, str | int | float):
            if isinstance(value, float) and not math.isfinite(value):
                raise InvalidInput(f"{key} is not a finite number: infinity and NaN are not JSON")
            extra[f"claude_{key}"] = value
    body = body.strip()
    if not body and not description:
        raise InvalidInput("is empty: nothing to import")
    record = Observation(
        id=new_ulid(),
        type=TYPE_MAP.get(claude_type.lower(), "discovery"),
        title=redacted_head(" ".join(title.split()), MAX_TITLE_CHARS),
        created=created,
        narrative=body,
        key=_key(name, path.stem, keys),
        extra=extra,
    )
    return record


def _title(name: str, description: str, body: str) -> str:
    """The description; else the name when it reads as a title, not a slug; else the body's."""
    from memcli.core.schema import KEY_RE
    from memcli.core.titles import default_title

    if description:
        return description
    if name and not KEY_RE.fullmatch(name):
        return name
    return default_title(body) or name


def _key(name: str, stem: str, taken: set[str]) -> str | None:
    """The memory's name as its key when it is a slug; else (or when an earlier file of the
    folder has that name) the file's name, made one; None when that too is taken."""
    from memcli.core.schema import KEY_RE
    from memcli.core.titles import slugify

    for candidate in (name, stem, slugify(stem, max_chars=100)):
        if candidate and KEY_RE.fullmatch(candidate) and candidate not in taken:
            taken.add(candidate)
            return candidate
    return None


def _text(value: object) -> str:
    return " ".join(str(value).split()) if value not in (None, "") else ""
