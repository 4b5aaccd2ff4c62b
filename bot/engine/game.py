"""A game: its log of events, the state folded from it, and the actions that extend it.

Each roll gets its own dice, seeded from the game's seed and the roll's identity: the
turn, why it is rolled, and how many rolls made for that reason stand before it in that turn
(:mod:`bot.engine.streams`). Replaying the same actions therefore rolls the same dice; and no
other action, an undone one included, moves a roll's dice: an undo is for mistakes, not for a
better result. Older games replay with the dice they were logged with.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, cast

from bot.engine import actions as a
from bot.engine import (
    authority,
    chaos,
    counters,
    decks,
    limits,
    offers,
    pauses,
    spite,
    streams,
    turns,
    veto,
    zones,
)
from bot.engine.context import Context, NoDice
from bot.engine.errors import GameOverError, GameTooLargeError, NothingToUndoError
from bot.engine.events import ActionTaken, Event, GameStarted, Json
from bot.engine.fairness import WHOLE_START, commitment
from bot.engine.fold import apply, fold
from bot.engine.house import HouseRules
from bot.engine.model import PlayerId, Ruleset, StartRoll
from bot.engine.state import GameState, Phase

Handler = Callable[[Context, Any], None]
# The state before each of the last few standing actions, so that undoing one of them needn't
# fold the whole log again: (the action's seq, the state before it, its dice stream).
_Checkpoint = tuple[int, GameState, tuple[int, str]]
CHECKPOINTS = 4

HANDLERS: dict[type[a.Action], Handler] = {
    a.Join: turns.join,
    a.Leave: turns.leave,
    a.Begin: lambda ctx, action: _begin(ctx, action),
    a.End: turns.end_game,
    a.RollChaos: chaos.roll_chaos,
    a.Decline: offers.decline,
    a.Reveal: decks.reveal,
    a.Counter: counters.counter,
    a.Fork: counters.fork,
    a.Veto: veto.vote,
    a.Spite: spite.spite,
    a.RollGlobal: chaos.roll_global,
    a.Choose: chaos.choose,
    a.NextTurn: lambda ctx, action: _next_turn(ctx, action),
    a.ExtraTurn: turns.extra_turn,
    a.SkipTurn: turns.skip_turn,
    a.Reverse: turns.reverse,
    a.Seats: turns.seats,
    a.EndEffect: zones.end_effect_by_hand,
    a.MiddleAdd: zones.middle_add,
    a.MiddlePlay: zones.middle_play,
    a.Life: spite.life,
    a.Away: turns.away,
    a.Back: turns.back,
}


class Game:
    """One game of Chaos Magic under one ruleset."""

    def __init__(self, ruleset: Ruleset, events: Iterable[Event] = ()) -> None:
        """Rebuild a game from its log (use :meth:`start` for a new one)."""
        self.ruleset = ruleset
        self._log: list[Event] = list(events)
        self._shared: int | None = None  # see :meth:`copy`
        self.state: GameState = fold(self._log)
        self._count()

    def _count(self) -> None:
        """Count the actions once; act() and undo keep the counts up to date from then on."""
        self._checkpoints: list[_Checkpoint] = []
        self._seq = sum(1 for e in self.events if e["type"] == "action")
        self._standing_count = len(self._standing())
        self._streams: Counter[tuple[int, str]] | None = streams.tally(self._log)

    @classmethod
    def start(
        cls,
        ruleset: Ruleset,
        *,
        seed: int,
        host: PlayerId,
        name: str,
        life: int | None = None,
        salt: str = "",
        tables: str = "",
        dice: int = streams.BY_ROLL,
        house: HouseRules | None = None,
    ) -> Game:
        """A new game in its lobby, hosted (and joined) by `host`.

        `life` is the starting life when the group tracks it (the ruleset's default otherwise).
        `salt` goes into the commitment to the seed (:mod:`bot.engine.fairness`); front ends
        draw a random one, since the seed alone may come from a small range. `tables` names
        the exact tables played (a front end's hash of their text), so a replay can find them.
        `dice` is how rolls seed their dice (:mod:`bot.engine.streams`): a replay of a game
        logged before passes the older way. The commitment covers it (:mod:`bot.engine.fairness`).
        `house` are the house rules the game keeps to its end (:mod:`bot.engine.house`); the
        commitment covers them too.
        """
        if isinstance(dice, bool) or dice not in streams.SCHEMES:
            raise ValueError(f"no such way to roll dice: {dice!r}")
        game = cls(ruleset)
        named: dict[str, object] = {"tables": tables} if tables else {}
        rolls = {"dice": dice} if dice != streams.BY_ACTION else {}
        kept = (house or HouseRules()).to_json()
        if kept and dice < WHOLE_START:
            raise ValueError("house rules need a dice scheme whose commitment covers them")
        ruled: dict[str, object] = {"house": kept} if kept else {}
        start: list[Event] = [
            {
                "type": "action",
                "seq": 0,
                "action": {
                    "name": "game start",
                    "actor": host,
                    "host_name": name,
                    "seed": seed,
                    "life": life,
                    "salt": salt,
                    **named,
                    **rolls,
                    **ruled,
                },
            },
            {
                "type": "game_started",
                "ruleset": ruleset.id,
                "revision": ruleset.revision,
                "seed": seed,
                "host": host,
                "name": name,
                "life": life if life is not None else ruleset.life,
                "salt": salt,
                "commitment": commitment(
                    seed,
                    salt,
                    dice=dice,
                    ruleset=ruleset.id,
                    revision=ruleset.revision,
                    tables=tables,
                    host=host,
                    name=name,
                    life=life,
                    house=kept,
                ),
            },
        ]
        if tables:
            cast(GameStarted, start[1])["tables"] = tables
        if rolls:
            cast(GameStarted, start[1])["dice"] = dice
        if kept:
            cast(GameStarted, start[1])["house"] = kept
        for event in start:
            apply(game.state, event)
        game._log.extend(start)
        game._count()
        return game

    def copy(self) -> Game:
        """An independent copy of the game as it stands: acting on either (undoing included)
        leaves the other as it was.

        Made in constant time, for a copy after every action (what readers are given,
        :mod:`bot.published`): nothing is copied until it would change. The state is shared,
        since a game never changes its state in place once an action committed it (an action
        works on a copy of it, and an undo on a copy of the state it goes back to). The log's
        list is shared too, with the copy's length: the original only ever appends to it, so
        its first events stay the copy's. The copy takes a list of its own when first asked
        for its events, or when it acts. It keeps no undo checkpoints, so an undo on it folds
        the log again.
        """
        clone = Game.__new__(Game)
        clone.ruleset = self.ruleset
        clone._log = self._log
        clone._shared = len(self._log) if self._shared is None else self._shared
        clone.state = self.state
        clone._checkpoints = []
        clone._seq = self._seq
        clone._standing_count = self._standing_count
        clone._streams = None  # tallied from the log if the copy ever acts
        return clone

    @property
    def events(self) -> list[Event]:
        """The log, oldest first: read it, don't change it (only :meth:`act` extends it)."""
        shared = self._shared
        if shared is not None:
            # A copy's first look: its own list of the events it was copied with. Two threads
            # looking at once each take an equal list (the original only appends).
            self._log = self._log[:shared]
            self._shared = None
        return self._log

    @property
    def event_count(self) -> int:
        """How many events the log holds (without taking a list of a copy's own)."""
        return len(self._log) if self._shared is None else self._shared

    @property
    def seq(self) -> int:
        """The number of actions so far (undone ones included)."""
        return self._seq

    def act(self, action: a.Action) -> list[Event]:
        """Carry out `action` and return its events; raises ChaosError and changes nothing if
        the action isn't allowed.
        """
        # A game as large as a game may be can still end (see bot.engine.limits).
        full = limits.log_problem(self.event_count)
        if (
            full is not None
            and self.state.phase is not Phase.ENDED
            and not isinstance(action, a.End)
        ):
            raise GameTooLargeError(full)
        if isinstance(action, a.Undo):
            return self._undo(action)
        if self.state.phase is Phase.ENDED:
            raise GameOverError("this game is over")
        authority.check(self.state, action, self.ruleset)
        taken: ActionTaken = {"type": "action", "seq": self.seq, "action": action.to_json()}
        stream = (self.state.turn, streams.stream(taken["action"]))
        ctx = Context(self.ruleset, self.state.copy(), self._rng(stream), action)
        ctx.emit(taken)
        HANDLERS[type(action)](ctx, action)
        _settle(ctx)
        crowded = limits.effects_problem(len(self.state.effects), len(ctx.state.effects))
        if crowded is not None:
            raise GameTooLargeError(crowded)
        self._checkpoints.append((taken["seq"], self.state, stream))
        del self._checkpoints[:-CHECKPOINTS]
        self.state = ctx.state
        self.events.extend(ctx.events)
        self._seq += 1
        self._standing_count += 1
        self._tally()[stream] += 1
        return ctx.events

    def _undo(self, action: a.Undo) -> list[Event]:
        authority.check(self.state, action, self.ruleset)
        if self.state.phase is Phase.ENDED:
            # The end revealed the seed: a game taken back up would go on with known dice.
            raise GameOverError("this game is over and its seed revealed: it can't be undone")
        if self._standing_count <= 1:
            raise NothingToUndoError("there's nothing to undo")
        checkpoint = self._checkpoints.pop() if self._checkpoints else None
        target = checkpoint[0] if checkpoint else self._standing()[-1]["seq"]
        events: list[Event] = [
            {"type": "action", "seq": self.seq, "action": action.to_json()},
            {"type": "undone", "seq": target},
        ]
        self.events.extend(events)
        if checkpoint is None:
            self.state = fold(self.events)
            self._streams = streams.tally(self.events)
        else:
            # The state before the undone action is what the fold gives: everything after it
            # is undone or an undo, and an undo only moves the count of actions on. That state
            # may be a copy's too (copy() shares it): the undo changes a copy of it.
            _, kept, stream = checkpoint
            self.state = kept.copy()
            for event in events:
                apply(self.state, event)
            self._tally()[stream] -= 1
        self._seq += 1
        self._standing_count -= 1
        return events

    def _tally(self) -> Counter[tuple[int, str]]:
        """The actions standing in each stream (:func:`~bot.engine.streams.tally`)."""
        if self._streams is None:
            self._streams = streams.tally(self.events)
        return self._streams

    def _standing(self) -> list[ActionTaken]:
        """Actions that still count: not undone, and not undos themselves."""
        undone = {e["seq"] for e in self.events if e["type"] == "undone"}
        return [
            e
            for e in self.events
            if e["type"] == "action"
            and e["seq"] not in undone
            and e["action"]["name"] != a.Undo.name
        ]

    def _rng(self, stream: tuple[int, str]) -> random.Random:
        """The dice of the next action, of `stream` (its turn and kind), in an older game; in a
        game started today each roll names its own (Context.dice) and the action has none."""
        if self.state.dice == streams.BY_ROLL:
            return NoDice(0)
        if self.state.dice == streams.BY_ACTION:  # a game logged before streams
            return random.Random(f"{self.state.seed}/{self._standing_count}")
        turn, name = stream
        return random.Random(streams.key(self.state.seed, turn, name, self._tally()[stream]))

    @property
    def actions(self) -> list[Json]:
        """Every action as logged, in order; with the seed, enough to replay the game."""
        return [e["action"] for e in self.events if e["type"] == "action"]

    @classmethod
    def replay(cls, ruleset: Ruleset, actions: list[Json]) -> Game:
        """Play the logged actions again from the start; the result equals the original game."""
        first = actions[0]
        game = cls.start(
            ruleset,
            seed=int(first["seed"]),
            host=str(first["actor"]),
            name=str(first.get("host_name") or first["actor"]),
            life=first.get("life"),
            salt=str(first.get("salt") or ""),
            tables=str(first.get("tables") or ""),
            dice=int(first.get("dice", streams.BY_ACTION)),
            house=HouseRules.from_json(first.get("house")),
        )
        for logged in actions[1:]:
            game.act(a.action_from_json(logged))
        return game

    def export(self) -> str:
        """The whole log as JSON Lines, one event per line."""
        return "".join(json.dumps(event, separators=(",", ":")) + "\n" for event in self.events)

    @classmethod
    def from_export(cls, ruleset: Ruleset, text: str) -> Game:
        """Rebuild a game from :meth:`export`'s output."""
        return cls(ruleset, [cast(Event, json.loads(line)) for line in text.splitlines() if line])


def _begin(ctx: Context, action: a.Begin) -> None:
    """Lock seats, shuffle the decks, make the start roll, and start the first turn.

    When the house rules start chaos in a later round, the start roll waits for it too: it is
    made as that round's first turn begins (:func:`_next_turn`)."""
    turns.begin(ctx, action)
    decks.shuffle_decks(ctx)
    first = ctx.state.order[0]
    if ctx.state.house.chaos_from == 1:
        _start_roll(ctx, first)
    turns.start_turn(ctx, first, extra=False)


def _start_roll(ctx: Context, player: PlayerId) -> None:
    """The ruleset's roll (or card) once seats are locked: a world, or the Global."""
    ruleset = ctx.ruleset
    match ruleset.start:
        case StartRoll.WORLD | StartRoll.GLOBAL:
            assert ruleset.start_table is not None
            resolution = chaos.resolver_for(ctx, player, "global").roll(ruleset.start_table)
            chaos.record(ctx, resolution, kind="roll", purpose="global")
        case StartRoll.GLOBAL_DECK:
            decks.reveal_global(ctx)
        case StartRoll.NONE:
            pass


def _next_turn(ctx: Context, action: a.NextTurn) -> None:
    """Pass the turn; the first turn of the round chaos starts in makes the start roll."""
    before = ctx.state.round
    turns.next_turn(ctx, action)
    state = ctx.state
    if state.round != before and state.round == state.house.chaos_from != 1:
        assert state.current is not None  # a turn just started
        _start_roll(ctx, state.current)


def _settle(ctx: Context) -> None:
    """State-based checks after every action: a multi-roll whose offer is settled goes on; a
    player a result left below 1 life loses; a game that ended reveals its seed; a Global deck
    game always has a Global."""
    pauses.settle(ctx)
    spite.settle_losses(ctx)  # a total a result left below 1 starts the spite rule
    state = ctx.state
    if state.phase is Phase.ENDED:  # act() refuses actions once it is over: this one ended it
        ctx.emit(
            {
                "type": "seed_revealed",
                "seed": state.seed,
                "salt": state.salt,
                "commitment": state.commitment,
            }
        )
        return
    if ctx.ruleset.start is not StartRoll.GLOBAL_DECK or state.phase is not Phase.PLAYING:
        return
    if state.chaos_waits():  # the first Global waits for chaos to start (_next_turn)
        return
    if not any(effect.kind == "global" for effect in state.effects.values()):
        decks.reveal_global(ctx)
