"""Globs of guards matched against a tool call's shell command or path: bounded, no regex.

The matching half of ``memcli.core.guards`` (whose module doc has the rules), apart
so that the pre-tool hook can check a call while importing nothing but ``os``.
"""

from __future__ import annotations

import os

SHELL_TOOLS = ("Bash",)
MAX_INPUT_CHARS = 8192
"""A longer command or path is checked on its first this many characters."""
MAX_SHELL_PARTS = 64
MAX_PATH_PARTS = 64

_SEPARATORS = ("&&", "||", ";", "|", "&", "\n")


def fires(tool: str, glob: str, subject: str, cwd: str | None = None) -> bool:
    """Whether ``glob`` of a guard on ``tool`` fires for ``subject`` (see ``guards.matches``)."""
    if not subject:
        return False
    if tool in SHELL_TOOLS:
        return any(glob_match(glob, part) for part in shell_parts(subject))
    return path_match(glob, subject, cwd)


def shell_parts(command: str) -> list[str]:
    """The whole command and each simple command in it, normalized (see the module doc)."""
    command = command[:MAX_INPUT_CHARS]
    pieces = [command]
    for sep in _SEPARATORS:
        pieces = [p for piece in pieces for p in piece.split(sep)]
    parts = [" ".join(command.split())]
    for piece in pieces[:MAX_SHELL_PARTS]:
        words = piece.split()
        while words and _is_assignment(words[0]):
            words.pop(0)
        if words:
            parts.append(" ".join(words))
    return list(dict.fromkeys(parts))


def _is_assignment(word: str) -> bool:
    name, sep, _ = word.partition("=")
    return bool(sep) and name.isidentifier()


def path_match(glob: str, path: str, cwd: str | None = None) -> bool:
    """Whether a path glob matches ``path`` (see the module doc)."""
    path = path[:MAX_INPUT_CHARS]
    if cwd and os.path.isabs(path):
        rel = os.path.relpath(os.path.normpath(path), os.path.normpath(cwd))
        if not rel.startswith(".."):
            path = rel
    path = os.path.normpath(path) if path else path
    if "/" not in glob.rstrip("/"):
        glob = "**/" + glob
    glob_parts = _components(glob)
    path_parts = _components(path)
    if len(path_parts) > MAX_PATH_PARTS or not path_parts:
        return False
    if not glob.startswith("**") and glob.startswith("/") != path.startswith("/"):
        return False
    return _match_components(glob_parts, path_parts)


def _components(path: str) -> list[str]:
    return [part for part in path.split("/") if part and part != "."]


def _match_components(globs: list[str], parts: list[str]) -> bool:
    """Component-wise match; ``**`` spans any number of components (a bounded DP)."""
    # reachable[j]: the globs matched so far can end just before parts[j].
    reachable = [False] * (len(parts) + 1)
    reachable[0] = True
    for glob in globs:
        nxt = [False] * (len(parts) + 1)
        if glob == "**":
            seen = False
            for j in range(len(parts) + 1):
                seen = seen or reachable[j]
                nxt[j] = seen
        else:
            for j in range(len(parts)):
                if reachable[j] and glob_match(glob, parts[j]):
                    nxt[j + 1] = True
        reachable = nxt
        if not any(reachable):
            return False
    return reachable[len(parts)]


def glob_match(glob: str, text: str) -> bool:
    """Whether ``glob`` matches all of ``text``: ``*`` any run, ``?`` one character.

    The glob is cut at its stars; each piece between them is found leftmost in turn,
    which is exact for star-separated pieces and takes time linear in the text for
    each piece, never backtracking.
    """
    pieces = glob.split("*")
    if len(pieces) == 1:
        return len(text) == len(glob) and _piece_at(glob, text, 0)
    first, last = pieces[0], pieces[-1]
    if len(first) + len(last) > len(text):
        return False
    if not _piece_at(first, text, 0) or not _piece_at(last, text, len(text) - len(last)):
        return False
    pos, end = len(first), len(text) - len(last)
    for piece in pieces[1:-1]:
        if not piece:
            continue
        found = _find_piece(piece, text, pos, end)
        if found < 0:
            return False
        pos = found + len(piece)
    return True


def _piece_at(piece: str, text: str, start: int) -> bool:
    """Whether ``piece`` (literals and ``?``) matches ``text`` at ``start``."""
    if start < 0 or start + len(piece) > len(text):
        return False
    if "?" not in piece:
        return text.startswith(piece, start)
    window = text[start : start + len(piece)]
    return all(p == "?" or p == t for p, t in zip(piece, window, strict=True))


def _find_piece(piece: str, text: str, start: int, end: int) -> int:
    """The leftmost position in ``text[start:end]`` where ``piece`` matches, or -1."""
    if "?" not in piece:
        return text.find(piece, start, end)
    anchor = max(piece.split("?"), key=len)
    offset = piece.index(anchor) if anchor else 0
    pos = start
    while pos + len(piece) <= end:
        if anchor:
            hit = text.find(anchor, pos + offset, end)
            if hit < 0:
                return -1
            pos = hit - offset
            if pos + len(piece) > end:  # the anchor found, but the piece would run past end
                return -1
        if _piece_at(piece, text, pos):
            return pos
        pos += 1
    return -1
