from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from memcli.adapters.cli.options import json_option, layer_option, open_existing, store_options
from memcli.adapters.cli.output import echo_json
from memcli.core.errors import InvalidInput

if TYPE_CHECKING:
    from memcli.service.dedupe import Cluster
    from memcli.service.memory import Memory


@click.command()
@click.option("--apply", is_flag=True, help="Merge each cluster into its keeper (one commit each).")
@click.option("-y", "--yes", is_flag=True, help="Merge without asking (needed off a terminal).")
@click.option(
    "--threshold",
    type=click.FloatRange(0.3, 1.0),
    help="How alike two memories must be, 0.3 to 1 (default: the tuned 0.6).",
)
@json_option
@layer_option
@store_options
def dedupe(
    apply: bool,
    yes: bool,
    threshold: float | None,
    as_json: bool,
    layer: str | None,
    store_dir: str | None,
    project: str | None,
) -> None:
    """Find clusters of near-duplicate memories; with --apply, merge each into its keeper.

    Every layer present is read (--layer: one); a merge happens in the keeper's
    layer. Memories of the same type whose words say nearly the same (words, word
    pairs and titles compared; a negation, an opposite or another name or number
    on one side counts against them; the threshold was chosen on a labelled set
    with a precision of 0.9) form a cluster, each member close to its keeper. Its
    keeper is the one with a key, else the most important, else the most recent.
    Candidates come from sketches of every memory, so a large store is never
    compared pair by pair.

    --apply merges a cluster in one commit: the keeper gets the others' facts,
    concepts and files, and supersedes them (they stay in the store and in git,
    out of search, context and recall; `mem show` names the keeper). With a
    [consolidate] command in your ~/.config/mem/config.toml, that program writes
    the merged text from the cluster as JSON; if it fails, the deterministic merge
    is used and the reason is in the commit message. Each cluster is confirmed on a terminal;
    -y merges them all without asking.

    \b
    Example:
        mem dedupe
        mem dedupe --json
        mem dedupe --apply -y
    """
    from memcli.retrieval.likeness import THRESHOLD
    from memcli.service.dedupe import find_clusters

    if apply and not yes and not sys.stdin.isatty():
        raise InvalidInput("--apply asks before each merge: give -y when not on a terminal")
    reader = open_existing(store_dir, project, layer)
    memories = [
        reader.layers.memory(name) for name in ([layer] if layer else reader.layers.present())
    ]
    names = [memory.layer for memory in memories]
    clusters = find_clusters(memories, threshold=threshold or THRESHOLD)
    if not apply:
        _report(clusters, names, as_json)
        return
    merged = [
        outcome
        for number, cluster in enumerate(clusters, 1)
        if (outcome := _apply(memories, cluster, number, len(clusters), yes, as_json, layer))
        is not None
    ]
    if as_json:
        echo_json({"clusters": [c.to_json(names) for c in clusters], "merged": merged})
    elif not clusters:
        click.echo("no near-duplicates found")


def _report(clusters: list[Cluster], names: list[str], as_json: bool) -> None:
    if as_json:
        echo_json({"clusters": [cluster.to_json(names) for cluster in clusters]})
        return
    if not clusters:
        click.echo("no near-duplicates found")
        return
    for number, cluster in enumerate(clusters, 1):
        _echo_cluster(cluster, number)
    members = sum(len(c.members) - 1 for c in clusters)
    click.echo(
        f"{len(clusters)} cluster{'s' * (len(clusters) > 1)}; `mem dedupe --apply` merges "
        f"{members} memor{'ies' if members > 1 else 'y'} into their keepers"
    )


def _echo_cluster(cluster: Cluster, number: int) -> None:
    click.echo(
        f"cluster {number}: {len(cluster.members)} memories, similarity {cluster.similarity:.2f}"
    )
    for member in cluster.members:
        mark = "keep" if member is cluster.keeper else f"{member.similarity:.2f}"
        key = f"  [{member.entry.key}]" if member.entry.key else ""
        click.echo(f"  {mark:>5}  {member.entry.id}  {member.entry.title[:70]}{key}")


def _apply(
    memories: list[Memory],
    cluster: Cluster,
    number: int,
    total: int,
    yes: bool,
    as_json: bool,
    layer: str | None,
) -> dict[str, object] | None:
    """Merge one cluster (after asking, on a terminal); what was done, or None if declined."""
    from memcli.service.dedupe import merge_cluster

    if memories[cluster.keeper.layer].layer == "team" and layer != "team":
        if not as_json:
            click.echo(f"cluster {number}: the team's; merge it with --layer team")
        return None
    if not yes:
        _echo_cluster(cluster, number)
        if not click.confirm(f"merge cluster {number} of {total} into its keeper?", err=True):
            return None
    done = merge_cluster(memories, cluster, team=layer == "team")
    if done["fallback"]:
        click.echo(
            f"mem: the [consolidate] command failed ({done['fallback']}); merged deterministically",
            err=True,
        )
    if not as_json:
        superseded = done["superseded"]
        assert isinstance(superseded, list)
        if superseded:
            click.echo(f"merged {len(superseded)} into {done['keeper']}  {done['title']}")
        else:
            click.echo(
                f"cluster {number}: nothing merged (the others are in other layers, "
                "or were merged or changed meanwhile)"
            )
    return done
