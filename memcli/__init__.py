"""mem: a memory for AI coding agents, kept as markdown files in git.

The public Python API is what ``__all__`` names. Importing ``memcli`` loads
nothing but this module: each name is imported on first use, so the ``mem``
command, hooks and plugins pay only for what they touch.

    >>> import memcli
    >>> with memcli.open_store(project="my-project", create=True) as store:
    ...     store.save("Deploys go out on Tuesdays", type="decision", key="deploy-day")
    ...     store.search("deploy", since="1w")

The lower layers are public too, for what the store API does not cover:

    >>> memory = memcli.Memory(memcli.locate(None, "my-project", Path.cwd()), notify=print)
    >>> [memcli.entry_dict(e) for e in memory.read(lambda index: index.search("deploy").entries)]
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # not typing's: every mem process imports this module first

__version__ = "0.1.0"

_EXPORTS = {
    "Memory": "memcli.service.memory",
    "SaveResult": "memcli.service.writer",
    "Observation": "memcli.core.model",
    "Summary": "memcli.core.model",
    "Record": "memcli.core.model",
    "Draft": "memcli.core.draft",
    "Filters": "memcli.index",
    "Entry": "memcli.index",
    "StoreLocation": "memcli.store.location",
    "locate": "memcli.store.location",
    "record_dict": "memcli.core.serialize",
    "entry_dict": "memcli.core.serialize",
    "SHAPE_VERSION": "memcli.core.serialize",
    "MemError": "memcli.core.errors",
    "InvalidInput": "memcli.core.errors",
    "NotFound": "memcli.core.errors",
    "StoreError": "memcli.core.errors",
    # The store API (memcli.api): what the commands, MCP and plugins call.
    "open_store": "memcli.api",
    "MemStore": "memcli.api",
}
__all__ = [
    "__version__",
    "Memory",
    "SaveResult",
    "Observation",
    "Summary",
    "Record",
    "Draft",
    "Filters",
    "Entry",
    "StoreLocation",
    "locate",
    "record_dict",
    "entry_dict",
    "SHAPE_VERSION",
    "MemError",
    "InvalidInput",
    "NotFound",
    "StoreError",
    "open_store",
    "MemStore",
]

if TYPE_CHECKING:
    from typing import Any

    from memcli.api import MemStore, open_store
    from memcli.core.draft import Draft
    from memcli.core.errors import InvalidInput, MemError, NotFound, StoreError
    from memcli.core.model import Observation, Record, Summary
    from memcli.core.serialize import SHAPE_VERSION, entry_dict, record_dict
    from memcli.index import Entry, Filters
    from memcli.service.memory import Memory
    from memcli.service.writer import SaveResult
    from memcli.store.location import StoreLocation, locate


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'memcli' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
