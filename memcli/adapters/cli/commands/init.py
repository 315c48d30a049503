from __future__ import annotations

from pathlib import Path

import click

from memcli.adapters.cli.options import json_option, notice, open_memory, store_options
from memcli.adapters.cli.output import echo_json
from memcli.service.memory import Memory
from memcli.store.files import Store
from memcli.store.location import StoreLocation, local_store_root


@click.command()
@click.option(
    "--local",
    is_flag=True,
    help="Create .mem/ at the top of this project (a git repository of its own, "
    "ignored by the project's repository) instead of a central store.",
)
@click.option(
    "--layer",
    type=click.Choice(["user", "team"]),
    help="user: create your own store, read in every project ($MEM_HOME/_user, or "
    "MEM_USER_STORE). team: create .mem-team/ at the top of this project's git work tree, a "
    "folder the project's repository tracks (mem stages its memories for review; it never "
    "commits them).",
)
@click.option(
    "--remote",
    "remote_url",
    metavar="URL",
    help="Add this git remote to the new store (see `mem sync`).",
)
@click.option(
    "--no-hooks",
    "hooks",
    flag_value=False,
    default=True,
    help="Do not install the store's git hooks (validation and reindexing).",
)
@json_option
@store_options
def init(
    local: bool,
    layer: str | None,
    remote_url: str | None,
    hooks: bool,
    as_json: bool,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Create a memory store.

    By default the store is central, under $MEM_HOME/<project>, where the
    project is named after the git repository of the current directory (all
    its worktrees share it). The first `mem save` creates one by itself.

    \b
    Example:
        mem init
        mem init --local
        mem init --layer user
        mem init --store ~/notes/agent-memory
    """
    if layer == "team":
        if local or store_dir or remote_url:
            raise click.UsageError(
                "--layer team is the project's .mem-team/ folder: give no --local, --store "
                "or --remote with it"
            )
        _init_team(as_json)
        return
    outer: Path | None = None
    if layer == "user":
        if local or store_dir or project:
            raise click.UsageError(
                "--layer user is your own store ($MEM_HOME/_user, or MEM_USER_STORE): give no "
                "--local, --store or --project with it"
            )
        from memcli.store.layers import user_store_root

        store = Store(user_store_root())
    elif local:
        if store_dir:
            raise click.UsageError("--local and --store name two different places; give one")
        root = local_store_root(Path.cwd())
        outer = root.parent
        store = Store(root)
    else:
        store = open_memory(store_dir, project).store
    created = store.create(exclude_from=outer)
    if created and hooks:
        Memory(StoreLocation(store.root, "init"), notify=notice).install_git_hooks()
    if remote_url:
        from memcli.store.remote import add_remote

        add_remote(store, remote_url)
    from memcli.store.network import shown_url

    shown = shown_url(remote_url) if remote_url else None
    if as_json:
        echo_json({"store": str(store.root), "created": created, "remote": shown})
        return
    if created:
        click.echo(f"Created a memory store at {store.root}")
    else:
        click.echo(f"A memory store already exists at {store.root}")
    if remote_url:
        click.echo(f"Added remote origin: {shown}")


def _init_team(as_json: bool) -> None:
    """``mem init --layer team``: the project's .mem-team/ folder, its README staged."""
    from memcli.store.layers import team_folder_root
    from memcli.store.team import TeamStore

    root = team_folder_root(Path.cwd())
    if root is None:
        raise click.ClickException(
            f"{Path.cwd()} is not inside a git work tree; the team layer is a folder of the "
            "project's repository: run this in the project"
        )
    created = TeamStore(root).create()
    if as_json:
        echo_json({"store": str(root), "created": created, "layer": "team"})
    elif created:
        click.echo(f"Created the team layer at {root} (staged: review and commit it with git)")
    else:
        click.echo(f"The team layer already exists at {root}")
