"""The warm worker: ``mem serve --worker`` started by a session start, asked first by hooks.

Real processes throughout: the installed ``mem`` answers hooks as an agent runs
them, the worker is the detached process a session start leaves behind, and the
fake servers are real sockets. Every worker a test starts is stopped at its end.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memcli.adapters.worker import client

from .conftest import git, git_project, hook_loading, run_mem

pytestmark = pytest.mark.e2e

MEMORIES = [
    ("gotcha", "The checkout tests need the Stripe mock on port 12111", "make stripe-mock"),
    ("decision", "Refunds carry an Idempotency-Key header", "retries reuse the key"),
    ("pattern", "Database migrations run in a transaction per file", "alembic upgrade head"),
    ("discovery", "The search index is rebuilt by the nightly job", "cron at 03:00"),
    ("gotcha", "Webhooks from Stripe arrive out of order", "sort by created timestamp"),
]
PROMPTS = [
    "the checkout tests fail, is the stripe mock running?",
    "why do refunds retry with the same idempotency key?",
    "how do the database migrations run, in a transaction?",
    "the checkout tests fail, is the stripe mock running?",
    "ok",
]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with a store of a few memories (``s`` under tmp_path: a short socket path)."""
    root = tmp_path / "p"
    git_project(root, {"README.md": "# webshop\n"})
    monkeypatch.setenv("MEM_STORE", str(tmp_path / "s"))
    for kind, text, fact in MEMORIES:
        saved = run_mem("save", text, "--type", kind, "--fact", fact, cwd=root)
        assert saved.returncode == 0, saved.stderr
    settings(tmp_path / "s", auto=True)
    return root


def settings(store: Path, model: str = "", **serve: Any) -> None:
    """mem.toml's ``[serve]`` (and semantic ``model``); session start shows no memory in
    full, so recall has some."""
    lines = ["[context]", "hot_count = 0", "[semantic]", f"model = {json.dumps(model)}"]
    lines += ["[serve]"] + [f"{k} = {json.dumps(v)}" for k, v in serve.items()]
    (store / "mem.toml").write_text("\n".join(lines) + "\n")


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[list[int]]:
    """Worker pids a test learned of; each is stopped (and reaped) at the end, and any
    worker still answering on the store's socket too."""
    pids: list[int] = []
    yield pids
    found = health(tmp_path / "s") if (tmp_path / "s" / ".cache").is_dir() else None
    if found is not None:
        pids.append(found["pid"])
    for pid in pids:
        stop(pid)


def stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped by its parent, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def socket_of(store: Path) -> Path:
    found = client.worker_socket(store)
    assert found is not None
    return found


