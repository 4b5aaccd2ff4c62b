"""The working context of one action: a private copy of the state, the dice, and the checks.

Handlers change the game only by emitting events; each event is applied to the copy at once, so
a handler always sees the state its earlier events made. If a handler raises, the copy and its
events are thrown away: an action happens whole or not at all.
"""

from __future__ import annotations

import random

from bot.engine import streams
from bot.engine.actions import Action
from bot.engine.authority import require_playing
from bot.engine.errors import ChoicePendingError, NotInGameError, RulesError
from bot.engine.events import Event, Json
from bot.engine.fold import apply
from bot.engine.model import PlayerId, Ruleset
from bot.engine.state import GameState, Player, Status


class Context:
    """One action in progress."""

    def __init__(
        self, ruleset: Ruleset, state: GameState, rng: random.Random, action: Action
    ) -> None:
        self.ruleset = ruleset
        self.state = state
        self.rng = rng
        self.action = action
        self.events: list[Event] = []
        self.drawn: tuple[int, str, int] | None = None  # the roll `rng` belongs to (dice: 3)

    def dice(self, purpose: str) -> random.Random:
        """The dice of the next roll, made for `purpose` (one of :data:`streams.PURPOSES`, or a
        deck's shuffle): from then on `rng` is that roll's.

        In a game started with ``dice: 3`` the roll gets dice of its own, from the committed
        seed, the turn, `purpose` and how many rolls of `purpose` stand before it in
        the turn, and a ``dice`` event names it. In an older game every roll of an action draws
        on after the other from the action's one generator, as it was logged.
        """
        state = self.state
        if state.dice < streams.BY_ROLL:
            return self.rng
        n = state.draws.get(purpose, 0)
        self.emit({"type": "dice", "turn": state.turn, "purpose": purpose, "n": n})
        self.rng = random.Random(streams.roll_key(state.seed, state.turn, purpose, n))
        self.drawn = (state.turn, purpose, n)
        return self.rng

    def dice_position(self) -> Json | None:
        """Where the dice of the roll being resolved stand: which roll's they are and how far
        they have gone (None in an older game, whose later rolls draw on the action's dice)."""
        if self.state.dice < streams.BY_ROLL or self.drawn is None:
            return None
        turn, purpose, n = self.drawn
        key = streams.roll_key(self.state.seed, turn, purpose, n)
        words = streams.words_drawn(key, self.rng)
        return {"turn": turn, "purpose": purpose, "n": n, "words": words}

    def dice_again(self, position: Json | None) -> random.Random:
        """The dice a paused roll began with, where they stood when it paused: its later rolls
        are the same whatever happened meanwhile. An older game's resuming action lends its
        own dice, as every roll of such a game draws on its action's."""
        if position is None or self.state.dice < streams.BY_ROLL:
            return self.rng
        turn, purpose, n = int(position["turn"]), str(position["purpose"]), int(position["n"])
        key = streams.roll_key(self.state.seed, turn, purpose, n)
        self.rng = streams.resumed(key, int(position["words"]))
        self.drawn = (turn, purpose, n)
        return self.rng

    def emit(self, event: Event) -> None:
        """Record `event` and apply it to the working state."""
        apply(self.state, event)
        self.events.append(event)

    # -- checks, each raising an error whose text a player can read ---------------------------
    # (who may act at all is bot.engine.authority's question, answered before the handler runs)

    def player(self, player_id: PlayerId | None) -> Player:
        """The seated player with this id (or, with None, the active player)."""
        if player_id is None:
            player_id = self.state.active or self.state.current
        player = self.state.players.get(player_id or "")
        if player is None:
            if player_id == self.action.actor:  # a front end's id (a Discord one) means nothing
                raise NotInGameError("you're not in this game")
            raise NotInGameError(f"{player_id!r} isn't in this game")
        return player

    def name(self, player_id: PlayerId | None) -> str:
        player = self.state.players.get(player_id or "")
        if player is None and player_id == self.action.actor:
            return "a referee"  # only an official acts without a seat; their id means nothing
        return player.name if player else str(player_id)

    def require_playing(self) -> None:
        require_playing(self.state)

    def require_no_choice(self) -> None:
        pending = self.state.pending
        if pending is not None:
            chooser = self.state.players.get(pending.player)
            away = chooser is not None and chooser.status is Status.AWAY
            back = ": they're away, so `player back` comes first" if away else ""
            raise ChoicePendingError(
                f"{self.name(pending.player)} must choose first"
                f" ({', '.join(name for _, name in pending.options)}){back}"
            )

    def roller(self) -> PlayerId:
        """Who a roll is for: the active player, or whoever asked if nobody is active (a Global,
        which belongs to nobody)."""
        return self.state.active or self.action.actor


class NoDice(random.Random):
    """The generator of an action in a ``dice: 3`` game before it names a roll: drawing from it
    is a bug (a die that no roll owns could be moved by anything), so it says so."""

    def random(self) -> float:
        raise AssertionError("dice drawn without naming their roll (Context.dice)")

    def getrandbits(self, k: int, /) -> int:
        raise AssertionError("dice drawn without naming their roll (Context.dice)")


def require(condition: bool, message: str) -> None:
    """Raise a RulesError with `message` unless `condition` holds."""
    if not condition:
        raise RulesError(message)
