"""Lessons drafted from a session's transcript without a model (``capture.lessons``).

Sessions are written as Claude Code, Codex and Gemini write them and read back with
``read_messages``, as the session-end capture reads them.
"""

from __future__ import annotations

import importlib.util
import json
import stat
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcli.capture.lessons import draft_lessons, draft_session
from memcli.capture.lessons.text import MAX_QUOTE_CHARS, MAX_TITLE_CHARS
from memcli.capture.transcripts.records import TranscriptMessage, read_messages
from memcli.core import config
from memcli.core.lesson import LESSON_KINDS
from tests.conftest import REPO_ROOT, user_config

SESSION = "7e550000-0000-4000-8000-00000000abcd"
Step = tuple[str, Any]


def claude_session(tmp_path: Path, steps: list[Step]) -> list[TranscriptMessage]:
    """``steps`` written as a Claude Code transcript and read back.

    ("user", text), ("assistant", text), ("bash", (command, output, failed)), ("edit", path).
    Record n's uuid is ``u<n>``.
    """
    records: list[dict[str, Any]] = []
    parent = None

    def put(kind: str, content: object) -> None:
        nonlocal parent
        uuid = f"u{len(records)}"
        records.append(
            {
                "type": kind,
                "sessionId": SESSION,
                "uuid": uuid,
                "parentUuid": parent,
                "timestamp": f"2026-05-01T10:{len(records) // 60:02d}:{len(records) % 60:02d}Z",
                "message": {"role": kind, "content": content},
            }
        )
        parent = uuid

    for kind, value in steps:
        if kind in ("user", "assistant"):
            put(kind, value if kind == "user" else [{"type": "text", "text": value}])
            continue
        call = f"toolu_{len(records)}"
        if kind == "bash":
            command, output, failed = value
            tool_input: dict[str, Any] = {"command": command}
            name = "Bash"
        else:
            output, failed, name = "ok", False, "Edit"
            tool_input = {"file_path": value, "old_string": "a", "new_string": "b"}
        put("assistant", [{"type": "tool_use", "id": call, "name": name, "input": tool_input}])
        result = {"type": "tool_result", "tool_use_id": call, "content": output}
        put("user", [{**result, "is_error": True} if failed else result])
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return list(read_messages(path, "claude"))


def drafts_of(tmp_path: Path, steps: list[Step]) -> list[Any]:
    return draft_lessons(claude_session(tmp_path, steps), session=SESSION, agent="claude")


# ------------------------------------------------------------------ each kind


def test_a_correction_is_quoted_with_the_files_the_agent_had_touched(tmp_path: Path) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "Add zod to the web app."),
            ("assistant", "I'll install it with npm."),
            ("bash", ("npm install zod", "added 1 package", False)),
            ("edit", "apps/web/package.json"),
            ("user", "No, we use pnpm here, never npm. The lockfile is pnpm-lock.yaml."),
            ("assistant", "Sorry, switching to pnpm."),
        ],
    )
    assert draft.kind == "correction" and draft.memory_type == "preference"
    assert draft.text.startswith("No, we use pnpm here, never npm.")
    assert draft.title == "We use pnpm here, never npm"
    assert draft.message == "u6" and draft.session == SESSION and draft.agent == "claude"
    assert "apps/web/package.json" in draft.files
    assert draft.guard == "deny Bash:npm *"  # the guard the rule asks for, suggested only


def test_a_rule_the_user_states(tmp_path: Path) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "From now on, always write tests as plain pytest functions."),
            ("assistant", "Will do."),
        ],
    )
    assert draft.kind == "rule"
    assert draft.text == "From now on, always write tests as plain pytest functions."
    assert draft.guard is None  # nothing a tool call can be checked against


def test_a_root_cause_said_as_a_fact_and_what_follows_from_it(tmp_path: Path) -> None:
    """Between the failure and the pass, "X is so, so Y" explains it, with no "because"."""
    (draft,) = drafts_of(
        tmp_path,
        [
            ("bash", ("pytest tests/test_ids.py", "E  assert 7 == 1", True)),
            (
                "assistant",
                "The test database is one copy per worker, so earlier tests leave their rows "
                "in it.",
            ),
            ("edit", "tests/test_ids.py"),
            ("bash", ("pytest tests/test_ids.py", "3 passed", False)),
        ],
    )
    assert draft.kind == "root_cause" and "one copy per worker" in draft.text


def test_a_root_cause_whose_command_passed_with_an_argument_added(tmp_path: Path) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("bash", ("cargo test -p client", "error[E0432]: unresolved import", True)),
            ("assistant", "It fails because the tls module is built with the rustls feature."),
            ("edit", "crates/client/tests/tls.rs"),
            ("bash", ("cargo test -p client --features rustls", "test result: ok", False)),
        ],
    )
    assert draft.kind == "root_cause" and "rustls feature" in draft.text
    assert draft.extra["command"] == "cargo test -p client"


def test_a_root_cause_needs_the_failure_the_explanation_and_the_change_that_passed(
    tmp_path: Path,
) -> None:
    explained = (
        "It fails because moto starts every test with no buckets, so the fixture must create it."
    )
    steps: list[Step] = [
        ("user", "The upload tests fail."),
        ("bash", ("pytest tests/test_s3.py", "E  NoSuchBucket: the bucket does not exist", True)),
        ("assistant", explained),
        ("edit", "tests/conftest.py"),
        ("bash", ("pytest tests/test_s3.py -q", "6 passed", False)),
    ]
    (draft,) = drafts_of(tmp_path, steps)
    assert draft.kind == "root_cause" and draft.memory_type == "gotcha"
    assert draft.text == explained and draft.files == ("tests/conftest.py",)
    assert draft.extra["command"] == "pytest tests/test_s3.py"
    assert "NoSuchBucket" in draft.extra["error"]
    # Without the change, or without the run that passed, no root cause is found...
    assert drafts_of(tmp_path, [s for s in steps if s[0] != "edit"]) == []
    assert drafts_of(tmp_path, steps[:-1]) == []
    # ...unless the explanation names it outright and a change followed.
    outright = "The root cause is that moto starts every test with no buckets."
    (draft,) = drafts_of(tmp_path, [*steps[:2], ("assistant", outright), steps[3]])
    assert (draft.kind, draft.text) == ("root_cause", outright)


def test_a_root_cause_of_a_piped_command_told_failed_by_its_output(tmp_path: Path) -> None:
    """A pipe hides the exit status: the output's "error:" tells the failure, the rerun
    is the same command up to its first pipe, and the explanation is quoted whole."""
    explained = (
        "The table moved into its own file and lost the annotation it had before. "
        "The linker now sees two copies of the symbol."
    )
    (draft,) = drafts_of(
        tmp_path,
        [
            (
                "bash",
                ("make build 2>&1 | grep error:", "src/a.c:4: error: duplicate symbol", False),
            ),
            ("assistant", explained),
            ("edit", "src/a.c"),
            ("bash", ("make build 2>&1 | tail -1", "built target app", False)),
        ],
    )
    assert draft.kind == "root_cause" and draft.text == explained
    assert draft.extra["command"].startswith("make build")


def test_a_root_cause_confirmed_by_another_command_that_passed(tmp_path: Path) -> None:
    """The check after the change may be another command than the one that failed."""
    (draft,) = drafts_of(
        tmp_path,
        [
            (
                "bash",
                ("kubectl describe pod api-1 | tail -2", "Liveness probe failed: timeout", False),
            ),
            ("assistant", "The service needs about 40s to warm up, so the kubelet kills it early."),
            ("edit", "deploy/api.yaml"),
            ("bash", ("kubectl rollout status deploy/api", "successfully rolled out", False)),
        ],
    )
    assert draft.kind == "root_cause" and "40s to warm up" in draft.text


def test_a_root_cause_of_a_failure_the_user_reported(tmp_path: Path) -> None:
    """No command failed: the user said what fails, the agent explained it, changed a
    file, and a check passed."""
    explained = (
        "The proxy terminates TLS and forwards plain http to the app, and the app then "
        "redirects every request to https again."
    )
    steps: list[Step] = [
        ("user", "the login page redirects to itself forever since the proxy move"),
        ("bash", ("curl -sI https://example.test/login | head -1", "HTTP/2 301", False)),
        ("assistant", explained),
        ("edit", "ops/proxy.conf"),
        ("bash", ("curl -sI https://example.test/login | head -1", "HTTP/2 200", False)),
    ]
    (draft,) = drafts_of(tmp_path, steps)
    assert (draft.kind, draft.text, draft.files) == ("root_cause", explained, ("ops/proxy.conf",))
    # A request that reports nothing failing gives no root cause.
    assert drafts_of(tmp_path, [("user", "make the login page use the new logo"), *steps[1:]]) == []


@pytest.mark.parametrize(
    "report",
    [
        "the staging site still shows last week's prices after the deploy",
        "the thumbnails look weird, half of them are identical",
        "checkout returns PAYMENT_TIMEOUT for some orders since monday",
    ],
)
def test_a_root_cause_of_a_symptom_the_user_described_and_agreed_to_fix(
    tmp_path: Path, report: str
) -> None:
    """A symptom without a word of failing is a failure too; the user's "ok do that"
    between the explanation and the change leaves the explanation standing."""
    explained = (
        "The image cache keys on the file name only, so every variant of an upload gets the "
        "same key and the first one written wins."
    )
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", report),
            ("bash", ("python scripts/cache_stats.py", "keys: 120 variants: 480", False)),
            ("assistant", explained),
            ("user", "ok do that"),
            ("edit", "app/cache.py"),
            ("bash", ("pytest tests/test_cache.py -q", "4 passed", False)),
        ],
    )
    assert (draft.kind, draft.text) == ("root_cause", explained)


def test_a_root_cause_stands_while_the_user_asks_what_to_do_about_it(tmp_path: Path) -> None:
    explained = (
        "The worker reads the queue URL once at import time, so the value you set on the "
        "running pod never reaches it until the next deploy."
    )
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "the worker still sends jobs to the old queue after I changed the env"),
            ("assistant", explained),
            ("user", "argh. so what do we do, we change it often"),
            ("assistant", "Reading it on each send: small change, and no restart needed."),
            ("edit", "worker/config.py"),
            ("bash", ("pytest tests/test_worker.py -q", "3 passed", False)),
        ],
    )
    assert (draft.kind, draft.text) == ("root_cause", explained)


