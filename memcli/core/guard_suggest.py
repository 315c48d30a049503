"""Guards a memory's text asks for: "use pnpm, never npm" suggests ``Bash:npm *``.

Pure (no I/O): ``mem save`` prints what it finds as a ready-to-run ``mem edit``
flag and adds nothing by itself; a session's drafts carry the same suggestion.

Precision comes first: a suggestion that is wrong teaches people to ignore them.
A guard is suggested only for a prohibition, never / don't / do not / must not /
avoid (ask, not deny, for avoid and should not), or use X instead of / rather
than / not Y, prefer X over Y, followed directly (an optional verb between) by

- a command: in backticks, or a known command-line tool with at most two
  subcommand words and its flags (``never git push --force``), and
- a path for read, edit or write verbs (``don't read .env files``,
  ``never edit migrations/ by hand``),

and only when the sentence ends there, or goes on with a reason ("because ..."),
another command ("npm or yarn") or a word that does not narrow it ("by hand",
"directly"). Anything else after it is taken to narrow the rule ("without
--frozen-lockfile", "to main", "globally", "in CI"), which a glob cannot say,
and nothing is suggested. Past tense is narration, not a rule ("we never used
npm workspaces" suggests nothing): the verb must be one of those below.
"""

from __future__ import annotations

import re

from memcli.core.errors import InvalidInput
from memcli.core.guards import Guard, GuardAction, make_guard

CLI_WORDS = frozenset(
    """npm npx yarn pnpm bun deno node pip pip3 pipx poetry uv conda brew apt apt-get
    git docker docker-compose podman kubectl helm terraform curl wget rm sudo chmod chown
    cargo gradle mvn gem composer ssh scp rsync psql mysql sqlite3 mongosh redis-cli aws
    gcloud az heroku vercel netlify firebase flyctl""".split()
)
"""Commands named bare: names no English sentence uses otherwise (not make, go, cat)."""

_DENY_TRIGGERS = {("never",), ("don't",), ("dont",), ("do", "not"), ("must", "not")}
_DENY_TRIGGERS |= {("mustn't",), ("instead", "of"), ("rather", "than")}
_ASK_TRIGGERS = {("avoid",), ("should", "not"), ("shouldn't",)}
_COMMAND_VERBS = frozenset({"run", "use", "call", "execute", "invoke", "type", "using", "running"})
_CODE_VERBS = frozenset({"run", "execute", "invoke", "type", "running"})
"""Verbs after which anything in backticks is a command (``use `var` `` is code)."""
_PATH_VERBS: dict[str, str] = {
    **dict.fromkeys(["read", "open", "view", "reading", "opening"], "Read"),
    **dict.fromkeys(
        ["edit", "modify", "change", "touch", "alter", "patch", "rewrite", "hand-edit"], "Edit"
    ),
    **dict.fromkeys(["editing", "modifying", "changing", "touching"], "Edit"),
    **dict.fromkeys(["write", "overwrite", "writing"], "Write"),
}
_FILLERS = frozenset(
    "the any a an file files anything in under inside within from to into of contents".split()
)
_DIR_WORDS = frozenset({"folder", "folders", "directory", "directories", "dir", "dirs"})
_DIR_CONTEXT = frozenset({"under", "inside", "within", "in"})
_TRAILERS = frozenset({"here", "again", "anymore", "ever", "directly", "manually", "yourself"})
_REASONS = frozenset({"because", "as", "so", "but", "since", "it", "this", "that", "which"})
_AND_OR = frozenset({"and", "or", "nor"})
_NARROWING = frozenset(
    """without unless except if when whenever before after until on to against outside for
    while during with at via by the a an your my our their this these those""".split()
)
"""Words that go on a sentence, never a subcommand: after a command, they narrow the rule."""
_BOUNDARIES = frozenset(',.;:!?()[]{}"—–-\n')
_CLAUSE_ENDS = frozenset(".;!?\n")

