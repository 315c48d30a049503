from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from memcli.adapters.cli.main import cli
from memcli.core.model import Observation
from memcli.store.files import Store

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = REPO_ROOT / "fixtures"
REAL_HOME = Path.home()


@functools.cache
def bundled_dims() -> int:
    """The dimensions of the model inside mem."""
    from memcli.core.model_choice import bundled_folder
    from memcli.semantic.model import read_model

    return read_model(bundled_folder())[0].dim


def semantic_line(vectors: int) -> str:
    """The semantic line of a store whose memories mem's bundled model embedded."""
    noun = "vector" if vectors == 1 else "vectors"
    return f"semantic: bundled ({bundled_dims()} dims, {vectors:,} {noun})"


def _real_home_marker() -> tuple[bool, float]:
    data = REAL_HOME / ".local" / "share" / "mem"
    return data.exists(), data.stat().st_mtime if data.exists() else 0.0


@pytest.fixture(scope="session", autouse=True)
def _guard_real_home() -> Any:
    """Fail loudly if any test wrote to the real user's mem data directory."""
    before = _real_home_marker()
    yield
    assert _real_home_marker() == before, "a test touched the real ~/.local/share/mem"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME, MEM_HOME and git's configuration all point into tmp_path."""
    return _isolate(tmp_path, monkeypatch)


