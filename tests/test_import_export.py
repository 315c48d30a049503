"""mem export and mem import (jsonl, claude-memory, claude-mem), through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcli.capture.jsonl import export_line, record_from_line
from memcli.core.model import Observation
from tests.conftest import git, mem, mem_json

HAND_EDITED = """---
id: 01JDX3Z6T0V6K8M2Q9R4S5T7W8
type: decision
title: Keep the index disposable
created: 2026-01-02T03:04:05Z
reviewed: 2026-02-03
owners: [ann, bob]
nested: {a: 1}
---
Rebuild it from the files.
"""


def _seed(store: Path) -> None:
    mem("save", "FTS5 reads foo-bar as a column filter", "--type", "gotcha", "--key", "fts")
    mem("compact", "--request", "import things", "--learned", "jsonl is easy")
    folder = store / "observations" / "2026" / "01"
    folder.mkdir(parents=True)
    (folder / "2026-01-02-hand.md").write_text(HAND_EDITED)
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "hand edit")


def test_export_import_export_gives_the_same_bytes(store: Path, tmp_path: Path) -> None:
    _seed(store)
    first = mem("export").stdout
    assert first.count("\n") == 3
    lines = [json.loads(line) for line in first.splitlines()]
    assert lines[0]["extra"] == {
        "reviewed": "2026-02-03",
        "owners": ["ann", "bob"],
        "nested": {"a": 1},
    }
    assert lines[0]["dates"] == ["reviewed"]
    dump = tmp_path / "dump.jsonl"
    mem("export", "-o", str(dump))
    assert dump.read_text() == first
    other = tmp_path / "other"
    report = mem_json("import", "jsonl", str(dump), "--store", str(other))
    assert (report["imported"], report["failed"]) == (3, 0)
    assert mem("export", "--store", str(other)).stdout == first
    # The same fields and values; the file is in mem's own form now (flow lists quoted).
    from memcli.store.files import parse_memory_file

    path = "observations/2026/01/2026-01-02-hand.md"
    assert parse_memory_file(path, (other / path).read_bytes()) == parse_memory_file(
        path, HAND_EDITED.encode()
    )
    again = mem_json("import", "jsonl", str(dump), "--store", str(other))
    assert again["skipped_by_reason"] == {"already in the store": 3}
    assert "ok" in mem("reindex", "--check", "--json", "--store", str(other)).stdout


def test_bad_rows_fail_with_their_line_and_the_rest_is_imported(
    store: Path, tmp_path: Path
) -> None:
    mem("save", "a memory to export", "--type", "context")
    good = mem("export").stdout.splitlines()[0]
    row = json.loads(good)
    bad_type = json.dumps({**row, "id": "01JDX3Z6T0V6K8M2Q9R4S5T7W9", "type": "rumour"})
    wrong = json.dumps({**row, "id": "01JDX3Z6T0V6K8M2Q9R4S5T7WA", "title": 5})
    dump = tmp_path / "rows.jsonl"
    dump.write_text("\n".join(["{not json", bad_type, "", wrong, "[1]", good]) + "\n")
    other = tmp_path / "other"
    result = mem("import", "jsonl", str(dump), "--store", str(other), expect=1)
    assert "imported 1" in result.stdout
    assert "line 1: not valid JSON" in result.output
    assert "line 2" in result.output and "unknown type 'rumour'" in result.output
    assert "line 4" in result.output and "title" in result.output
    assert "line 5: not a JSON object" in result.output


def test_dry_run_changes_nothing(store: Path, tmp_path: Path) -> None:
    mem("save", "something worth keeping", "--type", "context")
    dump = tmp_path / "d.jsonl"
    mem("export", "-o", str(dump))
    other = tmp_path / "other"
    mem("init", "--store", str(other))
    head = git(other, "rev-parse", "HEAD")
    result = mem("import", "jsonl", str(dump), "--dry-run", "--store", str(other))
    assert "would import 1" in result.stdout and "context: something worth keeping" in result.stdout
    assert git(other, "rev-parse", "HEAD") == head


def test_one_commit_that_git_revert_undoes(store: Path, tmp_path: Path) -> None:
    for n in range(3):
        mem("save", f"memory number {n}", "--type", "context")
    dump = tmp_path / "d.jsonl"
    mem("export", "-o", str(dump))
    other = tmp_path / "other"
    mem("init", "--store", str(other))
    mem("import", "jsonl", str(dump), "--store", str(other))
    assert git(other, "log", "--format=%s", "-1").strip() == "import: 3 memories"
    assert git(other, "show", "--stat", "--format=", "HEAD").count(".md") == 3
    git(other, "revert", "--no-edit", "HEAD")
    assert mem_json("list", "--store", str(other)) == []
    mem("reindex", "--check", "--store", str(other))


def test_secrets_refused_or_redacted(store: Path, tmp_path: Path) -> None:
    token = "ghp_" + "a1B2c3D4" * 5
    line = json.dumps(
        {
            "id": "01JDX3Z6T0V6K8M2Q9R4S5T7W8",
            "type": "gotcha",
            "title": "ci token",
            "created": "2026-01-02T03:04:05Z",
            "narrative": f"the token is {token}",
        }
    )
    dump = tmp_path / "s.jsonl"
    dump.write_text(line + "\n")
    report = mem("import", "jsonl", str(dump), "--json", expect=1)
    assert json.loads(report.stdout)["failures"][0]["problem"].startswith(
        "refusing to store likely"
    )
    assert token not in report.output
    mem("import", "jsonl", str(dump), "--redact")
    assert token not in mem("export").stdout and "REDACTED" in mem("export").stdout


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "does not exist"),
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: p.write_bytes(b'{"a": 1}\n\xff\xfe\n'), "line 2 is not UTF-8"),
    ],
    ids=["missing", "folder", "not-utf8"],
)
def test_bad_files_are_one_line_errors(store: Path, tmp_path: Path, make, message: str) -> None:  # type: ignore[no-untyped-def]
    head = git(store, "rev-parse", "HEAD")
    path = tmp_path / "in.jsonl"
    make(path)
    result = mem("import", "jsonl", str(path), expect=1)
    assert message in result.output and "Traceback" not in result.output
    assert git(store, "rev-parse", "HEAD") == head


def test_a_huge_line_stops_the_import(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memcli.capture.jsonl as jsonl

    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "big.jsonl"
    path.write_text('{"a": "' + "x" * 5000 + '"}\n')
    result = mem("import", "jsonl", str(path), expect=1)
    assert "line 1 is longer than" in result.output


def _claude_memory(tmp_path: Path) -> Path:
    folder = tmp_path / "claude" / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("# Memory\n\n- [Testing](testing.md)\n")
    (folder / "testing.md").write_text(
        "---\nname: Run tests with -p no:randomly\ndescription: order matters here\n"
        "type: feedback\n---\nThe suite has order-dependent fixtures.\n"
    )
    (folder / "deploy.md").write_text(
        "---\nname: Deploys go through CI\ntype: project\n---\nNever deploy by hand.\n"
    )
    (folder / "broken.md").write_bytes(b"\xff\xfe")
    return folder


def test_claude_memory_import(store: Path, tmp_path: Path) -> None:
    folder = _claude_memory(tmp_path)
    commits = git(store, "rev-list", "--count", "HEAD")
    result = mem("import", "claude-memory", str(folder), expect=1)
    assert "imported 2" in result.stdout and "broken.md: is not UTF-8" in result.output
    assert (store / "MEMORY.md").read_text() == (folder / "MEMORY.md").read_text()
    # One commit brings the memories and MEMORY.md, which search finds at once.
    assert int(git(store, "rev-list", "--count", "HEAD")) == int(commits) + 1
    assert "MEMORY.md" in git(store, "show", "--stat", "--format=%s", "HEAD")
    assert "Testing" in mem("search", "Testing").stdout
    shown = {m["title"]: m for m in mem_json("list")}
    testing = mem_json("show", shown["order matters here"]["id"])
    first = testing[0] if isinstance(testing, list) else testing
    assert first["type"] == "preference" and first["claude_type"] == "feedback"
    assert first["imported_from"] == "claude-memory:testing.md"
    (folder / "broken.md").unlink()
    (folder / "MEMORY.md").write_text("# Memory\n\n- changed\n")
    again = mem("import", "claude-memory", str(folder))
    assert "skipped 2: already imported" in again.stdout
    assert "+- changed" in again.output
    mem("reindex", "--check")


def test_claude_memory_titles_are_descriptions_and_names_are_keys(
    store: Path, tmp_path: Path
) -> None:
    """Claude Code names a memory by a slug and says what it holds in its description."""
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "no-mocks-db.md").write_text(
        "---\nname: no-mocks-db\n"
        "description: Integration tests hit a real database, never mocks\ntype: feedback\n---\n"
        "Integration tests must hit a real database.\n**Why:** mocks hid a broken migration.\n"
    )
    (folder / "ci_runbook.md").write_text(  # no description: the body's first line
        "---\nname: ci_runbook\ntype: reference\n---\n\nThe CI runbook is docs/ci.md\nMore.\n"
    )
    (folder / "no-name.md").write_text("---\ntype: project\n---\nReleases are cut on Mondays.\n")
    mem("import", "claude-memory", str(folder))
    [shown] = mem_json("show", "no-mocks-db")
    assert shown["title"] == "Integration tests hit a real database, never mocks"
    assert shown["key"] == "no-mocks-db" and shown["type"] == "preference"
    assert "mocks hid a broken migration" in shown["narrative"]
    assert mem_json("show", "ci_runbook")[0]["title"] == "The CI runbook is docs/ci.md"
    assert mem_json("show", "no-name")[0]["title"] == "Releases are cut on Mondays"
    # Importing again adds nothing: each file is known by its name.
    again = mem("import", "claude-memory", str(folder))
    assert "skipped 3: already imported" in again.stdout
    assert len(mem_json("list")) == 3


def test_claude_memory_default_folder(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memcli.capture.claude_memory import default_memory_dir

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    assert (
        default_memory_dir(Path("/home/me/my.app"))
        == tmp_path / "cc/projects/-home-me-my-app/memory"
    )
    result = mem("import", "claude-memory", expect=1)
    assert "does not exist" in result.output


def test_claude_mem_is_wired(store: Path, tmp_path: Path) -> None:
    result = mem("import", "claude-mem", str(tmp_path / "missing.db"), "--all-projects", expect=1)
    assert "Traceback" not in result.output


_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=40)


@settings(max_examples=60, deadline=None)
@given(
    title=_text.filter(lambda t: t.strip() != ""),
    narrative=_text,
    facts=st.lists(_text.filter(lambda t: t.strip() != ""), max_size=3),
    extra=st.dictionaries(
        st.from_regex(r"x_[a-z]{1,8}", fullmatch=True),
        st.one_of(
            st.integers(-1000, 1000), _text, st.booleans(), st.lists(st.integers(), max_size=3)
        ),
        max_size=3,
    ),
)
def test_a_line_reads_back_as_the_record(
    title: str, narrative: str, facts: list[str], extra: dict[str, object]
) -> None:
    from memcli.core.errors import InvalidInput
    from memcli.store.files import parse_memory_file

    draft = Observation(
        id="01JDX3Z6T0V6K8M2Q9R4S5T7W8",
        type="gotcha",
        title=title,
        created="2026-01-02T03:04:05Z",
        narrative=narrative,
        facts=facts,
        extra=extra,
    )
    try:  # what mem would store: the record as its file reads back
        record = parse_memory_file("observations/a.md", draft.to_markdown().encode())
    except Exception:  # a value mem's validation refuses
        return
    line = export_line(record)
    try:
        back, _ = record_from_line(line)
    except InvalidInput:
        pytest.fail(f"an exported line did not read back: {line}")
    assert back == record
    assert export_line(back) == line


def test_claude_memory_md_with_a_secret_is_refused_or_redacted(store: Path, tmp_path: Path) -> None:
    folder = _claude_memory(tmp_path)
    (folder / "broken.md").unlink()
    key = "AKIA" + "IOSFODNN7EXAMPL3"
    (folder / "MEMORY.md").write_text(f"# Memory\n\n- deploy key {key}\n")
    refused = mem("import", "claude-memory", str(folder), expect=1)
    assert "likely secrets" in refused.output and not (store / "MEMORY.md").exists()
    assert key not in git(store, "log", "-p", "--all")
    mem("import", "claude-memory", str(folder), "--redact")
    kept = (store / "MEMORY.md").read_text()
    assert "[REDACTED" in kept and key not in git(store, "log", "-p", "--all")


def test_a_memory_md_written_during_the_import_is_never_replaced(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone writes the store's MEMORY.md while the import writes its files: theirs stays."""
    import memcli.service.writer as writer

    def someone_writes_it(point: str) -> None:
        if point == "lock-held":
            (store / "MEMORY.md").write_text("# Mine, written by hand\n")

    monkeypatch.setattr(writer, "crash_point", someone_writes_it)
    folder = _claude_memory(tmp_path)
    (folder / "broken.md").unlink()
    result = mem("import", "claude-memory", str(folder), expect=1)
    assert "appeared in the store meanwhile" in result.output
    assert (store / "MEMORY.md").read_text() == "# Mine, written by hand\n"
    assert git(store, "status", "--porcelain", "--untracked-files=no") == ""
    assert mem_json("list") == []  # nothing of the import was committed or left behind


