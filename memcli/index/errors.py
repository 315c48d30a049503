"""SQLite's errors, as mem's: a corrupt index is rebuilt, an unusable one reported."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import apsw

from memcli.core.errors import IndexCorrupt, IndexUnavailable

P = ParamSpec("P")
R = TypeVar("R")


def translating_errors(method: Callable[P, R]) -> Callable[P, R]:
    """Turn SQLite's errors into mem's: corrupt (rebuildable) or unavailable."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (apsw.CorruptError, apsw.NotADBError) as exc:
            raise IndexCorrupt(f"the index is corrupt ({exc})") from None
        except (
            apsw.CantOpenError,
            apsw.ReadOnlyError,
            apsw.IOError,
            apsw.PermissionsError,
            apsw.FullError,
            apsw.BusyError,
        ) as exc:
            raise IndexUnavailable(f"cannot use the index: {exc}") from None

    return wrapper
