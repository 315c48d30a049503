"""Importing another tool's memories: checked row by row, screened, written in ONE commit.

A reader (one module per source: ``jsonl``, ``claude_memory``, ``claude_mem``)
turns each source row into an :class:`Incoming`; :func:`run_import` decides
what happens to each (imported, skipped on purpose, or failed with a reason),
then hands every new file to the writer at once, so the lock, the journal, the
index update and crash safety are those of ``mem save``, and ``git revert`` of
that one commit undoes the import.

Identity. A row with a ``source_id`` is recorded with ``imported_from:
<source_id>`` in its frontmatter (an extra key); a later import of the same
source skips it ("already imported"). A row with an empty ``source_id`` (a mem
export, which keeps ids) is identified by its memory id alone: an id already
in the store is skipped, never overwritten ("already in the store" when the
stored memory is the same, "id already in the store with other content"
otherwise).
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memcli.core.errors import (
    InvalidInput,
    InvalidMemoryFile,
    MemError,
    SecretsFound,
    StoreError,
)
from memcli.store.files import MAX_MEMORY_FILE_BYTES, is_memory_path, parse_memory_file

if TYPE_CHECKING:
    from memcli.core.model import Observation, Record, Summary
    from memcli.core.secrets import Policy
    from memcli.service.memory import Memory

IMPORTED_FROM = "imported_from"
"""The frontmatter key naming the source row a memory was imported from."""
PREVIEW_ROWS = 10
"""How many rows a report shows (what a dry run would import)."""
PROGRESS_EVERY = 1000
"""Rows between two progress lines on a terminal."""
MAX_FAILURES_KEPT = 1000
"""Failed rows a report names one by one; past that, only counted."""


@dataclass
class Incoming:
    """One row of a source, as a reader hands it over."""

    source_id: str
    """Stable identity of the source row, e.g. ``claude-mem:observations:42``; empty: the
    record's own id is its identity (a mem export)."""
    label: str
    """Short human text for the dry run and errors."""
    record: Observation | Summary | None = None
    """None when the row cannot be imported."""
    problem: str | None = None
    """Why it cannot (a failed row), when ``record`` is None."""
    skip: str | None = None
    """A reason to skip it on purpose (counted, not failed)."""
    path: str | None = None
    """Where its file should go (a mem export says where it was); else a new path."""
    aliases: tuple[str, ...] = ()
    """Identities an older mem gave the row, each ``<source_id>@<created>``: the row is
    already imported when a memory imported under that identity has that ``created``."""


@dataclass
class ImportReport:
    """What an import did (or, with ``dry_run``, would do)."""

    source: str
    dry_run: bool
    imported: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    """Reason -> rows."""
    failed: list[tuple[str, str]] = field(default_factory=list)
    """(label, problem), the first ``MAX_FAILURES_KEPT``."""
    failed_count: int = 0
    preview: list[str] = field(default_factory=list)
    """The first rows imported, as ``type: title  (label)``."""
    commit: str | None = None
    notes_written: bool = False
    """The curated MEMORY.md given came in the same commit."""

    @property
    def rows(self) -> int:
        return self.imported + sum(self.skipped.values()) + self.failed_count

    def fail(self, label: str, problem: str) -> None:
        self.failed_count += 1
        if len(self.failed) < MAX_FAILURES_KEPT:
            self.failed.append((label, problem))

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "dry_run": self.dry_run,
            "rows": self.rows,
            "imported": self.imported,
            "skipped": sum(self.skipped.values()),
            "skipped_by_reason": dict(sorted(self.skipped.items())),
            "failed": self.failed_count,
            "failures": [{"row": label, "problem": problem} for label, problem in self.failed],
            "preview": list(self.preview),
            "commit": self.commit,
        }


