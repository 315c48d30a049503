"""Readers of other tools' files, session summaries, and importers."""
