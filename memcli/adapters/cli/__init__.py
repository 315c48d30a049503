"""The ``mem`` command (click): a lazy group, shared options, output, one module per command."""
