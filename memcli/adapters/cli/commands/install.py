from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.options import F
from memcli.core.errors import MemError

if TYPE_CHECKING:
    from memcli.adapters.agents.config_file import SettingsChange


def _scope_options(f: F) -> F:
    """``--scope project|user`` (``--user`` for short) and ``--dry-run``, for every agent."""
    return _scopes(["project", "user"], "The project's settings, or the user's (every project).")(f)


def _scopes(choices: list[str], help: str) -> Callable[[F], F]:
    def decorate(f: F) -> F:
        f = click.option("--dry-run", is_flag=True, help="Print the change; write nothing.")(f)
        f = click.option("--user", "scope", flag_value="user", help="Short for --scope user.")(f)
        # Before --scope, --project chose the project's settings; it stays, hidden, for scripts.
        f = click.option("--project", "scope", flag_value="project", hidden=True)(f)
        return click.option(
            "--scope",
            type=click.Choice(choices),
            default="project",
            show_default=True,
            help=help,
        )(f)

    return decorate


_claude_scopes = _scopes(
    ["project", "local", "user"],
    "The project's shared settings (committed: plain `mem`, no path of this machine; the "
    "folders mem was told of go to .claude/settings.local.json), the project's settings "
    "for you only (local: .claude/settings.local.json and ~/.claude.json), or yours "
    "(every project).",
)


def _warn_other_mem(agent: str, scope: str) -> None:
    """Say when the project's plain ``mem`` would not run this installation."""
    if scope == "project":
        from memcli.adapters.agents.config_file import other_mem_on_path

        note = other_mem_on_path(agent)
        if note:
            click.echo(f"warning: {note}", err=True)


def _server_option(where: str) -> Callable[[F], F]:
    """``--mcp/--no-mcp``: the MCP server too, or the hooks only.

    Unset, the server is registered when it can start (the MCP extra is installed).
    """
    return click.option(
        "--mcp/--no-mcp",
        "with_mcp",
        default=None,
        help=f"Also `mem mcp` in {where} (the default when the MCP extra is installed), "
        "or the hooks only.",
    )


def _worker_option(f: F) -> F:
    return click.option(
        "--worker",
        is_flag=True,
        help="The session start's hook also starts the store's warm worker (`mem serve "
        "--worker`) when none answers: hooks then answer from it ([serve] auto = true in "
        "mem.toml does the same for one store).",
    )(f)


def _uninstall_server_option(f: F) -> F:
    return click.option(
        "--mcp/--no-mcp",
        "with_mcp",
        default=True,
        show_default=True,
        help="Also remove mem's MCP server, or only the hooks.",
    )(f)


def _server_wanted(with_mcp: bool | None) -> bool:
    """Whether to register ``mem mcp``: as asked, else when it can start here.

    Asked for and unable to start: one line and exit 1, before anything is written.
    Not asked for and unable to start: the hooks alone, and one line saying how to add it.
    """
    if with_mcp is False:
        return False  # the hooks alone: no need to try the SDK's (slow) import
    from memcli.adapters.mcp.sdk import INSTALL_EXTRA, cannot_start_reason

    reason = cannot_start_reason()
    if reason is None:
        return True
    if with_mcp:
        raise MemError(
            f"mem's MCP server could not start here: {reason}; {INSTALL_EXTRA} first,"
            " or install the hooks without it (--no-mcp)"
        )
    click.echo(
        f"mem: the hooks only: mem's MCP server could not start here ({reason});"
        f" {INSTALL_EXTRA}, then run this again to add it",
        err=True,
    )
    return False


def _report(change: SettingsChange, dry_run: bool, done: str) -> None:
    if change.backup_left is not None:
        click.echo(
            f"mem's copy of {change.path} from before its install is still at"
            f" {change.backup_left}: delete it when you no longer need it."
        )
    if not change.changed:
        click.echo(f"Nothing to change in {change.path}.")
        return
    click.echo(change.diff, nl=False)
    click.echo(f"{'Would have ' + done[0].lower() + done[1:] if dry_run else done} {change.path}.")


@click.group()
def install() -> None:
    """Connect mem to an agent.

    \b
    Example:
        mem install claude
    """


