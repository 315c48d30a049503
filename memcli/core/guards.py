"""A guard: a rule of a memory that an agent's tool call is checked against.

``Bash:npm install*`` on "use pnpm, never npm" makes the pre-tool hook refuse, ask
about, or warn of a shell command that starts so. TOOL is one vocabulary across
agents (each agent's own tool names are mapped onto it by its hook adapter); GLOB
matches the shell command for the shell tool and the path for a file tool.

Globs only, never regular expressions, and every match is bounded: a guard is
checked on every tool call, so no pattern may make that slow. This module imports
nothing but the standard library's lightest parts: the pre-tool hook loads it.

Shell commands: a command is cut into its simple commands at ``&&``, ``||``, ``;``,
``|``, ``&`` and newlines, leading ``NAME=value`` assignments dropped and spaces
collapsed; a guard fires when its glob matches the whole command or any one part,
from its start to its end. ``*`` matches anything there (spaces and slashes too),
``?`` one character.

Paths: matched relative to the project's folder when inside it (else as given,
absolute). ``*`` and ``?`` stay within one path component; a ``**`` component
matches any number of components, none included; a glob with no ``/`` matches the
last component at any depth, as in ``.gitignore`` (``.env`` is ``**/.env``).
"""

from __future__ import annotations

import os
from typing import Literal, NamedTuple

from memcli.core.errors import InvalidInput

GuardAction = Literal["deny", "ask", "warn"]
ACTIONS: tuple[GuardAction, ...] = ("deny", "ask", "warn")
DEFAULT_ACTION: GuardAction = "ask"

SHELL_TOOLS = ("Bash",)
PATH_TOOLS = ("Read", "Edit", "Write")
TOOLS = SHELL_TOOLS + PATH_TOOLS
"""mem's tool vocabulary: what a guard names, whatever the agent calls its tools."""

MAX_GLOB_CHARS = 256
MAX_WILDCARDS = 16
MAX_INPUT_CHARS = 8192
"""A longer command or path is checked on its first this many characters."""
MAX_SHELL_PARTS = 64
MAX_PATH_PARTS = 64

_SEPARATORS = ("&&", "||", ";", "|", "&", "\n")


class Guard(NamedTuple):
    """One guard: the tool it watches, its glob, and what a match does."""

    tool: str
    glob: str
    action: GuardAction = DEFAULT_ACTION

    @property
    def spec(self) -> str:
        """The ``TOOL:GLOB`` form ``mem save --guard`` takes."""
        return f"{self.tool}:{self.glob}"

    def to_frontmatter(self) -> dict[str, str]:
        """The mapping kept in a memory's ``guards:`` list."""
        return {"tool": self.tool, "glob": self.glob, "action": self.action}


def parse_spec(spec: str, action: str = DEFAULT_ACTION) -> Guard:
    """``TOOL:GLOB`` (as ``--guard`` takes it) as a Guard; InvalidInput says what is wrong."""
    tool, sep, glob = spec.partition(":")
    if not sep:
        raise InvalidInput(f"guard {spec!r} is not TOOL:GLOB (e.g. 'Bash:npm install*')")
    return make_guard(tool.strip(), glob.strip(), action)


def make_guard(tool: str, glob: str, action: str = DEFAULT_ACTION) -> Guard:
    """A checked Guard; InvalidInput says what is wrong in one line."""
    if tool not in TOOLS:
        raise InvalidInput(f"guard tool {tool!r} is not one of {', '.join(TOOLS)}")
    if action not in ACTIONS:
        raise InvalidInput(f"guard action {action!r} is not one of {', '.join(ACTIONS)}")
    check_glob(glob)
    return Guard(tool, glob, action)


def check_glob(glob: str) -> None:
    """Refuse a glob that is empty, too long, or has too many wildcards."""
    if not glob or glob.isspace():
        raise InvalidInput("a guard's glob is empty")
    if len(glob) > MAX_GLOB_CHARS:
        raise InvalidInput(f"a guard's glob is longer than {MAX_GLOB_CHARS} characters")
    if any(ch in glob for ch in "\0\r"):
        raise InvalidInput("a guard's glob holds a control character")
    if glob.count("*") + glob.count("?") > MAX_WILDCARDS:
        raise InvalidInput(f"a guard's glob has more than {MAX_WILDCARDS} wildcards")
    if glob.strip("*") == "":
        raise InvalidInput(f"guard glob {glob!r} matches every call: name a command or a path")


def from_frontmatter(value: object) -> tuple[Guard, ...]:
    """A memory's ``guards:`` value as Guards; InvalidInput on anything malformed.

    Each item is a mapping ``{tool, glob, action}`` (``action`` may be left out), or
    the ``TOOL:GLOB`` string ``--guard`` takes.
    """
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InvalidInput("guards must be a list of {tool, glob, action}")
    guards: list[Guard] = []
    for item in value:
        if isinstance(item, str):
            guards.append(parse_spec(item))
        elif isinstance(item, dict):
            tool, glob = item.get("tool"), item.get("glob")
            action = item.get("action", DEFAULT_ACTION)
            unknown = set(item) - {"tool", "glob", "action"}
            if unknown:
                raise InvalidInput(f"a guard has unknown field(s): {', '.join(sorted(unknown))}")
            if not isinstance(tool, str) or not isinstance(glob, str):
                raise InvalidInput("a guard needs a tool and a glob, both text")
            if not isinstance(action, str):
                raise InvalidInput("a guard's action must be text")
            guards.append(make_guard(tool, glob, action))
        else:
            raise InvalidInput("a guard must be a mapping {tool, glob, action} or 'TOOL:GLOB'")
    return tuple(dict.fromkeys(guards))


def matches(guard: Guard, tool: str, subject: str, cwd: str | None = None) -> bool:
    """Whether ``guard`` fires for a call of ``tool`` (mem's name) on ``subject``.

    ``subject`` is the shell command for the shell tool, the path for a file tool;
    ``cwd`` is the project's folder that relative paths are taken from.
    """
    if tool != guard.tool or not subject:
        return False
    if tool in SHELL_TOOLS:
        return any(glob_match(guard.glob, part) for part in shell_parts(subject))
    return path_match(guard.glob, subject, cwd)


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
        if _piece_at(piece, text, pos):
            return pos
        pos += 1
    return -1
