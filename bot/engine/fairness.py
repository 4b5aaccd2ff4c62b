"""The commitment a game makes to its seed, and to everything else that decides its dice,
before the first roll.

Every die and every shuffle of a game follows from its seed (see :mod:`bot.engine.game`). At the
start the referee publishes :func:`commitment`; at the end it reveals the seed and the salt, so
anyone can check that the game they replay is the one committed to. The salt is a random text
the front end draws: without it, a seed a host chose from a small range could be found from the
commitment by trying every number.

A game started today (``dice: 3``) commits to the whole start: seed, salt, dice scheme, ruleset
and revision, the hash of its tables, the host, the starting life and its house rules. So its log
can't be replayed under another dice scheme, or other tables, and still show the commitment
announced.
Older games committed to the seed and salt alone, and keep that form.
"""

from __future__ import annotations

import hashlib
import json
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


WHOLE_START = 3  # the first dice scheme whose commitment covers the whole start


def commitment(
    seed: int,
    salt: str,
    *,
    dice: int = 1,
    ruleset: str = "",
    revision: str = "",
    tables: str = "",
    host: str = "",
    name: str = "",
    life: int | None = None,
    house: dict[str, object] | None = None,
) -> str:
    """The commitment to a game's start, as 64 hex digits.

    From ``dice: 3`` on, SHA-256 of ``chaos-referee/start`` and a newline, then the start as
    JSON with sorted keys and no spaces: ``{"dice":3,"host":…,"life":…,"name":…,"revision":…,
    "ruleset":…,"salt":…,"seed":…,"tables":…}`` (``life`` is ``null`` when the ruleset's is
    played). House rules other than the defaults (:mod:`bot.engine.house`) join it as
    ``"house"``; a game without them commits as before they existed. Games of older dice
    schemes: SHA-256 of ``chaos-referee:SEED:SALT`` (the seed in decimal), and the other
    arguments are left out. The two forms can't be taken for each other: the older one has a
    colon where the newer one has a slash.
    """
    if dice < WHOLE_START:
        return hashlib.sha256(f"{PREFIX}:{seed}:{salt}".encode()).hexdigest()
    start: dict[str, object] = {
        "dice": dice,
        "host": host,
        "life": life,
        "name": name,
        "revision": revision,
        "ruleset": ruleset,
        "salt": salt,
        "seed": seed,
        "tables": tables,
    }
    if house:
        start["house"] = house
    text = json.dumps(start, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(f"{PREFIX}/start\n{text}".encode()).hexdigest()


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
