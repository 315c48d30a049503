"""MemStore's writes: save (a draft built from checked arguments), dedupe, forget, promote."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memcli.api_calls import checks
from memcli.core.errors import InvalidInput

if TYPE_CHECKING:
    from memcli.api import MemStore, Records, SecretsPolicy
    from memcli.core.draft import Draft


def draft_of(
    content: tuple[object, object, object, object, object, object, object, object],
    provenance: tuple[object, object, object],
    supersedes: object,
    guards: object,
    guard_action: object,
) -> Draft:
    """The draft ``MemStore.save`` stores, each argument checked: ``content`` is its text,
    type, title, facts, concepts, files, key and importance; ``provenance`` its session,
    agent and project_commit."""
    from memcli.core.draft import Draft, parse_guards
    from memcli.core.validate import check_importance, check_key, check_type

    text, kind, title, facts, concepts, files, key, importance = content
    session, agent, project_commit = provenance
    return Draft(
        text=checks.text(text, "text"),
        type=check_type(checks.text(kind, "type")) if kind is not None else None,
        title=checks.optional_text(title, "title"),
        facts=checks.texts(facts, "facts"),
        concepts=checks.texts(concepts, "concepts"),
        files=checks.texts(files, "files"),
        key=check_key(checks.text(key, "key")) if key is not None else None,
        importance=check_importance(importance),
        session=checks.optional_text(session, "session"),
        agent=checks.optional_text(agent, "agent"),
        project_commit=checks.optional_text(project_commit, "project_commit"),
        supersedes=checks.texts(supersedes, "supersedes"),
        guards=parse_guards(guards, guard_action),
    )


def save_draft(
    store: MemStore, draft: Draft, secrets: SecretsPolicy, layer: str | None
) -> dict[str, Any]:
    """``MemStore.save_draft``: the draft saved in its layer, answered as a dict."""
    from memcli.core.serialize import record_dict

    checks.secrets_policy(secrets)
    with store.using() as memory:
        reader = checks.layered(memory)
        target = reader.save_target(draft, layer)
        writer = target.writer
        if layer is None and set(reader.layers.present()) - {target.layer}:
            # A memory another layer holds is no new memory either, unless a layer
            # is named: then only that layer's twin counts (another layer's copy may
            # be the team's, staged and not yet committed, or another person's).
            writer.seen = reader
        result = writer.save(draft, secrets=secrets)
        held = target.layer
        if result.action == "duplicate":  # the layer holding it, which may be another
            twins = writer.seen.resolve_each(result.record.id)
            held = next((e.layer for e in twins if e.path == result.path), twins[0].layer)
        team = reader.team_key(draft.key, target)
    answer = {
        **record_dict(result.record),
        "path": result.path,
        "layer": held,
        "action": result.action,
        "commit": result.commit,
    }
    if result.action == "duplicate":
        answer["duplicate_of"] = result.record.id
    else:
        answer["similar"] = [similar.to_json() for similar in result.similar]
    if team is not None:
        answer["key_held_by_team"] = team.id
    return answer


def dedupe(store: MemStore, apply: bool, threshold: float | None) -> dict[str, Any]:
    """``MemStore.dedupe``: the clusters found, each merged when ``apply``."""
    from memcli.retrieval.likeness import THRESHOLD
    from memcli.service.dedupe import find_clusters, merge_cluster

    if threshold is not None and (
        isinstance(threshold, bool)
        or not isinstance(threshold, int | float)
        or not 0.3 <= threshold <= 1
    ):
        raise InvalidInput("threshold must be a number from 0.3 to 1")
    with store.using() as memory:
        memory.require_store()
        layers = checks.layered(memory).layers
        memories = [layers.memory(name) for name in layers.present()]
        clusters = find_clusters(memories, threshold=threshold or THRESHOLD)
        team = layers.home == "team"  # the team's memories merge when its store is named
        merged = (
            [merge_cluster(memories, cluster, team=team) for cluster in clusters] if apply else []
        )
    names = [m.layer for m in memories]
    return {"clusters": [c.to_json(names) for c in clusters], "merged": merged}


def forget(store: MemStore, ids: object) -> Records:
    """``MemStore.forget``: one commit in each layer holding one of them."""
    refs = checks.refs(ids)
    forgotten: Records = []
    with store.using() as memory:
        for layer, chosen in checks.layered(memory).owners(refs).items():
            own = checks.layered(memory).layer_memory(layer)
            entries, commit = own.writer.forget(chosen)
            forgotten += [{**entry, "commit": commit} for entry in own.entry_dicts(entries)]
    return forgotten


def promote(
    store: MemStore, ref: object, to: object, secrets: SecretsPolicy, dry_run: object
) -> dict[str, Any]:
    """``MemStore.promote``: the memory moved, answered as a dict."""
    from memcli.core.serialize import record_dict
    from memcli.service.promote import promote

    checks.secrets_policy(secrets)
    target = checks.text(to, "to")
    if not isinstance(dry_run, bool):
        raise InvalidInput("dry_run must be true or false")
    with store.using() as memory:
        moved = promote(
            checks.layered(memory),
            checks.text(ref, "ref"),
            target,
            secrets=secrets,
            dry_run=dry_run,
        )
    result = {
        **record_dict(moved.record),
        "layer": moved.destination,
        "from": moved.source,
        "path": moved.path,
        "commit": moved.commit,
        "removed": moved.removed,
    }
    return result | {"text": moved.text} if dry_run else result
