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
    from memcli.service.status import LayersStatus, LayerStatus


@click.command()
@json_option
@store_options
def status(as_json: bool, store_dir: str | None, project: str | None) -> None:
    """Show the layers a command here reads, where it writes, their counts and index, and agents.

    Every layer found for this directory: the project's store, the team's
    .mem-team/ folder of the project's repository, and your own user store. For
    each, where it is and how it was found (or where the first save creates it),
    its memories, summaries and notes sections, whether its index is up to date
    (a team folder's index lives in your cache), the transcripts index, semantic
    search, the git remote and uncommitted changes (and, for the team, what is
    staged for review), and whether the project store's warm worker runs. Then the
    layer a plain `mem save` writes to, and which
    agents have mem's hooks and MCP server, in this project and for the user.
    It only reads: nothing is created, rebuilt or fixed (`mem doctor --fix` repairs).

    \b
    Example:
        mem status
        mem status --json
    """
    from memcli.adapters.agents.registrations import setups
    from memcli.service.status import layers_status
    from memcli.store.location import locate

    cwd = Path.cwd()
    found: LayersStatus | None = None
    problem = None
    try:
        found = layers_status(locate(store_dir, project, cwd), cwd, by_project=project is not None)
    except InvalidInput:
        raise  # a bad --project name: a usage error, exit 1
    except StoreError as exc:  # no store can be found from here
        problem = str(exc)
    agents = setups(cwd)
    layers = found.layers if found is not None else []
    project_layer = next((layer for layer in layers if layer.layer == "project"), None)
    worker = None
    if project_layer is not None and project_layer.exists:
        worker = worker_status(Path(project_layer.path))
    if as_json:
        from memcli.adapters.cli.output import echo_json

        echo_json(
            {
                "layers": [dataclasses.asdict(layer) for layer in found.layers] if found else [],
                "writes_to": found.writes_to if found else None,
                "writes_by_type": found.by_type if found else {},
                "settings": found.settings if found else [],
                "worker": worker,
                "problem": problem,
                "agents": [_agent_json(setup) for setup in agents],
            }
        )
        return
    if found is None:
        click.echo(f"no store: {problem}")
    else:
        for layer in found.layers:
            _echo_layer(layer)
            if layer is project_layer and worker is not None:
                _row("worker", _worker_line(worker))
        if not any(layer.layer == "team" for layer in found.layers) and _in_git(cwd):
            click.echo("team layer: none here (`mem init --layer team` makes .mem-team/)")
        click.echo(_writes_line(found))
        for line in found.settings:
            click.echo(f"settings: {line}")
    _echo_agents(agents)


def worker_status(root: Path) -> dict[str, Any]:
    """The store's warm worker (``mem serve --worker``): ``state`` is ``running`` (with its
    pid, start, answers, and whether it was started with this process's variables:
    ``same_env``), ``starting`` (it holds the store's worker lock but did not
    answer: starting, busy, or of another mem or environment), ``stopped`` or ``off``
    (whether a session start would start one: ``auto``)."""
    from memcli.adapters.worker import client
    from memcli.core import config

    auto = bool(config.load(root)["serve"]["auto"])
    socket_path = client.worker_socket(root)
    found: dict[str, Any] = {
        "state": "stopped" if auto else "off",
        "auto": auto,
        "socket": str(socket_path) if socket_path else None,
    }
    if socket_path is None:
        return found
    health = None
    if socket_path.exists():
        health = client.ask(
            socket_path, "GET", "/health", root, budget=WORKER_BUDGET, same_env=False
        )
    if isinstance(health, dict) and health.get("status") == "ok":
        found["state"] = "running"
        found |= {name: health.get(name) for name in ("pid", "started", "idle_exit", "answered")}
        found["same_env"] = health.get("env") == client.env_digest()
    elif client.worker_running(socket_path):
        found["state"] = "starting"
    return found


WORKER_BUDGET = 0.5
"""Seconds ``mem status`` waits for the worker's ``/health``."""


def _worker_line(worker: dict[str, Any]) -> str:
    state = worker["state"]
    if state == "running":
        idle = worker.get("idle_exit") or 0
        exits = f"; exits after {idle // 60:g} min without a request" if idle else ""
        other = (
            ""
            if worker.get("same_env")
            else "; started with other MEM_/XDG_/HF_/GIT_ variables than here, so commands"
            " run here answer themselves"
        )
        return (
            f"running (pid {worker.get('pid')}, since {worker.get('started')}, "
            f"{counted(worker.get('answered') or 0, 'answer', 'answers')}){exits}{other}"
        )
    if state == "starting":
        return "starting or busy: it holds the store's lock but did not answer"
    if state == "stopped":
        return "not running; the next session start starts it ([serve] auto = true)"
    return "off (`mem install AGENT --worker` or [serve] auto = true in mem.toml turns it on)"