def test_a_one_off_task_said_with_we_now_is_no_rule(tmp_path: Path) -> None:
    assert (
        drafts_of(
            tmp_path,
            [
                (
                    "user",
                    "Please update the README install section, we now publish to PyPI as "
                    "quill, so pip install quill instead of the git URL.",
                ),
                ("edit", "README.md"),
                ("assistant", "Updated the install section."),
            ],
        )
        == []
    )


def test_a_decision_proposed_with_its_reason_and_confirmed(tmp_path: Path) -> None:
    proposal: list[Step] = [
        ("user", "Which queue should the exports use?"),
        (
            "assistant",
            "Two options: Celery or RQ. I'd go with RQ because we already run Redis.",
        ),
    ]
    (draft,) = drafts_of(tmp_path, [*proposal, ("user", "Agreed, go with RQ.")])
    assert draft.kind == "decision" and draft.message == "u1"
    assert draft.text == "I'd go with RQ because we already run Redis."
    assert draft.extra["confirmed"] == "Agreed, go with RQ."
    declined = drafts_of(tmp_path, [*proposal, ("user", "Hmm, let me think about it.")])
    assert declined == []


def test_a_decision_confirmed_after_a_question_about_it(tmp_path: Path) -> None:
    """The user asks about the proposal, the agent answers, then "fine by me": the
    decision is the proposal ("rather X than Y" its reason), not the answer."""
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "How should the report page get fresh totals?"),
            ("bash", ("ls web/src/pages", "Report.tsx", False)),
            (
                "assistant",
                "I'd rather refetch on focus than keep a socket open for one number.",
            ),
            ("user", "does refetching happen when the laptop wakes from sleep?"),
            ("assistant", "Yes: I'd use the focus event, so waking counts as a focus."),
            ("user", "fine by me, refetch on focus it is"),
        ],
    )
    assert draft.kind == "decision" and "refetch on focus than keep a socket" in draft.text


@pytest.mark.parametrize(
    "answer",
    ["works for me", "sgtm", "alright, do it", "3am it is", "3am sounds right, go ahead"],
)
def test_a_decision_confirmed_in_other_words(tmp_path: Path, answer: str) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("bash", ("ls jobs", "nightly.py", False)),
            ("assistant", "I'd move the job to 3am because the backups finish by then."),
            ("user", answer),
        ],
    )
    assert draft.kind == "decision" and "backups finish by then" in draft.text


@pytest.mark.parametrize(
    "proposal",
    [
        "I'd put the retry in the http client, which holds the connection pool already.",
        "I'd run it in the release job right after the build: the deploy job has no registry "
        "credentials at all.",
        "I'd name the bucket assets-{env}, so staging and prod never share uploads.",
    ],
)
def test_a_decision_whose_reason_is_a_clause_after_it(tmp_path: Path, proposal: str) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "Where should the retry go?"),
            ("assistant", proposal),
            ("user", "yes do that"),
        ],
    )
    assert (draft.kind, draft.text) == ("decision", proposal)


def test_a_decision_quotes_the_agents_pick_not_the_list_of_ways(tmp_path: Path) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "The import job got slow."),
            (
                "assistant",
                "Two ways out: batch the inserts, or drop the index during the load, since the "
                "table is rebuilt anyway. I'd batch the inserts in chunks of 1000, because it "
                "keeps the index and is a small change.",
            ),
            ("user", "Yes, go ahead."),
        ],
    )
    assert draft.kind == "decision" and draft.text.startswith("I'd batch the inserts")


def test_a_yes_after_an_unrelated_question_confirms_nothing(tmp_path: Path) -> None:
    assert (
        drafts_of(
            tmp_path,
            [
                ("bash", ("ls web/src/pages", "Report.tsx", False)),
                ("assistant", "I'd rather refetch on focus than keep a socket open."),
                ("user", "what's the staging url again?"),
                ("assistant", "It is staging.example.test."),
                ("user", "ok thanks"),
            ],
        )
        == []
    )


def test_a_decision_keeps_the_question_of_options_it_answers(tmp_path: Path) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("bash", ("pytest", "1 failed", True)),
            (
                "assistant",
                "Should I only trim the email column, or trim every text column on import? "
                "I'd do every column: they all come from the same hand-typed sheet.",
            ),
            ("user", "yes every column"),
        ],
    )
    assert draft.kind == "decision"
    assert "trim every text column on import" in draft.text


def test_the_option_the_user_picks_by_number_is_the_decision(tmp_path: Path) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "How do we stop the nightly job from overlapping?"),
            (
                "assistant",
                "A few options:\n\n1. A file lock, simple but it breaks across hosts.\n"
                "2. A Postgres advisory lock, which works across hosts since they share the "
                "database.\n3. Redis SETNX with a TTL.",
            ),
            ("user", "Option 2 it is."),
        ],
    )
    assert draft.kind == "decision"
    assert draft.text.startswith("A Postgres advisory lock, which works across hosts")


def test_a_rule_after_a_lead_in_and_a_correction_with_what_to_do_instead(
    tmp_path: Path,
) -> None:
    rule, correction = drafts_of(
        tmp_path,
        [
            (
                "user",
                "Before you start on the exporter: from now on, always run ruff format first.",
            ),
            ("assistant", "I'll hard-code the date format in the export."),
            (
                "user",
                "Please don't hard-code formats. Dates go through Intl.DateTimeFormat with the "
                "user's locale. Then deploy it to staging.",
            ),
        ],
    )
    assert rule.kind == "rule" and "always run ruff format first" in rule.text
    assert correction.kind == "correction"
    assert correction.text == (
        "Please don't hard-code formats. Dates go through Intl.DateTimeFormat with the user's "
        "locale."
    )


def test_a_note_the_agent_flags(tmp_path: Path) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "Add the FEATURE_EXPORT setting."),
            ("edit", "app/settings.py"),
            ("assistant", "Done. Note that the dev server must be restarted after changing .env."),
        ],
    )
    assert draft.kind == "note" and draft.memory_type == "discovery"
    assert draft.text == "Note that the dev server must be restarted after changing .env."
    assert draft.title == "The dev server must be restarted after changing .env"
    assert draft.guard is None  # a note is no rule


@pytest.mark.parametrize(
    ("said", "note"),
    [
        (
            "Done. Note for the next person changing the format: the fixtures are generated "
            "from schema.json, not by hand.",
            "the fixtures are generated from schema.json",
        ),
        (
            "Done, tests pass. SCHEMA_VERSION in store.py has to be raised with every change "
            "to the format.",
            "SCHEMA_VERSION in store.py has to be raised with every change",
        ),
        (
            "Done. Heads up for debugging later: the retries happen in the sidecar, so the "
            "app log shows only the final failure.",
            "the retries happen in the sidecar",
        ),
        (
            "Done. Side note: the build nodes default to the old compiler module, so load "
            "gcc/13 first.",
            "the build nodes default to the old compiler module",
        ),
        (
            "Done. Be careful with scripts/reindex.sh later: it skips documents that exist.",
            "it skips documents that exist",
        ),
        (
            "All three tests pass. For later: the renderer rethrows, so any missing value "
            "throws instead of rendering blank.",
            "any missing value throws instead of rendering blank",
        ),
        (
            "Tests pass. Note the generated SQL: the column gets its default without a table "
            "rewrite, so no backfill is needed.",
            "without a table rewrite",
        ),
    ],
)
def test_a_note_for_whoever_comes_next(tmp_path: Path, said: str, note: str) -> None:
    drafts = drafts_of(tmp_path, [("user", "Change the export format."), ("assistant", said)])
    assert [(d.kind, note in d.text) for d in drafts] == [("note", True)]


def test_codex_and_gemini_sessions_are_drafted_too(tmp_path: Path) -> None:
    codex = codex_rollout(
        tmp_path / "rollout.jsonl",
        SESSION,
        "/app",
        [
            ("user", "Log the retries."),
            ("assistant", "I'll add print calls."),
            ("user", "Don't use print in library code. Use the logger."),
        ],
    )
    (draft,) = draft_lessons(list(read_messages(codex, "codex")), session=SESSION, agent="codex")
    assert (draft.kind, draft.message) == ("correction", "3")
    assert draft.text == "Don't use print in library code. Use the logger."
    gemini = gemini_session(tmp_path / "session.jsonl", SESSION, GEMINI_NOTE)
    (note,) = draft_lessons(list(read_messages(gemini, "gemini")), session=SESSION, agent="gemini")
    assert (note.kind, note.message) == ("note", "m2")


GEMINI_NOTE = [
    ("m1", "user", "Bump the upload size."),
    ("m2", "gemini", "Keep in mind that nginx caps uploads before the app sees them."),
]


def codex_rollout(path: Path, session: str, cwd: str, turns: list[tuple[str, str]]) -> Path:
    """A Codex rollout file of ``(role, text)`` messages, in Codex's own JSONL shape."""
    items: list[tuple[str, dict[str, Any]]] = [("session_meta", {"id": session, "cwd": cwd})]
    for role, text in turns:
        block = "input_text" if role == "user" else "output_text"
        content = [{"type": block, "text": text}]
        items.append(("response_item", {"type": "message", "role": role, "content": content}))
    path.write_text(
        "".join(
            json.dumps({"timestamp": "2026-05-01T10:00:00Z", "type": t, "payload": p}) + "\n"
            for t, p in items
        )
    )
    return path


