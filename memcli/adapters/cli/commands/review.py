"""``mem review``: the lesson drafts sessions left, accepted into memories or rejected."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from memcli.adapters.cli.guard_options import suggestion_hint
from memcli.adapters.cli.options import json_option, notice, open_memory, store_options
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import InvalidInput, MemError, StoreError

if TYPE_CHECKING:
    from memcli.api import MemStore

CHOICES = {"a": "accept", "e": "edit", "r": "reject", "s": "skip", "q": "quit"}


@click.group(invoke_without_command=True)
@click.option(
    "--interactive/--no-interactive",
    default=None,
    help="One draft at a time, answers read from stdin (default: when stdin is a terminal).",
)
@json_option
@store_options
@click.pass_context
def review(
    ctx: click.Context,
    interactive: bool | None,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Review the lessons sessions drafted: accept them as memories, or reject them.

    At each session's end mem drafts what the session taught (the person's
    corrections and rules, root causes found, decisions agreed, notes) into the
    store's drafts/ folder, where no agent reads them. Without a subcommand this
    lists the drafts waiting, newest first (--json: each with id, type, kind,
    title, text, files, source, created); on a terminal it goes through them one
    at a time: [a]ccept, [e]dit then accept ($EDITOR: the first line is the
    title), [r]eject, [s]kip, [q]uit. Drafts older than [review] expire (30 days)
    are removed first.

    \b
    Example:
        mem review
        mem review --json
        mem review accept 5f3c0762 9e1a
        mem review accept --all
        mem review reject 5f3c0762
    """
    ctx.ensure_object(dict)
    ctx.obj.update(store_dir=store_dir, project=project)
    if ctx.invoked_subcommand is not None:
        return
    store = _store(store_dir, project)
    try:
        expired = store.expire_drafts()
    except StoreError as exc:  # no commit can be made now: they are never listed all the same
        notice(f"{exc} (the expired drafts are removed later)")
        expired = ()
    if expired:
        notice(f"removed {len(expired)} expired draft{'s' * (len(expired) != 1)}")
    drafts = store.drafts()
    if as_json:
        echo_json(drafts)
        return
    if not drafts:
        notice("no lesson drafts are waiting")
        return
    if interactive is None:
        interactive = sys.stdin is not None and sys.stdin.isatty()
    if interactive:
        _one_at_a_time(store, drafts)
        return
    for draft in drafts:
        _show(draft)
    notice("`mem review accept ID` keeps one as a memory, `mem review reject ID` drops it")


@review.command("accept")
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--all", "every", is_flag=True, help="Accept every draft waiting.")
@json_option
@click.pass_context
def accept(ctx: click.Context, ids: tuple[str, ...], every: bool, as_json: bool) -> None:
    """Keep lesson drafts as memories (ids or unique prefixes), a commit each.

    Each is saved as `mem save` saves (secrets screened, duplicates found) with
    its provenance (session, agent, source_message) and leaves drafts/ in the
    same commit. Nothing is accepted unless every id is found.

    \b
    Example:
        mem review accept 5f3c0762
        mem review accept --all --json
    """
    if bool(ids) == every:
        raise click.UsageError("give the drafts' ids, or --all")
    store = _store(ctx.obj["store_dir"], ctx.obj["project"])
    accepted = store.accept_drafts(None if every else list(ids))
    if as_json:
        echo_json(accepted)
        return
    for answer in accepted:
        _said_accepted(answer)


@review.command("reject")
@click.argument("ids", nargs=-1, required=True, metavar="ID...")
@json_option
@click.pass_context
def reject(ctx: click.Context, ids: tuple[str, ...], as_json: bool) -> None:
    """Drop lesson drafts (ids or unique prefixes) in one commit that names them.

    Nothing is removed unless every id is found; a rejected lesson is never
    drafted again.

    \b
    Example:
        mem review reject 5f3c0762 9e1a
    """
    store = _store(ctx.obj["store_dir"], ctx.obj["project"])
    waiting = {d["id"]: d for d in store.drafts()}
    answer = store.reject_draft(list(ids))
    if as_json:
        echo_json(answer)
        return
    for identity in answer["rejected"]:
        click.echo(f"rejected {identity}  {waiting.get(identity, {}).get('title', '')}")


def _store(store_dir: str | None, project: str | None) -> MemStore:
    from memcli.api import MemStore

    memory = open_memory(store_dir, project)
    memory.require_store()
    return MemStore(memory)


def _show(draft: dict[str, Any], *, whole: bool = False) -> None:
    source = draft["source"]
    click.echo(f"{draft['id']}  {draft['type']:<10}  {draft['title']}")
    text = draft["text"] if whole else next(iter(draft["text"].splitlines()), "")[:200]
    for line in text.splitlines():
        click.echo(f"    {line}")
    where = f"{source['agent']} session {source['session'][:12]}, message {source['message']}"
    files = f"; files: {', '.join(draft['files'])}" if draft["files"] else ""
    click.echo(f"    ({draft['kind']}, from {where}{files})")
    if draft.get("guard"):
        click.echo(f"    suggested guard: {draft['guard']}")


def _said_accepted(answer: dict[str, Any]) -> None:
    if answer["action"] == "duplicate":
        click.echo(f"{answer['draft']}: kept already as {answer['id']}; the draft is removed")
    else:
        click.echo(f"accepted {answer['draft']} as {answer['id']}  {answer['title']}")
        hint = suggestion_hint(answer)
        if hint:
            notice(hint)


def _one_at_a_time(store: MemStore, drafts: list[dict[str, Any]]) -> None:
    """Each draft shown whole, then the person's choice; quit leaves the rest waiting."""
    for number, draft in enumerate(drafts, start=1):
        click.echo(f"\n[{number}/{len(drafts)}] ", nl=False)
        _show(draft, whole=True)
        choice = CHOICES[
            click.prompt(
                "[a]ccept, [e]dit, [r]eject, [s]kip, [q]uit",
                type=click.Choice(list(CHOICES)),
                show_choices=False,
            )
        ]
        if choice == "quit":
            return
        try:
            if choice == "accept":
                _said_accepted(store.accept_draft(draft["id"]))
            elif choice == "edit":
                edited = _edited(draft)
                if edited is None:
                    notice("nothing left after the edit: the draft is skipped")
                    continue
                title, text = edited
                _said_accepted(store.accept_draft(draft["id"], text=text, title=title))
            elif choice == "reject":
                store.reject_draft(draft["id"])
                click.echo(f"rejected {draft['id']}")
        except MemError as exc:
            notice(f"{exc}; the draft is left waiting")


def _edited(draft: dict[str, Any]) -> tuple[str, str] | None:
    """The draft's title and text as edited in $EDITOR (its first line the title), or
    None when emptied."""
    edited = click.edit(f"{draft['title']}\n\n{draft['text']}\n", extension=".md")
    if edited is None:
        return draft["title"], draft["text"]  # closed without saving: accepted as it was
    title, _, text = edited.strip().partition("\n")
    if not title.strip():
        return None
    if not text.strip():
        raise InvalidInput("the lesson's text is empty after the edit")
    return title.strip(), text.strip()
