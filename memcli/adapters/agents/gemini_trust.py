"""Whether Gemini CLI trusts the project folder: in one it does not, it runs no hooks
and disables every MCP server, mem's among them, without saying so.

As Gemini CLI decides it: ``GEMINI_CLI_TRUST_WORKSPACE`` (``true``/``false``) first;
folder trust is on unless ``security.folderTrust.enabled`` is false in the user's
settings; then ``trustedFolders.json`` (``GEMINI_CLI_TRUSTED_FOLDERS_PATH``, else in
``~/.gemini``, ``GEMINI_CLI_HOME`` standing for home) maps paths to ``TRUST_FOLDER``,
``TRUST_PARENT`` (the path's parent) or ``DO_NOT_TRUST``, the longest rule that
holds the folder deciding; no rule means not trusted. An IDE's own trust signal,
which can decide instead, is not known here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def untrusted_note(cwd: Path) -> str | None:
    """One line when Gemini CLI would not trust the project of ``cwd`` (its git work
    tree's top), else None."""
    from memcli.adapters.agents.claude_settings import project_top

    folder = project_top(cwd)
    forced = os.environ.get("GEMINI_CLI_TRUST_WORKSPACE")
    if forced == "true":
        return None
    gemini = Path(os.environ.get("GEMINI_CLI_HOME") or Path.home()) / ".gemini"
    rules_path = Path(
        os.environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or gemini / "trustedFolders.json"
    )
    if forced != "false":
        security = _json(gemini / "settings.json").get("security")
        trust = security.get("folderTrust") if isinstance(security, dict) else None
        if isinstance(trust, dict) and trust.get("enabled") is False:
            return None
        if _trusted(folder, _json(rules_path)):
            return None
    return (
        f"Gemini CLI does not trust {folder}, so it runs no hooks and no MCP server there:"
        f' trust it (/permissions in Gemini CLI), or add "{folder}": "TRUST_FOLDER"'
        f" to {rules_path}"
    )


def _trusted(folder: Path, rules: dict[str, Any]) -> bool:
    where = os.path.realpath(folder)
    longest, level = -1, None
    for rule, trust in rules.items():
        root = os.path.dirname(rule) if trust == "TRUST_PARENT" else rule
        real = os.path.realpath(root)
        inside = where == real or where.startswith(real.rstrip(os.sep) + os.sep)
        if inside and len(rule) > longest:
            longest, level = len(rule), trust
    return level in ("TRUST_FOLDER", "TRUST_PARENT")


def _json(path: Path) -> dict[str, Any]:
    """The file's JSON object, or {} when it is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