def gemini_session(path: Path, session: str, turns: list[tuple[str, str, str]]) -> Path:
    """A Gemini CLI session file of ``(id, type, content)`` records (type: user or gemini)."""
    records: list[dict[str, str]] = [
        {"sessionId": session, "projectHash": "ab", "startTime": "2026-05-01T10:00:00Z"}
    ]
    for second, (identity, kind, content) in enumerate(turns, start=1):
        stamp = f"2026-05-01T10:00:{second:02d}Z"
        records.append({"id": identity, "timestamp": stamp, "type": kind, "content": content})
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def drafts_after_work(tmp_path: Path, said: str) -> list[Any]:
    """The drafts of ``said`` told just after the agent's edit, and taken as said."""
    return drafts_of(
        tmp_path,
        [
            ("user", "Add the invoices table."),
            ("edit", "db/schema.sql"),
            ("assistant", "The invoices table is in."),
            ("user", said),
            ("assistant", "Understood."),
        ],
    )


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "Also, migration files live under db/migrations, not in the app folder.",
            "migration files live under db/migrations",
        ),
        ("For the record: nobody merges on a Friday evening.", "nobody merges on a Friday"),
        (
            "The nightly job runs with TZ=UTC, set the same in your shell so the dates match.",
            "set the same in your shell so the dates match",
        ),
        (
            "Sure. Keep the old endpoint, etc. no breaking changes in a minor release.",
            "no breaking changes in a minor release",
        ),
    ],
)
def test_a_rule_said_without_always_or_never(tmp_path: Path, said: str, rule: str) -> None:
    """Where a thing goes, what nobody does, an instruction with its reason, "no X in Y"."""
    assert [rule in d.text for d in drafts_after_work(tmp_path, said)] == [True]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "this ships to windows too. Everything under tools/ has to build with cmake alone, "
            "check it on the windows runner",
            "Everything under tools/ has to build with cmake alone",
        ),
        (
            "ok it works but hold on. any schema change goes through a migration, add one",
            "any schema change goes through a migration",
        ),
        (
            "please undo that. we list hosts explicitly in every inventory file.",
            "we list hosts explicitly in every inventory file",
        ),
        (
            "pls no setters. immutable records only in this codebase, make the fields final",
            "immutable records only in this codebase",
        ),
    ],
)
def test_a_rule_said_by_its_scope(tmp_path: Path, said: str, rule: str) -> None:
    """What every X must do or where any X goes, what is done "only in this codebase",
    what "we" do in every X."""
    assert [rule in d.text for d in drafts_after_work(tmp_path, said)] == [True]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "looks fine. and btw every public function needs a docstring, the docs read them",
            "every public function needs a docstring",
        ),
        (
            "sure. handlers never block the event loop, they hand slow work to the pool",
            "handlers never block the event loop",
        ),
        (
            "ok. whatever. anything we parse from user input has to go through the validator",
            "anything we parse from user input has to go through the validator",
        ),
        ("right. also: all timestamps are UTC, never local time.", "all timestamps are UTC"),
        (
            "Hmm. No raw SQL strings anywhere in this repo, they skip the query builder.",
            "No raw SQL strings anywhere in this repo",
        ),
    ],
)
def test_a_rule_typed_in_lower_case_or_said_by_what_never_happens(
    tmp_path: Path, said: str, rule: str
) -> None:
    """Sentences typed without capitals are sentences; "X needs a Y", "Xs never do Y", "all
    X are Y, never Z", "no X anywhere in this repo" are rules."""
    assert [rule in d.text for d in drafts_after_work(tmp_path, said)] == [True]


def test_a_correction_after_a_hesitation_keeps_its_lower_case_reason(tmp_path: Path) -> None:
    (draft,) = drafts_after_work(
        tmp_path,
        "hmm no, don't call random() in the seed script. if someone reruns it the ids "
        "would change. take them from the fixture file",
    )
    assert draft.kind == "correction" and "if someone reruns it" in draft.text


def test_a_correction_asking_politely_for_another_way_instead(tmp_path: Path) -> None:
    (draft,) = drafts_after_work(
        tmp_path,
        "Ah, please keep it in db/views.sql instead. In the schema file the view is dropped "
        "whenever the tables are rebuilt.",
    )
    assert draft.kind == "correction" and "In the schema file the view" in draft.text


def test_a_redirect_saying_what_the_agents_way_ignores(tmp_path: Path) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "Show the report dates."),
            ("bash", ("cat report.py", "now = datetime.now()", False)),
            ("assistant", "I'll format datetime.now() as the report date."),
            (
                "user",
                "that has the same problem. Use the clock helper — datetime.now() ignores the "
                "account's time zone",
            ),
        ],
    )
    assert draft.kind == "correction" and "Use the clock helper" in draft.text


def test_a_redirect_with_its_reason_is_a_correction_whole(tmp_path: Path) -> None:
    """Just after the agent's edit: what goes wrong with its way, then what to do
    instead, with no correction word first: the message is the correction."""
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "Cache the exchange rates."),
            ("edit", "rates.py"),
            ("assistant", "I cache them in a module-level dict."),
            (
                "user",
                "we run four gunicorn workers. a dict per process fails to share anything "
                "between them. use the redis cache instead",
            ),
        ],
    )
    assert draft.kind == "correction"
    assert "fails to share anything" in draft.text and "use the redis cache" in draft.text


def test_a_one_off_request_after_an_edit_is_no_correction(tmp_path: Path) -> None:
    assert (
        drafts_of(
            tmp_path,
            [
                ("user", "Cache the exchange rates."),
                ("edit", "rates.py"),
                ("assistant", "Done, they are cached for an hour."),
                ("user", "nice. rename the helper to cached_rates while you are there"),
            ],
        )
        == []
    )


@pytest.mark.parametrize(
    "said",
    [
        "the build still fails on main too. check the CI logs",
        "hm, no errors in the console either. can you look at the network tab",
        "can you go through the logs and find the first timeout",
        "Also, you need to add the migration",
    ],
)
def test_a_report_or_request_after_a_tool_call_is_no_lesson(tmp_path: Path, said: str) -> None:
    assert (
        drafts_of(
            tmp_path,
            [
                ("user", "Why is the dashboard empty?"),
                ("bash", ("npm run build", "built in 2.1s", False)),
                ("assistant", "The build passes; the page renders no rows."),
                ("user", said),
            ],
        )
        == []
    )


def test_a_correction_after_an_interjection_keeps_what_to_do(tmp_path: Path) -> None:
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "How many orders failed today?"),
            ("bash", ("psql $PROD_URL -c 'select 1'", "FATAL: no pg_hba.conf entry", True)),
            (
                "user",
                "yikes, please don't query prod from here. Reporting queries go through the "
                "read replica.",
            ),
        ],
    )
    assert draft.kind == "correction"
    assert "Reporting queries go through the read replica" in draft.text


EXPLAINED = (
    "The scheduler keeps one timer per tenant in memory, and the deploy restarts it with an "
    "empty table, so every tenant waits for its first full interval again."
)


@pytest.mark.parametrize(
    "report",
    [
        "the digest job stopped sending mails since this morning's deploy",
        "the settings form resets to its defaults every time I reopen it",
        "the dashboard only shows the totals, no per-team numbers at all",
        "the beta banner is gone locally but on staging it's still there",
        "why does the first export after a deploy take a minute?",
        "api p99 is way up since friday, the ledger calls are hanging",
        "two workers sometimes send the same invoice twice",
        "the cleanup script deletes files it shouldnt",
        "our node doesnt get any scans from the new driver",
        "push notifications are not arriving on iOS, getToken() returns null",
    ],
)
def test_a_root_cause_of_a_symptom_told_in_other_words(tmp_path: Path, report: str) -> None:
    """What stopped, resets, shows only part, is still there, or a "why": a failure the
    user reports, which the agent's account and the change after it answer."""
    drafts = drafts_of(
        tmp_path,
        [
            ("user", report),
            ("assistant", EXPLAINED),
            ("edit", "app/scheduler.py"),
            ("bash", ("pytest tests/test_scheduler.py -q", "5 passed", False)),
        ],
    )
    assert [(d.kind, d.text) for d in drafts] == [("root_cause", EXPLAINED)]


def test_a_root_cause_the_user_confirms_works_now(tmp_path: Path) -> None:
    """No command ran after the change: the user saying it works now is the pass."""
    steps: list[Step] = [
        ("user", "the settings form resets to its defaults every time I reopen it"),
        ("assistant", EXPLAINED),
        ("edit", "app/scheduler.py"),
    ]
    (draft,) = drafts_of(tmp_path, [*steps, ("user", "ok that works now, they stay. thx")])
    assert (draft.kind, draft.text) == ("root_cause", EXPLAINED)
    assert drafts_of(tmp_path, [*steps, ("user", "hmm, still the same")]) == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            "please no retries in the client, that just hides the outage. let the caller decide",
            "let the caller decide",
        ),
        (
            "pls not --force, it wipes the teammates' branches. rebase and push normally",
            "rebase and push normally",
        ),
    ],
)
def test_a_correction_that_starts_with_please_no(tmp_path: Path, said: str, kept: str) -> None:
    drafts = drafts_after_work(tmp_path, said)
    assert [(d.kind, kept in d.text) for d in drafts] == [("correction", True)]


def test_a_correction_that_tells_the_agent_how_things_really_work(tmp_path: Path) -> None:
    """The agent announced a plan; the user answers that it does not work that way and
    how it does: a correction, though it starts like neither "no" nor an instruction."""
    told = (
        "the proxy doesn't read a file at all, you change its routes by posting them to "
        "its admin api. no reload needed"
    )
    steps: list[Step] = [
        ("user", "route /docs to the new docs container"),
        ("bash", ("ls /etc/edge", "ls: cannot access '/etc/edge': No such file", True)),
        ("assistant", "There is no /etc/edge. I'll create /etc/edge/routes.yaml and reload."),
    ]
    (draft,) = drafts_of(tmp_path, [*steps, ("user", told)])
    assert draft.kind == "correction" and "you change its routes by posting" in draft.text
    for reply in ("it doesn't matter where, go ahead", "there isn't one yet, so yes please"):
        assert drafts_of(tmp_path, [*steps, ("user", reply)]) == [], reply


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "good. and from now on the release notes are written in docs/changes.md by "
            "whoever merges",
            "the release notes are written in docs/changes.md",
        ),
        (
            "thanks. every migration we merge carries a down step so we can roll back a bad deploy",
            "every migration we merge carries a down step",
        ),
        (
            "cool. btw in this library nothing writes to stdout, ever. use the logger",
            "in this library nothing writes to stdout",
        ),
    ],
)
def test_a_rule_said_as_how_things_are_done(tmp_path: Path, said: str, rule: str) -> None:
    """A fact about the work said to stand ("from now on"), what every X does and why,
    what nothing in this project does."""
    assert [rule in d.text for d in drafts_after_work(tmp_path, said)] == [True]


def test_a_note_cut_short_by_a_macro_quotes_what_follows(tmp_path: Path) -> None:
    """A note's cue with almost nothing after it ("a join!" read as a sentence's end)
    is quoted with the sentence that carries it."""
    said = (
        "Done. Keep in mind for this crate: once a join! future is dropped mid-read, the "
        "bytes it had read are gone."
    )
    drafts = drafts_of(tmp_path, [("user", "Fix the relay."), ("assistant", said)])
    assert [(d.kind, "the bytes it had read are gone" in d.text) for d in drafts] == [
        ("note", True)
    ]


@pytest.mark.parametrize(
    "said",
    [
        "not now, never mind the cleanup, I'll do it with ops next week",
        "skip it for today, never mind the backfill",
    ],
)
def test_putting_something_off_is_no_rule(tmp_path: Path, said: str) -> None:
    assert drafts_after_work(tmp_path, said) == []


