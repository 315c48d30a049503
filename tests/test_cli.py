"""The commands, in process, on real git stores."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import click
import pytest

from memcli.adapters.cli.main import HIDDEN_ALIASES, cli

from .conftest import cli_commands, git, mem, mem_json

SEARCH_KEYS = {
    "id",
    "short_id",
    "kind",
    "key",
    "type",
    "title",
    "created",
    "updated",
    "importance",
    "score",
    "path",
    "concepts",
    "files",
    "layer",
}


def save(*args: str, input: str | None = None) -> str:
    return mem("save", *args, input=input).stdout.strip()


def test_save_writes_a_readable_file_and_one_commit(store: Path) -> None:
    identity = save(
        "FTS5 MATCH parses foo-bar as a column filter. Quote terms.",
        "--type",
        "gotcha",
        "--fact",
        "quote each term",
        "--concept",
        "sqlite,fts5",
        "--file",
        "./memcli/query.py",
        "--importance",
        "0.7",
    )
    files = list((store / "observations").rglob("*.md"))
    assert len(files) == 1
    name = files[0].name
    assert name.endswith(
        f"-fts5-match-parses-foo-bar-as-a-column-filter-{identity[-6:].lower()}.md"
    )
    text = files[0].read_text()
    assert f"id: {identity}\n" in text and "concepts: [sqlite, fts5]\n" in text
    assert "files: [memcli/query.py]\n" in text and "importance: 0.7\n" in text
    log = git(store, "log", "--format=%s%n%b%an <%ae>", "-1")
    assert log.startswith("save: gotcha: FTS5 MATCH parses foo-bar as a column filter\n")
    assert f"Memory-Id: {identity}" in log and "Test Person <test@example.com>" in log
    assert git(store, "status", "--porcelain") == ""


def test_text_from_stdin_and_title_default(store: Path) -> None:
    identity = save(input="# Heading line\n\nThe body.\n")
    shown = mem_json("show", identity)[0]
    assert shown["title"] == "Heading line" and shown["narrative"] == "# Heading line\n\nThe body."


def test_search_list_show_and_json_shapes(store: Path) -> None:
    first = save("Quoting search terms avoids FTS5 errors", "--type", "gotcha", "--key", "quoting")
    save("Plumbing keeps saves fast", "--type", "decision", "--concept", "git")
    hits = mem_json("search", "quoting")
    assert hits[0]["id"] == first
    assert set(hits[0]) == SEARCH_KEYS and hits[0]["score"] > 0 and hits[0]["key"] == "quoting"
    line = mem("search", "quoting").stdout.splitlines()[0]
    assert line.startswith(first[:8]) and "gotcha" in line and line.endswith("[quoting]")
    assert [h["title"] for h in mem_json("list")] == [
        "Plumbing keeps saves fast",
        "Quoting search terms avoids FTS5 errors",
    ]
    assert [h["title"] for h in mem_json("list", "--type", "decision")] == [
        "Plumbing keeps saves fast"
    ]
    shown = mem_json("show", "quoting", first[:10])
    assert len(shown) == 2 and shown[0]["id"] == first and "path" in shown[0]
    text = mem("show", "quoting").stdout
    assert text.startswith("# Quoting search terms avoids FTS5 errors\n")
    assert f"file: {shown[0]['path']}" in text


def test_search_reports_no_match_on_stderr(store: Path) -> None:
    save("something")
    result = mem("search", "absent", "--mode", "lexical")  # by meaning, anything is near
    assert result.stdout == "" and "no memory matches 'absent'" in result.stderr
    assert mem_json("search", "absent", "--mode", "lexical") == []


def test_saving_an_existing_key_updates_that_memory(store: Path) -> None:
    first = save("Old advice about hyphens", "--key", "fts-hyphen", "--type", "gotcha")
    again = save("New advice: quote every term", "--key", "fts-hyphen", "--fact", "quote")
    assert again == first
    assert len(list((store / "observations").rglob("*.md"))) == 1
    assert git(store, "log", "--format=%s", "-1").startswith("update: gotcha: Old advice")
    diff = git(store, "show", "--format=", "HEAD")
    assert "-Old advice about hyphens" in diff and "+New advice: quote every term" in diff
    shown = mem_json("show", "fts-hyphen")[0]
    assert shown["facts"] == ["quote"] and shown["updated"] is not None
    commits = git(store, "rev-list", "--count", "HEAD")
    unchanged = mem("save", "New advice: quote every term", "--key", "fts-hyphen")
    assert "unchanged" in unchanged.stderr
    assert git(store, "rev-list", "--count", "HEAD") == commits


def test_json_input_mode_for_agents(store: Path) -> None:
    payload = {
        "text": "Agents send JSON",
        "type": "pattern",
        "facts": ["one", "two"],
        "concepts": ["agents"],
        "key": "agent-json",
        "importance": 0.4,
    }
    stored = mem_json("save", "--input", "json", input=json.dumps(payload))
    assert stored["type"] == "pattern" and stored["facts"] == ["one", "two"]
    assert stored["action"] == "saved" and stored["path"].startswith("observations/")
    assert (store / stored["path"]).exists()
    assert mem("save", "--input", "json", input=json.dumps(payload)).stdout == f"{stored['id']}\n"


def test_json_prints_json_and_reads_plain_text(store: Path) -> None:
    """--json means "print JSON", as in every other command; stdin stays the text."""
    stored = mem_json("save", input="Plain text from a pipe\n")
    assert (
        stored["narrative"].startswith("Plain text from a pipe") and stored["type"] == "discovery"
    )


def test_the_old_json_input_form_still_works_and_says_so(store: Path) -> None:
    result = mem("save", "--json", input='{"text": "Old agents send this", "type": "gotcha"}')
    assert json.loads(result.stdout)["type"] == "gotcha"
    assert "deprecated: use --input json" in result.stderr
    refused = mem("save", "x", "--input", "json", input="{}", expect=2)
    assert "--input json reads stdin" in refused.stderr


def test_forget_removes_files_in_one_commit_and_keeps_history(store: Path) -> None:
    a = save("First memory to forget")
    b = save("Second memory to forget", "--key", "second")
    keep = save("A memory to keep")
    out = mem("forget", a, "second").stdout
    assert f"forgot {a}" in out and f"forgot {b}" in out
    assert git(store, "log", "--format=%s", "-1").strip() == "forget: 2 memories"
    assert [h["id"] for h in mem_json("list")] == [keep]
    assert {h["id"] for h in mem_json("search", "forget")} <= {keep}
    assert "First memory to forget" in git(store, "log", "-p", "--all")


def test_forget_and_restore_report_in_json(store: Path) -> None:
    saved = save("A memory that comes back", "--key", "boomerang")
    forgotten = mem_json("forget", "boomerang")
    assert [entry["id"] for entry in forgotten] == [saved] and forgotten[0]["commit"]
    restored = mem_json("restore", "boomerang")
    assert restored["id"] == saved and restored["key"] == "boomerang"
    assert restored["path"].startswith("observations/") and restored["commit"]
    assert [hit["id"] for hit in mem_json("list")] == [saved]


def test_forget_is_all_or_nothing(store: Path) -> None:
    a = save("Memory that stays")
    result = mem("forget", a, "no-such-key", expect=1)
    assert "no-such-key" in result.stderr
    assert [h["id"] for h in mem_json("list")] == [a]


def test_timeline_marks_the_anchor(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = []
    for day in range(1, 6):
        monkeypatch.setenv("MEM_NOW", f"2026-11-0{day}T12:00:00Z")
        ids.append(save(f"Event on day {day}"))
    monkeypatch.delenv("MEM_NOW")
    entries = mem_json("timeline", ids[2], "--before", "1", "--after", "1")
    assert [e["id"] for e in entries] == ids[1:4]
    assert [e["anchor"] for e in entries] == [False, True, False]
    lines = mem("timeline", ids[2]).stdout.splitlines()
    assert len(lines) == 5 and lines[2].startswith("> ") and "day 3" in lines[2]


def test_since_until_filters(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM_NOW", "2026-11-01T12:00:00Z")
    save("Old note about caching")
    monkeypatch.setenv("MEM_NOW", "2026-11-20T12:00:00Z")
    save("New note about caching")
    assert [h["title"] for h in mem_json("search", "caching", "--since", "1w")] == [
        "New note about caching"
    ]
    assert [h["title"] for h in mem_json("search", "caching", "--until", "2026-11-01")] == [
        "Old note about caching"
    ]
    assert len(mem_json("list", "--since", "2026-10-31")) == 2


def test_reindex_modes(store: Path) -> None:
    save("Something to index")
    assert "up to date: 1 memory" in mem("reindex").stdout
    assert "Rebuilt the index: 1 memory" in mem("reindex", "--full").stdout
    assert "matches the 1 memory and notes files" in mem("reindex", "--check").stdout
    report = mem_json("reindex", "--check")
    assert report["ok"] is True and report["checked"] == 1


def test_check_reports_drift_and_exits_1(store: Path) -> None:
    save("Indexed memory")
    extra = store / "observations/2026/01/2026-01-01-hand-made-aaaaaa.md"
    extra.parent.mkdir(parents=True)
    extra.write_text(
        "---\nid: 01JDM3N4P5Q6R7S8T9V0W1X2Y3\ntype: gotcha\ntitle: By hand\n"
        "created: 2026-01-01T00:00:00Z\n---\nnot committed yet\n"
    )
    result = mem("reindex", "--check", expect=1)
    assert "not indexed: observations/2026/01/2026-01-01-hand-made-aaaaaa.md" in result.stdout


def test_fallback_identity_when_git_has_none(
    store: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    empty = tmp_path / "empty-gitconfig"
    empty.write_text("")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    save("Saved without a git identity")
    assert git(store, "log", "-1", "--format=%an <%ae>").strip() == "mem <mem@localhost>"


@pytest.mark.parametrize(
    ("path", "command"), list(cli_commands(cli)), ids=[" ".join(p) for p, _ in cli_commands(cli)]
)
def test_every_command_has_help_text(path: list[str], command: click.Command) -> None:
    """A one-line summary first, then an Example block that runs the command itself."""
    summary, _, rest = inspect.cleandoc(command.help or "").partition("\n")
    assert summary.strip() and summary == summary.strip()
    listed = command.get_short_help_str(limit=1000)  # what `mem --help` lists
    assert listed and summary.startswith(listed.rstrip("."))
    example = rest.partition("Example:\n")[2]
    named = [HIDDEN_ALIASES.get(path[0], path[0]), *path[1:]]  # an alias shows its new name
    assert f"mem {' '.join(named)}" in example, rest
    shown = " ".join(mem(*path, "--help").stdout.split())
    assert summary in shown and "Example:" in shown


def test_a_save_never_commits_what_a_person_staged(store: Path) -> None:
    first = save("A memory edited by hand")
    path = next((store / "observations").rglob("*.md"))
    path.write_text(path.read_text().replace("edited by hand", "edited by hand, staged"))
    git(store, "add", str(path))
    second = save("A memory saved meanwhile")
    committed = git(store, "show", "--name-only", "--format=", "HEAD").split()
    assert len(committed) == 1 and second[-6:].lower() in committed[0]
    assert git(store, "diff", "--cached", "--name-only").strip() == str(path.relative_to(store))
    assert "edited by hand, staged" in path.read_text()
    assert mem_json("show", first)[0]["narrative"] == "A memory edited by hand, staged"


def test_progress_is_one_redrawn_line(capsys: pytest.CaptureFixture[str]) -> None:
    from memcli.adapters.cli.options import terminal_progress

    report = terminal_progress()
    report(512, 2000)
    report(1024, 2000)  # within a tenth of a second: not redrawn
    report(2000, 2000)
    err = capsys.readouterr().err
    assert err == (
        "\rmem: indexing 512 of 2,000 memory files\rmem: indexing 2,000 of 2,000 memory files\n"
    )


def test_help_lists_every_command_once_in_its_section() -> None:
    from memcli.adapters.cli.main import HELP_SECTIONS, LAZY_COMMANDS

    listed = [name for names in HELP_SECTIONS.values() for name in names]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(set(LAZY_COMMANDS) - set(HIDDEN_ALIASES))
    text = mem("--help").output
    assert [s for s in HELP_SECTIONS if f"\n{s}:\n" in text] == list(HELP_SECTIONS)
    names = re.findall(r"^  ([a-z-]+)  ", text.partition("Everyday:")[2], re.MULTILINE)
    assert sorted(names) == sorted(listed)
    assert "..." not in text.partition("Everyday:")[2]  # descriptions are not cut


@pytest.mark.parametrize(("typed", "hint"), [("serach", "mem search"), ("isntall", "mem install")])
def test_a_mistyped_command_names_the_closest_one(typed: str, hint: str) -> None:
    result = mem(typed, "x", expect=2)
    assert f"did you mean '{hint}'?" in result.stderr


def test_progress_stays_quiet_while_a_run_is_quick(capsys: pytest.CaptureFixture[str]) -> None:
    from memcli.adapters.cli.options import terminal_progress

    report = terminal_progress("reading", "transcript files", after=60.0)
    report(1, 2)
    report(2, 2)
    assert capsys.readouterr().err == ""


def test_summarize_reads_json_with_input_json_and_the_old_stdin_flag(store: Path) -> None:
    payload = json.dumps({"request": "Fix the flaky upload test", "learned": "retries hid it"})
    new = mem_json("summarize", "--input", "json", input=payload)
    assert new["title"] == "Fix the flaky upload test" and new["learned"] == "retries hid it"
    payload = json.dumps({"request": "Tidy the exporter", "completed": "split the module"})
    old = mem_json("compact", "--stdin", input=payload)
    assert old["completed"] == "split the module"
    assert "--stdin" not in mem("summarize", "--help").stdout
