"""What players and referees can do, as data.

Front ends build these from slash commands or console lines and hand them to
:meth:`bot.engine.game.Game.act`. Each action is logged, so a game replays from its seed and
the list of actions. `actor` is who asked; `referee` says the front end has checked that they
hold the referee role (the engine doesn't know about Discord roles), and `turn_powers` that the
guild hands the referee's turn powers to the active player (see :mod:`bot.engine.authority`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

from bot.engine.errors import ChaosError
from bot.engine.events import Json


@dataclass(frozen=True, kw_only=True)
class Action:
    """Base of every action."""

    name: ClassVar[str]
    actor: str
    referee: bool = False
    turn_powers: bool = False

    def to_json(self) -> Json:
        """The action as a JSON object, as the log keeps it (tuples become lists, as in JSON).

        Options added later are left out while they are off, so a log reads the same as it did
        before they existed.
        """
        data: Json = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _QUIET_WHEN_OFF and value is False:
                continue
            data[f.name] = list(value) if isinstance(value, tuple) else value
        data["name"] = self.name
        return data


@dataclass(frozen=True, kw_only=True)
class Join(Action):
    name = "game join"
    player_name: str


@dataclass(frozen=True, kw_only=True)
class Leave(Action):
    """Leave the lobby, or concede a game in progress."""

    name = "game leave"


@dataclass(frozen=True, kw_only=True)
class Begin(Action):
    """Lock the seats (in `order`, or join order) and make the start roll."""

    name = "game begin"
    order: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class End(Action):
    name = "game end"


# Options that joined the log later: left out of it while off (see Action.to_json).
_QUIET_WHEN_OFF = frozenset({"turn_powers", "extra", "by_number"})


@dataclass(frozen=True, kw_only=True)
class RollChaos(Action):
    """The turn's chaos roll, a roll on a named list, or (`extra`) an extra roll a referee asks
    for, which never counts as the turn's roll."""

    name = "chaos roll"
    table: str | None = None
    extra: bool = False


@dataclass(frozen=True, kw_only=True)
class Decline(Action):
    """Pass up a roll a result offered: the offer on `table`, or the only one open. Nothing is
    rolled for it, and a multi-roll that waited for it goes on."""

    name = "chaos decline"
    table: str | None = None


@dataclass(frozen=True, kw_only=True)
class Reveal(Action):
    """Turn the face-down chaos card face up (deck)."""

    name = "chaos reveal"


@dataclass(frozen=True, kw_only=True)
class Counter(Action):
    """Spend a CounterRoll on the most recent roll on the stack."""

    name = "chaos counter"


@dataclass(frozen=True, kw_only=True)
class Fork(Action):
    """Spend a RollFork to copy the most recent roll on the stack."""

    name = "chaos fork"


LOSS_REASONS = ("life", "poison", "library", "card")  # why a player would lose (see survival)


@dataclass(frozen=True, kw_only=True)
class Veto(Action):
    """A vote to veto the result shown (a house rule): `item` is the roll voted on (None: the
    one open to a vote). A strict majority takes it back and rolls it again
    (:mod:`bot.engine.veto`)."""

    name = "chaos veto"
    item: int | None = None


@dataclass(frozen=True, kw_only=True)
class Spite(Action):
    """`player` would lose the game: apply the ruleset's spite rule.

    `reason` says why: life, poison, library or card (None: life in classic; in deck, life
    when their tracked life is below 1, else the bot asks whether the loss still holds).
    """

    name = "chaos spite"
    player: str | None = None
    reason: str | None = None


@dataclass(frozen=True, kw_only=True)
class RollGlobal(Action):
    name = "chaos global"


@dataclass(frozen=True, kw_only=True)
class Choose(Action):
    """Answer the pending choice (a card to keep, a split half, a spite card)."""

    name = "chaos choose"
    option: str


@dataclass(frozen=True, kw_only=True)
class Undo(Action):
    name = "chaos undo"


@dataclass(frozen=True, kw_only=True)
class NextTurn(Action):
    """End the turn. `override` lets a referee end it without the chaos roll (logged)."""

    name = "turn next"
    override: bool = False


@dataclass(frozen=True, kw_only=True)
class ExtraTurn(Action):
    name = "turn extra"
    player: str | None = None


@dataclass(frozen=True, kw_only=True)
class SkipTurn(Action):
    name = "turn skip"
    player: str | None = None


@dataclass(frozen=True, kw_only=True)
class Reverse(Action):
    name = "turn reverse"


@dataclass(frozen=True, kw_only=True)
class Seats(Action):
    """Seat the players in a new order (all of them, each once)."""

    name = "turn seats"
    order: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class EndEffect(Action):
    """End the effect `effect`: its number as players count them (E2) when `by_number`, as
    the front ends send it; its id in logs from before effects were numbered (issue 24)."""

    name = "effects end"
    effect: int
    by_number: bool = False


@dataclass(frozen=True, kw_only=True)
class MiddleAdd(Action):
    name = "middle add"
    card: str


@dataclass(frozen=True, kw_only=True)
class MiddlePlay(Action):
    """Play the card `card` from the middle: its number (M1) when `by_number`, else its id (as
    :class:`EndEffect` names an effect)."""

    name = "middle play"
    card: int
    by_number: bool = False


@dataclass(frozen=True, kw_only=True)
class Life(Action):
    name = "life"
    player: str | None = None
    mode: Literal["set", "gain", "lose"] = "set"
    amount: int = 0


@dataclass(frozen=True, kw_only=True)
class Away(Action):
    """A player leaves for a while (for `turns` turns, or until they come back)."""

    name = "player away"
    player: str | None = None
    turns: int | None = None


@dataclass(frozen=True, kw_only=True)
class Back(Action):
    name = "player back"
    player: str | None = None


ACTIONS: dict[str, type[Action]] = {
    cls.name: cls
    for cls in (
        Join,
        Leave,
        Begin,
        End,
        RollChaos,
        Decline,
        Reveal,
        Counter,
        Fork,
        Veto,
        Spite,
        RollGlobal,
        Choose,
        Undo,
        NextTurn,
        ExtraTurn,
        SkipTurn,
        Reverse,
        Seats,
        EndEffect,
        MiddleAdd,
        MiddlePlay,
        Life,
        Away,
        Back,
    )
}


def action_from_json(data: Json) -> Action:
    """Rebuild an action from its logged JSON; raises ChaosError for anything unknown."""
    cls = ACTIONS.get(str(data.get("name")))
    if cls is None:
        raise ChaosError(f"unknown action {data.get('name')!r}")
    known = {f.name for f in fields(cls)}
    args: dict[str, Any] = {k: v for k, v in data.items() if k in known}
    for key, value in args.items():
        if isinstance(value, list):
            args[key] = tuple(value)
    try:
        return cls(**args)
    except TypeError as error:
        raise ChaosError(f"action {cls.name!r} is missing something: {error}") from None
