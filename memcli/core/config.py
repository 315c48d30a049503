"""Settings: the user's own ``config.toml``, then the store's ``mem.toml``. All optional.

``${XDG_CONFIG_HOME:-~/.config}/mem/config.toml`` is read first, then the store's
``mem.toml`` overrides it, both with the sections below. A store's file comes with
git, so what runs a program or downloads a model (``memcli.core.trust``) is taken
from the user's file only; a team folder's ``mem.toml`` is never read. A setting
that is not taken (a bad value, an unknown name, a file that cannot be read) is
said once on stderr and its default used: it never switches memory off. Durations
are written one way everywhere: ``"90s"``, ``"30m"``, ``"24h"``, ``"7d"``, ``"2w"``,
or a whole number of seconds.

[context]
budget = 8000          # characters, hard limit of the session-start context
hot_count = 5          # the best memories, shown with all their facts and text
warm_count = 20        # the next best, each with its first fact (or first line)
summaries = 2          # latest sessions shown (one summary a session)
memory_md_lines = 200  # lines of MEMORY.md used
recency = 1.0          # weight of recency in the session-start score (0 to 10)
importance = 2.0       # weight of importance in it (0 to 10)
working_set = 2.0      # boost for memories touching the files changed now (0 to 10)
stale = 0.5            # factor for memories whose files changed since (0 to 1)
hot_window = "24h"     # no longer used (the score chooses); accepted in older mem.toml files
warm_window = "7d"     # no longer used, likewise

[recall]
budget = 8000
limit = 3              # at most this many memories for one prompt
min_prompt_chars = 15  # shorter prompts are trivial and get nothing
min_evidence = 0.45    # the best memory's share of the prompt (words weighed by rarity)
                       # plus margin_weight x its lead over the next must reach this
cue_evidence = 0.35    # ...or this, when the prompt has a cue: a question mark, a file
                       # name, a time word ("yesterday") or long_prompt_words words
margin_weight = 1.0    # (0 to 10)
relative_score = 0.7   # other memories: at least this share of what the best covers
agree_evidence = 0.2   # with a model: less evidence will do when the best covered is
                       # also the nearest in meaning
meaning_z = 3.5        # ...or the nearest in meaning is shown when it stands this many
meaning_lead = 1.5     # deviations above the store's background, and this many above
                       # the 10th nearest (0 to 10; see docs/search.md)
min_similarity = 1.0   # a fixed cosine floor (off: a cosine means different things in
                       # different stores and models)
long_prompt_words = 10
min_matched_terms = 3  # notes and transcripts: a cue, then this many shared words

[agents]               # what each agent's hooks can take, in characters (the smaller of
claude_context = 9000  # this and [context] or [recall] budget applies): Claude Code cuts a
claude_recall = 9000   # hook answer over 10,000 characters, Codex hook text over about
codex_context = 6000   # 2,500 tokens
codex_recall = 4000
gemini_context = 8000
gemini_recall = 8000

[search]
stop_words = "english" # "english", "none", or a list of words dropped from a query
extra_stop_words = []  # words dropped besides those
mode = "hybrid"        # lexical, semantic or hybrid (semantic needs a model)
min_similarity = 0.1   # a memory less similar than this is no semantic match
min_deviations = 1.0   # ...nor one less than this many deviations above what the model
                       # gives the query against a sample of the store (0 to 10)
ranked_matches = 10000 # bm25 ranks at most this many matches of a query, the newest
                       # (0: every match): a word most memories hold costs no more

[ranking]
rrf_k = 10                       # reciprocal-rank fusion constant
semantic_weight = 1.0            # weight of the semantic ranking beside bm25's (0 to 10)
lexical_lead = 2                 # with a model, bm25's first this many keep their places
coverage = 2.0                   # boost for matching more distinct query words (0 to 10)
recency = 0.02                   # weight of the recency decay (0 to 10)
half_life = "30d"                # discoveries, gotchas, frictions, context age this fast
slow_half_life = "365d"          # preferences, decisions and patterns age this fast
importance = 0.02                # weight of importance (0 to 10)

[semantic]
model = ""             # a hub name or a local directory; empty or "bundled": the model
                       # inside mem; "none": lexical.
                       # A hub name (downloaded) counts in your own config.toml only

[serve]
auto = false           # a session start starts a warm worker (`mem serve --worker`) for
                       # the store when none answers; hooks and reads ask it first
idle = "30m"           # without a request this long, the worker exits (0: never)
budget = 100           # milliseconds a hook or read gives the worker to answer, else
                       # it answers in its own process

[summarize]
command = ""           # a program that writes a session summary from its facts on stdin
                       # (split like a shell would, run without one); empty: extractive only.
                       # Your own config.toml only: a store's mem.toml may not run a program
timeout = "60s"        # how long it may take; then it is stopped and the extractive one kept
max_input_chars = 40000  # at most this much of the prompt and facts is given to it

[consolidate]
command = ""           # a program that merges a cluster of near-duplicates (`mem dedupe
                       # --apply`): one cluster as JSON on stdin, the merged memory as JSON
                       # on stdout; empty, or any failure: the deterministic merge.
                       # Your own config.toml only, as [summarize] command
timeout = "60s"        # how long it may take; then it is stopped and the deterministic merge used
max_input_chars = 40000  # at most this much of the cluster's JSON is given to it

[extract]
command = ""           # a program that drafts a finished session's lessons: its messages as
                       # JSON on stdin, the drafts as JSON on stdout; empty, or any failure:
                       # mem's own drafting. Your own config.toml only, as [summarize] command
timeout = "60s"        # how long it may take; then it is stopped and mem's own drafting used
max_input_chars = 40000  # at most this much of the session's JSON is given to it

[review]
expire = "30d"         # a lesson draft nobody accepted or rejected is removed after this long
                       # (by the next commit of drafts, or `mem review`)
[layers]               # where `mem save` puts a memory of each type without --layer:
preference = "project" # user (every project of yours), project, or team (the project's
decision = "project"   # .mem-team/ folder, staged for review); likewise gotcha, pattern,
                       # discovery, friction, context. "team": your own config.toml only
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memcli.core.errors import InvalidInput
from memcli.core.schema import LAYERS, OBSERVATION_TYPES, TEAM_DIR

CONFIG_FILE = "mem.toml"
USER_CONFIG_FILE = "config.toml"
"""The user's own settings, in ``user_config_path()``'s folder."""
MAX_SETTINGS_BYTES = 1 << 20
HOOK_ANSWER_LIMIT = 10_000
"""Claude Code cuts a longer hook answer down to a preview."""
DEFAULTS: dict[str, dict[str, Any]] = {
    "context": {
        "budget": 8000,
        "hot_window": "24h",
        "hot_count": 5,
        "warm_window": "7d",
        "warm_count": 20,
        "summaries": 2,
        "memory_md_lines": 200,
        "recency": 1.0,
        "importance": 2.0,
        "working_set": 2.0,
        "stale": 0.5,
    },
    "recall": {
        "budget": 8000,
        "limit": 3,
        "min_prompt_chars": 15,
        "min_evidence": 0.45,
        "cue_evidence": 0.35,
        "margin_weight": 1.0,
        "relative_score": 0.7,
        "agree_evidence": 0.2,
        "meaning_z": 3.5,
        "meaning_lead": 1.5,
        "min_similarity": 1.0,
        "long_prompt_words": 10,
        "min_matched_terms": 3,
    },
    "agents": {
        "claude_context": 9000,
        "claude_recall": 9000,
        "codex_context": 6000,
        "codex_recall": 4000,
        "gemini_context": 8000,
        "gemini_recall": 8000,
    },
    "search": {
        "stop_words": "english",
        "extra_stop_words": [],
        "mode": "hybrid",
        "min_similarity": 0.1,
        "min_deviations": 1.0,
        "ranked_matches": 10_000,
    },
    "ranking": {
        "rrf_k": 10,
        "semantic_weight": 1.0,
        "lexical_lead": 2,
        "coverage": 2.0,
        "recency": 0.02,
        "half_life": "30d",
        "slow_half_life": "365d",
        "importance": 0.02,
    },
    "semantic": {
        "model": "",
    },
    "serve": {
        "auto": False,
        "idle": 1800,
        "budget": 100,
    },
    "summarize": {
        "command": "",
        "timeout": 60,
        "max_input_chars": 40_000,
    },
    "consolidate": {
        "command": "",
        "timeout": 60,
        "max_input_chars": 40_000,
    },
    "extract": {
        "command": "",
        "timeout": 60,
        "max_input_chars": 40_000,
    },
    "review": {
        "expire": 30 * 86400,
    },
    "layers": dict.fromkeys(OBSERVATION_TYPES, "project"),
}
WEIGHTS = frozenset(
    {
        "ranking.semantic_weight",
        "ranking.coverage",
        "ranking.recency",
        "ranking.importance",
        "context.recency",
        "context.importance",
        "context.working_set",
        "recall.margin_weight",
        "recall.meaning_z",
        "search.min_deviations",
        "recall.meaning_lead",
    }
)
"""Weights range from 0 to ``MAX_WEIGHT``; other numbers with a decimal point from 0 to 1."""
MAX_WEIGHT = 10.0
CHOICES: dict[str, tuple[str, ...]] = {
    "search.mode": ("lexical", "semantic", "hybrid"),
    "search.stop_words": ("english", "none"),
    **{f"layers.{name}": LAYERS for name in OBSERVATION_TYPES},
}
FREE_TEXT = frozenset(
    {"semantic.model", "summarize.command", "consolidate.command", "extract.command"}
)
DURATIONS = frozenset(
    {
        "context.hot_window",
        "context.warm_window",
        "ranking.half_life",
        "ranking.slow_half_life",
        "serve.idle",
        "summarize.timeout",
        "consolidate.timeout",
        "extract.timeout",
        "review.expire",
    }
)
"""Written like ``"30m"`` or ``"7d"``, or as a whole number of seconds (``window_seconds``)."""
MAX_WORDS = 10_000
MAX_TEXT_CHARS = 4096
# At most nine digits: a longer number is out of range anyway (and int() may refuse it).
_DURATION_RE = re.compile(r"(\d{1,9})\s*(s|m|h|d|w)?")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
MAX_WINDOW_SECONDS = 36500 * 86400
"""100 years: a window's start stays a time mem keeps."""
DURATION_RANGE = (
    'must be a duration like "90s", "30m", "24h", "7d" or "2w" (a bare number: seconds), '
    "at most 36500d (100 years)"
)
MAX_COUNT = 1_000_000
"""Counts, lines and budgets: as large as ``--budget`` allows, and far below SQLite's limits."""
MAX_SERVE_BUDGET_MS = 10_000
"""``[serve] budget``: a hook never waits longer than this for the worker."""


