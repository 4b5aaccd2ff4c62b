"""The PostgreSQL store's pool of connections, and the transactions built on it.

asyncpg's pool lends each call a connection of its own, so concurrent tasks need no lock: each
statement or transaction runs on a connection nobody else is using meanwhile. Failures that
are the server's or the host's (out of reach, refused, full) become sentences on the way out
(:mod:`bot.store.pgfailures`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.errors import StoreError
from bot.store.pgfailures import plainly, shown
from bot.store.pgmigrations import Connection
from bot.store.writer import Writer


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

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.writer.wait()  # what was queued before closing is still saved
            await self._pool.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        if self._closed:
            raise StoreError("the database is closed")
        with plainly(self.url):
            async with self._pool.acquire() as con:
                yield con

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Connection]:
        """A transaction: committed when the block ends, rolled back if it raises."""
        async with self._connection() as con, con.transaction():
            yield con

    async def _rows(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with self._connection() as con:
            return await con.fetch(sql, *args)

    async def migrations(self) -> list[int]:
        rows = await self._rows("SELECT number FROM migrations ORDER BY number")
        return [int(row[0]) for row in rows]
