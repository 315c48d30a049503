"""Settings that run a program or download a model come from the user's own config only.

A store's ``mem.toml`` (central, ``.mem/``, synced from a remote) and the team folder
arrive through git: as git never runs a hook that came with a clone, mem never runs a
command, nor fetches a model, that such a file names. ``~/.config/mem/config.toml``
(``$XDG_CONFIG_HOME/mem/config.toml``) holds them; everything harmless a store's
``mem.toml`` may still set.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

import memcli
from tests.conftest import git, git_project, mem, mem_json, run_mem, user_config

GOTCHA = "FTS5 MATCH parses foo-bar as a column filter, so quote each term before MATCH"
REWORDED = "FTS5 MATCH parses foo-bar as a column filter: quote every term before the MATCH"
SESSION = "5a1e0000-0000-4000-8000-000000000001"


def marking_command(tmp_path: Path, marker: Path, answer: str = "") -> str:
    """A program that leaves ``marker`` behind when it runs, then prints ``answer``."""
    script = tmp_path / f"{marker.name}.py"
    script.write_text(
        f"import sys\nsys.stdin.read()\nopen({str(marker)!r}, 'w').close()\nprint({answer!r})\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return f"{sys.executable} {script}"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project's git repository, the current directory, with no memory store yet."""
    root = tmp_path / "shop"
    git_project(root, {"README.md": "# shop\n"})
    monkeypatch.chdir(root)
    return root


# ------------------------------------------------------------------ the team folder


@pytest.mark.parametrize("through", ["cli", "api"])
def test_a_team_folders_consolidate_command_never_runs(
    project: Path, tmp_path: Path, through: str
) -> None:
    mem("init", "--layer", "team")
    mem("save", GOTCHA, "--type", "gotcha", "--key", "fts", "--layer", "team")
    mem("save", REWORDED, "--type", "gotcha", "--layer", "team")
    marker = tmp_path / "ran"
    command = marking_command(tmp_path, marker, '{"title": "x", "narrative": "y"}')
    (project / ".mem-team" / "mem.toml").write_text(
        f"[consolidate]\ncommand = {json.dumps(command)}\n"
    )
    if through == "cli":
        done = mem_json("dedupe", "--apply", "-y", "--layer", "team")["merged"]
    else:  # the team's memories merge when the team folder is the store opened
        with memcli.open_store(project / ".mem-team") as memory:
            done = memory.dedupe(apply=True)["merged"]  # what POST /api/memory/dedupe calls
    assert done and done[0]["merged_by"] == "deterministic"
    assert not marker.exists()


def test_a_team_folders_model_is_never_tried(project: Path) -> None:
    mem("save", "I use pnpm to install packages", "--type", "preference", "--layer", "user")
    (project / ".mem-team").mkdir()
    (project / ".mem-team" / "mem.toml").write_text('[semantic]\nmodel = "someone/else"\n')
    found = run_mem("search", "pnpm", cwd=project)
    assert found.returncode == 0 and "pnpm" in found.stdout
    assert "someone/else" not in found.stderr
    layers = json.loads(run_mem("status", "--json", cwd=project).stdout)["layers"]
    assert all("someone/else" not in (layer["semantic"] or "") for layer in layers)


def test_a_team_folders_settings_are_not_lent_to_a_project_without_a_store(
    project: Path,
) -> None:
    mem("init", "--layer", "team")
    mem("save", "The shop uses pnpm to install packages", "--layer", "team")
    (project / ".mem-team" / "mem.toml").write_text("[context]\nbudget = 300\n")
    assert mem_json("context", "--format", "json")["budget"] == 8000
    user_config("[context]\nbudget = 1200\n")
    assert mem_json("context", "--format", "json")["budget"] == 1200


# ------------------------------------------------------------------ a store's mem.toml


def a_transcript(path: Path) -> Path:
    """A Claude Code session of one request and one answer."""
    lines = [
        {"type": "user", "message": {"role": "user", "content": "Cap the retry loop at five"}},
        {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "Capped."}]},
        },
    ]
    records = [
        {**line, "sessionId": SESSION, "uuid": f"u-{n}", "timestamp": f"2026-11-21T10:00:0{n}Z"}
        for n, line in enumerate(lines)
    ]
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def capture(transcript: Path, cwd: Path) -> dict[str, object]:
    args = ["capture", "session-end", "--session", SESSION, "--transcript", str(transcript)]
    return mem_json(*args, "--cwd", str(cwd))  # type: ignore[no-any-return]


def test_a_committed_local_stores_summarize_command_never_runs(
    project: Path, tmp_path: Path
) -> None:
    mem("init", "--local")
    local = project / ".mem"
    marker = tmp_path / "ran"
    command = marking_command(tmp_path, marker, "A summary from the command.")
    (local / "mem.toml").write_text(f"[summarize]\ncommand = {json.dumps(command)}\n")
    git(local, "add", "mem.toml")
    git(local, "commit", "-qm", "settings")
    result = capture(a_transcript(tmp_path / "s.jsonl"), project)
    assert result["action"] == "saved" and not marker.exists()
    shown = mem_json("show", str(result["id"]))[0]
    assert shown.get("summarized_by") != "command"