def defaults() -> dict[str, dict[str, Any]]:
    """A copy of the default settings (lists copied too: callers may change settings)."""
    settings = {section: dict(values) for section, values in DEFAULTS.items()}
    for values in settings.values():
        for name, value in values.items():
            if isinstance(value, list):
                values[name] = list(value)
    return settings


def user_config_path() -> Path:
    """``$XDG_CONFIG_HOME/mem/config.toml``, else ``~/.config/mem/config.toml``."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    folder = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return folder / "mem" / USER_CONFIG_FILE


@dataclass
class Settings:
    """The settings in effect for a store, and what was not taken from its files."""

    values: dict[str, dict[str, Any]]
    problems: list[str] = field(default_factory=list)
    """One line each: a file or value that could not be taken (its default is used)."""
    ignored: list[str] = field(default_factory=list)
    """One line each: settings a store's file may not hold, and where they go instead."""


def load(store_root: Path | None) -> dict[str, dict[str, Any]]:
    """The settings in effect for the store at ``store_root`` (None: no store): defaults,
    overlaid with the user's ``config.toml``, then with the store's ``mem.toml``.
    Never fails: what cannot be taken is said once on stderr (``read``)."""
    from memcli.core import notices

    found = read(store_root)
    for line in found.problems:
        notices.once(line)
    return found.values


