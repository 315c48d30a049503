"""The ways in: the ``mem`` command line, and agent hooks and settings."""
