"""The memory's history, read from git: the journal, and forgotten memories to restore.

mem's own commits carry a ``Memory-Id`` trailer for each memory they touch
(``memcli.core.journal`` builds and reads them), so history can be searched by
id even after a file was renamed or removed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from memcli.core import journal as messages
from memcli.core.errors import Ambiguous, InvalidInput, InvalidMemoryFile, NotFound
from memcli.core.model import Record
from memcli.store.files import MEMORY_DIRS, Store, name_problem, parse_memory_file

_RECORD_SEP, _FIELD_SEP, _END = "\x1e", "\x1f", "\x1d"
LOG_FORMAT = f"{_RECORD_SEP}%H{_FIELD_SEP}%aI{_FIELD_SEP}%an{_FIELD_SEP}%s{_FIELD_SEP}%b{_END}"


class JournalEntry(NamedTuple):
    commit: str
    date: str
    author: str
    action: str
    """save, update, forget, summarize, restore, edit, init, or ``hand edit``."""
    type: str
    title: str
    paths: list[str]
    ids: list[str]
    """The memories mem's commit names (its Memory-Id trailers); none for a hand edit."""

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


def journal(
    store: Store,
    *,
    limit: int = 20,
    since: str | None = None,
    follow: str | None = None,
    until: str | None = None,
) -> list[JournalEntry]:
    """Commits that changed memory files, newest first; ``follow``: one file, across renames;
    ``until``: committed then or before (git's ``--until``, to the second)."""
    args = [
        "-c",
        "core.quotePath=false",
        "log",
        f"-n{limit}",
        f"--format={LOG_FORMAT}",
        "--name-only",
    ]
    if since:
        args.append(f"--since={since}")
    if until:
        args.append(f"--until={until}")
    if follow:
        args += ["--follow", "--", follow]
    else:
        args += ["--", *MEMORY_DIRS]
    if store.git.head() is None:
        return []
    out = store.git.run(args).stdout.decode("utf-8", "replace")
    entries = []
    for record in out.split(_RECORD_SEP)[1:]:
        head, _, names = record.partition(_END)
        commit, date, author, subject, body = head.split(_FIELD_SEP, 4)
        paths = [line for line in names.splitlines() if line.strip()]
        action, kind, title = messages.parse_subject(subject)
        ids = messages.memory_ids(body)
        entries.append(JournalEntry(commit, date, author, action, kind, title, paths, ids))
    return entries


def find_forgotten(store: Store, ref: str) -> tuple[str, bytes, Record]:
    """A memory no longer in the work tree: its last path, its bytes, and what they hold.

    ``ref`` is an id, an id prefix, or a key (of the memory that held it last).
    mem's own commits are found by their ``Memory-Id`` trailer; a file deleted
    by hand is found by its name, which ends with the id's last six characters.
    """
    from memcli.core.schema import KEY_RE

    text = ref.strip()
    prefix = text.upper()
    by_id = len(prefix) >= 4 and prefix.isalnum()
    staged = _removed_since_head(
        store, lambda record: (by_id and record.id.startswith(prefix)) or record.key == text
    )
    if staged is not None:
        return staged
    if by_id:
        found = _forgotten_id(store, ref, prefix)
        if found is not None:
            return found
    if KEY_RE.fullmatch(text):
        found = _last_version(store, text, lambda record: record.key == text)
        if found is not None:
            return found
    raise NotFound(f"no forgotten memory with the id or key {ref!r} in the store's history")


def _removed_since_head(
    store: Store, wanted: Callable[[Record], bool]
) -> tuple[str, bytes, Record] | None:
    """A memory removed from git's index and not committed yet (a team store's forget)."""
    if store.git.head() is None:
        return None
    out = store.git.run(
        ["diff", "--cached", "--diff-filter=D", *RAW_LOG[1:], "HEAD", "--", *MEMORY_DIRS]
    ).stdout
    changes = [change for _, found in raw_log(b"\x1e\0" + out) for change in found]
    return _first_wanted(store, changes, wanted)


def _forgotten_id(store: Store, ref: str, prefix: str) -> tuple[str, bytes, Record] | None:
    """The forgotten memory whose id starts with ``prefix``; None if history has none."""
    out = store.git.run(
        ["log", "--all", "--format=%H%x1f%B%x1e", f"--grep={messages.memory_id_grep(prefix)}"]
    ).stdout.decode("utf-8", "replace")
    ids: set[str] = set()
    for message in out.split(_RECORD_SEP):
        ids.update(i for i in messages.memory_ids(message) if i.startswith(prefix))
    if len(ids) > 1:
        raise Ambiguous(
            f"{ref!r} matches several memories in history: "
            f"{', '.join(sorted(ids)[:5])}; give more characters"
        )
    identity = ids.pop() if ids else prefix
    if len(identity) == 26:
        found = _last_version(store, identity, lambda record: record.id == identity)
        if found is not None:
            return found
    from memcli.store.tombstone import purged_ids

    if any(i.startswith(prefix) for i in purged_ids(store)):
        raise NotFound(
            f"no forgotten memory with the id {ref!r}: it was purged from the store's "
            "history (purged.txt lists it) and cannot be restored"
        )
    return None


def _last_version(
    store: Store, needle: str, wanted: Callable[[Record], bool]
) -> tuple[str, bytes, Record] | None:
    """The newest deletion of a file holding ``needle`` whose memory is ``wanted``."""
    out = store.git.run(
        [
            "log",
            "--diff-filter=D",
            *RAW_LOG,
            "-S",
            needle,
            "--",
            *MEMORY_DIRS,
        ]
    ).stdout
    for _commit, changes in raw_log(out):
        found = _first_wanted(store, changes, wanted)
        if found is not None:
            return found
    return None


