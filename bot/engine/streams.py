"""Which dice an action rolls: its own stream, so an undo can't be turned into a reroll.

An action's dice come from ``random.Random(f"{seed}/{turn}/{stream}/{n}")``: the turn it is
taken in, its *stream* (its name; a chaos roll's extra and named-list rolls have streams of
their own), and how many actions of that stream already stand in that turn. So a roll that is
undone and made again gets the same dice whatever else was done in between (a life change, a
token, an away and back), and the turn's roll is the same whatever came before it in the turn.

Games logged before this had one stream for everything: the k-th standing action rolled from
``f"{seed}/{k}"``, so any action moved every later die. ``game_started`` says which way a game
rolls (``dice``: :data:`BY_STREAM`; absent in older logs), and older games go on as they began.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from bot.engine.events import Event, Json

BY_ACTION = 1  # older logs: the k-th standing action's dice
BY_STREAM = 2  # the dice of the n-th action of a stream in a turn

UNDO = "chaos undo"


def stream(action: Json) -> str:
    """The stream of a logged action: its name, and for a chaos roll what kind of roll."""
    name = str(action.get("name"))
    if action.get("extra"):
        return f"{name} extra"
    if action.get("table"):
        return f"{name} list"
    return name


def key(seed: int, turn: int, name: str, n: int) -> str:
    """What the n-th action of a stream in a turn seeds its dice with."""
    return f"{seed}/{turn}/{name}/{n}"


def tally(events: Iterable[Event]) -> Counter[tuple[int, str]]:
    """How many actions of each stream stand in each turn of a log (undone ones and undos left
    out, as the fold leaves them out)."""
    events = list(events)
    undone = {e["seq"] for e in events if e["type"] == "undone"}
    counts: Counter[tuple[int, str]] = Counter()
    turn = 0
    standing = False
    for event in events:
        if event["type"] == "action":
            action = event["action"]
            standing = event["seq"] not in undone and action.get("name") != UNDO
            if standing:
                counts[(turn, stream(action))] += 1
        elif standing and event["type"] == "turn_started":
            turn = event["turn"]
    return counts
