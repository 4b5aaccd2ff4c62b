"""The events of cards: decks drawn from, revealed, discarded and shuffled, and the middle zone."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


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
