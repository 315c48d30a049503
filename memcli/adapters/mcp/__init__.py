"""The MCP server (``mem mcp``): tools.py says what the tools are, server.py serves them."""
