"""``mem model``: the semantic model, downloaded ahead of time and looked at."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

from memcli.adapters.cli.options import json_option, notice, store_options
from memcli.core.errors import InvalidInput, MemError, StoreError
from memcli.core.model_choice import (
    BUNDLED,
    DEFAULT_MODEL,
    OPT_OUT,
    bundled_folder,
    cached,
    is_hub_name,
    missing_packages,
    offline,
)


@click.group(name="model")
def model_group() -> None:
    """The semantic model: see which is in use, or download another ahead of time.

    With no [semantic] model in mem.toml, search uses the small static model that
    ships inside mem ("bundled"): nothing to download. A folder, or a hub name
    fetched by `mem model pull` (needs memcli[semantic]), selects another;
    `model = "none"` keeps search lexical.

    \b
    Example:
        mem model status
        mem model pull minishlab/potion-retrieval-32M
    """


@model_group.command(name="pull")
@click.argument("name", required=False)
@json_option
@store_options
def pull(name: str | None, as_json: bool, store_dir: str | None, project: str | None) -> None:
    """Download a model into the Hugging Face hub cache, with progress, once.

    NAME is a hub name (owner/model); without it, the hub model mem.toml names
    (mem's bundled model needs no download). A static model (model2vec's format)
    is fetched, or, from a repository holding an ONNX export (model.onnx or
    onnx/model.onnx), that graph and its tokenizer and pooling files. A model
    already downloaded is not fetched again. Hooks never download: pull first on a
    machine where the agents' hooks should use it.

    \b
    Example:
        mem model pull minishlab/potion-base-8M
        mem model pull sentence-transformers/all-MiniLM-L6-v2
        mem model pull --json
    """
    name = name or _configured_hub_name(store_dir, project)
    if not name:
        _echo_bundled(as_json)
        return
    if not is_hub_name(name):
        raise InvalidInput(f"{name!r} is not a hub name (owner/model): a folder needs no pull")
    missing = missing_packages()
    if missing:
        raise MemError(f"downloading a model needs memcli[semantic] ({', '.join(missing)} missing)")
    from memcli.semantic.model import missing_files

    folder = cached(name)
    if folder is not None and missing_files(name, folder):
        folder = None  # cached by another tool, without what mem runs (an ONNX graph)
    fetched = folder is None
    if folder is None:
        folder = _download(name)
    if as_json:
        from memcli.adapters.cli.output import echo_json

        echo_json({"model": name, "folder": str(folder), "downloaded": fetched})
    elif fetched:
        click.echo(f"{name} downloaded: {folder}")
    else:
        click.echo(f"{name} is already downloaded: {folder}")


def _echo_bundled(as_json: bool) -> None:
    """What ``pull`` says when there is nothing to fetch: mem's own model is in use."""
    folder = bundled_folder()
    if as_json:
        from memcli.adapters.cli.output import echo_json

        echo_json({"model": BUNDLED, "folder": str(folder), "downloaded": False})
    else:
        click.echo(f"no hub model is named in mem.toml: mem's {BUNDLED} model needs no download")


def _download(name: str) -> Path:
    """The model fetched into the hub cache and checked: one it cannot read is an error now."""
    from memcli.semantic import transformer
    from memcli.semantic.model import download, read_model

    if not offline():  # offline, download says so in one line
        notice(f"downloading the semantic model {name}")
    folder = download(name)
    if transformer.graph_path(folder) is None:
        read_model(folder)
    else:
        transformer.read_transformer(folder)
    return folder


@model_group.command(name="status")
@json_option
@store_options
def status(as_json: bool, store_dir: str | None, project: str | None) -> None:
    """Show the semantic model in use here: named or default, downloaded, loaded, vectors.

    Which model (the one mem.toml names, or mem's bundled one), where its files are
    (or that it is not downloaded), whether it loads, its dimensions, and how many
    of the store's memories have a vector of it. It only reads: nothing is
    downloaded or embedded.

    \b
    Example:
        mem model status
        mem model status --json
    """
    from memcli.semantic import model_report

    root, settings = _store_settings(store_dir, project)
    report = model_report(root or Path.cwd(), settings)
    data: dict[str, Any] = dataclasses.asdict(report)
    data["default_model"] = DEFAULT_MODEL
    data["missing_packages"] = list(missing_packages())
    data["store"] = str(root) if root else None
    if as_json:
        from memcli.adapters.cli.output import echo_json

        echo_json(data)
        return
    _echo_report(data)


def _echo_report(data: dict[str, Any]) -> None:
    if data["model"]:
        whose = "mem's default: no [semantic] model in mem.toml" if data["default"] else "mem.toml"
        click.echo(f"model: {data['model']} ({whose})")
        click.echo(f"files: {data['folder'] or 'not downloaded (`mem model pull` fetches it)'}")
    else:
        click.echo("model: none")
    if data["dims"] is not None:
        click.echo(f"dimensions: {data['dims']}")
        click.echo(f"vectors: {data['vectors']:,} of {data['memories']:,} memories")
    click.echo(data["reason"])


def _store_settings(
    store_dir: str | None, project: str | None
) -> tuple[Path | None, dict[str, dict[str, Any]]]:
    """The store found from here and its settings (no store: none, and the user's own)."""
    from memcli.core import config
    from memcli.store.location import locate
    from memcli.store.team import store_at

    try:
        root = locate(store_dir, project, Path.cwd()).root
    except InvalidInput:
        raise  # a bad --project name
    except StoreError:  # no store can be found from here
        return None, config.load(None)
    if not store_at(root).exists():
        return None, config.load(None)
    return root, config.load(root)


def _configured_hub_name(store_dir: str | None, project: str | None) -> str:
    """The hub model mem.toml names here, '' for none (or "none"); a folder of the store
    that a hub name also names is that folder, never fetched (``memcli.core.trust``)."""
    from memcli.core.trust import downloads

    root, settings = _store_settings(store_dir, project)
    name = str(settings["semantic"]["model"])
    if name.strip().lower() in OPT_OUT or not is_hub_name(name):
        return ""
    if root is not None and not downloads(name, root):
        raise InvalidInput(f"the model {name} is the folder {root / name}: a folder needs no pull")
    return name