def read(store_root: Path | None) -> Settings:
    """``load``'s settings, with the lines saying what was not taken (``mem status``, doctor)."""
    found = Settings(defaults())
    _overlay(found, user_config_path(), None)
    if store_root is None:
        return found
    path = store_root / CONFIG_FILE
    if store_root.name != TEAM_DIR:
        _overlay(found, path, store_root)
    elif os.path.lexists(path):
        found.ignored.append(
            f"{path} is not read (a team folder's settings would apply to everyone who "
            f"clones the project); put your settings in {user_config_path()}"
        )
    return found


def _overlay(found: Settings, path: Path, store_root: Path | None) -> None:
    """The settings ``path`` holds, over ``found``'s; ``store_root``: a store's file, which
    may not hold what runs a program or downloads (``memcli.core.trust``)."""
    try:
        data = _parse(path, store_root)
    except InvalidInput as exc:
        found.problems.append(f"{exc}; the file is ignored")
        return
    settings = found.values
    ignored: list[str] = []
    for section, values in data.items():
        if section not in settings or not isinstance(values, dict):
            continue  # sections of later features, or someone else's: not ours to refuse
        for name, value in values.items():
            key = f"{section}.{name}"
            if name not in settings[section]:
                found.problems.append(
                    f"{path}: unknown setting {key} (known: "
                    f"{', '.join(sorted(settings[section]))}); it is ignored"
                )
                continue
            if store_root is not None:
                from memcli.core.trust import user_only

                if user_only(key, value, store_root):
                    ignored.append(f"[{section}] {name}")
                    continue
            try:
                settings[section][name] = _checked(path, key, value, settings[section][name])
            except InvalidInput as exc:
                found.problems.append(f"{exc}; using {_shown(settings[section][name])}")
    if ignored:
        found.ignored.append(
            f"{path}: {', '.join(ignored)} ignored: a store's settings may not run a program, "
            f"download a model or send memories to the team folder; put "
            f"{'it' if len(ignored) == 1 else 'them'} in "
            f"{user_config_path()}, your own settings"
        )


