"""The commitment a game makes to its seed before the first roll.

Every die and every shuffle of a game follows from its seed (see :mod:`bot.engine.game`). At the
start the referee publishes ``commitment(seed, salt)``; at the end it reveals both, so anyone
can check that the seed they replay with is the one the game was committed to. The salt is a
random text the front end draws: without it, a seed a host chose from a small range could be
found from the commitment by trying every number.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import cast

from bot.engine.events import Event

PREFIX = "chaos-referee"
# Front ends draw 128-bit seeds; a host may name one (`/game start seed:`, below 2**31). A seed
# below this was named, not drawn, but for a chance of one in 2**64.
DRAWN_FROM = 2**64


def named(seed: int) -> bool:
    """Whether `seed` was named by whoever started the game rather than drawn: they know it,
    so they can work out every roll of the game."""
    return seed < DRAWN_FROM


def commitment(seed: int, salt: str) -> str:
    """SHA-256 of ``chaos-referee:SEED:SALT`` (the seed in decimal), as 64 hex digits."""
    return hashlib.sha256(f"{PREFIX}:{seed}:{salt}".encode()).hexdigest()


HIDDEN_CARD = "?"  # a card nobody at the table has seen, in a sealed log


def sealed(events: Iterable[Event]) -> list[Event]:
    """A game's log as anyone may have it while the game goes on: every event in its place,
    with what would tell the future left out.

    * the seed and the salt (in the start action and ``game_started``): every die follows from
      the seed, and the salt would let a seed from a small range be found from the commitment;
    * the order of a shuffled deck (each card becomes :data:`HIDDEN_CARD`, so the count stays);
    * cards drawn that nobody has seen face up yet (a face-down chaos card, the cards of a spite
      look) and the look's cards put on the bottom; a face-down card shows in its
      ``card_revealed``, a spite card in the ``card_revealed`` of the one played.

    Once the game is over its whole log is public: the seed is revealed, and a sealed log can't
    be verified (its seed is missing).
    """
    shown: list[Event] = []
    for event in unseeded(events):
        match event["type"]:
            case "deck_shuffled":
                event = cast(Event, {**event, "order": [HIDDEN_CARD] * len(event["order"])})
            case "card_drawn" if event["face_down"] or event["player"] is not None:
                event = cast(Event, {**event, "card": HIDDEN_CARD})
            case "cards_to_bottom":
                event = cast(Event, {**event, "cards": [HIDDEN_CARD] * len(event["cards"])})
            case "choice_offered" if event["kind"] == "spite":
                hidden = [{"id": HIDDEN_CARD, "name": HIDDEN_CARD} for _ in event["options"]]
                event = cast(Event, {**event, "options": hidden})
        shown.append(event)
    return shown


def unseeded(events: Iterable[Event]) -> list[Event]:
    """The events with the seed and the salt left out (``null``), as every front end shows a
    game that goes on: the start action and ``game_started`` are the only events holding them
    before the end. A front end that shows a player's own secrets (the console, whose one
    screen is everyone's) uses this rather than :func:`sealed`."""
    shown: list[Event] = []
    for event in events:
        if event["type"] == "action" and "seed" in event["action"]:
            event = cast(Event, {**event, "action": {**event["action"], **_NO_SEED}})
        elif event["type"] == "game_started":
            event = cast(Event, {**event, **_NO_SEED})
        shown.append(event)
    return shown


_NO_SEED = {"seed": None, "salt": None}
