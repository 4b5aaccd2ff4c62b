"""The events of what results do to a game: effects, worlds and Globals, tokens, the current list,
offers of further rolls, life, and a spite.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from bot.engine.events_rolls import InlineDice


class EffectStarted(TypedDict):
    type: Literal["effect_started"]
    id: int
    name: str
    text: str
    kind: Literal["effect", "world", "global"]
    owner: str | None
    lasts: str
    turns: int
    source: int | None
    card: NotRequired[str]
    deck: NotRequired[str]
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class EffectEnded(TypedDict):
    type: Literal["effect_ended"]
    id: int
    reason: str
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class TokensChanged(TypedDict):
    type: Literal["tokens"]
    player: str
    token: str
    delta: int
    reason: str
    source: int | None
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class ListChanged(TypedDict):
    """The current chaos list (lists ruleset) moved, or the next roll was forced onto a list."""

    type: Literal["list_changed"]
    current: str | None
    forced: str | None
    was: list[str | None]
    reason: str
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class OfferMade(TypedDict):
    """A result offered its roller a roll on one of `tables` (see :mod:`bot.engine.offers`)."""

    type: Literal["offer_made"]
    id: int
    player: str
    tables: list[str]
    source: int
    name: str
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class OfferTaken(TypedDict):
    """`by` took offer `id` and rolls on `table`; any other list it offered is withdrawn."""

    type: Literal["offer_taken"]
    id: int
    table: str
    by: str
    withdrawn: list[str]


class OfferDeclined(TypedDict):
    """`by` declined offer `id`: nothing is rolled for it."""

    type: Literal["offer_declined"]
    id: int
    by: str


class OfferLapsed(TypedDict):
    """An offer nobody took ends: the turn ended, or the roll that made it was countered."""

    type: Literal["offer_lapsed"]
    id: int
    reason: str
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class LifeChanged(TypedDict):
    type: Literal["life"]
    player: str
    life: int
    delta: int
    reason: str
    item: NotRequired[int | None]
    undoes: NotRequired[int]
    dice: NotRequired[InlineDice]  # the dice a change in dice threw, as rolled


class LifeUnsure(TypedDict):
    """The bot stops (`unsure`) or starts again being sure of a player's life total: a result
    changed it in a way the bot can't count, or a player set it (`life set`)."""

    type: Literal["life_unsure"]
    player: str
    unsure: bool
    reason: str
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class SpiteStarted(TypedDict):
    type: Literal["spite_started"]
    player: str
    policy: str


class SpiteEnded(TypedDict):
    type: Literal["spite_ended"]
    player: str
    survived: bool