@install.command("claude")
@_claude_scopes
@_server_option(".mcp.json (--scope local or user: .claude.json)")
@_worker_option
def install_claude(scope: str, with_mcp: bool | None, dry_run: bool, worker: bool) -> None:
    """Add mem's hooks to Claude Code's settings (merged, backed up, diff shown).

    SessionStart gets the session-start context, UserPromptSubmit the memories
    recalled for the prompt, PostCompact saves the compaction summary,
    SessionEnd starts a summary of the session. Other settings and hooks are
    never touched. `mem mcp` (the search, timeline, get, save, forget and
    context tools) is registered as the MCP server "mem" the same way, when
    the MCP extra is installed (--no-mcp: the hooks only).

    The project's files are committed, so they name nothing of this machine:
    MEM_HOME and MEM_STORE, when set, go to .claude/settings.local.json.
    --scope local keeps everything out of the files the project commits.

    \b
    Example:
        mem install claude --dry-run
        mem install claude --scope local
        mem install claude --scope user
        mem install claude --no-mcp
        mem install claude --worker
    """
    from memcli.adapters.agents import claude_mcp
    from memcli.adapters.agents.claude_settings import install as add_hooks
    from memcli.adapters.agents.claude_settings import project_top, settings_path
    from memcli.adapters.agents.config_file import machine_env

    with_mcp = _server_wanted(with_mcp)
    cwd, shared = Path.cwd(), scope == "project"
    path = settings_path(user=scope == "user", cwd=cwd, local=scope == "local")
    machine = machine_env() if scope != "user" else {}
    change = add_hooks(
        path, dry_run=dry_run, worker=worker, shared=shared, env=None if shared else machine
    )
    _report(change, dry_run, "Installed mem's hooks in")
    if shared and machine:
        local = settings_path(user=False, cwd=cwd, local=True)
        change = add_hooks(local, dry_run=dry_run, hooks=False, env=machine)
        _report(change, dry_run, f"Wrote this machine's {', '.join(machine)} in")
    if with_mcp:
        project = str(project_top(cwd).resolve()) if scope == "local" else None
        mcp_path = claude_mcp.config_path(user=scope != "project", cwd=cwd)
        change = claude_mcp.install(mcp_path, dry_run=dry_run, shared=shared, project=project)
        _report(change, dry_run, "Registered mem's MCP server in")
    _warn_other_mem("claude", scope)


@click.group()
def uninstall() -> None:
    """Disconnect mem from an agent.

    \b
    Example:
        mem uninstall claude
    """


@uninstall.command("claude")
@_claude_scopes
@_uninstall_server_option
def uninstall_claude(scope: str, with_mcp: bool, dry_run: bool) -> None:
    """Remove exactly the hooks, variables and MCP server `mem install claude` added.

    \b
    Example:
        mem uninstall claude
        mem uninstall claude --scope local
    """
    from memcli.adapters.agents import claude_mcp
    from memcli.adapters.agents.claude_settings import project_top, settings_path
    from memcli.adapters.agents.claude_settings import uninstall as remove_hooks

    cwd, local = Path.cwd(), scope == "local"
    path = settings_path(user=scope == "user", cwd=cwd, local=local)
    _report(remove_hooks(path, dry_run=dry_run, env=local), dry_run, "Removed mem's hooks from")
    if scope == "project":
        local_path = settings_path(user=False, cwd=cwd, local=True)
        change = remove_hooks(local_path, dry_run=dry_run, env=True, hooks=False)
        if change.changed:
            _report(change, dry_run, "Removed this machine's variables from")
    if with_mcp:
        project = str(project_top(cwd).resolve()) if local else None
        mcp_path = claude_mcp.config_path(user=scope != "project", cwd=cwd)
        change = claude_mcp.uninstall(mcp_path, dry_run=dry_run, project=project)
        _report(change, dry_run, "Removed mem's MCP server from")


