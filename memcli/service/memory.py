"""A project's memory: its store (the truth) and its index (derived), used together.

The data flow is one way: a write goes to a file, then a commit, then the index;
a read first brings the index up to date with git, then queries it. Nothing
here prints: notices and warnings go to the ``notify`` callback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from memcli.core.crashpoints import crash_point
from memcli.core.errors import IndexCorrupt, IndexUnavailable, InvalidMemoryFile, StoreError
from memcli.core.ids import new_ulid
from memcli.core.timeutil import format_timestamp, now
from memcli.index import Entry, Index, Progress, RefreshReport
from memcli.store.files import Store, StoreLocation, digest

if TYPE_CHECKING:
    from memcli.core.model import Draft, Observation, Record
    from memcli.core.secrets import Finding, Policy
    from memcli.store.purge import Purged

R = TypeVar("R")
Notify = Callable[[str], None]
SUBJECT_TITLE_CHARS = 60


class SaveResult(NamedTuple):
    observation: Record
    path: str
    action: str
    """``saved`` (new), ``updated`` (same key, changed) or ``unchanged``."""
    commit: str | None


class Drift:
    """Differences between the index and the memory files."""

    def __init__(self) -> None:
        self.checked = 0
        self.missing: list[str] = []
        self.extra: list[str] = []
        self.stale: list[str] = []
        self.invalid: list[str] = []

    @property
    def clean(self) -> bool:
        return not (self.missing or self.extra or self.stale)


class Memory:
    def __init__(
        self, location: StoreLocation, notify: Notify, progress: Progress | None = None
    ) -> None:
        self.location = location
        self.store = Store(location.root)
        self.notify = notify
        self.progress = progress
        self._index: Index | None = None
        self.index_problem: str | None = None
        """Why the index file could not serve this command (a temporary index did)."""
        self.index_deferred = False
        """Writes leave the index alone (a hook with no time to rebuild it); reads catch up."""

    # --------------------------------------------------------------- opening

    def require_store(self) -> None:
        if not self.store.exists():
            where = f" for project {self.location.project!r}" if self.location.project else ""
            raise StoreError(
                f"no memory store{where} at {self.location.root}; "
                "`mem save` creates one, or run `mem init`"
            )

    def ensure_store(self) -> None:
        if not self.store.exists() and self.store.create():
            self.notify(f"created a memory store at {self.store.root}")
            self.install_git_hooks()

    def install_git_hooks(self) -> None:
        """The store's hooks; where git's core.hooksPath forbids them, a notice instead."""
        from memcli.store import githooks

        try:
            githooks.install(self.store)
        except StoreError as exc:
            self.notify(f"git hooks not installed: {exc}")

    def sync(self, *, full: bool = False, temporary_ok: bool = True) -> RefreshReport | None:
        """Open the index and bring it up to date with HEAD (``full``: rebuild it).

        A missing index is built, a corrupt one is thrown away and rebuilt, each
        with a notice; the memory files are never touched. An index file that
        cannot be used is replaced by a temporary one unless ``temporary_ok`` is
        False (reindex, check), which raise ``IndexUnavailable`` instead.
        """
        self.require_store()
        if self.index_problem and not temporary_ok:
            raise IndexUnavailable(self.index_problem)
        path = self.store.index_path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            existed = path.exists() and path.stat().st_size > 0
            try:
                if self._index is None:
                    self._index = self._open_index(path)
                report = self._index.refresh(self.store, self.notify, full=full)
            except IndexCorrupt as exc:
                self.notify(f"{exc}; rebuilding it from the memory files")
                self._discard_index()
                self._index = self._open_index(path)
                return self._index.refresh(self.store, self.notify, full=True)
        except (IndexUnavailable, OSError) as exc:
            return self._use_temporary_index(exc, temporary_ok)
        if report and report.rebuilt and not full and not existed and report.added:
            self.notify(f"built the index from {report.added} memory files")
        return report

    def _use_temporary_index(self, problem: Exception, allowed: bool) -> RefreshReport | None:
        """Answer from an index in memory, built from the files, when the file cannot serve.

        A read-only index, a directory in its place, a cache folder that cannot
        be written: the command still answers correctly, only slower, and the
        index file is left as it is for a person to look at.
        """
        if self._index is not None and self._index.path == ":memory:":
            return self._index.refresh(self.store, self.notify)
        path = self.store.index_path
        if path.is_dir():
            reason = "a directory is in its place"
        elif isinstance(problem, OSError):
            reason = problem.strerror or str(problem)
        else:
            reason = str(problem).removeprefix("cannot use the index: ")
        self.index_problem = (
            f"the index at {path} cannot be used ({reason}); make it writable, "
            "or remove it, and mem rebuilds it"
        )
        if not allowed:
            raise IndexUnavailable(self.index_problem)
        self.notify(f"{self.index_problem}. Answering from a temporary index meanwhile")
        if self._index is not None:
            with contextlib.suppress(IndexCorrupt, IndexUnavailable):
                self._index.close()
        self._index = self._open_index(":memory:")
        return self._index.refresh(self.store, self.notify, full=True)

    def _open_index(self, path: Path | str) -> Index:
        index = Index(path)
        index.progress = self.progress
        return index

    def index(self) -> Index:
        """The index, open and up to date with HEAD."""
        if self._index is None:
            self.sync()
        assert self._index is not None
        return self._index

    def _discard_index(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None
        path = self.store.index_path
        if path.is_dir():
            raise IndexUnavailable(
                f"the index path {path} is a directory; remove it and mem will rebuild the index"
            )
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)

    def read(self, query: Callable[[Index], R]) -> R:
        """Run a query; if the index turns out corrupt half way, rebuild and run it again."""
        try:
            return query(self.index())
        except IndexCorrupt as exc:
            self.notify(f"{exc}; rebuilding it from the memory files")
            self._discard_index()
            self.sync(full=True)
            return query(self.index())

    # --------------------------------------------------------------- reading

    def resolve(self, ref: str) -> Entry:
        """A memory by id, unique id prefix, or key."""
        return self.read(lambda index: index.resolve(ref))

    def load(self, entry: Entry) -> Record:
        observation, _ = self.store.load(entry.path)
        return observation

    def reindex(self, *, full: bool) -> RefreshReport | None:
        """Bring the index file up to date; unlike a read, refuse when it cannot be written."""
        return self.sync(full=full, temporary_ok=False)

    def check(self) -> Drift:
        """Compare the index with the memory files in the work tree."""
        self.sync(temporary_ok=False)
        indexed = self.read(lambda index: index.digests())
        drift = Drift()
        on_disk: dict[str, str] = {}
        for path in self.store.memory_paths():
            try:
                data = self.store.read_bytes(path)
                self.store.parse(path, data)
            except InvalidMemoryFile as exc:
                drift.invalid.append(str(exc))
                continue
            on_disk[path] = digest(data)
        drift.checked = len(on_disk)
        drift.missing = sorted(set(on_disk) - set(indexed))
        drift.extra = sorted(set(indexed) - set(on_disk))
        drift.stale = sorted(p for p in set(on_disk) & set(indexed) if on_disk[p] != indexed[p])
        return drift

    # --------------------------------------------------------------- writing

    def save(self, draft: Draft, *, secrets: Policy = "refuse") -> SaveResult:
        """Write one memory and commit it; a known ``key`` updates that memory instead.

        Likely secrets in it are refused (or redacted, or allowed: ``secrets``),
        before anything is written.
        """
        stamp = format_timestamp(now())
        # Without a key, or without a store yet, it is surely new: refuse bad input
        # before creating anything (with a key, the lock decides: new or an update).
        fresh = (
            None
            if draft.key and self.store.exists()
            else _screened(draft.new_observation(new_ulid(), stamp), None, secrets)
        )
        self.ensure_store()
        with self.store.write_lock():
            self.store.check_writable()
            existing = self._entry_for_key(draft.key) if draft.key else None
            if existing is not None:
                from memcli.core.model import Observation

                old = self.load(existing)
                if not isinstance(old, Observation):
                    raise StoreError(f"the key {draft.key!r} belongs to a summary, not a memory")
                observation = _screened(draft.update(old, stamp), old, secrets)
                if observation == old:
                    return SaveResult(old, existing.path, "unchanged", None)
                path, action = existing.path, "updated"
            else:
                observation = fresh or _screened(
                    draft.new_observation(new_ulid(), stamp), None, secrets
                )
                path, action = self.store.new_path(observation), "saved"
            verb = "save" if action == "saved" else "update"
            message = _commit_message(verb, [observation])
            commit = self._commit_files({path: observation.to_markdown()}, [], message)
            return SaveResult(observation, path, action, commit)

    def summarize(
        self,
        sections: dict[str, str | None],
        *,
        title: str | None = None,
        session: str | None = None,
        text: str = "",
        extra: dict[str, str] | None = None,
        secrets: Policy = "refuse",
    ) -> SaveResult:
        """Record a session summary, its body rendered through ``compaction.md.j2``."""
        from memcli.core.errors import InvalidInput, MemError
        from memcli.core.model import (
            SUMMARY_FIELDS,
            Summary,
            clean_narrative,
            clean_section,
            clean_session,
            strip_private,
            summary_title,
            without_private,
        )
        from memcli.retrieval.render import Renderer

        cleaned = {name: clean_section(sections.get(name), name) for name in SUMMARY_FIELDS}
        text = clean_narrative(strip_private(text))
        screened = _screen({**cleaned, "title": title, "text": text}, [], secrets)
        title, text = screened.pop("title"), screened.pop("text")
        cleaned = screened
        if not any(cleaned.values()) and not text:
            raise InvalidInput(
                "nothing to summarize: give --request, --investigated, --learned, --completed "
                "or --next-steps (or a JSON object on stdin)"
            )
        self.ensure_store()
        with self.store.write_lock():
            self.store.check_writable()
            summary = Summary(
                id=new_ulid(),
                title=summary_title({**cleaned, "learned": cleaned["learned"] or text}, title),
                created=format_timestamp(now()),
                session=clean_session(strip_private(session or "")),
                request=cleaned["request"],
                investigated=cleaned["investigated"],
                learned=cleaned["learned"],
                completed=cleaned["completed"],
                next_steps=cleaned["next_steps"],
                extra=dict(extra or {}),
            )
            try:
                body = Renderer(self.store.root).render(
                    "compaction.md.j2", summary=summary.to_dict(), text=text
                )
            except MemError as exc:  # the store's template: the summary is kept all the same
                self.notify(f"{exc}; the summary was rendered with the built-in template")
                body = Renderer(None).render(
                    "compaction.md.j2", summary=summary.to_dict(), text=text
                )
            # A template can add text of its own: it is scanned like everything stored.
            body = _screen({"text": strip_private(body)}, [], secrets)["text"]
            summary.narrative = clean_narrative(body)
            visible = without_private(summary)
            assert isinstance(visible, Summary)
            summary = visible
            path = self.store.new_path(summary)
            message = _commit_message("summarize", [summary])
            commit = self._commit_files({path: summary.to_markdown()}, [], message)
            return SaveResult(summary, path, "saved", commit)

    def restore(self, ref: str) -> SaveResult:
        """Bring a forgotten memory back from history, as it was last, in a new commit."""
        from memcli.core.errors import NotFound
        from memcli.store.history import find_forgotten

        self.require_store()
        with self.store.write_lock():
            self.store.check_writable()
            try:
                present = self.resolve(ref)
            except NotFound:
                present = None
            if present is not None:
                raise StoreError(f"{present.id} is not forgotten: it is at {present.path}")
            path, data, record = find_forgotten(self.store, ref)
            holder = self._entry_for_key(record.key) if record.key else None
            if holder is not None:
                raise StoreError(
                    f"the key {record.key!r} of {record.id} is already used by {holder.id} "
                    f"({holder.title[:60]}) since it was forgotten: give that memory another "
                    "key (`mem edit ... --set key=...`) or forget it, then restore"
                )
            if self.store.resolve(path).exists():
                path = self.store.new_path(record)
            message = _commit_message("restore", [record])
            commit = self._commit_files({path: data.decode("utf-8")}, [], message)
            return SaveResult(record, path, "restored", commit)

    def replace_file(
        self,
        entry: Entry,
        text: str | Callable[[Record], str],
        *,
        base: bytes | None = None,
        secrets: Policy = "refuse",
    ) -> SaveResult:
        """Write an edited memory file after checking it, in one commit (``edit: …``).

        ``text`` is the new file, or a function making it from the memory as it
        is under the write lock (so changes made meanwhile are kept). ``base``:
        the bytes the edit started from; if the file changed since, the edit is
        refused (``EditConflict``) rather than undoing that change.
        """
        from memcli.core.errors import EditConflict, InvalidInput
        from memcli.core.secrets import scan
        from memcli.store.files import parse_memory_file

        with self.store.write_lock():
            self.store.check_writable()
            try:
                data = self.store.read_bytes(entry.path)
            except InvalidMemoryFile:
                if (
                    self.store.resolve(entry.path).is_symlink()
                    or self.store.resolve(entry.path).exists()
                ):
                    raise
                raise EditConflict(
                    f"{entry.path} was removed while it was being edited (forgotten, or "
                    "moved); nothing was written"
                ) from None
            if base is not None and data != base:
                raise EditConflict(
                    f"{entry.path} changed while it was being edited (another mem wrote it); "
                    "nothing was written"
                )
            wanted = text(self.store.parse(entry.path, data)) if callable(text) else text
            wanted = _without_private(entry.path, wanted)
            current = data.decode("utf-8", "replace")
            before = list(scan(current, entry.path))
            new: str = _screen({entry.path: wanted}, before, secrets)[entry.path]
            record = parse_memory_file(entry.path, new.encode("utf-8"))
            if record.id != entry.id:
                raise InvalidInput(
                    f"the id changed ({entry.id} -> {record.id}); an id is the "
                    "memory's identity: save a new memory instead"
                )
            self.sync()  # the index as of HEAD, under the lock
            self.check_key_free(record)
            if current == new:
                return SaveResult(record, entry.path, "unchanged", None)
            message = _commit_message("edit", [record])
            commit = self._commit_files({entry.path: new}, [], message)
            return SaveResult(record, entry.path, "edited", commit)

    def forget(self, refs: Iterable[str]) -> tuple[list[Entry], str]:
        """Remove memories from the work tree in one commit; history keeps them."""
        with self.store.write_lock():
            self.store.check_writable()
            entries: dict[str, Entry] = {}
            for ref in refs:
                entry = self.resolve(ref)
                entries.setdefault(entry.id, entry)
            chosen = list(entries.values())
            observations = [self._load_or_stub(entry) for entry in chosen]
            message = _commit_message("forget", observations)
            commit = self._commit_files({}, [entry.path for entry in chosen], message)
            return chosen, commit

    def purge(self, refs: Iterable[str]) -> tuple[list[Record], Purged]:
        """Remove memories from the store's whole history (``mem forget --purge``).

        Present or already forgotten; the index is rebuilt from scratch after,
        so no trace of them stays in its pages either.
        """
        from memcli.core.errors import NotFound
        from memcli.store.history import find_forgotten
        from memcli.store.purge import history_paths, rewrite

        self.require_store()
        with self.store.write_lock():
            self.store.check_writable()
            dirty = self.store.git.out(["status", "--porcelain", "--untracked-files=no"])
            if dirty:
                raise StoreError(
                    "the store has uncommitted changes (`git status` shows them): commit or "
                    "discard them before a purge rewrites history"
                )
            records: dict[str, Record] = {}
            for ref in refs:
                try:
                    record = self._load_or_stub(self.resolve(ref))
                except NotFound:
                    record = find_forgotten(self.store, ref)[2]
                records.setdefault(record.id, record)
            paths = sorted({p for i in records for p in history_paths(self.store, i)})
            result = rewrite(self.store, list(records), paths)
            self.rebuild_index_file()
        return list(records.values()), result

    def rebuild_index_file(self) -> None:
        """A new index file, not just new tables: freed pages of the old one keep old text."""
        with contextlib.suppress(IndexUnavailable):  # a directory there: nothing to clear
            self._discard_index()
        self.sync(full=True)

    def check_key_free(self, record: Record) -> None:
        """Refuse a key another memory already has: a key names one memory."""
        from memcli.core.errors import InvalidInput

        key = record.key
        if not key:
            return
        others = [e for e in self.read(lambda index: index.with_key(key)) if e.id != record.id]
        if others:
            raise InvalidInput(
                f"the key {key!r} is already used by {others[0].id} ({others[0].title}); "
                "a key names one memory: choose another"
            )

    def _entry_for_key(self, key: str) -> Entry | None:
        from memcli.core.model import check_key

        return self.read(lambda index: index.by_key(check_key(key)))

    def _load_or_stub(self, entry: Entry) -> Record:
        from memcli.core.model import Observation

        try:
            return self.load(entry)
        except InvalidMemoryFile:
            return Observation(
                id=entry.id, type=entry.type, title=entry.title, created=entry.created
            )

    def _commit_files(self, writes: dict[str, str], removals: list[str], message: str) -> str:
        """Write and delete files, commit them, and tell the index; undo the files on failure."""
        backups = {path: self._backup(path) for path in [*writes, *removals]}
        # Current with the parent, so that the commit applies without a diff.
        index = None if self.index_deferred else self.index()
        parent = self.store.head()
        try:
            crash_point("lock-held")
            for path, content in writes.items():
                self.store.write_file(path, content.encode("utf-8"))
            for path in removals:
                self.store.remove_file(path)
            crash_point("files-written")
            commit = self.store.commit(list(writes), removals, message)
        except BaseException:
            for path, old in backups.items():
                if old is None:
                    self.store.remove_file(path)
                else:
                    self.store.write_file(path, old)
            raise
        if index is None:
            return commit
        known: dict[str, tuple[Record, str] | None] = {path: None for path in removals}
        for path in writes:
            known[path] = self.store.load(path)
        try:
            index.refresh(self.store, self.notify, known=(parent, known))
        except (IndexCorrupt, IndexUnavailable) as exc:
            # The commit is the truth; the next read brings the index up to date.
            self.notify(f"saved, but the index was not updated: {exc}")
        return commit

    def _backup(self, path: str) -> bytes | None:
        try:
            return self.store.resolve(path).read_bytes()
        except FileNotFoundError:
            return None


def _without_private(path: str, text: str) -> str:
    """A memory file's text with its ``<private>`` spans removed from every field.

    The file is written again from its fields only when it holds such a span;
    an invalid file is left for the caller to refuse.
    """
    from memcli.core.model import without_private
    from memcli.store.files import parse_memory_file

    if "<private>" not in text.lower():
        return text
    try:
        record = parse_memory_file(path, text.encode("utf-8"))
    except (InvalidMemoryFile, UnicodeEncodeError):
        return text
    visible = without_private(record)
    return text if visible == record else visible.to_markdown()


def _screened(observation: Observation, old: Observation | None, policy: Policy) -> Observation:
    """``observation`` once its likely secrets (new since ``old``) are dealt with."""
    from memcli.core.secrets import scan_fields

    before = scan_fields(_secret_fields(old)) if old is not None else []
    fields = _secret_fields(observation)
    screened = _screen(fields, before, policy)
    if screened == fields:
        return observation
    return observation.replace(narrative=screened.pop("text"), **screened)


def _secret_fields(observation: Observation) -> dict[str, Any]:
    """The fields a secret could hide in, named as ``mem save`` names them."""
    return {
        "title": observation.title,
        "text": observation.narrative,
        "facts": observation.facts,
        "concepts": observation.concepts,
        "session": observation.session,
    }


def _screen(fields: dict[str, Any], before: list[Finding], policy: Policy) -> dict[str, Any]:
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


def _commit_message(verb: str, records: list[Record]) -> str:
    """``save: gotcha: FTS5 MATCH rejects bare hyphens`` plus a Memory-Id trailer each."""

    def label(record: Record) -> str:
        return f"{record.type}: " if record.kind == "observation" else ""

    if len(records) == 1:
        record = records[0]
        title = record.title
        if len(title) > SUBJECT_TITLE_CHARS:
            title = title[: SUBJECT_TITLE_CHARS - 1].rstrip() + "…"
        subject = f"{verb}: {label(record)}{title}"
        body = ""
    else:
        subject = f"{verb}: {len(records)} memories"
        body = "".join(f"- {label(r)}{r.title}\n" for r in records) + "\n"
    trailers = "".join(f"Memory-Id: {record.id}\n" for record in records)
    return f"{subject}\n\n{body}{trailers}"
