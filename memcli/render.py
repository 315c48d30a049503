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

from jinja2 import FileSystemLoader, StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment

from memcli.errors import MemError
from memcli.timeutil import age


def ago(timestamp: str) -> str:
    """``3d ago``, or ``just now``."""
    short = age(timestamp)
    return "just now" if short == "now" else f"{short} ago"


def builtin_templates() -> Path:
    """Inside the installed package; in a source checkout, the top-level folder."""
    packaged = Path(__file__).parent / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).parent.parent / "templates"


class Renderer:
    def __init__(self, store_root: Path | None = None) -> None:
        search = [builtin_templates()]
        if store_root is not None and (store_root / "templates").is_dir():
            search.insert(0, store_root / "templates")
        self.env = SandboxedEnvironment(
            loader=FileSystemLoader([str(p) for p in search]),
            undefined=StrictUndefined,
            autoescape=False,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters["age"] = age
        self.env.filters["ago"] = ago

    def render(self, name: str, **context: Any) -> str:
        try:
            return self.env.get_template(name).render(**context)
        except TemplateError as exc:
            raise MemError(f"template {name} failed: {exc}") from None
