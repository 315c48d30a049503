"""A supersede loop written by hand: reads hide none of its members, doctor names it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import git, mem, mem_json, run_mem


def _saved(text: str, key: str) -> tuple[str, Path]:
    memory = mem_json("save", text, "--type", "decision", "--key", key)
    return str(memory["id"]), Path(str(memory["path"]))


def _supersedes(store: Path, path: Path, *ids: str) -> None:
    """Write ``supersedes`` into a memory file by hand, as a person would."""
    file = store / path
    text = file.read_text()
    listed = ", ".join(f'"{i}"' for i in ids)
    file.write_text(re.sub(r"\nkey: ", f"\nsupersedes: [{listed}]\nkey: ", text, count=1))


def test_a_loop_hides_none_of_its_members_and_doctor_names_it(store: Path) -> None:
    first, first_path = _saved("Deploys go out on Tuesdays", "a")
    second, second_path = _saved("Deploys go out on Thursdays", "b")
    third, third_path = _saved("Deploys go out on Fridays", "c")
    outside, _ = _saved("Hotfixes ship any day", "d")
    _supersedes(store, first_path, second)
    _supersedes(store, second_path, first)
    git(store, "commit", "-qam", "a loop by hand")
    listed = {m["id"] for m in mem_json("list")}
    assert {first, second, third, outside} <= listed
    found = {m["id"] for m in mem_json("search", "deploys")}
    assert {first, second} <= found
    doctor = run_mem("doctor")
    lines = [line for line in doctor.stdout.splitlines() + doctor.stderr.splitlines()]
    named = [line for line in lines if first in line and second in line]
    assert len(named) == 1 and "loop" in named[0] and "supersedes" in named[0]
    # a longer loop, and a memory outside it that replaces one member, which stays hidden
    _supersedes(store, second_path, third)
    _supersedes(store, third_path, first)
    git(store, "commit", "-qam", "a longer loop")
    mem("edit", "d", "--set", f"supersedes={third}")
    listed = {m["id"] for m in mem_json("list")}
    assert {first, second, outside} <= listed and third not in listed
    doctor = run_mem("doctor")
    named = [line for line in doctor.stdout.splitlines() if first in line and third in line]
    assert len(named) == 1 and "loop" in named[0]
