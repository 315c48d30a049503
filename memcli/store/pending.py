"""A write's intent, kept until its commit exists, so that a crash is finished or undone.

Before a writer touches a file it records in the git folder what it is about
to do: the commit it starts from, its message, a digest of each file it
writes, the files it removes, and what each written file held before. The
record goes once the commit exists. A process killed in between (``kill -9``,
power loss) leaves it behind, and the next write to the store, under the
write lock, settles it before doing anything else:

- every file was written (whatever git had got to): the write is finished,
  committed with its own message, so a retried import or keyed save finds what
  the killed one stored instead of adding a copy beside it;
- some file was not: the files it did write are put back as they were, and
  the write never happened;
- the commit exists already (killed just after it): nothing is left to do.

In a team folder (the project's repository) a finished write is staged only,
never committed, even when it had asked for a commit or the write running now
commits: mem commits there only the paths of the write that asked, and the
outcome says when the recovered one is left for a person to commit.

Files changed since by someone else are never touched.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.core.errors import StoreError
from memcli.store.files import digest

if TYPE_CHECKING:
    from memcli.store.files import Store

PENDING_FILE = "mem-pending-write.json"
_VERSION = 1


def _path(store: Store) -> Path:
    return store.pending_dir / PENDING_FILE


def begin(
    store: Store,
    parent: str | None,
    message: str,
    writes: Mapping[str, bytes],
    removals: list[str],
    backups: Mapping[str, bytes | None],
) -> None:
    """Record what a write is about to do (durably: fsynced before any file is written)."""
    record = {
        "version": _VERSION,
        "parent": parent,
        "message": message,
        "commit": store.commit_writes,
        "writes": {path: digest(data) for path, data in writes.items()},
        "removals": removals,
        "backups": {
            path: None if old is None else base64.b64encode(old).decode("ascii")
            for path, old in backups.items()
            if path in writes
        },
    }
    target = _path(store)
    temp = target.with_name(f".{PENDING_FILE}.{os.getpid()}.tmp")
    try:
        with open(temp, "wb") as handle:
            handle.write(json.dumps(record).encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise StoreError(
            f"cannot write {target} ({exc.strerror}); nothing was written: make the store's "
            "git folder writable"
        ) from None


def end(store: Store) -> None:
    """The write is committed (or undone): forget its intent."""
    _path(store).unlink(missing_ok=True)


def exists(store: Store) -> bool:
    """Whether a write's intent is recorded (a write is running, or one was killed)."""
    return _path(store).exists()


def waiting(store: Store) -> str | None:
    """The first line of the message of a write a crash left half done, or None."""
    record = _load(store)
    if record is None:
        return None
    head = store.head()
    if _committed_since(store, head, record):
        return None  # killed just after its commit: nothing is left to do
    return str(record["message"]).split("\n", 1)[0]


def recover(store: Store) -> str | None:
    """Finish or undo a write a crash left half done; what was done, or None if none was.

    Callers hold the write lock.
    """
    record = _load(store)
    if record is None:
        return None
    subject = str(record["message"]).split("\n", 1)[0]
    head = store.head()
    if head != record["parent"] and store.own_repository:
        outcome = (
            f"an interrupted write ({subject}) was committed already"
            if head is not None and _is_its_commit(store, head, record)
            else f"an interrupted write ({subject}) was left as it is: the store moved on "
            "since (`mem doctor` lists uncommitted files)"
        )
    elif all(_holds(store, path, wanted) for path, wanted in record["writes"].items()):
        for path in record["removals"]:
            store.remove_file(path)
        left = store.finish_interrupted(
            list(record["writes"]),
            list(record["removals"]),
            record["message"],
            asked_commit=bool(record.get("commit", True)),
        )
        outcome = f"finished an interrupted write: {subject}{left}"
    else:
        _undo(store, record)
        outcome = f"undid an interrupted write: {subject}"
    _remove_temporaries(store, list(record["writes"]))
    end(store)
    return outcome


def _load(store: Store) -> dict[str, Any] | None:
    """The recorded intent; None when there is none (or it is not one mem can read)."""
    try:
        data = _path(store).read_bytes()
    except FileNotFoundError:
        return None
    try:
        record = json.loads(data)
    except ValueError:
        record = None
    if not isinstance(record, dict) or record.get("version") != _VERSION:
        end(store)  # never half written (it is renamed into place): not mem's, or stale
        return None
    return record


def _holds(store: Store, path: str, wanted: str) -> bool:
    """Whether the file at ``path`` is exactly what the write put there."""
    try:
        return digest(store.resolve_written(path).read_bytes()) == wanted
    except OSError:
        return False


def _undo(store: Store, record: dict[str, Any]) -> None:
    """Put back what the write changed before it was killed; nothing else.

    Nothing was staged yet: git is told only once every file is written.
    """
    for path, wanted in record["writes"].items():
        if not _holds(store, path, wanted):
            continue  # never written, or changed since by someone else
        old = record["backups"].get(path)
        if old is None:
            store.remove_file(path)
        else:
            store.write_file(path, base64.b64decode(old))


def _remove_temporaries(store: Store, paths: list[str]) -> None:
    """The temporary files the killed write left beside its paths (one listing a folder)."""
    folders: dict[Path, set[str]] = {}
    for path in paths:
        full = store.resolve_written(path)
        folders.setdefault(full.parent, set()).add(full.name)
    for folder, names in folders.items():
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for entry in entries:
            if entry.startswith(".") and entry.endswith(".tmp"):
                # .NAME.PID.RANDOM.tmp, as Store.write_file names them
                if entry[1:].rsplit(".", 3)[0] in names:
                    (folder / entry).unlink(missing_ok=True)


def _committed_since(store: Store, head: str | None, record: dict[str, Any]) -> bool:
    """Whether HEAD is the write's own commit. A team store's staged state is no commit:
    its write is settled by staging it again (which changes nothing when it was)."""
    return (
        store.own_repository
        and head != record["parent"]
        and head is not None
        and _is_its_commit(store, head, record)
    )


def _is_its_commit(store: Store, head: str, record: dict[str, Any]) -> bool:
    """Whether HEAD is the write's own commit (killed after the ref moved)."""
    shown = store.git.run(["show", "-s", "--format=%P%x00%B", head], check=False)
    parents, _, message = shown.stdout.decode("utf-8", "replace").partition("\0")
    return (
        parents.strip() == (record["parent"] or "")
        and message.strip() == str(record["message"]).strip()
    )
