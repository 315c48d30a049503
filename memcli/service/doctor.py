"""Finding (and, where it is safe, repairing) what is wrong with a store.

Safe repairs: rebuild the index, remove temporary files a killed save left
behind, remove git's ``index.lock`` once it is old enough that no git command
can still hold it, and commit memory files that are valid but uncommitted.
Everything else is reported with what to do.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from memcli.core.errors import IndexUnavailable, InvalidMemoryFile
from memcli.service.memory import Memory
from memcli.store.files import CACHE_DIR, MEMORY_DIRS, is_memory_path, name_problem, shown_path

STALE_GIT_LOCK_SECONDS = 600
KNOWN_TOP_LEVEL = {
    ".git",
    ".gitignore",
    ".gitattributes",
    CACHE_DIR,
    *MEMORY_DIRS,
    "MEMORY.md",
    "notes",  # curated notes, searched by section
    "drafts",  # lesson drafts waiting for `mem review`: no memories
    "mem.toml",
    "purged.txt",  # ids mem forget --purge removed, so every clone removes them too
    "templates",
    "README.md",
    ".pre-commit-config.yaml",
}


@dataclass
class Checkup:
    problems: list[str] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    semantic: str = ""
    """One line: semantic search and its model, or why search is lexical only."""
    warnings: list[str] = field(default_factory=list)
    """Worth knowing, not wrong with the store (recent failures of background work)."""


def examine(memory: Memory, *, fix: bool) -> Checkup:
    store = memory.store
    memory.require_store()
    checkup = Checkup()
    _interrupted_write(memory, checkup, fix)
    ids: dict[str, list[str]] = {}
    keys: dict[str, list[str]] = {}
    replaces: dict[str, list[str]] = {}
    for path in store.memory_paths():
        try:
            record = store.parse(path, store.read_bytes(path))
        except InvalidMemoryFile as exc:
            checkup.problems.append(f"invalid file: {exc}")
            continue
        ids.setdefault(record.id, []).append(path)
        if getattr(record, "supersedes", None):
            replaces[record.id] = list(getattr(record, "supersedes", []))
        if record.key:
            keys.setdefault(record.key, []).append(path)
    for identity, paths in ids.items():
        if len(paths) > 1:
            checkup.problems.append(
                f"id {identity} is used by {len(paths)} files: "
                f"{', '.join(paths)}; give all but one a new id"
            )
    for key, paths in keys.items():
        if len(paths) > 1:
            checkup.problems.append(
                f"key {key!r} is used by {len(paths)} files: {', '.join(paths)}; "
                "`mem show` and `mem edit` pick one of them: give all but one another key "
                "(`mem edit ID --set key=NEW`)"
            )
    _supersede_loops(replaces, checkup)
    _temporary_files(memory, checkup, fix)
    _git_lock(memory, checkup, fix)
    _interrupted_purge(memory, checkup, fix)
    git_problem = store.git_state_problem()
    if git_problem:
        checkup.problems.append(git_problem)
    _uncommitted(memory, checkup, fix and not git_problem, _shared(ids, keys))
    _staged_for_review(memory, checkup)
    _outdated_hooks(memory, checkup, fix)
    _background_failures(checkup)
    for entry in sorted(store.root.iterdir()):
        if entry.name not in KNOWN_TOP_LEVEL:
            checkup.problems.append(
                f"{shown_path(entry.name)}: outside the memory folders (observations/, "
                "summaries/); mem ignores it"
            )
    table = _guard_table(memory, checkup, fix)
    try:
        drift = memory.check()
    except IndexUnavailable as exc:
        checkup.problems.append(str(exc))
        _semantic(memory, checkup)
        return checkup
    _semantic(memory, checkup)
    stale = len(drift.missing) + len(drift.extra) + len(drift.stale)
    stale += len(drift.vectors_missing) + len(drift.vectors_stale)
    if stale and fix:
        memory.reindex(full=True)
        checkup.fixed.append(f"rebuilt the index ({stale} entries differed from the files)")
    elif stale:
        checkup.problems.append(
            f"the index differs from the files in {stale} places (`mem reindex --full` repairs it)"
        )
    _never_matching_guards(table, checkup)
    return checkup


def _guard_table(memory: Memory, checkup: Checkup, fix: bool) -> str:
    """The layer's guard table checked before a refresh rewrites it; its path."""
    from memcli.service.guard_checks import table_problem
    from memcli.service.guard_table import table_path

    path = table_path(memory.store.cache_dir)
    state = memory.guard_state()
    if state is None:
        return path
    problem, damaged = table_problem(path, state)
    if problem is None:
        return path
    if damaged and fix:
        memory.refresh_index()  # a refresh rewrites a damaged table
        checkup.fixed.append("rewrote the damaged guard table from the index")
    elif damaged:
        checkup.problems.append(problem)
    else:
        checkup.warnings.append(problem)
    return path


