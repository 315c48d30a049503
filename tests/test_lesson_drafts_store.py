"""Lesson drafts in the store: one commit per session, screened, never read as memories.

Drafts come from a real session end (``mem capture session-end`` on a Claude Code
transcript) or from ``MemStore.add_drafts``; every read mem offers is checked to
pass them over.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import memcli
from memcli.core.lesson import LessonDraft
from tests.conftest import git, mem, mem_json, run_mem, user_config
from tests.test_lessons import (
    GEMINI_NOTE,
    SESSION,
    Step,
    claude_session,
    codex_rollout,
    gemini_session,
)

STEPS: list[Step] = [
    ("user", "Add a lint script to package.json please."),
    ("assistant", "I'll install eslint with npm."),
    ("bash", ("npm install -D eslint", "added 1 package", False)),
    ("user", "No, we use pnpm here, never npm. Run pnpm add -D eslint instead."),
    ("assistant", "Understood, switching to pnpm."),
    ("bash", ("pnpm add -D eslint", "done", False)),
    ("edit", "package.json"),
    ("user", "Also, always write tests as plain pytest functions, never unittest classes."),
    ("assistant", "Got it. Note that the dev server must be restarted after changing .env files."),
]


def transcript(tmp_path: Path, steps: list[Step] = STEPS) -> Path:
    claude_session(tmp_path, steps)
    return tmp_path / f"{SESSION}.jsonl"


def capture(tmp_path: Path, *extra: str) -> dict[str, object]:
    path = transcript(tmp_path)
    argv = ["capture", "session-end", "--session", SESSION, "--transcript", str(path)]
    return json.loads(mem(*argv, "--cwd", str(tmp_path), *extra, "--json").stdout)


def lesson(text: str, *, kind: str = "rule", session: str = "s-1", message: str = "u1") -> Any:
    return LessonDraft(kind, text.split(".")[0], text, session, message, "claude")  # type: ignore[arg-type]


def draft_commits(store: Path) -> list[str]:
    return git(store, "log", "--format=%s", "--", "drafts").splitlines()


def test_a_session_end_writes_its_drafts_in_one_commit(store: Path, tmp_path: Path) -> None:
    answer = capture(tmp_path)
    assert answer["action"] == "saved" and answer["drafts"] == 3
    assert draft_commits(store) == ["drafts: 3 lessons from claude session 7e550000-000"]
    waiting = mem_json("review")
    assert [d["kind"] for d in waiting] == ["correction", "note", "rule"] or len(waiting) == 3
    correction = next(d for d in waiting if d["kind"] == "correction")
    assert correction["source"] == {"agent": "claude", "session": SESSION, "message": "u4"}
    assert "never npm" in correction["text"]
    # Once per session: run again (or after a compaction), nothing is drafted twice.
    mem("review", "reject", correction["id"])
    again = capture(tmp_path, "--drafts-only")
    assert again["drafts"] == 0
    assert len(draft_commits(store)) == 2
    assert correction["id"] not in {d["id"] for d in mem_json("review")}


RULES = [
    "Always quarantine the zebrafish fixtures before the nightly run.",
    "Never regenerate the zebrafish snapshots by hand.",
]


def test_drafts_reach_no_read_of_memories(store: Path) -> None:
    saved = mem_json("save", "--type", "decision", "The nightly run starts at two in the morning.")
    only = {saved["id"]}
    with memcli.open_store(store) as opened:
        assert len(opened.add_drafts([lesson(text) for text in RULES])["added"]) == 2
        assert {hit["id"] for hit in opened.search("zebrafish fixtures")} <= only
        assert {m["id"] for m in opened.list()} == only
        assert "zebrafish" not in opened.context()
        assert "zebrafish" not in opened.recall("how are the zebrafish fixtures handled")
    assert len(mem_json("review")) == 2
    assert {hit["id"] for hit in mem_json("search", "zebrafish fixtures")} <= only
    assert {m["id"] for m in mem_json("list")} == only
    assert "zebrafish" not in mem("context").stdout
    assert "zebrafish" not in mem("recall", "how are the zebrafish fixtures handled").stdout
    assert "zebrafish" not in mem("export").stdout
    assert mem("reindex", "--check").exit_code == 0
    assert "drafts" not in mem("doctor").stdout
    assert mem_json("dedupe")["clusters"] == []


def test_a_draft_committed_by_hand_passes_the_store_hook(store: Path) -> None:
    with memcli.open_store(store) as opened:
        opened.add_drafts([lesson("Always run the linter before pushing.")])
    (draft,) = (store / "drafts").iterdir()
    draft.write_text(draft.read_text().replace("Always run", "Always, always run"))
    git(store, "commit", "-qam", "a draft edited by hand")
    assert mem("doctor").exit_code == 0


def test_a_lesson_kept_already_in_any_layer_is_not_drafted(store: Path) -> None:
    mem("save", "--type", "preference", "Always run the linter before pushing.")
    mem("save", "--layer", "user", "--type", "preference", "Never commit straight to main.")
    with memcli.open_store(store) as opened:
        done = opened.add_drafts(
            [
                lesson("Always run the linter before pushing."),
                lesson("Never commit straight to main."),
                lesson("Prefer httpx over requests in new code."),
            ]
        )
    assert [d["text"] for d in done["added"]] == ["Prefer httpx over requests in new code."]
    assert [d["why"].split(" as ")[0] for d in done["dropped"]] == ["kept already"] * 2


def test_a_draft_pending_or_drafted_before_is_not_drafted_again(store: Path) -> None:
    first = lesson("Prefer httpx over requests in new code.")
    with memcli.open_store(store) as opened:
        opened.add_drafts([first])
        again = opened.add_drafts(
            [first, lesson("Prefer httpx over requests in new code!", session="s-2")]
        )
        assert again["added"] == [] and again["commit"] is None
        assert [d["why"] for d in again["dropped"]] == [
            "drafted before",
            "a draft waiting says the same",
        ]
        opened.reject_draft(first.draft_id)
        assert opened.add_drafts([first])["added"] == []


def test_a_secret_in_a_lesson_is_redacted_and_private_spans_dropped(store: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    with memcli.open_store(store) as opened:
        done = opened.add_drafts(
            [
                lesson(f"Always export GITHUB_TOKEN={token} before the release script."),
                lesson("Never <private>say where the staging box is</private>push on Fridays."),
                lesson("<private>the whole lesson is private</private>"),
            ]
        )
    texts = [d["text"] for d in done["added"]]
    assert len(texts) == 2 and [d["why"] for d in done["dropped"]] == ["nothing left once screened"]
    assert not any(token in t for t in texts)
    assert any("[REDACTED:" in t for t in texts)
    assert not any("staging box" in t for t in texts)
    history = git(store, "log", "-p", "--all")
    assert token not in history and "staging box" not in history
    redacted = next(d["id"] for d in done["added"] if "[REDACTED:" in d["text"])
    (accepted,) = mem_json("review", "accept", redacted)
    assert accepted["action"] == "saved" and "[REDACTED:" in accepted["narrative"]


def test_drafts_expire(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (store / "mem.toml").write_text('[review]\nexpire = "7d"\n')
    monkeypatch.setenv("MEM_NOW", "2026-01-01T00:00:00Z")
    with memcli.open_store(store) as opened:
        old = opened.add_drafts([lesson("Prefer httpx over requests in new code.")])
    monkeypatch.setenv("MEM_NOW", "2026-01-09T00:00:00Z")
    with memcli.open_store(store) as opened:
        assert opened.drafts() == []  # expired: never listed
        done = opened.add_drafts([lesson("Never push on Fridays.")])
    assert done["expired"] == [f"drafts/{old['added'][0]['id']}.md"]
    assert sorted(p.name for p in (store / "drafts").iterdir()) == [f"{done['added'][0]['id']}.md"]
    assert git(store, "status", "--porcelain", "--", "drafts") == ""
    assert "Expired:" in git(store, "log", "-1", "--format=%B")


@pytest.mark.e2e
def test_a_crash_while_writing_drafts_leaves_no_half_written_draft(
    tmp_path: Path, store: Path
) -> None:
    env = {"MEM_STORE": str(store), "MEM_LOCK_TIMEOUT": "10"}
    path = transcript(tmp_path)
    argv = ["capture", "session-end", "--session", SESSION, "--transcript", str(path)]
    killed = run_mem(*argv, env={**env, "MEM_CRASH_AT": "drafts-written"})
    assert killed.returncode == -signal.SIGKILL
    # The next write settles it: the drafts commit is finished whole (or undone).
    after = run_mem("save", "The first save after the crash", env=env)
    assert after.returncode == 0, after.stderr
    assert git(store, "status", "--porcelain") == ""
    files = sorted(p.name for p in (store / "drafts").iterdir())
    assert len(files) == 3
    assert not any(name.startswith(".") for name in os.listdir(store / "drafts"))
    assert draft_commits(store) == ["drafts: 3 lessons from claude session 7e550000-000"]
    listed = json.loads(run_mem("review", "--json", env=env).stdout)
    assert sorted(f"{d['id']}.md" for d in listed) == files


@pytest.mark.e2e
def test_a_compaction_drafts_the_lessons_so_far_in_the_background(
    store: Path, tmp_path: Path
) -> None:
    path = transcript(tmp_path)
    event = {
        "session_id": SESSION,
        "transcript_path": str(path),
        "cwd": str(tmp_path),
        "hook_event_name": "PostCompact",
        "trigger": "auto",
        "compact_summary": "Switched the lint setup to pnpm.",
    }
    done = run_mem("hook", "claude", "PostCompact", input=json.dumps(event), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    deadline = time.monotonic() + 10
    while not draft_commits(store):
        assert time.monotonic() < deadline, "no drafts were committed within 10 s"
        time.sleep(0.1)
    assert len(mem_json("review")) == 3
    # The session's end later drafts nothing twice.
    assert capture(tmp_path)["drafts"] == 0
    assert len(draft_commits(store)) == 1


def test_codex_and_gemini_session_ends_draft_too(store: Path, tmp_path: Path) -> None:
    codex = codex_rollout(
        tmp_path / "rollout.jsonl",
        "codex-1",
        str(tmp_path),
        [
            ("user", "Log the retries in fetch.py."),
            ("assistant", "I'll add print calls."),
            ("user", "Don't use print in library code. Use the logger."),
        ],
    )
    gemini = gemini_session(
        tmp_path / "session.jsonl",
        "gemini-1",
        [("m1", "user", "Bump it."), GEMINI_NOTE[1]],
    )
    for agent, session, path in (("codex", "codex-1", codex), ("gemini", "gemini-1", gemini)):
        argv = ["capture", "session-end", "--agent", agent, "--session", session]
        assert mem_json(*argv, "--transcript", str(path), "--drafts-only")["drafts"] == 1
    sources = {(d["source"]["agent"], d["source"]["message"]) for d in mem_json("review")}
    assert sources == {("codex", "3"), ("gemini", "m2")}
    assert len(draft_commits(store)) == 2


JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
    "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def no_part_of(secret: str, store: Path) -> None:
    """Neither the secret nor any 12 characters of it in the store's files or history."""
    history = git(store, "log", "-p", "--all") + mem("review", "--json").stdout
    assert not [
        secret[i : i + 12] for i in range(len(secret) - 11) if secret[i : i + 12] in history
    ]