def _first_wanted(
    store: Store, changes: list[FileChange], wanted: Callable[[Record], bool]
) -> tuple[str, bytes, Record] | None:
    """The first removed file whose memory (as it was before) is ``wanted``."""
    blobs = store.git.cat_file_batch([c.old for c in changes])
    for change in changes:
        data = blobs.get(change.old)
        if data is None:
            continue
        try:
            record = parse_memory_file(change.path, data)
        except InvalidMemoryFile:
            continue
        if wanted(record):
            return change.path, data, record
    return None


RAW_LOG = ("--format=%x1e%H", "--raw", "--no-abbrev", "--no-renames", "-z")
"""``git log`` options for :func:`raw_log`: each commit, and its file changes with blob ids."""


class FileChange(NamedTuple):
    old: str
    """The blob before (all zeros for an added file)."""
    new: str
    """The blob after (all zeros for a deleted file)."""
    status: str
    path: str


def raw_log(out: bytes) -> list[tuple[str, list[FileChange]]]:
    """``git log`` output made with :data:`RAW_LOG`: each commit and the files it changed.

    With ``-z`` paths come as they are, never C-quoted (a tab, a quote or a
    newline in a file name is just a character of it), and blobs are named by
    id, never by ``REV:path`` (a path may hold the newline ``cat-file`` splits on).
    """
    records = []
    for record in out.split(b"\x1e")[1:]:
        commit, _, rest = record.partition(b"\0")
        fields = rest.lstrip(b"\n").split(b"\0")
        changes = []
        for meta, path in zip(fields[0::2], fields[1::2], strict=False):
            parts = meta.decode("ascii", "replace").split()
            if len(parts) != 5 or not parts[0].startswith(":"):
                continue
            name = path.decode("utf-8", "surrogateescape")
            changes.append(FileChange(parts[2], parts[3], parts[4][:1], name))
        records.append((commit.decode("ascii", "replace").strip(), changes))
    return records


# --------------------------------------------------------------------- diff

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
COMPARED_FIELDS = ("type", "title", "key", "importance", "session", "concepts", "files")


class MemoryChange(NamedTuple):
    id: str
    type: str
    title: str
    path: str
    fields: dict[str, tuple[Any, Any]]
    facts_added: list[str]
    facts_removed: list[str]
    narrative_diff: list[str]

    def to_json(self) -> dict[str, Any]:
        data = self._asdict()
        data["fields"] = {
            name: {"old": old, "new": new} for name, (old, new) in self.fields.items()
        }
        return data


class MemoryDiff(NamedTuple):
    old: str
    new: str
    added: list[Record]
    changed: list[MemoryChange]
    forgotten: list[Record]

    def to_json(self) -> dict[str, Any]:
        def brief(record: Record) -> dict[str, Any]:
            return {"id": record.id, "type": record.type, "title": record.title}

        return {
            "from": self.old,
            "to": self.new,
            "added": [brief(r) for r in self.added],
            "changed": [c.to_json() for c in self.changed],
            "forgotten": [brief(r) for r in self.forgotten],
        }


def commit_id(store: Store, rev: str) -> str:
    """The commit a revision given by a person names; never an option or a path for git."""
    shown = rev if len(rev) <= 80 else rev[:80] + "..."
    if not rev or rev.startswith("-") or any(c in rev for c in "\0\n\r"):
        raise InvalidInput(f"{shown!r} is not a revision of the store")
    result = store.git.run(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"],
        check=False,
    )
    oid = result.stdout.decode("ascii", "replace").strip()
    if result.returncode != 0 or not oid:
        raise InvalidInput(f"{shown!r} is not a revision of the store (no such commit)")
    return oid


def memory_diff(store: Store, old: str, new: str) -> MemoryDiff:
    """What the memory learned, changed and forgot between two revisions."""
    # A file whose name is not UTF-8 is no memory mem can read (the index skips it too).
    changes = [c for c in store.changes(old, new) if not name_problem(c.path)]
    wanted = [f"{old}:{p}" for s, p in changes if s != "A"]
    wanted += [f"{new}:{p}" for s, p in changes if s != "D"]
    blobs = store.git.cat_file_batch(wanted)
    before: dict[str, tuple[str, Record]] = {}
    after: dict[str, tuple[str, Record]] = {}
    for status, path in changes:
        for side, rev, target in (("old", old, before), ("new", new, after)):
            if (side == "old" and status == "A") or (side == "new" and status == "D"):
                continue
            data = blobs.get(f"{rev}:{path}")
            if data is None:
                continue
            try:
                record = parse_memory_file(path, data)
            except InvalidMemoryFile:
                continue
            target[record.id] = (path, record)
    added = [after[i][1] for i in after if i not in before]
    forgotten = [before[i][1] for i in before if i not in after]
    changed = [_compare(before[i][1], after[i][1], after[i][0]) for i in after if i in before]
    changed = [
        c for c in changed if c.fields or c.facts_added or c.facts_removed or c.narrative_diff
    ]
    return MemoryDiff(old, new, added, changed, forgotten)


def _compare(old: Record, new: Record, path: str) -> MemoryChange:
    import difflib

    fields = {
        name: (getattr(old, name), getattr(new, name))
        for name in COMPARED_FIELDS
        if getattr(old, name) != getattr(new, name)
    }
    narrative = [
        line.rstrip("\n")
        for line in difflib.unified_diff(
            old.narrative.splitlines(), new.narrative.splitlines(), lineterm="", n=1
        )
    ][2:]
    return MemoryChange(
        new.id,
        new.type,
        new.title,
        path,
        fields,
        [f for f in new.facts if f not in old.facts],
        [f for f in old.facts if f not in new.facts],
        narrative,
    )
