"""Anyone can check a finished game: ``chaos-referee verify GAME.jsonl``, ``/game verify``.

At its start a game commits to its secret seed (:mod:`bot.engine.fairness`); at its end it
reveals the seed and the salt. :func:`verify` reads an export (bounded: :mod:`bot.verify.read`),
checks the commitment, and replays every logged action from the revealed seed with the game's
tables, demanding the very events the log holds (:mod:`bot.verify.replay`).

Pure and synchronous, so front ends run it off their event loop.
"""

from __future__ import annotations

from bot.verify.errors import MismatchError, UnreadableLogError
from bot.verify.read import MAX_BYTES, MAX_EVENTS, read_log
from bot.verify.replay import FindRuleset, Verdict, tables_of, verify_events


def verify(data: bytes, find: FindRuleset, *, expected: str | None = None) -> Verdict:
    """Verify an exported log given as bytes; raises MismatchError or UnreadableLogError (and
    the tables' errors if `find` can't load them), each with a sentence."""
    return verify_events(read_log(data), find, expected=expected)


__all__ = [
    "MAX_BYTES",
    "MAX_EVENTS",
    "FindRuleset",
    "MismatchError",
    "UnreadableLogError",
    "Verdict",
    "read_log",
    "tables_of",
    "verify",
    "verify_events",
]
