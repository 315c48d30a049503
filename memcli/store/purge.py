"""Forgetting for real: a memory removed from the store's whole git history.

``git fast-export --no-data`` streams the history as commits and file
operations that name blobs by id; mem drops the operations on the memory's
files (every path it ever had), drops the commits left with nothing to do,
takes the memory's ``Memory-Id`` trailer and list line out of the messages of
commits it shared with other memories, and feeds the stream back to ``git
fast-import``. Commits before the first one that touched the memory come out
identical, with the same ids; later ones keep their authors, dates, messages
and trees, and get new ids only because their parents changed. Reflogs are
expired and unreachable objects pruned, so the memory's text is gone from the
repository, not just hidden.

Remote-tracking refs would keep the old history reachable: they are recorded
in ``.git/mem-purge-lease`` (what the remote had, for ``mem sync
--force-with-lease``) and deleted. ``.git/mem-purge-pending`` marks a purge
under way until the old history is pruned; ``mem doctor --fix`` finishes a
purge a crash interrupted.

Every purge also commits the ids it removed to ``purged.txt`` (ids only,
never text), so that the purge travels with the history: ``mem sync`` in a
clone that still holds a memory the remote's ``purged.txt`` lists rewrites
its own history the same way before rebasing, and no sync pushes a commit
that brings a purged memory back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from memcli.core import journal
from memcli.core.crashpoints import crash_point
from memcli.core.errors import InvalidMemoryFile, StoreError
from memcli.store.files import MEMORY_DIRS, PURGED_FILE, Store, is_memory_path, parse_memory_file

LEASE_FILE = "mem-purge-lease"
TOMBSTONE = PURGED_FILE
TOMBSTONE_HEADER = (
    "# Memories removed from the whole history with `mem forget --purge`, one id a line.\n"
    "# mem refuses to bring any of them back: keep this file.\n"
)
_ULID_RE = re.compile(r"[0-9A-Z]{26}")
PENDING_FILE = "mem-purge-pending"
FILE_OPS = (b"M ", b"D ")
_ESCAPE_RE = re.compile(rb"\\(?:([0-7]{3})|(.))", re.DOTALL)
_ESCAPES = {
    b"n": b"\n",
    b"t": b"\t",
    b"a": b"\a",
    b"b": b"\b",
    b"f": b"\f",
    b"v": b"\v",
    b"r": b"\r",
}


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
            if data is not None and _holds(change.path, data, identity):
                paths.add(change.path)
    return sorted(paths)


def _holds(path: str, data: bytes, identity: str) -> bool:
    try:
        return parse_memory_file(path, data).id == identity
    except InvalidMemoryFile:
        return f"\nid: {identity}".encode() in data  # a broken version still counts


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
    stream = _Stream(exported)
    commands = list(stream.commands())
    labels = _list_lines(store, commands, set(paths))
    rewritten = _Rewriter(set(paths), ids, labels, result).run(commands)
    store.git.run(["fast-import", "--force", "--quiet"], input=rewritten)
    crash_point("purge-imported")
    finish(store)
    result.left = verify_gone(store, ids)
    return result


# ------------------------------------------------------------ the tombstone


def purged_ids(store: Store, rev: str = "HEAD") -> set[str]:
    """The ids ``purged.txt`` lists at ``rev`` (none when it has no such file)."""
    data = store.git.cat_file_batch([f"{rev}:{TOMBSTONE}"]).get(f"{rev}:{TOMBSTONE}", b"")
    return set(_ULID_RE.findall(data.decode("ascii", "replace")))


def _record(store: Store, ids: list[str]) -> None:
    """Commit the purged ids to ``purged.txt``, the purge's trace in the shared history."""
    listed = purged_ids(store)
    new = [i for i in ids if i not in listed]
    if not new:
        return
    lines = sorted(listed | set(new))
    (store.root / TOMBSTONE).write_text(
        TOMBSTONE_HEADER + "".join(f"{i}\n" for i in lines), encoding="utf-8"
    )
    store.commit([TOMBSTONE], [], journal.purge_message(new))


def _introducing(store: Store, ids: set[str], commits: str) -> list[tuple[str, str]]:
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
            held = next((i for i in sorted(ids) if _holds(change.path, data, i)), None)
            if held is not None:
                found.append((commit, held))
    return found


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
    back = _introducing(store, remote_ids | purged_ids(store), f"HEAD..{tracking}")
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


def refuse_purged(store: Store, upstream: str | None) -> None:
    """Before a sync pushes: no commit to push may bring back a memory ``purged.txt`` lists."""
    ids = purged_ids(store)
    commits = f"refs/remotes/{upstream}..HEAD" if upstream else "HEAD"
    back = _introducing(store, ids, commits)
    if back:
        commit, identity = back[0]
        raise StoreError(
            f"commit {commit[:10]} brings back {identity}, a memory purged from the store's "
            f"history ({TOMBSTONE} lists it), so nothing was pushed: `mem forget --purge "
            f"{identity}`, then sync again"
        )


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
    if "applied" not in marker:
        _record(store, [i for i in marker if _ULID_RE.fullmatch(i)])
    pending_path(store).unlink(missing_ok=True)


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


# ------------------------------------------------------------------ the stream


@dataclass
class _Command:
    """One command of a fast-export stream: its lines, and its message for commits."""

    kind: bytes
    ref: bytes
    lines: list[bytes]
    message: bytes | None = None