def test_the_task_that_opens_a_session_is_no_rule_for_its_reason(tmp_path: Path) -> None:
    """ "Write X and run it so we can see Y" asks for this session's work: no rule."""
    steps: list[Step] = [
        ("user", "write a load test for the search page and run it so we can see the p99"),
        ("edit", "load/search.js"),
        ("assistant", "The script is in load/search.js; p99 is 840ms."),
    ]
    assert drafts_of(tmp_path, steps) == []


def test_a_command_failing_again_otherwise_is_explained_by_what_came_after(
    tmp_path: Path,
) -> None:
    """The first change got the command past its first error, to another: the root cause
    is the explanation of the error the last change fixed."""
    second = (
        "The lockfile pins esbuild for linux-x64 only, so on the arm runners the install "
        "finds no binary; the lockfile has to list both platforms."
    )
    (draft,) = drafts_of(
        tmp_path,
        [
            ("bash", ("npm ci --omit=dev", "npm error Unknown option: --omit-dev", True)),
            (
                "assistant",
                "The option is spelled --omit=dev since npm 9, the old form was removed, so the "
                "CI step fails before it installs anything.",
            ),
            ("edit", ".ci/install.sh"),
            ("bash", ("npm ci", "Error: esbuild: no prebuilt binary for linux-arm64", True)),
            ("assistant", second),
            ("edit", "package-lock.json"),
            ("bash", ("npm ci", "added 412 packages in 9s", False)),
        ],
    )
    assert (draft.kind, draft.text) == ("root_cause", second)


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "yes. so: whenever you add a dependency, regenerate the lock file and commit it in "
            "the same PR, otherwise CI installs the old set",
            "whenever you add a dependency, regenerate the lock file",
        ),
        (
            "ok that did it. but next time: on staging always run the migration dry-run first "
            "and show me the plan",
            "on staging always run the migration dry-run first",
        ),
    ],
)
def test_a_rule_for_every_time_or_for_one_place(tmp_path: Path, said: str, rule: str) -> None:
    """ "Whenever you X, do Y", and "on staging always …": rules."""
    assert [rule in d.text for d in drafts_after_work(tmp_path, said)] == [True]


def test_whenever_you_are_ready_is_no_rule(tmp_path: Path) -> None:
    assert drafts_after_work(tmp_path, "nice. whenever you're ready, deploy it to staging") == []


def test_a_correction_after_a_but_keeps_its_reason(tmp_path: Path) -> None:
    """ "Sure, but make it X, not Y", and why: a correction, quoted with its reason."""
    drafts = drafts_after_work(
        tmp_path,
        "ok but make it `uv pip compile`, not pip-compile. the lock has to carry hashes "
        "for the mirror",
    )
    assert [(d.kind, "the lock has to carry hashes" in d.text) for d in drafts] == [
        ("correction", True)
    ]


def test_a_note_is_quoted_with_the_sentence_that_goes_on_with_it(tmp_path: Path) -> None:
    said = (
        "Done. Worth knowing for later: the importer is idempotent only per batch. The "
        "checksum table is what keeps re-runs from double counting, so it has to stay."
    )
    drafts = drafts_of(tmp_path, [("user", "Speed up the importer."), ("assistant", said)])
    assert [(d.kind, "The checksum table is what keeps re-runs" in d.text) for d in drafts] == [
        ("note", True)
    ]


GENERATED = (
    "The client package is generated from openapi.yaml, and the generated copy still has "
    "the old field names, so the build sees types that no longer match the server."
)


@pytest.mark.parametrize(
    "fix",
    [
        [
            ("bash", ("make api-client", "generated 14 files", False)),
            ("bash", ("npm run build", "built", False)),
        ],
        [("bash", ("make api-client && npm run build && echo ok", "built\nok", False))],
    ],
)
def test_a_root_cause_fixed_by_a_command_not_an_edit(tmp_path: Path, fix: list[Step]) -> None:
    """The change may be a command (regenerating, installing, ``git add``) run between the
    explanation and the rerun, alone or as the rerun's first part."""
    drafts = drafts_of(
        tmp_path,
        [
            ("bash", ("npm run build", "error TS2339: Property 'total' does not exist", True)),
            ("bash", ("git status --short", "", False)),
            ("assistant", GENERATED),
            *fix,
        ],
    )
    assert [(d.kind, d.text) for d in drafts] == [("root_cause", GENERATED)]


def test_a_rerun_after_only_looking_confirms_nothing(tmp_path: Path) -> None:
    steps: list[Step] = [
        ("bash", ("npm run build", "error TS2339: Property 'total' does not exist", True)),
        ("assistant", GENERATED),
        ("bash", ("cd web && git status --short && npm run build", "built", False)),
    ]
    assert drafts_of(tmp_path, steps) == []


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "ty. regenerate the client with make api whenever the schema changes, the app "
            "ships whatever is checked in",
            "regenerate the client with make api whenever the schema changes",
        ),
        (
            "nice. fyi every endpoint we add needs rate limit config in gateway.yml, reviewers "
            "check it",
            "every endpoint we add needs rate limit config",
        ),
    ],
)
def test_a_rule_for_every_time_it_happens_or_every_thing_added(
    tmp_path: Path, said: str, rule: str
) -> None:
    assert [rule in d.text for d in drafts_after_work(tmp_path, said)] == [True]


def test_what_happens_every_time_is_a_report_not_a_rule(tmp_path: Path) -> None:
    said = "In the app my cart empties every time I switch tabs."
    assert [d.kind for d in drafts_after_work(tmp_path, said)] != ["rule"]


def test_a_decision_that_picks_an_option_by_its_label(tmp_path: Path) -> None:
    """ "(a) … (b) … I'd do (a)." then "agree with a": the option (a) is quoted."""
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "the nightly join is stuck on one task"),
            (
                "assistant",
                "Options: (a) drop the null keys before the join and add them back after. "
                "(b) Salt the key and replicate the small side. (b) is general but heavier. "
                "I'd do (a).",
            ),
            ("user", "agree with a, go"),
        ],
    )
    assert draft.kind == "decision" and "drop the null keys before the join" in draft.text


def test_a_decision_whose_pick_names_the_way_described_before_it(tmp_path: Path) -> None:
    described = (
        "The other way is to keep the settings as a value object and store it as a JSON "
        "column on accounts, loaded with the account."
    )
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "where should account settings live?"),
            (
                "assistant",
                "A settings table with a foreign key is flexible but needs a join. "
                f"{described} Settings have no identity of their own, so I'd go with the "
                "JSON column.",
            ),
            ("user", "yes json column"),
        ],
    )
    assert draft.kind == "decision" and described in draft.text


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "cool. fyi LOG_LEVEL must stay at info for release builds, debug ones blow past "
            "the flash",
            "LOG_LEVEL must stay at info for release builds",
        ),
        (
            "Very good. Please use Decimal everywhere for money amounts in this project, no "
            "floats.",
            "use Decimal everywhere for money amounts in this project",
        ),
        (
            "great. results should go to /scratch not home, put that in whatever you write "
            "from now",
            "results should go to /scratch not home",
        ),
    ],
)
def test_a_rule_said_with_must_or_for_the_whole_project(
    tmp_path: Path, said: str, rule: str
) -> None:
    assert [rule in d.text for d in drafts_after_work(tmp_path, said)] == [True]


@pytest.mark.parametrize(
    "said",
    [
        "nice. rename formatMoney to formatCurrency everywhere in src, and run the tests",
        "the export job is slow since monday. we run 6 instances on k8s, the repo is here",
        "On the CMS we need an embargo date on articles, so stories must not appear early.",
        "The shop theme needs the variant picker to show swatches instead of the dropdown.",
    ],
)
def test_a_task_for_everywhere_and_background_on_how_we_run_are_no_rules(
    tmp_path: Path, said: str
) -> None:
    """A one-off task over the whole code is no rule, nor what the opening message says
    about how the work runs."""
    opening = [("user", said), ("edit", "src/a.ts"), ("assistant", "Done.")]
    assert [d.kind for d in drafts_of(tmp_path, opening)] == []


def test_a_plan_the_user_approves_is_a_decision(tmp_path: Path) -> None:
    """The agent lays out a plan with its reasons and asks "Is that fine?": the reasoned
    steps are the decision (not the question)."""
    (draft,) = drafts_of(
        tmp_path,
        [
            ("user", "add a ward_code column to admissions, 80M rows"),
            (
                "assistant",
                "Plan:\n- V215 adds the column as nullable, which is a metadata-only change.\n"
                "- The backfill runs as a batched job instead of one UPDATE, because one "
                "UPDATE on 80M rows would hold its locks for the whole run.\n\nIs that fine?",
            ),
            ("user", "yes that's the way"),
        ],
    )
    assert draft.kind == "decision" and "The backfill runs as a batched job" in draft.text
    assert "Is that fine" not in draft.text


@pytest.mark.parametrize(
    ("proposal", "answer", "held"),
    [
        (
            "I'd put the stop in its own node that watches a heartbeat. A separate process "
            "means a crash in the monitor can't take the stop down with it.",
            "yes lets do that, separate node",
            "A separate process means a crash in the monitor",
        ),
        (
            "Two ways: a subscriber in the ORM, or a database trigger. I recommend the trigger. "
            "Subscribers only fire when the change goes through the ORM; the nightly import "
            "would bypass them.",
            "Agreed, the trigger it is.",
            "Subscribers only fire when the change goes through the ORM",
        ),
        (
            "I propose an incremental model with a merge on delivery_id. Merge on the key "
            "handles late rows, and the lookback covers late claims. Sound right?",
            "yes merge + lookback is good",
            "Merge on the key handles late rows",
        ),
        (
            "I'd switch the page back to the shortcode checkout, because the age check uses "
            "the classic hooks too.",
            "oh wow the age check is broken too?? ok yes go back to the shortcode checkout",
            "I'd switch the page back to the shortcode checkout",
        ),
    ],
)
def test_a_decision_told_with_its_why_after_it_or_a_yes_after_a_question(
    tmp_path: Path, proposal: str, answer: str, held: str
) -> None:
    """A pick whose reason is the next sentence ("X means …", or no cue word at all after
    "I recommend X."), a plan that asks "Sound right?", and a yes after the user's own
    surprised question."""
    drafts = drafts_of(
        tmp_path,
        [("user", "what should we do here?"), ("assistant", proposal), ("user", answer)],
    )
    assert [(d.kind, held in d.text) for d in drafts] == [("decision", True)]


