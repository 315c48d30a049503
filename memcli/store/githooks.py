"""The store's own git hooks: validate memory files before a commit, reindex after.

Installed the way pre-commit installs its hooks: a thin shell shim that calls
mem, marked so mem recognises its own, with a foreign hook kept as
``<name>.legacy`` and run first. ``core.hooksPath`` is refused rather than
written to: such a folder often serves every repository of the user.

``pre-commit`` blocks a commit only for an invalid memory file, or one that
would add a likely secret to git history. The index is
brought up to date *after* the commit lands (``post-commit``), and after merges,
checkouts and rewrites, so it always records a commit that exists; trouble with
the index never blocks git.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from memcli.core.chunks import is_note_path
from memcli.core.errors import InvalidMemoryFile, StoreError
from memcli.core.ids import ULID_RE
from memcli.store.drafts import is_draft_path
from memcli.store.files import (
    CACHE_DIR,
    MAX_MEMORY_FILE_BYTES,
    MEMORY_DIRS,
    PURGED_FILE,
    Store,
    is_memory_path,
    name_problem,
    parse_memory_file,
    purged_problem,
    shown_path,
    too_large,
)

MARKER = "# mem-git-hook: 1c9e4d7a"
VALIDATING = ("pre-commit",)
REINDEXING = ("post-commit", "post-merge", "post-checkout", "post-rewrite")
HOOK_NAMES = VALIDATING + REINDEXING
SHIM = """\
#!/bin/sh
{marker}
# Installed by `mem hooks install`: {what}.
# `mem hooks uninstall` removes it (and puts back a hook it replaced).
here=$(dirname "$0")
if [ -x "$here/{name}.legacy" ]; then
    "$here/{name}.legacy" "$@" || exit $?
fi
{python} -P -m memcli git-hook {name} "$@"
status=$?
# 3 is mem refusing the commit; anything else (mem gone, Python gone) must not block git.
if [ "$status" -eq 3 ]; then
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "mem: {name} hook could not run ({python_shown} exited $status); git goes on" >&2
fi
exit 0
"""
SAFE_CALL = " -P -m memcli git-hook "
"""How the hook starts mem: ``-P`` keeps the store's folder off Python's import path."""
OUTDATED = "outdated: runs Python from the store's folder; `mem hooks install` updates it"
REFUSED = 3
"""The exit code of ``mem git-hook pre-commit`` refusing a commit."""


class HookState(NamedTuple):
    name: str
    state: str
    """``installed``, ``installed, runs the previous hook first``, ``OUTDATED``, ``foreign``
    or ``missing``."""


def hooks_dir(store: Store) -> Path:
    """The store's hooks folder; never the project's, for a team store (a folder of it)."""
    if not store.own_repository:
        raise StoreError(
            f"{store.root} is a folder of the project's repository: mem installs no git "
            "hooks there (they would run for every commit of the project)"
        )
    configured = store.git.run(["config", "--get", "core.hooksPath"], check=False)
    value = configured.stdout.decode("utf-8", "replace").strip()
    if configured.returncode == 0 and value:
        raise StoreError(
            f"git's core.hooksPath is set to {value} for the store; mem will not write there "
            "(it may serve other repositories). Call `mem git-hook pre-commit` from your hook "
            "manager, or unset core.hooksPath in the store"
        )
    return store.git.git_dir / "hooks"


def _ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def _outdated(path: Path) -> bool:
    """Whether a hook of mem's was written by an older mem, which ran ``python -m memcli``
    with the store's folder (where git runs hooks) first on the import path: a ``click.py``
    committed to the store would run in its place."""
    try:
        return SAFE_CALL not in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def outdated(store: Store) -> list[str]:
    """The names of mem's hooks in the store that an older mem wrote (``_outdated``)."""
    try:
        folder = hooks_dir(store)
    except StoreError:
        return []
    regular = [folder / name for name in HOOK_NAMES if (folder / name).is_file()]  # no FIFO
    return [path.name for path in regular if _ours(path) and _outdated(path)]