class _Stream:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    def _line(self) -> bytes | None:
        if self.position >= len(self.data):
            return None
        end = self.data.find(b"\n", self.position)
        end = len(self.data) if end < 0 else end
        line = self.data[self.position : end]
        self.position = end + 1
        return line

    def commands(self) -> Iterator[_Command]:
        current: _Command | None = None
        while (line := self._line()) is not None:
            if line.startswith(b"data "):
                size = int(line[5:])
                message = self.data[self.position : self.position + size]
                self.position += size
                if self.data[self.position : self.position + 1] == b"\n":
                    self.position += 1
                if current is None:
                    raise StoreError("git fast-export produced data outside a command")
                current.message = message
                continue
            kind, _, rest = line.partition(b" ")
            if kind in (b"commit", b"reset", b"tag", b"blob", b"feature", b"done"):
                if current is not None:
                    yield current
                current = _Command(kind, rest, [])
            elif line and current is not None:
                current.lines.append(line)
        if current is not None:
            yield current


def _op_path(line: bytes) -> bytes | None:
    """The path a file operation names, unquoted (fast-export without -M/-C gives M and D)."""
    if line.startswith(b"M "):
        return _unquote(line.split(b" ", 3)[3])
    if line.startswith(b"D "):
        return _unquote(line[2:])
    return None


def _unquote(path: bytes) -> bytes:
    """A path as git writes it, C-quoted when it holds special characters."""
    if not path.startswith(b'"'):
        return path
    return _ESCAPE_RE.sub(_unescape, path[1:-1])


def _unescape(match: re.Match[bytes]) -> bytes:
    octal, char = match.groups()
    if octal:
        return bytes([int(octal, 8)])
    return _ESCAPES.get(char, char)


def _list_lines(store: Store, commands: list[_Command], paths: set[str]) -> set[bytes]:
    """``- type: title`` lines naming the purged memories in multi-memory messages."""
    targets = {p.encode() for p in paths}
    blobs = {
        line.split(b" ", 3)[2].decode()
        for command in commands
        if command.kind == b"commit"
        for line in command.lines
        if _op_path(line) in targets and line.startswith(b"M ")
    }
    labels: set[bytes] = set()
    for data in store.git.cat_file_batch(sorted(blobs)).values():
        for path in paths:
            try:
                record = parse_memory_file(path, data)
            except InvalidMemoryFile:
                continue
            labels.add(journal.list_line(record).encode())
            break
    return labels


class _Rewriter:
    def __init__(self, paths: set[str], ids: list[str], labels: set[bytes], result: Purged):
        self.targets = {p.encode() for p in paths}
        self.trailers = {line.encode() for line in journal.memory_id_trailers(ids).splitlines()}
        self.labels = labels
        self.result = result
        self.replaced: dict[bytes, bytes | None] = {}
        """Marks of dropped commits, and the mark (or None) that stands in for each."""
        self.tips: dict[bytes, bytes | None] = {}

    def _mapped(self, mark: bytes) -> bytes | None:
        while mark in self.replaced:
            substitute = self.replaced[mark]
            if substitute is None:
                return None
            mark = substitute
        return mark

    def run(self, commands: list[_Command]) -> bytes:
        out: list[bytes] = []
        for command in commands:
            if command.kind == b"commit":
                out += self._commit(command)
            else:
                out += self._other(command)
        for ref, tip in self.tips.items():
            if tip is not None:
                out += [b"reset " + ref, b"from " + tip, b""]
        return b"\n".join(out) + b"\n"

    def _other(self, command: _Command) -> list[bytes]:
        lines = [command.kind + (b" " + command.ref if command.ref else b"")]
        for line in command.lines:
            if line.startswith(b"from "):
                target = self._mapped(line[5:])
                if target is None:
                    return []  # it pointed at a commit that no longer exists
                line = b"from " + target
            lines.append(line)
        if command.message is not None:
            lines += [b"data %d" % len(command.message), command.message]
        return [*lines, b""]

    def _commit(self, command: _Command) -> list[bytes]:
        mark = next((ln[5:] for ln in command.lines if ln.startswith(b"mark ")), None)
        parents = [
            ln.split(b" ", 1)[1] for ln in command.lines if ln.startswith((b"from ", b"merge "))
        ]
        ops = [ln for ln in command.lines if ln[:2] in FILE_OPS]
        kept_ops = [ln for ln in ops if _op_path(ln) not in self.targets]
        mapped = [self._mapped(p) for p in parents]
        first = mapped[0] if mapped else None
        if ops and not kept_ops and len(parents) <= 1:
            if mark is not None:
                self.replaced[mark] = first
            self.tips[command.ref] = first
            self.result.dropped += 1
            return []
        if len(kept_ops) < len(ops):
            self.result.changed += 1
        self.tips.pop(command.ref, None)
        lines = [b"reset " + command.ref] if parents and first is None else []
        lines.append(b"commit " + command.ref)
        merges = [m for m in dict.fromkeys(mapped[1:]) if m is not None and m != first]
        message = self._scrubbed(command.message or b"")
        for line in command.lines:
            if line.startswith((b"from ", b"merge ")) or line[:2] in FILE_OPS:
                continue
            lines.append(line)
        lines += [b"data %d" % len(message), message]
        if first is not None:
            lines.append(b"from " + first)
        lines += [b"merge " + m for m in merges]
        return [*lines, *kept_ops, b""]

    def _scrubbed(self, message: bytes) -> bytes:
        """The message without the purged memories' trailers and list lines."""
        return journal.without_memories(message, self.trailers, self.labels)
