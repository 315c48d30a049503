"""Memories whose files changed in the project since the commit they were written at.

A memory with ``files`` and a ``project_commit`` may describe code that has moved
on. For each distinct commit, one ``git log --numstat`` over the files of the
memories written at it (bounded: a timeout, at most ``MAX_LOG_COMMITS`` commits)
says how much each file changed since (lines added and removed, commits) and
since when (the date of the first later change). A commit the project does not
know (history rewritten, another clone) is reported as such, never an error.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memcli.index import Entry
    from memcli.service.memory import Memory

GIT_TIMEOUT = 10.0
CONTEXT_GIT_TIMEOUT = 1.0
CONTEXT_MAX_COMMITS = 3
"""The session-start context asks git about at most this many distinct commits."""
MAX_LOG_COMMITS = 10_000
MAX_FILES_PER_CALL = 500


@dataclass
class FileChange:
    path: str
    added: int = 0
    removed: int = 0
    commits: int = 0
    since: str | None = None
    """The committer date of the first change after the memory's commit."""


@dataclass
class StaleMemory:
    entry: Entry
    commit: str
    status: str
    """``changed`` or ``unknown commit``."""
    changes: list[FileChange] = field(default_factory=list)

    def to_json(self, short_id: str) -> dict[str, Any]:
        return {
            "id": self.entry.id,
            "short_id": short_id,
            "type": self.entry.type,
            "title": self.entry.title,
            "path": self.entry.path,
            "project_commit": self.commit,
            "status": self.status,
            "files": [
                {
                    "path": c.path,
                    "added": c.added,
                    "removed": c.removed,
                    "commits": c.commits,
                    "since": c.since,
                }
                for c in self.changes
            ],
            "added": sum(c.added for c in self.changes),
            "removed": sum(c.removed for c in self.changes),
            "commits": max((c.commits for c in self.changes), default=0),
            "since": min((c.since for c in self.changes if c.since), default=None),
        }


def git_top(directory: Path, timeout: float = GIT_TIMEOUT) -> Path | None:
    """The top of the git work tree holding ``directory``, or None."""
    from memcli.capture.provenance import project_top

    return project_top(directory, timeout)


def in_git_work_tree(directory: Path) -> bool:
    """Whether ``directory`` or a parent has a ``.git`` (no subprocess: a cheap first test)."""
    try:
        here = directory.resolve()
    except OSError:
        return False
    return any((folder / ".git").exists() for folder in (here, *here.parents))


def stale_memories(
    memory: Memory,
    project: Path,
    entries: list[Entry] | None = None,
    *,
    timeout: float = GIT_TIMEOUT,
    max_commits: int | None = None,
) -> list[StaleMemory]:
    """The memories (all, or ``entries``) whose files changed in ``project`` since their commit.

    ``max_commits``: ask git about at most this many distinct commits (the
    memories written at others are left unchecked).
    """
    from memcli.core.errors import InvalidMemoryFile
    from memcli.index import Filters

    if entries is None:
        entries = memory.read(
            lambda index: index.recent(Filters(kind="observation"), limit=index.count() + 1)
        )
    by_commit: dict[str, list[tuple[Entry, list[str]]]] = {}
    for entry in entries:
        if not entry.files:
            continue
        try:
            record = memory.load(entry)
        except (InvalidMemoryFile, OSError):
            continue
        commit = getattr(record, "project_commit", None)
        if commit:
            by_commit.setdefault(commit, []).append((entry, list(record.files)))
    found: list[StaleMemory] = []
    for number, (commit, held) in enumerate(by_commit.items()):
        if max_commits is not None and number >= max_commits:
            break
        files = sorted({path for _, paths in held for path in paths})[:MAX_FILES_PER_CALL]
        changes = _changes_since(project, commit, files, timeout)
        for entry, paths in held:
            if changes is None:
                found.append(StaleMemory(entry, commit, "unknown commit"))
                continue
            changed = [changes[path] for path in paths if path in changes]
            if changed:
                found.append(StaleMemory(entry, commit, "changed", changed))
    found.sort(key=lambda item: item.entry.created, reverse=True)
    return found


def _changes_since(
    project: Path, commit: str, files: list[str], timeout: float
) -> dict[str, FileChange] | None:
    """Per file, what changed between ``commit`` and HEAD; None when git does not know it."""
    from memcli.store.git import run_project_git

    argv = [
        "git",
        "log",
        "--no-renames",
        "--numstat",
        f"--max-count={MAX_LOG_COMMITS}",
        "--format=%x00%cI",
        f"{commit}..HEAD",
        "--",
        *(f":(literal){path}" for path in files),
    ]
    try:
        done = run_project_git(argv, project, timeout)
    except subprocess.TimeoutExpired:
        return {}  # unknown how much: reported as unchanged rather than guessed
    except OSError:
        return {}
    if done.returncode != 0:
        return None  # an unknown revision (or no repository): the commit is not known here
    changes: dict[str, FileChange] = {}
    date: str | None = None
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith("\x00"):
            date = line[1:].strip() or None
            continue
        parts = line.split("\t", 2)
        if len(parts) != 3:
            continue
        added, removed, path = parts
        change = changes.setdefault(path, FileChange(path))
        change.added += int(added) if added.isdigit() else 0
        change.removed += int(removed) if removed.isdigit() else 0
        change.commits += 1
        change.since = date  # the log is newest first: the last one seen is the first change
    return changes


def stale_ids(
    memory: Memory, entries: list[Entry], project: Path | None, *, top: Path | None = None
) -> set[str]:
    """Which of ``entries`` (those the session-start context shows) have changed files.

    Bounded for the context: nothing at all unless one of them has files and the
    project is a git work tree; at most ``CONTEXT_MAX_COMMITS`` git calls of
    ``CONTEXT_GIT_TIMEOUT`` seconds each. ``top``: the work tree's top, when the
    caller knows it already (one git call less).
    """
    with_files = [entry for entry in entries if entry.files]
    if not with_files or project is None:
        return set()
    # The index knows which were written at a project commit: only those are looked at.
    commits = memory.read(lambda index: index.commits([entry.id for entry in with_files]))
    with_files = [entry for entry in with_files if entry.id in commits]
    if not with_files:
        return set()
    if top is None:
        if not in_git_work_tree(project):
            return set()
        top = git_top(project, CONTEXT_GIT_TIMEOUT)
    if top is None:
        return set()
    found = stale_memories(
        memory,
        top,
        with_files,
        timeout=CONTEXT_GIT_TIMEOUT,
        max_commits=CONTEXT_MAX_COMMITS,
    )
    return {item.entry.id for item in found if item.status == "changed"}
