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
)
REQUIRED_FIELDS = ("id", "type", "title", "created")
KEY_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")

SHORT_ID_CHARS = 8
"""The shortest id prefix mem shows; longer where that would not be unique."""
