"""A game's state, and the fold that builds it from events.

:func:`apply` is the only code that changes a :class:`GameState`. It never rolls dice and never
decides anything: every decision is already written in the event. That is what lets a game be
rebuilt from its log, undone, and compared after a replay.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from bot.engine.events import Event, OfferMade, TurnOrderChanged
from bot.engine.model import Lasts, PlayerId
from bot.engine.stack import ActiveEffect as ActiveEffect
from bot.engine.stack import Outcome as Outcome
from bot.engine.stack import StackItem as StackItem
from bot.engine.stack import item_copy, record_outcome


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


@dataclass
class GameState:
    """Everything the referee remembers about one game."""

    ruleset: str = ""
    revision: str = ""
    seed: int = 0
    salt: str = ""
    commitment: str | None = None
    dice: int = 1  # how actions seed their dice (bot.engine.streams): 1 in older logs
    host: PlayerId = ""
    life: int | None = None
    phase: Phase = Phase.LOBBY
    players: dict[PlayerId, Player] = field(default_factory=dict)
    order: list[PlayerId] = field(default_factory=list)
    direction: int = 1
    turn: int = 0
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
    stack: list[StackItem] = field(default_factory=list)
    decks: dict[str, DeckState] = field(default_factory=dict)
    face_down: tuple[str, str, PlayerId, str] | None = None  # deck, card, controller, purpose
    middle: dict[int, MiddleCard] = field(default_factory=dict)
    middle_plays: dict[PlayerId, int] = field(default_factory=dict)
    middle_ready: set[int] = field(default_factory=set)
    pending: Pending | None = None
    offers: dict[int, PendingOffer] = field(default_factory=dict)
    winner: PlayerId | None = None
    seq: int = 0

    def copy(self) -> GameState:
        """An independent copy for an action to work on.

        Much faster than ``copy.deepcopy``: everything an event can change is copied, and what
        never changes once made (events, effects, middle cards, a pending choice) is shared.
        """
        clone = copy.copy(self)
        clone.players = {pid: _player_copy(p) for pid, p in self.players.items()}
        clone.order = list(self.order)
        clone.extra_queue = list(self.extra_queue)
        clone.skips = dict(self.skips)
        clone.effects = dict(self.effects)
        clone.stack = [item_copy(item) for item in self.stack]
        clone.decks = {
            d: DeckState(list(p.draw), list(p.discard), list(p.looking))
            for d, p in self.decks.items()
        }
        clone.middle = dict(self.middle)
        clone.middle_plays = dict(self.middle_plays)
        clone.middle_ready = set(self.middle_ready)
        clone.offers = dict(self.offers)
        return clone

    def take_id(self) -> int:
        """A fresh id for a roll, stack item, effect or middle card (one counter for all)."""
        taken = self.next_id
        self.next_id += 1
        return taken

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
        return next(item for item in self.stack if item.id == item_id)

    def turn_roll(self) -> StackItem | None:
        """This turn's chaos roll (or card) on the stack, countered or not; None before it."""
        rolls = [item for item in self.stack if item.kind == "roll"]
        for item in rolls:
            if item.purpose == "turn":
                return item
        # A log from before rolls said why they were made: its first roll after the start.
        return next((item for item in rolls if item.purpose is None), None)


