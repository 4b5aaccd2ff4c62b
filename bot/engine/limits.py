"""How much one entry and one resolution may roll and write, so no table can stall the bot.

The roll budget (``budget: {rolls, depth}``) bounds how many rolls a resolution makes, but not
what each roll costs: an entry with two hundred ``{100d1000}`` in its text threw 20,000 dice
and wrote hundreds of kilobytes to the log every time it came up. These limits bound that too.

* An entry may throw at most :data:`MAX_ENTRY_DICE` dice when it comes up (the dice in its
  text, its X and the dice of "roll N times" together). A table with such an entry doesn't
  load: the loader names the entry's line.
* One resolution may throw at most :data:`MAX_RESOLUTION_DICE` dice (tables' and entries')
  and write about :data:`MAX_RESOLUTION_BYTES` of roll events. When it gets there it stops,
  like a used-up roll budget: the pending rolls are dropped and a ``budget_exhausted`` event
  says why. ``tables check`` refuses a ruleset whose worst case could get there at all
  (:mod:`bot.tables.bounds`), so this only guards what the check didn't see.

The byte count is an estimate, the same one the check uses: :func:`roll_size`.
"""

from __future__ import annotations

from bot.engine.dice import inline_exprs
from bot.engine.model import Entry

MAX_ENTRY_DICE = 200
MAX_RESOLUTION_DICE = 2_000
MAX_RESOLUTION_BYTES = 256 * 1024

ROLL_OVERHEAD = 250  # bytes of a roll event besides its text and dice (ids, names, keys)
FACE_BYTES = 6  # "1000, "


def entry_dice(entry: Entry) -> int:
    """The most dice `entry` throws when it comes up: its text's, its X's and its times'."""
    dice = sum(_dice(expr.terms) for expr in inline_exprs(entry.text))
    if entry.x is not None:
        dice += _dice(entry.x.terms)
    if entry.multi is not None:
        dice += _dice(entry.multi.times.terms)
    return dice


def roll_size(text: int, dice: int) -> int:
    """About how many bytes a roll event takes with `text` characters of text and `dice` faces."""
    return ROLL_OVERHEAD + text + FACE_BYTES * dice


def entry_problem(entry: Entry) -> str | None:
    """Why `entry` throws too many dice, or None."""
    dice = entry_dice(entry)
    if dice <= MAX_ENTRY_DICE:
        return None
    return (
        f"this entry throws up to {dice:,} dice when it comes up (the dice in its text, x and"
        f" times together); an entry may throw at most {MAX_ENTRY_DICE}"
    )


def _dice(terms: tuple[tuple[int, int, int], ...]) -> int:
    return sum(count for _, count, sides in terms if sides)
