"""What a renderer needs besides the events: the names behind the ids they carry.

Events name players, lists, cards, effects and stack items by id. :meth:`Names.of` collects
the names once from a game's log and ruleset, so each event can be written in players' words.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.engine.events import Event, Json, Roll
from bot.engine.game import Game
from bot.engine.model import Ruleset
from bot.engine.state import GameState
from bot.render.ids import effect_ref, middle_ref, roll_ref

_TOKEN_PLAYS = {"counter": "CounterRoll", "fork": "RollFork"}


@dataclass(frozen=True)
class Names:
    """Names by id: players, effects, middle cards, stack items, choice options, actions."""

    players: Mapping[str, str] = field(default_factory=dict)
    ruleset: Ruleset | None = None
    effects: Mapping[int, str] = field(default_factory=dict)
    middle: Mapping[int, str] = field(default_factory=dict)
    items: Mapping[int, str] = field(default_factory=dict)
    options: Mapping[str, str] = field(default_factory=dict)
    actions: Mapping[int, Json] = field(default_factory=dict)
    offers: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # the lists offered
    offered_by: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # roll id: lists
    # The first honoured roll on each list, by the list's id: a list's directions are shown
    # with that roll only, once a game.
    first_rolls: Mapping[str, int] = field(default_factory=dict)
    # How players count effects and middle cards (E1, M1) by id: the game state's numbers.
    effect_numbers: Mapping[int, int] = field(default_factory=dict)
    middle_numbers: Mapping[int, int] = field(default_factory=dict)
    # How players count rolls on the stack (R1) by stack item: the game state's numbers; and
    # the stack item each roll of the log was made in (a roll inside a multi-roll: its first).
    roll_numbers: Mapping[int, int] = field(default_factory=dict)
    roots: Mapping[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, game: Game) -> Names:
        """Every name the game's log has ever used (players who left included).

        A log only grows, and every answer and board of a game asks for its names again: so
        what was collected from a game's log is kept (as long as the game is) and only the
        events logged since are read, instead of the whole log on every action. A copy of the
        game (:meth:`Game.copy`, as every published version is) starts from what was collected
        from the log it copied, when that is a beginning of its own log.
        """
        events = game.events
        # A live page may be drawn on a thread (bot.web.server) from a copy whose collector
        # the event loop feeds for the game itself: one at a time.
        with _LOCK:
            collector = _COLLECTED.get(game)
            if collector is None or not collector.begins(events):
                collector = _LINEAGE.get(id(events[0])) if events else None
                if collector is None or not collector.begins(events):
                    collector = _Collector()
            collector.feed_log(events)
            _COLLECTED[game] = collector
            if events:
                _LINEAGE[id(events[0])] = collector
            return collector.names(game.ruleset, game.state)

    @classmethod
    def collect(
        cls,
        events: Iterable[Event],
        ruleset: Ruleset | None = None,
        state: GameState | None = None,
    ) -> Names:
        """The names of `events`; with the game's `state`, its effects' and cards' numbers."""
        collector = _Collector()
        collector.feed(events)
        return collector.names(ruleset, state)

    def player(self, player_id: str | None) -> str:
        if player_id is None:
            return "nobody"
        # Only an official acts without a seat (a referee, by a Discord id nobody can read).
        return self.players.get(player_id, "a referee")

    def table(self, table_id: str | None) -> str:
        """A list's or deck's name, as players call it."""
        if table_id is None:
            return "the usual list"
        ruleset = self.ruleset
        if ruleset is not None:
            if table_id in ruleset.tables:
                return ruleset.tables[table_id].name
            if table_id in ruleset.decks:
                return ruleset.decks[table_id].name
        return table_id

    def card(self, deck_id: str, card_id: str) -> str:
        ruleset = self.ruleset
        if ruleset is not None and deck_id in ruleset.decks:
            try:
                return ruleset.decks[deck_id].card(card_id).name
            except KeyError:
                pass
        return card_id

    def effect(self, effect_id: int, name: str | None = None) -> str:
        """``E2 Fog``: an effect by its number and `name` (else the name it was logged with).

        An effect an undo took back has no number any more (the next effect takes it): the
        log's undone lines name it without one.
        """
        name = self.effects.get(effect_id, "") if name is None else name
        number = self.effect_numbers.get(effect_id)
        return _labelled(effect_ref(number) if number else "", name)

    def middle_card(self, card_id: int, name: str | None = None) -> str:
        """``M1 Black Lotus``: a card in the middle by its number and name (as :meth:`effect`)."""
        name = self.middle.get(card_id, "") if name is None else name
        number = self.middle_numbers.get(card_id)
        return _labelled(middle_ref(number) if number else "", name)

    def item(self, item_id: int | None) -> str:
        """``R2 Fog``: a roll, counter or fork on the stack by its number and name. One an undo
        took back has no number any more (the next roll takes it): it is named without one."""
        if item_id is None:
            return "nothing"
        number = self.roll_numbers.get(item_id)
        return _labelled(roll_ref(number) if number else "", self.items.get(item_id, "")) or (
            "a roll"
        )

    def reason(self, why: str) -> str:
        """Why a roll was made, as its roll event says, with the roll it names written as
        players count (R2). The log names that roll by the engine's id, as it always did, so
        that a replay writes the same text: "offered by Portal, roll 14" (the roll whose result
        offered it, read as the roll on the stack it was made in), "copy of roll 14 (RollFork)"
        and "rolled again: R14 was vetoed"."""
        offered, cut, roll = why.rpartition(", roll ")
        if cut and offered.startswith("offered by ") and roll.isdigit():
            return f"{offered}, {self._rolled_in(int(roll))}"
        copied = why.removeprefix("copy of roll ").removesuffix(" (RollFork)")
        if copied != why and copied.isdigit():
            return f"copy of {self._rolled_in(int(copied))} (RollFork)"
        vetoed = why.removeprefix("rolled again: R").removesuffix(" was vetoed")
        if vetoed != why and vetoed.isdigit():
            return f"rolled again: {self._rolled_in(int(vetoed))} was vetoed"
        return why

    def _rolled_in(self, roll_id: int) -> str:
        number = self.roll_numbers.get(self.roots.get(roll_id, roll_id))
        return roll_ref(number) if number else "an earlier roll"

    def dice(self, roll: Roll) -> str:
        """``d20×d10 [13, 4] = 134``: the dice, their faces as rolled, and the number read."""
        # A result a house rule drew by weight (bot.engine.house) has no faces of its own.
        faces = (
            ", ".join(map(str, roll["dice"])) if roll["dice"] or not roll.get("drawn") else "drawn"
        )
        notation = ""
        ruleset = self.ruleset
        if ruleset is not None and roll["table"] in ruleset.tables:
            # The house readings ("20 counts as 0") are in `rules`; the faces show them anyway.
            notation = ruleset.tables[roll["table"]].dice.notation.split(" (")[0] + " "
        return f"{notation}[{faces}] = {roll['result']}"

    def band(self, roll: Roll) -> str:
        """The entry's number as printed on the list: ``#52`` or ``#50-55``."""
        ruleset = self.ruleset
        if ruleset is not None and roll["table"] in ruleset.tables:
            band = ruleset.tables[roll["table"]].band(roll["result"])
            if band is not None:
                return f"#{band.label}"
        return f"#{roll['result']}"