def _parse(path: Path, store_root: Path | None) -> dict[str, Any]:
    """The TOML table in ``path`` ({} when there is no such file); a file that cannot be
    read or parsed is an ``InvalidInput`` of one line. ``store_root``: a store's file."""
    text = _read_settings_file(path, follow_links=store_root is None)
    if text is None:
        return {}  # without a settings file, no TOML parser is imported
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:  # tomllib parses nested arrays and tables recursively
        raise InvalidInput(f"{path}: not valid TOML (arrays or tables nested too deeply)") from None


def _shown(value: Any) -> str:
    """A setting's value as TOML writes it."""
    return json.dumps(value)


def _read_settings_file(path: Path, *, follow_links: bool) -> str | None:
    """The text of a settings file: a plain file (a store's ``mem.toml`` never read through a
    link; the user's own ``config.toml`` may be one, as dotfile managers make them)."""
    import stat

    from memcli.core.regular import open_regular

    try:
        status = path.stat() if follow_links else path.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InvalidInput(f"{path} cannot be read ({exc.strerror})") from None
    if stat.S_ISLNK(status.st_mode):
        raise InvalidInput(f"{path} is a symbolic link; mem reads settings from a plain file only")
    if not stat.S_ISREG(status.st_mode):
        raise InvalidInput(f"{path} is not a plain file")
    if status.st_size > MAX_SETTINGS_BYTES:
        raise InvalidInput(f"{path} is larger than {MAX_SETTINGS_BYTES // 1024} KB")
    try:
        with open_regular(path, follow_links=follow_links) as handle:  # swapped since: no hang
            data = handle.read(MAX_SETTINGS_BYTES + 1)
    except OSError as exc:
        raise InvalidInput(f"{path} cannot be read ({exc.strerror})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path}: not valid TOML ({exc})") from None