def _never_matching_guards(path: str, checkup: Checkup) -> None:
    from memcli.core import guard_table
    from memcli.service.guard_checks import never_matching

    try:
        table = guard_table.read(path)
    except guard_table.Damaged:
        return  # said above
    if table is not None:
        checkup.problems += never_matching(table.rows, os.getcwd())


def _supersede_loops(replaces: dict[str, list[str]], checkup: Checkup) -> None:
    """Memories whose ``supersedes`` replace each other in a loop (written by hand)."""
    from memcli.core.loops import loops

    for members in loops(replaces):
        checkup.problems.append(
            f"supersede loop: {', '.join(members)} supersede each other, so none of them is "
            "retired (each is shown); remove the loop from their supersedes "
            "(`mem edit ID --set supersedes=...` on one of them)"
        )


def _shared(ids: dict[str, list[str]], keys: dict[str, list[str]]) -> dict[str, str]:
    """Path -> why it cannot be committed: its id or key is another file's too."""
    shared: dict[str, str] = {}
    clashes = [(f"key {k!r}", paths, "another key") for k, paths in keys.items()]
    clashes += [(f"id {i}", paths, "a new id (or delete the copy)") for i, paths in ids.items()]
    for what, paths, remedy in clashes:
        for path in paths if len(paths) > 1 else ():
            others = ", ".join(p for p in paths if p != path)
            shared[path] = (
                f"its {what} is also used by {others}; give one of them {remedy} "
                "by editing the file, then run `mem doctor --fix` again"
            )
    return shared


def _semantic(memory: Memory, checkup: Checkup) -> None:
    """The semantic status line; a model named in mem.toml that cannot be used is a problem."""
    from memcli.core import config
    from memcli.semantic import model_report

    report = model_report(memory.store.root, config.load(memory.store.root))
    checkup.semantic = report.reason
    if report.problem:
        checkup.problems.append(report.reason)


def _background_failures(checkup: Checkup) -> None:
    """How many hooks and background processes failed lately, the latest, and the log."""
    from memcli.core import failure_log

    found = failure_log.recent()
    if not found:
        return
    latest = found[-1]
    checkup.warnings.append(
        f"{len(found)} failure{'s' if len(found) > 1 else ''} of hooks or background work in "
        f"the last {failure_log.RECENT_DAYS} days; the latest, at {latest.time}: "
        f"{latest.source}: {latest.reason} (log: {failure_log.log_path()})"
    )


def _temporary_files(memory: Memory, checkup: Checkup, fix: bool) -> None:
    for folder in MEMORY_DIRS:
        for temp in sorted((memory.store.root / folder).rglob(".*.tmp")):
            relative = temp.relative_to(memory.store.root)
            if fix:
                temp.unlink()
                checkup.fixed.append(f"removed {relative}, left by an interrupted save")
            else:
                checkup.problems.append(f"{relative}: left by an interrupted save")


def _interrupted_write(memory: Memory, checkup: Checkup, fix: bool) -> None:
    """A save, edit or import killed before its commit: finished or undone with ``fix``."""
    from memcli.store import pending

    subject = pending.waiting(memory.store)
    if subject is None:
        return
    if fix and not memory.store.git_state_problem():
        outcome = memory.writer.settle()
        if outcome:
            checkup.fixed.append(outcome)
    else:
        checkup.problems.append(
            f"a write was interrupted ({subject}): the next write, or `mem doctor --fix`, "
            "finishes it or undoes it"
        )


def _interrupted_purge(memory: Memory, checkup: Checkup, fix: bool) -> None:
    from memcli.store import purge

    if not purge.pending_path(memory.store).exists():
        return
    if fix and not memory.store.git_state_problem():
        memory.writer.finish_purge()
        checkup.fixed.append("finished an interrupted purge: the old history is pruned")
    else:
        checkup.problems.append(
            "a `mem forget --purge` was interrupted: the old history may still hold what it "
            "removed (`mem doctor --fix` prunes it)"
        )


