"""Search reads whole prompts, one ranking orders every hit, and --explain shows why."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memcli.core.model import Observation
from memcli.retrieval.query import plan_query
from memcli.retrieval.stopwords import ENGLISH

from .conftest import git, mem, mem_json, run_mem, user_config, write_store


def save(text: str, title: str, *args: str, when: str = "2026-11-01T00:00:00Z") -> str:
    import os

    os.environ["MEM_NOW"] = when
    try:
        return mem("save", text, "--title", title, *args).stdout.strip()
    finally:
        del os.environ["MEM_NOW"]


def titles(*args: str) -> list[str]:
    return [hit["title"] for hit in mem_json("search", *args)]


@pytest.fixture
def lexical() -> None:
    """Search by words only (``[semantic] model = "none"``): for what bm25's ranking does."""
    user_config('[semantic]\nmodel = "none"\n')


@pytest.fixture
def uploads(store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    save(
        "Uploads to S3 fail after one minute: the presigned URL expires after 60 seconds.",
        "Upload failures come from the presigned URL expiry",
    )
    save("Upload upload upload: the upload page shows a spinner.", "Upload spinner")
    save("Feature flags are read from Unleash, never from env vars.", "Flags live in Unleash")
    monkeypatch.setenv("MEM_NOW", "2026-11-02T00:00:00Z")
    return store


def test_a_whole_question_finds_the_memory_that_answers_it(lexical: None, uploads: Path) -> None:
    # Before, every word had to match first ("why", "does", "keep" are in no memory).
    found = titles("why does the upload keep failing after a minute?")
    assert found[0] == "Upload failures come from the presigned URL expiry"


def test_matching_more_distinct_words_beats_repeating_one(lexical: None, uploads: Path) -> None:
    found = titles("upload failures minute")
    assert found[:2] == ["Upload failures come from the presigned URL expiry", "Upload spinner"]


def test_a_query_of_stop_words_still_answers(store: Path) -> None:
    save("To be or not to be, that is the question.", "Hamlet")
    assert titles("to be or not to be") == ["Hamlet"]


def test_all_wants_every_word(uploads: Path) -> None:
    assert titles("upload spinner minute", "--all") == []
    assert titles("upload spinner", "--all") == ["Upload spinner"]
    result = mem("search", "upload spinner minute", "--all", expect=0)
    assert "no memory matches" in result.stderr


def test_phrases_and_prefixes_keep_their_meaning(lexical: None, uploads: Path) -> None:
    assert titles('"presigned URL"') == ["Upload failures come from the presigned URL expiry"]
    assert titles("Unle*") == ["Flags live in Unleash"]


def test_recency_orders_equal_matches(store: Path) -> None:
    save("The cache is warmed at deploy.", "Cache warming, old", when="2025-01-01T00:00:00Z")
    save("The cache is warmed at deploy.", "Cache warming, new", when="2026-10-30T00:00:00Z")
    assert titles("how is the cache warmed?") == ["Cache warming, new", "Cache warming, old"]


def test_importance_orders_equal_matches(store: Path) -> None:
    save("Retries back off.", "Retries, minor", "--importance", "0.1")
    save("Retries back off.", "Retries, major", "--importance", "0.9")
    assert titles("do retries back off?") == ["Retries, major", "Retries, minor"]


def test_decisions_age_slower_than_discoveries(store: Path) -> None:
    for kind in ("discovery", "decision"):
        save("Logs go to Loki.", f"Logs, a {kind}", "--type", kind, when="2026-01-01T00:00:00Z")
    assert titles("where do logs go?") == ["Logs, a decision", "Logs, a discovery"]


def test_explain_shows_terms_stop_words_sql_and_each_part(lexical: None, uploads: Path) -> None:
    out = mem("search", "why does the upload keep failing?", "--explain").stdout
    assert 'query terms: "upload", "keep", "failing" (any)' in out
    assert "stop words dropped: why, does, the" in out
    assert "sql: SELECT rowid, bm25(memories_fts" in out and "MATCH" in out
    assert 'mode: lexical; lexical only: [semantic] model = "none" in mem.toml' in out
    assert "bm25 #1 (" in out and "2/3 terms" in out and "x recency" in out
    data = mem_json("search", "upload failing", "--explain")
    first = data["hits"][0]
    assert first["title"].startswith("Upload failures")
    parts = first["explain"]
    assert parts["lexical_rank"] == 1 and parts["matched"] == 2
    assert parts["score"] == pytest.approx(parts["fused"] * parts["recency"] * parts["importance"])


def test_a_word_most_memories_hold_is_ranked_among_the_newest_matches_only(
    lexical: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = Observation(
        id="01JD" + "0" * 6 + "A" * 16,
        created="2025-01-01T00:00:00Z",
        type="decision",
        title="Cache keys carry the cache version",
        narrative="cache cache cache",
    )
    newer = [
        Observation(
            id=f"01JE{n:06d}" + "B" * 16,
            created=f"2026-{1 + n // 28 % 10:02d}-{1 + n % 28:02d}T00:00:00Z",
            type="decision" if n % 7 == 0 else "discovery",  # 20 decisions, 17 of the newest 120
            title=f"Build step {n} takes {n} seconds",
            narrative=f"step {n} warms the cache before the tests run, then the workers start",
        )
        for n in range(140)
    ]
    root = write_store(tmp_path / "busy", [old, *newer])
    monkeypatch.setenv("MEM_STORE", str(root))
    monkeypatch.setenv("MEM_NOW", "2026-11-21T12:00:00Z")

    def explained(*args: str) -> tuple[list[str], int | None]:
        report = mem_json("search", "cache", "--explain", *args)
        return [hit["title"] for hit in report["hits"]], report["newest_only"]

    assert explained() == (titles("cache"), None)  # the default: all 141 matches are ranked
    assert titles("cache")[0] == old.title
    assert "newest" not in mem("search", "cache", "--explain").stdout

    for cap in (120, 50):  # below the hundred candidates a search fuses, too
        (root / "mem.toml").write_text(f"[search]\nranked_matches = {cap}\n")
        found, newest = explained("--limit", "20")
        assert old.title not in found and newest == cap
        assert f"ranked by bm25: the newest {cap} matches only" in (
            mem("search", "cache", "--explain").stdout
        )
    # Filters that leave enough among the newest keep to them; too few, and every match is
    # ranked (what the filters want may all be older), and --explain says so.
    (root / "mem.toml").write_text("[search]\nranked_matches = 120\n")
    found, newest = explained("--type", "decision", "--limit", "5")
    assert len(found) == 5 and old.title not in found and newest == 120
    found, newest = explained("--type", "decision", "--limit", "30")
    assert found[0] == old.title and newest is None
    found, newest = explained("--limit", "130")  # more than the newest 120 can give
    assert old.title in found and newest is None
    (root / "mem.toml").write_text("[search]\nranked_matches = 0\n")
    found, newest = explained()
    assert found[0] == old.title and newest is None


def test_semantic_mode_without_a_model_is_lexical_with_a_notice(
    lexical: None, uploads: Path
) -> None:
    result = mem("search", "upload failing", "--mode", "semantic")
    assert "searching by full text" in result.stderr
    assert result.stdout.splitlines()[0].endswith(
        "Upload failures come from the presigned URL expiry"
    )


def test_stop_words_come_from_mem_toml(lexical: None, uploads: Path) -> None:
    (uploads / "mem.toml").write_text('[search]\nextra_stop_words = ["upload"]\n')
    assert titles("upload flags") == ["Flags live in Unleash"]
    (uploads / "mem.toml").write_text('[search]\nstop_words = "none"\n')
    assert "the" in mem_json("search", "the upload", "--explain")["terms"][0]


def test_raw_and_all_together_is_a_usage_error(uploads: Path) -> None:
    result = mem("search", "upload", "--raw", "--all", expect=2)
    assert "--raw and --all cannot be used together" in result.output


@given(st.text(max_size=200))
def test_any_text_plans_to_a_query_that_cannot_fail(text: str) -> None:
    plan = plan_query(text, ENGLISH)
    match = plan.match()
    assert match is None or match.count('"') % 2 == 0
    assert all(term.text.strip() for term in plan.terms)
    assert len({(t.text.lower(), t.prefix, t.phrase) for t in plan.terms}) == len(plan.terms)


def test_only_plain_words_are_stop_words() -> None:
    plan = plan_query('"the who" the* the why upload', ENGLISH)
    assert [t.to_fts() for t in plan.terms] == ['"the who"', '"the"*', '"upload"']
    assert plan.dropped == ["the", "why"]
    assert [t.text for t in plan_query("src/upload/client.py", ENGLISH).terms] == [
        "src",
        "upload",
        "client",
        "py",
    ]


# ---------------------------------------------------------------- recall


def recall(prompt: str, *args: str) -> list[str]:
    report = json.loads(mem("recall", prompt, "--format", "json", *args).stdout)
    return [m["title"] for m in report["memories"]]


@pytest.fixture
def aged(store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    save(
        "Uploads to S3 fail after one minute: the presigned URL expires after 60 seconds.",
        "Upload failures come from the presigned URL expiry",
        when="2026-10-01T00:00:00Z",
    )
    save(
        "The deploy script retries the migration twice before failing.",
        "Deploy retries migrations",
        when="2026-10-30T12:00:00Z",
    )
    monkeypatch.setenv("MEM_NOW", "2026-11-01T00:00:00Z")
    # Session start lists memories by a line each: recall may bring any of them.
    (store / "mem.toml").write_text("[context]\nhot_count = 0\n")
    return store


def test_an_instruction_is_recalled_for_without_a_cue(aged: Path) -> None:
    # No question mark, no file name, no time word, under ten words: an agent's usual prompt.
    assert recall("Lengthen the presigned URL expiry for uploads") == [
        "Upload failures come from the presigned URL expiry"
    ]


def test_a_cue_lowers_the_evidence_needed_and_does_not_gate(aged: Path) -> None:
    settings = (aged / "mem.toml").read_text()
    (aged / "mem.toml").write_text(settings + "[recall]\nmin_evidence = 1.0\ncue_evidence = 0.3\n")
    assert recall("upload failures minute") == []
    assert recall("upload failures minute?") == [
        "Upload failures come from the presigned URL expiry"
    ]
    assert recall("the upload failures that happen after about one minute are back again") == [
        "Upload failures come from the presigned URL expiry"
    ]


@pytest.fixture
def invoices(store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    save(
        "Invoice numbers are sequential per tenant and never reused, even after a refund.",
        "Invoice numbers are sequential per tenant",
        "--type",
        "decision",
    )
    save("The invoice PDF is rendered with WeasyPrint.", "Invoice PDFs use WeasyPrint")
    save("Numbers on the dashboard are rounded to two decimals.", "Dashboard rounding")
    save("Regenerate the lockfile after changing any dependency.", "Lockfile after dependencies")
    for n in range(6):
        save(f"Update the project build step {n} when the settings change.", f"Build step {n}")
    monkeypatch.setenv("MEM_NOW", "2026-12-01T00:00:00Z")
    # Session start lists memories by a line each: recall may bring any of them.
    (store / "mem.toml").write_text("[context]\nhot_count = 0\n")
    return store


def test_what_we_decided_finds_the_decision(invoices: Path) -> None:
    assert recall("invoice numbers?") == ["Invoice numbers are sequential per tenant"]
    # decide and decision are one word to the gate; the memory's type counts as its text.
    assert recall("what did we decide about invoice numbers?") == [
        "Invoice numbers are sequential per tenant"
    ]


def test_a_shared_rare_word_outweighs_three_common_ones(lexical: None, invoices: Path) -> None:
    prompt = "should the project build update the lockfile?"
    data = json.loads(mem("recall", prompt, "--format", "json", "--explain").stdout)["explain"]
    weight = {term["term"]: term["weight"] for term in data["terms"]}
    assert weight["lockfile"] > weight["update"] + weight["project"] + weight["build"]
    assert [m["title"] for m in data["candidates"] if m["shown"]] == ["Lockfile after dependencies"]


def test_recall_stays_silent_on_prompts_nothing_answers(invoices: Path) -> None:
    assert recall("write a haiku about autumn leaves") == []
    assert recall("extract this block into a helper function") == []
    assert recall("rename the variable to something clearer in this step") == []


def test_explain_says_why_each_candidate_was_or_was_not_shown(invoices: Path) -> None:
    prompt = "what did we decide about invoice numbers?"
    data = json.loads(mem("recall", prompt, "--format", "json", "--explain").stdout)
    explained = data["explain"]
    assert explained["cues"] == ["question"]
    assert explained["evidence_needed"] == explained["thresholds"]["cue_evidence"]
    best, *others = explained["candidates"]
    assert best["shown"] and best["held"] == ["decide", "invoice", "numbers"]
    assert best["evidence"] == pytest.approx(best["coverage"] + best["margin"], abs=0.002)
    assert "reaches" in best["why"] and others and not any(o["shown"] for o in others)
    assert all("below" in o["why"] for o in others)
    assert [m["id"] for m in data["memories"]] == [best["id"]]
    text = mem("recall", prompt, "--explain").stdout
    assert "evidence needed 0.35" in text and "decide" in text
    assert "shown" in text and "is below 70% of the best's" in text
    assert "answer: 1 memory" in text
    assert mem("recall", "ok thanks", "--explain").stdout.startswith("trivial prompt")


def test_time_words_narrow_recall_to_their_window(
    aged: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save(
        "The deploy script retries the migration once before failing.",
        "Deploy retries migrations, the old way",
        when="2026-09-01T00:00:00Z",
    )
    monkeypatch.setenv("MEM_NOW", "2026-11-01T00:00:00Z")
    both = recall("why do deploy migration retries fail?")
    assert set(both) == {"Deploy retries migrations", "Deploy retries migrations, the old way"}
    # "yesterday" keeps what was noted then, while that answers the prompt.
    assert recall("deploy migration retries failing yesterday") == ["Deploy retries migrations"]


def test_recall_never_gives_a_session_the_same_memory_twice(aged: Path) -> None:
    prompt = "why do upload failures happen after a minute?"
    assert recall(prompt, "--session", "s-1") == [
        "Upload failures come from the presigned URL expiry"
    ]
    assert recall(prompt, "--session", "s-1") == []
    assert recall(prompt, "--session", "s-2") != []
    assert recall(prompt) != []  # without a session nothing is remembered


def test_the_prompt_hook_remembers_the_session(aged: Path) -> None:
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "abc",
        "cwd": str(aged),
        "prompt": "why do upload failures happen after a minute?",
    }
    first = mem("hook", "claude", "UserPromptSubmit", input=json.dumps(payload)).stdout
    assert "presigned URL" in first
    second = mem("hook", "claude", "UserPromptSubmit", input=json.dumps(payload)).stdout
    assert "presigned URL" not in second


def test_recall_gate_rejects_a_single_shared_word(aged: Path) -> None:
    assert recall("can you write a poem about a minute of silence?") == []


# ----------------------------------------------------------- curated notes


@pytest.fixture
def noted(store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from .conftest import git

    save("The release train leaves on Tuesdays.", "Release day")
    (store / "notes").mkdir()
    (store / "notes" / "deploy.md").write_text(
        "# Deploy\n\nWe deploy with ArgoCD.\n\n## Rollback\n\n"
        "To roll back a bad release, revert the image tag in the gitops repo.\n"
    )
    git(store, "add", "notes")
    git(store, "commit", "-q", "-m", "notes")
    monkeypatch.setenv("MEM_NOW", "2026-11-03T00:00:00Z")
    return store


def test_search_shows_a_section_of_the_notes_below_the_memories(noted: Path) -> None:
    lines = mem("search", "how do I roll back a bad release?").stdout.splitlines()
    assert lines[0].endswith("Release day")
    note = re.fullmatch(
        r"(note *)  notes/deploy\.md:5  Deploy > Rollback — To roll back.*", lines[-1]
    )
    assert note is not None
    id_column = lines[0].index("  ")  # the memory's id, padded to the same width
    assert len(note.group(1)) == id_column
    notes = [hit for hit in mem_json("search", "roll back release") if hit["kind"] == "note"]
    assert [(n["path"], n["line"], n["heading"]) for n in notes] == [
        ("notes/deploy.md", 5, "Deploy > Rollback")
    ]
    assert not [h for h in mem_json("search", "roll back", "--type", "gotcha")]


def test_recall_brings_a_section_of_the_notes_once_a_session(noted: Path) -> None:
    prompt = "how do I roll back a bad image release?"
    first = json.loads(mem("recall", prompt, "--format", "json", "--session", "s").stdout)
    assert [(n["path"], n["heading"]) for n in first["notes"]] == [
        ("notes/deploy.md", "Deploy > Rollback")
    ]
    assert "revert the image tag" in mem("recall", prompt).stdout
    again = json.loads(mem("recall", prompt, "--format", "json", "--session", "s").stdout)
    assert again["notes"] == []


# ------------------------------------------------------ hostile input, limits


def test_a_linked_sessions_folder_is_never_followed(aged: Path, tmp_path: Path) -> None:
    import os

    victim = tmp_path / "victim"
    victim.mkdir()
    for n in range(205):
        (victim / f"important-{n}.json").write_text("{}")
        os.utime(victim / f"important-{n}.json", (0, 0))
    (aged / ".cache").mkdir(exist_ok=True)
    (aged / ".cache" / "recall-sessions").symlink_to(victim)
    prompt = "why do upload failures happen after a minute?"
    assert recall(prompt, "--session", "s-1") != []
    assert sorted(p.name for p in victim.iterdir()) == sorted(
        f"important-{n}.json" for n in range(205)
    )


def test_a_long_prompt_is_searched_for_the_question_at_its_end(aged: Path) -> None:
    context = " ".join(f"context{n}" for n in range(80))
    prompt = f"{context}. Now the upload failures are back after a minute, why?"
    terms = mem_json("search", prompt, "--explain")["terms"]
    assert '"upload"' in terms and '"minute"' in terms and len(terms) == 64
    assert recall(prompt) == ["Upload failures come from the presigned URL expiry"]


def test_a_query_nothing_matches_is_no_error(aged: Path) -> None:
    query = "é" * 25_001
    result = mem("search", query)
    assert "no memory matches" in result.stderr and result.stdout == ""
    assert mem("recall", f"why {query}?").exit_code == 0


@pytest.mark.parametrize("word", ["x" * 100_000, "a-" * 50_000], ids=["letters", "hyphens"])
def test_a_prompt_of_one_very_long_word_is_answered_without_hanging(aged: Path, word: str) -> None:
    """A pasted blob (a key, a log line): looking for a file name in it reads it once,
    not once per character (which took minutes, so the safety net's timeout ends it)."""
    done = run_mem("recall", f"why {word}?", timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_a_query_that_is_not_text_is_one_usage_error(aged: Path) -> None:
    for args in (["search", "zzqq \udcff\udcfe"], ["recall", "why zzqq \udcff?"]):
        result = mem(*args, expect=2)
        assert result.stderr.startswith("Error: argument 2 (") and "is not UTF-8 text" in (
            result.stderr
        )
        assert len(result.stderr.splitlines()) == 1


def test_time_words_do_not_hide_an_older_answer(aged: Path) -> None:
    # "today" says when the problem happens; the memory that explains it is a month old.
    assert recall("why do upload failures after a minute happen again today?") == [
        "Upload failures come from the presigned URL expiry"
    ]


def test_a_large_importance_weight_never_turns_the_ranking_over(store: Path) -> None:
    save("Redis cache eviction uses allkeys-lru.", "Redis cache eviction", "--importance", "0")
    save("Nothing much about redis.", "Misc", "--importance", "0")
    (store / "mem.toml").write_text("[ranking]\nimportance = 10\n")
    hits = mem_json("search", "redis cache eviction", "--explain")["hits"]
    assert hits[0]["title"] == "Redis cache eviction"
    assert all(hit["explain"]["score"] > 0 for hit in hits)


def test_the_session_memory_keeps_the_newest_within_its_bounds(store: Path) -> None:
    from memcli.retrieval import injected
    from memcli.store.files import Store

    memory_store = Store(store)
    long_ids = [f"note:notes/{'é' * 40}/{n}.md:{n}" for n in range(3000)]
    for start in range(0, 3000, 500):
        injected.note(memory_store, "s", long_ids[start : start + 500])
    kept, _ = injected.state(memory_store, "s")
    assert kept and kept[-1] == long_ids[-1] and kept == long_ids[-len(kept) :]


def test_note_text_cannot_drive_the_terminal(store: Path) -> None:
    from .conftest import git

    (store / "notes").mkdir()
    (store / "notes" / "esc.md").write_text("# Zebra \x1b]0;pwned\x07\n\nzebra \x1b[31mred\x00\n")
    git(store, "add", "notes")
    git(store, "commit", "-q", "-m", "notes")
    out = mem("search", "zebra").stdout
    assert "zebra" in out.lower() and not any(c in out for c in "\x1b\x07\x00")


def test_raw_explain_says_what_ran(uploads: Path) -> None:
    out = mem("search", "upload", "--raw", "--explain").stdout
    assert "query (FTS5, as typed): upload" in out and "substring match" not in out
    result = mem("search", "upload", "--all", "--mode", "semantic", expect=2)
    assert "--all matches words" in result.output


def test_e_g_is_not_a_file_name() -> None:
    from memcli.retrieval.recall import cues

    assert "file" not in cues("what is the right way to fix it, e.g. the retry", 10)
    assert "file" in cues("what do we know about client.py", 10)


def test_camel_case_identifiers_are_found_by_their_words(store: Path) -> None:
    mem("save", "Catch psycopg's UniqueViolation on the retry path", "--key", "unique")
    mem("save", "parseJSON chokes on a BOM", "--fact", "strip the BOM in HTTPServer")
    mem("save", "Unrelated note about kites")
    (store / "notes").mkdir()
    (store / "notes" / "db.md").write_text("# Errors\n\nForeignKeyViolation means a missing row.\n")
    git(store, "add", "-A")
    git(store, "commit", "-qm", "notes")

    def titles(query: str) -> list[str]:
        return [hit["title"] for hit in mem_json("search", query, "--all")]

    assert titles("unique violation") == ["Catch psycopg's UniqueViolation on the retry path"]
    assert titles("UniqueViolation") == ["Catch psycopg's UniqueViolation on the retry path"]
    assert titles("json http server") == ["parseJSON chokes on a BOM"]
    notes = mem_json("search", "foreign key violation")
    assert "notes/db.md" in json.dumps(notes)


@given(st.text(max_size=200))
def test_identifier_words_only_come_from_the_text(text: str) -> None:
    from memcli.core.text import MAX_IDENTIFIER_PARTS, identifier_words

    words = identifier_words(text).split()
    assert len(words) <= MAX_IDENTIFIER_PARTS
    assert all(word in text for word in words)


def _stems(text: str) -> list[str]:
    import apsw

    from memcli.index.schema import TOKENIZER

    tokenize = apsw.Connection(":memory:").fts5_tokenizer(TOKENIZER[0], TOKENIZER[1])
    return [t[2] for t in tokenize(text.encode(), apsw.FTS5_TOKENIZE_QUERY, None)]


@pytest.mark.parametrize(
    ("typed", "stored", "same"),
    [
        ("decide", "decision", True),
        ("decisions", "decided", True),
        ("config", "configuration", True),
        ("configuring", "config", True),
        ("deploy", "deployment", True),
        ("suspend", "suspension", True),
        ("include", "inclusion", True),
        ("auth", "authentication", True),
        ("repo", "repositories", True),
        ("sense", "send", False),
        ("party", "partition", False),
        ("decimal", "decision", False),
    ],
)
def test_light_variants_count_as_the_word(typed: str, stored: str, same: bool) -> None:
    from memcli.retrieval.gate import forms

    (token,) = _stems(typed)
    assert forms(token).held_by(frozenset(_stems(stored))) is same


def test_explain_names_memories_left_out_rather_than_none_holding_the_terms(store: Path) -> None:
    # One memory: session start shows it in full, so recall leaves it out; --explain
    # must say so, not that no memory holds the prompt's words.
    save("Delete the Alembic lockfile after a failed upgrade.", "Alembic lockfile")
    text = mem("recall", "what about the alembic lockfile?", "--explain").stdout
    assert "left out: 1 shown at session start" in text
    assert "no memory holds any of the prompt's terms" not in text
    assert "left out: the agent has it already" in text and "answer: 0 memories" in text


def test_recall_never_repeats_a_memory_title_as_its_text(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `mem save "TEXT"` makes TEXT both the title and the text: the agent sees it once.
    monkeypatch.setenv("MEM_NOW", "2026-06-01T00:00:00Z")
    for n in range(8):  # session start shows these, not the older one below
        mem("save", f"The frontend build splits chunk {n}", "--type", "decision")
    monkeypatch.setenv("MEM_NOW", "2026-01-01T00:00:00Z")
    title = "Terraform provider for the staging VPC is pinned to 5.31"
    mem("save", title, "--type", "discovery", "--fact", "a bump needs the NAT gateway import")
    mem(
        "save", "Redis keys expire after a day.\n\nThe TTL lives in cache.py", "--type", "discovery"
    )
    monkeypatch.setenv("MEM_NOW", "2026-06-02T00:00:00Z")
    text = mem("recall", "Bump the Terraform provider for the staging VPC").stdout
    assert text.count("pinned to 5.31") == 1 and "NAT gateway import" in text
    # Text beyond the title is still given.
    assert "The TTL lives in cache.py" in mem("recall", "why do redis keys expire?").stdout


def test_explain_marks_a_near_identical_twin_as_not_shown(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEM_NOW", "2026-05-01T00:00:00Z")
    twin = "Kafka consumer lag alarms fire during the nightly reindex"
    for text in (twin, f"{twin}, again"):  # not exact duplicates: those are not saved twice
        mem("save", text, "--title", twin, "--type", "gotcha")
    monkeypatch.setenv("MEM_NOW", "2026-06-01T00:00:00Z")
    for n in range(6):  # session start shows these, not the twins
        mem("save", f"The frontend build splits chunk {n}", "--type", "decision")
    prompt = "why do kafka consumer lag alarms fire at night?"
    data = json.loads(mem("recall", prompt, "--json", "--explain").stdout)
    assert len(data["memories"]) == 1
    verdicts = [c for c in data["explain"]["candidates"] if "Kafka" in c["title"]]
    assert [c["shown"] for c in verdicts] == [True, False]
    assert "near-identical" in verdicts[1]["why"]
    text = mem("recall", prompt, "--explain").stdout
    assert "answer: 1 memory" in text and text.count("\nshown ") == 1


def test_a_memory_cut_to_fit_the_budget_is_not_noted_as_given(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (store / "mem.toml").write_text("[context]\nhot_count = 0\n")
    long = ["--fact", "x" * 250, "--fact", "y" * 250]
    mem("save", "Kafka lag alarms fire during the nightly reindex", "--type", "gotcha", *long)
    mem("save", "Kafka lag alarms fire when the pager rotates", "--type", "gotcha", *long)
    for n in range(6):
        mem("save", f"The frontend build splits chunk {n}", "--type", "decision")
    prompt = "why do the kafka lag alarms fire?"
    first = json.loads(mem("recall", prompt, "--json", "--budget", "900", "--session", "s").stdout)
    assert len(first["memories"]) == 1 and first["omitted"] == 1
    # The one cut never reached the agent: the next prompt may still give it.
    again = json.loads(mem("recall", prompt, "--json", "--session", "s").stdout)
    assert [m["id"] for m in again["memories"]] != []
    assert first["memories"][0]["id"] not in [m["id"] for m in again["memories"]]


def test_a_memory_the_agent_has_still_counts_against_a_lone_weak_match(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both memories hold "retry" alone. The decision is shown at session start, so
    # recall leaves it out; that must not make the other look like the only answer.
    monkeypatch.setenv("MEM_NOW", "2026-06-01T00:00:00Z")
    mem("save", "S3 upload in the exporter has no retries", "--type", "discovery")
    monkeypatch.setenv("MEM_NOW", "2026-11-01T00:00:00Z")
    mem("save", "Payments use idempotency keys on every retry", "--type", "decision")
    for n in range(6):  # session start shows these and the decision, not the discovery
        mem("save", f"The frontend build splits chunk {n}", "--type", "gotcha")
    monkeypatch.setenv("MEM_NOW", "2026-11-02T00:00:00Z")
    assert recall("what about the retry?") == []
    # A prompt about the one left out memory alone still gives the other when it answers.
    assert recall("add retries to the S3 upload in the exporter") == [
        "S3 upload in the exporter has no retries"
    ]
