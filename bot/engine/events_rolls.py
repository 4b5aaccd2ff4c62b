"""The events of rolling: a roll on a list, the stack of a turn's rolls, counters and forks, the
roll budget, and the choices a result asks of a player.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from bot.engine.events_game import Json


class EntryRef(TypedDict):
    id: str
    name: str


class InlineDice(TypedDict):
    expr: str
    faces: list[int]
    total: int


class DiceDrawn(TypedDict):
    """The dice that follow are the roll's own: the `n`-th of its `purpose` in `turn` (games
    started with ``dice: 3``; see :mod:`bot.engine.streams`)."""

    type: Literal["dice"]
    turn: int
    purpose: str
    n: int


class Roll(TypedDict):
    """One roll on a list (or one chaos card), honoured or ignored."""

    type: Literal["roll"]
    id: int
    turn: int
    player: str
    table: str
    dice: list[int]
    result: int
    entry: EntryRef
    depth: int
    parent: int | None
    ignored: bool
    reason: str | None
    text: str
    inline: list[InlineDice]
    slot: str | None
    # Results a house rule denies, each rolled again at once (bot.engine.house); with `drawn`,
    # the last result was drawn by the weights of the results not denied, not thrown.
    denied: NotRequired[list[DeniedResult]]
    drawn: NotRequired[bool]
    # With no repeats (a house rule): the result thrown that had come up already, replaced by
    # one drawn by weight among those that hadn't (`drawn`); `fresh` when every entry of the
    # list had come up, so the list started over with this roll.
    repeat: NotRequired[DeniedResult]
    fresh: NotRequired[bool]


class DeniedResult(TypedDict):
    """A result thrown and denied by a house rule: what the dice read, and its entry."""

    dice: list[int]
    result: int
    entry: EntryRef


class BudgetExhausted(TypedDict):
    type: Literal["budget_exhausted"]
    root: int
    rolls: int
    depth: int
    message: str


class StackPushed(TypedDict):
    """A roll, counter or fork went on the stack of this turn's rolls."""

    type: Literal["stack"]
    item: int
    kind: Literal["roll", "counter", "fork"]
    player: str
    target: int | None
    table: str | None
    entry: str | None
    dice: list[int]
    result: int
    # Why a roll was made: "turn" (the turn's chaos roll or card), "extra" (an extra roll a
    # referee asked for), "list" (a roll on a named list), "global" (the start list: a Global
    # or a world), "spite"; None for a counter or a fork. Logs from before it have none.
    purpose: NotRequired[str | None]


class StackCountered(TypedDict):
    type: Literal["countered"]
    item: int
    by: int
    countered: bool


class VetoVote(TypedDict):
    """A seated player votes to veto the result of stack item `item` (a house rule): `votes` of
    the `needed` are in."""

    type: Literal["veto_vote"]
    item: int
    player: str
    votes: int
    needed: int


class Vetoed(TypedDict):
    """The table vetoed stack item `item` by a majority of `voters`: it is taken back as a
    counter takes a roll back, and rolled again."""

    type: Literal["vetoed"]
    item: int
    voters: list[str]


class ChoiceOffered(TypedDict):
    type: Literal["choice_offered"]
    player: str
    kind: Literal["keep", "half", "spite", "life_if", "life_amount", "loss", "killer"]
    options: list[EntryRef]
    context: Json


class ChoiceMade(TypedDict):
    type: Literal["choice_made"]
    player: str
    option: str


class RollPaused(TypedDict):
    """A multi-roll stopped after a slot whose result offered a roll: its later rolls wait
    until the offers of the rolls in `waits` are taken (and resolved) or declined. `context`
    is what the resolution goes on from (see :mod:`bot.engine.pauses`)."""

    type: Literal["roll_paused"]
    item: int
    player: str
    waits: list[int]
    context: Json
    undoes: NotRequired[int]


class RollResumed(TypedDict):
    """The paused roll of stack item `paused` goes on with its later rolls, or (`dropped`, a
    counter took the roll back) never will."""

    type: Literal["roll_resumed"]
    paused: int
    dropped: bool
    reason: str
    item: NotRequired[int | None]
    undoes: NotRequired[int]
