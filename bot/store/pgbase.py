"""The PostgreSQL store's pool of connections, and the transactions built on it.

asyncpg's pool lends each call a connection of its own, so concurrent tasks need no lock: each
statement or transaction runs on a connection nobody else is using meanwhile. Failures that
are the server's or the host's (out of reach, refused, full) become sentences on the way out
(:mod:`bot.store.pgfailures`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.errors import StoreError
from bot.store.pgconnect import cut_off
from bot.store.pgfailures import plainly, shown
from bot.store.pgmigrations import Connection
from bot.store.writer import Writer

log = logging.getLogger(__name__)


class _Again(Exception):
    """A statement's connection had been cut: it may be sent again (see PgDatabase._rows)."""


class PgDatabase:
    """A pool of connections to one database, named by its URL."""

    writer: Writer[Any]  # group commit of the appends (PostgresStore makes it)

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        """Use ``Store.open``; this takes a pool already migrated."""
        self._pool = pool
        self.url = url
        self._closed = False

    @property
    def where(self) -> str:
        return shown(self.url)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (a task that outlives the store stops on it)."""
        return self._closed

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.writer.wait()  # what was queued before closing is still saved
            await self._pool.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A connection of the pool's for the block, given back after it.

        Giving it back runs a reset on it, which fails when the server went away after the
        block's last statement: that statement's result stands all the same (a write it made
        was committed), so the failure is no one's answer. asyncpg ends such a connection,
        and the pool opens another at the next loan.
        """
        if self._closed:
            raise StoreError("the database is closed")
        with plainly(self.url):
            con = await self._pool.acquire()
            try:
                yield con
            finally:
                try:
                    await self._pool.release(con)
                except Exception as error:
                    log.debug("a connection given back to the pool failed: %r", error)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Connection]:
        """A transaction: committed when the block ends, rolled back if it raises."""
        async with self._connection() as con, con.transaction():
            yield con

    async def _rows(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """Every row of one statement. A connection the server cut while it sat in the pool
        (a restart) fails at its first use: the statement is sent once more, on a new one.
        Every statement sent here is a read, or a write that does the same made twice (a
        claim, a lease's renewal), so sending it again is safe whatever became of the first.
        """
        try:
            return await self._fetch(sql, args, again=True)
        except _Again:
            log.info("a connection the database server had cut was opened again")
            return await self._fetch(sql, args, again=False)

    async def _fetch(self, sql: str, args: tuple[Any, ...], *, again: bool) -> list[Any]:
        async with self._connection() as con:
            try:
                return await con.fetch(sql, *args)
            except Exception as error:
                if again and cut_off(error):
                    raise _Again from error
                raise

    async def migrations(self) -> list[int]:
        rows = await self._rows("SELECT number FROM migrations ORDER BY number")
        return [int(row[0]) for row in rows]
