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

from typing import Literal, NamedTuple

from memcli.core.errors import InvalidInput
from memcli.core.globs import MAX_INPUT_CHARS as MAX_INPUT_CHARS
from memcli.core.globs import MAX_PATH_PARTS as MAX_PATH_PARTS
from memcli.core.globs import MAX_SHELL_PARTS as MAX_SHELL_PARTS
from memcli.core.globs import SHELL_TOOLS as SHELL_TOOLS
from memcli.core.globs import fires
from memcli.core.globs import glob_match as glob_match
from memcli.core.globs import path_match as path_match
from memcli.core.globs import shell_parts as shell_parts

GuardAction = Literal["deny", "ask", "warn"]
ACTIONS: tuple[GuardAction, ...] = ("deny", "ask", "warn")
DEFAULT_ACTION: GuardAction = "ask"

PATH_TOOLS = ("Read", "Edit", "Write")
TOOLS = SHELL_TOOLS + PATH_TOOLS
"""mem's tool vocabulary: what a guard names, whatever the agent calls its tools."""

MAX_GLOB_CHARS = 256
MAX_WILDCARDS = 16


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
    return tool == guard.tool and fires(tool, guard.glob, subject, cwd)
