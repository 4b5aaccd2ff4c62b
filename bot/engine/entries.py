"""What an entry is: one result on a table, or one chaos card, and everything it may do.

Everything here is frozen data, built by the YAML loader and only read by the engine. A table
author can read this module as the list of things an entry may do.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from bot.engine.dice import DiceExpr
from bot.engine.errors import TableError
from bot.engine.lifegain import LifeChange, LifeGain, LifeOp, Who

TableId: TypeAlias = str
EntryId: TypeAlias = str


class Kind(StrEnum):
    """What an entry does when it comes up."""

    EFFECT = "effect"  # players do what the text says
    CARD = "card"  # the effect of a real Magic card, named in `card`
    LINK = "link"  # roll once on another list
    MULTI = "multi"  # several rolls (see MultiRoll)
    TOKEN = "token"  # the roller gets tokens (CounterRoll, RollFork)
    WORLD = "world"  # stays in play as a world enchantment, alongside any others
    GLOBAL = "global"  # becomes the one Global, replacing the current one


class Token(StrEnum):
    """Tokens a player can hold and spend on the most recent roll."""

    COUNTER = "counter_roll"
    FORK = "roll_fork"

    @property
    def label(self) -> str:
        """The name players use."""
        return "CounterRoll" if self is Token.COUNTER else "RollFork"


class TurnChange(StrEnum):
    """A change to the turn order that an entry makes for its roller."""

    REVERSE = "reverse"  # play continues in the other direction
    EXTRA = "extra"  # the roller takes another turn after this one
    SKIP = "skip"  # the roller skips their next turn
    AWAY = "away"  # the roller leaves the game until their next turn


class Lasts(StrEnum):
    """How long an effect stays."""

    END_OF_TURN = "end_of_turn"
    NEXT_TURN = "next_turn"  # until the start of its owner's next turn, extra turns included
    TURNS = "turns"  # for a number of turns, counting the one it started in
    PERMANENT = "permanent"
    UNTIL_REMOVED = "until_removed"


@dataclass(frozen=True, slots=True)
class Duration:
    """How long an effect lasts; `turns` is used only with ``Lasts.TURNS``."""

    lasts: Lasts
    turns: int = 0

    def __post_init__(self) -> None:
        if self.lasts is Lasts.TURNS and self.turns < 1:
            raise TableError(
                f"an effect lasting a number of turns needs at least 1, got {self.turns}"
            )

    def describe(self) -> str:
        """The duration in words, as the status board shows it."""
        match self.lasts:
            case Lasts.END_OF_TURN:
                return "until end of turn"
            case Lasts.NEXT_TURN:
                return "until its owner's next turn"
            case Lasts.TURNS:
                return f"for {self.turns} turn{'s' if self.turns != 1 else ''}"
            case Lasts.PERMANENT:
                return "for the rest of the game"
            case Lasts.UNTIL_REMOVED:
                return "until removed"


class MultiMode(StrEnum):
    """The shapes a multi-roll comes in."""

    TIMES = "times"  # roll N times on one list
    KEEP = "keep"  # roll N times, the roller keeps one and the others are discarded
    EACH = "each"  # roll once on each of several lists, in order
    RANDOM = "random"  # roll once on one of several lists, chosen by a die
    CHAOS = "chaos"  # roll chaos N times: on the list a chaos roll would be made on now


# Where a "roll chaos" slot is rolled: decided when its turn comes (see MultiRoll).
CHAOS_ROLL: TableId = "(chaos)"


@dataclass(frozen=True, slots=True)
class MultiRoll:
    """Several rolls demanded by one entry.

    `tables` names the list(s) to roll on; for TIMES and KEEP an empty tuple means the list the
    entry itself is on. `times` may be dice ("1d3 times"). RANDOM rolls one die with a side
    for each of `tables` and rolls once on the list it picks: one roll, like a link. CHAOS
    rolls chaos `times` times, each on the list a chaos roll would be made on when its turn
    comes (in a ``lists`` ruleset the current list, moved by the rolls before it); the first
    is on ``tables[0]`` when one is given ("starting on list A").
    """

    mode: MultiMode
    times: DiceExpr
    tables: tuple[TableId, ...] = ()

    def demands_several(self) -> bool:
        """True when this can ask for more than one roll: the classic nesting rule applies."""
        if self.mode is MultiMode.EACH:
            return len(self.tables) > 1
        if self.mode is MultiMode.RANDOM:
            return False
        return self.times.bounds()[1] > 1


class OfferTo(StrEnum):
    """Whom a result offers its roll: whoever rolled it, or (on a spite list) their killer."""

    ROLLER = "roller"
    KILLER = "killer"  # "Your killer rolls on [x]": the bot asks who it was, then offers it


@dataclass(frozen=True, slots=True)
class Offer:
    """A roll a result offers its roller, who may take it once this turn, or let it lapse.

    One list, or several for "one of": taking one withdraws the others. `to` says whom it is
    offered to (:class:`OfferTo`).
    """

    tables: tuple[TableId, ...]
    to: OfferTo = OfferTo.ROLLER

    @property
    def one_of(self) -> bool:
        return len(self.tables) > 1


@dataclass(frozen=True, slots=True)
class Entry:
    """One result on a table, or one chaos card.

    `text` may hold inline dice such as ``{1d6+1}``; they are rolled when the entry comes up.
    """

    id: EntryId
    name: str
    text: str = ""
    kind: Kind = Kind.EFFECT
    card: str | None = None
    x: DiceExpr | None = None
    link: TableId | None = None
    multi: MultiRoll | None = None
    token: Token | None = None
    count: int = 1
    duration: Duration | None = None
    gains_life: bool = False
    life: LifeGain | None = None  # how much; gaining life with none is asked about in a spite
    life_changes: tuple[LifeChange, ...] = ()  # its other changes to life totals, in order
    # Its text speaks of life but the table declares no change: the bot can't count it, so the
    # totals it may touch (every player's) are shown as unsure when it is honoured.
    life_undeclared: bool = False
    removes: tuple[str, ...] = ()  # what it takes out of play: worlds, globals, effects or names
    next_list: TableId | None = None
    turn: TurnChange | None = None
    offers: tuple[Offer, ...] = ()
    halves: tuple[Entry, ...] = ()
    tags: tuple[str, ...] = ()  # what it is like (bot.engine.tags), sorted, each once

    def __post_init__(self) -> None:
        needs = {
            Kind.CARD: self.card,
            Kind.LINK: self.link,
            Kind.MULTI: self.multi,
            Kind.TOKEN: self.token,
        }
        if self.kind in needs and needs[self.kind] is None:
            raise TableError(f"entry {self.id!r} is a {self.kind} entry but doesn't say which")
        if self.life is not None and not self.gains_life:
            raise TableError(f"entry {self.id!r} gives life, so it must be marked as gaining life")
        if self.life is not None and self.life.x and self.x is None:
            raise TableError(f"entry {self.id!r} gains X life but has no X")
        for change in self.life_changes:
            if change.amount is not None and change.amount.x and self.x is None:
                raise TableError(f"entry {self.id!r} changes life by X but has no X")
        if self.halves and len(self.halves) != 2:
            raise TableError(f"split card {self.id!r} must have exactly two halves")

    @property
    def demands_several(self) -> bool:
        """True for an entry that asks for more than one roll (the classic nesting rule)."""
        return self.multi is not None and self.multi.demands_several()

    @property
    def life_gain(self) -> LifeGain | None:
        """The life it gives, if it gains life; an amount the table doesn't give is asked."""
        return (self.life or LifeGain()) if self.gains_life else None

    @property
    def changes_life(self) -> bool:
        """True when the entry declares any change to life totals (a gain included)."""
        return self.gains_life or bool(self.life_changes)

    @property
    def spite_counts(self) -> bool:
        """True for a result a classic spite roll honours: one that may raise the roller's
        total (a gain, or a total set, swapped or rotated, or changed in a way only the table
        sees)."""
        return self.gains_life or any(_may_raise(change) for change in self.life_changes)

    @property
    def is_meta(self) -> bool:
        """True for an entry about the rolls themselves: links, multi-rolls, tokens, list moves."""
        return self.kind in _META_KINDS or self.next_list is not None


_META_KINDS = frozenset({Kind.LINK, Kind.MULTI, Kind.TOKEN})


def _may_raise(change: LifeChange) -> bool:
    if change.op in (LifeOp.SWAP, LifeOp.ROTATE):
        return True
    return change.op in (LifeOp.SET, LifeOp.UNSURE) and change.who in (
        Who.YOU,
        Who.EACH,
        Who.PLAYER,
    )
