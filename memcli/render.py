"""Rendering memories through Jinja templates (the only module that imports jinja2).

Templates come from the store's own ``templates/`` folder first, file by file,
then from the ones shipped with mem. Memory content is only ever passed in as
data, never compiled, so ``{{ }}`` in a memory is printed as it is. The
environment is sandboxed because a store's templates can arrive through
``git pull`` from someone else, and undefined names fail loudly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment

from memcli.errors import MemError
from memcli.timeutil import age


def ago(timestamp: str) -> str:
    """``3d ago``, or ``just now``."""
    short = age(timestamp)
    return "just now" if short == "now" else f"{short} ago"


def demote(markdown: str, levels: int = 1) -> str:
    """Push every heading down ``levels`` levels, so a quoted document nests in its place."""
    return "\n".join(
        "#" * levels + line if line.startswith("#") else line for line in markdown.split("\n")
    )


def builtin_templates() -> Path:
    """Inside the installed package; in a source checkout, the top-level folder."""
    packaged = Path(__file__).parent / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).parent.parent / "templates"


class Renderer:
    def __init__(self, store_root: Path | None = None) -> None:
        search = [builtin_templates()]
        cache = None
        if store_root is not None:
            if (store_root / "templates").is_dir():
                search.insert(0, store_root / "templates")
            # Compiled templates, keyed by their source: saves ~10 ms a render.
            compiled = store_root / ".cache" / "templates"
            try:
                compiled.mkdir(parents=True, exist_ok=True)
                cache = FileSystemBytecodeCache(str(compiled))
            except OSError:
                cache = None  # a read-only store renders all the same, only slower
        self.env = SandboxedEnvironment(
            loader=FileSystemLoader([str(p) for p in search]),
            undefined=StrictUndefined,
            autoescape=False,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
            bytecode_cache=cache,
        )
        self.env.filters["age"] = age
        self.env.filters["ago"] = ago
        self.env.filters["demote"] = demote

    def origin(self, name: str) -> str:
        """The file a template name resolves to (a store override, or the built-in one)."""
        source = self.env.get_template(name).filename
        return source or name

    def render(self, name: str, **context: Any) -> str:
        try:
            return self.env.get_template(name).render(**context)
        except TemplateError as exc:
            raise MemError(f"template {name} failed: {exc}") from None


_SAMPLE_MEMORY = {
    "id": "01JDX3Z6T0V6K8M2Q9R4S5T7W8",
    "short_id": "01JDX3Z6",
    "kind": "observation",
    "type": "gotcha",
    "title": "FTS5 MATCH rejects bare hyphens",
    "created": "2026-11-21T20:15:03Z",
    "updated": None,
    "key": "fts-hyphen",
    "concepts": ["sqlite", "fts5"],
    "files": ["memcli/query.py"],
    "facts": ["quote each term before MATCH"],
    "importance": 0.7,
    "session": None,
    "narrative": "A query like `foo-bar` is parsed as a column filter.",
    "score": 1.5,
    "matched": 2,
    "excerpt": "A query like `foo-bar` is parsed as a column filter.",
    "text": "## Learned\n\nQuote FTS5 terms.",
}
_SAMPLE_SUMMARY = {
    "title": "Fix search on hyphens",
    "request": "Fix search on hyphens",
    "investigated": "FTS5 query syntax",
    "learned": "Quote every term",
    "completed": "A sanitiser with tests",
    "next_steps": "Benchmark at 100k",
}


def sample_variables(name: str) -> dict[str, Any]:
    """Every variable a built-in template receives, with plausible values (for checks)."""
    if name == "session_start.md.j2":
        return {
            "project": "sample",
            "memory_md": "# Notes\nUse plumbing.",
            "summaries": [_SAMPLE_MEMORY],
            "hot": [_SAMPLE_MEMORY],
            "warm": [_SAMPLE_MEMORY],
            "hot_window": "24h",
            "warm_window": "7d",
            "total": 3,
            "more": 0,
            "omitted": {"warm": 1},
            "budget": 8000,
        }
    if name == "prompt_context.md.j2":
        return {"prompt": "why does search fail?", "memories": [_SAMPLE_MEMORY], "omitted": 1}
    if name == "compaction.md.j2":
        return {"summary": _SAMPLE_SUMMARY, "text": ""}
    return {"memory": _SAMPLE_MEMORY, "path": "observations/2026/11/sample.md"}
