"""Rendering memories through Jinja templates (the only module that imports jinja2).

Templates come from the store's own ``templates/`` folder first, file by file,
then from the ones shipped with mem. Memory content is only ever passed in as
data, never compiled, so ``{{ }}`` in a memory is printed as it is. The
environment is sandboxed because a store's templates can arrive through
``git pull`` from someone else, and undefined names fail loudly.

A template is also bounded: a real-time timer stops it at a wall-clock deadline
shared by all renders of one ``Renderer`` (where there is one), and every loop,
call, attribute and filter checks that deadline too; strings, lists
and numbers a template makes are capped in size before they are made; the
output is checked as it streams; and on Linux the address space may grow only
so much while a template runs. A store template can never follow a symbolic
link out of the store's ``templates/`` folder.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import signal
import stat
import string
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from jinja2 import (
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    nodes,
)
from jinja2.bccache import Bucket
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment

from memcli.core.errors import MemError
from memcli.core.fences import code_flags, has_fences
from memcli.core.regular import open_regular
from memcli.core.text import counted
from memcli.core.timeutil import age

TIME_LIMIT_SECONDS = 3.0
"""Wall-clock time all renders of one Renderer may take together (``MEM_TEMPLATE_TIMEOUT``)."""
MAX_CHARS = 10_000_000
"""The largest string, list or output a template may make, and the largest number it may
pass to a function (a width, a count)."""
MAX_INT_BITS = 100_000
MEMORY_HEADROOM = 256 << 20
"""How much the address space may grow while a template runs (Linux)."""
_GUARD_FILTER = "mem_guarded_loop"
_CONCAT_FILTER = "mem_guarded_concat"
_NUMBER_RE = re.compile(r"\d+")
TEMPLATES_DIR = "templates"
"""The store's folder of template overrides."""


class TemplateLimit(Exception):
    """A template went past a time or size limit."""


def time_limit() -> float:
    try:
        return max(0.0, float(os.environ.get("MEM_TEMPLATE_TIMEOUT", TIME_LIMIT_SECONDS)))
    except ValueError:
        return TIME_LIMIT_SECONDS


def _size(value: Any) -> int:
    return len(value) if isinstance(value, str | bytes | list | tuple | dict | set) else 0


class _Deadline:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.seconds = seconds

    def check(self) -> None:
        if time.monotonic() > self.end:
            raise self.passed()

    def passed(self) -> TemplateLimit:
        return TemplateLimit(f"took longer than {self.seconds:g} s (MEM_TEMPLATE_TIMEOUT)")


@contextlib.contextmanager
def _alarm(deadline: _Deadline) -> Iterator[None]:
    """Stop even one slow call (a filter working through a huge string) at the deadline.

    A real-time timer interrupts the render with SIGALRM, where there is one and this is
    the main thread; any timer and handler set before are put back after. Elsewhere the
    deadline checks in loops, calls and filters are what bound a template.
    """
    remaining = deadline.end - time.monotonic()
    armed = [True]

    def expired(signum: int, frame: object) -> None:
        if armed[0]:
            armed[0] = False
            raise deadline.passed()

    if remaining <= 0 or not hasattr(signal, "setitimer"):
        yield
        return
    try:
        previous = signal.signal(signal.SIGALRM, expired)
    except ValueError:  # not the main thread
        yield
        return
    started = time.monotonic()
    delay, interval = signal.setitimer(signal.ITIMER_REAL, remaining)
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
        if delay > 0:
            left = delay - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6), interval)


def _check_args(args: Iterable[Any]) -> None:
    for value in args:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_CHARS:
            raise TemplateLimit(f"the number {value} is above the limit of {MAX_CHARS}")


def _check_size(value: Any) -> Any:
    if _size(value) > MAX_CHARS:
        raise TemplateLimit(f"made a value of more than {MAX_CHARS} items")
    return value


def _check_format(text: str, percent: bool) -> None:
    """Refuse a format string whose widths or precisions would make a huge string."""
    if percent:
        specs = re.findall(r"%[^a-zA-Z%]*", text)
    else:
        try:
            specs = [spec or "" for _, _, spec, _ in string.Formatter().parse(text)]
        except ValueError:
            return  # formatting it fails on its own
    for spec in specs:
        _check_args(int(n) for n in _NUMBER_RE.findall(spec))


