"""Readers of other tools' files: transcripts, session summaries, importers and exporters."""
