"""Observations and their markdown form: round trips, hand-edited files, validation."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memcli.core import codec
from memcli.core.draft import Draft
from memcli.core.errors import InvalidInput, InvalidMemoryFile
from memcli.core.ids import ULID_RE, new_ulid
from memcli.core.model import Observation
from memcli.core.schema import OBSERVATION_TYPES
from memcli.core.titles import default_title, slugify

from .conftest import FIXTURES

# Text people and agents write: any unicode (no surrogates), with the characters
# that break naive frontmatter writers mixed in on purpose.
nasty = st.sampled_from(
    [
        "---",
        ": ",
        "#",
        "'",
        '"',
        "!!python/object:os.system",
        "&a",
        "*a",
        "\n",
        "\t",
        "yes",
        "null",
        "- ",
        "[",
        "{",
        "|",
        ">",
        "\ufeff",
        "\x85",
        "\u2028",
        "%",
        "@",
        "`",
        "~",
        "1.5",
        "2026-01-01",
    ]
)
free_text = st.lists(
    st.one_of(
        st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")), nasty
    ),
    max_size=6,
).map("".join)
CREATED = "2026-11-21T07:00:00Z"
one_line = free_text.map(lambda s: " ".join(s.split())).filter(bool)


@st.composite
def observations(draw: st.DrawFn) -> Observation:
    return Observation(
        id=new_ulid(),
        type=draw(st.sampled_from(OBSERVATION_TYPES)),
        title=draw(one_line.filter(lambda s: len(s) <= 200)),
        created="2026-11-21T20:15:03Z",
        narrative=draw(free_text).replace("\r", "\n").rstrip().lstrip("\n"),
        key=draw(st.none() | st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,20}", fullmatch=True)),
        concepts=draw(st.lists(one_line, max_size=4, unique=True)),
        facts=draw(st.lists(free_text.map(str.strip).filter(bool), max_size=4, unique=True)),
        importance=draw(st.none() | st.floats(0, 1).map(lambda f: round(f, 3))),
        session=draw(st.none() | one_line.filter(lambda s: len(s) <= 200)),
    )


def _normalised(obs: Observation) -> Observation:
    """What validation makes of a value (leading blank lines of the text dropped)."""
    return Observation.from_metadata(
        {
            "id": obs.id,
            "type": obs.type,
            "title": obs.title,
            "created": obs.created,
            "key": obs.key,
            "concepts": obs.concepts,
            "facts": obs.facts,
            "importance": obs.importance,
            "session": obs.session,
        },
        obs.narrative,
    )


@settings(max_examples=300, deadline=None)
@given(observations())
def test_round_trip_through_markdown(obs: Observation) -> None:
    obs = _normalised(obs)
    text = obs.to_markdown()
    assert Observation.from_markdown(text, "x.md") == obs


@settings(max_examples=300, deadline=None)
@given(observations())
def test_yaml_reads_what_mem_writes_the_same_way(obs: Observation) -> None:
    """The fast path and a real YAML parser agree on every file mem writes."""
    obs = _normalised(obs)
    text = obs.to_markdown()
    head, body = text[4:].split("\n---\n", 1)
    assert Observation.from_metadata(codec._parse_yaml(head), body) == obs
    assert yaml.safe_load(head)["title"] == obs.title


@given(st.text(st.characters(blacklist_categories=("Cs",))))
def test_any_string_scalar_reads_back_as_itself(value: str) -> None:
    emitted = codec.emit_scalar(value)
    assert yaml.safe_load(f"v: {emitted}\n")["v"] == value


def test_unknown_keys_survive_a_round_trip() -> None:
    path = FIXTURES / "store/observations/2026/11/2026-11-20-hand-written-context.md"
    obs = Observation.from_markdown(path.read_text(), path.name)
    assert obs.extra == {"reviewer": "alice", "tags": {"area": "process", "weight": 2}}
    again = Observation.from_markdown(obs.to_markdown(), "x.md")
    assert again == obs
    assert "reviewer: alice" in obs.to_markdown()


def test_hand_written_yaml_is_read_with_timezones_normalised() -> None:
    path = FIXTURES / "store/observations/2026/11/2026-11-20-hand-written-context.md"
    obs = Observation.from_markdown(path.read_text(), path.name)
    assert obs.created == "2026-11-20T09:15:00Z"
    assert obs.concepts == ["review", "git"]
    assert obs.title == "The team reviews memory changes in pull requests"


def test_crlf_and_bom_files_read_like_lf_files() -> None:
    lf = (
        "---\nid: 01JDM3N4P5Q6R7S8T9V0W1X2Y3\ntype: gotcha\ntitle: T\n"
        "created: 2026-11-21T07:00:00Z\n---\n\nBody line\nsecond\n"
    )
    expected = Observation.from_markdown(lf, "lf.md")
    assert Observation.from_markdown(lf.replace("\n", "\r\n"), "crlf.md") == expected
    assert Observation.from_markdown("\ufeff" + lf, "bom.md") == expected


def test_canonical_files_skip_the_yaml_parser() -> None:
    obs = Observation(
        id=new_ulid(),
        type="gotcha",
        title="Plain title",
        created="2026-11-21T07:00:00Z",
        concepts=["a", "b c"],
        facts=["x: y", "z"],
        importance=0.5,
        key="k",
    )
    head = obs.to_markdown().split("\n---\n")[0][4:]
    assert codec._parse_canonical(head.split("\n"))["facts"] == ["x: y", "z"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("no frontmatter here", "no frontmatter"),
        ("---\ntitle: [unclosed\n---\n", "broken YAML"),
        ("---\n- a\n- b\n---\n", "not a mapping"),
        ("---\ntype: gotcha\ntitle: t\ncreated: 2026-01-01\n---\n", "missing required field: id"),
        (
            "---\nid: 01JDM3N4P5Q6R7S8T9V0W1X2Y3\ntype: rumour\ntitle: t\ncreated: 2026-01-01\n---",
            "unknown type 'rumour'",
        ),
        (
            "---\nid: not-a-ulid\ntype: gotcha\ntitle: t\ncreated: 2026-01-01\n---\n",
            "is not a ULID",
        ),
        (
            "---\nid: 01JDM3N4P5Q6R7S8T9V0W1X2Y3\ntype: gotcha\ntitle: t\ncreated: someday\n---\n",
            "ISO timestamps",
        ),
        ("---\nid: !!python/object/apply:os.system [echo hi]\ntype: gotcha\n---\n", "broken YAML"),
    ],
    ids=["no-fence", "broken-yaml", "list", "no-id", "bad-type", "bad-id", "bad-date", "py-tag"],
)
def test_invalid_files_name_the_file_and_the_problem(text: str, problem: str) -> None:
    with pytest.raises(InvalidMemoryFile) as caught:
        Observation.from_markdown(text, "observations/x.md")
    assert problem in str(caught.value)
    assert str(caught.value).startswith("observations/x.md: ")


def test_unknown_type_lists_the_allowed_ones() -> None:
    with pytest.raises(InvalidInput, match="use one of preference, decision, discovery"):
        Draft(text="x", type="rumour").new_observation(new_ulid(), "2026-01-01T00:00:00Z")


def test_private_spans_are_never_stored() -> None:
    draft = Draft(
        text="keep this <private>the password is hunter2</private> and this",
        facts=["a <PRIVATE>secret</PRIVATE>fact"],
    )
    obs = draft.new_observation(new_ulid(), "2026-01-01T00:00:00Z")
    assert "hunter2" not in obs.to_markdown() and "secret" not in obs.to_markdown()
    assert obs.facts == ["a fact"]


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("First sentence. Second sentence.", "First sentence"),
        ("# A heading\n\nbody", "A heading"),
        ("\n\n  leading blank lines\nmore", "leading blank lines"),
        ("word " * 40, ("word " * 16).strip() + "…"),
    ],
)
def test_default_title(text: str, title: str) -> None:
    assert default_title(text) == title


def test_slug_and_ulid() -> None:
    assert slugify("FTS5 MATCH: rejects bare-hyphens!") == "fts5-match-rejects-bare-hyphens"
    assert slugify("日本語") == "memory"
    ids = [new_ulid(now_ms=ms) for ms in (1, 2, 1_700_000_000_000)]
    assert all(ULID_RE.fullmatch(i) for i in ids) and ids == sorted(ids)


def test_draft_from_json_rejects_unknown_fields() -> None:
    with pytest.raises(InvalidInput, match="unknown field in the JSON payload: fact"):
        Draft.from_json({"text": "x", "fact": "y"})


def test_update_keeps_what_is_not_given() -> None:
    old = Draft(text="old text", type="decision", facts=["f1"], key="k").new_observation(
        new_ulid(), "2026-01-01T00:00:00Z"
    )
    new = Draft(text="new text", key="k").update(old, "2026-02-01T00:00:00Z")
    assert (new.narrative, new.type, new.facts, new.updated) == (
        "new text",
        "decision",
        ["f1"],
        "2026-02-01T00:00:00Z",
    )
    assert Draft(text="old text", key="k").update(old, "2026-02-01T00:00:00Z") == old


def test_timestamps_from_yaml_dates() -> None:
    meta = {"id": new_ulid(), "type": "gotcha", "title": "t", "created": dt.date(2026, 1, 2)}
    assert Observation.from_metadata(meta, "").created == "2026-01-02T00:00:00Z"


HEAD = "id: 01JD0000000000000000000BMB\ntype: gotcha\ntitle: t\ncreated: 2026-11-01T00:00:00Z\n"
# (frontmatter added to a valid head, None if it is read, else what the error says)
HAND_FRONTMATTER = [
    ("unused-anchor", "note: &n kept as it is\n", None),
    ("nested-20", "x: " + "[" * 19 + "]" * 19 + "\n", None),
    ("alias", "note: &n one\nagain: *n\n", "YAML aliases (*name) are not allowed"),
    ("alias-in-facts", "f: &f one\nfacts: [*f]\n", "YAML aliases (*name) are not allowed"),
    ("merge-key", "a: &a {k: v}\nb:\n  <<: *a\n", "YAML aliases (*name) are not allowed"),
    ("nested-21", "x: " + "[" * 20 + "]" * 20 + "\n", "nested deeper than 20 levels"),
    ("nested-block", "x:\n" + "- " * 100_000 + "a\n", "nested deeper than 20 levels"),
    ("nested-flow", "x: " + "{a: " * 100_000 + "\n", "nested deeper than 20 levels"),
    # A scanner reads a whole flow collection ahead: mem's bound must come first.
    ("nested-brackets", "x: " + "[" * 100_000 + "]" * 100_000 + "\n", "nested deeper than 20"),
    ("nested-braces", "x: " + "{" * 2_000 + "}" * 2_000 + "\n", "nested deeper than 20"),
    (
        "brackets-in-strings",
        "t: a [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\nq: '[[[[[[[[[[[[[[[[[[[[[[[[['\n",
        None,
    ),
    # Deep brackets the pre-scan cannot place (after a node's anchor or tag, after a quote
    # that is text, in a block scalar): still mem's words, whatever the parser says.
    ("deep-after-anchor", "x: &a " + "[" * 2_000 + "]" * 2_000 + "\n", "nested deeper than 20"),
    ("deep-after-tag", "x: !!seq " + "{" * 2_000 + "}" * 2_000 + "\n", "nested deeper than 20"),
    (
        "deep-after-tagged-quote",
        "x: [!!str 'a #', " + "[" * 2_000 + "]" * 2_000 + "]\n",
        "nested deeper than 20",
    ),
    ("deep-after-quote-in-text", "t: x-'\nx: " + "[" * 2_000 + "]" * 2_000 + "\n", "nested deeper"),
    (
        "deep-after-block-scalar",
        "t: |\n  'quoted\nx: " + "[" * 2_000 + "]" * 2_000 + "\n",
        "nested deeper than 20",
    ),
    ("anchored-list", "tags: &t [[a], {b: [c]}]\n", None),
    ("huge-number", f"n: {'9' * 5000}\n", "broken YAML frontmatter"),
    ("impossible-date", "seen: 2026-02-30\n", "broken YAML frontmatter"),
    ("too-long", "note: '" + "x" * 1_000_000 + "'\n", "frontmatter is longer than"),
]


@pytest.mark.parametrize(
    ("added", "problem"),
    [(added, problem) for _, added, problem in HAND_FRONTMATTER],
    ids=[name for name, _, _ in HAND_FRONTMATTER],
)
def test_hand_written_frontmatter_costs_no_more_than_its_size(
    added: str, problem: str | None
) -> None:
    text = f"---\n{HEAD}{added}---\nbody\n"
    if problem is None:
        Observation.from_markdown(text, "x.md")
        return
    with pytest.raises(InvalidMemoryFile, match=re.escape(problem)):
        Observation.from_markdown(text, "x.md")


_nested = st.recursive(
    st.integers(0, 9) | st.text("ab[]{},:'\"# ", max_size=5),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text("ab", min_size=1, max_size=2), children, max_size=3)
    ),
    max_leaves=30,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(item) for item in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(item) for item in value.values()), default=0)
    return 0


@given(_nested)
@example(":[")  # a plain scalar that starts with an indicator character
@example({"a-": ["-[", "?{"]})
@example(":':[")  # a quote inside a plain scalar ends no quoted key before the ":"
@settings(max_examples=300, deadline=None)
def test_flow_depth_counts_what_yaml_nests(value: object) -> None:
    """The pre-parser bound counts flow nesting as YAML does, strings and all."""
    text = "x: " + yaml.safe_dump(value, default_flow_style=True, width=10**9).strip() + "\n"
    assert codec._flow_depth(text) == _depth(value)