def test_an_explanation_that_starts_with_a_step_is_still_the_explanation(
    tmp_path: Path,
) -> None:
    said = (
        "Adding the column bumped the schema version, but there is no migration registered, "
        "so the app refuses to open an old database on update. I'll add an auto-migration."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "the app crashes on start after the update"),
            ("bash", ("adb logcat -d | grep Exception", "IllegalStateException: migration", True)),
            ("assistant", said),
            ("edit", "app/AppDatabase.kt"),
            ("bash", ("./gradlew connectedDebugAndroidTest", "BUILD SUCCESSFUL", False)),
        ],
    )
    assert [(d.kind, "there is no migration registered" in d.text) for d in drafts] == [
        ("root_cause", True)
    ]


FLAPPING = (
    "The manifest in git sets replicas: 3 while the autoscaler scales the deployment to 7, "
    "so after every sync the live object differs from git again. I'll ignore the field."
)


@pytest.mark.parametrize(
    ("after", "explained"),
    [
        ([], FLAPPING),
        (
            [
                (
                    "assistant",
                    "Right. An autoscaler owns the replica count of its deployment, so a count "
                    "in git fights it on every sync; removing it from the manifest ends that.",
                )
            ],
            "An autoscaler owns the replica count of its deployment",
        ),
    ],
)
def test_an_explanation_stands_when_the_user_turns_the_fix_around(
    tmp_path: Path, after: list[Step], explained: str
) -> None:
    """ "No, don't paper over it, delete the field": the fix changes, the explanation stays
    (unless the agent explains anew)."""
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "argocd keeps showing the payments app OutOfSync after every sync"),
            ("assistant", FLAPPING),
            ("user", "no, dont paper over it. delete replicas from the deployment yaml"),
            *after,
            ("edit", "apps/payments/deployment.yaml"),
            ("bash", ("argocd app diff payments", "", False)),
            ("bash", ("argocd app sync payments", "synced", False)),
        ],
    )
    assert [(d.kind, explained in d.text) for d in drafts if d.kind == "root_cause"] == [
        ("root_cause", True)
    ]


def test_a_root_cause_of_the_problem_the_session_opened_with(tmp_path: Path) -> None:
    """An opening message that asks for no work reports the session's problem, in words
    no list of failures holds; the agent's account of it is the root cause. A guess
    ("maybe …, I'll check") is no account."""
    explained = (
        "The save goes to res://, which is read-only in an exported build, so every write "
        "fails on the phone. Saves have to go to user:// instead."
    )
    steps: list[Step] = [
        ("user", "players on android are losing their save after the update. godot 4.2"),
        ("bash", ("cat scripts/save_manager.gd", 'const SAVE_PATH := "res://slot1.save"', False)),
        ("assistant", explained),
        ("edit", "scripts/save_manager.gd"),
        ("bash", ("godot --headless --export-debug Android build/app.apk", "done", False)),
    ]
    drafts = drafts_of(tmp_path, steps)
    assert [(d.kind, d.text) for d in drafts] == [("root_cause", explained)]
    guess = "The layer looks fine; maybe the group names differ, I'll check the consumer."
    assert drafts_of(tmp_path, [*steps[:2], ("assistant", guess), *steps[3:]]) == []
    # An opening message that asks for the work gives no report to explain.
    asked = ("user", "can you move the saves to a folder per player. godot 4.2")
    assert drafts_of(tmp_path, [asked, *steps[1:]]) == []


def test_a_rule_for_this_project_said_after_the_work(tmp_path: Path) -> None:
    rule = (
        "for this project please keep the timeout at 15 s max, the solar panel is small and "
        "each failed connect costs us a lot."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "add a timeout to the wifi connect in main.py"),
            ("edit", "main.py"),
            ("assistant", "Connected on the first try after a wake."),
            ("user", f"great. {rule}"),
        ],
    )
    assert [(d.kind, d.text) for d in drafts] == [("rule", rule)]


@pytest.mark.parametrize(
    ("said", "held"),
    [
        (
            "the 4095 part is right but please keep everything in volts as float in the "
            "firmware, the backend converts to mV.",
            "keep everything in volts as float",
        ),
        (
            "actually other way round. the project standard is synchronous active-high reset "
            "everywhere, the FPGA team wants it for timing.",
            "the project standard is synchronous active-high reset everywhere",
        ),
    ],
)
def test_a_correction_of_part_of_the_plan_or_by_the_projects_standard(
    tmp_path: Path, said: str, held: str
) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "fix the battery reading in firmware/src/sensors.cpp"),
            ("bash", ("cat firmware/src/sensors.cpp", "float readBattery() {}", False)),
            (
                "assistant",
                "The divisor should be 4095 for 12-bit reads. I'll have readBattery return "
                "millivolts as an int and make the second block async too.",
            ),
            ("user", said),
        ],
    )
    assert [(d.kind, held in d.text) for d in drafts] == [("correction", True)]


def test_a_decision_offered_as_a_question_and_accepted(tmp_path: Path) -> None:
    offered = (
        "Since nobody has a save yet, this is a cheap moment to add a version key to the save "
        "dictionary, so the loader can tell old saves apart later."
    )
    steps: list[Step] = [
        ("user", "the saves work now, thanks"),
        ("assistant", f"{offered} Want me to add it?"),
        ("user", "yes do it, start at 1"),
    ]
    (draft,) = drafts_of(tmp_path, steps)
    assert (draft.kind, draft.text) == ("decision", f"{offered}\n\nAgreed: yes do it, start at 1")
    # Offering a step ("Want me to run the tests?") proposes no decision.
    routine = [steps[0], ("assistant", "Since the fix is in, want me to run the tests?"), steps[2]]
    assert drafts_of(tmp_path, routine) == []


def test_an_option_picked_by_number_is_quoted_with_the_agents_reason_for_it(
    tmp_path: Path,
) -> None:
    why = (
        "I'd go with 1: keying on the editor version matters because a cache from another "
        "version gets reimported completely anyway."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "the pipeline takes 55 min, mostly importing assets. ideas?"),
            (
                "assistant",
                "Two choices:\n1. cache Library/ in S3, keyed on the editor version, or\n"
                f"2. switch to persistent agents.\n{why}",
            ),
            ("user", "agreed, option 1"),
        ],
    )
    assert [(d.kind, why in d.text) for d in drafts] == [("decision", True)]


def test_a_short_rule_is_quoted_with_the_sentence_that_says_it(tmp_path: Path) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "add a step that pushes the image"),
            ("edit", "Jenkinsfile"),
            ("assistant", "Added the login and the push."),
            (
                "user",
                "we never do that. any sh with a secret uses single quotes so the shell "
                "expands the env var",
            ),
        ],
    )
    assert [(d.kind, "any sh with a secret uses single quotes" in d.text) for d in drafts] == [
        ("rule", True)
    ]


def test_a_symptom_that_happens_whenever_something_fires_is_no_rule(tmp_path: Path) -> None:
    said = (
        "in SettingsView the haptics toggle flips back to on every 30s, basically whenever "
        "the sync timer fires in the parent."
    )
    assert drafts_of(tmp_path, [("user", said), ("edit", "SettingsView.swift")]) == []


@pytest.mark.parametrize(
    "report",
    ["but now the tag step blows up, see build 413", "flash is gone. still getting this though"],
)
def test_a_root_cause_of_a_failure_reported_in_other_words(tmp_path: Path, report: str) -> None:
    explained = (
        "JsonSlurper returns a LazyMap, which isn't Serializable, and it's still held in a "
        "local when the next step runs, so the checkpoint fails."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "add a tag stage to the Jenkinsfile"),
            ("edit", "Jenkinsfile"),
            ("assistant", "Added the stage."),
            ("user", report),
            ("assistant", explained),
            ("edit", "Jenkinsfile"),
            (
                "bash",
                ("jenkins-validate Jenkinsfile", "Jenkinsfile successfully validated.", False),
            ),
        ],
    )
    assert [(d.kind, d.text) for d in drafts] == [("root_cause", explained)]


@pytest.mark.parametrize(
    "report",
    [
        "ugh :( the tag step blows up, see build 413",
        "(the tag step blows up now, see build 413)",
        "after `sh(returnStdout: true` the tag step blows up",
        "the tag step (the one after the build) blows up now",
    ],
)
def test_a_parenthesis_that_is_no_requests_aside_leaves_the_report_standing(
    tmp_path: Path, report: str
) -> None:
    """Only a request's closed aside holds its reason; a frown, a call left open or a
    report written wholly in parentheses still reports the failure."""
    test_a_root_cause_of_a_failure_reported_in_other_words(tmp_path, report)


def test_an_explanation_after_the_user_turned_the_fix_around_and_the_agent_looked_again(
    tmp_path: Path,
) -> None:
    """The agent's first account was wrong; after the user's "salting is overkill" it ran
    a command to look (not a change) and explained anew: that account is the cause."""
    anew = (
        "The events side is fed by the explicit repartition, so Spark adds no shuffle of its "
        "own, because AQE's skew handling only applies to shuffles the planner inserted."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "the daily join went from 20 min to over 2h this week"),
            ("bash", ("cat EnrichEvents.scala", ".repartition(400, $account_id)", False)),
            (
                "assistant",
                "Classic skew: one account has most of the events, so one partition of the "
                "join gets them all. I'll salt the join key.",
            ),
            (
                "user",
                "salting is overkill. AQE is on, it should already be splitting that "
                "partition. check why it isnt kicking in before rewriting the join",
            ),
            (
                "bash",
                ("spark-submit job.jar --explain | grep Exchange", "REPARTITION_BY_NUM", False),
            ),
            ("assistant", anew),
            ("edit", "EnrichEvents.scala"),
            ("bash", ("sbt assembly", "success", False)),
        ],
    )
    causes = [d.text for d in drafts if d.kind == "root_cause"]
    assert causes == [anew]
    corrections = [d.text for d in drafts if d.kind == "correction"]
    assert len(corrections) == 1 and "check why it isnt kicking in" in corrections[0]


def test_a_correction_that_says_where_not_to_do_it(tmp_path: Path) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "move the pdf to a queue"),
            ("edit", "CheckoutController.php"),
            ("assistant", "The controller now dispatches the job inside the transaction."),
            (
                "user",
                "not inside the DB::transaction, dispatch it after commit. the worker picks "
                "it up before the row is committed",
            ),
        ],
    )
    assert [(d.kind, d.text.startswith("not inside the DB::transaction")) for d in drafts] == [
        ("correction", True)
    ]


OPTIONS = (
    "Options:\n\n- one_for_all: any crash restarts all three.\n- rest_for_one with the "
    "children reordered: a conn crash restarts everything started after it.\n\n"
)


