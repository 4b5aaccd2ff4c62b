"""How much life an entry gives (its `life:` key), and the sums that turn it into amounts.

Pure data and arithmetic: the events that change life totals are emitted by `outcomes` (for an
amount the table knows) and `survival` (for an amount or a condition a player is asked about).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.dice import DiceExpr, InlineRoll
from bot.engine.events import InlineDice

MAX_LIFE = 1_000_000  # a life total stays within ±this
MAX_ASKED = 20  # an asked amount is offered as 0..20; more is typed as "N life"


@dataclass(frozen=True, slots=True)
class LifeGain:
    """Life an entry gives its roller (or, with `each_player`, every player still in).

    `amount` is a number or dice; without one the amount is the card's X (`x`) or, failing
    that, asked of the player when it matters (a spite). `per_opponent` multiplies it by the
    number of opponents still in the game. A `condition` is a yes/no question put to the player
    first; nothing is gained on "no".
    """

    amount: DiceExpr | None = None
    x: bool = False
    per_opponent: bool = False
    each_player: bool = False
    condition: str = ""

    @property
    def asks(self) -> bool:
        """True when only the players can say how much (the bot asks during a spite)."""
        return self.amount is None and not self.x

    @property
    def known(self) -> bool:
        """True when the bot can work out the gain alone: no question, no condition."""
        return not self.asks and not self.condition

    def describe(self) -> str:
        """The gain in words: "you gain 1d6 life", "each player gains 3 life"."""
        amount = "X " if self.x else f"{self.amount.text} " if self.amount else ""
        who = "each player gains" if self.each_player else "you gain"
        per = " per opponent" if self.per_opponent else ""
        asked = " (a spite asks how much)" if self.asks else ""
        condition = f", if the answer to {self.condition!r} is yes" if self.condition else ""
        return f"{who} {amount}life{per}{asked}{condition}"


def card_x(inline: Sequence[InlineDice]) -> int:
    """The card's X as the roll event recorded it (0 if it has none)."""
    return next((d["total"] for d in inline if d["expr"].startswith("X=")), 0)


def amounts(
    gain: LifeGain,
    owner: str,
    seated: Sequence[str],
    rng: random.Random,
    *,
    x: int = 0,
    asked: int | None = None,
) -> tuple[list[tuple[str, int]], InlineRoll | None]:
    """Who gains how much: (player, amount) pairs, and the dice rolled for it (if any).

    `seated` are the players still in, the owner among them; `asked` is the amount the owner
    answered for a gain the table can't count (their whole gain: no multiplier applies).
    """
    if asked is not None:  # the player answered for themselves, all told
        return [(owner, max(asked, 0))], None
    rolled: InlineRoll | None = None
    if gain.x:
        each = x
    else:
        assert gain.amount is not None, "an asked gain needs the answer"
        rolled = gain.amount.roll(rng)
        each = rolled.total
    if gain.per_opponent:
        each *= sum(1 for p in seated if p != owner)
    each = max(each, 0)
    who = list(seated) if gain.each_player else [owner]
    return [(player, each) for player in who], rolled
