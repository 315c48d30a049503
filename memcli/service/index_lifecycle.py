"""A memory's lifecycle: its store opened (or created), its index opened and kept usable.

A read first brings the index up to date with git (``refresh_index``), keeping
the layer's guard table and, when a model is in use, the vectors in step. A
corrupt index is rebuilt; one that cannot be used is replaced by a temporary one
in memory. ``Memory`` answers reads over this (``memcli.service.memory``).
Nothing here prints: notices go to the ``notify`` callback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from memcli.core.errors import IndexCorrupt, IndexUnavailable, MemError, StoreError
from memcli.index import Index, Progress, RefreshReport

if TYPE_CHECKING:
    from memcli.core.model import Record
    from memcli.store.files import Store
    from memcli.store.location import StoreLocation

R = TypeVar("R")
Known = dict[str, "tuple[Record, str] | None"]
"""What a commit wrote (each path's memory and digest) and removed (None)."""
Notify = Callable[[str], None]


class IndexLifecycle:
    """Opening a memory's store and keeping its index usable (``Memory`` sets the state)."""

    location: StoreLocation
    store: Store
    layer: str
    notify: Notify
    progress: Progress | None
    _index: Index | None
    index_problem: str | None
    index_deferred: bool
    embedding_progress: Progress | None
    semantic_problem: str | None
    embed_limit: int | None
    vectors_waiting: int
    model: str | None
    model_downloads: str

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
            if self.store.own_repository:
                self.install_git_hooks()

    def install_git_hooks(self) -> None:
        """The store's hooks; where git's core.hooksPath forbids them, a notice instead."""
        from memcli.store import githooks

        try:
            githooks.install(self.store)
        except StoreError as exc:
            self.notify(f"git hooks not installed: {exc}")

    def refresh_index(
        self, *, full: bool = False, temporary_ok: bool = True
    ) -> RefreshReport | None:
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
                report = self._refresh(self._index, full=full)
            except IndexCorrupt as exc:
                self.notify(f"{exc}; rebuilding it from the memory files")
                self._discard_index()
                self._index = self._open_index(path)
                return self._refresh(self._index, full=True)
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
            return self._refresh(self._index)
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
        return self._refresh(self._index, full=True)

    def _refresh(
        self,
        index: Index,
        *,
        full: bool = False,
        known: tuple[str | None, Known] | None = None,
    ) -> RefreshReport | None:
        """The one place the index is brought up to date with the store."""
        state = self.guard_state()
        report = index.refresh(self.store, self.notify, full=full, known=known)
        if state is not None and index.path != ":memory:":
            self._follow_guards(index, state, report)
        # After a write (``known``) no model is downloaded: the write's lock may be held.
        self._follow_semantic(index, report, downloads=known is None)
        return report

    def guard_state(self) -> str | None:
        """The store's state as the guard table records it; None: it cannot be read."""
        from memcli.service.guard_table import state_of

        try:
            return state_of(self.store.root, self.layer)
        except OSError:
            return None

    def _follow_guards(self, index: Index, state: str, report: RefreshReport | None) -> None:
        """The layer's guard table in step with the index. A failure never fails the
        command: it is a line in mem's failure log (the hook reads the older table, or
        none)."""
        from memcli.service import guard_table

        try:
            path = guard_table.table_path(self.store.cache_dir)
            guard_table.follow(index, path, state, report)
        except (OSError, ValueError) as exc:
            from memcli.core import failure_log

            failure_log.record("guard table", f"{self.store.root}: {exc}")

    def semantic_model(self) -> str:
        """The semantic model in use: the settings' ``[semantic] model``, or mem's bundled one
        (``memcli.core.model_choice``); '' for none."""
        from memcli.core import config
        from memcli.core.model_choice import model_name

        configured = self.model
        if configured is None:
            configured = str(config.load(self.store.root)["semantic"]["model"])
        return model_name(configured)

    def _follow_semantic(
        self, index: Index, report: RefreshReport | None, *, downloads: bool = True
    ) -> None:
        """The vectors in step with the index, when a model is in use (else nothing).

        A model that cannot be used makes this command lexical, with a notice;
        it never fails the command. ``downloads``: a missing model may be fetched
        (as ``model_downloads`` allows).
        """
        if index.path == ":memory:" or self.index_deferred or self.semantic_problem:
            return
        name = self.semantic_model()
        if not name:
            return
        try:
            from memcli.semantic.sync import follow

            followed = follow(
                index,
                name,
                self.store.root,
                changed=report is not None,
                notify=self.notify,
                progress=self.embedding_progress,
                limit=self.embed_limit,
                fetch=downloads and self.model_downloads != "none",
                update=(report.base, report.ids) if report and report.base is not None else None,
            )
            if followed is not None:
                self.vectors_waiting = followed.waiting
        except (IndexCorrupt, IndexUnavailable):
            raise
        except Exception as exc:  # the model, numpy, tokenizers: none may fail a read
            text = str(exc).strip().splitlines()
            self.semantic_problem = text[0] if text else type(exc).__name__
            self.notify(f"semantic search is off: {self.semantic_problem}")

    def apply_commit(self, index: Index, parent: str | None, known: Known) -> None:
        """Tell the index about a commit just made on ``parent``: what it wrote and removed.

        The commit is the truth: an index that cannot take it is caught up by the
        next read, with a notice now.
        """
        try:
            self._refresh(index, known=(parent, known))
        except (IndexCorrupt, IndexUnavailable) as exc:
            self.notify(f"saved, but the index was not updated: {exc}")

    def _open_index(self, path: Path | str) -> Index:
        index = Index(path)
        index.layer = self.layer
        index.progress = self.progress
        return index

    def catch_up(self) -> None:
        """Bring an open index up to date with HEAD: a long-lived caller's view of commits
        made since (another process's save, a pull); a read of the ref files when none was.
        """
        if self._index is not None:
            self.refresh_index()

    def index(self) -> Index:
        """The index, open and up to date with HEAD."""
        if self._index is None:
            self.refresh_index()
        assert self._index is not None
        return self._index

    def close(self) -> None:
        """Close the index connection (a later read opens it again)."""
        if self._index is not None:
            index, self._index = self._index, None
            with contextlib.suppress(MemError):
                index.close()

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
            self.refresh_index(full=True)
            return query(self.index())

    def reindex(self, *, full: bool) -> RefreshReport | None:
        """Bring the index file up to date; unlike a read, refuse when it cannot be written."""
        return self.refresh_index(full=full, temporary_ok=False)

    def files_to_index(self) -> int:
        """How many memory files bringing the index up to date would read (0: it is current).

        Asked without writing anything, so that a hook can decide in milliseconds
        whether it has the time: a missing or outdated index counts every file.
        """
        from memcli.core.chunks import MEMORY_MD, NOTES_DIR
        from memcli.index.db import indexed_commit_of
        from memcli.store.files import MEMORY_DIRS

        head = self.store.head() or ""
        indexed = indexed_commit_of(self.store.index_path)
        if indexed == head:
            return 0
        if indexed:
            try:
                return len(self.store.changes(indexed, head, notes=True))
            except StoreError:
                pass  # that commit is gone: everything is read again
        listed = self.store.git.run(
            ["ls-files", "-z", "--", *MEMORY_DIRS, MEMORY_MD, NOTES_DIR]
        ).stdout
        return listed.count(b"\0")

    def rebuild_index_file(self) -> None:
        """A new index file, not just new tables: freed pages of the old one keep old text."""
        with contextlib.suppress(IndexUnavailable):  # a directory there: nothing to clear
            self._discard_index()
        self.refresh_index(full=True)
