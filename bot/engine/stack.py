"""This turn's stack of rolls, counters and forks, and what each item did.

Tokens act on the most recent live item. Each item keeps the outcomes it made and what a counter
took back from it, which is all :mod:`bot.engine.undo` needs to take either back exactly.

Items are copied on write: a state's copy shares the stack's items with the state it came from
(a turn of extra rolls stacks dozens, and an action changes one or two), so whatever changes an
item first puts a copy of it in its stack's place (:func:`writable`) and changes that. Nothing
may change an item it didn't get from :func:`writable`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from bot.engine.events import EventOwner, OfferMade, RollPaused
from bot.engine.model import Lasts, PlayerId

T = TypeVar("T")


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
    # How players count it (E1, E2, …): the effects of a game numbered in the order they came
    # into play (see GameState.effect_numbers). `id` is the engine's own, shared with rolls.
    number: int = 0


@dataclass(frozen=True)
class Outcome:
    """Something a stack item did (or a counter took back from it), with what it replaced.

    `effect` is the effect an ``effect_ended`` removed (a Global replaced); `offer`, the offer an
    ``offer_lapsed`` withdrew; `paused`, the pause a ``roll_resumed`` dropped; `active` says a
    player who stepped away was the active player; `away` is how many turns a player who came
    back still had to miss. That is all a counter needs to take the outcome back exactly.
    """

    event: EventOwner
    effect: ActiveEffect | None = None
    active: bool = False
    away: int | None = None
    offer: OfferMade | None = None
    paused: RollPaused | None = None


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
    paused: RollPaused | None = None,
) -> None:
    """Remember what a stack item did (``item``), or what a counter took back from it
    (``undoes``), so that a counter, or a counter of that counter, can take it back."""
    item = event.get("item")
    if item is not None:
        writable(stack, item).outcomes.append(Outcome(event, effect, active, away, offer, paused))
    undoes = event.get("undoes")
    if undoes is not None:
        writable(stack, undoes).undone.append(Outcome(event, effect, active, away, offer, paused))


def writable(stack: list[StackItem], item_id: int) -> StackItem:
    """The item `item_id` of `stack`, ready to change: a copy of it, put in its place (other
    states may share the item itself; see the module's notes)."""
    for n, item in enumerate(stack):
        if item.id == item_id:
            clone = stack[n] = item_copy(item)
            return clone
    raise LookupError(f"no item {item_id} on the stack")


def shallow(thing: T) -> T:
    """A shallow copy of a plain (non-slotted) object: its instance dict, copied. Several
    times faster than ``copy.copy`` or ``dataclasses.replace``, which take the general road
    (``__reduce_ex__``, or every field by name) on each call; a state copy makes several."""
    clone: T = object.__new__(type(thing))
    clone.__dict__.update(thing.__dict__)
    return clone


def item_copy(item: StackItem) -> StackItem:
    clone = shallow(item)
    clone.dice = list(item.dice)
    clone.outcomes = list(item.outcomes)
    clone.undone = list(item.undone)
    return clone
