"""The vocabulary of a memory: its types, its fields, what a key may look like.

Kept apart from ``model`` (which builds and parses observations) so that the
read path and the CLI's start-up can use it without loading the model.
"""

import re

OBSERVATION_TYPES = (
    "preference",
    "decision",
    "discovery",
    "gotcha",
    "pattern",
    "friction",
    "context",
)
DEFAULT_TYPE = "discovery"
LAYERS = ("user", "project", "team")
"""The layers of memory, widest first (``memcli.store.layers`` says where each store is)."""
TEAM_DIR = ".mem-team"
"""The team layer's folder, at the top of the project's work tree."""
KEY_ORDER = ("project", "team", "user")
"""A key is resolved in the nearest layer first."""
MAX_SESSION_CHARS = 200
"""A session id is kept to this many characters."""
KNOWN_FIELDS = (
    "id",
    "type",
    "title",
    "created",
    "updated",
    "key",
    "concepts",
    "files",
    "facts",
    "importance",
    "session",
    "agent",
    "project_commit",
    "supersedes",
    "guards",
)
PROVENANCE_FIELDS = ("agent", "project_commit")
"""Where a memory came from besides its session: the agent, the project's git commit."""
REQUIRED_FIELDS = ("id", "type", "title", "created")
KEY_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
COMMIT_RE = re.compile(r"[0-9a-f]{40}")
"""A full git commit id (SHA-1), lower case."""

SHORT_ID_CHARS = 8
"""The shortest id prefix mem shows; a store's are all longer when that would not be unique."""
