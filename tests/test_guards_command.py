"""`mem guards` and `mem guards test`, the pre-tool hook's registration, doctor's guard checks."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memcli.adapters.agents.pretool import MATCHERS
from memcli.core import guard_table
from memcli.core.guards import Guard
from memcli.core.model import Observation

from .conftest import git, guarded, mem, run_mem
from .conftest import write_store as write_new_store

IDS = ("01JD0000000000000000000001", "01JD0000000000000000000002")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git project, the current directory; its central store is MEM_HOME/app."""
    root = tmp_path / "app"
    git(tmp_path, "init", "-q", "-b", "main", str(root))
    monkeypatch.chdir(root)
    return root


def central(*memories: Observation) -> Path:
    root = Path(os.environ["MEM_HOME"]) / "app"
    root.parent.mkdir(parents=True, exist_ok=True)
    return write_new_store(root, list(memories))


def test_guards_lists_every_layers_active_guards(project: Path) -> None:
    central(guarded(IDS[0], "Use pnpm, never npm", Guard("Bash", "npm *", "deny")))
    user = Path(os.environ["MEM_HOME"]) / "_user"
    write_new_store(user, [guarded(IDS[1], "Mind .env", Guard("Read", ".env", "warn"))])
    listed = json.loads(mem("guards", "--json").stdout)
    assert [(r["layer"], r["tool"], r["glob"], r["action"]) for r in listed] == [
        ("user", "Read", ".env", "warn"),
        ("project", "Bash", "npm *", "deny"),
    ]
    assert set(listed[0]) == {"id", "title", "text", "layer", "tool", "glob", "action"}
    text = mem("guards").stdout
    assert "deny Bash:npm *" in text and "Use pnpm, never npm (project)" in text


def test_guards_says_when_there_are_none(project: Path) -> None:
    central(guarded(IDS[0], "No rule here"))
    result = mem("guards")
    assert result.stdout == "" and "No guards" in result.stderr


def test_guards_test_says_which_guard_fires_and_exits_by_it(project: Path) -> None:
    central(
        guarded(IDS[0], "Use pnpm, never npm", Guard("Bash", "npm *", "deny")),
        guarded(IDS[1], "Careful with npm ci", Guard("Bash", "npm ci*", "warn")),
    )
    fired = mem("guards", "test", "Bash", "npm ci --silent")
    assert fired.stdout.startswith("deny: Bash 'npm ci --silent'")
    assert f"mem show {IDS[0]}" in fired.stdout and "Careful with npm ci" in fired.stdout
    found = json.loads(mem("guards", "test", "Bash", "npm ci", "--json").stdout)
    assert found["decision"] == "deny"
    assert [m["action"] for m in found["matches"]] == ["deny", "warn"]
    assert found["matches"][0]["subject"] == "npm ci"
    none = mem("guards", "test", "Bash", "pnpm install", expect=1)
    assert "No guard fires" in none.stdout
    assert json.loads(mem("guards", "test", "Read", "x", "--json", expect=1).stdout) == {
        "decision": None,
        "matches": [],
    }
    mem("guards", "test", "Grep", "npm", expect=2)


# ---------------------------------------------------------------- registration


def test_install_registers_the_pre_tool_hook_with_its_matcher_and_uninstall_removes_it(
    project: Path,
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    theirs = {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}
    original = json.dumps({"hooks": {"PreToolUse": [theirs]}}, indent=2) + "\n"
    settings.write_text(original)
    mem("install", "claude")
    groups = json.loads(settings.read_text())["hooks"]["PreToolUse"]
    assert groups[0]["hooks"][0]["command"] == "lint"  # theirs, untouched
    (ours,) = [g for g in groups if "hook claude PreToolUse" in g["hooks"][0]["command"]]
    assert ours["matcher"] == MATCHERS["claude"] == "Bash|Read|Edit|MultiEdit|Write|NotebookEdit"
    mem("uninstall", "claude")
    assert settings.read_text() == original


@pytest.mark.parametrize(
    ("agent", "path", "event"),
    [
        ("codex", ".codex/hooks.json", "PreToolUse"),
        ("gemini", ".gemini/settings.json", "BeforeTool"),
    ],
)
def test_codex_and_gemini_get_their_pre_tool_hook(
    project: Path, agent: str, path: str, event: str
) -> None:
    mem("install", agent)
    (group,) = json.loads((project / path).read_text())["hooks"][event]
    assert group["matcher"] == MATCHERS[agent]
    assert group["hooks"][0]["command"].endswith(f"hook {agent} {event}")
    mem("uninstall", agent)
    assert not (project / path).exists() or event not in (project / path).read_text()


def test_status_and_doctor_know_the_pre_tool_hook(project: Path) -> None:
    central(guarded(IDS[0], "A memory"))
    mem("install", "claude")
    found = json.loads(mem("status", "--json").stdout)
    (entry,) = [a for a in found["agents"] if (a["agent"], a["scope"]) == ("claude", "project")]
    assert entry["hooks"] and entry["guard_hook"]
    settings = project / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    del data["hooks"]["PreToolUse"]  # as an older mem installed them
    settings.write_text(json.dumps(data))
    doctor = run_mem("doctor")
    assert doctor.returncode == 1
    assert "not its pre-tool hook" in doctor.stdout and "mem install claude" in doctor.stdout


# ---------------------------------------------------------------- doctor


def test_doctor_reports_a_damaged_guard_table_and_fix_rewrites_it(project: Path) -> None:
    root = central(guarded(IDS[0], "Use pnpm, never npm", Guard("Bash", "npm *", "deny")))
    table = root / ".cache" / guard_table.TABLE_FILE
    table.write_text("{damaged")
    doctor = run_mem("doctor")
    assert doctor.returncode == 1
    assert "the guard table is damaged" in doctor.stdout and "mem reindex" in doctor.stdout
    table.write_text("{damaged")
    fixed = run_mem("doctor", "--fix")
    assert "rewrote the damaged guard table" in fixed.stdout
    assert [row.glob for row in guard_table.read(str(table)).rows] == ["npm *"]


def test_doctor_reports_guards_that_can_never_match(project: Path) -> None:
    central(
        guarded(IDS[0], "Spaced out", Guard("Bash", " npm *", "deny")),
        guarded(IDS[1], "Absolute", Guard("Read", str(project / "config" / ".env"), "ask")),
    )
    doctor = run_mem("doctor")
    assert doctor.returncode == 1
    lines = [line for line in doctor.stdout.splitlines() if "never matches" in line]
    assert len(lines) == 2
    assert "single-spaced" in lines[0] and f"mem edit {IDS[0]}" in lines[0]
    assert "'config/.env'" in lines[1]


def test_doctor_warns_of_a_stale_guard_table(project: Path) -> None:
    root = central(guarded(IDS[0], "Use pnpm, never npm", Guard("Bash", "npm *", "deny")))
    (path,) = [p for p in root.rglob("*.md") if IDS[0] in p.read_text()]
    git(root, "rm", "-q", str(path))
    git(root, "commit", "-qm", "forgotten by hand")
    doctor = json.loads(run_mem("doctor", "--json").stdout)
    assert any("behind the store" in line and "mem reindex" in line for line in doctor["warnings"])
    assert (
        guard_table.read(str(root / ".cache" / guard_table.TABLE_FILE)).rows == []
    )  # read: rewritten
