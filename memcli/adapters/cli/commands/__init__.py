"""One module a command; each parses its options and calls the core."""
