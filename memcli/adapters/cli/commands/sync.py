from __future__ import annotations

import json

import click

from memcli.adapters.cli.options import (
    json_option,
    layer_option,
    layer_store,
    open_memory,
    store_options,
)
from memcli.core.text import counted


@click.command("sync")
@click.option(
    "--continue",
    "resume",
    is_flag=True,
    help="Finish a sync that stopped on a conflict, once the files are fixed.",
)
@click.option(
    "--force-with-lease",
    is_flag=True,
    help="Replace the remote's history with the store's (after `mem forget --purge`), "
    "only if the remote did not change since mem last saw it.",
)
@json_option
@layer_option
@store_options
def sync_command(
    resume: bool,
    force_with_lease: bool,
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Share memory through the store's git remote: fetch, rebase, push, reindex.

    Nothing is committed on your behalf. When the same memory changed on both
    sides, sync stops and lists the files; fix them, `git add` them, then run
    `mem sync --continue`. A fetch or push still running after MEM_GIT_TIMEOUT
    seconds (120) is stopped.

    \b
    Example:
        mem remote add git@example.com:team/memory.git
        mem sync
    """
    from memcli.store.remote import sync_with_remote

    if resume and force_with_lease:
        raise click.UsageError("give one of --continue and --force-with-lease")
    memory = layer_store(store_dir, project, layer)
    steps = []
    for line in sync_with_remote(memory.store, resume=resume, force_with_lease=force_with_lease):
        steps.append(line)
        if not as_json:
            click.echo(line)
    report = memory.reindex(full=False)
    added, removed = (report.added, report.removed) if report is not None else (0, 0)
    if as_json:
        click.echo(json.dumps({"steps": steps, "indexed": {"added": added, "removed": removed}}))
    elif report is not None and not report.rebuilt and (added or removed):
        click.echo(f"index: {added} added, {removed} removed")


@click.group("remote")
def remote() -> None:
    """Manage the store's git remotes (where `mem sync` shares memory).

    \b
    Example:
        mem remote add git@example.com:team/memory.git
        mem remote list
    """


@remote.command("add")
@click.argument("url")
@click.option("--name", default="origin", show_default=True, help="The remote's name.")
@json_option
@layer_option
@store_options
def remote_add(
    url: str,
    name: str,
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Add a git remote to the store.

    \b
    Example:
        mem remote add /srv/git/memory.git
    """
    from memcli.store.network import shown_url
    from memcli.store.remote import add_remote

    memory = layer_store(store_dir, project, layer)
    add_remote(memory.store, url, name)
    shown = shown_url(url)
    if as_json:
        click.echo(json.dumps({"name": name, "url": shown}))
        return
    click.echo(f"Added remote {name}: {shown}. `mem sync` shares memory through it.")


@remote.command("list")
@json_option
@layer_option
@store_options
def remote_list(
    as_json: bool, layer: str | None, store_dir: str | None, project: str | None
) -> None:
    """List the store's remotes: name and URL.

    \b
    Example:
        mem remote list
    """
    from memcli.store.remote import list_remotes

    remotes = list_remotes(layer_store(store_dir, project, layer).store)
    if as_json:
        click.echo(json.dumps([{"name": name, "url": url} for name, url in remotes]))
        return
    if not remotes:
        click.echo("no remote: `mem remote add URL` adds one", err=True)
    for name, url in remotes:
        click.echo(f"{name}\t{url}")


@remote.command("remove")
@click.argument("name")
@json_option
@layer_option
@store_options
def remote_remove(
    name: str, as_json: bool, layer: str | None, store_dir: str | None, project: str | None
) -> None:
    """Remove a remote from the store; the memories stay.

    \b
    Example:
        mem remote remove origin
    """
    from memcli.store.remote import remove_remote

    remove_remote(layer_store(store_dir, project, layer).store, name)
    click.echo(json.dumps({"removed": name}) if as_json else f"Removed remote {name}.")


@click.command("clone")
@click.argument("url")
@click.argument("directory", metavar="[DIR]", required=False)
@click.option(
    "--branch",
    metavar="NAME",
    help="The remote's branch that holds the memories (default: the one its HEAD "
    "names, else main, else its only branch).",
)
@json_option
@store_options
def clone_command(
    url: str,
    directory: str | None,
    branch: str | None,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Make a store that is a clone of an existing memory repository.

    The store goes into DIR when given, like `git clone URL DIR`; otherwise where
    `mem` would look for it (--store, --project, MEM_STORE, or the central store
    of the current git repository).

    \b
    Example:
        mem clone git@example.com:team/memory.git
        mem clone /srv/git/memory.git ~/memory
    """
    from memcli.store.clone import clone
    from memcli.store.network import shown_url

    if directory is not None:
        if store_dir is not None or project is not None:
            raise click.UsageError("give the place once: DIR, --store or --project")
        store_dir = directory
    memory = open_memory(store_dir, project)
    cloned = clone(url, memory.store, branch)
    memory.install_git_hooks()
    report = memory.reindex(full=True)
    indexed = report.added if report else 0
    url = shown_url(url)  # what is printed: never a password the URL holds
    if as_json:
        click.echo(
            json.dumps(
                {"store": str(memory.store.root), "url": url, "branch": cloned, "memories": indexed}
            )
        )
        return
    memories = counted(indexed, "memory", "memories")
    click.echo(f"Cloned {url} (branch {cloned}) into {memory.store.root}: {memories} indexed.")