@install.command("codex")
@_scope_options
@_server_option("config.toml")
@_worker_option
def install_codex(scope: str, dry_run: bool, with_mcp: bool | None, worker: bool) -> None:
    """Add mem's hooks to Codex's hooks.json and `mem mcp` to its config.toml.

    SessionStart gets the session-start context (within mem.toml's
    [agents] codex_context: Codex cuts hook text over about 2,500 tokens),
    UserPromptSubmit the memories recalled for the prompt, SessionEnd starts
    the summary of the session's rollout. The project's .codex/ by default,
    --user for $CODEX_HOME (~/.codex). Other settings and hooks are never
    touched; config.toml gets one marked block of text. Codex runs the hooks
    once you trust them (/hooks in Codex).

    \b
    Example:
        mem install codex --dry-run
        mem install codex --user
        mem install codex --no-mcp
    """
    from memcli.adapters.agents import codex

    hooks_path, config_path = codex.paths(user=scope == "user", cwd=Path.cwd())
    with_mcp = _server_wanted(with_mcp)
    shared = scope == "project"
    if with_mcp:
        # A config mem must refuse: no hooks either.
        codex.install_server(config_path, dry_run=True, shared=shared)
    hooks_change = codex.CODEX_HOOKS.install(
        hooks_path, dry_run=dry_run, worker=worker, shared=shared
    )
    _report(hooks_change, dry_run, "Installed mem's hooks in")
    if with_mcp:
        change = codex.install_server(config_path, dry_run=dry_run, shared=shared)
        _report(change, dry_run, "Registered mem's MCP server in")
    if hooks_change.changed:
        click.echo(codex.trust_note(user=scope == "user"))
    in_toml = codex.toml_hook_events(config_path)
    if in_toml:
        click.echo(
            f"{config_path} declares hooks too ({', '.join(in_toml)}): Codex runs both"
            " and warns at start-up that this layer keeps hooks in two places."
        )
    _warn_other_mem("codex", scope)


@uninstall.command("codex")
@_scope_options
@_uninstall_server_option
def uninstall_codex(scope: str, dry_run: bool, with_mcp: bool) -> None:
    """Remove exactly what `mem install codex` added.

    \b
    Example:
        mem uninstall codex
    """
    from memcli.adapters.agents import codex

    hooks_path, config_path = codex.paths(user=scope == "user", cwd=Path.cwd())
    change = codex.CODEX_HOOKS.uninstall(hooks_path, dry_run=dry_run)
    _report(change, dry_run, "Removed mem's hooks from")
    if with_mcp:
        _report(
            codex.uninstall_server(config_path, dry_run=dry_run),
            dry_run,
            "Removed mem's MCP server from",
        )


@install.command("gemini")
@_scope_options
@_server_option("mcpServers")
@_worker_option
def install_gemini(scope: str, dry_run: bool, with_mcp: bool | None, worker: bool) -> None:
    """Add mem's hooks and `mem mcp` to Gemini CLI's settings.json.

    SessionStart gets the session-start context, BeforeAgent the memories
    recalled for the prompt, SessionEnd starts a detached summary of the
    session's file; the MCP server "mem" gives the tools. The project's
    .gemini/settings.json by default, --user for ~/.gemini. PreCompress is not
    used: Gemini CLI gives its hooks no compression summary.

    \b
    Example:
        mem install gemini --dry-run
        mem install gemini --no-mcp
    """
    from memcli.adapters.agents import gemini

    with_mcp = _server_wanted(with_mcp)
    path = gemini.settings_path(user=scope == "user", cwd=Path.cwd())
    change = gemini.install(
        path, dry_run=dry_run, with_mcp=with_mcp, worker=worker, shared=scope == "project"
    )
    done = "Installed mem's hooks and MCP server in" if with_mcp else "Installed mem's hooks in"
    _report(change, dry_run, done)
    _warn_other_mem("gemini", scope)
    from memcli.adapters.agents.gemini_trust import untrusted_note

    note = untrusted_note(Path.cwd())
    if note:
        click.echo(f"warning: {note}", err=True)


@uninstall.command("gemini")
@_scope_options
@_uninstall_server_option
def uninstall_gemini(scope: str, dry_run: bool, with_mcp: bool) -> None:
    """Remove exactly what `mem install gemini` added.

    \b
    Example:
        mem uninstall gemini
    """
    from memcli.adapters.agents import gemini

    path = gemini.settings_path(user=scope == "user", cwd=Path.cwd())
    done = "Removed mem's hooks and MCP server from" if with_mcp else "Removed mem's hooks from"
    _report(gemini.uninstall(path, dry_run=dry_run, with_mcp=with_mcp), dry_run, done)
