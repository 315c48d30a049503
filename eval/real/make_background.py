"""Rewrite background.jsonl from the release notes of public projects (stdlib only).

    python eval/real/make_background.py MIRRORS

MIRRORS is a folder holding a bare git repository of each project of SOURCES
below at ``<owner>+<name>/repo`` (a ``git clone --bare`` there does); each file is
read at the commit SOURCES names, so the output is the same wherever it runs.
Every bullet of a changelog becomes one memory: its markup stripped (links, roles,
PR and issue numbers, authors) so that it reads like a note, its title the start
of its text, its type guessed from its first word, its age spread by a hash.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# repo, commit, files, at most this many memories from it
SOURCES: list[tuple[str, str, tuple[str, ...], int]] = [
    ("pallets/flask", "2ac89889f4cc330eabd50f295dcef02828522c69", ("CHANGES.rst",), 260),
    ("pallets/click", "2c8cd3ac958a7eb316d67f2d316c27086c4c0369", ("CHANGES.md",), 200),
    ("psf/requests", "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e", ("HISTORY.md",), 260),
    ("encode/httpx", "ae1b9f66238f75ced3ced5e4485408435de10768", ("CHANGELOG.md",), 220),
    (
        "pytest-dev/pytest",
        "df87db7b0462fb764ef73fa00561adf8ad047572",
        ("doc/en/changelog.rst",),
        330,
    ),
    ("redis/redis-py", "34817ce2a2accc893a81180fe737e0c4f5ac6b0c", ("CHANGES",), 180),
    (
        "celery/celery",
        "5dc781f0bd5f36186bfcc74e0a4f9f654452c69b",
        ("Changelog.rst", "docs/history/changelog-5.5.rst", "docs/history/changelog-5.4.rst"),
        300,
    ),
    (
        "fastapi/fastapi",
        "c3f316b7e814667e8ee81e03a7330d00ee61e45c",
        ("docs/en/docs/release-notes.md",),
        260,
    ),
    ("pydantic/pydantic", "2151025aa51263f3016502b00010b78e4481eaa1", ("HISTORY.md",), 300),
]

BULLET = re.compile(r"^(\s*)(?:[-*+]|\d+\.)\s+(.*)$")
MIN_CHARS, MAX_CHARS, MAX_TITLE = 45, 420, 80
SKIP = re.compile(
    r"^(bump|update translations?|add translation|translate|merge|release|prepare|"
    r"prepare for release|pin |upgrade |update dependency|update .*requirements|"
    r"update (the )?docs?\b|fix typos?|typo|docs?:? typo|\[pre-commit|pre-commit|"
    r"update sponsors|add sponsor|remove sponsor|update release notes|tweak|"
    r"add .{0,20}translation|.*\btranslations? for\b|update contributor|add contributor|"
    r"update authors)",
    re.I,
)


def clean(text: str) -> str:
    """A changelog bullet as plain prose: no links, roles, numbers of PRs, authors or emoji."""
    text = re.sub(r"<!--.*?-->", "", text)
    text = re.sub(r"^:[a-z_]+:\s*", "", text)  # an emoji's short code
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)  # md links
    text = re.sub(r"`([^`<]+?)\s*<[^>]+>`_+", r"\1", text)  # rst links
    text = re.sub(r":(?:pr|issue|ghsa|user|gh|bpo|cve|sha|commit|ref):`[^`]*`", "", text)
    text = re.sub(r":[a-z]+(?::[a-z]+)?:`~?([^`]+)`", r"\1", text)  # :class:`Foo`
    text = re.sub(r"\{\w+\}`[^`]*`", "", text)
    text = re.sub(r"\{(?:pr|issue|user|ref|doc|gh|ghsa)\}`?[^\s`]*`?", "", text)  # MyST roles
    text = re.sub(r"``([^`]+)``", r"\1", text)
    text = re.sub(r"`([^`]+)`_*", r"\1", text)
    text = re.sub(r"\bPR\s+#\d+", "", text)
    text = re.sub(r"\s+by\s+@[\w\-\[\]]+(?:,?\s*(?:and\s+)?@[\w\-\[\]]+)*", "", text)
    text = re.sub(r"\s+in\s+#\d+", "", text)
    text = re.sub(r"@[\w\-\[\]]+", "", text)
    text = re.sub(r"\(?\s*(?:#\d+[,\s]*)+\)?", " ", text)
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r"\(\s*(?:thanks[^)]*)?\)", "", text, flags=re.I)
    text = re.sub(r"\bThanks\b.*$", "", text)
    text = re.sub(r"[^\x00-\u024f\u2018-\u201d\u2026]", "", text)  # emoji and such
    text = text.replace("\\", "").replace("**", "").replace("*", "")
    text = " ".join(text.split()).strip(" -:;,")
    text = re.sub(r"\s+([.,;:])", r"\1", text)
    text = re.sub(r"\.{2}$", ".", text)
    text = re.sub(r"^\d{2,6}:\s*", "", text)  # pytest's issue numbers
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    if text and text[-1] not in ".!?)":
        text += "."
    return text


def bullets(lines: list[str]) -> list[str]:
    """Each bullet of a changelog (nested ones too) with its continuation lines.

    A line indented deeper than its bullet continues it; any other line (a heading,
    a paragraph, the next release's title) ends it.
    """
    items: list[list[str]] = []
    indent: int | None = None
    for line in lines:
        match = BULLET.match(line)
        if match:
            items.append([match.group(2)])
            indent = len(match.group(1))
        elif not line.strip():
            continue
        elif indent is not None and len(line) - len(line.lstrip()) > indent:
            items[-1].append(line.strip())
        else:
            indent = None
    return [" ".join(i) for i in items]


def prose(text: str) -> bool:
    words = re.findall(r"[A-Za-z]{2,}", text)
    return (
        MIN_CHARS <= len(text) <= MAX_CHARS
        and len(words) >= 7
        and not SKIP.match(text)
        and text.count("(") == text.count(")")
    )


def title_of(text: str) -> str:
    """The start of the text, at most MAX_TITLE characters, cut at a word."""
    first = re.split(r"(?<=[a-z0-9)])\. ", text, maxsplit=1)[0].rstrip(".")
    if len(first) <= MAX_TITLE:
        return first
    cut = first[:MAX_TITLE].rsplit(" ", 1)[0]
    return cut.rstrip(",;:(")


def kind_of(text: str) -> str:
    low = text.lower()
    head = low.split()[0].strip(":()[]")
    if head in {"fix", "fixed", "fixes", "fixing"} or "bug" in low.split()[:4]:
        return "gotcha"
    if head in {"deprecate", "deprecated", "remove", "removed", "drop", "dropped", "rename"}:
        return "decision"
    if "default" in low or head in {"require", "requires", "use", "switch", "change", "changed"}:
        return "decision"
    if head in {"document", "documentation", "docs", "doc", "clarify"}:
        return "context"
    if head in {"add", "added", "support", "allow", "new", "expose", "introduce"}:
        return "discovery"
    if head in {"improve", "improved", "speed", "optimize", "refactor", "avoid", "raise"}:
        return "pattern"
    return "discovery"


def unit(text: str, salt: str) -> float:
    """A number in [0, 1) fixed by the text."""
    return int(hashlib.sha256((salt + text).encode()).hexdigest()[:8], 16) / 2**32


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    mirrors = Path(argv[0])
    seen: set[str] = set()
    rows = []
    for repo, commit, files, most in SOURCES:
        git = mirrors / repo.replace("/", "+") / "repo"
        found = []
        for name in files:
            text = subprocess.run(
                ["git", f"--git-dir={git}", "show", f"{commit}:{name}"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            for item in bullets(text.splitlines()):
                sentence = clean(item)
                key = sentence.lower()
                if prose(sentence) and key not in seen:
                    seen.add(key)
                    found.append((sentence, name))
        # an even spread over the file (newest first in changelogs), fixed by the text
        step = max(len(found) / most, 1.0)
        chosen = [found[int(n * step)] for n in range(min(most, len(found)))]
        for sentence, name in chosen:
            rows.append(
                {
                    "type": kind_of(sentence),
                    "title": title_of(sentence),
                    "narrative": sentence,
                    "age_days": round(0.5 + 699 * unit(sentence, "age") ** 1.5, 1),
                    "source": f"{repo}:{name}",
                }
            )
    with (HERE / "background.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} memories", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
