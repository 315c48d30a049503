"""Short ids: one length for every memory of a store at a time, long enough to be unique.

Two ids that share their first 8 characters make every id of the store (each
layer read with it included) 9 characters long, in every listing; any unique
prefix of 4 characters or more still finds a memory.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from .conftest import git_project, mem, mem_json

TWINS = ("01M8FTMS0AAAAAAAAAAAAAAAAA", "01M8FTMS1BBBBBBBBBBBBBBBBB")
"""Two ids alike in their first 8 characters."""
LONER = "01JDX3Z6T0V6K8M2Q9R4S5T7W8"


def rows(*memories: tuple[str, str]) -> str:
    """A `mem export` of observations with these ids and titles."""
    return "".join(
        json.dumps(
            {
                "id": identity,
                "kind": "observation",
                "type": "decision",
                "title": title,
                "created": f"2026-11-{20 + n:02d}T10:00:00Z",
                "narrative": f"{title}. Deploys and invoices both.",
            }
        )
        + "\n"
        for n, (identity, title) in enumerate(memories)
    )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with one commit, the current directory."""
    root = tmp_path / "shop"
    git_project(root, {"README.md": "The shop\n"})
    monkeypatch.chdir(root)
    return root


def shown_ids(text: str) -> list[str]:
    """The id each line of a listing starts with (or shows in brackets)."""
    return re.findall(r"^(?:- \[)?([0-9A-Z]{8,26})\b", text, flags=re.MULTILINE)


def test_every_id_of_a_store_is_shown_at_one_length(project: Path) -> None:
    mem(
        "import",
        "jsonl",
        "-",
        input=rows((TWINS[0], "Deploys on Tuesdays"), (TWINS[1], "Invoices"), (LONER, "Lone")),
    )
    listed = mem_json("list")
    assert sorted(m["short_id"] for m in listed) == sorted(i[:9] for i in (*TWINS, LONER))
    for text in (mem("list").stdout, mem("search", "deploys invoices").stdout):
        assert sorted(shown_ids(text)) == sorted(i[:9] for i in (*TWINS, LONER)), text
    context = mem("context").stdout
    assert f"[{LONER[:9]}]" in context and f"[{LONER[:8]}]" not in context
    # Any unique prefix finds its memory; a shared one is refused in one line.
    assert mem_json("show", LONER[:6])[0]["id"] == LONER
    assert mem_json("show", TWINS[1][:9].lower())[0]["id"] == TWINS[1]
    assert "matches several memories" in mem("show", TWINS[0][:8], expect=1).output


def test_ids_alike_across_layers_lengthen_both_layers(project: Path) -> None:
    mem("import", "jsonl", "-", input=rows((TWINS[0], "Deploys on Tuesdays"), (LONER, "Lone")))
    mem("save", "Invoices are numbered per tenant", "--layer", "user")  # makes the user layer
    user = Path(os.environ["MEM_HOME"]) / "_user"
    mem("import", "jsonl", "-", "--store", str(user), input=rows((TWINS[1], "Invoices")))
    lengths = {len(m["short_id"]) for m in mem_json("list")}
    assert lengths == {9}
    assert {len(m["short_id"]) for m in mem_json("list", "--layer", "user")} == {9}
    # Each layer alone needs only 8.
    assert {len(m["short_id"]) for m in mem_json("list", "--store", str(user))} == {8}


def test_an_index_an_older_mem_built_keeps_its_length_after_one_read(project: Path) -> None:
    """The length is counted once, not on every read, for an index without its meta row."""
    import apsw

    mem("import", "jsonl", "-", input=rows((TWINS[0], "Deploys"), (TWINS[1], "Invoices")))
    mem("list")
    [index] = Path(os.environ["MEM_HOME"]).glob("*/.cache/index.db")
    db = apsw.Connection(str(index))
    db.execute("DELETE FROM meta WHERE name = 'short_id_chars'")  # as an older mem left it
    assert {len(m["short_id"]) for m in mem_json("list")} == {9}
    kept = list(db.execute("SELECT value FROM meta WHERE name = 'short_id_chars'"))
    db.close()
    assert kept == [("9",)]


def kept_rows(name: str) -> list[str]:
    """The meta rows ``name`` of every index under MEM_HOME."""
    import apsw

    found = []
    for index in Path(os.environ["MEM_HOME"]).glob("*/.cache/index.db"):
        db = apsw.Connection(str(index))
        found += [str(v) for (v,) in db.execute("SELECT value FROM meta WHERE name = ?", (name,))]
        db.close()
    return found


def test_the_length_of_layers_read_together_is_kept_until_a_layer_changes(project: Path) -> None:
    """Comparing every layer's ids with the others' is done once per change, not per read."""
    mem("import", "jsonl", "-", input=rows((TWINS[0], "Deploys on Tuesdays"), (LONER, "Lone")))
    mem("save", "Invoices are numbered per tenant", "--layer", "user")
    assert {len(m["short_id"]) for m in mem_json("list")} == {8}
    assert [row.split()[-1] for row in kept_rows("short_id_chars_layers")] == ["8"]
    user = Path(os.environ["MEM_HOME"]) / "_user"
    mem("import", "jsonl", "-", "--store", str(user), input=rows((TWINS[1], "Invoices")))
    assert {len(m["short_id"]) for m in mem_json("list")} == {9}
    assert {len(m["short_id"]) for m in mem_json("list", "--store", str(user))} == {8}
