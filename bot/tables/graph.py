"""Cycles between lists: which lists can lead back to themselves through links and multi-rolls.

The engine always stops a resolution when its roll budget runs out, so a cycle can't hang the
bot; but a cycle is only *meant* when the ruleset says how far it may go. So a ruleset whose
lists form a cycle must declare its ``budget`` (see :mod:`bot.tables.folders`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from bot.tables.schema import Reference


def cycles(edges: Iterable[Reference]) -> list[list[Reference]]:
    """One cycle (as the references that make it, in order) for each group of lists that can
    lead back to itself; the groups come in order of their first list's id.
    """
    out: dict[str, list[Reference]] = {}
    for ref in edges:
        assert ref.source is not None
        out.setdefault(ref.source, []).append(ref)
    found = []
    for group in _strongly_connected(out):
        start = min(group)
        loop = _shortest_loop(start, group, out)
        if loop:
            found.append(loop)
    return sorted(found, key=lambda loop: loop[0].source or "")


def _strongly_connected(out: dict[str, list[Reference]]) -> list[set[str]]:
    """Tarjan's algorithm, with an explicit stack so a long chain of lists can't overflow."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[set[str]] = []
    nodes = sorted(set(out) | {ref.target for refs in out.values() for ref in refs})
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = [ref.target for ref in out.get(node, [])]
            if i < len(targets):
                work.append((node, i + 1))
                target = targets[i]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                groups.append(group)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return groups


def _shortest_loop(
    start: str, group: set[str], out: dict[str, list[Reference]]
) -> list[Reference] | None:
    """The shortest way from `start` back to itself inside `group`, or None if there is none."""
    came: dict[str, Reference] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for ref in out.get(node, []):
            if ref.target not in group:
                continue
            if ref.target == start:
                loop = [ref]
                while loop[0].source != start:
                    loop.insert(0, came[loop[0].source or ""])
                return loop
            if ref.target not in came:
                came[ref.target] = ref
                queue.append(ref.target)
    return None


def describe_cycle(loop: list[Reference]) -> str:
    """``lists a -> b -> a form a cycle (a.yaml:12 leads to b, b.yaml:30 leads to a)``."""
    names = [loop[0].source or "?", *(ref.target for ref in loop)]
    steps = ", ".join(f"{ref.file}:{ref.line} leads to {ref.target}" for ref in loop)
    if len(loop) == 1:
        return f"list {names[0]} rolls on itself ({steps}), so it forms a cycle"
    return f"lists {' -> '.join(names)} form a cycle ({steps})"
