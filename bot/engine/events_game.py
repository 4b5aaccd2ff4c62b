"""The events of a game outside its turns: the log's actions, the lobby, the seats, players
stepping out and back, and the end.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

Json: TypeAlias = dict[str, Any]


class ActionTaken(TypedDict):
    """Someone did something; the events that follow until the next one are its effects."""

    type: Literal["action"]
    seq: int
    action: Json


class ActionUndone(TypedDict):
    type: Literal["undone"]
    seq: int


class GameStarted(TypedDict):
    """A game opens. `commitment` is SHA-256 over its seed and `salt` (:mod:`bot.engine.fairness`);
    games logged before commitments existed have neither. `tables` names the exact tables
    played (the service's snapshot hash), when the front end said."""

    type: Literal["game_started"]
    ruleset: str
    revision: str
    seed: int
    host: str
    name: str
    life: int | None
    salt: NotRequired[str]
    commitment: NotRequired[str]
    tables: NotRequired[str]
    dice: NotRequired[int]  # how actions seed their dice (bot.engine.streams); 1 if absent
    house: NotRequired[Json]  # the house rules other than the defaults (bot.engine.house)


class PlayerJoined(TypedDict):
    type: Literal["player_joined"]
    player: str
    name: str


class PlayerLeft(TypedDict):
    """A player left the lobby before seats were locked."""

    type: Literal["player_left"]
    player: str


class GameBegun(TypedDict):
    type: Literal["game_begun"]
    order: list[str]


class PlayerOut(TypedDict):
    type: Literal["player_out"]
    player: str
    reason: str


class PlayerAway(TypedDict):
    """A player steps away and misses `turns` of their own turns (None: until they're back)."""

    type: Literal["player_away"]
    player: str
    turns: int | None
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class PlayerBack(TypedDict):
    """A player is back; with ``active`` they take up the turn they left (a countered absence)."""

    type: Literal["player_back"]
    player: str
    active: NotRequired[bool]
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class GameEnded(TypedDict):
    type: Literal["game_ended"]
    reason: str
    winner: str | None


class SeedRevealed(TypedDict):
    """The game is over: its seed and salt, which the commitment made at the start was over."""

    type: Literal["seed_revealed"]
    seed: int
    salt: str
    commitment: str | None