def _labelled(ref: str, name: str) -> str:
    return f"{ref} {name}" if ref and name else ref or name


class _Collector:
    """The names of a log, gathered event by event (see :meth:`Names.of`)."""

    def __init__(self) -> None:
        self.players: dict[str, str] = {}
        self.effects: dict[int, str] = {}
        self.middle: dict[int, str] = {}
        self.items: dict[int, str] = {}
        self.options: dict[str, str] = {}
        self.actions: dict[int, Json] = {}
        self.offers: dict[int, tuple[str, ...]] = {}
        self.offered_by: dict[int, tuple[str, ...]] = {}
        self.first_rolls: dict[str, int] = {}
        self.roots: dict[int, int] = {}
        # The log read by feed_log: its first and last events read, and how many.
        self.first: Event | None = None
        self.last: Event | None = None
        self.read = 0

    def begins(self, events: list[Event]) -> bool:
        """Whether the log read so far is the beginning of `events`: the same event objects
        at its two ends (a log only grows; one that went another way after an undo or a
        failed save has other events from there on)."""
        read = self.read
        return read == 0 or (
            read <= len(events) and events[0] is self.first and events[read - 1] is self.last
        )

    def feed_log(self, events: list[Event]) -> None:
        """Read the events of a log that :meth:`begins` with what was read so far."""
        if len(events) > self.read:
            self.feed(events[self.read :])
            self.first, self.last, self.read = events[0], events[-1], len(events)

    def feed(self, events: Iterable[Event]) -> None:
        players, items = self.players, self.items
        for event in events:
            match event["type"]:
                case "game_started":
                    players[event["host"]] = event["name"]
                case "player_joined":
                    players[event["player"]] = event["name"]
                case "effect_started":
                    self.effects[event["id"]] = event["name"]
                case "middle_added":
                    self.middle[event["card"]] = event["name"]
                case "roll":
                    items.setdefault(event["id"], event["entry"]["name"])
                    parent = event["parent"]
                    root = self.roots.get(parent, parent) if parent is not None else None
                    self.roots.setdefault(event["id"], event["id"] if root is None else root)
                    if not event["ignored"]:
                        self.first_rolls.setdefault(event["table"], event["id"])
                case "stack" if event["kind"] in _TOKEN_PLAYS:
                    # A counter or fork has no entry: it is called after who played it, so
                    # countering it says what was countered.
                    who = players.get(event["player"], event["player"])
                    items[event["item"]] = f"({who}'s {_TOKEN_PLAYS[event['kind']]})"
                case "choice_offered":
                    self.options.update((o["id"], o["name"]) for o in event["options"])
                case "action":
                    self.actions[event["seq"]] = event["action"]
                case "offer_made":
                    self.offers[event["id"]] = tuple(event["tables"])
                    self.offered_by[event["source"]] = tuple(event["tables"])
                case _:
                    pass

    def names(self, ruleset: Ruleset | None, state: GameState | None = None) -> Names:
        """The names so far, with the numbers of `state` (which never change in place: see
        GameState).

        Not copies: the Names looks up in this collector's own tables, so a long game's every
        answer and board doesn't copy every roll's and action's name again (tens of µs at a
        thousand actions). Later events of the log only add names by ids these events never
        carry, or a player's newer name, which a whole log's names give too; and nothing reads
        a Names but by id."""
        return Names(
            self.players,
            ruleset,
            self.effects,
            self.middle,
            self.items,
            self.options,
            self.actions,
            self.offers,
            self.offered_by,
            self.first_rolls,
            state.effect_numbers if state is not None else {},
            state.middle_numbers if state is not None else {},
            state.roll_numbers if state is not None else {},
            self.roots,
        )


# What Names.of has collected of each game's log, by game; and the newest collector of each
# game's lineage, by its first event (copies of a game share their events): a copy's start.
_COLLECTED: weakref.WeakKeyDictionary[Game, _Collector] = weakref.WeakKeyDictionary()
_LINEAGE: weakref.WeakValueDictionary[int, _Collector] = weakref.WeakValueDictionary()
_LOCK = threading.Lock()