def run_import(
    memory: Memory,
    items: Iterable[Incoming],
    *,
    source: str,
    dry_run: bool,
    secrets: Policy,
    progress: bool,
    notes: str | None = None,
) -> ImportReport:
    """Check every row, then write the new ones in one commit (nothing with ``dry_run``).

    ``notes``: a curated MEMORY.md (screened already) that comes in the same
    commit when the store has none.

    An exception from ``items`` (a source that cannot be read any further)
    stops the import before anything is written.
    """
    from memcli.service.screening import layer_policy

    report = ImportReport(source, dry_run)
    if not dry_run:
        # A retry after a crash: what the killed import wrote is committed (or undone)
        # before the rows are checked against the store.
        settled = memory.writer.settle()
        if settled:
            memory.notify(settled)
    plan = _Plan(memory, report, layer_policy(memory.store, secrets))
    tick = _ticker(memory.notify) if progress else None
    count = 0
    for count, item in enumerate(items, 1):
        plan.add(item)
        if tick is not None:
            tick(count, False)
    if tick is not None:
        tick(count, True)
    if dry_run or (not plan.rows and notes is None):
        report.imported = len(plan.rows)
        return report
    result = memory.writer.import_records(
        plan.rows, source=source, notes=notes, imported=plan.imported_meanwhile
    )
    report.imported = len(result.written)
    report.notes_written = result.notes_written
    if result.imported:
        report.skipped["already imported"] += len(result.imported)
    if result.taken:
        report.skipped["already in the store"] += len(result.taken)
    report.commit = result.commit
    return report


def _ticker(notify: Callable[[str], None]) -> Callable[[int, bool], None]:
    def tick(count: int, done: bool) -> None:
        if done or count % PROGRESS_EVERY == 0:
            notify(f"import: {count:,} rows read" + (", writing" if done else ""))

    return tick


class _Plan:
    """The rows to write, each checked against the store and the rows before it."""

    def __init__(self, memory: Memory, report: ImportReport, secrets: Policy) -> None:
        self.memory = memory
        self.report = report
        self.secrets = secrets
        self.rows: list[tuple[str, str, Record]] = []
        self.exists = memory.store.exists()
        self.head = memory.store.head() if self.exists else None
        """The commit ``imported`` was read from."""
        self.imported = _imported_sources(memory) if self.exists else set()
        self._since: set[str] | None = None
        self.purged = memory.store.purged_ids() if self.exists else frozenset()
        self.ids: set[str] = set()
        self.sources: set[str] = set()
        self.keys: set[str] = set()
        self.paths: set[str] = set()

    def add(self, item: Incoming) -> None:
        report = self.report
        if item.record is None or item.skip:
            if item.skip:
                report.skipped[item.skip] += 1
            else:
                report.fail(item.label, item.problem or "cannot be imported")
            return
        record = item.record
        if item.source_id:
            known = (item.source_id, *item.aliases)
            if any(s in self.imported for s in known) or item.source_id in self.sources:
                report.skipped["already imported"] += 1
                return
            if IMPORTED_FROM not in record.extra:
                record = dataclasses.replace(
                    record, extra={**record.extra, IMPORTED_FROM: item.source_id}
                )
        try:
            skip = self._known(record)
            if skip:
                report.skipped[skip] += 1
                return
            path, text, checked = self._file(record, item.path)
        except MemError as exc:
            report.fail(item.label, _one_line(exc))
            return
        self.rows.append((path, text, checked))
        self.ids.add(checked.id)
        self.paths.add(path)
        if item.source_id:
            self.sources.add(item.source_id)
        if checked.key:
            self.keys.add(checked.key)
        if len(report.preview) < PREVIEW_ROWS:
            report.preview.append(f"{checked.type}: {checked.title}  ({item.label})")

    def imported_meanwhile(self, record: Record) -> bool:
        """Whether another import stored this row's source row since the plan was made.

        Asked by the writer under the lock: two imports of one source at once
        each check their rows first, so the second must look again.
        """
        if self._since is None:
            moved = self.memory.store.head() != self.head
            self._since = _imported_sources(self.memory) - self.imported if moved else set()
        return record.extra.get(IMPORTED_FROM) in self._since

    def _known(self, record: Record) -> str | None:
        """Why a record is skipped (its id is stored already), or None; refuses purged ids."""
        if record.id in self.purged:
            raise InvalidInput(f"{record.id} was purged from this store: it is not brought back")
        if record.id in self.ids:
            return "duplicate id in the input"
        if not self.exists:
            return None
        memory = self.memory
        path = memory.read(lambda index: index.path_of(record.id))
        if path is None:
            if record.key and record.key not in self.keys:
                holder = memory.read(lambda index: index.by_key(record.key or ""))
                if holder is not None:
                    raise InvalidInput(
                        f"the key {record.key!r} is already used by {holder.id} ({holder.title})"
                    )
            return None
        try:
            same = memory.store.load(path)[0] == record
        except InvalidMemoryFile:
            same = False
        return "already in the store" if same else "id already in the store with other content"

    def _file(self, record: Record, wanted: str | None) -> tuple[str, str, Record]:
        """The path and text of the record's file once screened, and the record read back."""
        from memcli.core.model import without_private
        from memcli.service.screening import screen, screened

        if record.key and record.key in self.keys:
            raise InvalidInput(f"the key {record.key!r} is used by an earlier row")
        # Field by field, before the path is named: a file name is made from the title.
        try:
            record = screened(without_private(record), None, self.secrets)
            if wanted and screen({"path": wanted}, [], self.secrets)["path"] != wanted:
                wanted = None  # redacted: the file gets a name of mem's own
        except SecretsFound as exc:
            raise SecretsFound(str(exc).split(". Remove them")[0]) from None
        path = self._path(record, wanted)
        text = record.to_markdown()
        data = text.encode("utf-8")
        if len(data) > MAX_MEMORY_FILE_BYTES:
            raise InvalidInput(f"is larger than {MAX_MEMORY_FILE_BYTES >> 20} MB as a memory file")
        return path, text, parse_memory_file(path, data)

    def _path(self, record: Record, wanted: str | None) -> str:
        folder = "summaries/" if record.kind == "summary" else "observations/"
        if (
            wanted
            and wanted.startswith(folder)
            and is_memory_path(wanted)
            and wanted not in self.paths
            and not (self.exists and _on_disk(self.memory, wanted))
        ):
            return wanted
        path = self.memory.store.new_path(record)
        if path in self.paths or (self.exists and _on_disk(self.memory, path)):
            stem = path.removesuffix(".md").rsplit("-", 1)[0]
            path = f"{stem}-{record.id.lower()}.md"
        return path


