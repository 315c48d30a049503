from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from memcli.adapters.cli.options import json_option, store_options
from memcli.core.errors import InvalidInput, StoreError
from memcli.core.text import counted

if TYPE_CHECKING:
    from memcli.adapters.agents.registrations import Setup
    from memcli.service.status import LayerStatus


@click.command()
@json_option
@store_options
def status(as_json: bool, store_dir: str | None, project: str | None) -> None:
    """Show the store a command here uses, its counts and index, and the agents connected.

    Where the store is and how it was found (or where the first `mem save` creates
    it), its memories, summaries and notes sections, whether the index is up to date
    with HEAD, the transcripts index, semantic search, the git remote and uncommitted
    changes, and which agents have mem's hooks and MCP server, in this project and for
    the user. It only reads: nothing is created, rebuilt or fixed (`mem doctor --fix`
    repairs).

    \b
    Example:
        mem status
        mem status --json
    """
    from memcli.adapters.agents.registrations import setups
    from memcli.service.status import layer_status
    from memcli.store.location import locate

    cwd = Path.cwd()
    layers: list[LayerStatus] = []
    problem = None
    try:
        layers.append(layer_status(locate(store_dir, project, cwd), by_project=project is not None))
    except InvalidInput:
        raise  # a bad --project name: a usage error, exit 1
    except StoreError as exc:  # no store can be found from here
        problem = str(exc)
    agents = setups(cwd)
    if as_json:
        from memcli.adapters.cli.output import echo_json

        echo_json(
            {
                "layers": [dataclasses.asdict(layer) for layer in layers],
                "writes_to": layers[0].layer if layers else None,
                "problem": problem,
                "agents": [_agent_json(setup) for setup in agents],
            }
        )
        return
    for layer in layers:
        _echo_layer(layer)
    if problem:
        click.echo(f"no store: {problem}")
    else:
        click.echo(f"writes go to the {layers[0].layer} store")
    _echo_agents(agents)


def _agent_json(setup: Setup) -> dict[str, Any]:
    return {
        "agent": setup.agent,
        "scope": setup.scope,
        "hooks": setup.hooks,
        "hooks_path": str(setup.hooks_path),
        "mcp": setup.server,
        "mcp_path": str(setup.server_path),
        "problem": setup.problem,
    }


def _row(name: str, text: str) -> None:
    click.echo(f"  {name:<12} {text}")


def _echo_layer(layer: LayerStatus) -> None:
    click.echo(f"{layer.layer} store: {layer.path}")
    _row("found by", _found_by(layer))
    if not layer.exists:
        _row("exists", f"not yet: the first `mem save` or `mem init` creates it at {layer.path}")
        return
    counts = (
        f"{counted(layer.memories, 'memory', 'memories')}, "
        f"{counted(layer.summaries, 'summary', 'summaries')}, "
        f"{counted(layer.notes_sections, 'notes section', 'notes sections')}"
    )
    if layer.newest:
        when = {None: "at an unknown time", "now": "just now"}.get(
            layer.newest_age, f"{layer.newest_age} ago"
        )
        counts += f"; newest {when} ({layer.newest[:10]})"
    _row("memories", counts)
    if layer.index:
        index = layer.index
        _row(
            "index", index.detail if index.state == "current" else f"{index.state}: {index.detail}"
        )
    if layer.transcripts:
        found = layer.transcripts
        _row(
            "transcripts",
            f"{counted(found['messages'], 'message', 'messages')} in "
            f"{counted(found['sessions'], 'session', 'sessions')}; "
            f"last sync {found['last_sync'] or 'never'}",
        )
    if layer.semantic:
        _row("semantic", layer.semantic)
    _row("git", _git_line(layer))
    for problem in layer.problems:
        _row("problem", problem)


def _found_by(layer: LayerStatus) -> str:
    if layer.source == "central":
        return f"central store of the git repository {layer.project!r}"
    if layer.source == "--project":
        return f"--project {layer.project}"
    if layer.source == ".mem/":
        return "the .mem/ folder of this project"
    return layer.source


def _git_line(layer: LayerStatus) -> str:
    remotes = ", ".join(f"{r['name']} {r['url']}" for r in layer.remotes)
    parts = [f"remote {remotes}" if remotes else "no remote (`mem remote add URL` to share)"]
    changed = len(layer.uncommitted)
    if changed:
        shown = ", ".join(layer.uncommitted[:3]) + (", …" if changed > 3 else "")
        parts.append(
            f"{counted(changed, 'uncommitted change', 'uncommitted changes')} ({shown}; "
            "`mem doctor` says what to do)"
        )
    else:
        parts.append("nothing uncommitted")
    return "; ".join(parts)


def _echo_agents(agents: list[Setup]) -> None:
    from memcli.adapters.agents.registrations import AGENT_NAMES

    click.echo("agents:")
    for agent, name in AGENT_NAMES.items():
        mine = [setup for setup in agents if setup.agent == agent]
        parts = [_scope_part(setup) for setup in mine if setup.hooks or setup.server]
        problems = [f"cannot read: {setup.problem}" for setup in mine if setup.problem]
        text = "; ".join(parts) or f"not installed (`mem install {agent}`)"
        _row(name, "; ".join([text, *problems]))


def _scope_part(setup: Setup) -> str:
    """``hooks and MCP server (user: ~/.gemini/settings.json)``."""
    paths = {setup.hooks_path: "hooks"} if setup.hooks else {}
    if setup.server:
        paths[setup.server_path] = (
            f"{paths[setup.server_path]} and " if setup.server_path in paths else ""
        )
        paths[setup.server_path] += "MCP server"
    held = ", ".join(f"{what} in {_home_relative(path)}" for path, what in paths.items())
    return f"{setup.scope}: {held}"


def _home_relative(path: Path) -> str:
    try:
        return f"~/{path.relative_to(Path.home())}"
    except ValueError:
        return str(path)