@pytest.mark.parametrize(
    ("proposal", "answer", "held"),
    [
        (
            f"{OPTIONS}I'd pick rest_for_one with the connection started first; it encodes "
            "exactly the dependency you have.",
            "rest_for_one, agreed",
            "I'd pick rest_for_one with the connection started first",
        ),
        (
            "There are two options: database or redis. I'd use the redis driver on its own "
            "database index, so a cache:clear can't wipe pending jobs.",
            "redis yes, separate db like you said",
            "I'd use the redis driver on its own database index",
        ),
        (
            "Options:\n1. Raise concurrency, which helps a bit.\n2. Move the import rows to "
            "low.\n3. Move the job to a dedicated critical queue weighted above default, for "
            "user-facing work.\n\nI'd do 3.",
            "3, weight critical 5 default 2 low 1",
            "Move the job to a dedicated critical queue",
        ),
        (
            "Only a private endpoint lets us keep public access off. So I'd go with a private "
            "endpoint so public network access can stay disabled.",
            "yes private endpoint",
            "I'd go with a private endpoint",
        ),
    ],
)
def test_a_decision_confirmed_by_naming_the_pick(
    tmp_path: Path, proposal: str, answer: str, held: str
) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "the consumers keep a dead channel. ideas?"),
            ("assistant", proposal),
            ("user", answer),
        ],
    )
    assert [(d.kind, held in d.text) for d in drafts] == [("decision", True)]


@pytest.mark.parametrize(
    ("said", "note"),
    [
        (
            "Done. One more thing worth keeping in mind: the channel call has the default "
            "5000 ms timeout, so consumers starting during a reconnect crash.",
            "the default 5000 ms timeout",
        ),
        (
            "Plan is clean. Heads-up before this is applied from the runner: the container "
            "is managed through the data plane. A runner outside the vnet gets a 403 on "
            "refresh of the container.",
            "runner outside the vnet gets a 403",
        ),
    ],
)
def test_a_note_flagged_in_other_words(tmp_path: Path, said: str, note: str) -> None:
    drafts = drafts_of(tmp_path, [("user", "Change the export format."), ("assistant", said)])
    assert [(d.kind, note in d.text) for d in drafts] == [("note", True)]


RATE_LIMIT = (
    "An in-memory Map wouldn't work on Deploy: each region has its own memory.\n\n"
    "Options: Deno KV, built into Deploy, with atomic ops. Or Upstash Redis, which has a "
    "ready-made library, but it's another service.\n\nI'd use KV: an atomic "
    "check-and-increment per ip and minute."
)


@pytest.mark.parametrize(
    ("answer", "agreed"),
    [
        ("kv. no new vendors for this", "Agreed: kv. no new vendors for this"),
        ("ok go with KV. we can add redis later", "Agreed: ok go with KV. we can add redis later"),
    ],
)
def test_a_decision_picked_by_name_is_quoted_with_the_persons_words(
    tmp_path: Path, answer: str, agreed: str
) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "POST /subscribe is getting spammed, ideas?"),
            ("assistant", RATE_LIMIT),
            ("user", answer),
        ],
    )
    assert [d.kind for d in drafts] == ["decision"]
    (draft,) = drafts
    assert draft.text.startswith("I'd use KV") and draft.text.endswith(agreed)
    # A bare yes adds nothing to quote.
    (plain,) = drafts_of(
        tmp_path,
        [
            ("user", "POST /subscribe is getting spammed"),
            ("assistant", RATE_LIMIT),
            ("user", "yes"),
        ],
    )
    assert "Agreed" not in plain.text


def test_a_root_cause_and_the_choice_agreed_in_one_message(tmp_path: Path) -> None:
    explained = (
        "For geometry columns ST_DWithin measures distance in the units of the SRID, and "
        "4326 is lon/lat, so the unit is degrees. 5000 is read as 5000 degrees, which covers "
        "the whole planet."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "the stores within 5km endpoint returns literally every store"),
            ("bash", ("cat app/queries/nearby.sql", "ST_DWithin(geom, point, :radius_m)", False)),
            (
                "assistant",
                f"{explained}\n\nTwo ways to fix it:\n1. Cast to geography, in metres.\n"
                "2. Transform to a UTM zone.\n\nI'd do geography with an expression index.",
            ),
            ("user", "geography + index, agreed. we're not reprojecting anything"),
            ("edit", "app/queries/nearby.sql"),
            ("bash", ("pytest tests/test_nearby.py", "4 passed", False)),
        ],
    )
    assert [(d.kind, d.text.split("\n")[0]) for d in drafts] == [
        ("root_cause", explained),
        ("decision", "I'd do geography with an expression index."),
    ]


def test_the_explanation_stands_while_the_user_questions_the_fix(tmp_path: Path) -> None:
    explained = (
        "The deploy inserted a new activity before SendWelcomeEmail, so on replay the "
        "command doesn't match the recorded event. The fix is to gate the new step with "
        "GetVersion, so old histories replay the old path."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "after yesterday's deploy the onboarding workflows are stuck, ERROR panics"),
            ("assistant", explained),
            (
                "user",
                "cant we just restart the stuck ones on the new step? GetVersion branches stay "
                "in the code forever",
            ),
            (
                "assistant",
                "We could, but a restarted execution begins from the top and sends the "
                "welcome email again. GetVersion lets the in-flight ones finish untouched.",
            ),
            ("user", "fine, GetVersion. resending welcome mails is worse than branch cruft"),
            ("edit", "internal/workflows/onboarding.go"),
            ("bash", ("go test ./internal/workflows/...", "ok", False)),
        ],
    )
    kinds = {d.kind: d.text for d in drafts}
    assert "command doesn't match the recorded event" in kinds["root_cause"]
    assert "resending welcome mails is worse" in kinds["decision"]


def test_a_build_run_from_another_folder_confirms_the_fix(tmp_path: Path) -> None:
    explained = (
        "In Tauri 2 every plugin command goes through the capability ACL, and fs:default "
        "only grants reading the app's own resource directories."
    )
    drafts = drafts_of(
        tmp_path,
        [
            (
                "user",
                "the open recent notes feature doesn't do anything, the console shows an error",
            ),
            ("assistant", explained),
            ("edit", "src-tauri/capabilities/default.json"),
            ("bash", ("cd src-tauri && cargo tauri build --debug", "Finished", False)),
        ],
    )
    assert [(d.kind, d.text) for d in drafts] == [("root_cause", explained)]


def test_an_explanation_is_quoted_up_to_five_sentences(tmp_path: Path) -> None:
    said = [
        "The key part is the log line.",
        "In dev, the game runs with named mappings.",
        "The built jar runs against intermediary names.",
        "Your mixins.json has no refmap entry, so Mixin loads no refmap.",
        "I'll add it.",
    ]
    drafts = drafts_of(
        tmp_path,
        [
            ("bash", ("./gradlew runClient", "InvalidInjectionException: tick", True)),
            ("assistant", " ".join(said)),
            ("edit", "src/main/resources/mod.mixins.json"),
            ("bash", ("./gradlew runClient", "started", False)),
        ],
    )
    assert [(d.kind, "no refmap entry" in d.text) for d in drafts] == [("root_cause", True)]


@pytest.mark.parametrize(
    ("said", "note"),
    [
        (
            "Done. One thing to know with createFeature: selectors exist only for top-level "
            "keys. Optional keys left out of the state get none. So every field goes into "
            "initialState, using null.",
            "every field goes into initialState",
        ),
        (
            "Ok, leaving it. One thing I did and want to flag: the uint4 loads assume the input "
            "is 16-byte aligned.",
            "assume the input is 16-byte aligned",
        ),
    ],
)
def test_a_note_goes_on_for_up_to_three_sentences(tmp_path: Path, said: str, note: str) -> None:
    drafts = drafts_of(tmp_path, [("user", "Change the export format."), ("assistant", said)])
    assert [(d.kind, note in d.text) for d in drafts] == [("note", True)]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "👍 and when you add tests for that module put them in test/parser/ with alcotest, "
            "not inline ppx_expect.",
            "put them in test/parser/ with alcotest",
        ),
        (
            "and mode: restart. every motion automation in this house runs in restart mode, "
            "otherwise a second motion event while the delay runs gets dropped",
            "every motion automation in this house runs in restart mode",
        ),
    ],
)
def test_a_rule_for_when_or_for_every_one_with_its_reason(
    tmp_path: Path, said: str, rule: str
) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "fix the build"),
            ("edit", "lib/parser/lexer_utils.ml"),
            ("assistant", "Builds now."),
            ("user", said),
        ],
    )
    assert [(d.kind, rule in d.text) for d in drafts] == [("rule", True)]


def test_a_redirect_that_says_how_the_other_way_went_wrong(tmp_path: Path) -> None:
    said = (
        "make it one automation with trigger ids and a choose block. two automations for "
        "on/off is how we ended up with the kitchen light fighting itself last year"
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "hallway light on motion, off 3 min later"),
            ("edit", "packages/hallway.yaml"),
            ("user", said),
        ],
    )
    assert [(d.kind, d.text) for d in drafts] == [("correction", said)]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "yes. and fwiw we treat any 8-327 as an error here, i'd rather the build fail.",
            "we treat any 8-327 as an error here",
        ),
        (
            "good. all procs in this db get schema-qualified names for every object.",
            "all procs in this db get schema-qualified names",
        ),
        (
            "works but match the others. every script starts with set -euo pipefail.",
            "every script starts with set -euo pipefail",
        ),
        ("great. no Await anywhere in actor code, period.", "no Await anywhere in actor code"),
        (
            "and the action name: everything we register gets the fernleaf_ prefix. "
            "export_bookings will collide with some other plugin eventually",
            "export_bookings will collide",
        ),
        (
            "works. ok rule for this codebase: nothing blocking inside HAL callbacks, just set "
            "a flag and get out",
            "nothing blocking inside HAL callbacks",
        ),
        (
            "yes. and in general every task in this repo has to be safe to run twice.",
            "every task in this repo has to be safe to run twice",
        ),
    ],
)
def test_a_rule_said_as_how_things_are_done_here(tmp_path: Path, said: str, rule: str) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "fix the build"),
            ("edit", "src/main.c"),
            ("assistant", "Builds now."),
            ("user", said),
        ],
    )
    assert [(d.kind, rule in d.text) for d in drafts] == [("rule", True)]


