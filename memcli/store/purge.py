"""Forgetting for real: a memory removed from the store's whole git history.

``git fast-export --no-data`` streams the history as commits and file
operations that name blobs by id; mem drops the operations on the memory's
files (every path it ever had), drops the commits left with nothing to do,
takes the memory's ``Memory-Id`` trailer and list line out of the messages of
commits it shared with other memories, and feeds the stream back to ``git
fast-import`` (:mod:`memcli.store.fast_export`). Commits before the first one
that touched the memory come out identical, with the same ids; later ones keep
their authors, dates, messages and trees, and get new ids only because their
parents changed. Reflogs are expired and unreachable objects pruned, so the
memory's text is gone from the repository, not just hidden; so are the
texts of refused ``mem edit`` sessions kept for it. Expiring reflogs would
drop git's stash entries too, so a purge is refused while the stash holds any.

Remote-tracking refs would keep the old history reachable: they are recorded
in ``.git/mem-purge-lease`` (what the remote had, for ``mem sync
--force-with-lease``) and deleted. ``.git/mem-purge-pending`` marks a purge
under way until the old history is pruned; ``mem doctor --fix`` finishes a
purge a crash interrupted.

Every purge also commits the ids it removed to ``purged.txt`` (ids only,
never text; :mod:`memcli.store.tombstone`), so that the purge travels with the
history: ``mem sync`` in a clone that still holds a memory the remote's
``purged.txt`` lists rewrites its own history the same way before rebasing
(:func:`apply_fetched_purges`), and no sync pushes a commit that brings a
purged memory back.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from memcli.core import journal
from memcli.core.crashpoints import crash_point
from memcli.core.errors import StoreError
from memcli.core.ids import ULID_RE
from memcli.store.fast_export import Rewriter, Stream, list_lines
from memcli.store.files import MEMORY_DIRS, Store, is_memory_path
from memcli.store.tombstone import holds, introducing, purged_ids, record_purge

LEASE_FILE = "mem-purge-lease"
PENDING_FILE = "mem-purge-pending"
KEPT_EDITS = "edits"
"""The folder of ``.cache`` where ``mem edit`` keeps text it could not commit."""


@dataclass
class Purged:
    ids: list[str]
    paths: list[str]
    changed: int = 0
    """Commits that held the memory and were kept without it."""
    dropped: int = 0
    """Commits that did nothing but change the memory, removed."""
    lease: dict[str, str] = field(default_factory=dict)
    """Remote-tracking refs and what they pointed to: the remotes that still hold it."""
    left: str | None = None
    """Why the purged memories are not gone from every object (None: they are)."""


def lease_path(store: Store) -> Path:
    return store.git.git_dir / LEASE_FILE


def read_lease(store: Store) -> dict[str, str]:
    """Remote branches as they were before a purge not yet pushed (``{}`` when none)."""
    try:
        data = json.loads(lease_path(store).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise StoreError(f"{lease_path(store)} is unreadable ({exc}); delete it") from None
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def history_paths(store: Store, identity: str) -> list[str]:
    """Every path at which the memory ``identity`` was ever committed, on any ref."""
    from memcli.store.history import RAW_LOG, raw_log

    out = store.git.run(["log", "--all", *RAW_LOG, "-S", identity, "--", *MEMORY_DIRS]).stdout
    # A rename is a deletion and an addition (--no-renames): both paths are found.
    changes = [c for _, found in raw_log(out) for c in found if is_memory_path(c.path)]
    blobs = store.git.cat_file_batch(sorted({b for c in changes for b in (c.old, c.new)}))
    paths: set[str] = set()
    for change in changes:
        for blob in (change.old, change.new):
            data = blobs.get(blob)
            if data is not None and holds(change.path, data, identity):
                paths.add(change.path)
    return sorted(paths)


def rewrite(store: Store, ids: list[str], paths: list[str], *, applied: bool = False) -> Purged:
    """Take ``paths`` (the memories ``ids``) out of every commit on every local ref.

    Crash-safe in this order: a marker says a purge is under way; the files
    leave the work tree and git's index first (a crash then leaves an
    uncommitted deletion, never a file that ``doctor --fix`` would commit
    back); ``fast-import`` moves the refs; ``finish`` prunes, and ``mem doctor
    --fix`` runs it again when the marker outlived a crash.

    ``applied``: the purge was made in another clone and fetched; the remote
    already lacks the memories, so its refs stay and no tombstone is added.
    """
    if store.git.run(["rev-parse", "--verify", "--quiet", "refs/stash"], check=False).stdout:
        raise StoreError(
            "git's stash holds uncommitted work (`git stash list` shows it), which a purge "
            "would destroy (it expires every reflog, the stash's too): apply or drop the "
            "stash entries first (`git stash pop`, or `git stash drop`); nothing was changed"
        )
    result = Purged(ids=ids, paths=paths)
    marker = "".join(f"{i}\n" for i in ids) + ("applied\n" if applied else "")
    pending_path(store).write_text(marker, encoding="utf-8")
    if not applied:
        result.lease = _set_aside_remote_refs(store)
    present = [p for p in paths if store.resolve(p).exists()]
    if present:
        store.git.run(["update-index", "--force-remove", "-z", "--stdin"], input="\0".join(present))
        for path in present:
            store.remove_file(path)
    exported = store.git.run(
        ["fast-export", "--all", "--no-data", "--signed-tags=strip", "--reencode=no"]
    ).stdout
    commands = list(Stream(exported).commands())
    labels = list_lines(store, commands, set(paths))
    rewriter = Rewriter(set(paths), ids, labels)
    rewritten = rewriter.run(commands)
    result.changed, result.dropped = rewriter.changed, rewriter.dropped
    store.git.run(["fast-import", "--force", "--quiet"], input=rewritten)
    crash_point("purge-imported")
    finish(store)
    result.left = verify_gone(store, ids)
    return result


def apply_fetched_purges(store: Store, upstream: str) -> list[str]:
    """Before a sync rebases onto ``upstream``: purge here what was purged there.

    The memories the remote's ``purged.txt`` lists and this store's does not
    are taken out of the local history with the same rewrite; the index is
    dropped, to be rebuilt without them. Refuses, changing nothing, when the
    work tree has uncommitted changes (the rewrite resets it) or when the
    remote itself holds a memory it lists as purged. The caller holds the
    write lock.
    """
    tracking = f"refs/remotes/{upstream}"
    remote_ids = purged_ids(store, tracking)
    back = introducing(store, remote_ids | purged_ids(store), f"HEAD..{tracking}")
    if back:
        commit, identity = back[0]
        raise StoreError(
            f"{upstream} holds the purged memory {identity} again (commit {commit[:10]}, "
            "pushed without mem): purge it there first (`mem forget --purge` in a clone that "
            "has it, then `mem sync --force-with-lease`); nothing was changed here"
        )
    new = sorted(remote_ids - purged_ids(store))
    if not new:
        return []
    paths = sorted({p for i in new for p in history_paths(store, i)})
    if not paths:
        return []
    dirty = store.git.out(["status", "--porcelain", "--untracked-files=no"])
    if dirty:
        raise StoreError(
            f"{upstream} purged {', '.join(new)} from its history, and the store has "
            "uncommitted changes (`git status` shows them) that applying the purge here would "
            "reset: commit or discard them, then sync again"
        )
    result = rewrite(store, new, paths, applied=True)
    for suffix in ("", "-wal", "-shm", "-journal"):  # freed pages keep old text
        Path(f"{store.index_path}{suffix}").unlink(missing_ok=True)
    if result.left:
        raise StoreError(result.left)
    return [f"applied the purge of {i} made on {upstream}" for i in new]


def verify_gone(store: Store, ids: list[str]) -> str | None:
    """Read every object of the repository: none may still hold a purged memory.

    A memory is recognised by its ``id:`` line, in a blob (its file, or a
    copy of it anywhere) or in a commit message (its ``Memory-Id`` trailer).
    """
    import subprocess

    from memcli.store.git import clean_env

    pattern = re.compile(
        rb"(?:^|\n)(?:id|"
        + journal.MEMORY_ID.encode()
        + rb"): *[\"']?("
        + b"|".join(i.encode() for i in ids)
        + rb")\b"
    )
    process = subprocess.Popen(
        ["git", "cat-file", "--batch-all-objects", "--unordered", "--batch"],
        cwd=store.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=clean_env(),
    )
    assert process.stdout is not None
    found: tuple[str, str, str] | None = None
    with process:
        while header := process.stdout.readline():
            oid, kind, size = header.decode("ascii", "replace").split()
            data = process.stdout.read(int(size) + 1)
            match = pattern.search(data) if kind in ("blob", "commit", "tag") else None
            if match and found is None:
                found = (kind, oid, match.group(1).decode())
    if found is None:
        kept = kept_edits(store, ids)
        if kept:
            return (
                f"the purge could not delete {kept[0]}, the text of an edit of a purged "
                "memory kept there: delete it"
            )
        return None
    kind, oid, identity = found
    return (
        f"the purge could not take {identity} out of the store: the {kind} {oid} still "
        f"holds it (`git log --all --find-object={oid}` shows where, perhaps a copy "
        "outside the memory folders); history was rewritten, but do not share it until "
        "that is gone too"
    )


def pending_path(store: Store) -> Path:
    return store.git.git_dir / PENDING_FILE


def finish(store: Store) -> None:
    """Make the old history unreachable and prune it, record the purge; the marker goes last."""
    # git's index and the work tree follow HEAD, without writing ORIG_HEAD (it would
    # keep the old history reachable).
    store.git.run(["read-tree", "-u", "--reset", "HEAD"])
    git_dir = store.git.git_dir
    # Files that may name the old history or the memory: the last commit message,
    # the previous HEAD, private indexes a crashed save left.
    for name in ("ORIG_HEAD", "FETCH_HEAD", "COMMIT_EDITMSG"):
        (git_dir / name).unlink(missing_ok=True)
    for private in git_dir.glob("mem-index.*"):
        private.unlink()
    # Split-index files name every path they held (a memory's file name holds its
    # title) and outlive the index for two weeks: write a whole index, drop them all.
    store.git.run(["update-index", "--no-split-index"])
    for shared in git_dir.glob("sharedindex.*"):
        shared.unlink()
    store.git.run(["update-index", "--split-index"])
    expire = ["reflog", "expire", "--expire=now", "--expire-unreachable=now", "--all"]
    store.git.run(expire)
    store.git.run(["gc", "--prune=now", "--quiet"])
    try:
        marker = pending_path(store).read_text(encoding="utf-8").split()
    except FileNotFoundError:
        marker = []
    for kept in kept_edits(store, [i for i in marker if ULID_RE.fullmatch(i)]):
        kept.unlink(missing_ok=True)
    if "applied" not in marker:
        record_purge(store, marker)
    pending_path(store).unlink(missing_ok=True)


def kept_edits(store: Store, ids: list[str]) -> list[Path]:
    """Texts of ``mem edit`` sessions kept for the memories ``ids`` (a commit was refused).

    ``mem edit`` keeps them as ``mem-edit-<id>-*.md`` in ``.cache/edits``, else
    in the temporary folder.
    """
    import tempfile

    folders = [store.cache_dir / KEPT_EDITS, Path(tempfile.gettempdir())]
    return sorted(
        path
        for folder in folders
        for identity in ids
        for path in folder.glob(f"mem-edit-{identity}-*.md")
    )


def _set_aside_remote_refs(store: Store) -> dict[str, str]:
    """Record and delete remote-tracking refs; keep what an unpushed purge recorded."""
    out = store.git.out(["for-each-ref", "--format=%(refname) %(objectname)", "refs/remotes"])
    refs = dict(line.split(" ", 1) for line in out.splitlines() if line)
    if not refs:
        return read_lease(store)
    # An unpushed earlier purge recorded refs it deleted; refs fetched since are newer.
    lease = {**read_lease(store), **refs}
    lease_path(store).write_text(json.dumps(lease, indent=1) + "\n", encoding="utf-8")
    stdin = "".join(f"delete {ref}\n" for ref in refs)
    store.git.run(["update-ref", "--stdin"], input=stdin)
    return lease
