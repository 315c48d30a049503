"""A memory's guards as its file keeps them: frontmatter round trips, hand edits, the dict shape."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memcli.capture.jsonl import export_line, record_from_line
from memcli.core import codec
from memcli.core.errors import InvalidInput, InvalidMemoryFile
from memcli.core.guards import ACTIONS, MAX_GLOB_CHARS, TOOLS, Guard, check_glob
from memcli.core.ids import new_ulid
from memcli.core.model import Observation
from memcli.core.serialize import record_dict

from .conftest import git, mem, mem_json

CREATED = "2026-11-21T07:00:00Z"


def _valid_glob(glob: str) -> bool:
    try:
        check_glob(glob)
    except InvalidInput:
        return False
    return True


globs = (
    st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r"),
        min_size=1,
        max_size=40,
    )
    | st.sampled_from(["npm install*", "a: b", '"quoted"', "it's", "x # y", "{a, b}", "[x]"])
).filter(_valid_glob)
guards = st.lists(
    st.builds(Guard, st.sampled_from(TOOLS), globs, st.sampled_from(ACTIONS)),
    max_size=4,
    unique=True,
)


def observation(*guard_list: Guard) -> Observation:
    return Observation(
        id=new_ulid(), type="preference", title="Use pnpm", created=CREATED, guards=list(guard_list)
    )


def head_of(obs: Observation) -> str:
    return obs.to_markdown()[4:].split("\n---\n", 1)[0]


@settings(max_examples=300, deadline=None)
@given(guards)
@example([Guard("Bash", "npm install*", "deny"), Guard("Read", ".env", "ask")])
@example([Guard("Bash", 'git push --force* # "no": {ever}', "warn")])
@example([Guard("Edit", "migrations/**", "deny"), Guard("Write", "deny", "deny")])
def test_guards_round_trip_through_both_readers(guard_list: list[Guard]) -> None:
    """mem's fast path reads back what it writes, and a YAML parser reads it the same way."""
    obs = observation(*guard_list)
    text = obs.to_markdown()
    assert Observation.from_markdown(text, "x.md") == obs
    head = head_of(obs)
    codec._parse_canonical(head.split("\n"))  # mem's own form: no YAML parser needed
    assert Observation.from_metadata(codec._parse_yaml(head), "") == obs
    assert yaml.safe_load(head).get("guards", []) == [g.to_frontmatter() for g in guard_list]


def test_guards_are_a_block_list_of_flow_mappings() -> None:
    obs = observation(Guard("Bash", "npm install*", "deny"), Guard("Edit", "migrations/**"))
    assert head_of(obs).endswith(
        '\nguards:\n  - {tool: Bash, glob: "npm install*", action: deny}'
        '\n  - {tool: Edit, glob: "migrations/**", action: ask}'
    )


def test_a_memory_without_guards_writes_no_guards_line() -> None:
    assert "guards" not in observation().to_markdown()


def _file(guards_yaml: str) -> str:
    return (
        f"---\nid: {new_ulid()}\ntype: preference\ntitle: Use pnpm\ncreated: {CREATED}\n"
        f"{guards_yaml}---\n\nUse pnpm, never npm.\n"
    )


@pytest.mark.parametrize(
    ("guards_yaml", "expected"),
    [
        (
            "guards:\n  - tool: Bash\n    glob: npm *\n    action: deny\n",
            [Guard("Bash", "npm *", "deny")],
        ),
        ("guards: ['Read:.env']\n", [Guard("Read", ".env", "ask")]),
        ("guards: []\n", []),
        ("guards:\n", []),
        (
            "guards:\n  - {tool: Bash, glob: 'rm -rf *'}\n  - {tool: Bash, glob: 'rm -rf *'}\n",
            [Guard("Bash", "rm -rf *", "ask")],
        ),
    ],
    ids=["block-mapping", "spec-string", "empty-list", "null", "duplicate"],
)
def test_hand_written_guards_are_read(guards_yaml: str, expected: list[Guard]) -> None:
    obs = Observation.from_markdown(_file(guards_yaml), "x.md")
    assert obs.guards == expected
    assert Observation.from_markdown(obs.to_markdown(), "x.md") == obs


