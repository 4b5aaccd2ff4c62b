"""The connection every part of the store shares, and its transactions.

One aiosqlite connection runs every statement on one background thread, in order. A connection
has one transaction at a time, so concurrent tasks must not interleave their statements inside
it: every transaction (and every read) takes the store's asyncio lock for its whole length.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import aiosqlite

from bot.errors import StoreError
from bot.store.failures import plainly


class Database:
    """An open connection, its lock, and the transactions built on them."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        """Use ``Store.open`` or ``Store.connect``; this takes a connection already set up."""
        self._db = db
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

    @asynccontextmanager
    async def _write(self, *, implicit: bool = False) -> AsyncIterator[aiosqlite.Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises.

        It starts with BEGIN IMMEDIATE, which takes SQLite's write lock at once, so what the
        block reads first (a version, the next revision number) still holds when it commits.
        With `implicit`, the block's first statement must be a write: the connection is in
        Python's legacy transaction mode with ``isolation_level="IMMEDIATE"``, so sqlite3
        issues that same BEGIN IMMEDIATE itself, in the same call as the statement. That saves
        a round trip to aiosqlite's thread on the hot path (saving an action's events).
        """
        async with self._lock:
            self._check_open()
            db = self._db
            with plainly(self.path):
                try:
                    if not implicit:
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
