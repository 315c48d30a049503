"""Likely secrets never reach git unless someone says so deliberately.

Every token here is assembled at run time, so this file itself holds nothing a
secret scanner (mem's or a code host's) would flag.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memcli.core.secrets import redact, redacted_head, report, scan

from .conftest import git, mem, mem_json

AWS = "AKIA" + "Q3EXAMPLE7WXYZ42"
GITHUB = "ghp_" + "a1B2c3D4e5F6" * 3
GITHUB_FINE = "github_pat_" + "11ABCDEFG0" * 2 + "_" + "xY9" * 20
GITLAB = "glpat-" + "Zx8_Kq2-Lm4Np6Rs7Tu9"
SLACK = "xoxb-" + "1234567890-0987654321-" + "AbCdEfGhIjKlMnOp"
SLACK_HOOK = "https://hooks.slack.com/services/" + "T0001/B0002/" + "Xy7Zq9Wv3Ut5"
OPENAI = "sk-proj-" + "Ab3De6Gh9Jk2Mn5Pq8St1Vw4"
ANTHROPIC = "sk-ant-api03-" + "Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9" * 3
JWT = (
    "eyJ"
    + "hbGciOiJIUzI1NiJ9"
    + ".eyJ"
    + "zdWIiOiIxMjM0NTY3ODkwIn0"
    + "."
    + "dozjgNryP4J3jVmNHl0w5N"
)
STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
GOOGLE = "AIza" + "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"
KEY_BLOCK = (
    "-----BEGIN OPENSSH " + "PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACDz0ZhHXyKzVo7Qqm3e5x0Bf8d2mKpQnR1sT4uV6wX7yAAAAJgAAAAAAAAA\n"
    "-----END OPENSSH " + "PRIVATE KEY-----"
)
PASSWORD = "Zq8#kP2!vL9@mN4"

FOUND = [
    # (text, rule that must find it, the secret part)
    (f"use {AWS} for the bucket", "aws-access-key", AWS),
    (f"export GH_TOKEN={GITHUB}", "github-token", GITHUB),
    (f"the fine-grained one is {GITHUB_FINE}", "github-token", GITHUB_FINE),
    (f"CI reads {GITLAB}", "gitlab-token", GITLAB),
    (f"bot token {SLACK}", "slack-token", SLACK),
    (f"alerts go to {SLACK_HOOK}", "slack-webhook", SLACK_HOOK),
    (f"OPENAI_API_KEY is {OPENAI}", "api-key", OPENAI),
    (f"claude key: {ANTHROPIC}", "api-key", ANTHROPIC),
    (f"Authorization: Bearer {JWT}", "jwt", JWT),
    (f"billing uses {STRIPE}", "stripe-key", STRIPE),
    (f"maps key {GOOGLE}", "google-api-key", GOOGLE),
    (f"the deploy key:\n{KEY_BLOCK}\nkeep it safe", "private-key", KEY_BLOCK),
    (f'password = "{PASSWORD}"', "secret-assignment", PASSWORD),
    (f"DB_PASSWORD={PASSWORD}", "secret-assignment", PASSWORD),
    (f'token: password = "{PASSWORD}"', "secret-assignment", PASSWORD),
    (f'{{"apiKey": "{PASSWORD}"}}', "secret-assignment", PASSWORD),
    ("client_secret: 9f8e7d6c5b4a3f2e1d0c", "secret-assignment", "9f8e7d6c5b4a3f2e1d0c"),
    ('authKey: "9f8e7d6c5b4a3f2e1d0c"', "secret-assignment", "9f8e7d6c5b4a3f2e1d0c"),
    ("passphrase = correcthorsebatterystaple", "secret-assignment", "correcthorsebatterystaple"),
]

NOT_SECRETS = [
    "tokenizer = unicode61",
    "max_tokens = 4096",
    "secret_key = settings.SECRET_KEY",
    "password = ${DB_PASSWORD}",
    'api_key = os.environ["OPENAI_API_KEY"]',
    "token = get_token(session)",
    "password: hunter2",
    "password: <your password here>",
    "password = changeme",
    "AUTH_TOKEN=API_TOKEN_FROM_VAULT",
    "we use sk-learn and scikit-learn-intelex-extension-module for it",
    "the AKIA prefix marks AWS access keys",
    "ghp_ tokens are GitHub personal access tokens",
    "-----BEGIN PUBLIC KEY-----",
    "FTS5 MATCH treats foo-bar as a column filter; quote each term",
    "eyJ is how base64 JSON starts",
]


@pytest.mark.parametrize(("text", "rule", "secret"), FOUND, ids=[row[1] for row in FOUND])
def test_each_kind_of_secret_is_found_and_masked(text: str, rule: str, secret: str) -> None:
    findings = list(scan(text, "text"))
    assert [(f.rule, f.secret) for f in findings] == [(rule, secret)]
    middle = secret[len(secret) // 2 :][:8]
    assert secret not in report(findings) and middle not in report(findings)
    assert secret not in redact(text) and f"[REDACTED:{rule}]" in redact(text)


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_ordinary_text_is_not_flagged(text: str) -> None:
    assert list(scan(text, "text")) == [] and redact(text) == text


def test_a_finding_names_its_line() -> None:
    (finding,) = scan(f"first line\nsecond\nkey {AWS} here", "text")
    assert finding.where == "text, line 3"
    (finding,) = scan(f"a\n{GITHUB}", "observations/2026/11/x.md")
    assert finding.where == "observations/2026/11/x.md:2"


prose = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=60)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(prose, st.sampled_from(FOUND)), max_size=8))
def test_redacted_text_holds_no_secret(pieces: list[str | tuple[str, str, str]]) -> None:
    text = " ".join(piece if isinstance(piece, str) else piece[0] for piece in pieces)
    cleaned = redact(text)
    assert list(scan(cleaned, "text")) == []
    for piece in pieces:
        if not isinstance(piece, str):
            assert piece[2] not in cleaned


# ------------------------------------------------------------- through mem


def head(store: Path) -> str:
    return git(store, "rev-parse", "HEAD").strip()


def history(store: Path) -> str:
    return git(store, "log", "--all", "-p")


def test_save_refuses_a_secret_and_stores_nothing(store: Path) -> None:
    before = head(store)
    result = mem("save", f"Deploys read {GITHUB} from CI", "--fact", f"aws {AWS}", expect=1)
    (line,) = result.stderr.strip().splitlines()
    assert "GitHub token ghp_… (40 chars) in title and text;" in line
    assert "AWS access key id AKIA… (20 chars) in fact 1" in line
    assert "--redact" in line and "--allow-secret" in line
    assert GITHUB not in result.output and AWS not in result.output
    assert head(store) == before
    assert not (store / "observations").exists()


def test_save_redact_stores_the_rest(store: Path) -> None:
    saved = mem_json(
        "save",
        "--redact",
        input=json.dumps({"text": f"Staging uses password = {PASSWORD} and port 5433"}),
    )
    assert (
        saved["narrative"] == "Staging uses password = [REDACTED:secret-assignment] and port 5433"
    )
    assert PASSWORD not in history(store)
    assert mem_json("search", "staging port")[0]["id"] == saved["id"]


def test_allow_secret_is_deliberate_and_later_updates_keep_working(store: Path) -> None:
    text = f"The sandbox key {OPENAI} is public by design"
    mem("save", text, "--key", "sandbox", "--allow-secret")
    assert OPENAI in history(store)
    # Updating another field does not ask again about the secret already stored...
    mem("save", "--key", "sandbox", "--fact", "rotated monthly")
    # ...but a new secret in the update is refused.
    refused = mem("save", "--key", "sandbox", "--fact", f"old one {ANTHROPIC}", expect=1)
    assert "sk- API key" in refused.stderr and ANTHROPIC not in refused.stderr


def test_private_spans_are_stripped_even_when_secrets_are_allowed(store: Path) -> None:
    saved = mem_json(
        "save",
        "--allow-secret",
        input=json.dumps({"text": "Login works <private>pw is hunter2</private> via SSO"}),
    )
    assert "hunter2" not in history(store) and "hunter2" not in json.dumps(saved)


def test_json_payload_and_summaries_are_scanned(store: Path) -> None:
    payload = json.dumps({"text": "Rotate keys", "facts": ["fine", f"bad {SLACK}"]})
    assert (
        "Slack token xoxb-… ("
        in mem("save", "--input", "json", "--json", input=payload, expect=1).stderr
    )
    assert "in fact 2" in mem("save", "--input", "json", "--json", input=payload, expect=1).stderr
    refused = mem("compact", "--request", "Set up CI", "--learned", f"token {GITLAB}", expect=1)
    assert "GitLab token glpat-… (26 chars) in learned" in refused.stderr
    mem("compact", "--request", "Set up CI", "--learned", f"token {GITLAB}", "--redact")
    assert GITLAB not in history(store)


def test_both_flags_at_once_are_a_usage_error(store: Path) -> None:
    result = mem("save", "x", "--redact", "--allow-secret", expect=2)
    assert "give one of --redact and --allow-secret" in result.stderr


def test_edit_refuses_a_new_secret(store: Path) -> None:
    mem("save", "Cache warming runs nightly", "--key", "warm")
    refused = mem("edit", "warm", "--set", f'facts=["uses {GOOGLE}"]', expect=1)
    assert "Google API key AIza… (39 chars) in observations/" in refused.stderr
    mem("edit", "warm", "--set", f'facts=["uses {GOOGLE}"]', "--redact")
    assert "[REDACTED:google-api-key]" in mem("show", "warm").stdout
    assert GOOGLE not in history(store)


def test_post_compact_hook_redacts_rather_than_refusing(store: Path) -> None:
    summary = f"Fixed the deploy; the new token is {GITHUB}"
    payload = json.dumps({"hook_event_name": "PostCompact", "compact_summary": summary})
    mem("hook", "claude", "PostCompact", input=payload)
    assert GITHUB not in history(store)
    assert "[REDACTED:github-token]" in mem("search", "deploy", "--kind", "summary").stdout


def test_pre_commit_hook_blocks_a_secret_added_by_hand(store: Path) -> None:
    mem("save", "Queue workers scale on depth", "--key", "queue")
    path = next((store / "observations").rglob("*.md"))
    original = path.read_text()
    path.write_text(original + f"\nThe metrics API uses {SLACK_HOOK}\n")
    git(store, "add", "-A")
    result = subprocess.run(
        ["git", "commit", "-q", "-m", "add webhook"], cwd=store, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "likely secrets: Slack webhook URL" in result.stderr
    assert SLACK_HOOK not in result.stderr
    assert SLACK_HOOK not in history(store)
    # A secret that is already committed (deliberately) does not block other edits.
    git(store, "commit", "-q", "--no-verify", "-m", "add webhook on purpose")
    path.write_text(path.read_text().replace("scale on depth", "scale on queue depth"))
    git(store, "commit", "-q", "-am", "reword")


def test_doctor_does_not_commit_a_hand_edit_that_adds_a_secret(store: Path) -> None:
    mem("save", "Billing runs nightly", "--key", "billing")
    path = next((store / "observations").rglob("*.md"))
    path.write_text(path.read_text() + f"\nThe billing key is {STRIPE}\n")
    before = head(store)
    result = mem("doctor", "--fix", expect=1)
    assert "holds likely secrets: Stripe live key sk_live_… (32 chars)" in result.stdout
    assert STRIPE not in result.output
    assert head(store) == before and STRIPE not in history(store)


# ---------------------------------------------- cuts: redacted before, never through


def words(length: int) -> str:
    """Prose of exactly ``length`` characters, ending in a space."""
    return ("lorem ipsum dolor " * (length // 18 + 1))[: length - 1] + " "


@pytest.mark.parametrize(("text", "rule", "secret"), FOUND, ids=[row[1] for row in FOUND])
@pytest.mark.parametrize("at", [0.1, 0.5, 0.9])
def test_a_cut_through_any_secret_keeps_none_of_it(
    text: str, rule: str, secret: str, at: float
) -> None:
    text = "earlier lines\n" * 3 + text + " and after it\nmore"
    limit = text.index(secret) + max(1, int(len(secret) * at))
    head = redacted_head(text, limit)
    assert len(head) <= limit and head.startswith("earlier lines\n")
    kept = secret[: limit - text.index(secret)]
    assert all(line.strip() not in head for line in kept.splitlines() if len(line.strip()) > 3)


def capture(transcript: Path, session: str) -> dict[str, object]:
    return mem_json(  # type: ignore[no-any-return]
        "capture", "session-end", "--session", session, "--transcript", str(transcript)
    )


def test_session_end_capture_redacts_a_secret_its_caps_cut_through(
    store: Path, tmp_path: Path
) -> None:
    from .test_capture import SESSION, Transcript

    t = Transcript(tmp_path / "s.jsonl")
    # A DB_PASSWORD straddling the 200-character cut of a command; GitHub tokens
    # straddling the 2,000-character cuts of the request and of the last answer.
    command = "echo " + words(180) + f'DB_PASSWORD="{PASSWORD}x1Y2z"'
    assert command.index(PASSWORD) < 200 < command.index(PASSWORD) + len(PASSWORD)
    t.user(words(1980) + GITHUB + " was leaked")
    t.tool("Bash", "ok", command=command)
    t.say(words(1990) + GITHUB)
    assert capture(t.path, SESSION)["action"] == "saved"
    stored = history(store)
    assert PASSWORD[:8] not in stored and GITHUB[:12] not in stored
    # Each section is stored once (a summary's body no longer repeats them): the request
    # and the last answer keep their marks; the command's mark is cut short by its own
    # 200-character cut, the secret gone all the same.
    assert stored.count("[REDACTED:") >= 2 and 'DB_PASSWORD=\\"[R' in stored


def test_post_compact_redacts_a_secret_at_the_200_000_character_cut(store: Path) -> None:
    summary = words(200_000 - 39) + GITHUB
    payload = json.dumps({"hook_event_name": "PostCompact", "compact_summary": summary})
    mem("hook", "claude", "PostCompact", input=payload)
    stored = history(store)
    assert "compact summary were cut" in stored
    assert GITHUB[:12] not in stored and "[REDACTED:github-token]" in stored


def test_a_derived_title_cut_through_a_secret_keeps_none_of_it(store: Path) -> None:
    # The title is the text's first 80 characters, cut inside the quoted password.
    text = f'Staging sets DB_PASSWORD="{PASSWORD} {words(90)}" for the app'
    saved = mem_json("save", "--redact", input=json.dumps({"text": text}))
    assert PASSWORD[:6] not in history(store)
    assert saved["title"].startswith('Staging sets DB_PASSWORD="[REDACTED:')


# --------------------------------------------- every field is screened, the session too


def test_a_summary_s_session_is_screened_everywhere(store: Path, tmp_path: Path) -> None:
    from .test_capture import Transcript

    refused = mem("compact", "--learned", "x", "--session", GITHUB, expect=1)
    assert "GitHub token ghp_… (40 chars) in session" in refused.stderr
    assert not (store / "summaries").exists()
    mem("compact", "--learned", "x", "--session", GITHUB, "--redact")
    payload = {"hook_event_name": "PostCompact", "compact_summary": "y", "session_id": GITLAB}
    mem("hook", "claude", "PostCompact", input=json.dumps(payload))
    t = Transcript(tmp_path / "s.jsonl", session=SLACK)
    t.user("tidy the build")
    t.say("Tidied.")
    assert capture(t.path, SLACK)["action"] == "saved"
    stored = history(store)
    assert GITHUB not in stored and GITLAB not in stored and SLACK not in stored
    summaries = mem_json("list", "--kind", "summary")
    sessions = [mem_json("show", s["id"])[0]["session"] for s in summaries]
    assert sorted(sessions) == sorted(
        ["[REDACTED:github-token]", "[REDACTED:gitlab-token]", "[REDACTED:slack-token]"]
    )


@pytest.mark.parametrize(
    "option", ["--key", "--file", "--agent", "--session", "--concept"], ids=str.lstrip
)
def test_every_field_of_save_is_screened(store: Path, option: str) -> None:
    refused = mem("save", "Deploys run nightly", option, GITHUB, expect=1)
    assert f"GitHub token ghp_… (40 chars) in {option[2:]}" in refused.stderr
    assert not (store / "observations").exists()


def test_a_key_or_agent_holding_a_secret_is_refused_even_with_redact(store: Path) -> None:
    for option in ("--key", "--agent"):
        refused = mem("save", "Deploys run nightly", option, GITHUB, "--redact", expect=1)
        assert f"a {option[2:]} cannot be redacted" in refused.stderr
        assert GITHUB not in refused.output
    assert not (store / "observations").exists()
    given = {"text": "Deploys run nightly", "files": [f"ci/{GITHUB}.yml"]}
    saved = mem_json("save", "--redact", input=json.dumps(given))
    assert saved["files"] == ["ci/[REDACTED:github-token].yml"]


def test_import_redacts_frontmatter_fields_and_names_no_file_after_a_secret(
    store: Path, tmp_path: Path
) -> None:
    row = {
        "id": "01JCZ8K3M4N5P6Q7R8S9T0V1W2",
        "kind": "observation",
        "type": "discovery",
        "title": f"The token {GITHUB} is for CI",
        "created": "2026-11-21T10:00:00Z",
        "narrative": "CI pushes tags",
        "session": GITLAB,
        "extra": {"origin": {"note": f"from {SLACK}"}},
        "path": f"observations/2026/11/{AWS}.md",
    }
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(row) + "\n")
    refused = mem("import", "jsonl", str(source), expect=1)
    assert "in session" in refused.output and "in field origin.note" in refused.output
    mem("import", "jsonl", str(source), "--redact")
    (shown,) = mem_json("show", row["id"])
    assert shown["session"] == "[REDACTED:gitlab-token]"
    assert shown["origin"] == {"note": "from [REDACTED:slack-token]"}
    stored = history(store) + git(store, "ls-files")
    assert not any(s in stored for s in (GITHUB, GITLAB, SLACK, AWS, GITHUB.lower()[:12]))


def test_edit_redacts_a_secret_in_the_frontmatter_and_the_file_still_reads(store: Path) -> None:
    mem("save", "Cache warming runs nightly", "--key", "warm")
    mem("edit", "warm", "--set", f"session={GITHUB}", "--redact")
    (shown,) = mem_json("show", "warm")
    assert shown["session"] == "[REDACTED:github-token]" and GITHUB not in history(store)
    assert "ok" in mem("reindex", "--check", "--json").stdout
