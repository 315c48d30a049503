"""Rendered context: golden files, hard budgets, recall gating, template safety."""

from __future__ import annotations

import datetime as dt
import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memcli.core.model import Observation
from memcli.retrieval.query import plan_query
from memcli.retrieval.recall import is_trivial
from memcli.retrieval.stopwords import ENGLISH
from memcli.store.files import Store

from .conftest import git, mem, mem_json, run_mem, write_store

GOLDEN = Path(__file__).parent / "golden"


def check_golden(name: str, text: str) -> None:
    """Compare with tests/golden/NAME; MEM_UPDATE_GOLDEN=1 rewrites the file instead."""
    path = GOLDEN / name
    if os.environ.get("MEM_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_session_start_golden(indexed_fixture_store: Path) -> None:
    text = mem("context").stdout
    check_golden("session_start.md", text)
    assert "## Project notes (MEMORY.md)" in text and "#### Learned" in text


def test_prompt_context_golden(indexed_fixture_store: Path) -> None:
    # Session start shows its best two in full (the FTS5 gotcha comes third): recall may bring it.
    (indexed_fixture_store / "mem.toml").write_text("[context]\nhot_count = 2\n")
    text = mem("recall", "why does the FTS5 search fail on a hyphen like foo-bar?").stdout
    check_golden("prompt_context.md", text)
    assert "FTS5 MATCH rejects bare hyphens" in text


def test_show_golden(indexed_fixture_store: Path) -> None:
    check_golden("show.md", mem("show", "fts-hyphen", "01JDH5J6").stdout)


def test_compaction_golden(indexed_fixture_store: Path) -> None:
    identity = mem(
        "compact",
        "--request",
        "Ship the context command",
        "--investigated",
        "Budgets and tiers",
        "--learned",
        "Drop whole items, warm tier first",
        "--completed",
        "Templates and tests",
        "--next-steps",
        "Install the Claude hooks",
    ).stdout.strip()
    path = next((indexed_fixture_store / "summaries").rglob(f"*{identity[-6:].lower()}.md"))
    text = path.read_text()
    # Each section once, in the frontmatter: the body holds only what they do not.
    lines = [line for line in text.splitlines() if not line.startswith(("id:", "created:"))]
    check_golden("compaction.md", "\n".join(lines) + "\n")
    for section in ("Ship the context command", "Budgets and tiers", "Install the Claude hooks"):
        assert text.count(section) == 1 + (section == "Ship the context command")  # + title
    shown = mem("show", identity).stdout
    assert shown.count("Budgets and tiers") == 1 and "## Investigated" in shown
    context = mem("context").stdout.split("## Latest sessions", 1)[1].split("\n## ", 1)[0]
    assert context.count("Ship the context command") == 1  # the title, not again as the request
    assert context.count("Budgets and tiers") == 1
    assert git(indexed_fixture_store, "log", "-1", "--format=%s").strip() == (
        "summarize: Ship the context command"
    )
    hits = mem_json("search", "hooks", "--kind", "summary")
    assert hits[0]["id"] == identity  # by its word; others of near meaning may follow
    assert identity[:8] in mem("context").stdout


def test_context_json_reports_what_is_in_it(indexed_fixture_store: Path) -> None:
    report = json.loads(mem("context", "--format", "json").stdout)
    assert report["chars"] == len(report["context"]) <= report["budget"] == 8000
    # Best first: the decision, the team's background and the preference (they hold
    # whatever their age), the important gotcha, then today's gotcha; the rest follow
    # with one line each.
    assert report["hot"] == [
        "01JBQ8Z1X4A2B3C4D5E6F7G8H9",
        "01JDK2M3N4P5Q6R7S8T9V0W1X2",
        "01JD0A1B2C3D4E5F6G7H8J9K0M",
        "01JC2M4K7R9S1T3V5W7X9Y1Z3A",
        "01JDM3N4P5Q6R7S8T9V0W1X2Y3",
    ]
    assert len(report["warm"]) == 3
    assert report["summaries"] == ["01JDH5J6K7M8N9P0Q1R2S3T4V5"]
    assert report["total"] == 9 and report["memory_md_lines"] == 5


def test_empty_store_context_says_how_to_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEM_STORE", str(tmp_path / "empty"))
    mem("init")
    assert "No memories yet" in mem("context").stdout


def test_the_footer_counts_one_memory_in_the_singular(store: Path) -> None:
    mem("save", "Invoice numbers come from a Postgres sequence per tenant", "--type", "decision")
    assert "\n1 memory in all." in mem("context").stdout
    mem("save", "Webhook deliveries are retried three times with backoff")
    assert "\n2 memories in all." in mem("context").stdout


# ------------------------------------------------------------------- budgets


@pytest.fixture(scope="module")
def big_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """500 memories over the last three days, long facts, a long MEMORY.md, summaries."""
    root = tmp_path_factory.mktemp("big") / "store"
    store = Store(root)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True, env=env)
    for n in range(500):
        hour = 72 - (n * 72) // 500
        obs = Observation(
            id=f"01JDN{n:05d}" + "A" * 16,
            type="discovery",
            title=f"Memory number {n} about caching layer {n % 7}",
            created=f"2026-11-{21 - hour // 24:02d}T{23 - hour % 24:02d}:00:00Z",
            narrative="word " * 100,
            facts=[f"fact {k} " + "detail " * 80 for k in range(4)],
        )
        path = root / store.new_path(obs)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(obs.to_markdown())
    (root / "MEMORY.md").write_text("".join(f"- curated note line {i}\n" for i in range(300)))
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "big"], cwd=root, check=True, env=env)
    yield root
    shutil.rmtree(root.parent, ignore_errors=True)  # 8 MB, left by no test of its own