def test_a_stores_summarize_command_is_ignored_and_status_and_doctor_say_where_it_goes(
    store: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "ran"
    command = marking_command(tmp_path, marker, "A summary from the command.")
    (store / "mem.toml").write_text(
        f"[summarize]\ncommand = {json.dumps(command)}\n[context]\nbudget = 1500\n"
    )
    capture(a_transcript(tmp_path / "s.jsonl"), tmp_path)
    assert not marker.exists()
    assert mem_json("context", "--format", "json")["budget"] == 1500  # harmless: kept
    where = str(Path.home() / ".config" / "mem" / "config.toml")
    for output in (mem("status").stdout, mem("doctor", expect=None).stdout):
        lines = [line for line in output.splitlines() if "[summarize] command" in line]
        assert len(lines) == 1 and where in lines[0] and "ignored" in lines[0], output


def test_the_users_own_summarize_command_runs(store: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    command = marking_command(tmp_path, marker, "A summary from the command.")
    user_config(f"[summarize]\ncommand = {json.dumps(command)}\n")
    result = capture(a_transcript(tmp_path / "s.jsonl"), tmp_path)
    assert marker.exists()
    shown = mem_json("show", str(result["id"]))[0]
    assert shown["summarized_by"] == "command" and "from the command" in shown["narrative"]


def test_the_users_own_consolidate_command_runs_and_xdg_config_home_moves_it(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem("save", GOTCHA, "--type", "gotcha", "--key", "fts")
    mem("save", REWORDED, "--type", "gotcha")
    marker = tmp_path / "ran"
    answer = json.dumps({"title": "Quote FTS5 terms", "narrative": "Merged."})
    config = tmp_path / "xdg" / "mem" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        f"[consolidate]\ncommand = {json.dumps(marking_command(tmp_path, marker, answer))}\n"
    )
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    done = mem_json("dedupe", "--apply", "-y")["merged"][0]
    assert done["merged_by"] == "command" and marker.exists()


def test_a_stores_hub_model_is_ignored_and_a_local_folder_is_kept(
    store: Path, tmp_path: Path
) -> None:
    (store / "mem.toml").write_text('[semantic]\nmodel = "someone/else"\n')
    mem("save", "Deploys go out on Tuesdays", "--type", "decision")
    found = run_mem("search", "deploys")
    assert found.returncode == 0 and "someone/else" not in found.stderr
    assert "someone/else" not in (mem_json("status")["layers"][0]["semantic"] or "")
    folder = tmp_path / "no-such-model"
    (store / "mem.toml").write_text(f"[semantic]\nmodel = {json.dumps(str(folder))}\n")
    assert str(folder) in mem_json("status")["layers"][0]["semantic"]  # a path: still read
    user_config('[semantic]\nmodel = "someone/else"\n')
    (store / "mem.toml").unlink()
    assert "someone/else" in mem_json("status")["layers"][0]["semantic"]  # yours: used


def test_model_pull_never_fetches_a_hub_name_a_stores_folder_let_in(store: Path) -> None:
    """A store's ``model = "someone/else"`` is kept when the store holds that folder (a
    local model); `mem model pull` must not then fetch the hub's model of that name."""
    (store / "someone" / "else").mkdir(parents=True)
    (store / "mem.toml").write_text('[semantic]\nmodel = "someone/else"\n')
    pulled = run_mem("model", "pull")
    assert pulled.returncode == 1
    assert "folder" in pulled.stderr and "cache" not in pulled.stderr, pulled.stderr


# ------------------------------------------------------------------ a .mem/ folder


def test_a_mem_folder_that_is_not_a_repository_is_ignored_once(project: Path) -> None:
    (project / ".mem").mkdir()
    (project / ".mem" / "README.md").write_text("notes\n")
    saved = run_mem("save", "Deploys go out on Tuesdays", "--type", "decision", cwd=project)
    assert saved.returncode == 0, saved.stderr
    said = [line for line in saved.stderr.splitlines() if ".mem" in line and "ignored" in line]
    assert len(said) == 1, saved.stderr
    assert not (project / ".mem" / ".git").exists()
    found = run_mem("search", "deploys", cwd=project)
    assert found.returncode == 0 and "Tuesdays" in found.stdout
    status = run_mem("status", cwd=project).stdout
    assert "central store" in status and ".mem" in status and "ignored" in status


def test_the_users_config_may_be_a_link_and_a_bad_value_in_it_is_said(
    store: Path, tmp_path: Path
) -> None:
    dotfiles = tmp_path / "dotfiles.toml"
    dotfiles.write_text("[context]\nbudget = 1200\n")
    user_config("").unlink()
    (Path.home() / ".config" / "mem" / "config.toml").symlink_to(dotfiles)
    assert mem_json("context", "--format", "json")["budget"] == 1200
    dotfiles.write_text('[context]\nbudget = "big"\n')
    result = mem("context", "--format", "json")
    assert json.loads(result.stdout)["budget"] == 8000
    assert "context.budget must be a whole number" in result.stderr


# ------------------------------------------------------------------ where a save goes


def test_a_stores_mem_toml_cannot_send_saves_to_the_team_folder(
    project: Path, tmp_path: Path
) -> None:
    """A central store synced from a remote comes from whoever pushed to it: its
    ``[layers]`` naming the team would stage private memories into the project's git."""
    mem("init", "--layer", "team")
    mem("save", "A first memory makes the store")
    central = Path(mem_json("status")["layers"][0]["path"])
    (central / "mem.toml").write_text('[layers]\npreference = "team"\ndecision = "user"\n')
    saved = mem_json("save", "My home server is 10.0.0.5 and I use neovim", "--type", "preference")
    assert saved["layer"] == "project"
    assert "my-home-server" not in git(project, "status", "--porcelain", "--untracked-files=all")
    assert mem_json("save", "We chose SQLite", "--type", "decision")["layer"] == "user"
    lines = [line for line in mem("status").stdout.splitlines() if "[layers] preference" in line]
    assert len(lines) == 1 and "ignored" in lines[0], lines
    user_config('[layers]\npreference = "team"\n')  # the user's own choice is taken
    mine = mem_json("save", "I prefer squash merges in this team", "--type", "preference")
    assert mine["layer"] == "team"
