"""Which dice a roll rolls: its own, so no other action (an undone one included) can move them.

Games started today (``dice``: :data:`BY_ROLL`) give every roll its own dice, seeded from the
game's committed seed and the roll's identity alone: the turn it is made in, its
*purpose* (see :data:`PURPOSES`) and how many rolls of that purpose stand before it in that turn
(:func:`roll_key`). The engine asks for them with :meth:`~bot.engine.context.Context.dice`, which
logs a ``dice`` event naming the roll, so the count is part of the folded state: actions that
change nothing (a life total set to what it is, an action then undone) move no die.

Older games go on and replay the way they began (``game_started`` says which):

* :data:`BY_STREAM` (``dice: 2``): an action's dice come from
  ``random.Random(f"{seed}/{turn}/{stream}/{n}")``, its *stream* being its name (a chaos roll's
  extra and named-list rolls have streams of their own) and ``n`` how many actions of that
  stream already stand in that turn. A roll made inside another action (a spite roll inside a
  life change) drew from that action's stream, so any other action of it moved the roll.
* :data:`BY_ACTION` (no ``dice``): the k-th standing action rolled from ``f"{seed}/{k}"``, so
  any action moved every later die.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from bot.engine.events import Event, Json

BY_ACTION = 1  # older logs: the k-th standing action's dice
BY_STREAM = 2  # older logs: the dice of the n-th action of a stream in a turn
BY_ROLL = 3  # the dice of the n-th roll of a purpose in a turn (games started today)
SCHEMES = (BY_ACTION, BY_STREAM, BY_ROLL)

# Why dice are drawn, each a count of its own in every turn. "shuffle DECK" is a deck's.
PURPOSES = (
    "turn",  # the turn's chaos roll (in a deck game, the inline dice of its card when revealed)
    "extra",  # an extra roll (or extra card)
    "list",  # a roll on a named list no result offered
    "offered",  # a roll a result offered
    "global",  # a roll on the start list (Global, world), or the next Global card
    "spite",  # a spite roll, or the spite card played
    "spite look",  # the order the spite look's other cards go to the bottom in
    "spite gain",  # dice of a spite's life gain, once its condition is answered yes (older logs)
    "life",  # dice a result's change to life totals throws (a gain or loss in dice, a swap)
    "keep",  # the rolls after a "roll N, keep one" choice
    "fork",  # a RollFork's copy: its fresh inline dice and what it rolls
    "veto",  # a vetoed result rolled again (a house rule; one veto a turn)
)
SHUFFLE = "shuffle "  # + a deck's id: its shuffle at the start and each reshuffle

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


def roll_key(seed: int, turn: int, purpose: str, n: int) -> str:
    """What the n-th roll of `purpose` in `turn` seeds its dice with (:data:`BY_ROLL`).

    The salt isn't in it: a front end that names the seed (a test, a replay) gets the same
    dice whatever salt it draws; the commitment covers both."""
    return f"dice3/{seed}/{turn}/{purpose}/{n}"


# A roll's generator advances one 32-bit word of the Mersenne Twister per draw (two for a float),
# and regenerates its 624 words each time they are used up.
_WORDS = 624
MAX_WORDS = 1 << 26  # far more than one resolution may throw (bot.engine.limits)


def words_drawn(key: str, rng: random.Random) -> int:
    """How many 32-bit words `rng`, seeded with `key`, has drawn so far.

    A multi-roll that waits for an offer (:mod:`bot.engine.pauses`) goes on later with the
    dice it began with: this says where they stood, and :func:`resumed` picks them up there.
    The generator's index tells the count modulo 624, so only every 624th candidate is compared.
    """
    target = rng.getstate()[1]
    probe = random.Random(key)
    if probe.getstate()[1] == target:
        return 0
    words = int(target[-1])  # after k > 0 words the index is ((k - 1) % 624) + 1
    probe.getrandbits(32 * words)
    while probe.getstate()[1] != target:
        if words > MAX_WORDS:
            raise AssertionError("a roll's dice drew more words than any resolution may")
        probe.getrandbits(32 * _WORDS)
        words += _WORDS
    return words


def resumed(key: str, words: int) -> random.Random:
    """The generator seeded with `key`, after it drew `words` 32-bit words."""
    rng = random.Random(key)
    if words:
        rng.getrandbits(32 * words)  # one word per 32 bits asked for
    return rng


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
