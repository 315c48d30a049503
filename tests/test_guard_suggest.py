"""Suggested guards: what a memory's text asks for, and what ``mem save`` says about it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memcli.core.guard_suggest import suggest_guards
from memcli.core.guards import Guard, make_guard

from .conftest import mem, mem_json, run_mem

POSITIVE = [
    ("never npm install", [Guard("Bash", "npm install*", "deny")]),
    ("Use pnpm, never npm.", [Guard("Bash", "npm *", "deny")]),
    ("Always use pnpm instead of npm", [Guard("Bash", "npm *", "deny")]),
    ("Use pnpm, not npm: the lockfile is pnpm's.", [Guard("Bash", "npm *", "deny")]),
    ("We prefer pnpm over npm", [Guard("Bash", "npm *", "ask")]),
    ("Don't read .env files", [Guard("Read", ".env", "deny")]),
    ("Never read `.env.production`", [Guard("Read", ".env.production", "deny")]),
    ("Don't edit files under migrations/ by hand", [Guard("Edit", "migrations/**", "deny")]),
    ("never edit migrations/ by hand.", [Guard("Edit", "migrations/**", "deny")]),
    ("Don't edit the generated folder", [Guard("Edit", "generated/**", "deny")]),
    ("Do not modify package-lock.json", [Guard("Edit", "package-lock.json", "deny")]),
    ("Don't open secrets/prod.yaml", [Guard("Read", "secrets/prod.yaml", "deny")]),
    ("never write to dist/ directly", [Guard("Write", "dist/**", "deny")]),
    (
        "Never force-push.",
        [Guard("Bash", "git push --force*", "deny"), Guard("Bash", "git push -f*", "deny")],
    ),
    ("Don't run git push --force", [Guard("Bash", "git push --force*", "deny")]),
    ("never git reset --hard", [Guard("Bash", "git reset --hard*", "deny")]),
    ("Never run `rm -rf /`", [Guard("Bash", "rm -rf /*", "deny")]),
    (
        "avoid `docker compose down -v`: it drops the database volume",
        [Guard("Bash", "docker compose down -v*", "ask")],
    ),
    ("Do not run `terraform apply`; CI does it", [Guard("Bash", "terraform apply*", "deny")]),
    ("We use uv; don't use pip.", [Guard("Bash", "pip *", "deny")]),
    ("never use sudo", [Guard("Bash", "sudo *", "deny")]),
    (
        "don't use npm or yarn, use pnpm",
        [Guard("Bash", "npm *", "deny"), Guard("Bash", "yarn *", "deny")],
    ),
    ("never run ./scripts/reset-db.sh", [Guard("Bash", "./scripts/reset-db.sh*", "deny")]),
    (
        "You shouldn't npm publish by hand because CI signs the package",
        [Guard("Bash", "npm publish*", "ask")],
    ),
]

NEGATIVE = [
    "never mind, the build passes now",
    "don't worry about the tests",
    "always run the tests before pushing",
    # Narration, not a rule: only the verbs of a rule are read.
    "we never used npm workspaces before 2023",
    # Narrowed in a way a glob cannot say: nothing rather than a guard too wide.
    "never npm install globally",
    "don't run npm install without --frozen-lockfile",
    "never git push --force to main",
    "Do not run `terraform apply` locally",
    "don't rm -rf the build folder",
    "don't forget to run npm install after pulling",
    "avoid long functions",
    "never use `var` in new code",
    "don't read too much into flaky test failures",
    "Never change the public API without a deprecation",
    "npm is slower than pnpm here",
    "don't open PRs against main",
    "Never edit e.g. the config by hand",
    "never open https://example.com/docs/a.html in the agent",
    "Do not commit .env",
    "the migrations/ folder holds every schema change",
    "don't hesitate to ask",
    "never assume the cache is warm",
    "git push --force is fine on your own branches",
    "we switched to pnpm instead of npm last year",
]


@pytest.mark.parametrize(("text", "expected"), POSITIVE, ids=[t for t, _ in POSITIVE])
def test_a_prohibition_of_a_command_or_a_path_suggests_its_guard(
    text: str, expected: list[Guard]
) -> None:
    assert suggest_guards(text) == expected


@pytest.mark.parametrize("text", NEGATIVE)
def test_anything_else_suggests_nothing(text: str) -> None:
    assert suggest_guards(text) == []


def test_suggestions_come_once_each_in_the_order_asked() -> None:
    text = "Never read .env. Use pnpm, never npm; and again: never npm!\nDon't read .env files."
    assert suggest_guards(text) == [
        Guard("Read", ".env", "deny"),
        Guard("Bash", "npm *", "deny"),
    ]


words = st.sampled_from(
    [
        "never",
        "don't",
        "avoid",
        "use",
        "run",
        "read",
        "edit",
        "npm",
        "install",
        "--force",
        ".env",
        "migrations/",
        "`",
        "`rm -rf`",
        ",",
        ".",
        "instead",
        "of",
        "by",
        "hand",
        "folder",
        "*",
        "\n",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(words | st.text(max_size=8), max_size=12).map(" ".join))
@example("")
@example("never ``")
@example("avoid `*`")
def test_any_text_is_read_and_every_suggestion_is_a_valid_guard(text: str) -> None:
    for guard in suggest_guards(text):
        assert make_guard(guard.tool, guard.glob, guard.action) == guard


def test_save_prints_one_ready_to_run_hint_and_adds_no_guard(store: Path) -> None:
    done = run_mem("save", "Use pnpm, never npm", "--type", "preference")
    assert done.returncode == 0, done.stderr
    identity = done.stdout.strip()
    assert done.stderr == (
        f"mem: hint: guard it: mem edit {identity} --guard 'Bash:npm *' --guard-action deny\n"
    )
    assert mem_json("show", identity)[0]["guards"] == []


def test_the_hint_names_every_suggestion_of_the_strictest_action(store: Path) -> None:
    done = run_mem("save", "Never read .env and avoid `docker compose down -v`.", "--json")
    identity = mem_json("list")[0]["id"]
    assert (
        done.stderr
        == f"mem: hint: guard it: mem edit {identity} --guard Read:.env --guard-action deny\n"
    )


def test_no_hint_when_the_memory_has_guards_or_nothing_fits(store: Path) -> None:
    done = run_mem("save", "Use pnpm, never npm", "--guard", "Bash:npm install*")
    assert done.returncode == 0 and done.stderr == ""
    done = run_mem("save", "Deploys go out on Tuesdays")
    assert done.returncode == 0 and done.stderr == ""


def test_the_hint_runs_as_printed(store: Path) -> None:
    import shlex

    done = run_mem("save", "Never edit files under migrations/ by hand")
    command = shlex.split(done.stderr.split("guard it: ", 1)[1])
    assert command[:2] == ["mem", "edit"]
    mem(*command[1:])
    [shown] = mem_json("show", done.stdout.strip())
    assert shown["guards"] == [{"tool": "Edit", "glob": "migrations/**", "action": "deny"}]
