"""A pattern's position automaton, counting the ways the backtracking matcher can go.

One state for every character the pattern reads (state 0 starts), and an edge from each to
every one that can come next. Two things of ``re``'s own are kept on the edges:

* **How many ways** lead from one state to the next, none, one or two and more: in
  ``(a+)+`` both the inner and the outer loop go from ``a`` back to ``a``, and in
  ``(?:x|x?)`` (which ``re`` reads as ``x(?:|)``) two empty branches lead on. Each is another
  path the matcher tries, so two ways on one edge are ambiguity as much as two states are.
* **Zero-width assertions** (``^``, ``$``, ``\\b``, ``\\A``, ``\\Z``): which kinds of character
  (none, at an edge of the text; newline; word character; other) they let stand before and
  after. :class:`Graph` splits each state by the kind it reads and keeps an edge only where
  its assertions hold.

Lookarounds let everything through here and are checked as patterns of their own. A repeat
of at most :data:`UNROLL` is written out (it can't loop); a larger one is taken as a loop.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from re import _constants as C  # type: ignore[attr-defined]  # typeshed has no stub for it
from typing import Any

from tests.backtrack.chars import Unsupported, children, is_word, reads

UNROLL = 10
EDGE, NEWLINE, WORD, OTHER = range(4)  # the kinds of character beside an assertion
ALL = (1 << 16) - 1  # bit 4 * before + after: that pair of kinds may stand there


class Mode(enum.Enum):
    """How a pattern is run: anchored at the start or not, and whether a match must end there."""

    SEARCH = "search"  # search, sub, subn, split, findall, finditer
    MATCH = "match"
    FULLMATCH = "fullmatch"

    @classmethod
    def of(cls, method: str) -> Mode:
        return {"match": cls.MATCH, "fullmatch": cls.FULLMATCH}.get(method, cls.SEARCH)


@dataclass(frozen=True, slots=True)
class Ways:
    """For each (before, after) pair of kinds: at least one way across, and at least two."""

    once: int = 0
    twice: int = 0

    def __or__(self, other: Ways) -> Ways:  # this way or that: they add up
        return Ways(self.once | other.once, self.twice | other.twice | (self.once & other.once))

    def __and__(self, other: Ways) -> Ways:  # this way then that: they multiply
        return Ways(self.once & other.once, (self.twice & other.once) | (self.once & other.twice))

    def __bool__(self) -> bool:
        return bool(self.once)


ONE = Ways(ALL)
NONE = Ways()


def _guard(allowed: Callable[[int, int], bool]) -> Ways:
    return Ways(sum(1 << (4 * b + a) for b in range(4) for a in range(4) if allowed(b, a)))


def _assertion(code: Any, flags: int) -> Ways:
    lines = bool(flags & C.SRE_FLAG_MULTILINE)
    at: dict[Any, Callable[[int, int], bool]] = {
        C.AT_BEGINNING: lambda b, a: b == EDGE or (lines and b == NEWLINE),
        C.AT_BEGINNING_STRING: lambda b, a: b == EDGE,
        C.AT_END: lambda b, a: a in (EDGE, NEWLINE),
        C.AT_END_STRING: lambda b, a: a == EDGE,
        C.AT_BOUNDARY: lambda b, a: (b == WORD) != (a == WORD),
        C.AT_NON_BOUNDARY: lambda b, a: (b == WORD) == (a == WORD),
    }
    if code not in at:
        raise Unsupported(f"the assertion {code}")
    return _guard(at[code])


@dataclass
class _Part:
    """A piece of pattern: the states it can start and end on, each with the ways from (or
    to) its edge, and the ways across it reading nothing (NONE: it must read)."""

    first: dict[int, Ways] = field(default_factory=dict)
    last: dict[int, Ways] = field(default_factory=dict)
    empty: Ways = NONE


def _merge(into: dict[int, Ways], more: dict[int, Ways], ways: Ways = ONE) -> None:
    for state, w in more.items():
        if w := w & ways:
            into[state] = into.get(state, NONE) | w


class Automaton:
    """The automaton of parse tree `tree`; run as a search, a state before the pattern reads
    anything and goes round (the matcher trying each start)."""

    def __init__(self, tree: Any, flags: int, mode: Mode, alphabet: str) -> None:
        self.flags = flags
        self.alphabet = alphabet
        self.reads: list[frozenset[str]] = [frozenset()]
        self.follow: dict[int, dict[int, Ways]] = {0: {}}
        self.lookarounds: list[tuple[Any, int]] = []  # (tree, flags): checked on their own
        whole = self._sequence(tree, flags)
        self.last = whole.last
        if mode is Mode.SEARCH:
            skip = self._state(frozenset(alphabet))
            self.follow[0][skip] = ONE
            self.follow[skip][skip] = ONE
            _merge(self.follow[skip], whole.first)
        _merge(self.follow[0], whole.first)

    def _state(self, chars: frozenset[str]) -> int:
        self.reads.append(chars)
        self.follow[len(self.reads) - 1] = {}
        return len(self.reads) - 1

    def _sequence(self, tree: Any, flags: int) -> _Part:
        part = _Part(empty=ONE)
        for op, av in tree:
            part = self._then(part, self._item(op, av, flags))
        return part

    def _then(self, a: _Part, b: _Part) -> _Part:
        for end, ways in a.last.items():
            _merge(self.follow[end], b.first, ways)
        first = dict(a.first)
        _merge(first, b.first, a.empty)
        last = dict(b.last)
        _merge(last, a.last, b.empty)
        return _Part(first, last, a.empty & b.empty)

    def _loop(self, body: _Part) -> None:
        for end, ways in body.last.items():
            _merge(self.follow[end], body.first, ways)

    def _item(self, op: Any, av: Any, flags: int) -> _Part:
        if op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
            state = self._state(frozenset(c for c in self.alphabet if reads(op, av, c, flags)))
            return _Part({state: ONE}, {state: ONE})
        if op is C.SUBPATTERN:
            return self._sequence(av[3], (flags | av[1]) & ~av[2])
        if op is C.ATOMIC_GROUP:  # it backtracks less, never more: read as a plain group
            return self._sequence(av, flags)
        if op is C.BRANCH or op is C.GROUPREF_EXISTS:
            part = _Part()
            for sub in children(op, av):
                one = self._sequence(sub, flags)
                _merge(part.first, one.first)
                _merge(part.last, one.last)
                part.empty |= one.empty
            if op is C.GROUPREF_EXISTS and av[2] is None:
                part.empty |= ONE
            return part
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            return self._repeat(av[0], av[1], av[2], flags)
        if op is C.AT:
            return _Part(empty=_assertion(av, flags))
        if op in (C.ASSERT, C.ASSERT_NOT):
            self.lookarounds.append((av[1], flags))
            return _Part(empty=ONE)
        if op is C.GROUPREF:
            raise Unsupported("a backreference (\\1): its text is only known while matching")
        raise Unsupported(f"the item {op}")

    def _repeat(self, low: int, high: int, body: Any, flags: int) -> _Part:
        part = _Part(empty=ONE)
        if high is C.MAXREPEAT or high > UNROLL:
            for _ in range(min(low, 2) - 1):
                part = self._then(part, self._sequence(body, flags))
            loop = self._sequence(body, flags)
            self._loop(loop)
            # An empty turn is tried once and stopped: re doesn't go round reading nothing.
            loop.empty = ONE if low == 0 else loop.empty
            return self._then(part, loop)
        for _ in range(low):
            part = self._then(part, self._sequence(body, flags))
        optional = _Part(empty=ONE)  # (x(x(x)?)?)?: one way to read each count, as re does
        for _ in range(high - low):
            optional = self._then(self._sequence(body, flags), optional)
            optional.empty = ONE
        return self._then(part, optional)


class Graph:
    """The automaton with each state split by the kind of character it reads, so that an
    edge stays only where its assertions hold. ``double`` holds the edges two ways take;
    ``ends`` the states where a match may end whatever comes next."""

    def __init__(self, auto: Automaton) -> None:
        kinds = (NEWLINE, WORD, OTHER)
        self.nodes: list[tuple[int, int]] = [(0, EDGE)]
        self.reads: list[frozenset[str]] = [frozenset()]
        index: dict[tuple[int, int], int] = {(0, EDGE): 0}
        for state in range(1, len(auto.reads)):
            for kind in kinds:
                chars = frozenset(c for c in auto.reads[state] if _kind(c, auto.flags) == kind)
                if chars:
                    index[state, kind] = len(self.nodes)
                    self.nodes.append((state, kind))
                    self.reads.append(chars)
        self.edges: list[list[int]] = [[] for _ in self.nodes]
        self.double: set[tuple[int, int]] = set()
        for node, (state, kind) in enumerate(self.nodes):
            for target, ways in auto.follow[state].items():
                for after in kinds:
                    there = index.get((target, after))
                    bit = 1 << (4 * kind + after)
                    if there is not None and ways.once & bit:
                        self.edges[node].append(there)
                        if ways.twice & bit:
                            self.double.add((node, there))
        self.ends = {
            node
            for node, (state, kind) in enumerate(self.nodes)
            if state in auto.last
            and all(auto.last[state].once >> (4 * kind + after) & 1 for after in range(4))
        }


def _kind(char: str, flags: int) -> int:
    return NEWLINE if char == "\n" else WORD if is_word(char, flags) else OTHER
