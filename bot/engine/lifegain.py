"""The life changes an entry declares (its `life:` key), and the sums that turn them into amounts.

A result may gain life (:class:`LifeGain`, the one gain that counts in a spite), and make other
changes (:class:`LifeChange`): lose or pay an amount, set a total, swap totals with an opponent,
rotate every total around the table, or change totals in a way only the table can see (the bot
then shows them as unsure). Pure data and arithmetic: the events that change life totals are
emitted by `outcomes` (for changes the table declares) and `survival` (for an amount or a
condition a spiting player is asked about).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.dice import DiceExpr, InlineRoll
from bot.engine.events import InlineDice

MAX_LIFE = 1_000_000  # a life total stays within ±this
MAX_ASKED = 20  # an asked amount is offered as 0..20; more is typed as "N life"


@dataclass(frozen=True, slots=True)
class LifeGain:
    """Life an entry gives its roller (or, with `each_player`, every player still in).

    `amount` is a number or dice; without one the amount is the card's X (`x`), the number the
    dice in the entry's text rolled (`rolled`) or, failing those, asked of the player when it
    matters (a spite; elsewhere the total is shown as unsure). `per_opponent` multiplies it by the
    number of opponents still in the game. A `condition` is a yes/no question put to the player
    first; nothing is gained on "no".
    """

    amount: DiceExpr | None = None
    x: bool = False
    per_opponent: bool = False
    each_player: bool = False
    condition: str = ""
    rolled: bool = False

    @property
    def asks(self) -> bool:
        """True when only the players can say how much (the bot asks during a spite)."""
        return self.amount is None and not self.x and not self.rolled

    @property
    def known(self) -> bool:
        """True when the bot can work out the gain alone: no question, no condition."""
        return not self.asks and not self.condition

    def describe(self) -> str:
        """The gain in words: "you gain 1d6 life", "each player gains 3 life"."""
        amount = (
            "X life"
            if self.x
            else "as much life as the dice in the text roll"
            if self.rolled
            else f"{self.amount.text} life"
            if self.amount
            else "life"
        )
        who = "each player gains" if self.each_player else "you gain"
        per = " per opponent" if self.per_opponent else ""
        asked = " (a spite asks how much)" if self.asks else ""
        condition = f", if the answer to {self.condition!r} is yes" if self.condition else ""
        return f"{who} {amount}{per}{asked}{condition}"


def card_x(inline: Sequence[InlineDice]) -> int:
    """The card's X as the roll event recorded it (0 if it has none)."""
    return next((d["total"] for d in inline if d["expr"].startswith("X=")), 0)


def given_x(inline: Sequence[InlineDice]) -> int | None:
    """The card's X as the roll event recorded it, or None when nobody gave one."""
    return next((d["total"] for d in inline if d["expr"].startswith("X=")), None)


def text_roll(inline: Sequence[InlineDice]) -> int | None:
    """The total of the first dice in the entry's text (``{1d6}``), or None if it has none."""
    return next((d["total"] for d in inline if not d["expr"].startswith("X=")), None)


class LifeOp(StrEnum):
    """A change to life totals other than a gain."""

    LOSE = "lose"  # the players named lose an amount
    PAY = "pay"  # the same as lose, as a cost
    SET = "set"  # the players' totals become an amount
    SWAP = "swap"  # the roller and an opponent exchange totals
    ROTATE = "rotate"  # every total moves one seat around the table
    UNSURE = "unsure"  # the totals change in a way only the table can see


class Who(StrEnum):
    """Whose total a change touches, as the entry's text says."""

    YOU = "you"  # the roller
    EACH = "each player"  # every player still in
    OPPONENTS = "each opponent"  # every player still in but the roller
    OPPONENT = "opponent"  # one opponent the text lets someone pick (known when only one is in)
    PLAYER = "player"  # one player the text lets someone pick, the roller included


class Swap(StrEnum):
    """Whom the roller swaps totals with."""

    OPPONENT = "opponent"  # an opponent someone picks: known when only one is in
    RANDOM = "random"  # an opponent picked by a die


class Rotate(StrEnum):
    """Where each total comes from in a rotation (seats run to each player's left: play passes
    left, as in Magic)."""

    LEFT = "left"  # each player takes the total of the player on their left (the next seat)
    RIGHT = "right"  # ... on their right (the seat before)
    NEXT = "next"  # ... of the player after them in the current direction of play
    PREVIOUS = "previous"  # ... of the player before them in the current direction of play