def install(store: Store, names: tuple[str, ...] = HOOK_NAMES) -> list[str]:
    """Install every hook (or those ``names``); returns what was done, one line each."""
    folder = hooks_dir(store)
    folder.mkdir(parents=True, exist_ok=True)
    python = shlex.quote(sys.executable)
    done = []
    for name in names:
        path = folder / name
        legacy = folder / f"{name}.legacy"
        if path.exists() and not _ours(path):
            if legacy.exists():
                raise StoreError(
                    f"{path} is not mem's and {legacy.name} exists already; "
                    "merge them by hand, then run `mem hooks install` again"
                )
            path.rename(legacy)
            done.append(f"kept the existing {name} hook as {legacy.name}; it runs first")
        what = "validates memory files" if name in VALIDATING else "brings mem's index up to date"
        path.write_text(
            SHIM.format(
                marker=MARKER, what=what, name=name, python=python, python_shown=sys.executable
            ),
            encoding="utf-8",
        )
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        done.append(f"installed {name}")
    return done


def uninstall(store: Store) -> list[str]:
    folder = hooks_dir(store)
    done = []
    for name in HOOK_NAMES:
        path = folder / name
        legacy = folder / f"{name}.legacy"
        if _ours(path):
            path.unlink()
            done.append(f"removed {name}")
            if legacy.exists():
                legacy.rename(path)
                done.append(f"put back the previous {name} hook")
    return done


def status(store: Store) -> list[HookState]:
    folder = hooks_dir(store)
    states = []
    for name in HOOK_NAMES:
        path = folder / name
        if _ours(path) and _outdated(path):
            states.append(HookState(name, OUTDATED))
        elif _ours(path):
            chained = (folder / f"{name}.legacy").exists()
            states.append(
                HookState(
                    name, "installed, runs the previous hook first" if chained else "installed"
                )
            )
        else:
            states.append(HookState(name, "foreign" if path.exists() else "missing"))
    return states


# ------------------------------------------------------------- running hooks


def staged_problems(
    store: Store,
    path_of: Callable[[str], str | None],
    holders: Callable[[str], list[tuple[str, str]]] | None = None,
) -> list[str]:
    """Every problem with the memory files staged for the commit being made.

    Reads the staged content, from the index git is committing (``GIT_INDEX_FILE``
    is kept: ``git commit -a`` stages into a temporary index). ``path_of`` tells
    where the store already keeps an id, so that a copy cannot reuse it;
    ``holders`` which memories (id, path) already hold a key, so that no second
    memory takes it.
    """
    env = {"GIT_INDEX_FILE": os.environ["GIT_INDEX_FILE"]} if "GIT_INDEX_FILE" in os.environ else {}
    out = store.git.run(
        ["diff", "--cached", "--name-status", "-z", "--no-renames"], env=env
    ).stdout.decode("utf-8", "surrogateescape")
    fields = out.split("\0")
    staged = {path: status for status, path in zip(fields[0::2], fields[1::2], strict=False)}
    link_paths = _staged_links(store, env)
    refused = [
        f"{shown_path(path)}: is a symbolic link; the store keeps plain files only (a link "
        "could make mem read a file outside the store)"
        for path in link_paths
    ]
    refused += [
        f"{p}: is in {CACHE_DIR}/, mem's local folder for its index and locks, never "
        f"committed: `git rm -r --cached {CACHE_DIR}`"
        for p, s in staged.items()
        if not s.startswith("D") and (p == CACHE_DIR or p.startswith(f"{CACHE_DIR}/"))
    ]
    if PURGED_FILE in staged and store.head():
        refused += _purges_undone(store, env)
    refused += [
        f"{shown_path(p)}: {name_problem(p)}"
        for p, s in staged.items()
        if not s.startswith("D") and name_problem(p)
    ]
    added = [
        p
        for p, s in staged.items()
        if not s.startswith("D")
        and p.endswith(".md")
        and p not in link_paths
        and not name_problem(p)
        and not is_draft_path(p)  # a lesson draft, no memory: mem review reads it
    ]
    if not added:
        return refused
    modified = [p for p in added if staged[p].startswith("M")] if store.head() else []
    purged_file = f":{PURGED_FILE}" if PURGED_FILE in staged else f"HEAD:{PURGED_FILE}"
    blobs = store.git.cat_file_batch(
        [f":{path}" for path in added] + [f"HEAD:{path}" for path in modified] + [purged_file],
        env,
    )
    purged = set(ULID_RE.findall(blobs.get(purged_file, b"").decode("ascii", "replace")))
    contents = {path: blobs[f":{path}"] for path in added if f":{path}" in blobs}
    problems: list[str] = refused
    seen: dict[str, str] = {}
    keyed: dict[str, tuple[str, str]] = {}
    leaving = set(staged)  # paths whose committed version this commit replaces
    for path in added:
        data = contents.get(path)
        if data is None:
            continue
        if len(data) > MAX_MEMORY_FILE_BYTES:
            problems.append(f"{path}: {too_large()}")
            continue
        if not is_memory_path(path):
            # notes files are free markdown: even one that looks like a memory is a note
            if path.startswith(MEMORY_DIRS) or (
                _looks_like_memory(data) and not is_note_path(path)
            ):
                problems.append(
                    f"{path}: memory files belong under observations/YYYY/MM/ "
                    "or summaries/YYYY/MM/ and end in .md"
                )
            continue
        try:
            record = parse_memory_file(path, data)
        except InvalidMemoryFile as exc:
            problems.append(str(exc))
            continue
        if record.id in purged:
            problems.append(f"{path}: {purged_problem(record.id)}")
            continue
        committed = path_of(record.id)
        other = seen.get(record.id) or (committed if committed not in leaving else None)
        if other and other != path:
            problems.append(
                f"{path}: id {record.id} is already used by {other}; "
                "give this memory a new id (or forget the other)"
            )
        seen[record.id] = path
        if record.key:
            holder = keyed.get(record.key)
            if holder is None or holder[0] == record.id:
                held = holders(record.key) if holders else []
                holder = next((h for h in held if h[0] != record.id and h[1] not in leaving), None)
            if holder is not None and holder[0] != record.id:
                problems.append(
                    f"{path}: key {record.key!r} is already used by {holder[1]}; a key names "
                    "one memory: choose another"
                )
            else:
                keyed[record.key] = (record.id, path)
        problems.extend(_new_secrets(path, data, blobs.get(f"HEAD:{path}")))
    return problems


