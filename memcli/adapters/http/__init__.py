"""``mem serve``: the memory over a local HTTP API, and MCP over streamable HTTP.

Optional (``memcli[serve]``): Starlette and uvicorn are imported only by ``mem serve``.
"""
