from __future__ import annotations

import click

from memcli.adapters.cli.options import store_options
from memcli.core.errors import MemError


@click.command()
@store_options
def mcp(store_dir: str | None, project: str | None) -> None:
    """Serve the memory to an agent over MCP (stdio) until stdin closes or SIGINT.

    Tools: search, timeline, get, save, forget, context, search_transcripts.
    The store is the one --store or --project names, else the one found from
    the client's workspace root or the working directory. Needs the mcp extra
    (pipx install --force './mem[mcp]'). `mem install claude` registers it with
    Claude Code when it can start.

    \b
    Example:
        mem mcp
        mem mcp --project webapp
    """
    if project is not None:
        from memcli.store.location import check_project_name

        check_project_name(project)  # refused now, not on the first tool call
    try:
        from memcli.adapters.mcp.server import serve
    except ImportError as exc:
        if exc.name is None or not exc.name.startswith(("mcp", "anyio", "pydantic")):
            raise
        from memcli.adapters.mcp.sdk import INSTALL_EXTRA

        raise MemError(
            f"mem mcp needs the MCP SDK ({exc.name} is missing): {INSTALL_EXTRA}"
        ) from None
    serve(store_dir, project)