def _in_git(cwd: Path) -> bool:
    from memcli.store.git import work_tree_top

    return work_tree_top(cwd) is not None


def _writes_line(found: LayersStatus) -> str:
    """``writes go to the project store`` and the types mem.toml's ``[layers]`` sends elsewhere."""
    line = f"writes go to the {found.writes_to} store"
    if found.by_type:
        routes = ", ".join(f"{kind} to {layer}" for kind, layer in found.by_type.items())
        line += f" (mem.toml [layers]: {routes}); `--layer` chooses another"
    return line


def _agent_json(setup: Setup) -> dict[str, Any]:
    return {
        "agent": setup.agent,
        "scope": setup.scope,
        "hooks": setup.hooks,
        "guard_hook": setup.guards,
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
        _row("exists", _creates(layer))
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


def _creates(layer: LayerStatus) -> str:
    """Where a missing layer's store comes from."""
    if layer.layer == "user":
        return (
            f"not yet: `mem init --layer user` or the first `mem save --layer user` "
            f"creates it at {layer.path}"
        )
    return f"not yet: the first `mem save` or `mem init` creates it at {layer.path}"


def _found_by(layer: LayerStatus) -> str:
    if layer.source == "user":
        return "your own store, for every project ($MEM_HOME/_user)"
    if layer.source == "MEM_USER_STORE":
        return "MEM_USER_STORE (your own store, for every project)"
    if layer.source == "team":
        return "the .mem-team/ folder of this project's git work tree (reviewed with the code)"
    if layer.source == "central":
        return f"central store of the git repository {layer.project!r}"
    if layer.source == "--project":
        return f"--project {layer.project}"
    if layer.source == ".mem/":
        return "the .mem/ folder of this project"
    return layer.source


def _git_line(layer: LayerStatus) -> str:
    team = layer.layer == "team"
    remotes = ", ".join(f"{r['name']} {r['url']}" for r in layer.remotes)
    if team:
        parts = [f"the project's repository{f' (remote {remotes})' if remotes else ''}"]
    else:
        parts = [f"remote {remotes}" if remotes else "no remote (`mem remote add URL` to share)"]
    changed = len(layer.uncommitted)
    what = (
        ("unstaged change", "unstaged changes")
        if team
        else ("uncommitted change", "uncommitted changes")
    )
    if changed:
        shown = ", ".join(layer.uncommitted[:3]) + (", …" if changed > 3 else "")
        parts.append(f"{counted(changed, *what)} ({shown}; `mem doctor` says what to do)")
    else:
        parts.append(f"no {what[1]}" if team else "nothing uncommitted")
    if layer.staged:
        parts.append(
            f"{counted(len(layer.staged), 'file', 'files')} staged for review "
            "(`git diff --cached -- .mem-team/`)"
        )
    return "; ".join(parts)


def _echo_agents(agents: list[Setup]) -> None:
    from memcli.adapters.agents.registrations import AGENT_NAMES, plain_mem_problems

    click.echo("agents:")
    for agent, name in AGENT_NAMES.items():
        mine = [setup for setup in agents if setup.agent == agent]
        parts = [_scope_part(setup) for setup in mine if setup.hooks or setup.server]
        problems = [f"cannot read: {setup.problem}" for setup in mine if setup.problem]
        text = "; ".join(parts) or f"not installed (`mem install {agent}`)"
        _row(name, "; ".join([text, *problems]))
    for note in plain_mem_problems(agents):
        click.echo(f"  warning: {note}")
    if any(setup.agent == "gemini" and (setup.hooks or setup.server) for setup in agents):
        from memcli.adapters.agents.gemini_trust import untrusted_note

        untrusted = untrusted_note(Path.cwd())
        if untrusted:
            click.echo(f"  warning: {untrusted}")


def _scope_part(setup: Setup) -> str:
    """``hooks and MCP server (user: ~/.gemini/settings.json)``."""
    hooks = "hooks" if setup.guards else "hooks (without the guards hook: reinstall)"
    paths = {setup.hooks_path: hooks} if setup.hooks else {}
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
