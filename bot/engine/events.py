"""The events a game is made of.

A game's state is a fold over these (see :mod:`bot.engine.state`). They are plain dicts at run
time, so the log is JSON as it stands; the TypedDicts below let the type checker see each shape.
Every event has a ``type``; the export writes one event per line.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

Json: TypeAlias = dict[str, Any]


class EntryRef(TypedDict):
    id: str
    name: str


class InlineDice(TypedDict):
    expr: str
    faces: list[int]
    total: int


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


class TurnStarted(TypedDict):
    type: Literal["turn_started"]
    turn: int
    player: str
    extra: bool


class TurnEnded(TypedDict):
    type: Literal["turn_ended"]
    turn: int
    player: str


class TurnSkipped(TypedDict):
    """A player's turn is passed over: a skip used up, an absence, or an extra turn lost.

    With ``extra`` true the turn passed over was an extra turn, which is used up as well.
    """

    type: Literal["turn_skipped"]
    player: str
    why: Literal["skip", "extra", "away"]
    extra: NotRequired[bool]


class TurnOrderChanged(TypedDict):
    """Reversal, a new seating, an extra turn or a skip added, or (by a counter) taken away."""

    type: Literal["turn_order"]
    change: Literal["reverse", "seats", "extra", "skip", "cancel_extra", "cancel_skip"]
    player: str | None
    order: list[str]
    direction: int
    item: NotRequired[int | None]
    undoes: NotRequired[int]


class RollRequirementWaived(TypedDict):
    type: Literal["roll_waived"]
    turn: int
    by: str


class ChaosDone(TypedDict):
    """The turn's mandatory chaos roll (or draw) has been made."""

    type: Literal["chaos_done"]
    turn: int
    player: str


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


class BudgetExhausted(TypedDict):
    type: Literal["budget_exhausted"]
    root: int
    rolls: int
    depth: int
    message: str


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


class OfferLapsed(TypedDict):
    """An offer nobody took ends: the turn ended, or the roll that made it was countered."""

    type: Literal["offer_lapsed"]
    id: int
    reason: str
    item: NotRequired[int | None]
    undoes: NotRequired[int]


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


class CardDrawn(TypedDict):
    type: Literal["card_drawn"]
    deck: str
    card: str
    face_down: bool
    player: str | None
    purpose: NotRequired[str]  # a face-down chaos card: "turn" or "extra" (see StackPushed)


class CardRevealed(TypedDict):
    type: Literal["card_revealed"]
    deck: str
    card: str


class CardsToBottom(TypedDict):
    type: Literal["cards_to_bottom"]
    deck: str
    cards: list[str]


class CardDiscarded(TypedDict):
    type: Literal["card_discarded"]
    deck: str
    card: str


class DeckShuffled(TypedDict):
    type: Literal["deck_shuffled"]
    deck: str
    order: list[str]
    reshuffle: bool


class ChoiceOffered(TypedDict):
    type: Literal["choice_offered"]
    player: str
    kind: Literal["keep", "half", "spite", "life_if", "life_amount", "loss"]
    options: list[EntryRef]
    context: Json


class ChoiceMade(TypedDict):
    type: Literal["choice_made"]
    player: str
    option: str


class LifeChanged(TypedDict):
    type: Literal["life"]
    player: str
    life: int
    delta: int
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


class MiddleAdded(TypedDict):
    type: Literal["middle_added"]
    card: int
    name: str
    player: str
    turn: int


class MiddlePlayed(TypedDict):
    type: Literal["middle_played"]
    card: int
    player: str


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


Event: TypeAlias = (
    ActionTaken
    | ActionUndone
    | GameStarted
    | PlayerJoined
    | PlayerLeft
    | GameBegun
    | TurnStarted
    | TurnEnded
    | TurnSkipped
    | TurnOrderChanged
    | RollRequirementWaived
    | ChaosDone
    | Roll
    | BudgetExhausted
    | EffectStarted
    | EffectEnded
    | TokensChanged
    | ListChanged
    | OfferMade
    | OfferTaken
    | OfferLapsed
    | StackPushed
    | StackCountered
    | CardDrawn
    | CardRevealed
    | CardsToBottom
    | CardDiscarded
    | DeckShuffled
    | ChoiceOffered
    | ChoiceMade
    | LifeChanged
    | SpiteStarted
    | SpiteEnded
    | PlayerOut
    | PlayerAway
    | PlayerBack
    | MiddleAdded
    | MiddlePlayed
    | GameEnded
    | SeedRevealed
)

# Outcomes a stack item produced (``item``), or that a counter took back from one (``undoes``):
# a counter takes the first kind back, a counter of that counter takes back the second.
EventOwner: TypeAlias = (
    EffectStarted
    | EffectEnded
    | TokensChanged
    | ListChanged
    | LifeChanged
    | TurnOrderChanged
    | PlayerAway
    | PlayerBack
    | OfferMade
    | OfferLapsed
)