def _git_lock(memory: Memory, checkup: Checkup, fix: bool) -> None:
    lock = memory.store.git.git_dir / "index.lock"
    try:
        age = time.time() - lock.stat().st_mtime
    except FileNotFoundError:
        return
    if age < STALE_GIT_LOCK_SECONDS:
        checkup.problems.append(
            f"git's index.lock is held ({age:.0f} s old): a git command "
            "is running in the store, or just crashed"
        )
    elif fix:
        lock.unlink()
        checkup.fixed.append(f"removed git's stale index.lock ({age / 60:.0f} min old)")
    else:
        checkup.problems.append(
            f"git's index.lock is {age / 60:.0f} min old: a git command "
            "crashed; `mem doctor --fix` removes it"
        )


def _outdated_hooks(memory: Memory, checkup: Checkup, fix: bool) -> None:
    """mem's git hooks as an older mem wrote them: they start Python with the store's
    folder on its import path, so a file committed there could run as mem. Rewriting
    mem's own hooks is safe; a hook that is not mem's is never touched."""
    from memcli.store import githooks

    names = githooks.outdated(memory.store)
    if not names:
        return
    listed = ", ".join(names)
    if fix:
        githooks.install(memory.store, tuple(names))
        checkup.fixed.append(f"updated the git hooks an older mem installed ({listed})")
        return
    checkup.problems.append(
        f"git hooks installed by an older mem ({listed}) start Python from the store's "
        "folder, where a committed file could run as mem: `mem doctor --fix` or "
        "`mem hooks install` updates them"
    )


def _staged_for_review(memory: Memory, checkup: Checkup) -> None:
    """A team store's memories staged and not committed yet: its normal state, noted."""
    from memcli.store.team import TeamStore

    store = memory.store
    if isinstance(store, TeamStore):
        staged = store.staged_paths()
        if staged:
            checkup.warnings.append(
                f"{len(staged)} team memory file(s) staged for review, not committed yet: "
                f"{', '.join(staged[:5])}"
            )


def _uncommitted(memory: Memory, checkup: Checkup, fix: bool, shared: dict[str, str]) -> None:
    """Uncommitted memory files; ``fix`` commits the valid ones.

    Never one whose id or key another file holds (``shared``): the store's
    pre-commit hook refuses that commit, and so does doctor.
    """
    store = memory.store
    done = "committed" if store.own_repository else "staged"
    changed = store.unrecorded_paths()
    for path in changed:
        problem = name_problem(path)
        if problem:  # never committed by mem: git and the index need UTF-8 names
            checkup.problems.append(f"not {done}: {shown_path(path)}: {problem}")
    changed = [p for p in changed if not name_problem(p)]
    memory_files = [p for p in changed if is_memory_path(p)]
    others = [p for p in changed if not is_memory_path(p)]
    for path in others:
        checkup.problems.append(
            f"{path}: uncommitted change outside the memory files "
            f"({'commit' if store.own_repository else 'stage'} it with git, or discard it)"
        )
    if not memory_files:
        return
    if not fix:
        checkup.problems.append(
            f"{len(memory_files)} memory file(s) changed but not {done}: "
            f"{', '.join(memory_files[:5])} (`mem doctor --fix` "
            f"{'commits' if store.own_repository else 'stages'} the valid ones)"
        )
        return
    from memcli.core.secrets import added_to_file, report

    committed = store.git.cat_file_batch([f"HEAD:{path}" for path in memory_files])
    valid: dict[str, bytes] = {}
    removed, ids = [], []
    for path in memory_files:
        if not store.resolve(path).exists():
            removed.append(path)
            continue
        data = store.read_bytes(path)
        try:
            identity = store.parse(path, data).id
        except InvalidMemoryFile as exc:
            checkup.problems.append(f"not {done}, invalid: {exc}")
            continue
        if path in shared:
            checkup.problems.append(f"not {done}, {path}: {shared[path]}")
            continue
        secrets = added_to_file(path, data, committed.get(f"HEAD:{path}"))
        if secrets:
            checkup.problems.append(
                f"not {done}, {path} holds likely secrets: {report(secrets)}; remove them, "
                "or add it with git if they are not secrets"
            )
            continue
        ids.append(identity)
        valid[path] = data
    if valid or removed:
        memory.writer.commit_uncommitted(valid, removed, ids)
        checkup.fixed.append(
            f"{done} {len(valid) + len(removed)} un{done} memory file(s) "
            "(edits by hand, or interrupted saves)"
        )
