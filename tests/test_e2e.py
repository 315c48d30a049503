"""End to end: the installed ``mem`` command in real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from .conftest import REPO_ROOT, hook_loading, mem_executable, run_mem

pytestmark = pytest.mark.e2e


def test_save_search_show_forget_through_the_installed_command(tmp_path: Path) -> None:
    env = {"MEM_STORE": str(tmp_path / "store")}
    saved = run_mem(
        "save",
        "Subprocesses see the real entry point",
        "--type",
        "pattern",
        "--key",
        "e2e",
        env=env,
    )
    assert saved.returncode == 0, saved.stderr
    identity = saved.stdout.strip()
    assert "created a memory store" in saved.stderr
    hits = json.loads(run_mem("search", "entry point", "--json", env=env).stdout)
    assert [h["id"] for h in hits] == [identity]
    shown = run_mem("show", "e2e", env=env)
    assert shown.stdout.startswith("# Subprocesses see the real entry point")
    forgot = run_mem("forget", identity[:10], env=env)
    assert forgot.returncode == 0 and identity in forgot.stdout
    assert json.loads(run_mem("list", "--json", env=env).stdout) == []


GUARD = """
import sys
from memcli.adapters.cli.main import cli
{call}
heavy = ("git", "jinja2", "frontmatter", "yaml", "memcli.core.model", "subprocess")
# A read embeds its query with mem's bundled model in pure Python: no numpy, no tokenizers.
print("SEMANTIC:" + str("memcli.semantic" in sys.modules))
heavy += ("memcli.semantic.batch", "memcli.semantic.scan")
heavy += ("numpy", "tokenizers", "sqlite_vec", "tomllib")
heavy += ("mcp", "starlette", "uvicorn", "pydantic", "anyio", "memcli.adapters.mcp")
heavy = sorted(m for m in heavy if m in sys.modules)
print("HEAVY:" + ",".join(heavy))
prefix = "memcli.adapters.cli.commands."
print("COMMANDS:" + ",".join(sorted(m[len(prefix):] for m in sys.modules if m.startswith(prefix))))
"""


@pytest.mark.parametrize(
    "call",
    [
        "",
        "cli.main(['--help'], standalone_mode=False)",
        "cli.main(['search', 'plumbing', '--store', sys.argv[1]], standalone_mode=False)",
        "cli.main(['list', '--store', sys.argv[1]], standalone_mode=False)",
        # a sync (of no files) first makes the index the search reads
        "cli.main(['transcripts', 'sync', '--path', sys.argv[1], '--store', sys.argv[1]],"
        " standalone_mode=False); "
        "cli.main(['transcripts', 'search', 'plumbing', '--store', sys.argv[1]],"
        " standalone_mode=False)",
    ],
    ids=["import", "help", "search", "list", "transcripts-search"],
)
def test_start_up_does_not_import_heavy_modules(tmp_path: Path, call: str) -> None:
    store = tmp_path / "store"
    assert run_mem("save", "Git plumbing keeps saves fast", "--store", str(store)).returncode == 0
    result = subprocess.run(
        [sys.executable, "-c", GUARD.format(call=call), str(store)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines()[-2] == "HEAVY:"
    command = call.split("['")[1].split("'")[0] if "['" in call else None
    if command in (None, "--help"):  # reads nothing: no model either
        assert result.stdout.splitlines()[-3] == "SEMANTIC:False"
    expected = "" if command in (None, "--help") else command
    # --help imports every command for its help line; a command imports only its own module
    if command != "--help":
        assert result.stdout.splitlines()[-1] == f"COMMANDS:{expected}"


HEAVY = ("mcp", "starlette", "uvicorn", "pydantic", "anyio", "memcli.adapters.mcp", "click")


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit", "PostCompact"])
def test_the_hooks_never_import_the_mcp_sdk_or_click(tmp_path: Path, event: str) -> None:
    store = tmp_path / "store"
    assert run_mem("save", "Git plumbing keeps saves fast", "--store", str(store)).returncode == 0
    payload = {
        "session_id": "s1",
        "hook_event_name": event,
        "cwd": str(tmp_path),
        "prompt": "why are the saves with git plumbing fast?",
        "compact_summary": "We made saves fast with git plumbing.",
    }
    _, loaded = hook_loading(event, payload, HEAVY, env={"MEM_STORE": str(store)})
    assert loaded == []


def test_no_traceback_reaches_the_terminal(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / ".git").write_text("not a git directory")  # a broken repository
    result = run_mem("save", "x", "--store", str(store))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and result.stderr.startswith("Error:")
    assert len(result.stderr.strip().splitlines()) == 1


def build_wheel(tmp_path: Path) -> Path:
    wheel_dir = tmp_path / "wheel"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheel_dir),
            str(REPO_ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheel_dir.glob("memcli-*.whl")
    return wheel


def test_wheel_ships_the_templates_and_renders_them(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    assert wheel.stat().st_size <= 40 << 20
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert "memcli/templates/show.md.j2" in names
        for name in ("config.json", "tokenizer.json", "model.safetensors", "LICENSE"):
            assert f"memcli/semantic/bundled/{name}" in names  # the model inside mem
        archive.extractall(tmp_path / "unpacked")
    script = (
        "from memcli.retrieval.render import Renderer, builtin_templates\n"
        "print(builtin_templates())\n"
        "print(Renderer().render('show.md.j2', path='p.md', memory={'id': 'X', 'type': 'gotcha',"
        " 'title': '{{ not evaluated }}', 'created': '2026-01-01T00:00:00Z', 'key': None,"
        " 'updated': None, 'importance': None, 'concepts': [], 'files': [], 'session': None,"
        " 'facts': ['a fact'], 'narrative': '{% raw %}text'}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "unpacked")},
        cwd=tmp_path,
        check=True,
    )
    where, rendered = result.stdout.split("\n", 1)
    assert where == str(tmp_path / "unpacked" / "memcli" / "templates")
    assert rendered.startswith("# {{ not evaluated }}\n")
    assert "- a fact" in rendered and "{% raw %}text" in rendered


def installed_wheel(tmp_path: Path) -> Path:
    """A new virtual environment with mem's wheel installed by pip, as a user would.

    Its dependencies come from the test environment (a .pth line, which does not
    bring this checkout's editable install along), so the test needs no network.
    """
    wheel = build_wheel(tmp_path)
    venv = tmp_path / "user-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    probe = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = subprocess.run(
        [venv / "bin" / "python", "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "test-dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    install = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    subprocess.run(
        [*install, "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    return venv


def test_the_installed_wheel_runs_the_demo_and_carries_the_eval_suite(tmp_path: Path) -> None:
    venv = installed_wheel(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    result = run_demo(outside, venv / "bin")
    assert result.returncode == 0, result.stderr
    assert "FTS5 MATCH rejects bare hyphens" in result.stdout
    where = subprocess.run(
        [
            venv / "bin" / "python",
            "-c",
            "import memcli.retrieval.evaluation as e; print(e.__file__); print(e.bundled_suite())",
        ],
        capture_output=True,
        text=True,
        cwd=outside,
        env={k: v for k, v in os.environ.items() if k != "MEM_EVAL_SUITE"},
        check=True,
    ).stdout.split()
    assert where[0].startswith(str(venv)) and not where[0].startswith(str(REPO_ROOT))
    assert where[1].startswith(str(venv)) and where[1].endswith("eval_suite")


def run_demo(cwd: Path, bin_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(REPO_ROOT / "scripts" / "demo.sh")],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"},
    )


def test_readme_demo_runs(tmp_path: Path) -> None:
    result = run_demo(tmp_path, Path(mem_executable()).parent)
    assert result.returncode == 0, result.stderr
    for expected in (
        "FTS5 MATCH rejects bare hyphens",
        "forget: gotcha:",
        "init: mem store",
        "Porter stemming",
        "# Memory of store",  # the session-start context
        "reads [REDACTED:github-token] from the vault",
    ):
        assert expected in result.stdout
    assert "refusing to store likely secrets: GitHub token ghp_…" in result.stderr
    assert "ghp_a1B2" not in result.stdout + result.stderr


HOLD_LOCK = """
import sys, time
from pathlib import Path
from memcli.store.files import Store
with Store(Path(sys.argv[1])).write_lock():
    print("locked", flush=True)
    time.sleep(60)
"""


def _hold_write_lock(store: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(store)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    return holder


def _kill(holder: subprocess.Popen[str]) -> None:
    holder.kill()
    holder.communicate()


def test_a_held_lock_times_out_with_a_clear_message(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert run_mem("init", "--store", str(store)).returncode == 0
    holder = _hold_write_lock(store)
    try:
        result = run_mem("save", "blocked", "--store", str(store), env={"MEM_LOCK_TIMEOUT": "0.5"})
    finally:
        _kill(holder)
    assert result.returncode == 1
    assert "another mem process has been writing to the store" in result.stderr
    assert not (store / "observations").exists()


def test_a_killed_lock_holder_does_not_block_the_next_save(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert run_mem("init", "--store", str(store)).returncode == 0
    holder = _hold_write_lock(store)
    _kill(holder)  # SIGKILL: no chance to release the lock itself
    result = run_mem(
        "save", "after the crash", "--store", str(store), env={"MEM_LOCK_TIMEOUT": "2"}
    )
    assert result.returncode == 0, result.stderr


def test_writes_are_refused_while_a_rebase_is_stopped(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert run_mem("save", "first", "--store", str(store)).returncode == 0
    (store / ".git" / "rebase-merge").mkdir()
    result = run_mem("save", "second", "--store", str(store))
    assert result.returncode == 1
    assert "a rebase is in progress in the store" in result.stderr


def test_benchmark_harness_runs_on_a_small_store(tmp_path: Path) -> None:
    out = tmp_path / "results.md"
    result = subprocess.run(
        [
            sys.executable,
            str(REPO_ROOT / "bench" / "run.py"),
            "--sizes",
            "200",
            "--runs",
            "1",
            "--quick",
            "--no-install",
            "--workdir",
            str(tmp_path / "work"),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    table = out.read_text()
    for figure in (
        "### 200 memories",
        "`mem search` (4 queries)",
        "`mem save`",
        "first read after a hand commit",
        "peak RSS",
        "index ",
    ):
        assert figure in table
    store = tmp_path / "work" / "store-200"
    assert len(list((store / "observations").rglob("*.md"))) >= 200
    assert run_mem("reindex", "--check", "--store", str(store)).returncode == 0