@pytest.mark.parametrize(
    ("said", "held"),
    [
        (
            "nope, nodeIntegration stays off and contextIsolation on. expose a readConfig "
            "through contextBridge",
            "nodeIntegration stays off",
        ),
        (
            "no @@ERROR checks please, that pattern misses stuff. TRY/CATCH with THROW in the "
            "catch, like every other proc in here",
            "TRY/CATCH with THROW in the catch",
        ),
        (
            "retries arent really the problem, the next run picks up where it left off. just "
            "set retry: false on this one",
            "just set retry: false on this one",
        ),
        (
            "hmm not pull-push on everything. make the default policy pull and let only one "
            "job push",
            "make the default policy pull",
        ),
    ],
)
def test_a_correction_that_refuses_the_way_taken(tmp_path: Path, said: str, held: str) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "make it work"),
            ("assistant", "I'll set it up the simplest way, with retries and a shared cache."),
            ("edit", "config.yml"),
            ("user", said),
        ],
    )
    assert [(d.kind, held in d.text) for d in drafts] == [("correction", True)]


def test_a_failure_word_asked_to_be_avoided_or_denied_reports_nothing(tmp_path: Path) -> None:
    """ "check nothing downstream breaks" asks for work; "no hang" says none happened."""
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "bump zod to 3.23.8 and check nothing downstream breaks"),
            ("bash", ("pnpm add zod@3.23.8", "+ zod 3.23.8", False)),
            (
                "assistant",
                "zod is at 3.23.8 in the schemas package; typecheck, tests and build pass for "
                "it and everything that depends on it.",
            ),
            ("user", "works, no hang. commit it"),
            ("bash", ("git add package.json && git commit -qm 'bump zod'", "a91f0c2", False)),
        ],
    )
    assert drafts == []


@pytest.mark.parametrize("aside", ["(it doesnt include shipping", "(it leaves out (say) shipping"])
def test_a_failure_word_in_a_requests_parenthesised_reason_reports_nothing(
    tmp_path: Path, aside: str
) -> None:
    """ "rename it (the name is wrong)" asks for a rename: the agent's plan for it is no
    root cause, though a command passes after it; a pair nested in the aside too."""
    drafts = drafts_of(
        tmp_path,
        [
            (
                "user",
                f"rename cartTotalProvider to cartSubtotalProvider everywhere {aside} "
                "so the name is wrong), then regen",
            ),
            ("bash", ("grep -rn cartTotal lib", "lib/cart/cart_providers.dart:18", False)),
            (
                "assistant",
                "Four references. The provider is generated from the `cartTotal` function, "
                "so I'll rename the function to `cartSubtotal` and update the call sites, "
                "then run build_runner.",
            ),
            ("edit", "lib/cart/cart_providers.dart"),
            ("bash", ("dart run build_runner build", "Succeeded after 6.5s", False)),
            ("assistant", "Renamed in all four places; analyzer clean and cart tests pass."),
        ],
    )
    assert drafts == []


@pytest.mark.parametrize(
    ("answer", "held"),
    [
        ("go with 2. new stuff in coroutines, convert old ones when we touch them", "New code"),
        (
            "mobile app only, it does infinite scroll. admin has its own endpoint. do the "
            "cursor thing",
            "Switch this endpoint to CursorPagination",
        ),
    ],
)
def test_an_option_picked_by_its_number_or_its_name_later_in_the_answer(
    tmp_path: Path, answer: str, held: str
) -> None:
    proposal = (
        "Options:\n1. Big-bang convert all endpoints now.\n2. New code and anything we "
        "touch goes coroutines, which carries no migration risk.\n3. Switch this endpoint "
        "to CursorPagination ordered by id. Every page is an index range scan."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "the endpoints are slow and unreadable"),
            ("assistant", proposal),
            ("user", answer),
        ],
    )
    assert [(d.kind, held in d.text, answer in d.text) for d in drafts] == [
        ("decision", True, True)
    ]


def test_a_label_answer_keeps_its_label_and_the_explanation_before_it(tmp_path: Path) -> None:
    explained = (
        "The SSID and PSK are read at compile time, and the hub build runs in CI where those "
        "vars aren't set, so the firmware ships with no networks."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "the device comes up without wifi after a firmware update"),
            ("bash", ("ssh nerves.local 'VintageNet.get_configuration(\"wlan0\")'", "[]", False)),
            ("assistant", explained),
            ("user", "right. so how do we fix it, i dont want creds in the repo"),
            (
                "assistant",
                "Two options: (a) set them as CI secrets, or (b) provision wifi once per "
                "device, which keeps credentials out of the image.",
            ),
            ("user", "b. creds shouldnt live in the image"),
            ("edit", "config/target.exs"),
            ("bash", ("mix firmware", "Firmware built successfully!", False)),
        ],
    )
    kinds = {d.kind: d.text for d in drafts}
    assert kinds["root_cause"] == explained
    assert kinds["decision"].endswith("Agreed: b. creds shouldnt live in the image")


def test_a_note_for_before_it_ships(tmp_path: Path) -> None:
    said = (
        "Tests pass. Before this goes to prod: the dead-letter topic doesn't exist yet. It "
        "needs at least as many partitions as the topic it serves."
    )
    drafts = drafts_of(tmp_path, [("user", "add a dead-letter topic"), ("assistant", said)])
    assert [(d.kind, "needs at least as many partitions" in d.text) for d in drafts] == [
        ("note", True)
    ]


def test_agreeing_with_a_correction_is_no_new_explanation(tmp_path: Path) -> None:
    """After "no, don't paper over it", the agent's "Makes sense, X only changes when …"
    takes the user's word; the explanation before it stays the root cause."""
    explained = (
        "The deployment template has a random rollme annotation, and Argo renders the chart "
        "with helm template every time it compares, so the live object never matches."
    )
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "argocd keeps showing payments-api as OutOfSync right after every sync"),
            ("bash", ("argocd app diff payments-api", "rollme: x8Kq2", False)),
            ("assistant", f"{explained} I'll add an ignoreDifferences entry for it."),
            ("user", "no, don't paper over it. just delete the rollme annotation"),
            (
                "assistant",
                "Makes sense, checksum/config only changes when the ConfigMap content changes. "
                "Removing the annotation.",
            ),
            ("edit", "charts/payments-api/templates/deployment.yaml"),
            ("bash", ("helm template payments-api charts/payments-api", "ok", False)),
        ],
    )
    causes = [d.text for d in drafts if d.kind == "root_cause"]
    assert len(causes) == 1 and causes[0].startswith(explained)


def test_what_a_correction_says_would_break_is_no_failure(tmp_path: Path) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "add a snoozedUntil field to the reminders slice"),
            ("assistant", "I'll store snoozedUntil as a Date in the slice."),
            ("edit", "src/features/reminders/remindersSlice.ts"),
            (
                "user",
                "no, dont store Date objects in redux. the serializable check will yell and it "
                "breaks persistence. everything in the store is ISO strings",
            ),
            (
                "assistant",
                "Right, sorry, dueAt is an ISO string and the sort relies on that with "
                "localeCompare. I'll make snoozedUntil a string.",
            ),
            ("edit", "src/features/reminders/remindersSlice.ts"),
            ("bash", ("npx vitest run src/features/reminders", "passed", False)),
        ],
    )
    assert [d.kind for d in drafts] == ["correction"]


# ------------------------------------------------------------------ what is no lesson


def test_small_talk_gives_nothing(tmp_path: Path) -> None:
    assert (
        drafts_of(
            tmp_path,
            [
                ("user", "Hi! How are you today?"),
                ("assistant", "Good, thanks! How can I help?"),
                ("user", "Nothing yet. I always need two coffees on Mondays, honestly."),
                ("assistant", "Ha, enjoy them."),
                (
                    "user",
                    "I'd rather be hiking instead of sitting in meetings. Don't worry about it.",
                ),
                ("assistant", "Sounds like a plan for the weekend. Should we start later?"),
                ("user", "Yes, thanks a lot, see you!"),
            ],
        )
        == []
    )


def test_advice_in_talk_alone_is_no_note(tmp_path: Path) -> None:
    """ "it's worth seeing a doctor" in a chat with no tool run is advice, not a note; the
    same words flag a note where work was done, and "note that" flags one anywhere."""
    advice = "If the soreness persists it's worth seeing a physio before buying a new keyboard."
    chat: list[Step] = [("user", "my wrist hurts after long days of typing"), ("assistant", advice)]
    assert drafts_of(tmp_path, chat) == []
    flagged = "Note that a split keyboard takes a few weeks to get used to, so keep the old one."
    assert [d.kind for d in drafts_of(tmp_path, [chat[0], ("assistant", flagged)])] == ["note"]
    expiry = (
        "Done. The bucket has no lifecycle rule, so old cache keys pile up at 6 GB each; "
        "when you upgrade the editor it's worth adding an expiry."
    )
    work: list[Step] = [("user", "cache the build"), ("edit", "ci.yml"), ("assistant", expiry)]
    assert [(d.kind, "old cache keys pile up" in d.text) for d in drafts_of(tmp_path, work)] == [
        ("note", True)
    ]


def test_small_talk_naming_a_culprit_gives_no_root_cause(tmp_path: Path) -> None:
    """A root cause is found in work: with no tool run in the session, "the usual
    culprit" of a houseplant's trouble is talk, not a lesson."""
    assert (
        drafts_of(
            tmp_path,
            [
                ("user", "my fern keeps dropping leaves, I water it every few days"),
                (
                    "assistant",
                    "Watering on a fixed schedule is the usual culprit with ferns in "
                    "winter. The root cause is often soggy soil, so check it first.",
                ),
                ("user", "ha, ok, thanks"),
            ],
        )
        == []
    )


def test_small_talk_that_says_never_or_always_gives_nothing(tmp_path: Path) -> None:
    """No tool ran and the agent took nothing as an instruction: talk of one's week,
    however normative it sounds, is no rule."""
    assert (
        drafts_of(
            tmp_path,
            [
                ("user", "back from the offsite, totally wiped"),
                ("assistant", "Welcome back! How was it?"),
                ("user", "Fine. Never eaten so much paella in one week, to be honest"),
                ("assistant", "That sounds like a good week. Any highlights?"),
                (
                    "user",
                    "A talk on hiring. Our team always interviews on Thursdays when nobody "
                    "has any energy left",
                ),
                ("assistant", "That might be worth raising. Want to start on something?"),
                ("user", "later, talk soon"),
                ("assistant", "Enjoy the rest of Porto then!"),
                ("user", "Never slept so little in one week, honestly"),
                ("assistant", "Right, that sounds rough. Get some rest."),
                ("user", "No, it was Lisbon, not Porto. Never been to Porto."),
            ],
        )
        == []
    )


