"""The pure core: what a memory is, its file form, ids, time, errors, secrets, settings.

Nothing here touches git, SQLite or the terminal."""
