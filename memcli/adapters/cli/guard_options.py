"""``--guard TOOL:GLOB`` and ``--guard-action`` of ``mem save`` and ``mem edit``.

A guard is read and checked here, before the store is opened: a malformed one is
refused in one line and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from memcli.core.guards import ACTIONS

if TYPE_CHECKING:
    from memcli.core.guards import Guard
    from memcli.core.model import Observation

F = TypeVar("F", bound=Callable[..., Any])


def guard_options(what: str) -> Callable[[F], F]:
    """``--guard`` (repeatable) and ``--guard-action``; ``what`` says what --guard does."""

    def decorate(f: F) -> F:
        f = click.option(
            "--guard-action",
            type=click.Choice(ACTIONS),
            help="What a guard does when a tool call matches it: refuse the call (deny), "
            "ask the person (ask) or let it through with the memory shown (warn). "
            "[default: ask]",
        )(f)
        return click.option(
            "--guard",
            "guard_specs",
            multiple=True,
            metavar="TOOL:GLOB",
            help=f"{what} TOOL is Bash, Read, Edit or Write; GLOB matches the command "
            "('Bash:npm install*') or the path ('Read:.env', 'Edit:migrations/**').",
        )(f)

    return decorate


def given_guards(specs: tuple[str, ...], action: str | None) -> list[Guard] | None:
    """The guards ``--guard`` gives (None without one); ``--guard-action`` alone is misuse."""
    from memcli.core.draft import parse_guards

    if action is not None and not specs:
        raise click.UsageError("--guard-action needs --guard TOOL:GLOB")
    return parse_guards(list(specs), action)


def suggestion_hint(saved: dict[str, Any]) -> str | None:
    """One line suggesting the guards a saved memory's text asks for, as a ``mem edit``
    to run; None when it has guards already or its text asks for none.

    Of several suggestions, those of the strictest action: one command gives one action.
    """
    import shlex

    from memcli.core.guard_suggest import suggest_guards

    if saved["guards"] or saved["kind"] != "observation":
        return None
    suggested = suggest_guards(f"{saved['title']}\n{saved['narrative']}")
    if not suggested:
        return None
    action = min((guard.action for guard in suggested), key=ACTIONS.index)
    flags = " ".join(f"--guard {shlex.quote(g.spec)}" for g in suggested if g.action == action)
    return f"hint: guard it: mem edit {saved['id']} {flags} --guard-action {action}"


class GuardEdit:
    """What ``mem edit`` does to a memory's guards: replace them, clear them, or change
    the action of each."""

    def __init__(self, specs: tuple[str, ...], action: str | None, clear: bool) -> None:
        from memcli.core.draft import parse_guards

        if clear and (specs or action):
            raise click.UsageError("--no-guards clears the guards: give no --guard with it")
        self.guards = parse_guards(list(specs), None) if specs else None
        self.action = action
        self.clear = clear

    def __bool__(self) -> bool:
        return bool(self.guards or self.action or self.clear)

    def applied(self, observation: Observation) -> Observation:
        """``observation`` with its guards changed."""
        from memcli.core.errors import InvalidInput
        from memcli.core.guards import make_guard

        if self.clear:
            return observation.replace(guards=[])
        guards = self.guards if self.guards is not None else observation.guards
        if self.action is not None:
            if not guards:
                raise InvalidInput(
                    f"{observation.id} has no guards to give the action {self.action}: "
                    "add one with --guard TOOL:GLOB"
                )
            guards = [make_guard(guard.tool, guard.glob, self.action) for guard in guards]
        return observation.replace(guards=list(dict.fromkeys(guards)))
