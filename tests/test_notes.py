"""Curated notes (MEMORY.md, notes/**/*.md): cut by heading, indexed from git, searched."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcli.adapters.cli.output import note_lines
from memcli.core.chunks import (
    MAX_CHUNK_CHARS,
    MAX_CHUNKS,
    MAX_NOTE_BYTES,
    Chunk,
    chunk_markdown,
    heading_of,
    is_note_path,
)
from memcli.core.serialize import note_dict
from memcli.index import Index, NoteHit
from memcli.service.memory import Memory
from memcli.store.location import StoreLocation
from tests.conftest import git, mem
from tests.test_index import ListSource

# ------------------------------------------------------------------ chunker


def test_sections_by_heading_path_with_fences_and_a_preamble() -> None:
    text = (
        "Read this first.\n"
        "\n"
        "# Deploy\n"
        "Ship on Tuesdays.\n"
        "## Rollback ##\n"
        "Revert the tag.\n"
        "```sh\n"
        "# not a heading\n"
        "```\n"
        "### Database\n"
        "\n"
        "Restore the snapshot.\n"
        "## Empty\n"
        "\n"
        "# Testing\n"
        "~~~\n"
        "## still code\n"
        "~~~\n"
    )
    assert chunk_markdown(text, "MEMORY.md") == [
        Chunk("Deploy", 1, "Read this first."),
        Chunk("Deploy", 3, "Ship on Tuesdays."),
        Chunk("Deploy > Rollback", 5, "Revert the tag.\n```sh\n# not a heading\n```"),
        Chunk("Deploy > Rollback > Database", 10, "Restore the snapshot."),
        Chunk("Testing", 15, "~~~\n## still code\n~~~"),
    ]


def test_text_without_headings_is_titled_by_the_file_name() -> None:
    assert chunk_markdown("just words\r\nmore\r\n", "deploy.md") == [
        Chunk("deploy.md", 1, "just words\nmore")
    ]
    assert chunk_markdown("", "x.md") == []
    assert chunk_markdown("# Only a heading\n\n", "x.md") == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("# Title", (1, "Title")),
        ("###### Six", (6, "Six")),
        ("####### Seven", None),
        ("#NoSpace", None),
        ("   ## Indented ##  ", (2, "Indented")),
        ("    # code block", None),
        ("## C# is a language", (2, "C# is a language")),
        ("# ends with#", (1, "ends with#")),
        ("#", (1, "")),
    ],
    ids=["h1", "h6", "h7", "no-space", "closing", "indented-4", "hash-inside", "hash-end", "bare"],
)
def test_atx_headings(line: str, expected: tuple[int, str] | None) -> None:
    assert heading_of(line) == expected


def test_a_long_section_is_split_at_blank_lines() -> None:
    paragraph = " ".join(["word"] * 100)  # 499 characters
    text = "# Big\n" + "\n\n".join([paragraph] * 12) + "\n# Next\nend\n"
    chunks = chunk_markdown(text, "n.md")
    big = [c for c in chunks if c.heading == "Big"]
    assert len(big) > 1
    assert all(len(c.text) <= MAX_CHUNK_CHARS for c in big)
    assert big[0].line == 1  # the heading's line; later parts start where they start
    assert [c.line for c in big[1:]] == sorted({c.line for c in big[1:]})
    lines = text.split("\n")
    assert all(lines[c.line - 1].startswith("word") for c in big[1:])
    assert sum(c.text.count(paragraph) for c in big) == 12
    assert chunks[-1] == Chunk("Next", 25, "end")


_words = st.text(alphabet="abc #`~-*é\t", min_size=0, max_size=30)


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[str], int]:
    """A markdown text, its lines that are not headings, and how many headings it has."""
    lines: list[str] = []
    kept: list[str] = []
    headings = 0
    for kind in draw(st.lists(st.sampled_from(["heading", "text", "fence", "blank"]))):
        if kind == "heading":
            title = draw(st.text(alphabet="abc ", max_size=10))
            lines.append("#" * draw(st.integers(1, 6)) + " " + title)
            headings += 1
        elif kind == "blank":
            lines.append(draw(st.sampled_from(["", "  "])))
        elif kind == "fence":
            mark = draw(st.sampled_from(["```", "~~~~"]))
            body = draw(st.lists(st.sampled_from(["# inside", "## also", "code", ""])))
            block = [mark, *body, mark]
            lines += block
            kept += block
        else:
            text = draw(st.text(alphabet="abc .,é", min_size=1, max_size=2500))
            line = "word " + text  # never a heading nor a fence
            lines.append(line)
            kept.append(line)
    return "\n".join(lines), [line for line in kept if line.strip()], headings


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


@settings(max_examples=150, deadline=None)
@given(documents())
def test_chunks_cover_every_line_but_headings_exactly_once(
    document: tuple[str, list[str], int],
) -> None:
    text, kept, _ = document
    chunks = chunk_markdown(text, "n.md")
    assert all(c.text.strip() and len(c.text) <= MAX_CHUNK_CHARS for c in chunks)
    # In order, each character once: nothing lost, nothing repeated.
    assert "".join(_squeezed(c.text) for c in chunks) == _squeezed("".join(kept))
    # A line that fits in a chunk is never cut.
    chunk_lines = [line for c in chunks for line in c.text.split("\n") if line.strip()]
    for line in kept:
        if len(line) <= MAX_CHUNK_CHARS:
            assert chunk_lines.count(line) >= kept.count(line)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=3000) | st.text(alphabet="#`~ \n\tab", max_size=3000))
def test_any_text_is_chunked_within_bounds(text: str) -> None:
    chunks = chunk_markdown(text, "n.md")
    total = len(text.split("\n"))
    assert len(chunks) <= MAX_CHUNKS
    for chunk in chunks:
        assert chunk.text.strip() and len(chunk.text) <= MAX_CHUNK_CHARS
        assert 1 <= chunk.line <= total
    headings = [line for line in text.split("\n") if heading_of(line.removesuffix("\r"))]
    assert len(_squeezed("".join(c.text for c in chunks))) <= len(_squeezed(text))
    if not headings and "```" not in text and "~~~" not in text:
        assert "".join(_squeezed(c.text) for c in chunks) == _squeezed(text)


def test_many_small_sections_stop_at_the_chunk_cap() -> None:
    text = "".join(f"# H{n}\nline {n}\n" for n in range(MAX_CHUNKS + 500))
    chunks = chunk_markdown(text, "n.md")
    assert len(chunks) == MAX_CHUNKS
    assert chunks[-1] == Chunk(f"H{MAX_CHUNKS - 1}", 2 * MAX_CHUNKS - 1, f"line {MAX_CHUNKS - 1}")


def test_note_paths() -> None:
    assert is_note_path("MEMORY.md")
    assert is_note_path("notes/deploy.md") and is_note_path("notes/a/b/c.md")
    for path in ("notes.md", "notes/x.txt", "notes/.hidden.md", "docs/MEMORY.md", "memory.md"):
        assert not is_note_path(path), path


# ------------------------------------------------------------------ index from git

LONG_MEMORY_MD = "# Project\nSee the notes.\n\n" + "".join(
    f"## Topic {n}\n" + "Some ordinary words about the project.\n" * 5 for n in range(40)
)
LONG_MEMORY_MD += "## Uploads\nLarge uploads time out behind the zeppelin proxy.\n"
UPLOADS_LINE = LONG_MEMORY_MD.split("\n").index("## Uploads") + 1


def commit(root: Path, message: str) -> None:
    """A hand-made commit, with mem's own hooks off (the read must see it by itself)."""
    git(root, "add", "-A")
    git(root, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", message)


def open_memory(root: Path, warnings: list[str]) -> Memory:
    return Memory(StoreLocation(root, "--store"), warnings.append)


def found(memory: Memory, word: str) -> list[tuple[str, str, int]]:
    hits = memory.read(lambda index: index.search_notes(f'"{word}"', 10))
    return [(hit.path, hit.heading, hit.line) for hit in hits]


def test_a_section_of_a_long_memory_md_is_found_by_its_own_word(store: Path) -> None:
    (store / "MEMORY.md").write_text(LONG_MEMORY_MD)
    commit(store, "notes")
    memory = open_memory(store, [])
    hits = memory.read(lambda index: index.search_notes('"zeppelin" OR "uploads"', 5))
    assert hits[0][:3] == ("MEMORY.md", "Project > Uploads", UPLOADS_LINE)
    assert hits[0].text == "Large uploads time out behind the zeppelin proxy."
    assert hits[0].score > 0
    assert memory.read(lambda index: index.note_terms(hits, ['"zeppelin"', '"upload"'])) == [2]
    assert memory.read(lambda index: index.note_count()) == 42
    assert note_dict(hits[0]) == {
        "kind": "note",
        "path": "MEMORY.md",
        "heading": "Project > Uploads",
        "line": UPLOADS_LINE,
        "excerpt": "Large uploads time out behind the zeppelin proxy.",
        "score": hits[0].score,
    }
    assert note_lines(hits[:1], width=120) == [
        f"MEMORY.md:{UPLOADS_LINE}  Project > Uploads — Large uploads time out behind the "
        "zeppelin proxy."
    ]


@pytest.mark.parametrize("incremental", [True, False], ids=["incremental", "rebuild"])
def test_notes_added_edited_renamed_and_deleted_through_commits(
    store: Path, incremental: bool
) -> None:
    warnings: list[str] = []
    memory = open_memory(store, warnings)

    def committed(message: str) -> None:
        commit(store, message)
        report = memory.refresh_index(full=not incremental)
        assert report is not None and report.rebuilt is not incremental

    def sees(word: str) -> list[tuple[str, str, int]]:
        return found(memory, word)

    mem("save", "a memory about kites")
    memory.refresh_index()
    (store / "notes" / "ops").mkdir(parents=True)
    (store / "notes" / "ops" / "deploy.md").write_text("# Deploy\n\n## Rollback\nuse the lever\n")
    (store / "MEMORY.md").write_text("Intro about walrus teeth.\n")
    committed("add notes")
    assert sees("lever") == [("notes/ops/deploy.md", "Deploy > Rollback", 3)]
    assert sees("teeth") == [("MEMORY.md", "MEMORY.md", 1)]

    (store / "notes" / "ops" / "deploy.md").write_text("# Deploy\n## Rollback\nuse the crank\n")
    committed("edit")
    assert sees("lever") == []
    assert sees("crank") == [("notes/ops/deploy.md", "Deploy > Rollback", 2)]

    git(store, "mv", "notes/ops/deploy.md", "notes/shipping.md")
    committed("rename")
    assert sees("crank") == [("notes/shipping.md", "Deploy > Rollback", 2)]

    git(store, "rm", "-q", "notes/shipping.md", "MEMORY.md")
    committed("delete")
    assert sees("crank") == [] and sees("teeth") == []
    assert memory.read(lambda index: index.note_count()) == 0
    assert [e.title for e in memory.read(lambda i: i.search("kites").entries)] == [
        "a memory about kites"
    ]
    assert warnings == []
    assert mem("reindex", "--check").exit_code == 0


def test_a_symlinked_note_is_skipped_with_a_warning(store: Path, tmp_path: Path) -> None:
    secret = tmp_path / "outside.md"
    secret.write_text("# Outside\nthe password is hunter2\n")
    (store / "notes").mkdir()
    (store / "notes" / "link.md").symlink_to(secret)
    (store / "notes" / "real.md").write_text("# Real\nplain albatross\n")
    commit(store, "a link")
    for full in (False, True):
        warnings: list[str] = []
        memory = open_memory(store, warnings)
        memory.refresh_index(full=full)
        assert found(memory, "hunter2") == []
        assert found(memory, "albatross") == [("notes/real.md", "Real", 1)]
        assert any("notes/link.md" in w and "symbolic link" in w for w in warnings), warnings


def test_a_huge_note_is_read_only_up_to_its_bound(store: Path) -> None:
    section = "# Part\n" + "filler words here\n" * 40
    huge = section * ((3 * MAX_NOTE_BYTES) // len(section))
    (store / "notes").mkdir()
    (store / "notes" / "huge.md").write_text("# Start\nthe first quokka\n" + huge + "# End\nkiwi\n")
    commit(store, "huge")
    warnings: list[str] = []
    memory = open_memory(store, warnings)
    memory.refresh_index()
    assert found(memory, "quokka") == [("notes/huge.md", "Start", 1)]
    assert found(memory, "kiwi") == []  # past the first megabyte
    assert memory.read(lambda index: index.note_count()) <= MAX_CHUNKS
    assert any("notes/huge.md: only its first 1 MB is indexed" in w for w in warnings)


def test_reindex_check_covers_notes(store: Path) -> None:
    (store / "notes").mkdir()
    (store / "notes" / "a.md").write_text("# A\nfirst\n")
    (store / "notes" / "empty.md").write_text("# Nothing here\n")
    commit(store, "notes")
    assert mem("reindex", "--check").exit_code == 0
    (store / "notes" / "a.md").write_text("# A\nchanged by hand, not committed\n")
    report = mem("reindex", "--check", expect=1)
    assert "index out of date: notes/a.md" in report.stdout


def test_the_pre_commit_hook_takes_notes_that_look_like_memories(store: Path) -> None:
    (store / "notes").mkdir()
    copied = (
        "---\nid: 01JDX3Z6T0V6K8M2Q9R4S5T7W8\ntype: gotcha\ntitle: x\n---\n\n# Kept\nas a note\n"
    )
    (store / "notes" / "copy.md").write_text(copied)
    git(store, "add", "-A")
    git(store, "commit", "-q", "-m", "a note")  # mem's pre-commit hook runs
    assert found(open_memory(store, []), "note") == [("notes/copy.md", "Kept", 7)]


def test_search_notes_refuses_a_bad_match_with_one_line(store: Path) -> None:
    from memcli.core.errors import QuerySyntaxError

    memory = open_memory(store, [])
    with pytest.raises(QuerySyntaxError, match="invalid FTS5 query"):
        memory.read(lambda index: index.search_notes('"unclosed', 5))


def test_the_index_alone_ranks_headings_above_text() -> None:
    index = Index(":memory:")
    source = ListSource(
        [],
        {
            "notes/a.md": "# Other\nthe word cache appears here\n",
            "notes/b.md": "# Cache\nsomething else\n",
        },
    )
    index.refresh(source, lambda message: None)
    hits = index.search_notes('"cache"', 5)
    assert [hit.path for hit in hits] == ["notes/b.md", "notes/a.md"]
    assert isinstance(hits[0], NoteHit)


def test_show_takes_the_reference_search_gives_a_note_section(store: Path) -> None:
    (store / "notes").mkdir()
    (store / "notes" / "deploy.md").write_text(
        "# Deploy\n\nRun make ship.\n\n## Rollback\nuse the lever\nthen page ops\n"
    )
    commit(store, "add notes")
    saved = mem("save", "Kites fly in the east wind", "--key", "kites").stdout.strip()
    shown = mem("show", "notes/deploy.md:5").stdout
    assert shown == "# notes/deploy.md:5 Deploy > Rollback\n\nuse the lever\nthen page ops\n"
    assert "use the lever" in mem("show", "notes/deploy.md:6").stdout  # a line inside it
    both = json.loads(mem("show", "kites", "notes/deploy.md", "--json").stdout)
    assert [item["kind"] for item in both] == ["observation", "note"]
    assert both[0]["id"] == saved and both[1]["heading"] == "Deploy"
    for line in ("0", "99"):
        beyond = mem("show", f"notes/deploy.md:{line}", expect=1)
        assert f"notes/deploy.md has no line {line}: it has 7" in beyond.stderr
    missing = mem("show", "notes/nowhere.md:3", expect=1)
    assert "notes/nowhere.md" in missing.stderr and "Traceback" not in missing.output
