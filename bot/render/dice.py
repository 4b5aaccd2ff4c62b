"""How a roll of dice notation is written out: every die shown, dropped ones marked.

The roll is data (:class:`bot.notation.DiceRoll`, d20's evaluated tree); writing it out is a
stringifier's business, one for each place it is read, the way d20 keeps its formatting apart
from its rolling:

* Discord (:func:`dice_markdown`): ``4d6kh3 (~~1~~, 4, 5, **6**) = `15```: a dropped die is
  struck through, a 1 or a highest face is bold, as Avrae writes it.
* A terminal (:func:`dice_plain`): ``4d6kh3 (1 dropped, 4, 5, 6) = 15``: no markdown at all (a
  console shows ``~~`` and ``**`` as they are typed), so a dropped die says so in words.

Both show a rerolled die as ``1 -> 4`` (the first face dropped), an exploded one as ``6!``
followed by the die it added, and a die raised or lowered by ``mi``/``ma`` as ``1 -> 3``.
A roll too long to show die by die in `limit` characters is written as its notation, how many
dice it threw and its total.
"""

from __future__ import annotations

from typing import Any

import d20

from bot.notation import DiceRoll
from bot.roller import SeededDice, SeededDie


class _Plain(d20.SimpleStringifier):  # type: ignore[misc]  # d20 has no type information
    """d20's simple form, with dropped dice marked ``dropped``."""

    def __init__(self) -> None:
        super().__init__()
        # The stringifier finds its method by the node's exact type; ours throw with our dice.
        self._nodes[SeededDice] = self._str_dice
        self._nodes[SeededDie] = self._str_die
        self._in_dropped = False

    def stringify(self, the_roll: Any) -> str:
        self._in_dropped = False
        return str(super().stringify(the_roll))

    def _stringify(self, node: Any) -> str:
        if node.kept or self._in_dropped:
            return str(super()._stringify(node))
        self._in_dropped = True
        try:
            return self._dropped(str(super()._stringify(node)))
        finally:
            self._in_dropped = False

    def _dropped(self, text: str) -> str:
        return f"{text} dropped"


class _Markdown(_Plain):
    """For Discord: Avrae's look, and a ``*`` between numbers that can't start italics."""

    def _dropped(self, text: str) -> str:
        return f"~~{text}~~"

    def _str_expression(self, node: Any) -> str:
        return f"{self._stringify(node.roll)} = `{int(node.total)}`"

    def _str_binop(self, node: Any) -> str:
        op = "\\*" if node.op == "*" else node.op
        return f"{self._stringify(node.left)} {op} {self._stringify(node.right)}"

    def _str_die(self, node: Any) -> str:
        shown = []
        for value in node.values:
            inside = self._stringify(value)
            if value.number == 1 or value.number == node.size:
                inside = f"**{inside}**"
            shown.append(inside)
        return ", ".join(shown)


def dice_plain(rolled: DiceRoll, limit: int | None = None) -> str:
    """The roll for a terminal: ``4d6kh3 (1 dropped, 4, 5, 6) = 15``."""
    return _fit(_Plain().stringify(rolled.tree), rolled, limit, f"{rolled.total}")


def dice_markdown(rolled: DiceRoll, limit: int | None = None) -> str:
    """The roll for Discord: ``4d6kh3 (~~1~~, 4, 5, **6**) = `15```."""
    return _fit(_Markdown().stringify(rolled.tree), rolled, limit, f"`{rolled.total}`")


def _fit(text: str, rolled: DiceRoll, limit: int | None, total: str) -> str:
    if limit is None or len(text) <= limit:
        return text
    count = len(rolled.faces)
    return f"{rolled.text} = {total} ({count} dice: too many to show each one here)"