def _purges_undone(store: Store, env: dict[str, str]) -> list[str]:
    """Ids the staged ``purged.txt`` drops from HEAD's: each would let a purged memory back."""
    staged, committed = f":{PURGED_FILE}", f"HEAD:{PURGED_FILE}"
    blobs = store.git.cat_file_batch([staged, committed], env)
    before = set(ULID_RE.findall(blobs.get(committed, b"").decode("ascii", "replace")))
    after = set(ULID_RE.findall(blobs.get(staged, b"").decode("ascii", "replace")))
    dropped = sorted(before - after)
    if not dropped:
        return []
    return [
        f"{PURGED_FILE}: takes {', '.join(dropped)} out; it lists memories purged from the "
        "history so that no clone brings them back: keep every id in it "
        f"(`git checkout HEAD -- {PURGED_FILE}`)"
    ]


def _staged_links(store: Store, env: dict[str, str]) -> list[str]:
    """Paths of the symbolic links the commit would add (mem reads plain files only)."""
    out = store.git.run(
        ["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev"], env=env
    ).stdout.decode("utf-8", "surrogateescape")
    fields = out.split("\0")
    return [
        path
        for meta, path in zip(fields[0::2], fields[1::2], strict=False)
        if meta.split(" ")[1:2] == ["120000"]
    ]


def _new_secrets(path: str, data: bytes, committed: bytes | None) -> list[str]:
    """Likely secrets the commit would add to a memory file (those already there stay)."""
    from memcli.core.secrets import added_to_file, report

    found = added_to_file(path, data, committed)
    if not found:
        return []
    return [
        f"{path}: likely secrets: {report(found)}; remove them (or write [REDACTED] in "
        "their place), or commit with --no-verify if they are not secrets"
    ]


def _looks_like_memory(data: bytes) -> bool:
    head = data[:400].decode("utf-8", "replace")
    return head.startswith("---") and "\nid:" in head and "\ntype:" in head
