"""The documentation stays in step with the commands."""

from __future__ import annotations

import re

from memcli.adapters.cli.main import HIDDEN_ALIASES

from .conftest import REPO_ROOT, cli_commands

COMMANDS_DOC = REPO_ROOT / "docs" / "commands.md"


def command_cells() -> list[str]:
    """The first cell of every row of the command table."""
    rows = [line for line in COMMANDS_DOC.read_text().splitlines() if line.startswith("| `mem ")]
    return [row[2:].split(" | ", 1)[0] for row in rows]


def test_the_command_reference_lists_every_command_and_subcommand() -> None:
    cells = command_cells()
    missing = []
    for path, _ in cli_commands():
        if path[0] in HIDDEN_ALIASES:
            continue
        rest = rf"[^`]*\b{re.escape(path[-1])}\b" if len(path) > 1 else ""
        wanted = re.compile(rf"`mem {re.escape(path[0])}\b{rest}")
        if not any(wanted.search(cell) for cell in cells):
            missing.append(" ".join(path))
    assert missing == []


def test_the_command_reference_names_only_real_commands() -> None:
    names = {path[0] for path, _ in cli_commands()}
    named = {name for cell in command_cells() for name in re.findall(r"`mem ([a-z-]+)", cell)}
    assert named - names == set()


def test_every_document_link_resolves() -> None:
    documents = [REPO_ROOT / "README.md", REPO_ROOT / "CONTRIBUTING.md"]
    documents += sorted((REPO_ROOT / "docs").glob("*.md"))
    broken = []
    for document in documents:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", document.read_text()):
            if "://" not in target and not (document.parent / target).exists():
                broken.append(f"{document.name}: {target}")
    assert broken == []


def test_the_options_the_command_tables_name_are_real() -> None:
    """Each `--option` a row of the command tables names is one its command takes."""
    options: dict[str, set[str]] = {}
    for path, command in cli_commands():
        names = {name for param in command.params for name in getattr(param, "opts", [])}
        names |= {name for param in command.params for name in getattr(param, "secondary_opts", [])}
        options.setdefault(path[0], set()).update(names)
    rows = (
        COMMANDS_DOC.read_text().splitlines() + (REPO_ROOT / "README.md").read_text().splitlines()
    )
    unknown = []
    for row in rows:
        if not row.startswith("| `mem "):
            continue
        first, rest = row[2:].split(" | ", 1)
        known = set().union(
            *(options.get(name, set()) for name in re.findall(r"mem ([a-z-]+)", first))
        )
        unknown += [
            f"{first}: {flag}" for flag in re.findall(r"--[a-z][a-z-]*", rest) if flag not in known
        ]
    assert unknown == []