_FORCE_PUSH = ("git push --force*", "git push -f*")
_URL_RE = re.compile(r"\S+://\S+")
_TOKEN_RE = re.compile(r"`([^`\n]+)`|([^\s`,;:!?()\[\]{}\"]+)|([,;:!?()\[\]{}\"\n])")
_FLAG_RE = re.compile(r"--?[A-Za-z0-9][\w-]*(?:=\S+)?")
_SUBCOMMAND_RE = re.compile(r"[a-z][a-z0-9-]*")
_FILE_RE = re.compile(r"(?:\*|[\w*-]{2,})(?:\.[\w*-]+)*\.[A-Za-z][A-Za-z0-9]{1,5}")


class _Token(str):
    """A word, a boundary mark, or a span in backticks (``code``)."""

    code = False


def suggest_guards(text: str) -> list[Guard]:
    """The guards ``text`` asks for, in the order it asks (see the module doc); often none."""
    tokens = _tokens(text)
    found: list[Guard] = []
    clause_start = 0
    for i, token in enumerate(tokens):
        if token in _CLAUSE_ENDS:
            clause_start = i + 1
            continue
        trigger = _trigger(tokens, i, clause_start)
        if trigger is not None:
            start, action = trigger
            found.extend(_object(tokens, start, action))
    return list(dict.fromkeys(found))


def _tokens(text: str) -> list[_Token]:
    text = _URL_RE.sub(" url ", text.replace("\u2019", "'"))
    tokens: list[_Token] = []
    for match in _TOKEN_RE.finditer(text):
        code, word, mark = match.groups()
        if code is not None:
            token = _Token(code.strip())
            token.code = True
            tokens.append(token)
        elif word is not None:
            stripped = word.rstrip(".")
            if stripped and stripped not in ("-", "—", "–"):
                tokens.append(_Token(stripped))
            if stripped != word or not stripped or stripped in ("-", "—", "–"):
                tokens.append(_Token("."))
        else:
            tokens.append(_Token(mark))
    return tokens


def _lower(tokens: list[_Token], i: int) -> str:
    return tokens[i].lower() if i < len(tokens) and not tokens[i].code else ""


def _trigger(tokens: list[_Token], i: int, clause_start: int) -> tuple[int, GuardAction] | None:
    """Where the forbidden thing starts, and the action, when a prohibition starts at ``i``."""
    one, two = (_lower(tokens, i),), (_lower(tokens, i), _lower(tokens, i + 1))
    before = {t.lower() for t in tokens[clause_start:i] if not t.code}
    if two in _DENY_TRIGGERS or two in _ASK_TRIGGERS:
        if two in {("instead", "of"), ("rather", "than")} and not before & {"use", "prefer"}:
            return None
        return i + 2, "ask" if two in _ASK_TRIGGERS else "deny"
    if one in _DENY_TRIGGERS or one in _ASK_TRIGGERS:
        return i + 1, "ask" if one in _ASK_TRIGGERS else "deny"
    if one == ("over",) and "prefer" in before:
        return i + 1, "ask"
    if one == ("not",) and i > 0 and tokens[i - 1] == "," and before & {"use", "prefer"}:
        return i + 1, "deny"
    return None


def _object(tokens: list[_Token], start: int, action: GuardAction) -> list[Guard]:
    """The guards for what follows a prohibition at ``start``, if it is a command or a path."""
    i = start + (_lower(tokens, start) == "ever")
    verb = _lower(tokens, i)
    if verb in _PATH_VERBS:
        return _path(tokens, i + 1, _PATH_VERBS[verb], action)
    if verb in _COMMAND_VERBS:
        i += 1
    guards: list[Guard] = []
    while True:
        command = _command(tokens, i, verb)
        if command is None:
            return []
        globs, i = command
        guards += [make_guard("Bash", glob, action) for glob in globs if _valid(glob)]
        if _lower(tokens, i) in _AND_OR and _command(tokens, i + 1, verb) is not None:
            i += 1
            continue
        return guards if _ends(tokens, i) else []