def request(store: Path, method: str, target: str, headers: dict[str, str] | None = None) -> Any:
    """One raw HTTP/1.1 request to the store's socket: (status, JSON body), or None."""
    lines = [f"{method} {target} HTTP/1.1", "Host: mem", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(10)
            connection.connect(str(socket_of(store)))
            connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
            data = b""
            while chunk := connection.recv(65536):
                data += chunk
    except OSError:
        return None
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def health(store: Path) -> dict[str, Any] | None:
    answered = request(store, "GET", "/health")
    return answered[1] if answered and answered[0] == 200 else None


def wait_for_worker(store: Path, workers: list[int]) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = health(store)
        if found is not None:
            workers.append(found["pid"])
            return found
        time.sleep(0.05)
    raise AssertionError("no worker answered")


def started_worker(project: Path, store: Path, workers: list[int]) -> int:
    """A session start starts the store's worker: its pid, once it answers."""
    hook("SessionStart", start_payload(project, "starter"))
    return int(wait_for_worker(store, workers)["pid"])


def wait_gone(pid: int) -> None:
    deadline = time.monotonic() + 30
    while alive(pid):
        assert time.monotonic() < deadline, "the worker did not exit"
        time.sleep(0.05)


def hook(event: str, payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    result = run_mem("hook", "claude", event, input=json.dumps(payload), timeout=60)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return result


def start_payload(project: Path, session: str) -> dict[str, Any]:
    return {"cwd": str(project), "session_id": session, "source": "startup"}


def prompt_payload(project: Path, session: str, prompt: str) -> dict[str, Any]:
    return {"cwd": str(project), "session_id": session, "prompt": prompt}


def session_outputs(project: Path, session: str) -> list[str]:
    """The hooks' whole stdout for one session: its start, then each prompt."""
    outputs = [hook("SessionStart", start_payload(project, session)).stdout]
    for prompt in PROMPTS:
        outputs.append(hook("UserPromptSubmit", prompt_payload(project, session, prompt)).stdout)
    return outputs


def session_record(store: Path, session: str) -> Any:
    import hashlib

    name = hashlib.sha256(session.encode()).hexdigest()[:32]
    return json.loads((store / ".cache" / "recall-sessions" / f"{name}.json").read_text())


def test_session_start_starts_one_worker_and_answers_without_waiting(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    first = hook("SessionStart", start_payload(project, "a"))
    assert "Stripe mock" in first.stdout  # answered in its own process meanwhile
    started = wait_for_worker(store, workers)
    assert started["store"] == str(store)
    again = hook("SessionStart", start_payload(project, "b"))
    assert again.stdout == first.stdout
    assert health(store)["pid"] == started["pid"]  # type: ignore[index]  # reused
    # a second worker started by hand finds the lock taken, and leaves at once
    second = run_mem("serve", "--worker", "--store", str(store), timeout=30)
    assert second.returncode == 0
    assert health(store)["answered"] == 1  # type: ignore[index]


def test_answers_are_byte_identical_with_and_without_the_worker(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    settings(store, auto=False)
    alone = session_outputs(project, "alone")
    assert sum("additionalContext" in out for out in alone) >= 3  # recall answered some
    settings(store, auto=True, budget=5000)  # a loaded machine: never too late here
    started_worker(project, store, workers)
    before = health(store)["answered"]  # type: ignore[index]
    warm = session_outputs(project, "warm")
    assert warm == alone
    assert health(store)["answered"] == before + len(alone)  # type: ignore[index]
    # what the session was given is noted the same way: the repeated prompt got nothing new
    assert session_record(store, "warm") == session_record(store, "alone")


STORE_CODE = (
    "apsw",
    "jinja2",
    "yaml",
    "git",
    "memcli.index",
    "memcli.store.files",
    "memcli.retrieval",
)


def test_a_hook_the_worker_answers_loads_no_store_code(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    """The hook's own process only asks: the index, the files and the templates are the
    worker's (MEM_STORE names the store here, as in the bench)."""
    store = tmp_path / "s"
    settings(store, auto=True, budget=5000)
    started_worker(project, store, workers)
    before = health(store)["answered"]  # type: ignore[index]
    payload = prompt_payload(project, "lean", PROMPTS[0])
    result, loaded = hook_loading("UserPromptSubmit", payload, STORE_CODE)
    assert "Stripe mock" in result.stdout
    assert loaded == [], result.stderr
    assert health(store)["answered"] == before + 1  # type: ignore[index]


def test_the_worker_sees_a_hand_commit(project: Path, tmp_path: Path, workers: list[int]) -> None:
    store = tmp_path / "s"
    settings(store, auto=True, budget=5000)
    hook("SessionStart", start_payload(project, "s1"))
    wait_for_worker(store, workers)
    prompt = "where does the flamingo cache keep its zebra tokens?"
    assert (
        "additionalContext"
        not in hook("UserPromptSubmit", prompt_payload(project, "s1", prompt)).stdout
    )
    run_mem("save", "The flamingo cache keeps zebra tokens in redis", cwd=project)
    path = next(store.glob("**/*flamingo*.md"))
    path.write_text(path.read_text().replace("in redis", "in redis db 3, by hand"))
    git(store, "commit", "-qam", "hand edit")
    answered = health(store)["answered"]  # type: ignore[index]
    through = hook("UserPromptSubmit", prompt_payload(project, "s2", prompt)).stdout
    assert "redis db 3, by hand" in through
    assert health(store)["answered"] == answered + 1  # type: ignore[index]
    settings(store, auto=False)
    stop(workers[0])
    assert hook("UserPromptSubmit", prompt_payload(project, "s3", prompt)).stdout == through


def test_a_stale_socket_is_no_trouble(project: Path, tmp_path: Path, workers: list[int]) -> None:
    store = tmp_path / "s"
    settings(store, auto=False)
    expected = hook("UserPromptSubmit", prompt_payload(project, "a", PROMPTS[0]))
    path = socket_of(store)
    path.parent.mkdir(parents=True, exist_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(str(path))  # bound, never listening: a server that died
    stale = hook("UserPromptSubmit", prompt_payload(project, "b", PROMPTS[0]))
    assert (stale.stdout, stale.stderr) == (expected.stdout, expected.stderr)
    settings(store, auto=True)  # the next session start replaces it with a worker
    hook("SessionStart", start_payload(project, "c"))
    wait_for_worker(store, workers)


def test_a_worker_that_never_answers_costs_only_the_budget(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    settings(store, auto=False, budget=200)
    expected = hook("UserPromptSubmit", prompt_payload(project, "a", PROMPTS[1]))
    path = socket_of(store)
    path.parent.mkdir(parents=True, exist_ok=True)
    accepted: list[socket.socket] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as fake:
        fake.bind(str(path))
        fake.listen(8)

        def accept_and_say_nothing() -> None:
            with contextlib.suppress(OSError):
                accepted.append(fake.accept()[0])

        listener = threading.Thread(target=accept_and_say_nothing, daemon=True)
        listener.start()
        began = time.monotonic()
        hung = hook("UserPromptSubmit", prompt_payload(project, "b", PROMPTS[1]))
        took = time.monotonic() - began
        listener.join(timeout=5)
    for connection in accepted:
        connection.close()
    assert accepted, "the hook did not ask the fake worker"
    assert (hung.stdout, hung.stderr) == (expected.stdout, expected.stderr)
    assert took < 20  # a hang would reach the subprocess timeout (60 s)


def test_an_idle_worker_exits(project: Path, tmp_path: Path, workers: list[int]) -> None:
    store = tmp_path / "s"
    settings(store, auto=True, idle=1)
    pid = started_worker(project, store, workers)
    wait_gone(pid)
    assert not socket_of(store).exists()


def test_a_worker_of_another_mem_refuses_and_exits(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    pid = started_worker(project, store, workers)
    mine = {client.STAMP_HEADER: client.stamp()}
    assert request(store, "GET", "/health", mine)[0] == 200  # type: ignore[index]
    newer = {client.STAMP_HEADER: client.stamp() + "-upgraded"}
    status, body = request(store, "GET", "/health", newer)
    assert status == 409 and "another version of mem" in body["error"]
    wait_gone(pid)


def test_a_worker_whose_store_moved_exits(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    pid = started_worker(project, store, workers)
    moved = tmp_path / "m"
    store.rename(moved)
    status, body = request(moved, "GET", "/health")
    assert status == 410 and "gone or moved" in body["error"]
    wait_gone(pid)


def test_a_worker_killed_mid_request_costs_one_fallback(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    settings(store, auto=True, budget=5000)
    pid = started_worker(project, store, workers)
    expected = hook("UserPromptSubmit", prompt_payload(project, "x", PROMPTS[2])).stdout
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as half:
        half.connect(str(socket_of(store)))  # a request under way: its body never comes
        half.sendall(b"POST /api/hook/claude/UserPromptSubmit HTTP/1.1\r\nHost: mem\r\n")
        half.sendall(b"Content-Length: 100\r\n\r\n{")
        os.kill(pid, signal.SIGKILL)
        wait_gone(pid)
    fallback = hook("UserPromptSubmit", prompt_payload(project, "y", PROMPTS[2]))
    assert fallback.stdout == expected
    hook("SessionStart", start_payload(project, "b"))  # a new worker replaces it
    restarted = wait_for_worker(store, workers)
    assert restarted["pid"] != pid
    again = hook("UserPromptSubmit", prompt_payload(project, "z", PROMPTS[2])).stdout
    assert again == expected and health(store)["answered"] == 1  # type: ignore[index]


def test_the_hook_flag_starts_a_worker_without_the_setting(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    settings(store, auto=False)
    payload = json.dumps(start_payload(project, "a"))
    assert hook("SessionStart", start_payload(project, "a")).returncode == 0
    assert health(store) is None  # not wanted: none started
    started = run_mem("hook", "claude", "SessionStart", "--worker", input=payload)
    assert started.returncode == 0 and "Stripe mock" in started.stdout
    wait_for_worker(store, workers)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("auto = 1", "serve.auto must be true or false"),
        ("budget = 0", "serve.budget must be a whole number of milliseconds from 1 to 10000"),
        ("idle = -1", "serve.idle must be a duration"),
    ],
)
def test_bad_serve_settings_are_said_and_the_default_used(
    store: Path, line: str, message: str
) -> None:
    (store / "mem.toml").write_text(f"[serve]\n{line}\n")
    result = run_mem("context")
    assert result.returncode == 0 and message in result.stderr


def test_the_peer_of_a_unix_socket_is_this_user() -> None:
    from memcli.adapters.http.connections import peer_uid, same_user

    one, other = socket.socketpair(socket.AF_UNIX)
    with one, other:
        assert peer_uid(one) == os.geteuid() and same_user(one)


@pytest.mark.parametrize(
    ("agent", "settings_file"),
    [("claude", ".claude/settings.json"), ("gemini", ".gemini/settings.json")],
)
def test_install_worker_makes_the_session_start_hook_start_one(
    tmp_path: Path, agent: str, settings_file: str
) -> None:
    root = tmp_path / "p"
    git_project(root, {"README.md": "# webshop\n"})

    def commands() -> dict[str, str]:
        hooks = json.loads((root / settings_file).read_text())["hooks"]
        return {event: groups[0]["hooks"][0]["command"] for event, groups in hooks.items()}

    assert run_mem("install", agent, "--no-mcp", "--worker", cwd=root).returncode == 0
    with_worker = commands()
    assert with_worker["SessionStart"].endswith(f"hook {agent} SessionStart --worker")
    assert [e for e, c in with_worker.items() if c.endswith("--worker")] == ["SessionStart"]
    assert run_mem("install", agent, "--no-mcp", cwd=root).returncode == 0
    assert commands()["SessionStart"].endswith(f"hook {agent} SessionStart")  # taken back


def test_mem_recall_and_context_print_the_same_through_the_worker(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    settings(store, auto=True, budget=5000)

    def reads(session: str) -> list[tuple[str, str]]:
        runs = [run_mem("context", cwd=project), run_mem("context", "--budget", "300", cwd=project)]
        for prompt in PROMPTS:
            runs.append(run_mem("recall", prompt, "--session", session, cwd=project))
        assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
        return [(run.stdout, run.stderr) for run in runs]

    alone = reads("alone")
    assert sum(bool(out) for out, _ in alone) >= 4
    started_worker(project, store, workers)
    before = health(store)["answered"]  # type: ignore[index]
    assert reads("warm") == alone
    assert health(store)["answered"] == before + len(alone)  # type: ignore[index]
    assert session_record(store, "warm") == session_record(store, "alone")


SEARCHES = [
    ["stripe mock checkout"],
    ["why do the migrations run in a transaction?", "--json"],
    ["migrations", "--explain"],
    ["migrations", "--explain", "--json", "--limit", "1"],
    ["stripe", "--type", "gotcha", "--since", "2000-01-01", "--all"],
    ["nothing-here-at-all"],
    ['"stripe mock"', "--raw"],
    ["stripe", "--mode", "semantic"],
    ["checkout", "--transcripts"],
]


def test_mem_search_prints_the_same_through_the_worker(
    project: Path, tmp_path: Path, workers: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "s"
    monkeypatch.setenv("MEM_NOW", "2027-01-15T10:00:00Z")  # --explain shows recency in full
    settings(store, auto=True, budget=5000)

    def searches() -> list[tuple[int, str, str]]:
        runs = [run_mem("search", *arguments, cwd=project) for arguments in SEARCHES]
        return [(run.returncode, run.stdout, run.stderr) for run in runs]

    alone = searches()
    assert all(code == 0 for code, _, _ in alone) and "Stripe mock" in alone[0][1]
    assert any(err for _, _, err in alone)  # a notice (transcripts) to compare too
    started_worker(project, store, workers)
    before = health(store)["answered"]  # type: ignore[index]
    assert searches() == alone
    assert health(store)["answered"] == before + len(SEARCHES)  # type: ignore[index]
    # a usage error is the command's own; --layer answers in the command's process
    assert run_mem("search", "x", "--raw", "--all", cwd=project).returncode == 2
    layered = run_mem("search", "stripe", "--layer", "project", cwd=project)
    assert layered.stdout == alone[0][1] or "Stripe" in layered.stdout
    assert health(store)["answered"] == before + len(SEARCHES)  # type: ignore[index]


def test_a_relative_mem_store_is_answered_by_the_hook_itself(
    project: Path, tmp_path: Path, workers: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "s"
    settings(store, auto=True, budget=5000)
    monkeypatch.setenv("MEM_STORE", "s")  # from tmp_path, the hooks' directory; not the worker's
    started_worker(project, store, workers)
    expected = run_mem("recall", PROMPTS[0], "--store", str(store), cwd=project).stdout
    before = health(store)["answered"]  # type: ignore[index]
    answered = hook("UserPromptSubmit", prompt_payload(project, "a", PROMPTS[0])).stdout
    assert (
        expected.strip()
        and expected.strip() in json.loads(answered)["hookSpecificOutput"]["additionalContext"]
    )
    assert health(store)["answered"] == before  # type: ignore[index]  # refused: another store


def test_an_answer_the_hook_gave_up_on_leaves_no_record(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    settings(store, auto=False)
    expected = hook("UserPromptSubmit", prompt_payload(project, "alone", PROMPTS[1])).stdout
    assert "additionalContext" in expected
    settings(store, auto=True, budget=5000)
    started_worker(project, store, workers)
    settings(store, auto=True, budget=1)  # no worker answers a hook in a millisecond
    late = hook("UserPromptSubmit", prompt_payload(project, "late", PROMPTS[1])).stdout
    deadline = time.monotonic() + 30
    while health(store)["late"] < 1:  # type: ignore[index]
        assert time.monotonic() < deadline, "the worker never answered"
        time.sleep(0.05)
    # The worker's answer came after the hook had answered itself: had it noted what it
    # gave the session, the hook (still importing) would have found it given already.
    assert late == expected
    assert session_record(store, "late") == session_record(store, "alone")


def test_semantic_answers_are_the_same_through_the_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: list[int]
) -> None:
    pytest.importorskip("onnx")
    from .test_semantic_onnx import write_onnx_model

    model = str(write_onnx_model(tmp_path / "tiny-onnx"))
    root, store = tmp_path / "p", tmp_path / "s"
    git_project(root, {"README.md": "# app\n"})
    monkeypatch.setenv("MEM_STORE", str(store))
    for text in (
        "Feature toggle for dark mode lives in settings",
        "The database connection pool is exhausted under load",
        "Use pytest fixtures for temporary repositories",
    ):
        assert run_mem("save", text, cwd=root).returncode == 0
    settings(store, model=model, auto=False)
    assert run_mem("list", cwd=root).returncode == 0  # embedded now, not by the first hook
    prompts = [
        "where is the flag switch for the dark theme?",
        "the postgres query pool is exhausted under load, why?",
        "which pytest fixture makes a temporary repository?",
    ]

    def outputs(session: str) -> list[str]:
        runs = [hook("SessionStart", start_payload(root, session)).stdout]
        runs += [hook("UserPromptSubmit", prompt_payload(root, session, p)).stdout for p in prompts]
        return runs

    alone = outputs("alone")
    assert sum("additionalContext" in out for out in alone) >= 2
    settings(store, model=model, auto=True, budget=5000)
    started_worker(root, store, workers)
    before = health(store)["answered"]  # type: ignore[index]
    assert outputs("warm") == alone
    assert health(store)["answered"] == before + len(alone)  # type: ignore[index]


def test_a_prompt_utf8_cannot_hold_goes_through_the_worker_too(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    settings(store, auto=False)
    raw = '{"cwd": "%s", "session_id": "%s", "prompt": "is the stripe mock running? \\ud800"}'

    def ask(session: str) -> str:
        result = run_mem("hook", "claude", "UserPromptSubmit", input=raw % (project, session))
        assert result.returncode == 0, result.stderr
        return result.stdout

    alone = ask("alone")
    assert "Stripe mock" in alone
    settings(store, auto=True, budget=5000)
    started_worker(project, store, workers)
    before = health(store)["answered"]  # type: ignore[index]
    assert ask("warm") == alone
    assert health(store)["answered"] == before + 1  # type: ignore[index]


def test_the_worker_reads_every_layer_as_the_command_does(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"
    settings(store, auto=True, budget=5000)
    for args in (
        ("Refund emails go out in the customer's language", "--layer", "user"),
        ("init", "--layer", "team"),
        ("Refunds over 500 euros need a second approver", "--layer", "team"),
    ):
        done = run_mem(*(args if args[0] == "init" else ("save", *args)), cwd=project)
        assert done.returncode == 0, done.stderr
    prompt = "refunds need a second approver over 500 euros?"
    alone = [run_mem("context", cwd=project), run_mem("recall", prompt, cwd=project)]
    assert "(user)" in alone[0].stdout and "(team)" in alone[1].stdout
    started_worker(project, store, workers)
    before = health(store)["answered"]  # type: ignore[index]
    warm = [run_mem("context", cwd=project), run_mem("recall", prompt, cwd=project)]
    assert [(r.stdout, r.stderr) for r in warm] == [(r.stdout, r.stderr) for r in alone]
    assert health(store)["answered"] == before + 2  # type: ignore[index]


def test_the_worker_serves_the_viewer(project: Path, tmp_path: Path, workers: list[int]) -> None:
    import httpx

    store = tmp_path / "s"
    started_worker(project, store, workers)
    transport = httpx.HTTPTransport(uds=str(socket_of(store)))
    with httpx.Client(transport=transport, base_url="http://mem", timeout=30) as http:
        journal = http.get("/")
        found = http.get("/search", params={"q": "stripe mock"})
    assert journal.status_code == 200 and "Stripe mock on port 12111" in journal.text
    assert found.status_code == 200 and "bm25 #1" in found.text


def test_status_says_whether_the_worker_runs(
    project: Path, tmp_path: Path, workers: list[int]
) -> None:
    store = tmp_path / "s"

    def worker() -> dict[str, Any]:
        shown = run_mem("status", "--json", cwd=project)
        assert shown.returncode == 0, shown.stderr
        return dict(json.loads(shown.stdout)["worker"])

    settings(store, auto=False)
    assert worker() == {"state": "off", "auto": False, "socket": str(socket_of(store))}
    assert "worker       off" in run_mem("status", cwd=project).stdout
    settings(store, auto=True)
    assert worker()["state"] == "stopped"
    pid = started_worker(project, store, workers)
    running = worker()
    assert running["state"] == "running" and running["pid"] == pid and running["same_env"]
    assert running["answered"] == 0 and running["idle_exit"] == 1800
    shown = run_mem("status", cwd=project).stdout
    assert f"running (pid {pid}, since {running['started']}" in shown
    # From a shell with other variables: running still, and said to answer itself there.
    other = json.loads(run_mem("status", "--json", cwd=project, env={"MEM_X": "1"}).stdout)
    assert other["worker"]["state"] == "running" and other["worker"]["pid"] == pid
    assert not other["worker"]["same_env"]
    assert "other MEM_/XDG_/HF_/GIT_" in run_mem("status", cwd=project, env={"MEM_X": "1"}).stdout


def test_a_search_goes_to_the_worker_and_back_unchanged_or_is_refused() -> None:
    from memcli.adapters.cli.commands.search import SearchAsked
    from memcli.index import Filters

    filters = Filters(types=("gotcha",), since="2026-01-01T00:00:00Z", concepts=("db",))
    asked = SearchAsked("stripe mock", filters, 5, True, "hybrid", False, True, False, True)
    request = json.loads(json.dumps(asked.request()))
    assert SearchAsked.from_request(request) == asked
    bad_filters = {**request["filters"], "types": "gotcha"}
    for bad in (
        {},
        {**request, "query": "  "},
        {**request, "limit": True},
        {**request, "limit": 0},
        {**request, "mode": "fuzzy"},
        {**request, "explain": "yes"},
        {**request, "filters": bad_filters},
        {**request, "filters": {**request["filters"], "since": 3}},
        {**request, "filters": {**request["filters"], "kind": "note"}},
    ):
        with pytest.raises(ValueError):
            SearchAsked.from_request(bad)


def test_the_worker_takes_every_field_of_a_search() -> None:
    from memcli.adapters.cli.commands.search import SearchAsked
    from memcli.adapters.worker.reads import FIELDS

    assert FIELDS["search"] == SearchAsked._fields
