"""Errors the core raises. The CLI turns each into a one-line message and exit 1."""


class MemError(Exception):
    """An expected failure, with a message meant for the person at the terminal."""


class InvalidInput(MemError):
    """Something given to mem (an option, a payload, a field) is not acceptable."""


class InvalidMemoryFile(MemError):
    """A file in the store cannot be read as a memory."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class SecretsFound(MemError):
    """What was to be stored holds likely secrets (API keys, tokens, private keys)."""


class EditConflict(MemError):
    """A memory file changed between the start of an edit and its commit."""


class NotFound(MemError):
    """No memory matches an id, id prefix or key."""


class Ambiguous(MemError):
    """An id prefix matches more than one memory."""


class StoreError(MemError):
    """The store is missing, unusable, or git refused an operation."""


class NoLayer(StoreError):
    """A layer asked for by name (``--layer``) has no store here."""


class LockTimeout(StoreError):
    """Another process held the store's write lock for too long."""


class QuerySyntaxError(MemError):
    """A raw FTS5 query (``--raw``) is not valid FTS5 syntax."""


class IndexCorrupt(MemError):
    """The index file is unreadable (garbage, truncated); it can be rebuilt."""


class IndexUnavailable(MemError):
    """The index cannot be opened or written (a directory in its place, permissions)."""


class ProblemsReported(MemError):
    """A check found problems and the command has listed them: exit with ``exit_code``.

    Unlike other errors it prints no ``Error:`` line (``mem doctor``, ``mem
    reindex --check``, a git hook refusing a commit).
    """

    def __init__(self, exit_code: int = 1) -> None:
        super().__init__(f"exit {exit_code}")
        self.exit_code = exit_code
