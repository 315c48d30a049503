"""Whether the model hub can be reached: one TCP connection, within a few seconds.

huggingface_hub retries a request that cannot connect five times, backing off
for 23 seconds in all, and prints each retry. Offline, mem asks once and fails
in one line instead: before the hub is asked, a connection is opened to its
endpoint (or to the proxy that would carry the request) and closed again.
"""

from __future__ import annotations

import socket
import urllib.parse
import urllib.request

CONNECT_SECONDS = 3.0
"""How long the connection may take before the hub counts as unreachable."""


def unreachable(endpoint: str, timeout: float = CONNECT_SECONDS) -> str | None:
    """Why ``endpoint`` (a URL) cannot be reached from here, or None when it can."""
    try:
        target = urllib.parse.urlsplit(endpoint)
        host, port = target.hostname, target.port or (443 if target.scheme == "https" else 80)
    except ValueError:  # a port that is no number
        host = None
    if not host:
        return f"{endpoint} is not a URL"
    proxy = _proxy(target.scheme, host)
    if proxy is not None:
        host, port = proxy
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        if isinstance(exc, TimeoutError):
            reason = f"no answer in {timeout:g} s"
        return f"cannot reach {_address(host, port)} ({reason})"


def _proxy(scheme: str, host: str) -> tuple[str, int] | None:
    """The proxy a request to ``host`` goes through (from the environment), or None."""
    if urllib.request.proxy_bypass(host):
        return None
    url = urllib.request.getproxies().get(scheme)
    if not url:
        return None
    try:
        proxy = urllib.parse.urlsplit(url if "://" in url else f"http://{url}")
        port = proxy.port or (443 if proxy.scheme == "https" else 80)
    except ValueError:  # not a proxy this can judge: the hub's client will say
        return None
    return (proxy.hostname, port) if proxy.hostname else None


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