def test_routine_narration_and_tool_output_give_nothing(tmp_path: Path) -> None:
    assert (
        drafts_of(
            tmp_path,
            [
                ("user", "Run the tests and fix what fails."),
                ("assistant", "I'll run the tests now."),
                (
                    "bash",
                    (
                        "pytest -q",
                        "Note that this warning is worth knowing: never do X\n1 failed",
                        True,
                    ),
                ),
                ("assistant", "Let me check the failing test."),
                ("edit", "utils/slug.py"),
                ("bash", ("pytest -q", "89 passed", False)),
                ("assistant", "All 89 tests pass now. Done."),
                ("user", "Great, thanks!"),
            ],
        )
        == []
    )


def test_the_same_lesson_said_twice_is_one_draft(tmp_path: Path) -> None:
    drafts = drafts_of(
        tmp_path,
        [
            ("user", "Always run ruff format before you commit."),
            ("assistant", "Noted."),
            ("user", "Remember: always run ruff format before you commit!"),
            ("assistant", "Yes."),
        ],
    )
    assert [d.message for d in drafts] == ["u0"]


def test_a_long_session_stays_within_its_caps(tmp_path: Path) -> None:
    chatter = "We use pnpm here, never npm, because the lockfile is pnpm-lock.yaml and " * 40
    steps: list[Step] = []
    for n in range(300):
        a, b = f"module{n}x", f"wrapper{n}y"
        steps += [
            ("user", f"No, never edit {a}; always add {b} instead. {chatter}"),
            ("assistant", f"Note that {a} must be restarted after {b} changes."),
        ]
    messages = claude_session(tmp_path, steps)
    drafts = draft_lessons(messages, session=SESSION, agent="claude")
    assert len(drafts) == 20
    assert draft_lessons(messages, session=SESSION, agent="claude", limit=500)[49:50]
    assert len(draft_lessons(messages, session=SESSION, agent="claude", limit=500)) == 50
    for draft in drafts:
        assert len(draft.text) <= MAX_QUOTE_CHARS and len(draft.title) <= MAX_TITLE_CHARS
        assert len(draft.files) <= 10
    assert draft_lessons(messages, session=SESSION, agent="claude", limit=0) == []


text_strategy = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300
) | st.sampled_from(
    ["No, never do that.", "Note that x must be restarted.", "Yes, go with it.", "```", "", "?"]
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.builds(
            TranscriptMessage,
            agent=st.sampled_from(["claude", "codex", "gemini"]),
            session=st.just(SESSION),
            time=st.none(),
            role=st.sampled_from(["user", "assistant", "tool", "summary", "other"]),
            text=text_strategy,
            tools=st.lists(st.sampled_from(["Bash", "Edit", "shell", ""]), max_size=2).map(tuple),
            files=st.lists(st.text(max_size=20), max_size=2).map(tuple),
            commands=st.lists(st.text(max_size=30), max_size=2).map(tuple),
            failed=st.booleans(),
            edited=st.lists(st.text(max_size=20), max_size=2).map(tuple),
            uuid=st.none() | st.text(max_size=8),
            parent=st.none() | st.text(max_size=8),
            sidechain=st.booleans(),
        ),
        max_size=30,
    ),
    st.integers(min_value=-5, max_value=100),
)
def test_drafting_never_raises_and_every_draft_is_well_formed(
    messages: list[TranscriptMessage], limit: int
) -> None:
    drafts = draft_lessons(messages, session=SESSION, agent="claude", limit=limit)
    assert len(drafts) <= max(0, limit)
    for draft in drafts:
        assert draft.kind in LESSON_KINDS and draft.text.strip() and draft.title
        assert draft.message
    assert draft_lessons(messages, session=SESSION, agent="claude", limit=limit) == drafts


# ------------------------------------------------------------------ the [extract] command


def extract_command(tmp_path: Path, answer: str, *, status: int = 0) -> str:
    """A program that keeps what it read in ``given.json`` and prints ``answer``."""
    script = tmp_path / "extract.py"
    given = tmp_path / "given.json"
    script.write_text(
        "import sys\n"
        f"open({str(given)!r}, 'w').write(sys.stdin.read())\n"
        f"print({answer!r})\n"
        f"sys.exit({status})\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return f"{sys.executable} {script}"


STEPS: list[Step] = [
    ("user", "Add zod."),
    ("assistant", "I'll use npm."),
    ("user", "No, we use pnpm here, never npm."),
]


def test_the_extract_command_drafts_instead(tmp_path: Path) -> None:
    answer = json.dumps(
        [
            {
                "kind": "rule",
                "title": "pnpm, not npm",
                "text": "we use pnpm here",
                "files": ["package.json"],
                "message": "u2",
            }
        ]
    )
    user_config(f"[extract]\ncommand = {json.dumps(extract_command(tmp_path, answer))}\n")
    messages = claude_session(tmp_path, STEPS)
    (draft,) = draft_session(messages, session=SESSION, agent="claude", config=config.load(None))
    assert (draft.kind, draft.title, draft.text, draft.message) == (
        "rule",
        "pnpm, not npm",
        "we use pnpm here",
        "u2",
    )
    assert draft.files == ("package.json",) and draft.extra == {"drafted_by": "command"}
    given = json.loads((tmp_path / "given.json").read_text())
    assert given["session"] == SESSION and given["agent"] == "claude"
    assert [m["id"] for m in given["messages"]] == ["u0", "u1", "u2"]
    assert given["messages"][2] == {
        "id": "u2",
        "role": "user",
        "text": "No, we use pnpm here, never npm.",
    }


def test_the_extract_command_is_given_no_secret_and_no_private_span(tmp_path: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    user_config(f"[extract]\ncommand = {json.dumps(extract_command(tmp_path, '[]'))}\n")
    steps: list[Step] = [
        ("user", f"Deploy with the token {token} please."),
        ("assistant", "I'll run the deploy."),
        ("bash", ("./deploy.sh", "<private>host db7.internal</private> failed: denied", True)),
        ("user", "No, <private>the vault is in room 9.\nNever</private> deploy on Fridays."),
    ]
    messages = claude_session(tmp_path, steps)
    draft_session(messages, session=SESSION, agent="claude", config=config.load(None))
    given = (tmp_path / "given.json").read_text()
    assert "[REDACTED:github-token]" in given and "failed: denied" in given
    assert token not in given and "db7" not in given and "room 9" not in given


@pytest.mark.parametrize(
    ("answer", "status", "why"),
    [
        ('[{"kind": "rule", "text": "x", "message": "u2"}]', 3, "exited with status 3"),
        ("not json at all", 0, "not JSON"),
        ('{"drafts": []}', 0, "no known kind"),
        ('[{"kind": "rant", "text": "x", "message": "u2"}]', 0, "no known kind"),
        ('[{"kind": "rule", "text": "x", "message": "u99"}]', 0, "names no message"),
        ('[{"kind": "rule", "text": " ", "message": "u2"}]', 0, "has no text"),
    ],
)
def test_a_failing_extract_command_falls_back_with_one_line_logged(
    tmp_path: Path, isolated_env: Path, answer: str, status: int, why: str
) -> None:
    user_config(
        f"[extract]\ncommand = {json.dumps(extract_command(tmp_path, answer, status=status))}\n"
    )
    messages = claude_session(tmp_path, STEPS)
    drafts = draft_session(messages, session=SESSION, agent="claude", config=config.load(None))
    assert drafts == draft_lessons(messages, session=SESSION, agent="claude")
    assert drafts[0].kind == "correction"
    (line,) = (isolated_env / ".cache" / "mem" / "failures.log").read_text().splitlines()
    _when, source, reason = line.split("\t")
    assert source == "claude session end: extract command"
    assert why in reason and reason.endswith("mem's own drafting was used")


def test_an_extract_command_past_its_timeout_is_stopped_and_falls_back(
    tmp_path: Path, isolated_env: Path
) -> None:
    script = tmp_path / "slow.py"
    script.write_text("import time\ntime.sleep(30)\n")
    command = json.dumps(f"{sys.executable} {script}")
    user_config(f'[extract]\ncommand = {command}\ntimeout = "1s"\n')
    messages = claude_session(tmp_path, STEPS)
    drafts = draft_session(messages, session=SESSION, agent="claude", config=config.load(None))
    assert [d.kind for d in drafts] == ["correction"]
    log = (isolated_env / ".cache" / "mem" / "failures.log").read_text()
    assert "timed out" in log


def _json_containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Lists and objects of ``inner``, with the keys a drafting command's answer uses."""
    keys = st.sampled_from(["kind", "text", "title", "files", "message", "x"])
    return st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5)


@settings(max_examples=100, deadline=None)
@given(
    st.text(max_size=400)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        _json_containers,
        max_leaves=12,
    ).map(json.dumps)
)
def test_any_answer_of_the_command_gives_drafts_or_says_why_not(answer: str) -> None:
    from memcli.capture.lessons.extract_command import ExtractFailed, parse_answer

    try:
        drafts = parse_answer(answer, ids={"u2", "7"}, session=SESSION, agent="claude", limit=20)
    except ExtractFailed as exc:
        assert str(exc)
    else:
        assert all(d.kind in LESSON_KINDS and d.message in {"u2", "7"} for d in drafts)


def test_a_stores_own_settings_never_set_the_extract_command(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "mem.toml").write_text('[extract]\ncommand = "rm -rf /"\ntimeout = "5s"\n')
    settings_in_effect = config.read(store)
    assert settings_in_effect.values["extract"]["command"] == ""
    assert settings_in_effect.values["extract"]["timeout"] == 5


# ------------------------------------------------------------------ the labelled set


def test_the_labelled_sessions_meet_the_targets() -> None:
    """eval/lessons: ≥ 80% of marked lessons drafted, ≥ 70% of drafts hold one, none from
    small talk; and every marked lesson's phrase is in the message it names."""
    path = REPO_ROOT / "eval" / "lessons" / "run.py"
    spec = importlib.util.spec_from_file_location("eval_lessons_run", path)
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    labels = run.load()
    assert len(labels) >= 30 and sum(len(label["lessons"]) for label in labels) >= 60
    assert run.check(labels) == []
    result = run.measure(labels)
    found, marked = sum(result["found"].values()), sum(result["marked"].values())
    right, drafted = sum(result["right"].values()), sum(result["drafted"].values())
    assert found / marked >= 0.8 and right / drafted >= 0.7, (found, marked, right, drafted)
    assert result["sessions"]["small talk"] >= 4 and result["per_category"]["small talk"] == 0
