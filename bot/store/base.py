"""The connection every part of the store shares, and its transactions.

One aiosqlite connection runs every statement on one background thread, in order. A connection
has one transaction at a time, so concurrent tasks must not interleave their statements inside
it: every transaction (and every read) takes the store's asyncio lock for its whole length.

Each awaited statement is a round trip to that thread: a queue, a wake-up, a handover of the
GIL and a callback on the loop. On the hot path (saving an action) those hops cost more than
the fsync, so :meth:`Database._transact` runs a whole transaction, written as a plain function
of the stdlib connection, in one of them.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from bot.errors import StoreError
from bot.store.failures import plainly

T = TypeVar("T")


class Database:
    """An open connection, its lock, and the transactions built on them."""

    def __init__(self, db: aiosqlite.Connection, native: sqlite3.Connection, path: Path) -> None:
        """Use ``Store.open`` or ``Store.connect``; this takes a connection already set up:
        `db`, and `native`, the stdlib connection under it (used only on `db`'s thread)."""
        self._db = db
        self._native = native
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False

    @property
    def where(self) -> str:
        """The database file, for messages to whoever hosts the bot."""
        return str(self.path)

    async def close(self) -> None:
        """Close the connection, once the statements under way are done (again is fine)."""
        if not self._closed:
            self._closed = True
            async with self._lock:
                await self._db.close()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the database is closed")

    async def _transact(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """A write transaction in one hop: `work` runs on the connection's thread between
        BEGIN IMMEDIATE and COMMIT (ROLLBACK if it raises), and its result comes back.

        This is where an action's SQL runs, all of it (version check, events, game row,
        interaction), so an action pays one round trip to the thread and its fsync. `work` is
        a plain function of the stdlib connection, so the same function can later run inside
        a SAVEPOINT of a batch that a group-commit writer drains.

        aiosqlite has no public way to run a function on its thread; ``Connection._execute``
        is the one every aiosqlite method queues its work through (``execute``, ``commit``,
        ``backup``), and the one its maintainers point to for this. Its signature has been
        the same since aiosqlite 0.11, and the lock pins the version; the contract tests
        check that the work runs on that thread. The alternative, a thread of our own for the
        stdlib connection, would replace aiosqlite in every other method too.

        Cancelled, the caller stops waiting but the transaction runs to its end on the
        thread, whole: committed or rolled back, never left open, and the statements of
        whoever takes the lock next are queued after it.
        """
        async with self._lock:
            self._check_open()
            hop = cast(Callable[[Callable[[], T]], Awaitable[T]], self._db._execute)
            with plainly(self.path):
                return await hop(partial(_atomically, self._native, work))

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises.

        It starts with BEGIN IMMEDIATE, which takes SQLite's write lock at once, so what the
        block reads first (a version, the next revision number) still holds when it commits.
        Each statement of the block is a hop to the connection's thread: fine for rare writes
        (settings, tables, boards); the hot path uses :meth:`_transact`.
        """
        async with self._lock:
            self._check_open()
            db = self._db
            with plainly(self.path):
                try:
                    await db.execute("BEGIN IMMEDIATE")
                    yield db
                    if db.in_transaction:
                        await db.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise

    async def _rollback(self) -> None:
        """Roll back whatever the block left open, even when it was cancelled.

        A cancelled task stops waiting, but the statement it queued still runs on the
        connection's thread, later: ``in_transaction`` can't be trusted at this moment. So the
        ROLLBACK is always queued (after that statement, in order), and its "no transaction is
        active" is ignored: a COMMIT that was already queued has gone through, which is fine.
        """
        try:
            await self._db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            if self._db.in_transaction:
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: every query in the block sees the same committed state."""
        async with self._lock:
            self._check_open()
            db = self._db
            with plainly(self.path):
                try:
                    await db.execute("BEGIN")
                    yield db
                except BaseException:
                    await self._rollback()
                    raise
                await db.execute("COMMIT")

    async def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Every row of one query."""
        async with self._read() as db, db.execute(sql, args) as cursor:
            return cast(list[sqlite3.Row], await cursor.fetchall())

    async def pragmas(self) -> dict[str, object]:
        """The settings in effect: journal_mode, synchronous (2 is FULL) and foreign_keys."""
        found: dict[str, object] = {}
        for name in ("journal_mode", "synchronous", "foreign_keys"):
            rows = await self._rows(f"PRAGMA {name}")
            found[name] = rows[0][0]
        return found

    async def schema(self) -> dict[str, str]:
        """Every table and index of the database and the SQL that made it, by ``type name``."""
        rows = await self._rows(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"
        )
        return {f"{kind} {name}": sql for kind, name, sql in rows}

    async def migrations(self) -> list[int]:
        """The numbers of the migrations this database has run."""
        rows = await self._rows("SELECT number FROM migrations ORDER BY number")
        return [int(row[0]) for row in rows]


def _atomically(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """`work` in a write transaction on `db`, on the thread that owns it (see
    :meth:`Database._transact`): BEGIN IMMEDIATE takes the write lock at once, so what `work`
    reads first still holds at its COMMIT, which with ``synchronous=FULL`` returns once the
    log is on disk."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = work(db)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # a failed COMMIT may have ended it already
            db.execute("ROLLBACK")
        raise
    return result