def _isolate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point HOME, MEM_HOME and git's configuration into ``tmp_path``; the new HOME."""
    home = tmp_path / "home"
    home.mkdir()
    gitconfig = home / ".gitconfig"
    gitconfig.write_text("[user]\n\tname = Test Person\n\temail = test@example.com\n")
    for name in (
        "MEM_STORE",
        "MEM_NOW",
        "MEM_DEBUG",
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
        "XDG_CONFIG_HOME",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        "HF_HOME",
        "HF_HUB_CACHE",
        "HF_ENDPOINT",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # no test downloads a model
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEM_HOME", str(tmp_path / "mem-home"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("MEM_LOCK_TIMEOUT", "60")
    for var in (
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "GIT_AUTHOR_DATE",
        "GIT_COMMITTER_DATE",
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    return home


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An initialised store, selected through MEM_STORE."""
    root = tmp_path / "store"
    monkeypatch.setenv("MEM_STORE", str(root))
    mem("init")
    return root


def cli_commands(
    group: click.Group = cli, path: tuple[str, ...] = ()
) -> Iterator[tuple[list[str], click.Command]]:
    """Every command and subcommand of mem with its path, groups included."""
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None, name
        yield [*path, name], command
        if isinstance(command, click.Group):
            yield from cli_commands(command, (*path, name))


def user_config(text: str) -> Path:
    """The user's own settings (``~/.config/mem/config.toml``, HOME being the test's) set to
    ``text``: the only place for settings that run a program or download a model."""
    path = Path.home() / ".config" / "mem" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def mem(*args: str, input: str | bytes | None = None, expect: int | None = 0) -> Result:
    """Run the CLI in-process; check the exit code unless ``expect`` is None."""
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    if expect is not None:
        assert result.exit_code == expect, (result.exit_code, result.output)
    return result


def mem_json(*args: str, input: str | None = None) -> Any:
    return json.loads(mem(*args, "--json", input=input).stdout)


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def git_project(root: Path, files: dict[str, str]) -> str:
    """A project's git repository at ``root`` with ``files`` in one commit; its HEAD."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "first")
    return git(root, "rev-parse", "HEAD").strip()


def mem_executable() -> str:
    """The installed ``mem`` entry point: beside this interpreter, else on PATH."""
    beside = Path(sys.executable).parent / "mem"
    if beside.exists():
        return str(beside)
    found = shutil.which("mem")
    assert found, "the mem command is not installed (pip install -e '.[test]')"
    return found


def run_mem(
    *args: str,
    input: str | bytes | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run the installed ``mem`` command in a subprocess (killed, failing, after ``timeout`` s)."""
    data = input.decode() if isinstance(input, bytes) else input
    return subprocess.run(
        [mem_executable(), *args],
        input=data,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )


def mem_here(
    *args: str,
    input: str | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """What ``run_mem`` gives, from mem run in this process: for tests of what a command
    does rather than of its process (starting one costs a fresh import of everything)."""
    with contextlib.chdir(cwd or Path.cwd()):
        result = CliRunner(env=env).invoke(cli, list(args), input=input, catch_exceptions=False)
    return subprocess.CompletedProcess(
        ["mem", *args], result.exit_code, stdout=result.stdout, stderr=result.stderr
    )


FIXTURE_NOW = "2026-11-21T12:00:00Z"
"""The sample store's today: the day after its newest memory."""


@pytest.fixture(scope="session")
def _fixture_store_template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """fixtures/store committed once in a git repository, for each test to copy."""
    root = tmp_path_factory.mktemp("fixture") / "store"
    shutil.copytree(FIXTURES / "store", root)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test Person",
        "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test Person",
        "GIT_COMMITTER_EMAIL": "test@example.com",
    }
    for args in (
        ["init", "-q", "--initial-branch=main"],
        ["add", "-A"],
        ["commit", "-q", "-m", "fixture store"],
    ):
        subprocess.run(["git", *args], cwd=root, check=True, env=env)
    yield root
    shutil.rmtree(root.parent, ignore_errors=True)  # kept by no failure: each test copies it


@pytest.fixture
def fixture_store(
    _fixture_store_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The sample store in fixtures/, committed in git and selected through MEM_STORE.

    Its index is not built yet: the first read builds it.
    """
    root = tmp_path / "store"
    shutil.copytree(_fixture_store_template, root, symlinks=True)
    monkeypatch.setenv("MEM_STORE", str(root))
    return root


@pytest.fixture(scope="session")
def _indexed_fixture_store_template(
    _fixture_store_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """The sample store with its index built (in an environment of its own), for each test
    to copy: building the index reads the bundled model, copying it costs nothing."""
    base = tmp_path_factory.mktemp("indexed")
    root = base / "store"
    shutil.copytree(_fixture_store_template, root, symlinks=True)
    with pytest.MonkeyPatch.context() as monkeypatch:
        _isolate(base, monkeypatch)
        monkeypatch.setenv("MEM_STORE", str(root))
        monkeypatch.setenv("MEM_NOW", FIXTURE_NOW)
        mem("reindex")
    yield root
    shutil.rmtree(base, ignore_errors=True)  # kept by no failure: each test copies it


@pytest.fixture
def indexed_fixture_store(
    _indexed_fixture_store_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The sample store with its index built, read at FIXTURE_NOW."""
    root = tmp_path / "store"
    shutil.copytree(_indexed_fixture_store_template, root, symlinks=True)
    monkeypatch.setenv("MEM_STORE", str(root))
    monkeypatch.setenv("MEM_NOW", FIXTURE_NOW)
    return root


def _truncate_mid_page(index: Path) -> None:
    data = index.read_bytes()
    index.write_bytes(data[: len(data) // 2 + 100])


INDEX_DAMAGE: dict[str, Any] = {
    "garbage": lambda index: index.write_bytes(os.urandom(16384)),
    "empty": lambda index: index.write_bytes(b""),
    "deleted": Path.unlink,
    "truncated": _truncate_mid_page,
}
"""Ways an index file gets broken, each a function of its path."""


def server_env(base: Path) -> dict[str, str]:
    """An environment of its own (home, git identity, mem's data) for a long-lived server."""
    home = base / "home"
    home.mkdir(exist_ok=True)
    gitconfig = home / ".gitconfig"
    gitconfig.write_text("[user]\n\tname = Test Person\n\temail = test@example.com\n")
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MEM_"))}
    return {
        **keep,
        "HOME": str(home),
        "MEM_HOME": str(base / "mem-home"),
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
        "MEM_LOCK_TIMEOUT": "30",
    }


def read_until_closed(fd: int) -> bytes:
    """What a pseudo-terminal shows until the process on its other side closes it."""
    shown = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    return shown


def write_store(root: Path, memories: list[Observation]) -> Path:
    """A store holding ``memories`` in one commit, its index built (many memories, quickly)."""
    store = Store(root)
    git(root.parent, "init", "-q", "-b", "main", str(root))
    for obs in memories:
        path = root / store.new_path(obs)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(obs.to_markdown())
    git(root, "add", "-A")
    git(root, "commit", "-qm", "memories")
    mem("reindex", "--store", str(root))
    return root


_HOOK_LOADING = """
import sys
from memcli.adapters.cli.entry import main
event, watched = sys.argv[1], sys.argv[2].split(",")
sys.argv = ["mem", "hook", "claude", event]
try:
    main()
except SystemExit:
    pass
print("LOADED:" + ",".join(sorted(m for m in watched if m in sys.modules)), file=sys.stderr)
"""


def hook_loading(
    event: str, payload: dict[str, Any], watched: tuple[str, ...], env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """``mem hook claude EVENT`` run as its console script runs it, in a process of its own:
    its result, and which of the ``watched`` modules it loaded."""
    result = subprocess.run(
        [sys.executable, "-c", _HOOK_LOADING, event, ",".join(watched)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=True,
        timeout=60,
    )
    last = result.stderr.splitlines()[-1]
    assert last.startswith("LOADED:"), result.stderr
    return result, [name for name in last.removeprefix("LOADED:").split(",") if name]


def guarded(
    identity: str, title: str, *guards: Any, created: str = "2026-11-01T10:00:00Z"
) -> Observation:
    """A decision whose narrative repeats its title with a note, holding ``guards``."""
    return Observation(
        id=identity,
        type="decision",
        title=title,
        created=created,
        narrative=f"{title}, as agreed",
        guards=list(guards),
    )
