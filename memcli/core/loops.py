"""Supersede loops: memories that replace each other, directly or through others.

mem refuses to write a loop, but a person can write one by hand (A supersedes B,
B supersedes A). Followed blindly, a loop hides every member from every read; mem
reads a memory in a loop as not superseded by the other members (a memory outside
the loop that replaces one still hides it), and ``mem doctor`` names the loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def loops(replaces: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Each loop of the graph id -> ids it supersedes, as its sorted members.

    A loop is a strongly connected component of two or more memories, or one that
    supersedes itself. Ids are compared case-insensitively (as the index does).
    """
    graph: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for source, targets in replaces.items():
        names.setdefault(source.upper(), source)
        edges = graph.setdefault(source.upper(), [])
        for target in targets:
            names.setdefault(target.upper(), target)
            edges.append(target.upper())
    found = [
        sorted(names[member] for member in component)
        for component in _components(graph)
        if len(component) > 1 or component[0] in graph.get(component[0], ())
    ]
    return sorted(found)


def _components(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, without recursion."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in graph:
        if root in order:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                order[node] = low[node] = len(order)
                stack.append(node)
                on_stack.add(node)
            edges = graph.get(node, [])
            if position < len(edges):
                work.append((node, position + 1))
                target = edges[position]
                if target not in order:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], order[target])
                continue
            if low[node] == order[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return components
