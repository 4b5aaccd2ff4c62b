"""How the numbers of things in play are written, apart from the numbers on the lists.

``#17`` is an entry's number on a list: what the dice read, as printed on the list. Before this
module, effects and cards in the middle were written ``#2`` too, and "→ #17 Quickened Sorcery
… + #2 Quickened Sorcery stays in play" left players guessing which number was which. So:

- an effect in play (a lasting effect, a world enchantment, the Global) is ``E2``;
- a card in the middle is ``M1``;
- a roll, counter or fork on this turn's stack is ``R2`` ("plays a CounterRoll on R2 Fog").

One letter and the number: short to type, the same in a terminal and on Discord (no markdown
meaning), and never a die's reading. Effects and middle cards are numbered as people count
them, E1, E2, … and M1, M2, … in the order they came into the game (``number`` on an
ActiveEffect or MiddleCard; by id, GameState.effect_numbers and middle_numbers), not by the
engine's ids, which rolls and stack items share; and so are the rolls, counters and forks that
went on a game's stack, R1, R2, … (GameState.roll_numbers). A command that takes one still
accepts the old
``#2`` and a bare ``2``, so nobody's habit breaks.
"""

from __future__ import annotations

import re

EFFECT = "E"
MIDDLE = "M"
ROLL = "R"  # bot/engine/chaos.py writes it too, in its refusals (the engine imports nothing)


def effect_ref(number: int) -> str:
    """``E2``: how an effect in play is written everywhere players read it, by its number."""
    return f"{EFFECT}{number}"


def middle_ref(number: int) -> str:
    """``M1``: how a card in the middle is written everywhere players read it."""
    return f"{MIDDLE}{number}"


def roll_ref(number: int) -> str:
    """``R2``: how a roll, counter or fork on the stack is written where players read it, by
    its number."""
    return f"{ROLL}{number}"


_REF = re.compile(r"\s*(?:([A-Za-z])\s*|#\s*)?([0-9]{1,9})\s*")


def read_ref(text: str, prefix: str) -> int | None:
    """The number in ``E2`` (any case), ``#2`` or ``2`` for `prefix` ``E``; None when `text`
    isn't written that way (another letter, a word, a negative number)."""
    match = _REF.fullmatch(text)
    if match is None:
        return None
    letter = match.group(1)
    if letter is not None and letter.upper() != prefix:
        return None
    return int(match.group(2))
