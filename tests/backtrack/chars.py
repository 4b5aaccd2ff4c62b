"""What one character of a pattern reads, over a finite alphabet of probe characters.

Two classes of a pattern "can read the same character" when a probe is in both. The probes
are every character the pattern names (literals, and the ends and middle of its ranges, in
both cases when it ignores case) and one character of each kind a category tells apart
(newline, space, tab, NUL, letters, digits, ``_``, punctuation, an accented letter, a non-ASCII
digit and space, an emoji). Two of our classes that share a character share one of those.
"""

from __future__ import annotations

from collections.abc import Iterator
from re import _constants as C  # type: ignore[attr-defined]  # typeshed has no stub for it
from typing import Any

KINDS = "\n \t\x00aZ09_-.!é٣\u2003\U0001f600"  # one of each kind, with and without


class Unsupported(ValueError):
    """A pattern the check can't read (a backreference): it must be rewritten to be checked."""


def items(tree: Any) -> Iterator[tuple[Any, Any]]:
    """Every (op, av) in a parse tree of ``re._parser``, depth first."""
    for op, av in tree:
        yield op, av
        for sub in children(op, av):
            yield from items(sub)


def children(op: Any, av: Any) -> list[Any]:
    """The sub-trees of one item: a branch's alternatives, a group's or a repeat's body..."""
    if op is C.BRANCH:
        return list(av[1])
    if op is C.SUBPATTERN:
        return [av[3]]
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        return [av[2]]
    if op in (C.ASSERT, C.ASSERT_NOT):
        return [av[1]]
    if op is C.ATOMIC_GROUP:
        return [av]
    if op is C.GROUPREF_EXISTS:
        return [p for p in av[1:] if p is not None]
    return []


def probes(tree: Any) -> str:
    """The characters to try each class of `tree` with."""
    found = set(KINDS)
    for op, av in items(tree):
        pairs = av if op is C.IN else [(op, av)]
        for kind, value in pairs:
            if kind in (C.LITERAL, C.NOT_LITERAL):
                found.add(chr(value))
            elif kind is C.RANGE:
                lo, hi = value
                found.update(
                    chr(n) for n in (lo, lo + 1, (lo + hi) // 2, hi - 1, hi) if lo <= n <= hi
                )
    found |= {c.lower() for c in found if len(c.lower()) == 1}
    found |= {c.upper() for c in found if len(c.upper()) == 1}
    return "".join(sorted(found))


def is_word(char: str, flags: int) -> bool:
    if flags & C.SRE_FLAG_ASCII:
        return char.isascii() and (char.isalnum() or char == "_")
    return char.isalnum() or char == "_"


def reads(op: Any, av: Any, char: str, flags: int) -> bool:
    """Whether one character of the pattern (a literal, a class, a dot) reads `char`."""
    fold = bool(flags & C.SRE_FLAG_IGNORECASE)
    same = {char, char.lower(), char.upper()} if fold else {char}
    if op is C.LITERAL:
        return chr(av) in same or (fold and chr(av).lower() in same)
    if op is C.NOT_LITERAL:
        return not reads(C.LITERAL, av, char, flags)
    if op is C.ANY:
        return char != "\n" or bool(flags & C.SRE_FLAG_DOTALL)
    if op is C.IN:
        negate = bool(av) and av[0][0] is C.NEGATE
        return any(_in(kind, value, char, same, flags) for kind, value in av[negate:]) != negate
    raise Unsupported(f"the item {op}")


def _in(kind: Any, value: Any, char: str, same: set[str], flags: int) -> bool:
    if kind is C.LITERAL:
        return reads(C.LITERAL, value, char, flags)
    if kind is C.RANGE:
        return any(value[0] <= ord(c) <= value[1] for c in same if len(c) == 1)
    if kind is C.CATEGORY:
        return _category(value, char, flags)
    raise Unsupported(f"{kind} in a character class")


def _category(code: Any, char: str, flags: int) -> bool:
    ascii_only = bool(flags & C.SRE_FLAG_ASCII)
    digit = char in "0123456789" if ascii_only else char.isdecimal()
    space = char in " \t\n\r\f\v" if ascii_only else char.isspace()
    word = is_word(char, flags)
    kinds = {
        C.CATEGORY_DIGIT: digit,
        C.CATEGORY_NOT_DIGIT: not digit,
        C.CATEGORY_SPACE: space,
        C.CATEGORY_NOT_SPACE: not space,
        C.CATEGORY_WORD: word,
        C.CATEGORY_NOT_WORD: not word,
    }
    if code not in kinds:
        raise Unsupported(f"the category {code}")
    return kinds[code]