@pytest.mark.parametrize("budget", [300, 1000, 2500, 8000])
def test_context_never_exceeds_its_budget_and_keeps_the_hot_tier(
    big_store: Path, monkeypatch: pytest.MonkeyPatch, budget: int
) -> None:
    monkeypatch.setenv("MEM_STORE", str(big_store))
    monkeypatch.setenv("MEM_NOW", "2026-11-21T23:30:00Z")
    result = mem("context", "--budget", str(budget), "--format", "json")
    report = json.loads(result.stdout)
    assert len(report["context"]) <= budget
    assert "Memory number 499 about" in report["context"]  # the newest hot memory survives
    assert "only the first 200 are used" in result.stderr
    if budget >= 2500:
        assert "Left out to fit" in report["context"]
        assert report["omitted"]["warm"] > 0


def test_default_budget_and_mem_toml(big_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM_STORE", str(big_store))
    assert len(mem("context").stdout) <= 8000 + 1
    (big_store / "mem.toml").write_text("[context]\nbudget = 1500\nhot_count = 2\n")
    try:
        report = json.loads(mem("context", "--format", "json").stdout)
        assert report["budget"] == 1500 and len(report["context"]) <= 1500
        assert len(report["hot"]) <= 2
        (big_store / "mem.toml").write_text("[context]\nbudget = 'big'\n")
        result = mem("context", "--format", "json")  # a bad setting: its default, and a line
        assert "context.budget must be a whole number" in result.stderr
        assert json.loads(result.stdout)["budget"] == 8000
    finally:
        (big_store / "mem.toml").unlink()


# -------------------------------------------------------------------- recall


@pytest.mark.parametrize(
    "prompt",
    [
        "yes",
        "ok",
        "continue",
        "Thanks!",
        "go on",
        "lgtm",
        "do it",
        "short one",
        "  OK.  ",
        "sounds good",
    ],
)
def test_trivial_prompts_get_nothing(indexed_fixture_store: Path, prompt: str) -> None:
    assert is_trivial(prompt, 15)
    assert mem("recall", prompt).stdout == ""
    assert json.loads(mem("recall", prompt, "--format", "json").stdout)["trivial"] is True


def test_real_prompts_are_not_trivial() -> None:
    assert not is_trivial("why does the index need a rebuild after checkout?", 15)
    assert [
        t.text for t in plan_query("Why does the FTS5 index fail? The index!", ENGLISH).terms
    ] == [
        "fts5",
        "index",
        "fail",
    ]


def _nothing_shown_in_full(root: Path) -> None:
    """Session start lists memories by a line each only: recall may bring any of them."""
    (root / "mem.toml").write_text("[context]\nhot_count = 0\n")


def test_recall_returns_only_strong_matches(indexed_fixture_store: Path) -> None:
    _nothing_shown_in_full(indexed_fixture_store)
    assert mem("recall", "tell me about the weather forecast for tomorrow").stdout == ""
    report = json.loads(
        mem("recall", "git plumbing commit performance with GitPython?", "--format", "json").stdout
    )
    assert [m["title"] for m in report["memories"]] == ["Use git plumbing for every save"]


def test_recall_is_deterministic(indexed_fixture_store: Path) -> None:
    _nothing_shown_in_full(indexed_fixture_store)
    prompt = "how should tests use git repositories and sqlite index files?"
    first = mem("recall", prompt).stdout
    assert first and all(mem("recall", prompt).stdout == first for _ in range(3))


def test_recall_skips_the_hot_tier(indexed_fixture_store: Path) -> None:
    # The CRLF memory is from the last 24 h: already in the session-start context.
    assert "CRLF" not in mem("recall", "windows files saved with CRLF line endings").stdout


# ------------------------------------------------------------ template safety


def test_memory_content_is_never_evaluated(indexed_fixture_store: Path) -> None:
    hostile = "{{ config }} {% for x in range(3) %}loop{% endfor %} {{ ''.__class__ }}"
    mem(
        "save",
        f"Template text {hostile} in the body",
        "--title",
        "Title {{ 7*7 }}",
        "--fact",
        hostile,
        "--type",
        "gotcha",
    )
    for text in (mem("context").stdout, mem("show", "--", mem_json("list")[0]["id"]).stdout):
        assert hostile in text and "Title {{ 7*7 }}" in text and "Title 49" not in text
    mem("save", "older template text {{ config }} with caching words", "--type", "pattern")


def test_store_templates_override_and_are_checked(indexed_fixture_store: Path) -> None:
    templates = indexed_fixture_store / "templates"
    templates.mkdir()
    (templates / "session_start.md.j2").write_text("Custom start for {{ project }}: {{ total }}\n")
    assert mem("context").stdout == "Custom start for store: 9\n"
    assert (
        "ok   " + str(templates / "session_start.md.j2")
        in mem("context", "--check-templates").stdout
    )
    (templates / "session_start.md.j2").write_text("{{ no_such_variable }}\n")
    result = mem("context", "--check-templates", expect=1)
    assert "FAIL template session_start.md.j2 failed: 'no_such_variable' is undefined" in (
        result.stdout
    )
    broken = mem("context", expect=1)
    assert "'no_such_variable' is undefined" in broken.stderr


def test_sandbox_blocks_unsafe_template_code(indexed_fixture_store: Path) -> None:
    templates = indexed_fixture_store / "templates"
    templates.mkdir()
    (templates / "session_start.md.j2").write_text(
        "{{ ''.__class__.__mro__[1].__subclasses__() }}\n"
    )
    assert "unsafe" in mem("context", expect=1).stderr


def test_recall_finds_todays_memories_beyond_the_hot_tier(store: Path) -> None:
    # 13 memories today: the session-start context lists hot_count + warm_count (10) of them.
    (store / "mem.toml").write_text("[context]\nwarm_count = 5\n")
    mem(
        "save",
        "Canary releases go to 5% of pods first, then 50%, then all",
        "--type",
        "discovery",
        "--concept",
        "canary",
        "--concept",
        "releases",
    )
    for n in range(12):
        mem("save", f"Unrelated note {n} about the build cache", "--type", "discovery")
    shown = json.loads(mem("context", "--format", "json").stdout)
    canary = mem_json("search", "canary")[0]["id"]
    assert canary not in shown["hot"] + shown["warm"] + shown["summaries"]
    report = json.loads(
        mem("recall", "how do we do canary releases here?", "--format", "json").stdout
    )
    assert [m["id"] for m in report["memories"]] == [canary]
    # What the session-start context shows stays out of recall.
    hot = mem_json("search", "Unrelated note 11")[0]
    assert hot["id"] in shown["hot"]
    prompt = "unrelated note 11 about the build cache?"
    again = json.loads(mem("recall", prompt, "--format", "json", "--explain").stdout)
    # They are weighed as rivals (a prompt about them is no answer for another), never shown.
    candidates = again["explain"]["candidates"]
    assert candidates and not {m["id"] for m in again["memories"]} & set(shown["hot"])
    rivals = [c for c in candidates if c["id"] in shown["hot"]]
    assert rivals and all(not c["shown"] and c["why"].startswith("left out") for c in rivals)
    assert again["explain"]["left_out"]["context"] >= len(shown["hot"])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            "took longer than 0.3 s",
        ),
        (
            "{% set s = range(100000) | list %}{% for a in s %}{% for b in s %}"
            "{% endfor %}{% endfor %}",
            "took longer than 0.3 s",
        ),
        ('{{ "x" * 300000000 }}', "more than 10000000 items"),
        ("{{ ['x'] * 300000000 }}", "more than 10000000 items"),
        (
            "{% set ns = namespace(s='x') %}{% for i in range(40) %}"
            "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}",
            "more than 10000000 characters",
        ),
        (
            "{% set ns = namespace(s='x') %}{% for i in range(40) %}"
            "{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s | length }}",
            "more than 10000000 items",
        ),
        ("{{ 'x' | center(300000000) }}", "above the limit"),
        ("{{ 'x'.ljust(300000000) }}", "above the limit"),
        ("{{ '%300000000s' % 'x' }}", "above the limit"),
        ("{{ '{:>300000000}'.format('x') }}", "above the limit"),
        ("{{ 10 ** 100000000 }}", "bits"),
        (
            "{% macro m() %}{% for i in range(20) %}{{ 'y' * 1000000 }}{% endfor %}{% endmacro %}"
            "{{ m() }}",
            "more than 10000000 characters",
        ),
        ("{{ ('x' * 9000000).replace('x', 'y' * 40) }}", "needed more than 256 MB"),
        ("{{ 1 / 0 }}", "ZeroDivisionError"),
        ("{{ lipsum(10000000) }}", "'lipsum' is undefined"),
        ('{{ ("x " * 4000000) | wordwrap(1) | length }}', "took longer than 0.3 s"),
        ('{{ ("a.b " * 2000000) | urlize | length }}', "took longer than 0.3 s"),
        ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "recurses too deeply"),
    ],
)
def test_templates_are_bounded_in_time_and_size(
    indexed_fixture_store: Path, monkeypatch: pytest.MonkeyPatch, body: str, message: str
) -> None:
    # The other limits are not the time limit: on a busy machine they must not meet it first.
    monkeypatch.setenv("MEM_TEMPLATE_TIMEOUT", "0.3" if "took longer" in message else "1.2")
    templates = indexed_fixture_store / "templates"
    templates.mkdir()
    (templates / "session_start.md.j2").write_text(body + "\n")
    started = time.monotonic()
    result = mem("context", expect=1)
    assert "template session_start.md.j2" in result.stderr and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    checked = mem("context", "--check-templates", expect=1)
    assert "FAIL template session_start.md.j2" in checked.stdout and message in checked.stdout
    assert time.monotonic() - started < 3


