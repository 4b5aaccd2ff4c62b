"""The events a game is made of.

A game's state is a fold over these (see :mod:`bot.engine.fold`). They are plain dicts at run
time, so the log is JSON as it stands; TypedDicts let the type checker see each shape. They live
by area in the ``events_*`` modules (game, turns, rolls, effects, cards); this module gathers
them, and callers import every event from here. Every event has a ``type``; the export writes
one event per line.
"""

from __future__ import annotations

from typing import TypeAlias, get_args, get_type_hints

from bot.engine.events_cards import (
    CardDiscarded,
    CardDrawn,
    CardRevealed,
    CardsToBottom,
    DeckShuffled,
    MiddleAdded,
    MiddlePlayed,
)
from bot.engine.events_effects import (
    EffectEnded,
    EffectStarted,
    LifeChanged,
    LifeUnsure,
    ListChanged,
    OfferDeclined,
    OfferLapsed,
    OfferMade,
    OfferTaken,
    SpiteEnded,
    SpiteStarted,
    TokensChanged,
)
from bot.engine.events_game import (
    ActionTaken,
    ActionUndone,
    GameBegun,
    GameEnded,
    GameStarted,
    Json,
    PlayerAway,
    PlayerBack,
    PlayerJoined,
    PlayerLeft,
    PlayerOut,
    SeedRevealed,
)
from bot.engine.events_rolls import (
    BudgetExhausted,
    ChoiceMade,
    ChoiceOffered,
    DiceDrawn,
    EntryRef,
    InlineDice,
    Roll,
    RollPaused,
    RollResumed,
    StackCountered,
    StackPushed,
    Vetoed,
    VetoVote,
)
from bot.engine.events_turns import (
    ChaosDone,
    RollRequirementWaived,
    TurnEnded,
    TurnOrderChanged,
    TurnSkipped,
    TurnStarted,
)

__all__ = [
    "FIELDS",
    "ActionTaken",
    "ActionUndone",
    "BudgetExhausted",
    "CardDiscarded",
    "CardDrawn",
    "CardRevealed",
    "CardsToBottom",
    "ChaosDone",
    "ChoiceMade",
    "ChoiceOffered",
    "DeckShuffled",
    "DiceDrawn",
    "EffectEnded",
    "EffectStarted",
    "EntryRef",
    "Event",
    "EventOwner",
    "GameBegun",
    "GameEnded",
    "GameStarted",
    "InlineDice",
    "Json",
    "LifeChanged",
    "LifeUnsure",
    "ListChanged",
    "MiddleAdded",
    "MiddlePlayed",
    "OfferDeclined",
    "OfferLapsed",
    "OfferMade",
    "OfferTaken",
    "PlayerAway",
    "PlayerBack",
    "PlayerJoined",
    "PlayerLeft",
    "PlayerOut",
    "Roll",
    "RollPaused",
    "RollRequirementWaived",
    "RollResumed",
    "SeedRevealed",
    "SpiteEnded",
    "SpiteStarted",
    "StackCountered",
    "StackPushed",
    "TokensChanged",
    "TurnEnded",
    "TurnOrderChanged",
    "TurnSkipped",
    "TurnStarted",
    "VetoVote",
    "Vetoed",
]

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
    | DiceDrawn
    | Roll
    | BudgetExhausted
    | EffectStarted
    | EffectEnded
    | TokensChanged
    | ListChanged
    | OfferMade
    | OfferTaken
    | OfferDeclined
    | OfferLapsed
    | RollPaused
    | RollResumed
    | StackPushed
    | StackCountered
    | VetoVote
    | Vetoed
    | CardDrawn
    | CardRevealed
    | CardsToBottom
    | CardDiscarded
    | DeckShuffled
    | ChoiceOffered
    | ChoiceMade
    | LifeChanged
    | LifeUnsure
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


def _fields() -> dict[str, frozenset[str]]:
    """Every event's type, and the fields an event of that type may have."""
    found: dict[str, frozenset[str]] = {}
    for shape in get_args(Event):
        (kind,) = get_args(get_type_hints(shape)["type"])
        found[kind] = frozenset(shape.__required_keys__ | shape.__optional_keys__)
    return found


FIELDS: dict[str, frozenset[str]] = _fields()  # what a strict reader of a log accepts

# Outcomes a stack item produced (``item``), or that a counter took back from one (``undoes``):
# a counter takes the first kind back, a counter of that counter takes back the second.
EventOwner: TypeAlias = (
    EffectStarted
    | EffectEnded
    | TokensChanged
    | ListChanged
    | LifeChanged
    | LifeUnsure
    | TurnOrderChanged
    | PlayerAway
    | PlayerBack
    | OfferMade
    | OfferLapsed
    | RollPaused
    | RollResumed
)
