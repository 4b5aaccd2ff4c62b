"""A game's state: everything the referee remembers about one game.

The dataclasses here are changed only by :func:`bot.engine.fold.apply`, which builds a game's
state from its events (see :mod:`bot.engine.fold`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.engine.house import HouseRules
from bot.engine.model import PlayerId
from bot.engine.stack import ActiveEffect as ActiveEffect
from bot.engine.stack import Outcome as Outcome
from bot.engine.stack import StackItem as StackItem
from bot.engine.stack import shallow, writable


class Phase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    ENDED = "ended"


class Status(StrEnum):
    PLAYING = "playing"
    AWAY = "away"
    OUT = "out"


@dataclass
class Player:
    id: PlayerId
    name: str
    status: Status = Status.PLAYING
    life: int | None = None
    unsure: bool = False  # a result changed the total in a way the bot can't count
    tokens: dict[str, int] = field(default_factory=dict)
    away_turns: int | None = None
    spited: bool = False
    spiting: bool = False


@dataclass(frozen=True)
class PendingOffer:
    """A roll a result offered, not yet taken: on `tables[0]`, or on one of `tables`."""

    id: int
    player: PlayerId
    tables: tuple[str, ...]
    source: int
    name: str


@dataclass(frozen=True)
class PausedRoll:
    """A multi-roll waiting for the offers of the rolls `waits` before its later rolls."""

    item: int
    player: PlayerId
    waits: tuple[int, ...]
    context: dict[str, object]


@dataclass
class Pending:
    """A choice the game waits for."""

    player: PlayerId
    kind: str
    options: list[tuple[str, str]]
    context: dict[str, object]

    @property
    def private(self) -> bool:
        """A spite look: its options are cards from the top of a deck, for the chooser's eyes."""
        return self.kind == "spite"


@dataclass
class DeckState:
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    looking: list[str] = field(default_factory=list)


@dataclass
class MiddleCard:
    id: int
    name: str
    player: PlayerId
    turn: int
    number: int = 0  # how players count it (M1, M2, …): see GameState.middle_numbers


