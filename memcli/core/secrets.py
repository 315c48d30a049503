"""Finding likely secrets in text before it reaches git, and redacting them.

Two kinds of rules. Tokens with a recognisable shape (private key blocks, AWS
access key ids, GitHub, GitLab and Slack tokens, ``sk-`` API keys, JWTs, ...)
are found by pattern alone. Secrets without a shape are found where text
assigns them: ``password = ...``, ``"apiKey": "..."``, ``DB_TOKEN=...``, when
the name says secret and the value looks random (long enough, Shannon entropy
of at least 3 bits a character, not a placeholder, not a variable or a call).

Findings never carry more of a secret than its public prefix: reports show
``ghp_… (40 chars)``, never the token.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

Policy = Literal["refuse", "redact", "allow"]
"""What to do with text that holds a likely secret."""

MIN_ASSIGNED_CHARS = 8
MIN_ASSIGNED_ENTROPY = 3.0
CUT_MARGIN = 512
"""Characters past a cut scanned with its last line: more than any rule needs to see a secret."""
MAX_PRIVATE_KEY_CHARS = 8192
"""A private key block (the one secret of several lines) is at most this long: 4096-bit RSA
in PEM takes about 3,300 characters."""


@dataclass(frozen=True)
class Rule:
    slug: str
    name: str
    pattern: re.Pattern[str]
    visible: int = 0
    """How many leading characters are a public prefix, safe to show."""
    accept: Callable[[str], bool] | None = None
    """A further check of the matched text (for patterns that alone are too loose)."""


def _mixed_case_and_digits(token: str) -> bool:
    body = token.split("-", 1)[-1]
    return (
        any(c.isdigit() for c in body)
        and any(c.islower() for c in body)
        and any(c.isupper() for c in body)
    )


_PRIVATE_KEY = re.compile(
    r"-----BEGIN[A-Z0-9 ]{0,30} PRIVATE KEY(?: BLOCK)?-----"
    r"(?:[A-Za-z0-9+/=\s:,.()-]*?-----END[A-Z0-9 ]{0,30} PRIVATE KEY(?: BLOCK)?-----"
    r"|(?:\s*[A-Za-z0-9+/=]{16,})*)"
)

RULES = (
    Rule("private-key", "private key", _PRIVATE_KEY, visible=0),
    Rule(
        "aws-access-key",
        "AWS access key id",
        re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b"),
        visible=4,
    ),
    Rule(
        "github-token",
        "GitHub token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255})\b"),
        visible=4,
    ),
    Rule(
        "gitlab-token",
        "GitLab token",
        re.compile(r"\bgl(?:pat|dt|rt|ptt|soat|cbt|ft|imt|oas)-[A-Za-z0-9_-]{20,}"),
        visible=6,
    ),
    Rule(
        "slack-token",
        "Slack token",
        re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}"),
        visible=5,
    ),
    Rule(
        "slack-webhook",
        "Slack webhook URL",
        re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}"),
        visible=29,
    ),
    Rule(
        "api-key",
        "sk- API key (OpenAI, Anthropic)",
        re.compile(r"\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        visible=3,
        accept=_mixed_case_and_digits,
    ),
    Rule(
        "stripe-key",
        "Stripe live key",
        re.compile(r"\b[rs]k_live_[A-Za-z0-9]{20,}"),
        visible=8,
    ),
    Rule(
        "google-api-key",
        "Google API key",
        re.compile(r"\bAIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])"),
        visible=4,
    ),
    Rule(
        "jwt",
        "JSON web token",
        re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        visible=3,
    ),
)

_SHAPED_HINT = re.compile(
    r"-----BEGIN|AKIA|ASIA|ABIA|ACCA|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|soat|cbt|ft|imt|oas)-"
    r"|xox[abposre]-|hooks\.slack\.com/|sk-|[rs]k_live_|AIza|eyJ"
)
"""What every shaped rule's match starts with: one pass rules most text out (imports)."""

