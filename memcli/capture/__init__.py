"""Readers of other tools' files: agent transcripts, session summaries, importers."""
