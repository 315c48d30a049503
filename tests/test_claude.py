"""Claude Code: hook JSON through the installed command, and settings install/uninstall."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from memcli.adapters.agents import events
from memcli.adapters.agents.claude_settings import install, is_ours, uninstall
from memcli.core import config

from .conftest import git, mem, mem_here, run_mem

pytestmark = pytest.mark.e2e


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git project with a few memories in its central store."""
    root = tmp_path / "webshop"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for args in (
        [
            "Payments use idempotency keys on every retry",
            "--type",
            "decision",
            "--fact",
            "retry with the same Idempotency-Key header",
            "--concept",
            "payments",
        ],
        [
            "Checkout tests need the Stripe mock running on port 12111",
            "--type",
            "gotcha",
            "--fact",
            "start it with make stripe-mock",
            "--concept",
            "testing",
        ],
    ):
        assert mem_here("save", *args, cwd=root).returncode == 0  # setup: in this process
    return root


def hook(
    event: str, payload: dict[str, Any], cwd: Path, env: dict[str, str] | None = None
) -> tuple[Any, str]:
    """Run ``mem hook claude EVENT`` as Claude Code does; return (answer or None, stderr)."""
    result = run_mem("hook", "claude", event, input=json.dumps(payload), cwd=cwd, env=env)
    assert result.returncode == 0, result.stderr
    return (json.loads(result.stdout) if result.stdout.strip() else None), result.stderr


def payload(project: Path, event: str, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": "2f1c3b9e-sess",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(project),
        "hook_event_name": event,
        **fields,
    }


def test_session_start_answers_with_bounded_context(project: Path, tmp_path: Path) -> None:
    answer, _ = hook(
        "SessionStart", payload(project, "SessionStart", source="startup"), cwd=tmp_path
    )
    output = answer["hookSpecificOutput"]
    assert output["hookEventName"] == "SessionStart"
    context = output["additionalContext"]
    assert "# Memory of webshop" in context and "idempotency keys" in context
    assert len(json.dumps(answer)) < 10_000


