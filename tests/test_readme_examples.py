"""The README's shell examples run as written.

Every fenced block marked ```sh in README.md is an example of use and runs, in
the order the README gives them, each in one `sh -e` (so any failing line fails
it), with the installed `mem` first on PATH, in one git project at
`~/code/my-project` (the project the quick start names) with HOME and MEM_HOME
of the test's own. One rule leaves blocks out: a block that installs mem (a
line running `pip install`, `pipx install` or `uv tool install`) is setup, not
an example, and does not run. No agent runs in a test: the agents an example
starts (`claude`, `codex`, `gemini`) are stand-ins whose session saves one
memory through `mem save`, as an agent told to would.

Where the README says what a command shows, the test checks those lines.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from .conftest import REPO_ROOT, git, mem_executable

README = REPO_ROOT / "README.md"
SETUP = re.compile(r"\b(pip install|pipx install|uv tool install)\b")
AGENTS = ("claude", "codex", "gemini")
SESSION = """#!/bin/sh
exec mem save "Invoice numbers come from a Postgres sequence per tenant, never MAX(id)+1" \\
    --type decision --key invoice-numbers >/dev/null
"""
"""What a stand-in agent's session does."""


def shell_blocks(text: str) -> list[str]:
    """The body of every ```sh block, in order (indented fences included)."""
    blocks, body, inside = [], [], False
    for line in text.splitlines():
        fence = line.strip()
        if not inside and fence == "```sh":
            inside, body = True, []
        elif inside and fence == "```":
            inside = False
            blocks.append("\n".join(body) + "\n")
        elif inside:
            body.append(line)
    return blocks


def examples() -> list[str]:
    """The blocks that run: every ```sh block but the ones that install mem."""
    return [block for block in shell_blocks(README.read_text()) if not SETUP.search(block)]


def test_the_rule_leaves_out_the_setup_and_nothing_else() -> None:
    blocks = shell_blocks(README.read_text())
    left_out = [block for block in blocks if SETUP.search(block)]
    assert left_out[0] == blocks[0]  # the try-it lines at the top
    assert len(examples()) >= 3


def test_every_readme_example_runs_as_written(isolated_env: Path) -> None:
    home = isolated_env
    stand_ins = home / "stand-ins"
    stand_ins.mkdir()
    for agent in AGENTS:
        (stand_ins / agent).write_text(SESSION)
        (stand_ins / agent).chmod(0o755)
    project = home / "code" / "my-project"
    project.mkdir(parents=True)
    git(project, "init", "-q")
    git(project, "commit", "-q", "--allow-empty", "-m", "first")
    path = os.pathsep.join([str(Path(mem_executable()).parent), str(stand_ins), os.environ["PATH"]])
    shown = []
    for block in examples():
        done = subprocess.run(
            ["sh", "-e"],
            input=block,
            capture_output=True,
            text=True,
            cwd=project,
            env={**os.environ, "PATH": path},
            timeout=120,
        )
        assert done.returncode == 0, (block, done.stdout, done.stderr)
        shown.append(done.stdout)
    everything = "\n".join(shown)
    # The layers: the search finds the user's memory and the promoted one, each marked.
    assert re.search(r"\(user\) Install packages with pnpm", everything), everything
    assert re.search(r"\(team\) Deploys freeze on Fridays", everything), everything
    assert "deploy-freeze" in git(project, "diff", "--cached", "--", ".mem-team/")
    # The quick start: the hooks installed, and the search finds what the session saved.
    assert (project / ".claude" / "settings.json").is_file()
    assert re.search(r"decision .* Invoice numbers come from a Postgres sequence", everything)