def apply(state: GameState, event: Event) -> None:
    """Change `state` as `event` says. Pure bookkeeping: no dice, no decisions."""
    match event["type"]:
        case "action":
            state.seq = event["seq"]
        case "undone":
            pass  # handled by fold(), which leaves the undone action out
        case "game_started":
            state.ruleset = event["ruleset"]
            state.revision = event["revision"]
            state.seed = event["seed"]
            state.salt = event.get("salt", "")
            state.commitment = event.get("commitment")
            state.dice = event.get("dice", 1)
            state.host = event["host"]
            state.life = event["life"]
            state.players[event["host"]] = Player(event["host"], event["name"], life=event["life"])
        case "player_joined":
            state.players[event["player"]] = Player(event["player"], event["name"], life=state.life)
        case "player_left":
            del state.players[event["player"]]
        case "game_begun":
            state.phase = Phase.PLAYING
            state.order = list(event["order"])
        case "turn_started":
            state.turn = event["turn"]
            state.current = state.active = event["player"]
            state.extra_turn = event["extra"]
            if event["extra"]:
                state.extra_queue.pop()
            else:
                state.seat = event["player"]
            state.rolled = False
            state.stack = []
            state.middle_plays = {}
            state.middle_ready = set(state.middle)
        case "turn_ended":
            # Effects are replaced, never changed in place, so GameState.copy() can share them.
            for effect_id, effect in list(state.effects.items()):
                if effect.lasts is Lasts.TURNS:
                    state.effects[effect_id] = replace(effect, turns_left=effect.turns_left - 1)
            state.active = None
        case "turn_skipped":
            skipped = state.players[event["player"]]
            if event["why"] == "extra" or event.get("extra"):
                state.extra_queue.pop()
            match event["why"]:
                case "away" if skipped.away_turns is not None:
                    skipped.away_turns -= 1
                case "skip":
                    state.skips[skipped.id] -= 1
        case "turn_order":
            state.order = list(event["order"])
            state.direction = event["direction"]
            _change_order(state, event)
            record_outcome(state.stack, event)
        case "roll_waived" | "chaos_done":
            state.rolled = True
        case "roll":
            state.next_id = max(state.next_id, event["id"] + 1)
        case "budget_exhausted":
            pass
        case "stack":
            state.next_id = max(state.next_id, event["item"] + 1)
            state.stack.append(
                StackItem(
                    event["item"],
                    event["kind"],
                    event["player"],
                    event["target"],
                    event["table"],
                    event["entry"],
                    list(event["dice"]),
                    event["result"],
                    spite=_spiting(state, event["player"]),
                    purpose=event.get("purpose"),
                )
            )
        case "countered":
            countered = state.item(event["item"])
            countered.live = not event["countered"]
            # What follows is recorded afresh: what the counter takes back, or (when the
            # counter is countered) what the item does again.
            if event["countered"]:
                countered.undone = []
            else:
                countered.outcomes = []
        case "effect_started":
            state.next_id = max(state.next_id, event["id"] + 1)
            state.effects[event["id"]] = ActiveEffect(
                id=event["id"],
                name=event["name"],
                text=event["text"],
                kind=event["kind"],
                owner=event["owner"],
                lasts=Lasts(event["lasts"]),
                turns_left=event["turns"],
                source=event["source"],
                started_turn=state.turn,
                card=event.get("card"),
                deck=event.get("deck"),
            )
            record_outcome(state.stack, event)
        case "effect_ended":
            ended = state.effects.pop(event["id"], None)
            record_outcome(state.stack, event, effect=ended)
        case "tokens":
            tokens = state.players[event["player"]].tokens
            tokens[event["token"]] = tokens.get(event["token"], 0) + event["delta"]
            record_outcome(state.stack, event)
        case "list_changed":
            state.current_list = event["current"]
            state.forced_list = event["forced"]
            record_outcome(state.stack, event)
        case "offer_made":
            state.next_id = max(state.next_id, event["id"] + 1)
            state.offers[event["id"]] = PendingOffer(
                event["id"], event["player"], tuple(event["tables"]), event["source"], event["name"]
            )
            record_outcome(state.stack, event)
        case "offer_taken":
            state.offers.pop(event["id"], None)
        case "offer_lapsed":
            gone = state.offers.pop(event["id"], None)
            if gone is not None:
                # A counter withdrew it: remember it, so countering that counter brings it back.
                made: OfferMade = {
                    "type": "offer_made",
                    "id": gone.id,
                    "player": gone.player,
                    "tables": list(gone.tables),
                    "source": gone.source,
                    "name": gone.name,
                }
                record_outcome(state.stack, event, offer=made)
        case "card_drawn":
            deck = state.decks[event["deck"]]
            deck.draw.remove(event["card"])
            if event["face_down"] and event["player"] is not None:
                purpose = event.get("purpose", "turn")
                state.face_down = (event["deck"], event["card"], event["player"], purpose)
            elif event["player"] is not None:
                deck.looking.append(event["card"])
        case "card_revealed":
            looking = state.decks[event["deck"]].looking
            if event["card"] in looking:
                looking.remove(event["card"])  # picked from a spite look
            else:
                state.face_down = None  # the turn's face-down card (a spite leaves it alone)
        case "cards_to_bottom":
            deck = state.decks[event["deck"]]
            for card in event["cards"]:
                deck.looking.remove(card)
            deck.draw.extend(event["cards"])
        case "card_discarded":
            state.decks[event["deck"]].discard.append(event["card"])
        case "deck_shuffled":
            state.decks[event["deck"]] = DeckState(
                draw=list(event["order"]), looking=_looking(state, event["deck"])
            )
        case "choice_offered":
            state.pending = Pending(
                event["player"],
                event["kind"],
                [(o["id"], o["name"]) for o in event["options"]],
                dict(event["context"]),
            )
        case "choice_made":
            state.pending = None
        case "life":
            state.players[event["player"]].life = event["life"]
            record_outcome(state.stack, event)
        case "spite_started":
            player = state.players[event["player"]]
            player.spiting = True
            player.spited = True
        case "spite_ended":
            state.players[event["player"]].spiting = False
        case "player_out":
            state.players[event["player"]].status = Status.OUT
            if state.active == event["player"]:
                state.active = None
        case "player_away":
            player = state.players[event["player"]]
            record_outcome(state.stack, event, active=state.active == player.id)
            player.status = Status.AWAY
            player.away_turns = event["turns"]
            if state.active == event["player"]:
                state.active = None
        case "player_back":
            player = state.players[event["player"]]
            record_outcome(state.stack, event, away=player.away_turns)
            player.status = Status.PLAYING
            player.away_turns = None
            if event.get("active"):
                state.active = player.id
        case "middle_added":
            state.next_id = max(state.next_id, event["card"] + 1)
            state.middle[event["card"]] = MiddleCard(
                event["card"], event["name"], event["player"], event["turn"]
            )
        case "middle_played":
            del state.middle[event["card"]]
            state.middle_ready.discard(event["card"])
            state.middle_plays[event["player"]] = state.middle_plays.get(event["player"], 0) + 1
        case "game_ended":
            state.phase = Phase.ENDED
            state.winner = event["winner"]
            state.active = None
        case "seed_revealed":
            pass  # the seed was in the log from the start; now front ends may show it