def test_import_commit_messages_read_well() -> None:
    from memcli.core import journal
    from memcli.core.model import Observation

    assert journal.import_message("a/memory", [], notes=True) == (
        "import: MEMORY.md\n\nImported from a/memory.\n"
    )
    one = Observation(id="01JDX3Z6AAAAAAAAAAAAAAAAAA", type="decision", title="T", created="x")
    subject = journal.import_message("a/memory", [one], notes=True).splitlines()[0]
    assert subject == "import: 1 memory and MEMORY.md"


def _strict(text: str) -> object:
    """JSON as a strict parser reads it: Infinity and NaN are not JSON."""

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


ROW = {
    "id": "01JDX3Z6T0V6K8M2Q9R4S5T7W8",
    "type": "decision",
    "title": "Keep the index disposable",
    "created": "2026-01-02T03:04:05Z",
    "narrative": "Rebuild it from the files.",
}


@pytest.mark.parametrize(
    "value", ["1e309", "-1e309", "NaN", "Infinity", "[1, -Infinity]", '{"a": 1e400}']
)
def test_a_number_json_cannot_carry_is_refused_on_import(
    store: Path, tmp_path: Path, value: str
) -> None:
    dump = tmp_path / "rows.jsonl"
    line = json.dumps({**ROW, "extra": {"reach": "VALUE"}}).replace('"VALUE"', value)
    dump.write_text(line + "\n")
    result = mem("import", "jsonl", str(dump), expect=1)
    assert "line 1: not a finite number: infinity and NaN are not JSON" in result.output
    assert not (store / "observations").exists()


