"""``mem review``: list, accept (with provenance), edit, reject and skip lesson drafts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import memcli
from memcli.core.lesson import LessonDraft
from tests.conftest import git, mem, mem_json

LESSONS = [
    LessonDraft(
        "rule", "Use pnpm, never npm", "No, we use pnpm here, never npm.", "s-1", "u4", "claude"
    ),
    LessonDraft(
        "note",
        "Restart the dev server after .env changes",
        "Note that the dev server must be restarted after changing .env files.",
        "s-1",
        "u9",
        "claude",
        files=(".env",),
    ),
    LessonDraft(
        "decision",
        "Cursor pagination",
        "Go with cursor pagination, since offsets drift when rows are inserted.",
        "s-1",
        "u12",
        "claude",
    ),
]


@pytest.fixture
def drafts(store: Path) -> list[str]:
    with memcli.open_store(store) as opened:
        opened.add_drafts(LESSONS)
    return [lesson.draft_id for lesson in LESSONS]


def test_review_lists_the_drafts_waiting(drafts: list[str]) -> None:
    listed = mem_json("review")
    assert sorted(d["id"] for d in listed) == sorted(drafts)
    note = next(d for d in listed if d["kind"] == "note")
    assert note == {
        "id": LESSONS[1].draft_id,
        "type": "discovery",
        "kind": "note",
        "title": "Restart the dev server after .env changes",
        "text": "Note that the dev server must be restarted after changing .env files.",
        "files": [".env"],
        "source": {"agent": "claude", "session": "s-1", "message": "u9"},
        "created": note["created"],
    }
    shown = mem("review", "--no-interactive").stdout
    assert all(identity in shown for identity in drafts)


def test_a_drafted_rule_suggests_its_guard_and_accepting_it_says_how(store: Path) -> None:
    lesson = LessonDraft(
        "rule",
        "Never npm",
        "Never run npm install here.",
        "s-2",
        "u1",
        "claude",
        guard="deny Bash:npm install*",
    )
    with memcli.open_store(store) as opened:
        opened.add_drafts([lesson])
    assert mem_json("review")[0]["guard"] == "deny Bash:npm install*"
    assert "suggested guard: deny Bash:npm install*" in mem("review", "--no-interactive").stdout
    accepted = mem("review", "accept", lesson.draft_id)
    (listed,) = mem_json("list")
    memory = mem_json("show", listed["id"])[0]
    assert memory["guards"] == []  # suggested, never added by itself
    hint = accepted.stderr
    assert f"mem edit {memory['id']} --guard 'Bash:npm" in hint and "--guard-action deny" in hint


def test_accept_makes_a_memory_with_provenance_in_one_commit(
    store: Path, drafts: list[str]
) -> None:
    before = git(store, "rev-parse", "HEAD").strip()
    (answer,) = mem_json("review", "accept", drafts[0][:6])
    assert answer["action"] == "saved" and answer["draft"] == drafts[0]
    memory = mem_json("show", answer["id"])[0]
    assert memory["session"] == "s-1" and memory["agent"] == "claude"
    assert memory["source_message"] == "u4" and memory["lesson_draft"] == drafts[0]
    assert memory["type"] == "preference" and "never npm" in memory["narrative"]
    assert git(store, "rev-list", "--count", f"{before}..HEAD").strip() == "1"
    changed = git(store, "show", "--no-renames", "--name-status", "--format=", "HEAD").split("\n")
    assert f"D\tdrafts/{drafts[0]}.md" in changed
    assert drafts[0] not in {d["id"] for d in mem_json("review")}
    assert [hit["id"] for hit in mem_json("search", "pnpm npm")][:1] == [answer["id"]]


def test_accept_all_and_reject(store: Path, drafts: list[str]) -> None:
    mem("review", "reject", drafts[2])
    assert "reject draft: decision: Cursor pagination" in git(store, "log", "-1", "--format=%s")
    accepted = mem_json("review", "accept", "--all")
    assert sorted(a["draft"] for a in accepted) == sorted(drafts[:2])
    assert mem_json("review") == []
    assert len(mem_json("list")) == 2


def test_accept_all_stopped_by_one_draft_says_what_it_accepted(
    store: Path, drafts: list[str]
) -> None:
    # A draft edited by hand to hold a secret is refused as `mem save` would refuse it;
    # those accepted before it are committed, and the one line says which they were.
    order = [d["id"] for d in mem_json("review")]
    refused = store / "drafts" / f"{order[1]}.md"
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    refused.write_text(refused.read_text() + f"Token {token} too.\n")
    git(store, "commit", "-qam", "a draft edited by hand")
    result = mem("review", "accept", "--all", expect=1)
    (line,) = result.output.strip().splitlines()
    assert [d["id"] for d in mem_json("review")] == order[1:]
    assert order[0] in line and order[1] in line and token not in line
    (kept,) = mem_json("list")
    assert mem_json("show", kept["id"])[0]["lesson_draft"] == order[0]


def test_an_unknown_id_changes_nothing(store: Path, drafts: list[str]) -> None:
    head = git(store, "rev-parse", "HEAD")
    for argv in (["accept", drafts[0], "ffffffff"], ["reject", "nope", drafts[1]]):
        result = mem("review", *argv, expect=1)
        assert len(result.output.strip().splitlines()) == 1
        assert "Traceback" not in result.output
    assert git(store, "rev-parse", "HEAD") == head
    assert mem("review", "accept", expect=2).exit_code == 2  # neither ids nor --all


def test_accepting_a_lesson_kept_meanwhile_removes_the_draft(
    store: Path, drafts: list[str]
) -> None:
    mem("save", "--type", "preference", "--title", "Use pnpm, never npm", LESSONS[0].text)
    (answer,) = mem_json("review", "accept", drafts[0])
    assert answer["action"] == "duplicate"
    assert git(store, "log", "-1", "--format=%s").startswith("drop draft: preference:")
    assert drafts[0] not in {d["id"] for d in mem_json("review")}
    assert len(mem_json("list")) == 1


def test_one_at_a_time_accept_edit_reject_skip(
    store: Path, drafts: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\n"
        "path = sys.argv[-1]\n"
        "text = open(path).read()\n"
        "open(path, 'w').write(text.replace('offsets drift', 'offsets skip rows'))\n"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    order = [d["id"] for d in mem_json("review")]
    kinds = {lesson.draft_id: lesson.kind for lesson in LESSONS}
    answers = {"rule": "a", "decision": "e", "note": "s"}
    result = mem("review", "--interactive", input="".join(f"{answers[kinds[i]]}\n" for i in order))
    assert "accepted" in result.output
    memories = mem_json("list")
    assert len(memories) == 2
    decision = next(
        m for m in mem_json("show", *[m["id"] for m in memories]) if m["type"] == "decision"
    )
    assert "offsets skip rows" in decision["narrative"] and decision["source_message"] == "u12"
    assert [d["id"] for d in mem_json("review")] == [drafts[1]]  # skipped: still waiting
    mem("review", "--interactive", input="r\n")
    assert mem_json("review") == []
    assert "reject draft" in git(store, "log", "-1", "--format=%s")


def test_quit_leaves_every_draft_waiting(store: Path, drafts: list[str]) -> None:
    head = git(store, "rev-parse", "HEAD")
    mem("review", "--interactive", input="q\n")
    assert git(store, "rev-parse", "HEAD") == head
    assert len(mem_json("review")) == 3


def test_session_start_says_when_drafts_wait(store: Path) -> None:
    mem("save", "--type", "decision", "Deploys go out on Tuesdays.")
    assert "mem review" not in mem("context").stdout
    with memcli.open_store(store) as opened:
        opened.add_drafts(LESSONS[:2])
        text = opened.context()
    lines = [line for line in text.splitlines() if "mem review" in line]
    assert len(lines) == 1 and lines[0].startswith("2 lesson drafts wait")
    assert "never npm" not in text  # the count only, never a draft's text
    mem("review", "accept", "--all")
    assert "mem review" not in mem("context").stdout


def test_a_draft_emptied_by_hand_is_listed_not_a_crash(store: Path, drafts: list[str]) -> None:
    emptied = store / "drafts" / f"{drafts[0]}.md"
    head, _, _body = emptied.read_text().partition("\n---\n")
    emptied.write_text(head + "\n---\n")
    result = mem("review", "--no-interactive")
    assert all(identity in result.stdout for identity in drafts)
    assert "internal error" not in result.output