class _PrivateBytecodeCache(FileSystemBytecodeCache):
    """Compiled templates, loaded only from regular files of the user's own private folder.

    Loading one runs its code, so the folder lives under the store's git directory
    (which no clone, pull or sync ever writes) and is created 0700; a file that is a
    link, is not the user's own, or sits in a folder anyone else may write to is ignored.
    """

    def load_bytecode(self, bucket: Bucket) -> None:
        if not _private(self.directory, directory=True):
            return
        try:
            file = open_regular(self._get_cache_filename(bucket), follow_links=False)
        except OSError:
            return
        with file:
            if _owned(os.fstat(file.fileno()), directory=False):
                bucket.load_bytecode(file)


def _private(path: str, *, directory: bool) -> bool:
    """A regular file (or folder) of this user that no one else may write to; never a link."""
    try:
        return _owned(os.lstat(path), directory=directory)
    except OSError:
        return False


def _owned(info: os.stat_result, *, directory: bool) -> bool:
    kind = stat.S_ISDIR(info.st_mode) if directory else stat.S_ISREG(info.st_mode)
    getuid = getattr(os, "getuid", None)
    mine = getuid is None or info.st_uid == getuid()
    return kind and mine and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _compiled_cache(store_root: Path) -> _PrivateBytecodeCache | None:
    """The store's compiled-template cache under its git directory, or None if there is none."""
    from memcli.store.git import resolve_git_dir

    try:
        git_dir = resolve_git_dir(store_root / ".git")
        if not git_dir.is_dir():
            return None
        compiled = git_dir / "mem" / "templates"
        compiled.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(str(compiled), directory=True):
            return None
    except (OSError, UnicodeError):
        return None  # a read-only store renders all the same, only slower
    # Its own file names: code compiled without the loop guards is never reused.
    return _PrivateBytecodeCache(str(compiled), "mem-guarded-%s.cache")


class _StoreLoader(FileSystemLoader):
    """Templates from the store's folder first, each a regular file inside that very folder.

    Never through a link out of ``templates/`` (to ``.git/config``, ``.cache/``, anything
    else in the store or beyond it): such a template fails like any failing template.
    """

    def __init__(self, searchpath: list[str], store_root: Path | None) -> None:
        super().__init__(searchpath)
        self.store_root = store_root

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        source, filename, uptodate = super().get_source(environment, template)
        if self.store_root is not None:
            real = os.path.realpath(filename)
            builtin = os.path.realpath(builtin_templates())
            own = os.path.join(os.path.realpath(self.store_root), TEMPLATES_DIR)
            inside = real.startswith(own + os.sep) or real.startswith(builtin + os.sep)
            if not inside or not os.path.isfile(real):
                raise TemplateError(
                    f"{template} is a symbolic link out of the store's templates folder; "
                    "a template must be a file inside it"
                )
        return source, filename, uptodate


