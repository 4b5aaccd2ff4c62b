"""Tags: a small vocabulary saying what an entry is like, so a group can leave out what it
doesn't want to play (the house rule ``exclude``, :mod:`bot.engine.house`).

An entry of a list or a card of a deck carries its tags in its table file (``tags: [slow,
choice]``); the loader accepts only the tags named here, and ``docs/tables.md`` explains each
to table authors. The vocabulary is kept small on purpose: a tag is only worth having if a
group may want to play without everything that carries it.
"""

from __future__ import annotations

TAGS: dict[str, str] = {
    "slow": "adds waiting or bookkeeping: counters, notes or reminders to keep, a search or a"
    " shuffle, a skipped turn, something that lasts and must be remembered",
    "choice": "asks for a long decision: picking among many things, naming a card, splitting"
    " piles, handing out life totals, a vote",
    "swingy": "can end a game or turn it over: a player loses, the board or the lands are wiped,"
    " life totals are swapped or set",
    "mana": "is about mana and lands: adds, taxes or takes away mana, plays, fetches or destroys"
    " lands",
    "creature": "is about creatures: makes creature tokens, or pumps, shrinks, moves, steals or"
    " kills creatures",
}
MAX_TAGS = len(TAGS)  # tags one entry may carry: each at most once


def tag_words() -> str:
    """The vocabulary as a message names it: ``slow, choice, swingy, mana or creature``."""
    names = list(TAGS)
    return f"{', '.join(names[:-1])} or {names[-1]}"