def _checked(path: Path, name: str, value: Any, default: Any) -> Any:
    """The value if it is of the setting's kind and in its range; else one line saying both."""
    if name == "search.stop_words" and isinstance(value, list):
        return _words(path, name, value)
    if isinstance(default, list):
        return _words(path, name, value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise InvalidInput(f"{path}: {name} must be true or false")
        return value
    if name in DURATIONS:
        seconds = _duration(value)
        if seconds is None or seconds > MAX_WINDOW_SECONDS:
            raise InvalidInput(f"{path}: {name} {DURATION_RANGE}")
        if isinstance(default, int):
            return seconds
        return value.strip() if isinstance(value, str) else f"{seconds}s"
    if name in CHOICES:
        if value not in CHOICES[name]:
            allowed = ", ".join(CHOICES[name])
            if name == "search.stop_words":
                allowed += ", or a list of words"
            raise InvalidInput(f"{path}: {name} must be one of {allowed}")
        return value
    if name in FREE_TEXT:
        if not isinstance(value, str) or len(value) > MAX_TEXT_CHARS or "\x00" in value:
            raise InvalidInput(
                f"{path}: {name} must be a string of at most {MAX_TEXT_CHARS} characters"
            )
        return value
    if name in WEIGHTS:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not 0 <= value <= MAX_WEIGHT
        ):
            raise InvalidInput(f"{path}: {name} must be a number from 0 to {MAX_WEIGHT:g}")
        return float(value)
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise InvalidInput(f"{path}: {name} must be a number from 0 to 1")
        return float(value)
    if name == "serve.budget":
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 1 <= value <= MAX_SERVE_BUDGET_MS
        ):
            raise InvalidInput(
                f"{path}: {name} must be a whole number of milliseconds from 1 to "
                f"{MAX_SERVE_BUDGET_MS}"
            )
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise InvalidInput(f"{path}: {name} must be a whole number from 0 to {MAX_COUNT}")
    return value


def _words(path: Path, name: str, value: Any) -> list[str]:
    """A list of at most ``MAX_WORDS`` short strings, lowercased."""
    if (
        not isinstance(value, list)
        or len(value) > MAX_WORDS
        or not all(isinstance(word, str) and 0 < len(word) <= 100 for word in value)
    ):
        raise InvalidInput(
            f"{path}: {name} must be a list of at most {MAX_WORDS} words (each 1 to 100 characters)"
        )
    return [word.lower() for word in value]


def _duration(value: Any) -> int | None:
    """Seconds of a duration setting: ``"30m"``, ``"7d"``, or a whole number of seconds."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value >= 0 else None
    match = _DURATION_RE.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        return None
    return int(match.group(1)) * _UNIT_SECONDS[match.group(2) or "s"]


def agent_budget(settings: dict[str, dict[str, Any]], agent: str, kind: str) -> int:
    """Characters an agent's hook answer may hold: ``kind`` is ``context`` or ``recall``.

    The smaller of the store's ``[context]``/``[recall]`` budget and the agent's
    ``[agents] <agent>_<kind>``; an agent mem has no setting for gets the former.
    """
    general: int = settings[kind]["budget"]
    own = settings["agents"].get(f"{agent}_{kind}")
    return general if own is None else min(general, int(own))


def window_seconds(window: str | int) -> int:
    """Seconds of a duration as settings hold it (``"7d"``, ``"90s"``, or seconds)."""
    seconds = _duration(window)
    if seconds is None:
        raise InvalidInput(f"invalid duration {window!r}")
    return seconds
