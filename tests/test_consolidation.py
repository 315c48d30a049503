"""Consolidation: duplicates at save, supersedes, mem dedupe and the [consolidate] command."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

import memcli
from memcli.retrieval.likeness import THRESHOLD, features, similarity
from tests.conftest import git, mem, mem_json, run_mem, user_config

GOTCHA = "FTS5 MATCH parses foo-bar as a column filter, so quote each term before MATCH"
REWORDED = "FTS5 MATCH parses foo-bar as a column filter: quote every term before the MATCH"


def commits(store: Path) -> int:
    return int(git(store, "rev-list", "--count", "HEAD").strip())


# ------------------------------------------------------------ duplicates at save


def test_an_exact_duplicate_is_not_saved_again(store: Path) -> None:
    first = mem("save", GOTCHA, "--type", "gotcha").stdout.strip()
    before = commits(store)
    again = run_mem(
        "save",
        "  fts5 match PARSES foo-bar as a column filter; so quote each term before MATCH!",
        "--type",
        "gotcha",
    )
    assert again.returncode == 0
    assert again.stdout.strip() == first
    assert "not saved" in again.stderr
    assert commits(store) == before
    assert len(mem_json("list")) == 1


def test_an_exact_duplicate_says_duplicate_of_in_json(store: Path) -> None:
    first = mem("save", GOTCHA, "--type", "gotcha").stdout.strip()
    answer = mem_json("save", GOTCHA, "--type", "gotcha")
    assert answer["duplicate_of"] == first
    assert answer["action"] == "duplicate" and answer["commit"] is None


def test_the_same_text_of_another_type_is_saved(store: Path) -> None:
    mem("save", GOTCHA, "--type", "gotcha")
    answer = mem_json("save", GOTCHA, "--type", "discovery")
    assert answer["action"] == "saved" and "duplicate_of" not in answer


def test_a_near_duplicate_is_saved_and_names_what_it_resembles(store: Path) -> None:
    first = mem("save", GOTCHA, "--type", "gotcha", "--key", "fts").stdout.strip()
    saved = run_mem("save", REWORDED, "--type", "gotcha")
    assert saved.returncode == 0
    assert first in saved.stderr and "'fts'" in saved.stderr
    answer = mem_json("save", REWORDED + " (again)", "--type", "gotcha")
    assert answer["action"] == "saved"
    assert [s["id"] for s in answer["similar"]][0] == first
    assert answer["similar"][0]["similarity"] >= THRESHOLD


def test_a_superseded_memory_is_not_named_as_similar(store: Path) -> None:
    mem("save", GOTCHA, "--type", "gotcha", "--key", "fts")
    mem("save", "Quote FTS5 terms", "--type", "gotcha", "--supersedes", "fts")
    assert mem_json("save", REWORDED, "--type", "gotcha")["similar"] == []


def test_an_unrelated_save_names_nothing(store: Path) -> None:
    mem("save", GOTCHA, "--type", "gotcha")
    answer = mem_json("save", "Deploys go out on Tuesdays after the sync", "--type", "gotcha")
    assert answer["similar"] == []


def test_the_python_api_answers_duplicate_of_and_similar(store: Path) -> None:
    with memcli.open_store(store) as memory:
        first = memory.save(GOTCHA, type="gotcha")
        assert memory.save(GOTCHA, type="gotcha")["duplicate_of"] == first["id"]
        near = memory.save(REWORDED, type="gotcha")
        assert near["action"] == "saved"
        assert [s["id"] for s in near["similar"]] == [first["id"]]


def test_the_mcp_save_answer_carries_similar(store: Path) -> None:
    from memcli.adapters.mcp.tools import call

    with memcli.open_store(store) as memory:
        first = memory.save(GOTCHA, type="gotcha")
        answer = json.loads(call(memory, "save", {"text": REWORDED, "type": "gotcha"}))
    assert [s["id"] for s in answer["similar"]] == [first["id"]]


def test_similarity_tells_a_reworded_memory_from_a_different_claim() -> None:
    def of(text: str) -> object:
        return features(text, [], text)

    assert similarity(of(GOTCHA), of(REWORDED)) >= THRESHOLD  # type: ignore[arg-type]
    other = "FTS5 MATCH parses foo-bar as a column filter only in the default tokenizer mode"
    assert similarity(of(GOTCHA), of(other)) < THRESHOLD  # type: ignore[arg-type]


# ------------------------------------------------------------------ supersedes


def test_a_superseded_memory_leaves_search_list_and_context(store: Path) -> None:
    old = mem("save", "Deploys go out on Tuesdays", "--type", "decision", "--key", "deploy-day")
    new = mem(
        "save",
        "Deploys go out on Thursdays now",
        "--type",
        "decision",
        "--supersedes",
        "deploy-day",
    ).stdout.strip()
    old_id = old.stdout.strip()
    assert [e["id"] for e in mem_json("search", "deploys")] == [new]
    assert [e["id"] for e in mem_json("list")] == [new]
    context = mem("context").stdout
    assert "Tuesdays" not in context and "1 memory in all" in context
    assert "2 memories in all" in mem("context", "--include-superseded").stdout
    with_old = mem_json("search", "deploys", "--include-superseded")
    assert {e["id"] for e in with_old} == {old_id, new}
    assert {e["id"] for e in mem_json("list", "--include-superseded")} == {old_id, new}
    assert "Tuesdays" in mem("context", "--include-superseded").stdout


def test_a_superseded_memory_leaves_recall(store: Path) -> None:
    (store / "mem.toml").write_text("[context]\nhot_count = 0\nwarm_count = 0\n")
    mem("save", "The staging database password rotates every Monday", "--key", "rotation")
    mem("save", "The staging database password rotates every Friday", "--supersedes", "rotation")
    prompt = "when does the staging database password rotate?"
    assert "Monday" not in mem("recall", prompt).stdout
    assert "Friday" in mem("recall", prompt).stdout
    assert "Monday" not in mem("recall", prompt, "--explain").stdout
    # Both are candidates then (and neither stands out enough from the other to be shown).
    assert "Monday" in mem("recall", prompt, "--include-superseded", "--explain").stdout


def test_show_names_the_successor_and_git_keeps_the_old_file(store: Path) -> None:
    old = mem("save", "Deploys go out on Tuesdays", "--type", "decision").stdout.strip()
    new = mem(
        "save", "Deploys go out on Thursdays", "--type", "decision", "--supersedes", old
    ).stdout.strip()
    shown = mem("show", old).stdout
    assert f"superseded by: {new}" in shown
    assert mem_json("show", old)[0]["superseded_by"] == [new]
    assert mem_json("show", new)[0]["supersedes"] == [old]
    assert git(store, "ls-files", "observations").count(".md") == 2


def test_log_shows_the_chain(store: Path) -> None:
    first = mem("save", "Deploys go out on Mondays", "--type", "decision").stdout.strip()
    second = mem(
        "save", "Deploys go out on Tuesdays", "--type", "decision", "--supersedes", first
    ).stdout.strip()
    third = mem(
        "save", "Deploys go out on Thursdays", "--type", "decision", "--supersedes", second
    ).stdout.strip()
    assert f"{first} -> [{second}] -> {third}" in mem("log", second).stdout


def test_a_supersede_loop_is_refused_and_nothing_is_written(store: Path) -> None:
    mem("save", "Deploys go out on Tuesdays", "--type", "decision", "--key", "a")
    mem(
        "save",
        "Deploys go out on Thursdays",
        "--type",
        "decision",
        "--key",
        "b",
        "--supersedes",
        "a",
    )
    before = commits(store)
    refused = run_mem("edit", "a", "--set", "supersedes=b")
    assert refused.returncode == 1
    assert "loop" in refused.stderr and "Traceback" not in refused.stderr
    refused = run_mem("save", "Deploys on Tuesdays", "--key", "a", "--supersedes", "b")
    assert refused.returncode == 1 and "loop" in refused.stderr
    assert commits(store) == before


def test_edit_set_supersedes_takes_a_key(store: Path) -> None:
    old = mem("save", "Deploys go out on Tuesdays", "--type", "decision", "--key", "a").stdout
    mem("save", "Deploys go out on Thursdays", "--type", "decision", "--key", "b")
    mem("edit", "b", "--set", "supersedes=a")
    assert mem_json("show", "b")[0]["supersedes"] == [old.strip()]
    assert [e["key"] for e in mem_json("list")] == ["b"]


def test_supersedes_of_an_unknown_memory_is_refused(store: Path) -> None:
    refused = run_mem("save", "Deploys go out on Thursdays", "--supersedes", "no-such-key")
    assert refused.returncode == 1 and "no-such-key" in refused.stderr


def test_supersedes_survives_a_full_reindex(store: Path) -> None:
    old = mem("save", "Deploys go out on Tuesdays", "--type", "decision").stdout.strip()
    mem("save", "Deploys go out on Thursdays", "--type", "decision", "--supersedes", old)
    mem("reindex", "--full")
    assert old not in {e["id"] for e in mem_json("list")}


# ---------------------------------------------------------------------- dedupe


def _cluster_store() -> tuple[str, str, str]:
    a = mem("save", GOTCHA, "--type", "gotcha", "--fact", "quote terms", "--concept", "sqlite")
    b = mem(
        "save",
        REWORDED,
        "--type",
        "gotcha",
        "--key",
        "fts",
        "--fact",
        "use double quotes",
        "--concept",
        "fts5",
        "--file",
        "memcli/index/fts.py",
    )
    c = mem("save", "Deploys go out on Tuesdays", "--type", "decision")
    return a.stdout.strip(), b.stdout.strip(), c.stdout.strip()


def test_dedupe_reports_clusters_with_their_keeper(store: Path) -> None:
    a, b, _ = _cluster_store()
    report = mem_json("dedupe")
    assert len(report["clusters"]) == 1
    cluster = report["clusters"][0]
    assert cluster["keeper"] == b  # the one with a key
    assert [m["id"] for m in cluster["members"]] == [b, a]
    assert cluster["similarity"] >= THRESHOLD
    text = mem("dedupe").stdout
    assert "cluster 1: 2 memories" in text and a in text and b in text


def test_dedupe_apply_merges_a_cluster_in_one_commit(store: Path) -> None:
    a, b, c = _cluster_store()
    before = commits(store)
    done = mem_json("dedupe", "--apply", "-y")
    assert commits(store) == before + 1
    assert done["merged"][0]["keeper"] == b and done["merged"][0]["superseded"] == [a]
    keeper = mem_json("show", b)[0]
    assert keeper["supersedes"] == [a]
    assert set(keeper["facts"]) == {"quote terms", "use double quotes"}
    assert set(keeper["concepts"]) == {"sqlite", "fts5"}
    assert keeper["files"] == ["memcli/index/fts.py"]
    assert mem_json("show", a)[0]["superseded_by"] == [b]
    assert {e["id"] for e in mem_json("list")} == {b, c}
    assert mem_json("dedupe")["clusters"] == []
    assert git(store, "log", "-1", "--format=%s").strip() == "merge: 2 memories"


def test_dedupe_apply_off_a_terminal_needs_yes(store: Path) -> None:
    _cluster_store()
    before = commits(store)
    refused = run_mem("dedupe", "--apply")
    assert refused.returncode == 1 and "-y" in refused.stderr
    assert commits(store) == before


def _on_a_terminal(args: list[str], answer: bytes) -> str:
    """Run mem with a pseudo-terminal as stdin, stdout and stderr; type ``answer``; its output."""
    import os
    import pty
    import subprocess

    from tests.conftest import mem_executable, read_until_closed

    main, other = pty.openpty()
    process = subprocess.Popen(
        [mem_executable(), *args], stdin=other, stdout=other, stderr=other, close_fds=True
    )
    os.close(other)
    output = b""
    while b"?" not in output.split(b"merge cluster")[-1]:
        output += os.read(main, 4096)
    os.write(main, answer)
    output += read_until_closed(main)
    process.wait(timeout=30)
    os.close(main)
    return output.decode("utf-8", "replace")


def test_dedupe_apply_asks_on_a_terminal_and_a_no_merges_nothing(store: Path) -> None:
    _cluster_store()
    before = commits(store)
    output = _on_a_terminal(["dedupe", "--apply"], b"n\n")
    assert "merge cluster 1 of 1 into its keeper?" in output
    assert commits(store) == before
    _on_a_terminal(["dedupe", "--apply"], b"y\n")
    assert commits(store) == before + 1


def test_dedupe_through_the_python_api(store: Path) -> None:
    a, b, _ = _cluster_store()
    with memcli.open_store(store) as memory:
        assert memory.dedupe()["clusters"][0]["keeper"] == b
        assert memory.dedupe(apply=True)["merged"][0]["superseded"] == [a]
        with pytest.raises(memcli.InvalidInput):
            memory.dedupe(threshold=7)


def _command(tmp_path: Path, body: str) -> str:
    script = tmp_path / "consolidate.py"
    script.write_text(body)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return f"{sys.executable} {script}"


def test_the_consolidate_command_writes_the_merged_memory(store: Path, tmp_path: Path) -> None:
    command = _command(
        tmp_path,
        "import json, sys\n"
        "cluster = json.load(sys.stdin)\n"
        "assert cluster['keeper'] == cluster['memories'][0]['id']\n"
        "print(json.dumps({'title': 'Quote FTS5 terms', 'narrative': 'Merged text.',"
        " 'facts': ['one fact'], 'concepts': ['search']}))\n",
    )
    user_config(f"[consolidate]\ncommand = {json.dumps(command)}\n")
    _, b, _ = _cluster_store()
    done = mem_json("dedupe", "--apply", "-y")["merged"][0]
    assert done["merged_by"] == "command" and done["fallback"] is None
    keeper = mem_json("show", b)[0]
    assert keeper["title"] == "Quote FTS5 terms" and keeper["narrative"] == "Merged text."
    assert keeper["facts"] == ["one fact"]
    assert set(keeper["concepts"]) == {"sqlite", "fts5", "search"}


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("import sys\nsys.exit(3)\n", "status 3"),
        ("print('not json')\n", "not JSON"),
        ("print('[1, 2]')\n", "not a JSON object"),
        ("import json\nprint(json.dumps({'title': 'x'}))\n", "no title and narrative"),
        ("print('[' * 30000 + ']' * 30000)\n", "not JSON"),
        ('print(\'{"title": "t", "narrative": "n", "facts": \' + \'[\' * 60000)\n', "not JSON"),
        ("import json\nprint(json.dumps({'title': 5, 'narrative': ['x']}))\n", "no title"),
        (
            "import json\nprint(json.dumps({'title': 't', 'narrative': 'n', 'facts': [1, {}]}))\n",
            "facts",
        ),
    ],
)
def test_a_failing_consolidate_command_falls_back_with_the_reason(
    store: Path, tmp_path: Path, body: str, reason: str
) -> None:
    command = _command(tmp_path, body)
    user_config(f"[consolidate]\ncommand = {json.dumps(command)}\n")
    a, b, _ = _cluster_store()
    result = run_mem("dedupe", "--apply", "-y", "--json")
    assert result.returncode == 0
    done = json.loads(result.stdout)["merged"][0]
    assert done["merged_by"] == "deterministic" and reason in done["fallback"]
    assert reason in git(store, "log", "-1", "--format=%b")
    assert mem_json("show", b)[0]["supersedes"] == [a]


def _answering(store: Path, tmp_path: Path, answer: dict[str, object]) -> None:
    """A [consolidate] command that answers ``answer`` to any cluster."""
    command = _command(
        tmp_path,
        f"import json, sys\nsys.stdin.read()\nprint(json.dumps({json.dumps(answer)}))\n",
    )
    user_config(f"[consolidate]\ncommand = {json.dumps(command)}\n")


def test_private_spans_of_the_consolidate_answer_are_never_committed(
    store: Path, tmp_path: Path
) -> None:
    _answering(
        store,
        tmp_path,
        {
            "title": "Quote FTS5 terms <private>title-hidden</private>",
            "narrative": "Merged <private>text-hidden</private> text.",
            "facts": ["one <private>fact-hidden</private>fact"],
            "concepts": ["search", "<private>concept-hidden</private>"],
        },
    )
    _, b, _ = _cluster_store()
    done = mem_json("dedupe", "--apply", "-y")["merged"][0]
    assert done["merged_by"] == "command"
    keeper = mem_json("show", b)[0]
    assert keeper["title"] == "Quote FTS5 terms" and keeper["narrative"].startswith("Merged")
    assert "" not in keeper["concepts"] and "hidden" not in json.dumps(keeper)
    committed = git(store, "log", "-p", "--format=%B", "-1")
    assert "hidden" not in committed and "private" not in committed


def test_a_secret_in_the_consolidate_answer_falls_back_to_the_deterministic_merge(
    store: Path, tmp_path: Path
) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    _answering(store, tmp_path, {"title": "Quote FTS5 terms", "narrative": f"Token {token}."})
    a, b, _ = _cluster_store()
    result = run_mem("dedupe", "--apply", "-y", "--json")
    assert result.returncode == 0, result.stderr
    done = json.loads(result.stdout)["merged"][0]
    assert done["merged_by"] == "deterministic" and "secret" in done["fallback"]
    assert "--redact" not in result.stderr and "--allow-secret" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert mem_json("show", b)[0]["supersedes"] == [a]
    assert token not in git(store, "log", "-p", "--format=%B")


def test_a_secret_a_member_was_saved_with_does_not_stop_the_merge(store: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    a = mem("save", GOTCHA, "--type", "gotcha", "--fact", f"token {token}", "--allow-secret")
    b = mem("save", REWORDED, "--type", "gotcha", "--key", "fts").stdout.strip()
    result = run_mem("dedupe", "--apply", "-y", "--json")
    assert result.returncode == 0, result.stderr
    assert mem_json("show", b)[0]["supersedes"] == [a.stdout.strip()]


def test_dedupe_on_an_empty_store_finds_nothing(store: Path) -> None:
    assert mem("dedupe").stdout.strip() == "no near-duplicates found"


def test_supersedes_survives_export_and_import(store: Path, tmp_path: Path) -> None:
    old = mem("save", "Deploys go out on Tuesdays", "--type", "decision").stdout.strip()
    new = mem("save", "Deploys go out on Thursdays", "--type", "decision", "--supersedes", old)
    dump = tmp_path / "dump.jsonl"
    mem("export", "-o", str(dump))
    other = tmp_path / "other"
    mem("import", "jsonl", str(dump), "--store", str(other))
    assert mem_json("show", new.stdout.strip(), "--store", str(other))[0]["supersedes"] == [old]
    assert [e["id"] for e in mem_json("list", "--store", str(other))] == [new.stdout.strip()]


def test_forgetting_the_successor_brings_back_what_it_replaced(store: Path) -> None:
    old = mem("save", "Deploys go out on Tuesdays", "--type", "decision").stdout.strip()
    new = mem("save", "Deploys go out on Thursdays", "--type", "decision", "--supersedes", old)
    mem("forget", new.stdout.strip())
    assert [e["id"] for e in mem_json("list")] == [old]


def test_dedupe_reads_every_layer_and_merges_in_the_keepers(store: Path) -> None:
    mine = mem("save", GOTCHA, "--type", "gotcha", "--key", "fts").stdout.strip()
    other = mem("save", REWORDED, "--type", "gotcha", "--layer", "user").stdout.strip()
    cluster = mem_json("dedupe")["clusters"][0]
    assert cluster["keeper"] == mine
    assert {(m["id"], m["layer"]) for m in cluster["members"]} == {
        (mine, "project"),
        (other, "user"),
    }
    before = commits(store)
    done = mem_json("dedupe", "--apply", "-y")["merged"][0]
    assert done["keeper"] == mine and done["superseded"] == []  # not across stores
    assert done["commit"] is None and commits(store) == before
    assert other in {e["id"] for e in mem_json("list")}


# ------------------------------------------------- dedupe joins only the same fact

SERVICES = ("alpha", "beta", "gamma")
WORDINGS = (
    "The {0} service restarts nightly at 02:00 UTC to pick up new certificates",
    "Every night at 02:00 UTC the {0} service is restarted so it picks up new certificates",
    "Nightly at 02:00 UTC the {0} service restarts, picking up new certificates",
)


def test_dedupe_never_chains_different_services_into_one_cluster(store: Path) -> None:
    for service in SERVICES:
        for wording in WORDINGS:
            mem("save", wording.format(service), "--type", "context")
    for cluster in mem_json("dedupe")["clusters"]:
        named = {s for s in SERVICES for m in cluster["members"] if s in m["title"]}
        assert len(named) == 1, cluster
        assert all(m["similarity"] >= THRESHOLD for m in cluster["members"])


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (WORDINGS[0].format("alpha"), WORDINGS[0].format("beta")),
        (
            "Integration tests use the staging database, so they fail when staging is down",
            "Integration tests do not use the staging database, so they fail when staging is down",
        ),
        (
            "The response cache is enabled in production for the catalogue endpoints of the shop",
            "The response cache is disabled in production for the catalogue endpoints of the shop",
        ),
        (
            "The API listens on port 8080 in development behind the Vite proxy of the web app",
            "The API listens on port 9090 in development behind the Vite proxy of the web app",
        ),
        (
            "The billing service no longer keeps its session storage in Redis on the shared host",
            "The billing service keeps its session storage in Redis on the shared host",
        ),
    ],
)
def test_different_facts_of_the_same_words_are_neither_named_nor_merged(
    store: Path, first: str, second: str
) -> None:
    mem("save", first, "--type", "decision")
    assert mem_json("save", second, "--type", "decision")["similar"] == []
    assert mem_json("dedupe")["clusters"] == []


MONEY = (
    "Money is stored as integer pence in bigint columns; never use floats or Decimal for "
    "money in the database."
)
MONEY_AGAIN = (
    "Money is stored as integer pence (minor units) in bigint columns, never floats or "
    "Decimal in the database."
)


def test_the_same_fact_in_other_words_is_named_at_save_and_found_by_dedupe(store: Path) -> None:
    first = mem("save", MONEY, "--type", "decision").stdout.strip()
    assert [s["id"] for s in mem_json("save", MONEY_AGAIN, "--type", "decision")["similar"]] == [
        first
    ]
    assert len(mem_json("dedupe")["clusters"]) == 1


def test_a_merge_keeps_every_members_sentences_the_keeper_lacks(store: Path) -> None:
    extra = "Page #ops-bridge and the rollback token lives in the Ops vault."
    a = mem("save", f"{GOTCHA}. {extra}", "--type", "gotcha", "--title", GOTCHA)
    b = mem("save", REWORDED, "--type", "gotcha", "--key", "fts", "--title", REWORDED)
    assert mem_json("dedupe")["clusters"][0]["keeper"] == b.stdout.strip()
    mem("dedupe", "--apply", "-y")
    keeper = mem_json("show", "fts")[0]
    assert keeper["supersedes"] == [a.stdout.strip()]
    assert extra in keeper["narrative"] and keeper["narrative"].startswith(REWORDED)
    assert [e["id"] for e in mem_json("search", "ops-bridge rollback vault")] == [b.stdout.strip()]


def test_a_merge_keeps_the_lines_and_code_blocks_of_what_it_adds(store: Path) -> None:
    extra = "- Page #ops-bridge.\n- Rotate the token.\n\n```\nmake deploy.\nkubectl rollout\n```"
    mem("save", f"{GOTCHA}.\n\n{extra}", "--type", "gotcha", "--title", GOTCHA)
    mem("save", REWORDED, "--type", "gotcha", "--key", "fts", "--title", REWORDED)
    assert len(mem_json("dedupe")["clusters"]) == 1
    mem("dedupe", "--apply", "-y")
    narrative = mem_json("show", "fts")[0]["narrative"]
    assert "\n- Page #ops-bridge.\n- Rotate the token." in narrative
    assert "```\nmake deploy.\nkubectl rollout\n```" in narrative


def test_two_dedupe_applies_at_once_commit_one_merge(store: Path, tmp_path: Path) -> None:
    import os
    import subprocess

    from tests.conftest import mem_executable

    # A command that takes a while: the second apply finds its clusters while the first
    # holds the write lock.
    slow = _command(tmp_path, "import sys, time\nsys.stdin.read()\ntime.sleep(1)\nsys.exit(3)\n")
    user_config(f"[consolidate]\ncommand = {json.dumps(slow)}\n")
    a, b, _ = _cluster_store()
    before = commits(store)
    both = [
        subprocess.Popen(
            [mem_executable(), "dedupe", "--apply", "-y", "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ.copy(),
        )
        for _ in range(2)
    ]
    results = [process.communicate(timeout=60) for process in both]
    assert [process.returncode for process in both] == [0, 0], results
    assert commits(store) == before + 1
    assert mem_json("show", b)[0]["supersedes"] == [a]
    merged = [json.loads(out)["merged"] for out, _ in results]
    assert sorted(len(m[0]["superseded"]) if m else 0 for m in merged) == [0, 1]


STRIPE = (
    "The billing worker must be restarted after changing STRIPE_WEBHOOK_SECRET",
    "After changing STRIPE_WEBHOOK_SECRET, the billing worker must be restarted",
)


def test_a_not_only_is_no_negation() -> None:
    def of(text: str) -> object:
        return features(text, [], text)

    plain = "Deploys run the unit tests and the linter on every branch of the repository"
    also = (
        "Deploys not only run the unit tests but also the linter on every branch of the repository"
    )
    assert similarity(of(plain), of(also)) >= THRESHOLD  # type: ignore[arg-type]


def test_context_and_recall_show_one_fact_once_in_either_wording(store: Path) -> None:
    mem("save", STRIPE[0], "--type", "gotcha", "--title", STRIPE[0])
    mem("save", STRIPE[1], "--type", "gotcha", "--title", STRIPE[1])
    mem("save", "Deploys go out on Tuesdays after the weekly sync", "--type", "decision")
    assert mem("context").stdout.lower().count("billing worker") == 1
    (store / "mem.toml").write_text("[context]\nhot_count = 0\nwarm_count = 0\n")
    shown = mem("recall", "why must the billing worker restart after STRIPE_WEBHOOK_SECRET?")
    assert shown.stdout.lower().count("billing worker") == 1


def test_context_shows_both_of_two_facts_that_differ_by_a_negation_or_order(
    store: Path,
) -> None:
    mem("save", "Integration tests use the staging database", "--type", "gotcha")
    mem("save", "Integration tests do not use the staging database", "--type", "gotcha")
    mem("save", "Use tabs over spaces for indentation in Makefiles", "--type", "decision")
    mem("save", "Use spaces over tabs for indentation in Makefiles", "--type", "decision")
    shown = mem("context").stdout.lower()
    assert shown.count("staging database") == 2 and shown.count("indentation") == 2


def test_likeness_of_two_large_memories_of_many_distinct_words_is_linear() -> None:
    import random
    import string
    import threading

    rng = random.Random(7)
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(8)) for _ in range(5000)]
    one = " ".join(words)
    other = " ".join(w[:-1] + ("y" if w.endswith("z") else "z") for w in words)
    done: list[float] = []
    worker = threading.Thread(
        target=lambda: done.append(similarity(features("a", [], one), features("a", [], other))),
        daemon=True,
    )
    worker.start()
    worker.join(30)  # a pass over the words takes well under a second; one per pair, minutes
    assert done


def test_context_shows_both_of_two_long_facts_that_differ_by_a_number_path_or_name(
    store: Path,
) -> None:
    tail = (
        " for large multipart video files sent by mobile clients through the public edge"
        " proxy before a retry with exponential backoff and jitter on every node"
    )
    for one, other in [
        ("The upload gateway timeout is 30 seconds", "The upload gateway timeout is 60 seconds"),
        ("Uploads are staged in /srv/spool/video", "Uploads are staged in /srv/queue/video"),
        ("The alpha gateway retries uploads", "The beta gateway retries uploads"),
    ]:
        mem("save", one + tail, "--type", "gotcha", "--title", one + tail)
        mem("save", other + tail, "--type", "gotcha", "--title", other + tail)
    shown = mem("context").stdout.lower()
    assert shown.count("exponential backoff") == 6


def test_a_consolidate_command_whose_own_child_keeps_its_output_open_is_not_waited_for(
    store: Path, tmp_path: Path
) -> None:
    import os
    import signal
    import subprocess

    pid_file = tmp_path / "child.pid"
    command = _command(
        tmp_path,
        "import json, subprocess, sys\n"
        "sys.stdin.read()\n"
        "child = subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "answer = {'title': 'Quote FTS5 terms', 'narrative': 'Merged text.'}\n"
        "print(json.dumps(answer), flush=True)\n",
    )
    user_config(f'[consolidate]\ncommand = {json.dumps(command)}\ntimeout = "5s"\n')
    _, b, _ = _cluster_store()
    try:
        result = run_mem("dedupe", "--apply", "-y", "--json", timeout=30)
    except subprocess.TimeoutExpired:
        result = None
    finally:
        if pid_file.exists():
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
    assert result is not None and result.returncode == 0, "mem waited for the command's child"
    assert json.loads(result.stdout)["merged"][0]["merged_by"] == "command"
    assert mem_json("show", b)[0]["narrative"] == "Merged text."