def test_user_prompt_submit_recalls_strong_matches_only(project: Path, tmp_path: Path) -> None:
    env = {"MEM_NOW": "2027-01-15T10:00:00Z"}  # the memories are weeks old by then
    # Session start lists memories by a line each: recall may bring any of them.
    (tmp_path / "mem-home" / "webshop" / "mem.toml").write_text("[context]\nhot_count = 0\n")
    answer, _ = hook(
        "UserPromptSubmit",
        payload(
            project,
            "UserPromptSubmit",
            prompt="the checkout tests fail, is the stripe mock running?",
        ),
        cwd=tmp_path,
        env=env,
    )
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert answer["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert "Stripe mock" in context and "idempotency" not in context
    trivial, _ = hook(
        "UserPromptSubmit", payload(project, "UserPromptSubmit", prompt="ok"), cwd=tmp_path, env=env
    )
    assert trivial is None


def test_post_compact_summary_reaches_the_next_session_start(project: Path, tmp_path: Path) -> None:
    summary = (
        "The user asked to make refunds idempotent. We found the refund worker "
        "retries without a key; added Idempotency-Key to refunds. Next: load test."
    )
    answer, _ = hook(
        "PostCompact",
        payload(project, "PostCompact", trigger="auto", compact_summary=summary),
        cwd=tmp_path,
    )
    assert answer is None
    start, _ = hook(
        "SessionStart", payload(project, "SessionStart", source="compact"), cwd=tmp_path
    )
    assert "added Idempotency-Key to refunds" in start["hookSpecificOutput"]["additionalContext"]
    hits = json.loads(
        run_mem("search", "refund worker", "--kind", "summary", "--json", cwd=project).stdout
    )
    assert len(hits) == 1


@pytest.mark.parametrize("event", ["PreCompact", "SessionEnd"])
def test_quiet_events_answer_nothing(project: Path, tmp_path: Path, event: str) -> None:
    answer, stderr = hook(event, payload(project, event, trigger="manual"), cwd=tmp_path)
    assert answer is None and stderr == ""


@pytest.mark.parametrize(
    ("event", "stdin"),
    [
        ("SessionStart", "{not json"),
        ("SessionStart", "[1, 2]"),
        ("NoSuchEvent", "{}"),
        ("UserPromptSubmit", '{"prompt": 42}'),
    ],
    ids=["bad-json", "not-object", "unknown-event", "prompt-not-text"],
)
def test_hooks_fail_open(tmp_path: Path, event: str, stdin: str) -> None:
    result = run_mem("hook", "claude", event, input=stdin, cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) <= 1 and "Traceback" not in result.stderr


def test_a_broken_store_does_not_block_the_agent(project: Path, tmp_path: Path) -> None:
    store = tmp_path / "mem-home" / "webshop"
    (store / ".git" / "HEAD").unlink()
    result = run_mem(
        "hook",
        "claude",
        "SessionStart",
        input=json.dumps(payload(project, "SessionStart", source="startup")),
        cwd=tmp_path,
    )
    assert result.returncode == 0 and result.stdout == ""
    assert result.stderr.startswith("mem: SessionStart hook skipped:")


def test_a_project_without_memory_gets_no_answer(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    git(fresh, "init", "-q")
    answer, stderr = hook(
        "SessionStart", payload(fresh, "SessionStart", source="startup"), cwd=tmp_path
    )
    assert answer is None and stderr == ""


# ------------------------------------------------------------------ settings

EXISTING = {
    "permissions": {"allow": ["Bash(npm test:*)"], "deny": []},
    "env": {"FOO": "bär"},
    "hooks": {
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


@pytest.mark.parametrize("indent", [2, 4, "\t"], ids=["2-spaces", "4-spaces", "tabs"])
def test_install_then_uninstall_is_byte_identical(tmp_path: Path, indent: int | str) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = json.dumps(EXISTING, indent=indent, ensure_ascii=False) + "\n"
    settings.write_text(original)
    change = install(settings)
    data = json.loads(settings.read_text())
    assert data["permissions"] == EXISTING["permissions"] and data["env"] == EXISTING["env"]
    assert data["hooks"]["Stop"] == EXISTING["hooks"]["Stop"]
    session_start = data["hooks"]["SessionStart"]
    assert session_start[0] == EXISTING["hooks"]["SessionStart"][0]
    assert is_ours(session_start[1]["hooks"][0])
    assert {"UserPromptSubmit", "PostCompact"} <= set(data["hooks"])
    assert "+" in change.diff and settings.with_name("settings.json.mem-backup").exists()
    assert not install(settings).changed  # idempotent
    uninstall(settings)
    assert settings.read_text() == original
    assert not settings.with_name("settings.json.mem-backup").exists()


def test_uninstall_keeps_changes_made_since_install(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(EXISTING, indent=2) + "\n")
    install(settings)
    data = json.loads(settings.read_text())
    data["model"] = "sonnet"
    settings.write_text(json.dumps(data, indent=2) + "\n")
    uninstall(settings)
    assert json.loads(settings.read_text()) == {**EXISTING, "model": "sonnet"}


def test_install_creates_and_uninstall_removes_a_new_file(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    install(settings)
    assert settings.exists()
    uninstall(settings)
    assert not settings.exists()


def test_cli_install_dry_run_and_project_scope(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "src").mkdir()
    monkeypatch.chdir(project / "src")
    dry = mem("install", "claude", "--dry-run")
    assert "Would have installed" in dry.stdout and "hook claude SessionStart" in dry.stdout
    settings = project / ".claude" / "settings.json"
    assert not settings.exists()
    assert "Installed mem's hooks in" in mem("install", "claude").stdout
    assert settings.exists()
    assert "Nothing to change" in mem("install", "claude").stdout
    assert "Removed mem's hooks from" in mem("uninstall", "claude").stdout
    assert not settings.exists()


def test_invalid_settings_are_left_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{ broken")
    monkeypatch.chdir(tmp_path)
    result = mem("install", "claude", expect=1)
    assert "is not valid JSON" in result.stderr and settings.read_text() == "{ broken"


def test_user_scope_writes_to_the_home_directory(isolated_env: Path) -> None:
    mem("install", "claude", "--user")
    data = json.loads((isolated_env / ".claude" / "settings.json").read_text())
    assert set(data["hooks"]) == {
        "SessionStart",
        "UserPromptSubmit",
        "PostCompact",
        "SessionEnd",
        "PreToolUse",
    }


def test_user_scope_writes_through_a_symlinked_settings_file(isolated_env: Path) -> None:
    dotfiles = isolated_env / "dotfiles" / "claude"
    dotfiles.mkdir(parents=True)
    target = dotfiles / "settings.json"
    original = json.dumps(EXISTING, indent=2) + "\n"
    target.write_text(original)
    link = isolated_env / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(Path("..") / "dotfiles" / "claude" / "settings.json")

    mem("install", "claude", "--user")
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert set(json.loads(target.read_text())["hooks"]) >= {"SessionStart", "PostCompact"}
    assert (dotfiles / "settings.json.mem-backup").read_text() == original
    assert not list(link.parent.glob("*.mem-backup"))

    mem("uninstall", "claude", "--user")
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert target.read_text() == original
    assert not (dotfiles / "settings.json.mem-backup").exists()


def test_a_dangling_settings_symlink_is_written_through(isolated_env: Path) -> None:
    target = isolated_env / "dotfiles" / "settings.json"
    target.parent.mkdir()
    link = isolated_env / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(target)
    mem("install", "claude", "--user")
    assert link.is_symlink() and "PostCompact" in json.loads(target.read_text())["hooks"]
    mem("uninstall", "claude", "--user")
    assert link.is_symlink() and not target.exists()


def test_a_looping_settings_symlink_is_left_alone(isolated_env: Path) -> None:
    link = isolated_env / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(link)
    result = mem("install", "claude", "--user", expect=1)
    assert "loops" in result.stderr and link.is_symlink()


@pytest.mark.parametrize(
    "body",
    [
        "{% for i in range(100000) %}{% for j in range(100000) %}{{ i }}{% endfor %}{% endfor %}",
        "{{ lipsum(10000000) }}",
        '{{ ("x " * 4000000) | wordwrap(1) | length }}',
        '{{ ("a.b " * 2000000) | urlize | length }}',
    ],
    ids=["nested-loops", "lipsum", "wordwrap", "urlize"],
)
def test_a_runaway_store_template_does_not_block_the_agent(
    project: Path, tmp_path: Path, body: str
) -> None:
    """Loops and single slow calls alike stop at the template deadline."""
    templates = tmp_path / "mem-home" / "webshop" / "templates"
    templates.mkdir()
    (templates / "session_start.md.j2").write_text(body + "\n")
    started = time.monotonic()
    answer, stderr = hook(
        "SessionStart",
        payload(project, "SessionStart", source="startup"),
        cwd=tmp_path,
        env={"MEM_TEMPLATE_TIMEOUT": "0.5"},
    )
    assert time.monotonic() - started < 5
    assert answer is None
    assert stderr.startswith("mem: SessionStart hook skipped: template session_start.md.j2")


def test_post_compact_never_commits_a_linked_file_or_an_unscanned_secret(
    project: Path, tmp_path: Path
) -> None:
    store = tmp_path / "mem-home" / "webshop"
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:outside-the-store:/root:/bin/bash\n")
    templates = store / "templates"
    templates.mkdir()
    (templates / "x").symlink_to(secret)
    (templates / "compaction.md.j2").write_text('{% include "x" %}\n{{ text }}\n')
    event = payload(project, "PostCompact", trigger="auto", compact_summary="Moved to plumbing")
    answer, stderr = hook("PostCompact", event, cwd=tmp_path)
    assert "compaction.md.j2" in stderr
    token = "ghp_" + "a1B2c3D4e5F6" * 3
    (templates / "compaction.md.j2").write_text(f"deploy token {token}\n{{{{ text }}}}\n")
    hook("PostCompact", event, cwd=tmp_path)
    history = git(store, "log", "-p", "--all")
    assert "outside-the-store" not in history and token not in history
    summaries = [p.read_text() for p in (store / "summaries").rglob("*.md")]
    assert len(summaries) == 2 and all("Moved to plumbing" in s for s in summaries)
    assert "[REDACTED" in "".join(summaries)


@pytest.mark.parametrize(
    ("link", "target", "include"),
    [
        ("cfg", "../.git/config", "cfg"),
        ("git", "../.git", "git/config"),
        ("notes", "../MEMORY.md", "notes"),
    ],
)
def test_post_compact_never_includes_a_store_file_outside_its_templates_folder(
    project: Path, tmp_path: Path, link: str, target: str, include: str
) -> None:
    store = tmp_path / "mem-home" / "webshop"
    canary = "AUTHORIZATION: bearer leak-canary-7f3a"
    git(store, "config", "http.extraheader", canary)
    (store / "MEMORY.md").write_text(f"# Notes\n{canary}\n")
    templates = store / "templates"
    templates.mkdir()
    (templates / link).symlink_to(target)
    (templates / "compaction.md.j2").write_text(f'{{% include "{include}" %}}\n{{{{ text }}}}\n')
    event = payload(project, "PostCompact", trigger="auto", compact_summary="Moved to plumbing")
    _, stderr = hook("PostCompact", event, cwd=tmp_path)
    assert "compaction.md.j2" in stderr and include in stderr
    assert "symbolic link out of the store's templates folder" in stderr
    assert len(stderr.strip().splitlines()) == 1
    history = git(store, "log", "-p", "--all")
    assert "leak-canary" not in history
    summaries = [p.read_text() for p in (store / "summaries").rglob("*.md")]
    assert len(summaries) == 1 and "Moved to plumbing" in summaries[0]


@pytest.mark.parametrize(
    ("summary", "session", "kept"),
    [
        ("Moved saves to git plumbing \ud800 then", "sess-1", "Moved saves to git plumbing"),
        ("Moved saves to git plumbing\x00 then", "sess-1", "Moved saves to git plumbing"),
        ("Moved saves to git plumbing", "s" * 300, "Moved saves to git plumbing"),
        ("Moved saves to git plumbing. " + "word " * 600_000, "sess-1", "more characters"),
    ],
)
def test_post_compact_keeps_every_summary(
    project: Path, tmp_path: Path, summary: str, session: str, kept: str
) -> None:
    event = payload(project, "PostCompact", trigger="auto", compact_summary=summary)
    event["session_id"] = session
    hook("PostCompact", event, cwd=tmp_path)
    store = tmp_path / "mem-home" / "webshop"
    stored = [p.read_text() for p in (store / "summaries").rglob("*.md")]
    assert len(stored) == 1 and kept in stored[0] and "Moved saves" in stored[0]
    assert len(stored[0]) < 250_000


def unindexed_store(root: Path) -> dict[str, str]:
    """30 memories committed with git alone (no index), and a mem environment for the hooks."""
    from memcli.core.model import Observation
    from memcli.store.files import Store

    git(root.parent, "init", "-q", "-b", "main", str(root))
    store = Store(root)
    for n in range(30):
        obs = Observation(
            id=f"01JDN{n:05d}" + "A" * 16,
            type="discovery",
            title=f"Rollout step {n} for the payment service",
            created="2026-11-21T10:00:00Z",
        )
        path = root / store.new_path(obs)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(obs.to_markdown())
    (root / "MEMORY.md").write_text("- curated note: deploy on Tuesdays\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "many memories, no index")
    return {"MEM_STORE": str(root), "MEM_HOOK_REBUILD_LIMIT": "10", "MEM_NOW": "2026-11-21T12:00Z"}


def wait_for_background_reindex(root: Path) -> None:
    """Until the detached ``mem reindex`` has indexed HEAD and exited: it goes on after the
    index names HEAD (vectors, the guard table), and a hook asked meanwhile finds it busy."""
    from memcli.adapters.agents.events import BACKGROUND_PID_FILE
    from memcli.index import Index

    head = git(root, "rev-parse", "HEAD").strip()
    pid = int((root / ".cache" / BACKGROUND_PID_FILE).read_text(encoding="ascii"))
    deadline = time.monotonic() + 60
    while True:
        try:
            index = Index(root / ".cache" / "index.db")
            try:
                if index.indexed_commit() == head and not _running(pid):
                    return
            finally:
                index.close()
        except Exception:
            pass
        assert time.monotonic() < deadline, "the background reindex never finished"
        time.sleep(0.05)


def _running(pid: int) -> bool:
    """Alive and not a zombie (an exited orphan no one has reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def test_session_start_never_rebuilds_a_large_index_itself(tmp_path: Path) -> None:
    root = tmp_path / "big-store"
    env = unindexed_store(root)
    event = payload(tmp_path, "SessionStart", source="startup")
    answer, stderr = hook("SessionStart", event, cwd=tmp_path, env=env)
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "deploy on Tuesdays" in context and "Rollout step" not in context
    assert "rebuilding it in the background" in stderr
    # The detached `mem reindex` finishes on its own; then the hook answers in full.
    wait_for_background_reindex(root)
    answer, stderr = hook("SessionStart", event, cwd=tmp_path, env=env)
    assert "Rollout step 29" in answer["hookSpecificOutput"]["additionalContext"]
    assert "background" not in stderr


def test_a_prompt_never_waits_for_a_large_index_rebuild(tmp_path: Path) -> None:
    root = tmp_path / "big-store"
    env = unindexed_store(root)
    prompt = payload(tmp_path, "UserPromptSubmit", prompt="what is rollout step 17 for payment?")
    answer, stderr = hook("UserPromptSubmit", prompt, cwd=tmp_path, env=env)
    assert answer is None and "rebuilding it in the background" in stderr
    wait_for_background_reindex(root)
    assert hook("UserPromptSubmit", prompt, cwd=tmp_path, env=env)[0] is not None


def test_post_compact_commits_without_rebuilding_a_large_index(tmp_path: Path) -> None:
    root = tmp_path / "big-store"
    env = unindexed_store(root)
    event = payload(tmp_path, "PostCompact", trigger="auto", compact_summary="Moved to plumbing")
    answer, stderr = hook("PostCompact", event, cwd=tmp_path, env=env)
    assert answer is None and "rebuilding it in the background" in stderr
    assert "summarize" in git(root, "log", "-1", "--format=%s")
    wait_for_background_reindex(root)
    found = run_mem("search", "plumbing", "--mode", "lexical", "--json", env=env)
    assert [hit["kind"] for hit in json.loads(found.stdout)] == ["summary"]


@pytest.mark.parametrize(
    ("toml", "agent", "limit"),
    [
        ("[agents]\nclaude_context = 900\n", "claude", 900),
        ("[agents]\ncodex_context = 800\n", "codex", 800),
        ("[context]\nbudget = 700\n[agents]\ncodex_context = 5000\n", "codex", 700),
    ],
)
def test_each_agent_gets_the_context_its_budget_allows(
    store: Path, toml: str, agent: str, limit: int
) -> None:
    for n in range(12):
        title = f"Deploy step {n} needs the staging flag set before the release {'x' * 150}"
        fact = f"run make stage-{n} first, then check the flag {'y' * 150}"
        mem("save", title, "--type", "decision", "--fact", fact)
    whole = events.session_start(str(store), agent=agent, notify=lambda _: None)
    assert whole is not None and len(whole) > 1000
    (store / "mem.toml").write_text(toml)
    text = events.session_start(str(store), agent=agent, notify=lambda _: None)
    assert text is not None and "Deploy step" in text
    assert len(text) <= limit


def test_agent_budgets_default_to_what_each_agent_takes(store: Path) -> None:
    settings = config.load(store)
    assert config.agent_budget(settings, "codex", "context") == 6000  # ~2,500 tokens
    assert config.agent_budget(settings, "claude", "context") == 8000  # [context] budget
    assert config.agent_budget(settings, "unknown", "recall") == 8000


def test_a_bad_agent_budget_is_one_line_naming_it_and_the_default_is_used(store: Path) -> None:
    (store / "mem.toml").write_text("[agents]\ncodex_recall = -1\n")
    result = mem("context")
    assert [line for line in result.stderr.splitlines() if "agents.codex_recall" in line]
    assert config.agent_budget(config.load(store), "codex", "recall") == 4000


def test_a_compaction_mid_session_lets_recall_repeat_and_keeps_one_entry_a_session(
    project: Path, tmp_path: Path
) -> None:
    store = tmp_path / "mem-home" / "webshop"
    (store / "mem.toml").write_text("[context]\nhot_count = 0\n")  # recall may bring any
    asked = payload(
        project, "UserPromptSubmit", prompt="the checkout tests fail, is the stripe mock running?"
    )
    first, _ = hook("UserPromptSubmit", asked, cwd=tmp_path)
    assert "Stripe mock" in first["hookSpecificOutput"]["additionalContext"]
    assert hook("UserPromptSubmit", asked, cwd=tmp_path)[0] is None  # never twice in a session
    summary = (
        "Make the checkout tests pass\n\nThe Stripe mock was down; `make stripe-mock` fixed it."
    )
    hook(
        "PostCompact",
        payload(project, "PostCompact", trigger="auto", compact_summary=summary),
        cwd=tmp_path,
    )
    hook("SessionStart", payload(project, "SessionStart", source="compact"), cwd=tmp_path)
    after, _ = hook("UserPromptSubmit", asked, cwd=tmp_path)
    assert "Stripe mock" in after["hookSpecificOutput"]["additionalContext"]  # shown again
    (written,) = (store / "summaries").rglob("*.md")
    assert written.read_text().count("Make the checkout tests pass") == 1  # the title only
    # The session's end summary replaces its compaction summary among the latest sessions.
    ended = run_mem(
        "compact",
        "--session",
        "2f1c3b9e-sess",
        "--request",
        "Make the checkout tests pass",
        "--completed",
        "Started the Stripe mock before the checkout tests",
        cwd=project,
    )
    assert ended.returncode == 0, ended.stderr
    start, _ = hook(
        "SessionStart",
        {**payload(project, "SessionStart", source="startup"), "session_id": "next"},
        cwd=tmp_path,
    )
    context = start["hookSpecificOutput"]["additionalContext"]
    latest = context.split("## Latest sessions", 1)[1].split("\n## ", 1)[0]
    assert latest.count("\n### ") == 1 and "Started the Stripe mock" in latest
    assert latest.count("Make the checkout tests pass") == 1


def test_what_session_start_showed_for_the_current_work_is_not_recalled_again(
    project: Path, tmp_path: Path
) -> None:
    for n in range(4):
        assert (
            run_mem("save", f"House rule {n}", "--type", "preference", cwd=project).returncode == 0
        )
    saved = run_mem(
        "save",
        "Refunds are computed in cents, never in floats",
        "--type",
        "discovery",
        "--file",
        "src/payments/refund.py",
        cwd=project,
    )
    assert saved.returncode == 0, saved.stderr
    (project / "src" / "payments").mkdir(parents=True)
    (project / "src" / "payments" / "refund.py").write_text("x\n")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "start")
    git(project, "checkout", "-q", "-b", "refunds")
    (project / "src" / "payments" / "refund.py").write_text("y\n")  # the current work
    start, _ = hook(
        "SessionStart", payload(project, "SessionStart", source="startup"), cwd=tmp_path
    )
    context = start["hookSpecificOutput"]["additionalContext"]
    assert "Refunds are computed in cents" in context.split("House rule")[0]  # among the best
    asked = payload(project, "UserPromptSubmit", prompt="are refunds computed in cents or floats?")
    assert hook("UserPromptSubmit", asked, cwd=tmp_path)[0] is None  # shown already
    other = {**asked, "session_id": "another"}  # a session that did not see it
    recalled, _ = hook("UserPromptSubmit", other, cwd=tmp_path)
    assert "Refunds are computed in cents" in recalled["hookSpecificOutput"]["additionalContext"]


def test_recall_gives_what_session_start_left_out_for_the_current_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The memory touching the changed file enters session start's full list and pushes
    # the Stripe gotcha down to one fact: recall must still give its other fact.
    root = tmp_path / "shop"
    (root / "src").mkdir(parents=True)
    (root / "src" / "refund.py").write_text("x\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")

    def save(when: str, *args: str) -> None:
        monkeypatch.setenv("MEM_NOW", when)
        assert mem_here("save", *args, cwd=root).returncode == 0  # setup: in this process

    save("2026-09-01T00:00:00Z", "Refunds are computed in cents", "--file", "src/refund.py")
    stripe = ["Stripe webhooks retry for three days", "--type", "gotcha"]
    secret = ["--fact", "the signing secret rotates with the dashboard key"]
    save("2026-11-01T00:00:00Z", *stripe, "--fact", "make handlers idempotent", *secret)
    for title in (
        "Celery beat runs on one node",
        "Nginx buffers big uploads",
        "Sentry drops events",
    ):
        save("2026-11-01T00:00:01Z", title, "--type", "gotcha")
    save("2026-11-01T00:00:02Z", "Redis evicts allkeys-lru", "--type", "gotcha")
    monkeypatch.setenv("MEM_NOW", "2026-11-02T00:00:00Z")
    (root / "src" / "refund.py").write_text("y\n")  # the work in progress
    start, _ = hook("SessionStart", payload(root, "SessionStart", source="startup"), cwd=root)
    context = start["hookSpecificOutput"]["additionalContext"]
    assert "Refunds are computed in cents" in context and "signing secret" not in context
    asked = payload(root, "UserPromptSubmit", prompt="does the stripe signing secret rotate?")
    answer, _ = hook("UserPromptSubmit", asked, cwd=root)
    assert answer is not None
    assert "signing secret rotates" in answer["hookSpecificOutput"]["additionalContext"]
