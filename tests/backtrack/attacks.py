"""Texts to run a pattern on, made from the pattern itself, far longer than a member can send.

The check on the automaton says where a pattern is ambiguous; these texts find out whether the
matcher really is slow there, without trusting that check:

* **each repeat pumped**: the pattern written out once, with one of its repeats written many
  times over (each alternative, and other characters of each class, the pattern's own
  literals first, in turn), then cut just
  after the repeat or not, and ended with a character that no part of the pattern reads, so
  the match fails and every way back is tried;
* **each character and each word of the pattern repeated**, then the failing character;
* **random texts** of the pattern's own characters.
"""

from __future__ import annotations

import itertools
import random
from re import _constants as C  # type: ignore[attr-defined]  # typeshed has no stub for it
from re import _parser as P  # type: ignore[attr-defined]  # typeshed has no stub for it
from typing import Any

from tests.backtrack.ambiguity import Finding
from tests.backtrack.chars import children, items, probes, reads

SIZE = 20_000


class _Writer:
    """Writes out a text the pattern reads (up to where it fails), choosing the `choice`-th
    alternative and character throughout, with the repeat `pump` written `times` times."""

    def __init__(
        self, flags: int, alphabet: str, choice: int, pump: int, size: int, least: int
    ) -> None:
        self.flags = flags
        self.alphabet = alphabet
        self.choice = choice
        self.pump = pump
        self.size = size
        self.out: list[str] = []
        self.cut = 0  # where the pumped repeat ends
        self.inside = False  # writing the pumped repeat, whose own repeats go round...
        self.least = least  # ...at least this often (a loop of empty turns is no attack)

    def sequence(self, tree: Any, flags: int) -> None:
        for op, av in tree:
            self.item(op, av, flags)

    def item(self, op: Any, av: Any, flags: int) -> None:
        if op is C.LITERAL:
            self.out.append(chr(av))
        elif op in (C.NOT_LITERAL, C.ANY, C.IN):
            chars = [c for c in self.alphabet if reads(op, av, c, flags)]
            self.out.append(chars[self.choice % len(chars)] if chars else "")
        elif op is C.SUBPATTERN:
            self.sequence(av[3], (flags | av[1]) & ~av[2])
        elif op is C.ATOMIC_GROUP:
            self.sequence(av, flags)
        elif op in (C.BRANCH, C.GROUPREF_EXISTS):
            options = children(op, av)
            towards = [sub for sub in options if _holds(sub, self.pump)]
            pick = towards or options
            self.sequence(pick[self.choice % len(pick)], flags)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            self.repeat(av, flags)

    def repeat(self, av: Any, flags: int) -> None:
        low, high, body = av
        if id(av) != self.pump:
            for _ in range(max(low, self.least) if self.inside else low):
                self.sequence(body, flags)
            return
        start = len(self.out)
        self.inside = True
        self.sequence(body, flags)
        self.inside = False
        once = "".join(self.out[start:]) or " "
        del self.out[start:]
        limit = high if high is not C.MAXREPEAT else self.size
        self.out.append(once * max(1, min(limit, self.size // len(once))))
        self.cut = len(self.out)


def _holds(tree: Any, target: int) -> bool:
    return any(id(av) == target for _, av in items(tree))


def attacks(pattern: str, flags: int = 0, found: list[Finding] | None = None) -> list[str]:
    """The texts to try `pattern` on (about :data:`SIZE` characters each)."""
    tree = P.parse(pattern, flags)
    flags = tree.state.flags
    # The pattern's own literals first, so a class picks what another part also reads.
    literals = [
        chr(value)
        for op, av in items(tree)
        for kind, value in (av if op is C.IN else [(op, av)])
        if kind is C.LITERAL
    ]
    alphabet = "".join(dict.fromkeys(literals + list(probes(tree))))
    named = [c for c in alphabet if any(_reads_char(op, av, c, flags) for op, av in items(tree))]
    fail = next((c for c in "\x00\U0001f600\uffff\x7f" if c not in named), "\x00")
    texts: list[str] = []
    for op, av in items(tree):
        if op not in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) or av[1] < 2:
            continue
        for choice, least in itertools.product(range(4), (0, 1)):
            writer = _Writer(flags, alphabet, choice, id(av), SIZE, least)
            writer.sequence(tree, flags)
            whole = "".join(writer.out)
            upto = "".join(writer.out[: writer.cut])
            texts += [whole + fail, upto + fail, upto]
    for char in named:
        texts.append(char * SIZE + fail)
    for word in _words(tree):
        texts.append(word * (SIZE // len(word)) + fail)
    rng = random.Random(pattern)
    for _ in range(3):
        texts.append("".join(rng.choice(named or alphabet) for _ in range(SIZE)))
    for finding in found or []:
        texts.append(finding.prefix + finding.word * (SIZE // max(1, len(finding.word))) + fail)
    return list(dict.fromkeys(texts))


def _reads_char(op: Any, av: Any, char: str, flags: int) -> bool:
    return op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN) and reads(op, av, char, flags)


def _words(tree: Any) -> list[str]:
    """Runs of two or more literal characters in the pattern: ``kh``, ``adv``, ``://``."""
    words: list[str] = []
    for sequence in [tree, *(sub for op, av in items(tree) for sub in children(op, av))]:
        run = ""
        for op, av in [*sequence, (None, None)]:
            if op is C.LITERAL:
                run += chr(av)
                continue
            if len(run) > 1:
                words.append(run)
            run = ""
    return words