def _command(tokens: list[_Token], i: int, verb: str) -> tuple[list[str], int] | None:
    """The globs of the command at ``i`` and where it ends, or None when none is there."""
    if i >= len(tokens):
        return None
    token = tokens[i]
    if token.code:
        first = token.split()[0] if token.split() else ""
        if first in CLI_WORDS or verb in _CODE_VERBS or first.startswith("./"):
            return [_prefix(token)], i + 1
        return None
    word = token.lower()
    if word in ("force-push", "force-pushing"):
        return list(_FORCE_PUSH), i + 1
    if word == "force" and _lower(tokens, i + 1) in ("push", "pushing"):
        return list(_FORCE_PUSH), i + 2
    if verb in _CODE_VERBS and _is_script(token):
        return [_prefix(token)], i + 1
    if word not in CLI_WORDS:
        return None
    words, i = [word], i + 1
    while i < len(tokens) and not tokens[i].code:
        part = tokens[i]
        if _FLAG_RE.fullmatch(part):
            words.append(part)
        elif len(words) <= 2 and all(not w.startswith("-") for w in words) and _subcommand(part):
            words.append(part)  # at most two subcommands, before any flag
        else:
            break
        i += 1
    return [" ".join(words) + (" *" if len(words) == 1 else "*")], i


def _is_script(token: str) -> bool:
    """``./reset.sh`` or ``scripts/reset-db.sh``: a program run by its path."""
    return token.startswith("./") or (
        "/" in token and _FILE_RE.fullmatch(token.rsplit("/", 1)[1]) is not None
    )


def _subcommand(word: str) -> bool:
    """A word that can be a subcommand (``install``), not one that goes on the sentence."""
    if not _SUBCOMMAND_RE.fullmatch(word):
        return False
    stops = _TRAILERS | _REASONS | _AND_OR | _FILLERS | _DIR_CONTEXT | _NARROWING
    return word not in stops and not (word.endswith("ly") and word != "apply")


def _path(tokens: list[_Token], i: int, tool: str, action: GuardAction) -> list[Guard]:
    """The guard for the path after a read, edit or write verb at ``i``."""
    folder = False
    while _lower(tokens, i) in _FILLERS:
        folder = folder or _lower(tokens, i) in _DIR_CONTEXT
        i += 1
    if i >= len(tokens) or tokens[i] in _BOUNDARIES:
        return []
    path = tokens[i].removeprefix("./")
    after = _lower(tokens, i + 1)
    if after in _DIR_WORDS and re.fullmatch(r"[\w.-]+", path):
        glob, i = path.rstrip("/") + "/**", i + 2
    elif _is_path(path):
        i += 1 + (after in ("file", "files") or after in _DIR_WORDS)
        directory = path.endswith("/") or after in _DIR_WORDS
        directory = directory or (folder and "." not in path.rsplit("/", 1)[-1])
        glob = path.rstrip("/") + "/**" if directory else path
    else:
        return []
    if not _ends(tokens, i) or not _valid(glob):
        return []
    return [make_guard(tool, glob, action)]


def _is_path(token: str) -> bool:
    if token == "url" or not re.search(r"[A-Za-z0-9]", token):
        return False
    if token.startswith(".") and len(token) > 1 and token[1].isalnum():
        return True
    return "/" in token or _FILE_RE.fullmatch(token) is not None


def _ends(tokens: list[_Token], i: int) -> bool:
    """Whether the rule ends at ``i``: nothing follows that could narrow it."""
    while True:
        if _lower(tokens, i) in _TRAILERS:
            i += 1
        elif (_lower(tokens, i), _lower(tokens, i + 1)) == ("by", "hand"):
            i += 2
        else:
            break
    if i >= len(tokens):
        return True
    word = _lower(tokens, i)
    return tokens[i] in _BOUNDARIES or word in _REASONS or word in _AND_OR


def _prefix(command: str) -> str:
    """A glob for the command and whatever arguments follow it."""
    command = " ".join(command.split())
    return command if command.endswith("*") else command + "*"


def _valid(glob: str) -> bool:
    try:
        make_guard("Bash", glob)
    except InvalidInput:
        return False
    return True
