"""ULIDs: 48 bits of milliseconds then 80 random bits, in Crockford base32.

They sort by creation time and are unique across machines without coordination,
which is what lets two people save memories in two clones and merge cleanly.
"""

import os
import re
import time

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ULID_RE = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")
# What a person may type for an id: any prefix of one, in either case.
ID_PREFIX_RE = re.compile(r"[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{1,26}")


def new_ulid(now_ms: int | None = None) -> str:
    """A new ULID for the given time (default: now)."""
    ms = int(time.time() * 1000) if now_ms is None else now_ms
    value = (ms << 80) | int.from_bytes(os.urandom(10), "big")
    chars = []
    for _ in range(26):
        chars.append(CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def is_ulid(text: str) -> bool:
    return ULID_RE.fullmatch(text) is not None
