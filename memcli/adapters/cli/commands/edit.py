from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.guard_options import GuardEdit, guard_options
from memcli.adapters.cli.options import (
    layer_option,
    open_memory,
    secrets_options,
    store_options,
)
from memcli.core.errors import InvalidInput, InvalidMemoryFile, MemError, StoreError
from memcli.store.files import Store

if TYPE_CHECKING:
    from collections.abc import Callable

    from memcli.core.model import Record
    from memcli.core.secrets import Policy
    from memcli.service.memory import Memory

LIST_FIELDS = ("facts", "concepts", "files", "supersedes")
SCALAR_FIELDS = ("type", "title", "key", "importance", "session", "narrative")
ERROR_MARK = "# mem: "
EDITOR_ATTEMPTS = 5


@click.command()
@click.argument("ref", metavar="ID|KEY")
@click.option(
    "--set",
    "assignments",
    multiple=True,
    metavar="FIELD=VALUE",
    help="Change one field without an editor (repeatable). Lists (facts, concepts, "
    "files, supersedes) take a JSON array or comma-separated values; supersedes takes "
    "ids or keys.",
)
@guard_options("Replace the memory's guards with these (repeatable).")
@click.option("--no-guards", "clear_guards", is_flag=True, help="Remove every guard it has.")
@secrets_options
@layer_option
@store_options
def edit(
    ref: str,
    assignments: tuple[str, ...],
    guard_specs: tuple[str, ...],
    guard_action: str | None,
    clear_guards: bool,
    secrets: Policy,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Edit a memory in $EDITOR (or with --set), check it, and commit it.

    An invalid file is opened again with the problem on top, the way `git commit`
    treats an empty message; emptying the file cancels the edit.

    --guard replaces the memory's guards, --no-guards removes them, and
    --guard-action alone gives every guard it has that action.

    \b
    Example:
        mem edit fts-hyphen
        mem edit 01JDX3Z6 --set type=decision --set "facts=[\\"quote terms\\"]"
        mem edit deploy-day --set supersedes=deploy-day-old
        mem edit use-pnpm --guard 'Bash:npm *' --guard-action deny
    """
    guards = GuardEdit(guard_specs, guard_action, clear_guards)
    reader = open_memory(store_dir, project, layer)
    entry = reader.to_write(ref, reader.resolve(ref))  # in any layer (--layer: in that one)
    memory = reader.layer_memory(entry.layer)  # and edited there
    if assignments or guards:
        assignments = tuple(_resolved(memory, assignment) for assignment in assignments)
        result = memory.writer.replace_file(
            entry, lambda record: _assigned(record, assignments, guards), secrets=secrets
        )
    else:
        original = memory.store.read_bytes(entry.path)

        def check(record: Record) -> None:
            if record.key != entry.key:  # only a key being taken must be free
                memory.check_key_free(record)

        text = _edited_in_editor(original.decode("utf-8"), entry.path, check)
        if text is None:
            click.echo("mem: edit cancelled (the file was emptied); nothing changed", err=True)
            return
        if text == original.decode("utf-8"):
            click.echo(f"unchanged {entry.id}  {entry.title}")
            return
        try:
            result = memory.writer.replace_file(entry, text, base=original, secrets=secrets)
        except MemError as exc:
            kept = _keep(memory.store, entry.id, text)
            raise MemError(
                f"{exc}. Your edited text is kept in {kept}: run `mem edit {ref}` "
                "again and bring your changes over"
            ) from None
    click.echo(f"{result.action} {entry.id}  {result.record.title}")


def _keep(store: Store, identity: str, text: str) -> Path:
    """Save text typed in an edit that could not be committed, so nothing is lost."""
    import tempfile

    try:
        folders = [store.cache_dir / "edits"]
    except StoreError:  # no usable cache folder: the temporary folder still keeps it
        folders = []
    for folder in [*folders, Path(tempfile.gettempdir())]:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f"mem-edit-{identity}-", suffix=".md", dir=folder)
        except OSError:
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        return Path(name)
    raise StoreError(f"could not keep the edited text of {identity} in a file")


def _resolved(memory: Memory, assignment: str) -> str:
    """``supersedes=REF,...`` with each reference (id, prefix or key) as the memory's id."""
    name, _, value = assignment.partition("=")
    if name.strip() != "supersedes":
        return assignment
    ids = [memory.resolve(ref).id for ref in _list_value(value)]
    return f"supersedes={json.dumps(ids)}"


def _assigned(record: object, assignments: tuple[str, ...], guards: GuardEdit) -> str:
    from memcli.core.model import Observation
    from memcli.core.serialize import record_dict

    if not isinstance(record, Observation):
        raise InvalidInput("--set and --guard edit observations; edit a summary in $EDITOR")
    data = {**record_dict(record), "narrative": record.narrative}
    for assignment in assignments:
        name, sep, value = assignment.partition("=")
        name = name.strip()
        if not sep or name not in (*LIST_FIELDS, *SCALAR_FIELDS):
            raise InvalidInput(
                f"cannot set {assignment!r}: use FIELD=VALUE with a field among "
                f"{', '.join((*SCALAR_FIELDS, *LIST_FIELDS))}"
            )
        if name in LIST_FIELDS:
            data[name] = _list_value(value)
        else:
            data[name] = value or None
    narrative = data.pop("narrative") or ""
    extra = {k: v for k, v in data.items() if k not in ("kind",)}
    updated = guards.applied(Observation.from_metadata(extra, narrative))
    from memcli.core.timeutil import format_timestamp, now

    return updated.replace(updated=format_timestamp(now())).to_markdown()


def _list_value(value: str) -> list[str]:
    if value.strip().startswith("["):
        try:
            items = json.loads(value)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"not a JSON array: {exc}") from None
        if not isinstance(items, list):
            raise InvalidInput("a list field takes a JSON array")
        return [str(item) for item in items]
    return [part.strip() for part in value.split(",") if part.strip()]


def _edited_in_editor(original: str, path: str, check: Callable[[Record], None]) -> str | None:
    """The text after editing; re-opened with the problem on top while it is invalid."""
    from memcli.store.files import parse_memory_file

    text = original
    for _ in range(EDITOR_ATTEMPTS):
        edited = click.edit(text, extension=".md", require_save=False)
        if edited is None:
            edited = text
        body = "".join(
            line for line in edited.splitlines(keepends=True) if not line.startswith(ERROR_MARK)
        )
        if not body.strip():
            return None
        try:
            check(parse_memory_file(path, body.encode("utf-8")))
        except (InvalidMemoryFile, MemError) as exc:
            text = f"{ERROR_MARK}{exc}\n{ERROR_MARK}fix it and save, or empty the file to cancel\n"
            text += body
            continue
        return body
    raise InvalidInput(
        f"the file is still invalid after {EDITOR_ATTEMPTS} edits; nothing was changed"
    )