def test_a_secret_a_cut_goes_through_leaves_no_part_of_it(store: Path, tmp_path: Path) -> None:
    # The title's cut (80 characters) and a failed command's (200) each fall inside a
    # secret: what is left of it no longer looks like one, so redacting after the cut
    # kept it. Redacted before the cut, nothing of it is stored.
    flags = " ".join(f"--opt{i}" for i in range(19))
    command = f"pytest tests/test_s3.py {flags} --token {GH_TOKEN}"
    assert command.index(GH_TOKEN) < 200 < command.index(GH_TOKEN) + len(GH_TOKEN)
    steps: list[Step] = [
        ("user", "Fix the upload tests please."),
        ("assistant", "Looking."),
        ("user", f"Always use token {JWT} for the staging deploy, never the prod one."),
        ("bash", (command, "E  NoSuchBucket: the bucket does not exist", True)),
        ("assistant", "It fails because moto starts every test with no buckets, so create it."),
        ("edit", "tests/conftest.py"),
        ("bash", (command, "6 passed", False)),
    ]
    claude_session(tmp_path, steps)
    path = tmp_path / f"{SESSION}.jsonl"
    argv = ["capture", "session-end", "--session", SESSION, "--transcript", str(path)]
    assert mem_json(*argv, "--drafts-only")["drafts"] == 2
    no_part_of(GH_TOKEN, store)
    no_part_of(JWT, store)


