"""Agent session transcripts (Claude Code, Codex) read as messages, line by line.

``records`` holds the message shape and the parser protocol; ``claude`` and ``codex``
parse one JSONL line at a time; ``locate`` finds the files on disk.
"""
