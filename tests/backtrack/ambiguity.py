"""Where a pattern's automaton is ambiguous enough to make the matcher backtrack without end.

* **A loop read two ways** (exponential): pair the automaton with itself, both halves reading
  the same character at each step. A cycle through a state paired with itself, ``(q, q)``,
  that also passes a pair of two different states, or takes an edge two ways lead along, is
  two different paths from q back to q on one text: each turn round doubles the paths.
* **Two loops in a row** (polynomial): states p and q on different loops, and one text on
  which p goes round to p, p goes to q, and q goes round to q: a path in the automaton taken
  three times over, from ``(p, p, q)`` to ``(p, q, q)``. Each split of the text between the
  loops is a path, n^2 of them (a third loop makes n^3).

Both searches keep to the strongly connected components the loops are in, so they stay small.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from re import _parser as P  # type: ignore[attr-defined]  # typeshed has no stub for it
from typing import Any

from tests.backtrack.automaton import Automaton, Graph, Mode
from tests.backtrack.chars import probes


@dataclass(frozen=True)
class Finding:
    """A way to make the pattern backtrack: ``prefix + word * n`` and a character that fails."""

    kind: str  # "exponential" or "polynomial"
    prefix: str
    word: str

    def __str__(self) -> str:
        ways = "2^n ways" if self.kind == "exponential" else "n^2 ways or more"
        return f"{self.prefix!r} + {self.word!r} * n can be read {ways} ({self.kind})"


def components(nodes: Iterable[Any], edges: Callable[[Any], Iterable[Any]]) -> dict[Any, int]:
    """Tarjan's strongly connected components of everything reachable from `nodes`, without
    recursion: node -> component number."""
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    comp: dict[Any, int] = {}
    stack: list[Any] = []
    count = 0
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        work = [(root, iter(edges(root)))]
        while work:
            node, todo = work[-1]
            for child in todo:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(edges(child))))
                    break
                if child not in comp:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    while True:
                        top = stack.pop()
                        comp[top] = count
                        if top == node:
                            break
                    count += 1
    return comp


def path(start: Any, goal: Any, edges: Callable[[Any], Iterable[Any]]) -> list[Any] | None:
    """The shortest path of at least one step from `start` to `goal`, without `start`."""
    came: dict[Any, Any] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in edges(node):
            if child in came:
                continue
            came[child] = node
            if child == goal:
                steps = [child]
                while (before := came[steps[-1]]) != start:
                    steps.append(before)
                return steps[::-1]
            queue.append(child)
    return None


def reachable(start: Any, edges: Callable[[Any], Iterable[Any]]) -> set[Any]:
    seen = {start}
    todo = [start]
    while todo:
        for child in edges(todo.pop()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


class Ambiguity:
    """The loops of a :class:`Graph` and what can be read round them more than one way."""

    def __init__(self, graph: Graph, mode: Mode) -> None:
        self.g = graph
        self.mode = mode
        self.comp = components([0], self.next)
        self.members: dict[int, set[int]] = {}
        for node, number in self.comp.items():
            self.members.setdefault(number, set()).add(node)
        self.back: dict[int, list[int]] = {n: [] for n in self.comp}
        for node in self.comp:
            for child in graph.edges[node]:
                self.back[child].append(node)
        self.loops = sorted(
            number
            for number, nodes in self.members.items()
            if len(nodes) > 1 or any(n in graph.edges[n] for n in nodes)
        )

    def next(self, node: int) -> list[int]:
        return self.g.edges[node]

    def findings(self) -> list[Finding]:
        found = [f for number in self.loops if (f := self.two_ways(number))]
        # Without a loop read two ways, look for loops in a row (one read two ways is also
        # two loops in a row, and is already worse).
        return found or list(itertools.islice(self.in_a_row(), 1))

    def label(self, steps: Sequence[Any]) -> str:
        """A text that takes every step (a state, or a tuple of states at once)."""
        chars = []
        for step in steps:
            states = step if isinstance(step, tuple) else (step,)
            chars.append(min(frozenset.intersection(*(self.g.reads[s] for s in states))))
        return "".join(chars)

    def prefix(self, state: int) -> str:
        return self.label(path(0, state, self.next) or [])

    def two_ways(self, number: int) -> Finding | None:
        inside = self.members[number]
        g = self.g

        def pairs(node: tuple[int, int]) -> Iterator[tuple[int, int]]:
            a, b = node
            for x in g.edges[a]:
                if x in inside:
                    for y in g.edges[b]:
                        if y in inside and g.reads[x] & g.reads[y]:
                            yield (x, y)

        comp = components([(q, q) for q in sorted(inside)], pairs)
        for node, k in comp.items():
            a, b = node
            if a != b:  # two states at once: is it on a cycle with a state paired with itself?
                same = next((n for n in comp if comp[n] == k and n[0] == n[1]), None)
                if same is None:
                    continue
                there, back = path(same, node, pairs), path(node, same, pairs)
                assert there is not None
                assert back is not None
                return Finding("exponential", self.prefix(same[0]), self.label(there + back))
            for x in g.edges[a]:  # one state with an edge two ways take, on a cycle
                if (a, x) in g.double and comp.get((x, x)) == k:
                    back = path((x, x), node, pairs) if x != a else []
                    assert back is not None
                    return Finding("exponential", self.prefix(x), self.label([(x, x), *back]))
        return None

    def in_a_row(self) -> Iterator[Finding]:
        g = self.g
        toward = {n: reachable(min(self.members[n]), self.back.__getitem__) for n in self.loops}
        for first, second in itertools.product(self.loops, repeat=2):
            one, two = self.members[first], self.members[second]
            if first == second or not one & toward[second]:  # the second loop can't follow
                continue
            for p, q in itertools.product(sorted(one), sorted(two)):
                if q in g.ends and self.mode is not Mode.FULLMATCH:
                    continue  # the match can end in q's loop wherever it stops: found at once
                found = self.three_paths(p, q, one, two, toward[second])
                if found is not None:
                    yield found

    def three_paths(
        self, p: int, q: int, one: set[int], two: set[int], toward: set[int]
    ) -> Finding | None:
        """A text on which p goes round to p, p goes to q and q goes round to q, if any."""
        g = self.g

        def steps(node: tuple[int, int, int]) -> Iterator[tuple[int, int, int]]:
            a, b, c = node
            for x in g.edges[a]:
                if x not in one:
                    continue
                for y in g.edges[b]:
                    if y not in toward or not g.reads[x] & g.reads[y]:
                        continue
                    for z in g.edges[c]:
                        if z in two and g.reads[x] & g.reads[y] & g.reads[z]:
                            yield (x, y, z)

        found = path((p, p, q), (p, q, q), steps)
        if found is None:
            return None
        return Finding("polynomial", self.prefix(p), self.label(found))


def analyse(pattern: str, flags: int = 0, mode: Mode = Mode.SEARCH) -> list[Finding]:
    """The ways found for `pattern`, run as `mode`, to backtrack more than linearly.

    Raises :class:`~tests.backtrack.chars.Unsupported` for what the check can't read.
    """
    tree = P.parse(pattern, flags)
    return _analyse(tree, tree.state.flags, mode, probes(tree))


def _analyse(tree: Any, flags: int, mode: Mode, alphabet: str) -> list[Finding]:
    auto = Automaton(tree, flags, mode, alphabet)
    found = Ambiguity(Graph(auto), mode).findings()
    for inner, inner_flags in auto.lookarounds:  # each is matched where it stands
        found += _analyse(inner, inner_flags, Mode.MATCH, alphabet)
    return found
