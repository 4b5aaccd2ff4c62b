"""Saves whose commit may or may not have happened: found out before anyone is told.

A commit can fail after the write: the connection to PostgreSQL drops while the server has the
statement (it may have committed it and had no way to say so), or SQLite reports an I/O error,
a full disk or a lock at its COMMIT. Telling the player "that wasn't saved, try again" is then a
guess, and a wrong one costs a game an action applied twice (the retry), or a roll the table
was told didn't happen standing in its log.

So a batch whose commit failed is not answered with the failure. Each save brings a way to
look itself up (its interaction's id, stored with it, or its events at their positions), and
the backend's `settle` looks, on a fresh connection, until the database answers or
:data:`SETTLE_SECONDS` pass (:func:`find_out`). Then each save is answered with the truth: its
result when it is stored, the failure ("not saved") only when it isn't, and
:class:`~bot.errors.InDoubtError` ("can't tell yet"), never "not saved", when the database
didn't answer in time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.errors import InDoubtError, StoreError

log = logging.getLogger(__name__)

T = TypeVar("T")
# How long a save in doubt waits for the database to say whether it was kept. A server
# restarting recovers in seconds; the player's answer waits meanwhile (deferred: "thinking…").
SETTLE_SECONDS = 30.0
SETTLE_POLL = 0.5  # seconds between two tries to ask

# What a look-up finds for one save: (True, its result) when it is stored, (False, an error)
# when it is known refused for another reason, or None when it is not stored.
Found = tuple[bool, Any] | None


async def find_out(
    look: Callable[[], Awaitable[T]],
    unanswered: Callable[[BaseException], bool],
    *,
    seconds: float | None = None,
) -> T | None:
    """`look`'s answer, tried again while it fails in a way `unanswered` accepts (the database
    out of reach), for at most `seconds` (:data:`SETTLE_SECONDS`); None if it never
    answered."""
    seconds = SETTLE_SECONDS if seconds is None else seconds
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        try:
            # A look-up that hangs (a lock nobody releases) ends with the time allowed.
            async with asyncio.timeout(max(deadline - loop.time(), SETTLE_POLL)):
                return await look()
        except Exception as error:
            if not (isinstance(error, TimeoutError) or unanswered(error)):
                raise
            if loop.time() >= deadline:
                log.warning("the database didn't say in %.0f s whether a save was kept", seconds)
                return None
        await asyncio.sleep(SETTLE_POLL)


async def settle(
    look: Callable[[], Awaitable[list[Found]]],
    count: int,
    failed: BaseException,
    unanswered: Callable[[BaseException], bool],
    where: str,
) -> list[tuple[bool, Any]]:
    """The answers of `count` saves whose commit failed with `failed` after it was sent, from
    what `look` finds once the database answers (see :func:`find_out`): each one's result when
    it is stored, `failed` when it isn't (it really wasn't saved), and InDoubtError for all of
    them when the database at `where` didn't say in time."""
    found = await find_out(look, unanswered)
    if found is None:
        return [(False, in_doubt(failed, where))] * count
    kept = sum(1 for one in found if one is not None and one[0])
    log.warning(
        "%d saves failed after they were sent (%s); looked up: %d were kept, %d not",
        count,
        failed,
        kept,
        count - kept,
    )
    return [(False, failed) if one is None else one for one in found]


def in_doubt(failed: BaseException, where: str) -> InDoubtError:
    """The error for a save whose fate the database at `where` didn't tell in time."""
    cause = failed if isinstance(failed, StoreError) else f"{type(failed).__name__}: {failed}"
    return InDoubtError(
        f"a save to {where} failed after it was sent ({cause}), and the database didn't say"
        f" within {SETTLE_SECONDS:.0f} seconds whether it was kept; the player was told so."
    )