def test_the_template_time_limit_leaves_an_alarm_set_before_it_alone(
    indexed_fixture_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEM_TEMPLATE_TIMEOUT", "0.3")
    templates = indexed_fixture_store / "templates"
    templates.mkdir()
    (templates / "session_start.md.j2").write_text('{{ ("x " * 4000000) | wordwrap(1) }}\n')
    rang: list[int] = []

    def handler(signum: int, frame: object) -> None:
        rang.append(signum)

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 100)
    try:
        assert "took longer than 0.3 s" in mem("context", expect=1).stderr
        assert signal.getsignal(signal.SIGALRM) is handler
        assert 90 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert rang == []


@pytest.mark.parametrize("budget", [0, 1, 20, 40])
def test_a_tiny_budget_in_mem_toml_is_respected(
    big_store: Path, monkeypatch: pytest.MonkeyPatch, budget: int
) -> None:
    monkeypatch.setenv("MEM_STORE", str(big_store))
    monkeypatch.setenv("MEM_NOW", "2026-11-21T23:30:00Z")
    (big_store / "mem.toml").write_text(
        f"[context]\nbudget = {budget}\n[recall]\nbudget = {budget}\nmin_matched_terms = 1\n"
    )
    try:
        text = mem("context").stdout
        assert len(text.removesuffix("\n")) <= budget and (budget or text == "")
        report = json.loads(mem("context", "--format", "json").stdout)
        assert len(report["context"]) <= budget
        assert report["chars"] == len(report["context"])
        recalled = mem("recall", "caching layer memory number facts").stdout
        assert len(recalled.removesuffix("\n")) <= budget and (budget or recalled == "")
    finally:
        (big_store / "mem.toml").unlink()