def test_hand_edited_infinity_and_nan_come_out_as_strict_json(store: Path) -> None:
    folder = store / "observations" / "2026" / "01"
    folder.mkdir(parents=True)
    text = HAND_EDITED.replace("nested: {a: 1}", "reach: .inf\nfloor: -.inf\nratio: .nan")
    (folder / "2026-01-02-hand.md").write_text(text.replace("owners: [ann, bob]", "x: [.inf]"))
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "hand edit")
    expected = {"reach": "Infinity", "floor": "-Infinity", "ratio": "NaN", "x": ["Infinity"]}
    shown = _strict(mem("show", ROW["id"], "--json").stdout)
    assert isinstance(shown, list) and {k: shown[0][k] for k in expected} == expected
    exported = _strict(mem("export").stdout)
    assert isinstance(exported, dict) and exported["extra"] == {
        "reviewed": "2026-02-03",
        **expected,
    }


def test_known_fields_under_extra_are_refused_on_import(store: Path, tmp_path: Path) -> None:
    dump = tmp_path / "rows.jsonl"
    rows = [
        {**ROW, "extra": {"id": "01JDX3Z6T0V6K8M2Q9R4S5T7W9", "type": "gotcha"}},
        {**ROW, "id": "01JDX3Z6T0V6K8M2Q9R4S5T7WA", "extra": {"narrative": "other"}},
    ]
    dump.write_text("".join(json.dumps(row) + "\n" for row in rows))
    result = mem("import", "jsonl", str(dump), expect=1)
    assert "line 1: extra holds 'id', 'type': mem's own fields go at the top level" in (
        result.output
    )
    assert "line 2: extra holds 'narrative'" in result.output
    assert not (store / "observations").exists()


def test_claude_memory_with_an_infinite_number_is_refused(store: Path, tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "ttl.md").write_text("---\nname: Cache TTL\nttl: .inf\n---\nIt never expires.\n")
    result = mem("import", "claude-memory", str(folder), expect=1)
    assert "ttl.md: ttl is not a finite number" in result.output
    assert not (store / "observations").exists()


def test_claude_memory_files_that_share_a_name_are_all_imported(
    store: Path, tmp_path: Path
) -> None:
    """Two files named alike (one copied, say) both come in: the second keyed by its file."""
    folder = tmp_path / "memory"
    folder.mkdir()
    for stem, text in (
        ("deploy-days", "Deploys go out on Tuesdays"),
        ("freeze", "No deploys in December"),
    ):
        (folder / f"{stem}.md").write_text(
            f"---\nname: deploy-days\ndescription: {text}\ntype: project\n---\n{text}.\n"
        )
    result = mem("import", "claude-memory", str(folder))
    assert "imported 2" in result.stdout
    assert mem_json("show", "deploy-days")[0]["title"] == "Deploys go out on Tuesdays"
    assert mem_json("show", "freeze")[0]["title"] == "No deploys in December"
    assert "skipped 2: already imported" in mem("import", "claude-memory", str(folder)).stdout
