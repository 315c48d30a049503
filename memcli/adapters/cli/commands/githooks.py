from __future__ import annotations

from pathlib import Path

import click

from memcli.adapters.cli.options import json_option, layer_store, notice, store_options
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import ProblemsReported
from memcli.service.memory import Memory
from memcli.store.location import StoreLocation


@click.group("hooks")
def hooks() -> None:
    """Manage the store's git hooks: validation before a commit, reindexing after.

    \b
    Example:
        mem hooks status
        mem hooks install
    """


@hooks.command("install")
@store_options
def hooks_install(store_dir: str | None, project: str | None) -> None:
    """Install the git hooks in the store (a hook already there is kept and runs first).

    \b
    Example:
        mem hooks install
    """
    from memcli.store import githooks

    memory = layer_store(store_dir, project, None)
    for line in githooks.install(memory.store):
        click.echo(line)


@hooks.command("uninstall")
@store_options
def hooks_uninstall(store_dir: str | None, project: str | None) -> None:
    """Remove mem's git hooks from the store (a hook they replaced comes back).

    \b
    Example:
        mem hooks uninstall
    """
    from memcli.store import githooks

    memory = layer_store(store_dir, project, None)
    for line in githooks.uninstall(memory.store) or ["no mem hooks were installed"]:
        click.echo(line)


@hooks.command("status")
@json_option
@store_options
def hooks_status(as_json: bool, store_dir: str | None, project: str | None) -> None:
    """Show which of mem's git hooks are installed in the store.

    \b
    Example:
        mem hooks status
    """
    from memcli.store import githooks

    memory = layer_store(store_dir, project, None)
    states = githooks.status(memory.store)
    if as_json:
        echo_json([{"name": state.name, "state": state.state} for state in states])
        return
    for state in states:
        click.echo(f"{state.name:<14} {state.state}")


@click.command("git-hook", hidden=True)
@click.argument("name")
@click.argument("args", nargs=-1)
def git_hook(name: str, args: tuple[str, ...]) -> None:
    """Run one of the store's git hooks (the hook shims call this).

    \b
    Example:
        mem git-hook pre-commit
    """
    from memcli.store import githooks

    memory = Memory(StoreLocation(Path.cwd(), "git hook"), notify=notice)
    if name in githooks.VALIDATING:
        try:
            memory.refresh_index()
            index = memory.index()
            path_of = index.path_of

            def holders(key: str) -> list[tuple[str, str]]:
                try:
                    return [(entry.id, entry.path) for entry in index.with_key(key)]
                except Exception:  # as above: the index only helps
                    return []

        except Exception:  # the index only helps find duplicate ids and keys: never block

            def path_of(identity: str) -> str | None:
                return None

            def holders(key: str) -> list[tuple[str, str]]:
                return []

        problems = githooks.staged_problems(memory.store, path_of, holders)
        if problems:
            for problem in problems:
                click.echo(f"mem: {problem}", err=True)
            click.echo(
                "mem: commit refused: fix the file(s) above, `git add` them and commit "
                "again (`git commit --no-verify` skips this check)",
                err=True,
            )
            raise ProblemsReported(githooks.REFUSED)
    elif name in githooks.REINDEXING:
        try:
            memory.refresh_index()
        except Exception as exc:  # never block git for the index
            click.echo(f"mem: index not updated after {name}: {exc}", err=True)
    else:
        raise click.UsageError(f"unknown git hook {name!r}")
