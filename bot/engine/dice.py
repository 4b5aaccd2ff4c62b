"""Dice: what a roll table is rolled with, and inline expressions like ``{1d6+1}`` in effect text.

Table dice (:class:`Die`, :class:`Sum`, :class:`TensUnits`) report the faces a player would see
on the real dice *and* the number looked up in the table, so any roll can be checked by hand.

Draws (what makes a seeded game replay exactly): ``Die``, ``TensUnits`` and any ``Sum`` with at
most 4096 face combinations use one ``rng.random()`` per roll, which picks a face combination
counted like an odometer with the first die as the slowest digit (the tens die for
``TensUnits``). Bigger sums and inline expressions use one ``rng.random()`` per die, in order.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from bot.engine.errors import DiceError

Faces = tuple[int, ...]
"""The faces showing on the physical dice, in the order the dice are listed."""

# Limits that keep a typo (or a prank) from asking the bot to throw a bucket of dice.
MAX_SIDES = 1000
# One die alone, as a table's dice (`dice: d2100`): an imported list weighted entry by entry
# needs as many sides as its weights add up to. Tables make at most 10,000 results anyway.
MAX_TABLE_SIDES = 10_000
MAX_DICE = 100
MAX_TERMS = 20
MAX_CONSTANT = 10_000
MAX_EXPR_CHARS = 100

# Above this many face combinations a Sum rolls die by die instead of keeping a lookup table;
# the table is only worth its memory for the small dice that tables actually use.
_TABLE_LIMIT = 4096

_Table = tuple[tuple[Faces, int], ...]


def _check_int(what: str, value: object, low: int, high: int) -> None:
    # Tables come from hand-written files, so a bool or a string can end up here despite typing.
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DiceError(f"{what} must be a whole number from {low} to {high}; got {value!r}.")


@runtime_checkable
class Dice(Protocol):
    """What a roll table is rolled with: :class:`Die`, :class:`Sum` or :class:`TensUnits`.

    ``weights`` tells a table author how often each entry should come up.
    """

    @property
    def notation(self) -> str:
        """Short, player-facing description of the dice, e.g. ``"2d10"``."""

    def roll(self, rng: random.Random) -> tuple[Faces, int]:
        """Throw the dice once: ``(faces as seen, resulting number)``."""

    def outcomes(self) -> range | tuple[int, ...]:
        """Every number the dice can produce, ascending, each once."""

    def weights(self) -> dict[int, int]:
        """For each possible number, how many face combinations produce it."""


@dataclass(frozen=True, slots=True)
class _TableDice:
    # Every (faces, result) pair is built once, so a roll is one draw and one lookup with no new
    # tuples. _size == 0 means there are too many combinations and the subclass rolls die by die.
    # int(random() * n) costs about half of randrange(n); with 53-bit floats and n <= 10,000
    # its bias is below one part in 10**11, far beneath anything a game could notice.
    _table: _Table = field(init=False, repr=False, compare=False)
    _size: int = field(init=False, repr=False, compare=False)

    def _fill(self, rows: Iterable[tuple[Faces, int]]) -> None:
        table = tuple(rows)
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_size", len(table))

    def roll(self, rng: random.Random) -> tuple[Faces, int]:
        """Throw the dice once: ``(faces as seen, resulting number)``."""
        return self._table[int(rng.random() * self._size)]


@dataclass(frozen=True, slots=True)
class Die(_TableDice):
    """One die with faces 1 to ``sides``; ``Die(20)`` is a d20. Every number is equally likely."""

    sides: int

    def __post_init__(self) -> None:
        _check_int("The number of sides on a die", self.sides, 2, MAX_TABLE_SIDES)
        self._fill(((f,), f) for f in range(1, self.sides + 1))

    @property
    def notation(self) -> str:
        """Written as ``d<sides>``, e.g. ``"d20"``."""
        return f"d{self.sides}"

    def outcomes(self) -> range:
        """1 to ``sides``."""
        return range(1, self.sides + 1)

    def weights(self) -> dict[int, int]:
        """Every face counts once."""
        return dict.fromkeys(self.outcomes(), 1)


@functools.lru_cache(maxsize=8)
def _sum_counts(count: int, sides: int) -> tuple[int, ...]:
    # ways[k] counts the face combinations totalling (dice so far + k). Adding a die sums a window
    # of `sides` entries of the previous row; prefix sums keep that linear even for 100d1000.
    ways = [1]
    for _ in range(count):
        acc = [0, *itertools.accumulate(ways)]
        top = len(ways)
        ways = [acc[min(k + 1, top)] - acc[max(k + 1 - sides, 0)] for k in range(top + sides - 1)]
    return tuple(ways)


@dataclass(frozen=True, slots=True)
class Sum(_TableDice):
    """``count`` dice of ``sides`` sides added together; ``Sum(2, 10)`` is 2d10 (2 to 20).

    Middle totals are more likely than the extremes: on 2d10 an 11 comes up ten times as often as
    a 2. The faces are each die's face, in order.
    """

    count: int
    sides: int

    def __post_init__(self) -> None:
        _check_int("The number of dice", self.count, 1, MAX_DICE)
        _check_int("The number of sides on a die", self.sides, 2, MAX_SIDES)
        small = self.sides**self.count <= _TABLE_LIMIT
        combos = itertools.product(range(1, self.sides + 1), repeat=self.count) if small else ()
        self._fill((faces, sum(faces)) for faces in combos)

    @property
    def notation(self) -> str:
        """Written as ``<count>d<sides>``, e.g. ``"2d10"``."""
        return f"{self.count}d{self.sides}"

    def roll(self, rng: random.Random) -> tuple[Faces, int]:
        """Throw all the dice and add them up."""
        if self._size:
            return self._table[int(rng.random() * self._size)]
        draw, sides = rng.random, self.sides
        faces = tuple([int(draw() * sides) + 1 for _ in range(self.count)])
        return faces, sum(faces)

    def outcomes(self) -> range:
        """``count`` (all ones) up to ``count * sides`` (all highest faces)."""
        return range(self.count, self.count * self.sides + 1)

    def weights(self) -> dict[int, int]:
        """How many face combinations give each total (computed on demand; slow for 100d1000)."""
        return dict(zip(self.outcomes(), _sum_counts(self.count, self.sides), strict=True))


@dataclass(frozen=True, slots=True)
class TensUnits(_TableDice):
    """A tens die and a d10 read together as one number, like percentile dice.

    The tens die has faces 1 to ``tens``; the units die is a real d10 whose faces read 0 to 9.
    The result is ``tens face × 10 + units face``, with two optional house readings:

    * ``tens_max_is_zero``: the tens die's highest face counts as 0.
    * ``units_zero_is_ten``: the d10's 0 counts as 10.

    With both (``TensUnits(20, True, True)``) a d20 and a d10 give 1 to 200, all equally likely:
    20 and 7 read 7, 20 and 0 read 10, 19 and 0 read 200. Without them, ``TensUnits(8)`` gives
    10 to 89. Faces are ``(tens face, units face)`` exactly as printed on the dice.
    """

    tens: int
    tens_max_is_zero: bool = False
    units_zero_is_ten: bool = False

    def __post_init__(self) -> None:
        _check_int("The number of sides on the tens die", self.tens, 2, MAX_SIDES)
        rows = []
        for t, u in itertools.product(range(1, self.tens + 1), range(10)):
            tens_value = 0 if (self.tens_max_is_zero and t == self.tens) else t
            units_value = 10 if (self.units_zero_is_ten and u == 0) else u
            rows.append(((t, u), tens_value * 10 + units_value))
        self._fill(rows)

    @property
    def notation(self) -> str:
        """E.g. ``"d20×d10 (20 counts as 0, 0 counts as 10)"``; plain ``"d8×d10"`` without rules."""
        rules = []
        if self.tens_max_is_zero:
            rules.append(f"{self.tens} counts as 0")
        if self.units_zero_is_ten:
            rules.append("0 counts as 10")
        base = f"d{self.tens}×d10"
        return f"{base} ({', '.join(rules)})" if rules else base

    def outcomes(self) -> range:
        """Every reachable number, ascending: 1 to 200 for the classic d20×d10 reading."""
        # Never any gaps: the tens readings are consecutive and the units cover ten in a row.
        results = [result for _, result in self._table]
        return range(min(results), max(results) + 1)

    def weights(self) -> dict[int, int]:
        """How many (tens, units) pairs read as each number; 1 each for the usual readings."""
        return dict(sorted(Counter(result for _, result in self._table).items()))


# --- Inline expressions ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InlineRoll:
    """One rolled inline expression: the notation, every die's face in order, and the total."""

    expr: str
    faces: Faces
    total: int

    def to_dict(self) -> dict[str, object]:
        """Plain data for logs and replays: ``{"expr": ..., "faces": [...], "total": ...}``."""
        return {"expr": self.expr, "faces": list(self.faces), "total": self.total}


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A sum of dice and numbers such as ``1d6+1`` or ``d20-1``; build it with :func:`parse_expr`.

    Each term is ``(sign, count, sides)``: sign is +1 or -1, and ``sides == 0`` means the plain
    number ``count``. ``text`` is the tidy notation shown to players.
    """

    terms: tuple[tuple[int, int, int], ...]
    text: str

    def __post_init__(self) -> None:
        if not self.terms:
            raise DiceError("Dice notation is empty; write something like '2d6+1'.")
        problem = ""
        if len(self.terms) > MAX_TERMS:
            problem = f"it has {len(self.terms)} terms; at most {MAX_TERMS} are allowed"
        elif (dice := sum(count for _, count, sides in self.terms if sides)) > MAX_DICE:
            problem = f"it throws {dice} dice; one expression may throw at most {MAX_DICE}"
        for sign, count, sides in self.terms:
            if problem:
                break
            if sign not in (1, -1):
                problem = f"a term has sign {sign!r}; use + or -"
            elif not sides and not 0 <= count <= MAX_CONSTANT:
                problem = f"plain numbers must be from 0 to {MAX_CONSTANT}; got {count}"
            elif sides and not 2 <= sides <= MAX_SIDES:
                problem = f"a die must have 2 to {MAX_SIDES} sides; got {sides}"
            elif sides and count < 1:
                problem = f"each die term must throw at least 1 die; got {count}"
        if problem:
            raise DiceError(f"{self.text!r}: {problem}.")

    def roll(self, rng: random.Random) -> InlineRoll:
        """Throw every die (one ``rng.random()`` each, left to right) and add up the total."""
        draw = rng.random
        faces: list[int] = []
        total = 0
        for sign, count, sides in self.terms:
            if not sides:
                total += sign * count
                continue
            for _ in range(count):  # a plain loop: a comprehension costs more for one or two dice
                face = int(draw() * sides) + 1
                faces.append(face)
                total += sign * face
        return InlineRoll(self.text, tuple(faces), total)

    def bounds(self) -> tuple[int, int]:
        """The lowest and highest total this can produce."""
        low = high = 0
        for sign, count, sides in self.terms:
            ends = (sign * count, sign * count * (sides or 1))  # all ones, all highest faces
            low, high = low + min(ends), high + max(ends)
        return low, high


# A sign, then either "<count>d<sides>" (count optional) or a plain number. Everything is
# optional so the pattern always matches and the parser can say *what* is wrong; an empty sides
# group lets a bare "d" get its own message.
_TERM = re.compile(r"([+-]?)(?:([0-9]*)[dD]([0-9]*)|([0-9]+))?")


def _unreadable(text: str, why: str) -> DiceError:
    return DiceError(f"Can't read {text!r} as dice: {why}. Write it like '2d6+1' or 'd20-1'.")


@functools.lru_cache(maxsize=1024)
def _parse(text: str) -> DiceExpr:
    if len(text) > MAX_EXPR_CHARS:
        raise DiceError(
            f"Dice notation may be at most {MAX_EXPR_CHARS} characters long; "
            f"got {len(text)} characters starting {text[:20]!r}."
        )
    compact = "".join(text.split())
    terms: list[tuple[int, int, int]] = []
    shown: list[str] = []
    pos = 0
    while pos < len(compact):
        match = _TERM.match(compact, pos)
        assert match is not None  # every part of the pattern is optional, so it always matches
        sign_text, count_text, sides_text, number_text = match.groups()
        rest = compact[match.end() :]
        if pos and not sign_text:
            raise _unreadable(text, f"expected + or - before {compact[pos:]!r}")
        if sides_text == "":
            raise _unreadable(text, "a 'd' needs its number of sides after it, like 'd6'")
        if sides_text is None and number_text is None:
            why = f"{rest!r} is not a number or a die" if rest else f"it ends with {sign_text!r}"
            raise _unreadable(text, why)
        sign = -1 if sign_text == "-" else 1
        if number_text is not None:
            terms.append((sign, int(number_text), 0))
            body = str(int(number_text))
        else:
            count = int(count_text) if count_text else 1
            if int(sides_text) < 2:
                # Checked here, not only in DiceExpr: a term with 0 sides means a plain number
                # there, so "5d0" would pass as the number 5.
                raise DiceError(
                    f"{text!r}: a die must have 2 to {MAX_SIDES} sides; got {int(sides_text)}."
                )
            terms.append((sign, count, int(sides_text)))
            body = f"{count if count_text else ''}d{int(sides_text)}"
        shown.append(("-" if sign < 0 else "+" if shown else "") + body)
        pos = match.end()
    return DiceExpr(tuple(terms), "".join(shown))


def parse_expr(text: str) -> DiceExpr:
    """Read notation like ``"1d6+1"``, ``"d20 - 1"``, ``"2D6"``, ``"4"`` or ``"1d6+1d4+2"``.

    Spaces are ignored and ``d`` may be upper case. One expression may have at most 20 terms,
    100 dice in total, 2 to 1000 sides per die, plain numbers from 0 to 10000, and 100 characters.
    Anything else raises :class:`DiceError` with a message saying what to fix.
    """
    return _parse(text)


# Only braces with a die in them are dice: mana symbols such as {W}, {2} or {T} stay as written.
# The text before the first d has no d, so a brace is read one way ({ddd... without a closing
# brace was split n^2 ways when both sides could hold a d).
_BRACES = re.compile(r"\{([^{}dD]*[dD][^{}]*)\}")


@functools.lru_cache(maxsize=512)
def _template(text: str) -> tuple[str, tuple[tuple[DiceExpr, str], ...]]:
    # Effect texts repeat all game long, so each is split and parsed once: the text before the
    # first brace, then (expression, text after it) pairs. re.split alternates text and contents.
    parts = _BRACES.split(text)
    return parts[0], tuple(zip(map(parse_expr, parts[1::2]), parts[2::2], strict=True))


def inline_exprs(text: str) -> tuple[DiceExpr, ...]:
    """Every ``{...}`` expression in effect text, parsed but not rolled, in reading order.

    Use it to check a table when it loads: a bad expression raises :class:`DiceError`. Braces
    without a ``d`` in them (mana symbols such as ``{W}``, ``{2}``, ``{T}``) and a lone ``{`` or
    ``}`` are left as ordinary text.
    """
    if "{" not in text:
        return ()
    return tuple(expr for expr, _ in _template(text)[1])


def render_inline(text: str, rng: random.Random) -> tuple[str, tuple[InlineRoll, ...]]:
    """Roll every ``{...}`` in ``text`` left to right and put each total in its place.

    ``"deals {1d6+1} damage"`` might become ``"deals 5 damage"``. Returns the new text and the
    rolls (for the game log). Text without braces comes back unchanged with no rolls.
    """
    if "{" not in text:
        return text, ()
    head, pairs = _template(text)
    pieces = [head]
    rolls = []
    for expr, after in pairs:
        rolled = expr.roll(rng)
        rolls.append(rolled)
        pieces += (str(rolled.total), after)
    return "".join(pieces), tuple(rolls)
