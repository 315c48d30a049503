"""Rewriting history through ``git fast-export`` and ``git fast-import``.

``git fast-export --no-data`` streams the history as commits and file
operations that name blobs by id. :class:`Rewriter` drops the operations on
chosen paths, drops the commits left with nothing to do, and takes the
memories' ``Memory-Id`` trailers and list lines out of the messages of commits
they shared with other memories. Commits before the first one that touched a
path come out identical; later ones keep their authors, dates, messages and
trees, and get new ids only because their parents changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from memcli.core import journal
from memcli.core.errors import InvalidMemoryFile, StoreError
from memcli.store.files import Store, parse_memory_file

FILE_OPS = (b"M ", b"D ")
_ESCAPE_RE = re.compile(rb"\\(?:([0-7]{3})|(.))", re.DOTALL)
_ESCAPES = {
    b"n": b"\n",
    b"t": b"\t",
    b"a": b"\a",
    b"b": b"\b",
    b"f": b"\f",
    b"v": b"\v",
    b"r": b"\r",
}


@dataclass
class Command:
    """One command of a fast-export stream: its lines, and its message for commits."""

    kind: bytes
    ref: bytes
    lines: list[bytes]
    message: bytes | None = None


class Stream:
    """Splits ``git fast-export`` output into commands (``data`` blocks read by size)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    def _line(self) -> bytes | None:
        if self.position >= len(self.data):
            return None
        end = self.data.find(b"\n", self.position)
        end = len(self.data) if end < 0 else end
        line = self.data[self.position : end]
        self.position = end + 1
        return line

    def commands(self) -> Iterator[Command]:
        current: Command | None = None
        while (line := self._line()) is not None:
            if line.startswith(b"data "):
                size = int(line[5:])
                message = self.data[self.position : self.position + size]
                self.position += size
                if self.data[self.position : self.position + 1] == b"\n":
                    self.position += 1
                if current is None:
                    raise StoreError("git fast-export produced data outside a command")
                current.message = message
                continue
            kind, _, rest = line.partition(b" ")
            if kind in (b"commit", b"reset", b"tag", b"blob", b"feature", b"done"):
                if current is not None:
                    yield current
                current = Command(kind, rest, [])
            elif line and current is not None:
                current.lines.append(line)
        if current is not None:
            yield current


def op_path(line: bytes) -> bytes | None:
    """The path a file operation names, unquoted (fast-export without -M/-C gives M and D)."""
    if line.startswith(b"M "):
        return _unquote(line.split(b" ", 3)[3])
    if line.startswith(b"D "):
        return _unquote(line[2:])
    return None


def _unquote(path: bytes) -> bytes:
    """A path as git writes it, C-quoted when it holds special characters."""
    if not path.startswith(b'"'):
        return path
    return _ESCAPE_RE.sub(_unescape, path[1:-1])


def _unescape(match: re.Match[bytes]) -> bytes:
    octal, char = match.groups()
    if octal:
        return bytes([int(octal, 8)])
    return _ESCAPES.get(char, char)


def list_lines(store: Store, commands: list[Command], paths: set[str]) -> set[bytes]:
    """``- type: title`` lines naming the purged memories in multi-memory messages."""
    targets = {p.encode() for p in paths}
    blobs = {
        line.split(b" ", 3)[2].decode()
        for command in commands
        if command.kind == b"commit"
        for line in command.lines
        if op_path(line) in targets and line.startswith(b"M ")
    }
    labels: set[bytes] = set()
    for data in store.git.cat_file_batch(sorted(blobs)).values():
        for path in paths:
            try:
                record = parse_memory_file(path, data)
            except InvalidMemoryFile:
                continue
            labels.add(journal.list_line(record).encode())
            break
    return labels


class Rewriter:
    """Rewrites a fast-export stream without the operations on ``paths``."""

    def __init__(self, paths: set[str], ids: list[str], labels: set[bytes]) -> None:
        self.targets = {p.encode() for p in paths}
        self.trailers = {line.encode() for line in journal.memory_id_trailers(ids).splitlines()}
        self.labels = labels
        self.changed = 0  # commits kept without the paths
        self.dropped = 0  # commits that only changed the paths, removed
        self.replaced: dict[bytes, bytes | None] = {}
        """Marks of dropped commits, and the mark (or None) that stands in for each."""
        self.tips: dict[bytes, bytes | None] = {}

    def _mapped(self, mark: bytes) -> bytes | None:
        while mark in self.replaced:
            substitute = self.replaced[mark]
            if substitute is None:
                return None
            mark = substitute
        return mark

    def run(self, commands: list[Command]) -> bytes:
        out: list[bytes] = []
        for command in commands:
            if command.kind == b"commit":
                out += self._commit(command)
            else:
                out += self._other(command)
        for ref, tip in self.tips.items():
            if tip is not None:
                out += [b"reset " + ref, b"from " + tip, b""]
        return b"\n".join(out) + b"\n"

    def _other(self, command: Command) -> list[bytes]:
        lines = [command.kind + (b" " + command.ref if command.ref else b"")]
        for line in command.lines:
            if line.startswith(b"from "):
                target = self._mapped(line[5:])
                if target is None:
                    return []  # it pointed at a commit that no longer exists
                line = b"from " + target
            lines.append(line)
        if command.message is not None:
            lines += [b"data %d" % len(command.message), command.message]
        return [*lines, b""]

    def _commit(self, command: Command) -> list[bytes]:
        mark = next((ln[5:] for ln in command.lines if ln.startswith(b"mark ")), None)
        parents = [
            ln.split(b" ", 1)[1] for ln in command.lines if ln.startswith((b"from ", b"merge "))
        ]
        ops = [ln for ln in command.lines if ln[:2] in FILE_OPS]
        kept_ops = [ln for ln in ops if op_path(ln) not in self.targets]
        mapped = [self._mapped(p) for p in parents]
        first = mapped[0] if mapped else None
        if ops and not kept_ops and len(parents) <= 1:
            if mark is not None:
                self.replaced[mark] = first
            self.tips[command.ref] = first
            self.dropped += 1
            return []
        if len(kept_ops) < len(ops):
            self.changed += 1
        self.tips.pop(command.ref, None)
        lines = [b"reset " + command.ref] if parents and first is None else []
        lines.append(b"commit " + command.ref)
        merges = [m for m in dict.fromkeys(mapped[1:]) if m is not None and m != first]
        message = self._scrubbed(command.message or b"")
        for line in command.lines:
            if line.startswith((b"from ", b"merge ")) or line[:2] in FILE_OPS:
                continue
            lines.append(line)
        lines += [b"data %d" % len(message), message]
        if first is not None:
            lines.append(b"from " + first)
        lines += [b"merge " + m for m in merges]
        return [*lines, *kept_ops, b""]

    def _scrubbed(self, message: bytes) -> bytes:
        """The message without the purged memories' trailers and list lines."""
        return journal.without_memories(message, self.trailers, self.labels)