_ASSIGNMENT = re.compile(
    # The value is in a lookahead, so that a rejected candidate (``token: password``)
    # does not swallow the assignment that follows it (``password = …``).
    r"""(?P<name>[A-Za-z_][A-Za-z0-9_.-]{0,60})["']?[ \t]*(?::=|=>|=|:)[ \t]*"""
    r"""(?=(?P<quote>["'`])(?P<quoted>[^"'`\n]{1,200})(?P=quote)"""
    r"""|(?P<bare>[^\s"'`,;]{1,200}))"""
)
_KEYWORD_RE = re.compile(r"(?i)pass|pwd|secret|token|key|credential")
_SECRET_WORDS = {"password", "passwd", "pwd", "passphrase", "secret", "token", "credential"}
_SECRET_PAIRS = {
    ("api", "key"),
    ("access", "key"),
    ("secret", "key"),
    ("private", "key"),
    ("auth", "key"),
}
_SECRET_JOINED = {"apikey", "accesskey", "secretkey", "privatekey", "authkey"}
_PLACEHOLDER_RE = re.compile(
    r"(?i)^(?:none|null|nil|true|false|undefined|changeme|example\w*|placeholder|"
    r"redacted|secret|password|required|optional|string|\*+|x+|\.+|<.*>|\[.*\]|your[\w-]*)$"
)
_CODE_RE = re.compile(
    r"[(){}\[\]$<>%]"  # calls, templates, ${VARS}, <placeholders>
    r"|^[A-Z][A-Z0-9_]*$"  # an environment variable's name
    r"|^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$"  # settings.SECRET_KEY
)
_WORD_SPLIT_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
ASSIGNMENT_RULE = "secret-assignment"


@dataclass(frozen=True)
class Finding:
    rule: str
    """The rule's slug, e.g. ``github-token``."""
    description: str
    where: str
    """``text, line 3``, ``title``, ``fact 2``, or a file's ``path:line``."""
    masked: str
    secret: str
    """The secret itself: compare with it, never print it."""

    def __str__(self) -> str:
        return f"{self.description} {self.masked} in {self.where}"


@dataclass(frozen=True)
class _Match:
    rule: str
    description: str
    start: int
    end: int
    masked: str


def _name_is_secret(name: str) -> bool:
    words = [w.lower() for w in _WORD_SPLIT_RE.findall(name)]
    if any(w in _SECRET_WORDS or w in _SECRET_JOINED for w in words):
        return True
    return any(pair in _SECRET_PAIRS for pair in zip(words, words[1:], strict=False))


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def _assigned_secret(value: str) -> bool:
    value = value.strip()
    return (
        len(value) >= MIN_ASSIGNED_CHARS
        and not _PLACEHOLDER_RE.match(value)
        and not _CODE_RE.search(value)
        and entropy(value) >= MIN_ASSIGNED_ENTROPY
    )


def _matches(text: str) -> list[_Match]:
    found: list[_Match] = []
    for rule in RULES if _SHAPED_HINT.search(text) else ():
        for match in rule.pattern.finditer(text):
            token = match.group(0)
            if rule.accept is not None and not rule.accept(token):
                continue
            shown = token.split("-----", 2)[1] if rule.slug == "private-key" else ""
            masked = (
                f"-----{shown}-----…" if shown else f"{token[: rule.visible]}… ({len(token)} chars)"
            )
            found.append(_Match(rule.slug, rule.name, match.start(), match.end(), masked))
    for match in _assignments(text):
        group = "quoted" if match.group("quoted") is not None else "bare"
        value = match.group(group)
        if not _name_is_secret(match.group("name")) or not _assigned_secret(value):
            continue
        masked = f"{match.group('name')} = … ({len(value)} chars)"
        found.append(
            _Match(ASSIGNMENT_RULE, "high-entropy assignment", *match.span(group), masked=masked)
        )
    return _without_overlaps(found)


def _assignments(text: str) -> Iterator[re.Match[str]]:
    """Assignments on the lines that mention a secret word (trying every line is slow).

    A line without ``=`` or ``:`` holds none, and is passed over without trying.
    """
    scanned_up_to = 0
    for keyword in _KEYWORD_RE.finditer(text):
        if keyword.start() < scanned_up_to:
            continue
        start = text.rfind("\n", 0, keyword.start()) + 1
        end = text.find("\n", keyword.end())
        end = len(text) if end < 0 else end
        if text.find("=", start, end) >= 0 or text.find(":", start, end) >= 0:
            yield from _ASSIGNMENT.finditer(text, start, end)
        scanned_up_to = end


