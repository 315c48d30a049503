"""Settings only the user's own config may hold: those that run a program, fetch a model,
or send memories to the team folder.

A store's ``mem.toml`` comes with git (a central store another clone pushed, a
committed ``.mem/``, a submodule), so whoever can push to it could name a program
for mem to run on this machine, or a model for it to download, or make ``[layers]``
stage private memories into the project's own repository (the team folder). As git
never runs a hook that came with a clone, mem takes such settings only from the
user's own ``config.toml`` (``memcli.core.config.user_config_path``); everything
else a store may set for itself.
"""

from __future__ import annotations

from pathlib import Path

RUNS_A_PROGRAM = frozenset({"summarize.command", "consolidate.command", "extract.command"})
"""Settings naming a program mem runs; any later one belongs here."""


def user_only(name: str, value: object, store_root: Path) -> bool:
    """Whether ``value`` for the setting ``name`` (``section.key``) in the ``mem.toml`` of
    the store at ``store_root`` must be ignored: it runs a program, names a model that
    is not a folder on this machine (a hub name mem would download), or sends a type of
    memory to the team folder."""
    if name.startswith("layers."):
        return value == "team"
    if name in RUNS_A_PROGRAM:
        return not isinstance(value, str) or bool(value.strip())
    if name == "semantic.model" and isinstance(value, str):
        return downloads(value, store_root)
    return False


def downloads(model: str, store_root: Path) -> bool:
    """Whether ``[semantic] model = model`` would be fetched from the hub: a hub name with
    no folder of that name (relative to the store) to use instead."""
    from memcli.core.model_choice import OPT_OUT, is_hub_name

    if model.strip().lower() in OPT_OUT or not is_hub_name(model):
        return False  # no model, mem's default, or a path (which is never downloaded)
    return not (store_root / Path(model).expanduser()).is_dir()
