"""This turn's stack of rolls, counters and forks, and what each item did.

Tokens act on the most recent live item. Each item keeps the outcomes it made and what a counter
took back from it, which is all :mod:`bot.engine.undo` needs to take either back exactly.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from bot.engine.events import EventOwner, OfferMade
from bot.engine.model import Lasts, PlayerId


@dataclass(frozen=True)
class ActiveEffect:
    """Something in play that outlasts its roll: a timed effect, a world enchantment, the Global."""

    id: int
    name: str
    text: str
    kind: str
    owner: PlayerId | None
    lasts: Lasts
    turns_left: int
    source: int | None
    started_turn: int
    card: str | None = None
    deck: str | None = None  # the deck `card` came from, where it goes back when this ends


@dataclass(frozen=True)
class Outcome:
    """Something a stack item did (or a counter took back from it), with what it replaced.

    `effect` is the effect an ``effect_ended`` removed (a Global replaced); `offer`, the offer an
    ``offer_lapsed`` withdrew; `active` says a
    player who stepped away was the active player; `away` is how many turns a player who came
    back still had to miss. That is all a counter needs to take the outcome back exactly.
    """

    event: EventOwner
    effect: ActiveEffect | None = None
    active: bool = False
    away: int | None = None
    offer: OfferMade | None = None


@dataclass
class StackItem:
    """A roll, counter or fork made this turn; tokens act on the most recent live one.

    `outcomes` is what it did; `undone`, what a counter took back from it (a counter of that
    counter takes those back in turn). `spite` marks a spite roll.
    """

    id: int
    kind: str
    player: PlayerId
    target: int | None
    table: str | None = None
    entry: str | None = None
    dice: list[int] = field(default_factory=list)
    result: int = 0
    live: bool = True
    outcomes: list[Outcome] = field(default_factory=list)
    undone: list[Outcome] = field(default_factory=list)
    spite: bool = False
    purpose: str | None = None  # "turn", "extra", "list", "global", "spite" (see StackPushed)


def record_outcome(
    stack: list[StackItem],
    event: EventOwner,
    *,
    effect: ActiveEffect | None = None,
    active: bool = False,
    away: int | None = None,
    offer: OfferMade | None = None,
) -> None:
    """Remember what a stack item did (``item``), or what a counter took back from it
    (``undoes``), so that a counter, or a counter of that counter, can take it back."""
    item = event.get("item")
    if item is not None:
        _item(stack, item).outcomes.append(Outcome(event, effect, active, away, offer))
    undoes = event.get("undoes")
    if undoes is not None:
        _item(stack, undoes).undone.append(Outcome(event, effect, active, away, offer))


def _item(stack: list[StackItem], item_id: int) -> StackItem:
    return next(item for item in stack if item.id == item_id)


def item_copy(item: StackItem) -> StackItem:
    clone = copy.copy(item)
    clone.dice = list(item.dice)
    clone.outcomes = list(item.outcomes)
    clone.undone = list(item.undone)
    return clone
