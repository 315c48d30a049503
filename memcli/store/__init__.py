"""The store: a git repository of memory files, the source of truth.

Files, git plumbing, the write lock, history, purge, remotes and the store's own git hooks."""