@dataclass
class GameState:
    """Everything the referee remembers about one game."""

    ruleset: str = ""
    revision: str = ""
    seed: int = 0
    salt: str = ""
    commitment: str | None = None
    dice: int = 1  # how actions seed their dice (bot.engine.streams): 1 in older logs
    draws: dict[str, int] = field(default_factory=dict)  # rolls of each purpose this turn
    host: PlayerId = ""
    life: int | None = None
    house: HouseRules = field(default_factory=HouseRules)  # the rules it started with
    # With no repeats (a house rule): the entries of each list that came up since it last
    # started over. Replaced, never changed in place, so a state copy may share it.
    given: dict[str, frozenset[str]] = field(default_factory=dict)
    phase: Phase = Phase.LOBBY
    players: dict[PlayerId, Player] = field(default_factory=dict)
    order: list[PlayerId] = field(default_factory=list)
    direction: int = 1
    turn: int = 0
    # The round of the turn: as many turns as there are seated players when it begins.
    round: int = 0
    round_left: int = 0  # turns of this round after the current one
    current: PlayerId | None = None
    seat: PlayerId | None = None
    active: PlayerId | None = None
    extra_turn: bool = False
    extra_queue: list[PlayerId] = field(default_factory=list)
    skips: dict[PlayerId, int] = field(default_factory=dict)
    rolled: bool = False
    current_list: str | None = None
    forced_list: str | None = None
    effects: dict[int, ActiveEffect] = field(default_factory=dict)
    next_id: int = 1
    # The numbers players count effects and middle cards by (E1, E2, … and M1, M2, …), by id:
    # each effect (or card) that came into the game gets the next number, and keeps it after
    # it ends, so a number means one thing for the whole game (an effect a counter brings back
    # keeps its number under its new id). `next_id` can't serve: rolls, stack items and offers
    # take ids from it too. Folded from the log like everything else (no event carries them),
    # so games logged before them get them too; an undone action's numbers are free again, as
    # its ids are, and so are those of the effects a veto takes back (the roll made again
    # takes them). Replaced, never changed in place (like `given`).
    effect_numbers: dict[int, int] = field(default_factory=dict)
    middle_numbers: dict[int, int] = field(default_factory=dict)
    # The rolls, counters and forks of a game that went on its stack, numbered the same way
    # (R1, R2, …, by stack item id): what players read as "R2" in "votes to veto R2" and in
    # the refusals. A vetoed or countered roll keeps its number; an undone one leaves it to
    # the next. Replaced, never changed in place.
    roll_numbers: dict[int, int] = field(default_factory=dict)
    stack: list[StackItem] = field(default_factory=list)
    decks: dict[str, DeckState] = field(default_factory=dict)
    face_down: tuple[str, str, PlayerId, str] | None = None  # deck, card, controller, purpose
    middle: dict[int, MiddleCard] = field(default_factory=dict)
    middle_plays: dict[PlayerId, int] = field(default_factory=dict)
    middle_ready: set[int] = field(default_factory=set)
    pending: Pending | None = None
    offers: dict[int, PendingOffer] = field(default_factory=dict)
    paused: list[PausedRoll] = field(default_factory=list)  # the newest last
    winner: PlayerId | None = None
    seq: int = 0
    # The veto vote (a house rule, bot.engine.veto): the roll open to a vote until the next
    # action, who voted to veto it, and the roll vetoed this turn (one a turn).
    veto_item: int | None = None
    votes: tuple[PlayerId, ...] = ()
    vetoed: int | None = None

    def copy(self) -> GameState:
        """An independent copy for an action to work on.

        Much faster than ``copy.deepcopy``: everything an event can change is copied, and what
        never changes once made (events, effects, middle cards, a pending choice) is shared.
        The stack's items are shared too, and copied when an event changes one
        (:func:`~bot.engine.stack.writable`): an extra roll would otherwise copy every roll
        made this turn.
        """
        clone = shallow(self)
        clone.players = {pid: _player_copy(p) for pid, p in self.players.items()}
        clone.order = list(self.order)
        clone.extra_queue = list(self.extra_queue)
        clone.skips = dict(self.skips)
        clone.effects = dict(self.effects)
        clone.stack = list(self.stack)
        clone.decks = {
            d: DeckState(list(p.draw), list(p.discard), list(p.looking))
            for d, p in self.decks.items()
        }
        clone.middle = dict(self.middle)
        clone.middle_plays = dict(self.middle_plays)
        clone.middle_ready = set(self.middle_ready)
        clone.offers = dict(self.offers)
        clone.paused = list(self.paused)
        clone.draws = dict(self.draws)
        clone.given = dict(self.given)
        return clone

    def take_id(self) -> int:
        """A fresh id for a roll, stack item, effect or middle card (one counter for all)."""
        taken = self.next_id
        self.next_id += 1
        return taken

    def roll_ref(self, item: int) -> str:
        """``R2``: how players read stack item `item`, by its number (bot.render.ids writes it
        the same way; the engine imports nothing of the renderers)."""
        number = self.roll_numbers.get(item)
        return f"R{number}" if number is not None else "that roll"

    def effect_named(self, effect: int, by_number: bool) -> int | None:
        """The id of the effect an action names: by its number (E2), or by its id (a log from
        before the numbers); None when no effect of this game has had that number."""
        if not by_number:
            return effect
        # An effect brought back keeps its number under a new id (bot.engine.fold): the one in
        # play, else the latest.
        named = [thing for thing, number in self.effect_numbers.items() if number == effect]
        return next(
            (thing for thing in named if thing in self.effects), named[-1] if named else None
        )

    def card_named(self, card: int, by_number: bool) -> int | None:
        """The id of the middle card an action names (as :meth:`effect_named`)."""
        if not by_number:
            return card
        return next((c for c, number in self.middle_numbers.items() if number == card), None)

    def chaos_waits(self) -> bool:
        """Before the round chaos starts in (house rule ``chaos_from``): no chaos yet."""
        return self.round < self.house.chaos_from

    def seated(self) -> list[Player]:
        """Players still in the game (playing or away), in seat order."""
        return [self.players[p] for p in self.order if self.players[p].status is not Status.OUT]

    def live_item(self) -> StackItem | None:
        """The most recent roll, counter or fork on the stack that hasn't been countered."""
        for item in reversed(self.stack):
            if item.live:
                return item
        return None

    def item(self, item_id: int) -> StackItem:
        """A stack item by id, to read (to change one: :meth:`writable_item`)."""
        return next(item for item in self.stack if item.id == item_id)

    def writable_item(self, item_id: int) -> StackItem:
        """A stack item by id, to change: this state's own copy of it."""
        return writable(self.stack, item_id)

    def turn_roll(self) -> StackItem | None:
        """This turn's chaos roll (or card) on the stack, countered or not; None before it."""
        rolls = [item for item in self.stack if item.kind == "roll"]
        for item in rolls:
            if item.purpose == "turn":
                return item
        # A log from before rolls said why they were made: its first roll after the start.
        return next((item for item in rolls if item.purpose is None), None)


# dataclasses.replace walks the fields by name on every call; a state copy makes one per
# player and stack item on every action, so these copy the instance dict instead.
def _player_copy(player: Player) -> Player:
    clone = shallow(player)
    clone.tokens = dict(player.tokens)
    return clone