@dataclass(frozen=True, slots=True)
class Amount:
    """How much a change is: a number or dice, the card's X, the dice its text rolled, a share
    of each player's own total (`share`: half, third), a total read off the table (`table`:
    lowest, highest, average), or unknown (only the table can see it: the totals it touches
    become unsure). A share or an average is rounded `up` or down."""

    dice: DiceExpr | None = None
    x: bool = False
    rolled: bool = False
    share: Share | None = None
    table: Table | None = None
    up: bool = False

    @property
    def unknown(self) -> bool:
        return (
            self.dice is None
            and not self.x
            and not self.rolled
            and self.share is None
            and self.table is None
        )

    def describe(self, what: str = "life") -> str:
        """The amount in words: "2 life", "X life", "an amount of life only the table knows"."""
        rounded = f", rounded {'up' if self.up else 'down'}"
        if self.x:
            return f"X {what}"
        if self.rolled:
            return f"as much {what} as the dice in the text roll"
        if self.share is not None:
            return f"a {self.share.value} of their {what}{rounded}"
        if self.table is not None:
            average = rounded if self.table is Table.AVERAGE else ""
            return f"the {self.table.value} {what} total among the players still in{average}"
        if self.dice is not None:
            return f"{self.dice.text} {what}"
        return f"an amount of {what} only the table knows"

    def of_total(self, life: int) -> int:
        """A share of `life` (a total below 1 gives none)."""
        assert self.share is not None
        parts = 2 if self.share is Share.HALF else 3
        whole = max(life, 0)
        return -(-whole // parts) if self.up else whole // parts

    def of_table(self, totals: Sequence[int]) -> int:
        """The total read off the table's `totals`."""
        assert self.table is not None
        assert totals
        match self.table:
            case Table.LOWEST:
                return min(totals)
            case Table.HIGHEST:
                return max(totals)
            case Table.AVERAGE:
                whole, n = sum(totals), len(totals)
                return -(-whole // n) if self.up else whole // n


class Share(StrEnum):
    """A share of each player's own total."""

    HALF = "half"
    THIRD = "third"


class Table(StrEnum):
    """A total read off the table: every player still in."""

    LOWEST = "lowest"
    HIGHEST = "highest"
    AVERAGE = "average"


@dataclass(frozen=True, slots=True)
class LifeChange:
    """One change an entry makes to life totals besides its gain (see :class:`LifeOp`).

    `amount` is for lose, pay and set; `per_opponent` multiplies it by the roller's opponents
    still in. `who` is whose totals lose, pay, set and unsure touch. `swap` and `rotate` say
    with whom a swap is made and which way a rotation goes.
    """

    op: LifeOp
    amount: Amount | None = None
    who: Who = Who.YOU
    per_opponent: bool = False
    swap: Swap | None = None
    rotate: Rotate | None = None

    def describe(self) -> str:
        """The change in words: "each opponent loses 2 life", "swap totals with an opponent"."""
        who = {
            Who.YOU: "you",
            Who.EACH: "each player",
            Who.OPPONENTS: "each opponent",
            Who.OPPONENT: "an opponent",
            Who.PLAYER: "a player",
        }[self.who]
        you = self.who is Who.YOU
        amount = self.amount.describe() if self.amount is not None else ""
        per = " per opponent" if self.per_opponent else ""
        match self.op:
            case LifeOp.LOSE | LifeOp.PAY:
                verb = self.op.value if you else f"{self.op.value}s"
                return f"{who} {verb} {amount}{per}"
            case LifeOp.SET:
                whose = "your life total becomes" if you else f"the life total of {who} becomes"
                return f"{whose} {_number(self.amount)}{per}"
            case LifeOp.SWAP:
                picked = (
                    "an opponent picked by a die" if self.swap is Swap.RANDOM else "an opponent"
                )
                return f"you swap life totals with {picked}"
            case LifeOp.ROTATE:
                assert self.rotate is not None
                return f"each player takes the life total of the player {_FROM[self.rotate]}"
            case LifeOp.UNSURE:
                return f"the life total of {who} changes in a way only the table can see"


def _number(amount: Amount | None) -> str:
    """The number a total is set to, in words."""
    if amount is None or amount.unknown:
        return "a number only the table knows"
    if amount.rolled:
        return "what the dice in the text roll"
    if amount.table is not None or amount.share is not None:
        return amount.describe("life").replace(" life total", "").replace(" of their life", "")
    return "X" if amount.x else amount.dice.text if amount.dice is not None else ""


_FROM = {
    Rotate.LEFT: "on their left",
    Rotate.RIGHT: "on their right",
    Rotate.NEXT: "after them",
    Rotate.PREVIOUS: "before them",
}


def throws_dice(expr: DiceExpr) -> bool:
    """True when `expr` throws at least one die (a plain number needs none)."""
    return any(sides for _, _, sides in expr.terms)


def amounts(
    gain: LifeGain,
    owner: str,
    seated: Sequence[str],
    rng: random.Random | None,
    *,
    x: int = 0,
    rolled: int = 0,
    asked: int | None = None,
) -> tuple[list[tuple[str, int]], InlineRoll | None]:
    """Who gains how much: (player, amount) pairs, and the dice rolled for it (if any).

    `seated` are the players still in, the owner among them; `asked` is the amount the owner
    answered for a gain the table can't count (their whole gain: no multiplier applies).
    `rng` rolls the gain's dice (None when it has none); `rolled` is what the text's dice made.
    """
    if asked is not None:  # the player answered for themselves, all told
        return [(owner, max(asked, 0))], None
    thrown: InlineRoll | None = None
    if gain.x:
        each = x
    elif gain.rolled:
        each = rolled
    else:
        assert gain.amount is not None, "an asked gain needs the answer"
        if throws_dice(gain.amount):
            assert rng is not None, "a gain in dice needs its dice"
            thrown = gain.amount.roll(rng)
            each = thrown.total
        else:
            each = gain.amount.bounds()[0]
    if gain.per_opponent:
        each *= sum(1 for p in seated if p != owner)
    each = max(each, 0)
    who = list(seated) if gain.each_player else [owner]
    return [(player, each) for player in who], thrown