MALFORMED = [
    ("guards: Bash:npm\n", "guards must be a list"),
    ("guards:\n  - {tool: Shell, glob: npm}\n", "guard tool 'Shell' is not one of"),
    ("guards:\n  - {tool: Bash, glob: npm, action: block}\n", "guard action 'block'"),
    ("guards:\n  - {tool: Bash}\n", "a guard needs a tool and a glob"),
    ("guards:\n  - {tool: Bash, glob: '*'}\n", "matches every call"),
    ("guards:\n  - {tool: Bash, glob: npm, when: always}\n", "unknown field(s): when"),
    ("guards:\n  - Bash npm\n", "is not TOOL:GLOB"),
    (f"guards: ['Bash:{'x' * (MAX_GLOB_CHARS + 1)}']\n", "longer than"),
]


@pytest.mark.parametrize(("guards_yaml", "problem"), MALFORMED)
def test_a_malformed_guard_makes_the_file_invalid(guards_yaml: str, problem: str) -> None:
    with pytest.raises(InvalidMemoryFile) as caught:
        Observation.from_markdown(_file(guards_yaml), "observations/x.md")
    assert problem in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_record_shape_has_the_guards() -> None:
    obs = observation(Guard("Bash", "npm *", "deny"))
    assert record_dict(obs)["guards"] == [{"tool": "Bash", "glob": "npm *", "action": "deny"}]
    assert record_dict(observation())["guards"] == []


def _hand_write(store: Path, text: str, name: str = "hand.md") -> Path:
    path = store / "observations" / "2026" / "11" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_hand_edited_guard_is_read_shown_and_indexed(store: Path) -> None:
    text = _file("guards:\n  - {tool: Bash, glob: 'npm install*', action: deny}\n")
    _hand_write(store, text)
    git(store, "add", "-A")
    git(store, "commit", "-qm", "a guarded memory")
    [listed] = mem_json("list")
    [shown] = mem_json("show", listed["id"])
    assert shown["guards"] == [{"tool": "Bash", "glob": "npm install*", "action": "deny"}]


def test_a_malformed_guard_cannot_be_committed_and_reads_go_on(store: Path) -> None:
    mem("save", "A memory that is fine")
    head = git(store, "rev-parse", "HEAD")
    _hand_write(store, _file("guards:\n  - {tool: Shell, glob: npm}\n"), "bad.md")
    git(store, "add", "-A")
    result = subprocess.run(
        ["git", "commit", "-qm", "a bad guard"], cwd=store, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "mem: observations/2026/11/bad.md: guard tool 'Shell' is not one of" in result.stderr
    assert git(store, "rev-parse", "HEAD") == head
    # Committed past the hook, the file is reported and left out; the rest reads on.
    git(store, "commit", "-qm", "a bad guard", "--no-verify")
    assert [m["title"] for m in mem_json("list")] == ["A memory that is fine"]
    doctor = mem("doctor", expect=None)
    assert "bad.md" in doctor.output and "guard tool 'Shell'" in doctor.output


@settings(max_examples=100, deadline=None)
@given(guards)
@example([Guard("Bash", 'npm "install" # x: {y}', "deny")])
def test_an_export_line_keeps_the_guards(guard_list: list[Guard]) -> None:
    obs = observation(*guard_list)
    line = export_line(obs)
    back, _ = record_from_line(line)
    assert back == obs
    assert export_line(back) == line


def test_an_import_line_with_a_malformed_guard_is_refused() -> None:
    line = export_line(observation(Guard("Bash", "npm *")))
    for bad in ('"guards": "Bash:npm *"', '"guards": [{"tool": "Shell", "glob": "npm"}]'):
        broken = line.replace('"guards": [{"tool": "Bash", "glob": "npm *", "action": "ask"}]', bad)
        assert broken != line
        with pytest.raises(InvalidInput, match="guard"):
            record_from_line(broken)


def test_export_and_import_keep_a_stores_guards(store: Path, tmp_path: Path) -> None:
    _hand_write(store, _file("guards:\n  - {tool: Read, glob: '**/.env', action: deny}\n"))
    git(store, "add", "-A")
    git(store, "commit", "-qm", "a guarded memory")
    dump = tmp_path / "dump.jsonl"
    mem("export", "-o", str(dump))
    other = tmp_path / "other"
    mem("import", "jsonl", str(dump), "--store", str(other))
    [listed] = mem_json("list", "--store", str(other))
    [shown] = mem_json("show", listed["id"], "--store", str(other))
    assert shown["guards"] == [{"tool": "Read", "glob": "**/.env", "action": "deny"}]
    assert mem("export", "--store", str(other)).stdout == dump.read_text()