class _GuardedEnvironment(SandboxedEnvironment):
    """The sandbox, plus a deadline and size caps on what a template computes."""

    intercepted_binops = frozenset({"*", "**", "+", "%", "//"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.globals.pop("lipsum", None)  # text by the megabyte, in one call
        self.deadline = _Deadline(time_limit())
        self.concat = self._concat  # type: ignore[method-assign]
        self.filters = {name: self._guarded(f) for name, f in self.filters.items()}
        self.filters[_GUARD_FILTER] = self._loop
        self.filters[_CONCAT_FILTER] = self._tilde

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """Every ``for`` loop iterates through a guard that checks the deadline; ``~`` is sized."""
        tree = super()._parse(source, name, filename)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Filter(loop.iter, _GUARD_FILTER, [], [], None, None)
            loop.iter.set_lineno(loop.lineno)
        for parent in list(tree.find_all(nodes.Node)):
            for field, value in parent.iter_fields():
                if isinstance(value, nodes.Concat):
                    setattr(parent, field, self._sized_concat(value))
                elif isinstance(value, list):
                    value[:] = [
                        self._sized_concat(v) if isinstance(v, nodes.Concat) else v for v in value
                    ]
        return tree

    @staticmethod
    def _sized_concat(node: nodes.Concat) -> nodes.Filter:
        joined = nodes.Filter(nodes.List(node.nodes), _CONCAT_FILTER, [], [], None, None)
        joined.set_lineno(node.lineno)
        return joined

    def _tilde(self, parts: list[Any]) -> str:
        self.deadline.check()
        texts = [str(part) for part in parts]
        return self._concat(texts)

    def _loop(self, iterable: Iterable[Any]) -> Iterator[Any]:
        check = self.deadline.check
        for item in iterable:
            check()
            yield item

    def _concat(self, parts: Iterable[str]) -> str:
        self.deadline.check()
        pieces = list(parts)
        if sum(map(len, pieces)) > MAX_CHARS:
            raise TemplateLimit(f"made a text of more than {MAX_CHARS} characters")
        return "".join(pieces)

    def _guarded(self, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            self.deadline.check()
            _check_args(args)
            _check_args(kwargs.values())
            return _check_size(function(*args, **kwargs))

        return guarded

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        self.deadline.check()
        ints = all(isinstance(v, int) for v in (left, right))
        if operator == "*":
            if ints:
                bits = abs(left).bit_length() + abs(right).bit_length()
                if bits > MAX_INT_BITS:
                    raise TemplateLimit(f"made a number of more than {MAX_INT_BITS} bits")
            elif isinstance(left, int) or isinstance(right, int):
                count, item = (left, right) if isinstance(left, int) else (right, left)
                if _size(item) * max(count, 0) > MAX_CHARS:
                    raise TemplateLimit(f"made a value of more than {MAX_CHARS} items")
        elif operator == "**" and ints:
            if right > 0 and abs(left).bit_length() * right > MAX_INT_BITS:
                raise TemplateLimit(f"made a number of more than {MAX_INT_BITS} bits")
        elif operator == "+":
            if _size(left) + _size(right) > MAX_CHARS:
                raise TemplateLimit(f"made a value of more than {MAX_CHARS} items")
        elif operator == "%" and isinstance(left, str):
            _check_format(left, percent=True)
            _check_args(right if isinstance(right, tuple) else (right,))
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        __self.deadline.check()
        _check_args(args)
        _check_args(kwargs.values())
        return _check_size(super().call(__context, __obj, *args, **kwargs))

    def getattr(self, obj: Any, attribute: str) -> Any:
        self.deadline.check()
        if isinstance(obj, str) and attribute in ("format", "format_map"):
            _check_format(obj, percent=False)
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        self.deadline.check()
        if isinstance(obj, str) and argument in ("format", "format_map"):
            _check_format(obj, percent=False)
        return super().getitem(obj, argument)


@contextlib.contextmanager
def _memory_bound() -> Iterator[None]:
    """Let the address space grow by at most MEMORY_HEADROOM (Linux; elsewhere nothing)."""
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        yield
        return
    bound = used + MEMORY_HEADROOM
    if hard != resource.RLIM_INFINITY:
        bound = min(bound, hard)
    if soft != resource.RLIM_INFINITY and soft <= bound:
        yield
        return
    resource.setrlimit(resource.RLIMIT_AS, (bound, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def ago(timestamp: str) -> str:
    """``3d ago``, or ``just now``."""
    short = age(timestamp)
    return "just now" if short == "now" else f"{short} ago"


def demote(markdown: str, levels: int = 1) -> str:
    """Push every heading down ``levels`` levels, so a quoted document nests in its place.

    A ``#`` line inside a code fence is code (a shell comment), not a heading: it stays.
    """
    lines = markdown.split("\n")
    flags = code_flags(lines) if has_fences(markdown) else ((line, False, "") for line in lines)
    return "\n".join(
        "#" * levels + line if line.startswith("#") and not code else line
        for line, code, _ in flags
    )


def builtin_templates() -> Path:
    """Inside the installed package; in a source checkout, the top-level folder."""
    package = Path(__file__).resolve().parent.parent  # memcli/
    packaged = package / "templates"
    if packaged.is_dir():
        return packaged
    return package.parent / "templates"


class Renderer:
    """Templates rendered under the limits above.

    ``html``: the viewer's pages (``templates/viewer/``), built-in templates only, every
    value escaped (a store's templates arrive through git from others, and a page runs
    in the browser that holds the viewer's cookie).
    """

    def __init__(self, store_root: Path | None = None, *, html: bool = False) -> None:
        search = [builtin_templates()]
        cache = None
        self.store_root = None if html else store_root
        store_root = self.store_root
        if store_root is not None:
            if (store_root / TEMPLATES_DIR).is_dir():
                search.insert(0, store_root / TEMPLATES_DIR)
            # Compiled templates, keyed by their source: saves ~3-8 ms a render.
            cache = _compiled_cache(store_root)
        self.env = _GuardedEnvironment(
            loader=_StoreLoader([str(p) for p in search], store_root),
            undefined=StrictUndefined,
            autoescape=html,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
            bytecode_cache=cache,
        )
        self.env.filters["age"] = age
        self.env.filters["ago"] = ago
        self.env.filters["counted"] = counted
        self.env.filters["demote"] = demote

    def origin(self, name: str) -> str:
        """The file a template name resolves to (a store override, or the built-in one)."""
        source = self.env.get_template(name).filename
        return source or name

    def render(self, name: str, **context: Any) -> str:
        """The rendered text; any failure or limit reached is a MemError naming the template."""
        try:
            with _memory_bound(), _alarm(self.env.deadline):
                return self._render(name, context)
        except TemplateError as exc:
            raise MemError(f"template {name} failed: {_one_line(exc)}") from None
        except TemplateLimit as exc:
            raise MemError(f"template {name} stopped: it {exc}") from None
        except RecursionError:
            raise MemError(f"template {name} failed: it recurses too deeply") from None
        except MemoryError:
            raise MemError(
                f"template {name} stopped: it needed more than {MEMORY_HEADROOM >> 20} MB"
            ) from None
        except Exception as exc:  # the template's own code failed: name it, whatever it was
            raise MemError(
                f"template {name} failed: {type(exc).__name__}: {_one_line(exc)}"
            ) from None

    def _render(self, name: str, context: dict[str, Any]) -> str:
        deadline = self.env.deadline
        deadline.check()
        pieces: list[str] = []
        size = 0
        for piece in self.env.get_template(name).generate(**context):
            deadline.check()
            size += len(piece)
            if size > MAX_CHARS:
                raise TemplateLimit(f"wrote more than {MAX_CHARS} characters")
            pieces.append(piece)
        return "".join(pieces)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _sample_memory() -> dict[str, Any]:
    """Every key a template may read of a memory: the record and entry shapes, and recall's."""
    from memcli.core.guards import Guard
    from memcli.core.model import Observation
    from memcli.core.serialize import record_dict

    observation = Observation(
        id="01JDX3Z6T0V6K8M2Q9R4S5T7W8",
        type="gotcha",
        title="FTS5 MATCH rejects bare hyphens",
        created="2026-11-21T20:15:03Z",
        key="fts-hyphen",
        concepts=["sqlite", "fts5"],
        files=["memcli/query.py"],
        facts=["quote each term before MATCH"],
        importance=0.7,
        narrative="A query like `foo-bar` is parsed as a column filter.",
        guards=[Guard("Bash", "npm install*", "deny")],
    )
    return {
        **record_dict(observation),
        "short_id": "01JDX3Z6",
        "score": 1.5,
        "path": "observations/2026/11/sample.md",
        "layer": "project",
        "matched": 2,
        "excerpt": "A query like `foo-bar` is parsed as a column filter.",
        "text": "## Learned\n\nQuote FTS5 terms.",
        "detail": "A query like `foo-bar` is parsed as a column filter.",
        "stale": False,
        "touches": "file",
    }


def _sample_summary() -> dict[str, Any]:
    from memcli.core.model import Summary
    from memcli.core.serialize import record_dict

    return record_dict(
        Summary(
            id="01JDX3Z6T0V6K8M2Q9R4S5T7W9",
            title="Fix search on hyphens",
            created="2026-11-21T20:15:03Z",
            request="Fix search on hyphens",
            investigated="FTS5 query syntax",
            learned="Quote every term",
            completed="A sanitiser with tests",
            next_steps="Benchmark at 100k",
        )
    )


def sample_variables(name: str) -> dict[str, Any]:
    """Every variable a built-in template receives, with plausible values (for checks)."""
    memory = _sample_memory()
    if name == "session_start.md.j2":
        return {
            "project": "sample",
            "memory_md": "# Notes\nUse plumbing.",
            "summaries": [memory],
            "hot": [memory],
            "warm": [memory],
            "hot_window": "24h",
            "warm_window": "7d",
            "total": 3,
            "more": 0,
            "omitted": {"warm": 1},
            "budget": 8000,
            "drafts": 2,
        }
    if name == "prompt_context.md.j2":
        note = {
            "kind": "note",
            "path": "notes/search.md",
            "heading": "Search > Hyphens",
            "line": 12,
            "excerpt": "Quote every term before MATCH.",
            "score": 1.0,
            "matched": 2,
        }
        return {
            "prompt": "why does search fail?",
            "memories": [memory],
            "notes": [note],
            "transcripts": [
                {
                    "kind": "transcript",
                    "session": "6f1c2d3e-0000-4000-8000-000000000001",
                    "short": "6f1c2d3e",
                    "seq": 42,
                    "ref": "6f1c2d3e-0000-4000-8000-000000000001:42",
                    "time": "2026-11-20T14:03:00Z",
                    "role": "assistant",
                    "tools": [],
                    "snippet": "…the socket timeout is 60 s…",
                    "score": 3.2,
                    "matched": 2,
                }
            ],
            "omitted": 1,
        }
    if name == "compaction.md.j2":
        return {"summary": _sample_summary(), "text": ""}
    return {"memory": memory, "path": "observations/2026/11/sample.md"}
