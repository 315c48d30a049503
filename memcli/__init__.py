"""mem: a memory for AI coding agents, kept as markdown files in git."""

__version__ = "0.1.0"
