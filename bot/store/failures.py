"""SQLite's failures that aren't our bugs, as sentences for whoever hosts the bot.

A damaged file, a lock held by another program, a file the bot may not write, a full disk:
each is the machine's state, not a mistake in the code, so it becomes a StoreError that says
what happened and what to do. Anything else SQLite raises stays an error of ours.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.errors import StoreError

BUSY_SECONDS = 5  # how long a statement waits for another program's lock (PRAGMA busy_timeout)


def explain(error: sqlite3.Error, path: Path) -> StoreError | None:
    """What `error` means for the database at `path`, or None if it is a bug of ours."""
    code = getattr(error, "sqlite_errorcode", None)
    if not isinstance(code, int):
        return None
    primary = code & 0xFF  # extended codes keep the primary code in their low byte
    if primary == sqlite3.SQLITE_CORRUPT:
        return StoreError(
            f"the database file {path} is damaged. Stop the bot and keep a copy of the file;"
            " then restore a backup, or save what can still be read with"
            f" `sqlite3 {path} .recover | sqlite3 recovered.db` and use recovered.db instead"
            " (--db or CHAOS_DB_PATH)."
        )
    if primary == sqlite3.SQLITE_NOTADB:
        return StoreError(
            f"{path} is not a Chaos Referee database (or its first page is damaged): point --db"
            " or CHAOS_DB_PATH at the right file, or restore a backup."
        )
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StoreError(
            f"the database {path} is locked by another program (waited {BUSY_SECONDS} seconds):"
            " another bot or console using the same file, or a backup. Try again when it is done.",
            players="The bot's database is busy with another program, so that wasn't saved."
            " Try again in a minute.",
        )
    if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM):
        return StoreError(
            f"the database {path} is read-only: the bot must be able to write to the file and"
            " to its folder (check their permissions, and that the disk isn't read-only).",
            players="The bot can't write to its database right now, so that wasn't saved;"
            " whoever runs the bot has been told. Try again later.",
        )
    if primary == sqlite3.SQLITE_FULL:
        return StoreError(
            f"the database {path} can't grow: the disk is full (or the database has reached its"
            " size limit). The last action wasn't saved; free some space and try again.",
            players="The bot's disk is full, so that wasn't saved; whoever runs the bot has been"
            " told. Try again later.",
        )
    if primary == sqlite3.SQLITE_CANTOPEN:
        return StoreError(
            f"can't open the database {path}: check that its folder exists and that the bot may"
            " write to it."
        )
    if primary == sqlite3.SQLITE_IOERR:
        return StoreError(
            f"the disk failed while reading or writing the database {path} ({error}); check the"
            " disk, then try again."
        )
    if primary == sqlite3.SQLITE_NOMEM:
        return StoreError(
            "the database ran out of memory; try again, or restart the bot.",
            players="The bot ran short of memory, so that wasn't saved. Try again in a minute.",
        )
    return None


@contextmanager
def plainly(path: Path) -> Iterator[None]:
    """Turn SQLite's failures in the block into the StoreError that explains them."""
    try:
        yield
    except sqlite3.Error as error:
        said = explain(error, path)
        if said is None:
            raise
        raise said from None