def fold(events: Iterable[Event]) -> GameState:
    """Build a game's state from its whole log, leaving out the actions that were undone."""
    events = list(events)
    undone = {e["seq"] for e in events if e["type"] == "undone"}
    state = GameState()
    skipping = False
    for event in events:
        if event["type"] == "action":
            skipping = event["seq"] in undone
        if not skipping:
            apply(state, event)
    return state


def _spiting(state: GameState, player: PlayerId) -> bool:
    seated = state.players.get(player)
    return seated is not None and seated.spiting


def _change_order(state: GameState, event: TurnOrderChanged) -> None:
    """Queue or take back an extra turn or a skip (a reversal or new seating changed the order)."""
    player = event["player"]
    if player is None:
        return
    match event["change"]:
        case "extra":
            state.extra_queue.append(player)
        case "cancel_extra":
            # The most recently queued one, the last to be taken.
            at = len(state.extra_queue) - 1 - state.extra_queue[::-1].index(player)
            del state.extra_queue[at]
        case "skip":
            state.skips[player] = state.skips.get(player, 0) + 1
        case "cancel_skip":
            state.skips[player] -= 1


def _looking(state: GameState, deck: str) -> list[str]:
    old = state.decks.get(deck)
    return list(old.looking) if old else []


# dataclasses.replace walks the fields by name on every call; a state copy makes one per
# player and stack item on every action, so these copy the instance dict instead.
def _player_copy(player: Player) -> Player:
    clone = copy.copy(player)
    clone.tokens = dict(player.tokens)
    return clone