# ------------------------------------------------------------ symbolic links


def test_memory_md_linked_out_of_the_store_is_not_read(
    indexed_fixture_store: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:outside-the-store:/root:/bin/bash\n")
    (indexed_fixture_store / "MEMORY.md").unlink()
    (indexed_fixture_store / "MEMORY.md").symlink_to(secret)
    git(indexed_fixture_store, "add", "-A")
    git(indexed_fixture_store, "commit", "-q", "--no-verify", "-m", "link")
    result = mem("context")
    assert "outside-the-store" not in result.stdout
    assert "MEMORY.md is a symbolic link" in result.stderr
    assert "outside-the-store" not in mem("context", "--format", "json").stdout


def test_a_template_cannot_include_a_file_out_of_the_store(
    indexed_fixture_store: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:outside-the-store:/root:/bin/bash\n")
    templates = indexed_fixture_store / "templates"
    templates.mkdir()
    (templates / "x").symlink_to(secret)
    (templates / "session_start.md.j2").write_text('{% include "x" %}\n')
    result = mem("context", expect=1)
    assert "outside-the-store" not in result.stdout + result.stderr
    assert "symbolic link out of the store" in result.stderr
    checked = mem("context", "--check-templates", expect=1)
    assert "FAIL template session_start.md.j2" in checked.stdout
    assert "outside-the-store" not in checked.stdout


@pytest.mark.parametrize("moment", ["0001-01-02T00:00:00Z", "0001-01-01T00:00:00Z"])
def test_a_now_in_the_first_days_of_year_one_starts_the_windows_there(
    store: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    mem("save", "A memory from the present")
    monkeypatch.setenv("MEM_NOW", moment)
    assert "A memory from the present" in mem("context").stdout


# ------------------------------------------------------------ compiled-template cache


class _Planted:
    """Unpickling this creates ``path``: stands for any code a crafted cache file could run."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return os.mkdir, (str(self.path),)


def test_a_compiled_template_cache_shipped_in_a_store_is_never_loaded(
    store: Path, tmp_path: Path
) -> None:
    from jinja2 import FileSystemBytecodeCache
    from jinja2.bccache import bc_magic

    from memcli.retrieval.render import builtin_templates

    marker = tmp_path / "code-ran"
    planted = store / ".cache" / "templates"
    planted.mkdir(parents=True, exist_ok=True)
    for name in ("session_start.md.j2", "prompt_context.md.j2", "show.md.j2"):
        filename = os.path.normpath(os.path.join(builtin_templates(), name))
        key = FileSystemBytecodeCache(str(tmp_path)).get_cache_key(name, filename)
        (planted / f"mem-guarded-{key}.cache").write_bytes(
            bc_magic + pickle.dumps(_Planted(marker))
        )
    mem("save", "Deploys go through the staging cluster first", "--type", "decision")
    git(store, "add", "-f", ".cache/templates")
    git(store, "commit", "-q", "--no-verify", "-m", "templates")
    clone = tmp_path / "clone"
    # mem clone refuses a branch that tracks .cache; a plain git clone does not.
    assert "tracks .cache" in mem("clone", str(store), str(clone), expect=1).stderr
    git(tmp_path, "clone", "-q", str(store), str(clone))
    assert (clone / ".cache" / "templates").is_dir()
    assert "staging cluster" in mem("context", "--store", str(clone)).stdout
    mem("context", "--store", str(clone))
    assert not marker.exists()
    # The cache is kept where no sync can write: under the git directory, private to the user.
    compiled = clone / ".git" / "mem" / "templates"
    assert compiled.is_dir() and any(compiled.iterdir())
    assert compiled.stat().st_mode & 0o777 == 0o700


# ------------------------------------------------------- session start by value

TODAY = dt.datetime(2026, 11, 21, 12, 0, tzinfo=dt.UTC)


def _obs(n: int, days_ago: float, **fields: Any) -> Observation:
    created = TODAY - dt.timedelta(days=days_ago, minutes=n)
    return Observation(
        id=f"01JE{n:06d}" + "B" * 16,
        created=created.strftime("%Y-%m-%dT%H:%M:%SZ"),
        **{"type": "discovery", "title": f"Everyday note {n} on build step {n * 7}", **fields},
    )


@pytest.fixture
def busy_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Old preferences and an important gotcha under three busy weeks of everyday notes."""
    memories = [
        _obs(1, 90, type="preference", title="Use pnpm, never npm, in this repo"),
        _obs(2, 95, type="preference", title="Squash merge feature branches"),
        _obs(3, 60, type="gotcha", title="The staging VPC has no NAT", importance=1.0),
        *(_obs(100 + n, n / 4, facts=[f"step {n} takes {n} s", "cache it"]) for n in range(80)),
    ]
    root = write_store(tmp_path / "busy", memories)
    monkeypatch.setenv("MEM_STORE", str(root))
    monkeypatch.setenv("MEM_NOW", "2026-11-21T12:00:00Z")
    return root


def test_old_preferences_and_an_important_gotcha_outrank_weeks_of_notes(busy_store: Path) -> None:
    report = json.loads(mem("context", "--format", "json").stdout)
    durable = {_obs(n, 0).id for n in (1, 2, 3)}
    assert durable <= set(report["hot"])
    assert "Use pnpm, never npm" in report["context"] and "no NAT" in report["context"]


def test_a_month_without_saves_still_shows_memories(
    busy_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEM_NOW", "2027-01-01T12:00:00Z")
    report = json.loads(mem("context", "--format", "json").stdout)
    assert len(report["hot"]) == 5 and len(report["warm"]) == 20
    assert "Use pnpm, never npm" in report["context"]


def test_memories_saved_today_fill_the_budget_with_their_first_fact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    long_title = "Reusing one HTTP client per app lifespan fixed the socket leak in the " + (
        "exporter"
    )
    memories = [
        _obs(n, n / 100, facts=[f"first fact {n}: the retry budget is {n} s", f"second fact {n}"])
        for n in range(14)
    ]
    memories.append(
        _obs(99, 0.5, title=long_title[:60] + "…", narrative=long_title + ". Keep it so.")
    )
    root = write_store(tmp_path / "today", memories)
    monkeypatch.setenv("MEM_STORE", str(root))
    monkeypatch.setenv("MEM_NOW", "2026-11-21T12:00:00Z")
    report = json.loads(mem("context", "--format", "json").stdout)
    assert len(report["hot"]) + len(report["warm"]) == 15
    text = report["context"]
    assert "first fact 13: the retry budget" in text  # a warm memory: its first fact
    assert "second fact 0" in text and "second fact 13" not in text  # hot: every fact
    assert long_title in text  # the first line of its text, not the cut title alone


def test_near_identical_memories_are_shown_once(busy_store: Path) -> None:
    twin = ("Restart the worker after changing .env", ["the worker reads .env once"])
    for text in ("x", "y"):  # not exact duplicates (those are not saved twice)
        mem("save", text, "--title", twin[0], "--fact", twin[1][0], "--type", "gotcha")
    assert mem("context").stdout.count("Restart the worker after changing .env") == 1
    report = json.loads(mem("context", "--format", "json", "--explain").stdout)
    assert len(report["explain"]["duplicates"]) == 1


def test_near_identical_memories_are_recalled_once(busy_store: Path) -> None:
    (busy_store / "mem.toml").write_text("[context]\nhot_count = 0\n")
    for fact in ("the worker reads .env once", "the worker reads .env once at start"):
        mem("save", "x", "--title", "Restart the worker after changing .env", "--fact", fact)
    recalled = mem("recall", "why must the worker restart after changing .env?").stdout
    assert recalled.count("Restart the worker after changing .env") == 1


def test_one_session_is_one_latest_session(busy_store: Path) -> None:
    mem("compact", "--session", "s-0", "--request", "An earlier session", "--completed", "a")
    for request in ("First half of the session", "The whole session, at its end"):
        mem("compact", "--session", "s-1", "--request", request, "--completed", "b")
    text = mem("context").stdout
    latest = text.split("## Latest sessions", 1)[1].split("\n## ", 1)[0]
    assert "The whole session, at its end" in latest and "An earlier session" in latest
    assert "First half of the session" not in latest


def test_explain_shows_each_part_of_the_score(busy_store: Path) -> None:
    text = mem("context", "--explain").stdout
    assert "score = type x recency x importance x working x stale" in text
    assert "working set: none" in text
    first, parts = text.splitlines()[3:5]
    assert "hot" in first and "gotcha: The staging VPC has no NAT" in first
    assert "x importance 2.718 x working 1 x stale 1" in parts  # importance 1.0
    report = json.loads(mem("context", "--format", "json", "--explain").stdout)
    top = report["explain"]["memories"][0]
    assert top["shown"] == "hot" and set(top) >= {"recency", "importance", "working", "stale"}


def test_the_footer_says_how_to_save(busy_store: Path) -> None:
    footer = mem("context").stdout.rstrip().splitlines()[-1]
    assert "`mem save" in footer and "MCP `save` tool" in footer


def test_memories_touching_the_current_work_come_first(
    busy_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEM_NOW", "2026-09-01T12:00:00Z")  # older than the everyday notes
    mem(
        "save",
        "Refunds are computed in cents",
        "--type",
        "discovery",
        "--file",
        "src/payments/refund.py",
    )
    mem("save", "Invoices are rendered by weasyprint", "--type", "pattern", "--concept", "invoices")
    project = tmp_path / "shop"
    (project / "src" / "payments").mkdir(parents=True)
    (project / "src" / "invoices.py").write_text("x\n")
    (project / "src" / "payments" / "refund.py").write_text("x\n")
    git(tmp_path, "init", "-q", "-b", "main", str(project))
    git(project, "add", "-A")
    git(project, "commit", "-qm", "start")
    monkeypatch.setenv("MEM_NOW", "2027-03-01T12:00:00Z")  # both months old by then
    monkeypatch.chdir(project)
    before = json.loads(mem("context", "--format", "json").stdout)
    git(project, "checkout", "-q", "-b", "refunds")
    (project / "src" / "payments" / "refund.py").write_text("y\n")
    git(project, "commit", "-qam", "refunds")  # on the branch
    (project / "src" / "invoices.py").write_text("y\n")  # in the work tree
    after = json.loads(mem("context", "--format", "json", "--explain").stdout)
    refund, invoices = (mem_json("search", words)[0]["id"] for words in ("refunds", "weasyprint"))
    shown = before["hot"] + before["warm"]
    assert refund not in shown and invoices not in shown
    assert {refund, invoices} <= set(after["hot"])
    assert "(touches your changes)" in after["context"]
    assert after["explain"]["working_set"]["files"] == ["src/invoices.py", "src/payments/refund.py"]


def test_the_working_set_of_a_clone_and_of_a_linked_worktree(
    busy_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream = tmp_path / "upstream"
    (upstream / "api").mkdir(parents=True)
    (upstream / "api" / "routes.py").write_text("x\n")
    (upstream / "README.md").write_text("x\n")
    git(tmp_path, "init", "-q", "-b", "trunk", str(upstream))
    git(upstream, "add", "-A")
    git(upstream, "commit", "-qm", "start")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(upstream), str(clone))  # origin/HEAD -> origin/trunk
    git(clone, "worktree", "add", "-q", "-b", "feature", str(tmp_path / "linked"))
    linked = tmp_path / "linked"
    (linked / "api" / "routes.py").write_text("y\n")
    git(linked, "commit", "-qam", "routes")
    (linked / "README.md").write_text("y\n")
    monkeypatch.chdir(linked / "api")
    working = json.loads(mem("context", "--format", "json", "--explain").stdout)["explain"]
    assert working["working_set"] == {
        "base": "merge-base with origin/trunk",
        "files": ["README.md", "api/routes.py"],
    }
    monkeypatch.chdir(clone)  # on the default branch: what is not committed yet
    (clone / "README.md").write_text("z\n")
    working = json.loads(mem("context", "--format", "json", "--explain").stdout)["explain"]
    assert working["working_set"] == {"base": "HEAD", "files": ["README.md"]}


def test_counts_agree_with_their_nouns(store: Path) -> None:
    mem("save", "The only memory there is")
    assert "\n1 memory in all." in mem("context").stdout
    for n in range(12):
        mem("save", f"Everyday note number {n} about widget padding and margins")
    squeezed = mem("context", "--budget", "900").stdout
    assert "Left out to fit 900 characters:" in squeezed and " memories" in squeezed
    assert "warm" not in squeezed.rsplit("---", 1)[-1]


def test_explain_names_each_memory_by_an_id_that_shows_it(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Saved in the same instant, the ids share their first ten characters.
    monkeypatch.setenv("MEM_NOW", "2026-11-01T00:00:00Z")
    titles = ("Deploys go out on Tuesdays", "Deploys go out on Tuesdays", "Ports are fixed")
    for n, title in enumerate(titles):  # texts differ: an exact duplicate is not saved twice
        mem("save", f"{title} ({n})", "--title", title, "--type", "decision")
    text = mem("context", "--explain").stdout
    ids = re.findall(r"\[(\w+)\] decision:", text)
    assert len(ids) == 3 and len(set(ids)) == 3
    twin = re.search(r"near-identical to (\w+)", text)
    assert twin is not None and twin.group(1) in ids
    for short in ids:
        assert run_mem("show", short).returncode == 0


# ------------------------------------------------- shown whole, or not counted as shown

DEPLOYS = "Deploys go out on Tuesdays after stand-up; a Friday deploy needs a second reviewer"


def _hook(event: str, tmp_path: Path, **fields: str) -> str:
    """The context Claude Code's hook ``event`` adds in session ``s`` ('' when none)."""
    payload = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": event, **fields}
    out = mem("hook", "claude", event, input=json.dumps(payload)).stdout
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""


def test_a_memory_whose_derived_title_is_cut_is_shown_with_its_text(
    store: Path, tmp_path: Path
) -> None:
    mem("save", DEPLOYS, "--type", "decision")
    shown = mem("context").stdout
    assert DEPLOYS in shown  # whole, though the title derived from it stops at "second…"
    assert DEPLOYS in _hook("SessionStart", tmp_path)
    # Shown whole, so counted as shown: recall does not give it again.
    assert not _hook("UserPromptSubmit", tmp_path, prompt="who reviews a Friday deploy?")


def test_a_best_memory_arrives_with_its_reasons_and_is_not_recalled_again(
    store: Path, tmp_path: Path
) -> None:
    """A hot memory's text (its why) is shown under its facts: short, it arrives whole."""
    why = (
        "Running npm install writes a second lockfile and resolves other versions, "
        "so CI's frozen-lockfile step rejects the branch."
    )
    mem(
        "save", why, "--type", "preference", "--title", "Use pnpm, never npm",
        "--fact", "pnpm-lock.yaml is the only lockfile",
    )  # fmt: skip
    start = _hook("SessionStart", tmp_path)
    assert "pnpm-lock.yaml is the only lockfile" in start and why in start
    prompt = "why does CI reject a branch with a second lockfile from npm install?"
    assert not _hook("UserPromptSubmit", tmp_path, prompt=prompt)


def test_a_memory_shown_in_part_at_session_start_can_still_be_recalled(
    store: Path, tmp_path: Path
) -> None:
    steps = "\n".join(
        f"- Step {n}: the release captain checks the {part} dashboard and signs the change log."
        for n, part in enumerate(("latency", "error rate", "queue depth", "cost", "saturation"))
    )
    text = (
        f"{DEPLOYS}.\n\n{steps}\n\nRollbacks go through the blue-green switch in the ops console."
    )
    mem("save", text, "--type", "decision", "--title", "Deploy days")
    start = _hook("SessionStart", tmp_path)
    assert DEPLOYS in start and "Step 1" in start  # shown up to about 480 characters
    assert "blue-green" not in start
    prompt = "how do rollbacks work with the blue-green switch in the ops console?"
    assert "blue-green switch" in _hook("UserPromptSubmit", tmp_path, prompt=prompt)


def test_a_memory_cut_to_fit_the_budget_is_not_counted_as_shown(
    store: Path, tmp_path: Path
) -> None:
    (store / "mem.toml").write_text("[agents]\nclaude_context = 160\n")
    mem("save", DEPLOYS, "--type", "decision", "--title", "Deploy days")
    start = _hook("SessionStart", tmp_path)
    assert "Deploy days" in start and "second reviewer" not in start  # cut to fit
    prompt = "who must review a Friday deploy after stand-up on Tuesdays?"
    assert "second reviewer" in _hook("UserPromptSubmit", tmp_path, prompt=prompt)


REVIEWER = "A Friday deploy needs a second reviewer from the platform team."


def _deploy_days_with_reasons() -> None:
    text = f"Deploys go out on Tuesdays after stand-up.\n{REVIEWER}\nThe freeze starts on the 20th."
    mem("save", text, "--type", "decision", "--title", "Deploy days", "--fact", "day: Tuesday")


def test_a_best_memory_whose_text_the_budget_cut_is_recalled(store: Path, tmp_path: Path) -> None:
    (store / "mem.toml").write_text("[agents]\nclaude_context = 190\n")
    _deploy_days_with_reasons()
    start = _hook("SessionStart", tmp_path)
    assert "day: Tuesday" in start and "The freeze starts" not in start  # its text cut
    prompt = "when does the deploy freeze start?"
    assert "The freeze starts on the 20th" in _hook("UserPromptSubmit", tmp_path, prompt=prompt)


def test_a_store_template_that_leaves_the_text_out_does_not_count_it_as_shown(
    store: Path, tmp_path: Path
) -> None:
    (store / "templates").mkdir()
    (store / "templates" / "session_start.md.j2").write_text(
        "{% for memory in hot %}- {{ memory.title }}\n"
        "{% for fact in memory.facts %}  - {{ fact }}\n{% endfor %}{% endfor %}"
    )
    _deploy_days_with_reasons()
    start = _hook("SessionStart", tmp_path)
    assert "day: Tuesday" in start and "second reviewer" not in start
    prompt = "who must review a Friday deploy?"
    assert REVIEWER in _hook("UserPromptSubmit", tmp_path, prompt=prompt)
    assert REVIEWER in mem("recall", prompt).stdout  # no session: nothing known as shown


def test_a_best_memory_s_text_nests_under_it_and_leaves_no_code_open(store: Path) -> None:
    script = "\n".join(f"echo step {n}  # check {n}" for n in range(40))
    text = f"# Release steps\n\nRun these in order:\n\n```bash\n{script}\n```\n\nThen tag."
    mem("save", text, "--type", "pattern", "--title", "Releases", "--fact", "tag: vX.Y.Z")
    shown = mem("context").stdout
    assert "\n  ### Release steps\n" in shown  # a heading of its own would outrank the list
    assert "# check 0" in shown and "### check" not in shown  # code is not demoted
    fences = [line for line in shown.splitlines() if line.strip().startswith("```")]
    assert len(fences) == 2 and "Then tag" not in shown  # cut inside the code, closed


def test_a_cut_line_found_higher_up_does_not_make_a_memory_whole(store: Path) -> None:
    """Its last line was cut; the same words stand in an earlier line. Recall without a
    session works out what session start shows, within the store's budget."""
    order = "\n".join(["  systemctl restart api", "  systemctl restart worker"] * 2)
    text = f"After a schema change restart in this order:\n{order}\nThen check the queue depth."
    mem("save", text, "--type", "pattern", "--title", "Restarts", "--fact", "api first")
    for budget in range(200, 400, 10):
        (store / "mem.toml").write_text(f"[context]\nbudget = {budget}\n")
        shown = mem("context").stdout
        if "restart worker" in shown and shown.count("restart api") == 1:
            break
    else:
        pytest.fail("no budget cuts between the two restarts of the api")
    prompt = "in what order do we restart the api and the worker after a schema change?"
    assert "Then check the queue depth" in mem("recall", prompt).stdout


def test_a_project_note_cut_inside_its_code_leaves_the_rest_as_text(store: Path) -> None:
    script = "\n".join(f"make step{n}" for n in range(60))
    (store / "MEMORY.md").write_text(f"# Notes\n\nRelease:\n\n```sh\n{script}\n```\n")
    mem("save", "Deploys go out on Tuesdays", "--type", "decision")
    over_budget = mem("context", "--budget", "900").stdout
    (store / "mem.toml").write_text("[context]\nmemory_md_lines = 30\n")
    for shown in (over_budget, mem("context").stdout):
        fences = [line for line in shown.splitlines() if line.strip().startswith("```")]
        assert len(fences) == 2, shown
        assert shown.index("## Memories") > shown.rindex("```")


def test_background_context_saved_today_ranks_above_a_day_of_discoveries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    background = _obs(
        99, 0.2, type="context", title="The billing service is owned by the payments team"
    )
    memories = [*(_obs(n, 0.2) for n in range(40)), background]
    root = write_store(tmp_path / "busy-day", memories)
    monkeypatch.setenv("MEM_STORE", str(root))
    monkeypatch.setenv("MEM_NOW", "2026-11-21T12:00:00Z")
    report = json.loads(mem("context", "--format", "json").stdout)
    assert report["hot"][0] == background.id