def _without_overlaps(found: list[_Match]) -> list[_Match]:
    """Keep the first rule's match where two overlap (shaped rules come first)."""
    kept: list[_Match] = []
    for candidate in found:
        if not any(candidate.start < m.end and m.start < candidate.end for m in kept):
            kept.append(candidate)
    return sorted(kept, key=lambda m: m.start)


def scan(text: str, where: str, *, lines: bool = True) -> Iterator[Finding]:
    """Likely secrets in ``text``; ``where`` names it (``text``, ``a/b.md``)."""
    if not text:
        return
    for match in _matches(text):
        place = where
        if lines and "\n" in text:
            line = text.count("\n", 0, match.start) + 1
            place = f"{where}:{line}" if "/" in where else f"{where}, line {line}"
        yield Finding(
            match.rule, match.description, place, match.masked, text[match.start : match.end]
        )


def scan_fields(fields: dict[str, str | list[str] | None]) -> list[Finding]:
    """Likely secrets in a record's text fields; list items are named ``fact 2`` etc."""
    findings: list[Finding] = []
    for name, value in fields.items():
        if isinstance(value, list):
            label = name.removesuffix("s")
            for number, item in enumerate(value, start=1):
                findings.extend(scan(item, f"{label} {number}"))
        elif value:
            findings.extend(scan(value, name))
    return findings


def redact(text: str) -> str:
    """``text`` with every likely secret replaced by ``[REDACTED:<rule>]``."""
    parts: list[str] = []
    position = 0
    for match in _matches(text):
        parts.append(text[position : match.start])
        parts.append(f"[REDACTED:{match.rule}]")
        position = match.end
    parts.append(text[position:])
    return "".join(parts)


def redacted_head(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text``, a secret that the cut goes through redacted.

    Every cut of text that is stored or shown goes through here: redact, then cut.
    Scanned after a cut, a secret the cut goes through is a part that may no longer
    look like a secret (its quote left open, a token under its length), and it
    would be kept. So the line the cut falls in is scanned whole (every secret but a
    private key is on one line; a key's block from its first line), with
    ``CUT_MARGIN`` characters past the cut. The secrets wholly before that line
    are left for the caller's scan, and its policy (refuse, redact or allow).
    """
    if len(text) <= limit:
        return text
    start = text.rfind("\n", 0, limit) + 1
    key_block = text.rfind("-----BEGIN", max(0, limit - MAX_PRIVATE_KEY_CHARS), limit)
    if 0 <= key_block < start:
        start = text.rfind("\n", 0, key_block) + 1
    return (text[:start] + redact(text[start : limit + CUT_MARGIN]))[:limit]


def redact_fields(fields: dict[str, str | list[str] | None]) -> dict[str, str | list[str] | None]:
    return {
        name: [redact(v) for v in value] if isinstance(value, list) else value and redact(value)
        for name, value in fields.items()
    }


def new_findings(findings: Iterable[Finding], before: Iterable[Finding]) -> list[Finding]:
    """Findings whose secret was not already there (a deliberate ``--allow-secret``)."""
    known = {finding.secret for finding in before}
    return [finding for finding in findings if finding.secret not in known]


def added_to_file(path: str, data: bytes, committed: bytes | None) -> list[Finding]:
    """Likely secrets a new version of a file brings (those already committed stay)."""

    def findings(content: bytes) -> list[Finding]:
        return list(scan(content.decode("utf-8", "replace"), path))

    return new_findings(findings(data), findings(committed) if committed else [])


def report(findings: list[Finding], *, limit: int = 5) -> str:
    """One line: what was found and where, masked; a secret found twice is named once."""
    places: dict[tuple[str, str, str], list[str]] = {}
    for finding in findings:
        places.setdefault((finding.description, finding.masked, finding.secret), []).append(
            finding.where
        )
    parts = [
        f"{description} {masked} in {' and '.join(wheres)}"
        for (description, masked, _), wheres in places.items()
    ]
    more = f"; and {len(parts) - limit} more" if len(parts) > limit else ""
    return "; ".join(parts[:limit]) + more
