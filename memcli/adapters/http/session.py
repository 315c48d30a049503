"""The viewer's sessions: what its cookie holds, how long it holds, and the form token of each.

A browser shows the server's token once (``?token=``) and gets a cookie in exchange
(``auth.Guard``). The cookie is no digest of the token: it is a new random value
signed with a key drawn when the server starts and held in memory only (the
processes of ``--workers`` share it, forked after it is drawn). So a restart ends
every session, a cookie taken from one server opens no other (two servers on one
machine, even with one token file), and a cookie says when it expires, which the
server checks as well as the browser. Its name names the port: browsers keep
cookies by host, not port, and two servers must not overwrite each other's.

A state-changing form carries a token derived from its session (``form_token``), so
a page elsewhere that can send the cookie cannot forge the form: it cannot read it.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import time
from dataclasses import dataclass, field

SESSION_SECONDS_ENV = "MEM_SERVE_SESSION_SECONDS"
SESSION_SECONDS = 12 * 3600.0
"""How long a viewer's cookie opens its pages: a working day, then ``?token=`` again."""
MAX_SESSION_SECONDS = 7 * 24 * 3600.0


def _key() -> bytes:
    return secrets.token_bytes(32)


def session_seconds() -> float:
    """``MEM_SERVE_SESSION_SECONDS`` (default ``SESSION_SECONDS``): how long a sign-in lasts."""
    from memcli.core.env import env_seconds

    return env_seconds(SESSION_SECONDS_ENV, SESSION_SECONDS, MAX_SESSION_SECONDS)


@dataclass(frozen=True)
class Sessions:
    """The sessions of one server start: ``port`` names its cookie (None: the unix socket,
    whose forms still carry a token of the start)."""

    port: int | None
    seconds: float = SESSION_SECONDS
    key: bytes = field(default_factory=_key, repr=False)

    @property
    def cookie_name(self) -> str:
        return f"mem_session_{self.port}"

    def issue(self) -> str:
        """A new session's cookie value: when it ends (in milliseconds since the epoch), a
        random part, and their signature."""
        expires = math.ceil((time.time() + self.seconds) * 1000)
        body = f"{expires}.{secrets.token_urlsafe(24)}"
        return f"{body}.{self._sign(body)}"

    def set_cookie(self, value: str) -> bytes:
        """The Set-Cookie header's value for a session ``issue`` gave."""
        age = math.ceil(self.seconds)
        return (
            f"{self.cookie_name}={value}; Max-Age={age}; HttpOnly; SameSite=Strict; Path=/"
        ).encode()

    def valid(self, value: str) -> bool:
        """Whether ``value`` is a session this start issued and that has not expired."""
        body, _, signature = value.rpartition(".")
        expires, _, _ = body.partition(".")
        if not expires.isdigit() or not hmac.compare_digest(
            signature.encode(), self._sign(body).encode()
        ):
            return False
        return time.time() * 1000 < int(expires)

    def of(self, headers: list[tuple[bytes, bytes]]) -> str | None:
        """The valid session a request's cookies hold (its own port's cookie), else None."""
        wanted = self.cookie_name.encode()
        for name, value in headers:
            if name != b"cookie":
                continue
            for pair in value.split(b";"):
                key, _, given = pair.strip().partition(b"=")
                if key == wanted:
                    text = given.decode("latin-1")
                    if self.valid(text):
                        return text
        return None

    def form_token(self, session: str | None) -> str:
        """The token the forms of ``session`` carry (None: a request without a cookie, which
        the socket or the bearer token let in)."""
        return self._sign(f"form:{session or ''}")

    def _sign(self, text: str) -> str:
        return hmac.new(self.key, text.encode(), hashlib.sha256).hexdigest()