def test_a_secret_the_extract_commands_cuts_go_through_leaves_no_part_of_it(
    store: Path, tmp_path: Path
) -> None:
    answer = [
        {
            "kind": "rule",
            "title": f"Use token {JWT}",
            "text": "Use the staging token.",
            "message": "u2",
        },
        {"kind": "note", "text": "Note " + "that the build is slow " * 45 + JWT, "message": "u2"},
    ]
    script = tmp_path / "extract.py"
    script.write_text(f"import sys\nsys.stdin.read()\nprint({json.dumps(answer)!r})\n")
    user_config(f"[extract]\ncommand = {json.dumps(f'{sys.executable} {script}')}\n")
    claude_session(tmp_path, [("user", "Add zod."), ("assistant", "Ok."), ("user", "Thanks.")])
    path = tmp_path / f"{SESSION}.jsonl"
    argv = ["capture", "session-end", "--session", SESSION, "--transcript", str(path)]
    assert mem_json(*argv, "--drafts-only")["drafts"] == 2
    no_part_of(JWT, store)


@pytest.mark.e2e
def test_a_capture_killed_while_drafting_leaves_the_store_as_it_was(
    tmp_path: Path, store: Path
) -> None:
    # The [extract] command kills mem (SIGKILL) while mem waits for its drafts.
    killer = tmp_path / "killer.py"
    killer.write_text("import os, signal, sys\nsys.stdin.read()\nos.kill(os.getppid(), 9)\n")
    user_config(f"[extract]\ncommand = {json.dumps(f'{sys.executable} {killer}')}\n")
    head = git(store, "rev-parse", "HEAD")
    path = transcript(tmp_path)
    argv = ["capture", "session-end", "--session", SESSION, "--transcript", str(path)]
    killed = run_mem(*argv, "--cwd", str(tmp_path))
    assert killed.returncode == -signal.SIGKILL
    assert git(store, "rev-parse", "HEAD") == head
    assert git(store, "status", "--porcelain", "--ignored", "--", "drafts") == ""
    # Run again (mem's own drafting): the session's drafts arrive whole, in one commit.
    user_config("")
    done = run_mem(*argv, "--cwd", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["drafts"] == 3
    assert draft_commits(store) == ["drafts: 3 lessons from claude session 7e550000-000"]


def test_review_lists_the_drafts_when_the_expired_cannot_be_removed(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (store / "mem.toml").write_text('[review]\nexpire = "7d"\n')
    monkeypatch.setenv("MEM_NOW", "2026-01-01T00:00:00Z")
    with memcli.open_store(store) as opened:
        opened.add_drafts([lesson("Prefer httpx over requests in new code.")])
    monkeypatch.setenv("MEM_NOW", "2026-01-06T00:00:00Z")
    with memcli.open_store(store) as opened:
        (fresh,) = opened.add_drafts([lesson("Never push on Fridays.")])["added"]
    monkeypatch.setenv("MEM_NOW", "2026-01-09T00:00:00Z")
    git(store, "checkout", "-q", "--detach")  # no commit can be made: the listing goes on
    head = git(store, "rev-parse", "HEAD")
    assert [d["id"] for d in mem_json("review")] == [fresh["id"]]
    result = mem("review", "--no-interactive")
    assert fresh["id"] in result.stdout and "detached HEAD" in result.stderr
    assert git(store, "rev-parse", "HEAD") == head


def test_a_private_span_over_several_lines_or_sentences_is_never_drafted(
    store: Path, tmp_path: Path
) -> None:
    # Drafting reads a message sentence by sentence: a span cut in two there left its
    # end ("….</private>") with no opening tag for the screening to find.
    steps: list[Step] = [
        ("user", "Fix the deploy."),
        ("assistant", "Looking."),
        (
            "user",
            "Also: <private>never say that we deploy from the laptop in room 4.\n"
            "Always deploy from the laptop in room 4 on Fridays.</private>",
        ),
        (
            "user",
            "<private>The vault lives on the host in room 9. Always open the vault from "
            "room 9, never remotely.</private> Always run the linter before pushing.",
        ),
        ("assistant", "Note that the dev server must be restarted after changing .env files."),
    ]
    claude_session(tmp_path, steps)
    path = tmp_path / f"{SESSION}.jsonl"
    argv = ["capture", "session-end", "--session", SESSION, "--transcript", str(path)]
    assert mem_json(*argv, "--drafts-only")["drafts"] >= 1
    stored = git(store, "log", "-p", "--all") + mem("review", "--json").stdout
    assert "room 4" not in stored and "room 9" not in stored and "private>" not in stored


def test_a_secret_the_cut_of_a_long_message_goes_through_leaves_no_part_of_it(
    store: Path, tmp_path: Path
) -> None:
    from memcli.capture.lessons.text import MAX_SCANNED_CHARS

    filler = "Here is the build log you asked about, " + "line by line, " * 8 + "as it came.\n"
    filler *= 60
    rule = f"Always use the token {JWT} for staging."
    head = filler[: MAX_SCANNED_CHARS - len("Always use the token ") - 40]
    message = head + "\n" + rule + "\n" + filler
    assert message.index(JWT) < MAX_SCANNED_CHARS < message.index(JWT) + len(JWT)
    claude_session(tmp_path, [("user", "Fix it."), ("assistant", "Ok."), ("user", message)])
    path = tmp_path / f"{SESSION}.jsonl"
    argv = ["capture", "session-end", "--session", SESSION, "--transcript", str(path)]
    mem_json(*argv, "--drafts-only")
    no_part_of(JWT, store)


def test_a_lesson_the_team_keeps_is_not_drafted_and_drafts_stay_in_the_project_store(
    tmp_path: Path, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    git(project, "init", "-q")
    monkeypatch.chdir(project)
    mem("init", "--layer", "team")
    mem("save", "--layer", "team", "--type", "preference", STEPS[7][1])
    claude_session(tmp_path, STEPS)
    path = tmp_path / f"{SESSION}.jsonl"
    argv = ["capture", "session-end", "--session", SESSION, "--transcript", str(path)]
    assert mem_json(*argv, "--cwd", str(project), "--drafts-only")["drafts"] == 2
    assert "pytest functions" not in mem("review", "--json").stdout
    assert not (project / ".mem-team" / "drafts").exists()
    (store,) = [p for p in Path(os.environ["MEM_HOME"]).iterdir() if p.name != "_user"]
    assert len(list((store / "drafts").iterdir())) == 2


def test_the_messages_kept_for_drafting_hold_a_bounded_part_of_each(
    store: Path, tmp_path: Path
) -> None:
    # The latest messages are kept for drafting while the summary streams the rest: a
    # transcript of long messages kept them whole (memory grew with the transcript).
    import tracemalloc

    from memcli.capture.session_end import capture_session_end
    from memcli.service.memory import Memory
    from memcli.store.location import locate

    def drafted(session: str) -> int:
        memory = Memory(locate(str(store), None, tmp_path), notify=lambda _line: None)
        try:
            transcript = tmp_path / f"{SESSION}.jsonl"
            return capture_session_end(
                memory,
                agent="claude",
                session=session,
                transcript=transcript,
                cwd=None,
                summary=False,
            ).drafts
        finally:
            memory.close()

    # Once first, so that what every run loads once (settings, the index) is not counted.
    claude_session(
        tmp_path,
        [("user", "Always run the linter before pushing."), ("assistant", "Will do.")],
    )
    assert drafted("warm-up") == 1
    steps: list[Step] = [("user", "Fix the build please.")]
    for number in range(24):
        steps += [("assistant", f"Step {number}. " + "word " * 400_000), ("user", "Go on.")]
    steps += [
        ("assistant", "I'll install eslint with npm."),
        ("bash", ("npm install -D eslint", "added 1 package", False)),
        ("user", "No, we use pnpm here, never npm."),
    ]
    claude_session(tmp_path, steps)
    tracemalloc.start()
    try:
        assert drafted(SESSION) == 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 24 * 2_000_000 // 2  # well under the 48 MB of text the transcript holds
