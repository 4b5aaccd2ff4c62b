"""d20's evaluation of dice notation, with our dice and a bound on its work.

:mod:`bot.notation` reads the notation; this throws it. Three things differ from d20's own:

* **The dice come from the roll's own source** (:class:`Context`), one draw a die in the
  order d20 throws them, so a seeded roll repeats and a logged one replays.
* **Rerolls go left to right** (:class:`InOrder`): d20 rerolls the dice it selected in the
  order of a Python ``set``, which follows memory addresses, so the same draws could land on
  other dice from one run to the next.
* **The work is bounded**: every time an operation looks at a die counts, and past
  :data:`MAX_LOOKS` the roll stops (:class:`TooMuchWork`). d20 selected again for every die a
  keep looked at, and over every die again after each explosion or reroll: ``200d6k>1k>1...``
  took 0.9 s and ``1d6e>0e>0...`` half a second. Here a keep selects once, and an explosion or
  a reroll by value (``e6``, ``rr<3``: not the highest or lowest) looks only at the dice it
  has just thrown, the only ones whose selection can have changed. The results are d20's own
  (tests/test_notation.py compares them with the unmodified library).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import d20

# The most the operations of a roll look at its dice. A real roll asks a few hundred
# (`200d6kh100`, `10d6e6rr1`); at the limit, a roll takes about 15 ms.
MAX_LOOKS = 10_000


class TooMuchWork(Exception):
    """The roll's operations have looked at its dice more than MAX_LOOKS times."""


class Context(d20.RollContext):  # type: ignore[misc]  # d20 has no type information
    """d20's roll counter, which also hands out the faces (from a generator or a log) and
    counts the operations' looks."""

    def __init__(self, draw: Callable[[int], int], max_rolls: int) -> None:
        super().__init__(max_rolls=max_rolls)
        self.draw = draw
        self.faces: list[int] = []
        self.looks = 0

    def look(self, dice: int) -> None:
        """Count an operation looking at `dice` dice; TooMuchWork past :data:`MAX_LOOKS`."""
        self.looks += dice
        if self.looks > MAX_LOOKS:
            raise TooMuchWork

    def throw(self, size: int) -> int:
        self.count_roll()  # raises d20.TooManyRolls past the limit, before the die is thrown
        face = self.draw(size)
        self.faces.append(face)
        return face


class SeededDie(d20.Die):  # type: ignore[misc]  # d20 has no type information
    """A d20 die thrown with the roll's own source instead of the global ``random``."""

    __slots__ = ()

    def _add_roll(self) -> None:
        self.values.append(d20.Literal(self._context.throw(self.size)))


class SeededDice(d20.Dice):  # type: ignore[misc]  # d20 has no type information
    """d20's set of dice, made of :class:`SeededDie` (its own ``new`` and ``roll_another`` make
    the library's dice, which would throw with the global ``random``)."""

    __slots__ = ()

    @classmethod
    def new(cls, num: int, size: int, context: Context | None = None) -> SeededDice:
        return cls(
            num, size, [SeededDie.new(size, context=context) for _ in range(num)], context=context
        )

    def roll_another(self) -> None:
        self.values.append(SeededDie.new(self.size, context=self._context))


class InOrder(d20.SetOperator):  # type: ignore[misc]  # d20 has no type information
    """d20's set operations, rerolling left to right, each look at a die counted."""

    __slots__ = ("context",)

    def select(self, target: Any, max_targets: int | None = None) -> set[Any]:
        self.context.look(len(self.sels) * len(target.set))
        chosen: set[Any] = super().select(target, max_targets)
        return chosen

    def keep(self, target: Any) -> None:
        # d20 selects again for each die; dropping one it didn't select changes nothing.
        chosen = self.select(target)
        for value in target.keptset:
            if value not in chosen:
                value.drop()

    def reroll(self, target: Any) -> None:
        chosen = self._in_order(target)
        while chosen:
            for die in chosen:
                die.reroll()
            # Only a rerolled die has a new value; by value, only it can be chosen again.
            chosen = self._matching(chosen) if self._by_value() else self._in_order(target)

    def reroll_once(self, target: Any) -> None:
        for die in self._in_order(target):
            die.reroll()

    def explode(self, target: Any) -> None:
        if not self._by_value():  # the highest or lowest: any new die can change them
            super().explode(target)
            return
        chosen = self._matching(target.keptset)
        while chosen:
            thrown = len(target.values)
            for die in chosen:
                die.explode()
                target.roll_another()
            chosen = self._matching(target.values[thrown:])  # the others were looked at

    def _by_value(self) -> bool:
        return all(selector.cat not in ("h", "l") for selector in self.sels)

    def _matching(self, dice: Iterable[Any]) -> list[Any]:
        """The dice (kept, in order) a selection by value would choose."""
        kept = [die for die in dice if die.kept]
        self.context.look(len(self.sels) * len(kept))
        return [die for die in kept if any(_chooses(s, die.total) for s in self.sels)]

    def _in_order(self, target: Any) -> list[Any]:
        chosen = self.select(target)
        return [value for value in target.set if value in chosen]


def _chooses(selector: Any, total: int) -> bool:
    """d20's SetSelector for one die, by value: ``6``, ``<3``, ``>4``."""
    if selector.cat == "<":
        return bool(total < selector.num)
    if selector.cat == ">":
        return bool(total > selector.num)
    return bool(total == selector.num)


class Roller(d20.Roller):  # type: ignore[misc]  # d20 has no type information
    """d20's roller, with :class:`SeededDice` and :class:`InOrder` in place of its own."""

    def _eval_dice(self, node: Any) -> SeededDice:
        return SeededDice.new(node.num, node.size, context=self.context)

    def _eval_operatedset(self, node: Any) -> Any:
        # d20's own, with InOrder in place of its SetOperator.
        target = self._eval(node.value)
        for op in node.operations:
            operation = InOrder.from_ast(op)
            operation.context = self.context
            operation.operate(target)
            target.operations.append(operation)
        return target
