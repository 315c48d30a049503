"""Whether ``mem mcp`` can start here: the MCP SDK it serves with is importable.

The SDK is an extra (``memcli[mcp]``). The installers refuse to register a server
that would fail at every start, and ``mem doctor`` says when a registered one
would; ``mem mcp`` itself says the same. The check imports what server.py
imports (about a second: only where a server is, or is about to be, registered).
"""

from __future__ import annotations


def reinstall_hint(extra: str) -> str:
    """How to add an extra to mem: memcli is not on PyPI, so from mem's checkout, as installed."""
    return f"reinstall mem with the {extra} extra: pipx install --force './mem[{extra}]'"


INSTALL_EXTRA = reinstall_hint("mcp")


def missing_module() -> str | None:
    """The module ``mem mcp`` needs and cannot import, or None when it can start."""
    try:
        import anyio  # noqa: F401
        import mcp.types  # noqa: F401
        from mcp.server.lowlevel import Server  # noqa: F401
        from mcp.server.stdio import stdio_server  # noqa: F401
    except ImportError as exc:
        return exc.name or "mcp"
    return None


def cannot_start_reason() -> str | None:
    """Why ``mem mcp`` cannot start here (a clause), or None when it can."""
    missing = missing_module()
    return None if missing is None else f"the MCP SDK is not installed ({missing} is missing)"
