"""``purged.txt``: the ids ``mem forget --purge`` removed from history, committed.

Ids only, never text, so that a purge travels with the history: every clone
learns from it which memories no mem may bring back. Here: reading it at a
revision, recording a purge in it, finding commits that bring a purged memory
back, and refusing to push them.
"""

from __future__ import annotations

import re

from memcli.core import journal
from memcli.core.errors import InvalidMemoryFile, StoreError
from memcli.store.files import MEMORY_DIRS, PURGED_FILE, Store, parse_memory_file

TOMBSTONE = PURGED_FILE
TOMBSTONE_HEADER = (
    "# Memories removed from the whole history with `mem forget --purge`, one id a line.\n"
    "# mem refuses to bring any of them back: keep this file.\n"
)
_ULID_RE = re.compile(r"[0-9A-Z]{26}")


def purged_ids(store: Store, rev: str = "HEAD") -> set[str]:
    """The ids ``purged.txt`` lists at ``rev`` (none when it has no such file)."""
    data = store.git.cat_file_batch([f"{rev}:{TOMBSTONE}"]).get(f"{rev}:{TOMBSTONE}", b"")
    return set(_ULID_RE.findall(data.decode("ascii", "replace")))


def record_purge(store: Store, ids: list[str]) -> None:
    """Commit the purged ids to ``purged.txt``, the purge's trace in the shared history.

    Anything in ``ids`` that is not an id is left out.
    """
    listed = purged_ids(store)
    new = [i for i in ids if _ULID_RE.fullmatch(i) and i not in listed]
    if not new:
        return
    lines = sorted(listed | set(new))
    (store.root / TOMBSTONE).write_text(
        TOMBSTONE_HEADER + "".join(f"{i}\n" for i in lines), encoding="utf-8"
    )
    store.commit([TOMBSTONE], [], journal.purge_message(new))


def holds(path: str, data: bytes, identity: str) -> bool:
    """Whether a version of a memory file is the memory ``identity``."""
    try:
        return parse_memory_file(path, data).id == identity
    except InvalidMemoryFile:
        return f"\nid: {identity}".encode() in data  # a broken version still counts


def introducing(store: Store, ids: set[str], commits: str) -> list[tuple[str, str]]:
    """(commit, id) for commits of the range ``commits`` that add a memory file of ``ids``."""
    if not ids:
        return []
    from memcli.store.history import RAW_LOG, raw_log

    regex = "|".join(sorted(ids))
    out = store.git.run(
        [
            "log",
            "--diff-filter=AM",
            *RAW_LOG,
            "--pickaxe-regex",
            "-S",
            regex,
            "--end-of-options",
            commits,
            "--",
            *MEMORY_DIRS,
        ]
    ).stdout
    found = []
    for commit, changes in raw_log(out):
        blobs = store.git.cat_file_batch([c.new for c in changes])
        for change in changes:
            data = blobs.get(change.new, b"")
            held = next((i for i in sorted(ids) if holds(change.path, data, i)), None)
            if held is not None:
                found.append((commit, held))
    return found


def refuse_purged(store: Store, upstream: str | None) -> None:
    """Before a sync pushes: no commit to push may bring back a memory ``purged.txt`` lists."""
    ids = purged_ids(store)
    commits = f"refs/remotes/{upstream}..HEAD" if upstream else "HEAD"
    back = introducing(store, ids, commits)
    if back:
        commit, identity = back[0]
        raise StoreError(
            f"commit {commit[:10]} brings back {identity}, a memory purged from the store's "
            f"history ({TOMBSTONE} lists it), so nothing was pushed: `mem forget --purge "
            f"{identity}`, then sync again"
        )