def _on_disk(memory: Memory, path: str) -> bool:
    try:
        return memory.store.resolve(path).exists()
    except MemError:
        return True  # a path mem cannot use counts as taken


def _one_line(exc: MemError) -> str:
    text = exc.problem if isinstance(exc, InvalidMemoryFile) else str(exc)
    return " ".join(text.split())


def _imported_sources(memory: Memory) -> set[str]:
    """Every ``imported_from`` value in the store's memory files (one ``git grep``).

    Each also as ``<value>@<created>`` (its file's ``created``), so that an
    identity an older mem gave a row (see ``Incoming.aliases``) is recognised
    only for the very row it came from.
    """
    from memcli.store.files import MEMORY_DIRS

    result = memory.store.git.run(
        [
            "grep",
            "-z",
            "-I",
            "--no-color",
            "--all-match",  # only the files that have both
            "-e",
            f"^{IMPORTED_FROM}: ",
            "-e",
            "^created: ",
            "--",
            *MEMORY_DIRS,
        ],
        check=False,
    )
    if result.returncode not in (0, 1):
        from memcli.store.git import first_line

        raise StoreError(f"git grep failed: {first_line(result.stderr)}")
    sources: dict[str, list[str]] = {}
    created: dict[str, str] = {}
    for match in result.stdout.decode("utf-8", "replace").split("\n"):
        path, _, line = match.partition("\0")
        name, _, value = line.partition(": ")
        if name == IMPORTED_FROM:
            sources.setdefault(path, []).append(_scalar(value))
        elif name == "created":
            created.setdefault(path, _scalar(value))  # the frontmatter's: the first
    found = set()
    for path, values in sources.items():
        found.update(values)
        if path in created:
            found.update(f"{value}@{created[path]}" for value in values)
    return found


def _scalar(value: str) -> str:
    """A frontmatter value as mem writes it: plain, or quoted as JSON."""
    value = value.strip()
    if value.startswith('"'):
        try:
            loaded = json.loads(value)
        except ValueError:
            return value
        return loaded if isinstance(loaded, str) else value
    return value
