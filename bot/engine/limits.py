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

A game is bounded too, so no player can make one huge by many actions over time (a long log is
slower to export, reload and undo, for every server):

* a game's log holds at most about :data:`MAX_GAME_EVENTS` events: once it has that many, every
  action but ``game end`` is refused with a sentence (the action that crosses the line keeps
  all its events, so a log may end a little over it). Ending still works, so the seed is
  revealed and the game can be verified;
* at most :data:`MAX_EFFECTS` lasting effects (Globals and worlds included) are in play at
  once: an action that would put more in play is refused whole, and the same roll comes again
  once some are ended.
"""

from __future__ import annotations

from bot.engine.dice import inline_exprs
from bot.engine.model import Entry

MAX_ENTRY_DICE = 200
MAX_RESOLUTION_DICE = 2_000
MAX_RESOLUTION_BYTES = 256 * 1024

# A 200-turn evening of 16 players logs about 2,400 to 8,000 events (12 a turn on the deck
# ruleset, up to 40 with counters and spite); 200 full rounds of 16 (3,200 turns) about 38,000.
# At this many a bundled game's export is about 6 MB: under what `verify` reads.
MAX_GAME_EVENTS = 50_000
MAX_EFFECTS = 200

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


def log_problem(events: int) -> str | None:
    """Why a game whose log has `events` events takes no more actions (but its end), or None."""
    if events < MAX_GAME_EVENTS:
        return None
    return (
        f"this game's log has reached {events:,} events, the most one game may hold"
        f" ({MAX_GAME_EVENTS:,}); the host or a referee can end it (`game end`), and it can"
        " still be exported and verified"
    )


def effects_problem(before: int, after: int) -> str | None:
    """Why an action that takes the lasting effects in play from `before` to `after` is
    refused, or None."""
    if after <= MAX_EFFECTS or after <= before:
        return None
    return (
        f"that would put {after} lasting effects in play, and a game may have at most"
        f" {MAX_EFFECTS} at once; end some first (`effects end ID`), then try again"
    )


def _dice(terms: tuple[tuple[int, int, int], ...]) -> int:
    return sum(count for _, count, sides in terms if sides)
