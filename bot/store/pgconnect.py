"""Every connection the bot holds to PostgreSQL, and how each comes back after a restart.

A PostgreSQL server restarts (an upgrade, a failover, a crash): every connection to it is cut,
and a bot process must go on once it is back, without anyone restarting the bot. So no module
opens a connection of its own: they all come from here, in one of two kinds, and both kinds
recover by construction.

* :func:`open_pool`, the store's pool. asyncpg lends a connection per call and, when the one a
  call gets back was cut, opens a new one at the next loan. It keeps no floor of connections
  (``min_size=0``): asyncpg's task that keeps one would log a traceback every few seconds for
  as long as the server is down.
* :class:`Dedicated`, one connection kept for something that must stay on one server session
  (the advisory locks of the IDENTIFY turns). It is opened at first use and opened again at
  the next use after it was cut.

Each connection names its process and its holder in ``application_name`` (see
:func:`name_of`), so ``pg_stat_activity`` shows who holds what, and a test can find every
holder a running bot has. A statement cut mid-way is :func:`in_doubt`: the server may have
committed it, and whoever sent a write must find out (see ``PostgresStore``) before telling
anyone it wasn't saved.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import TypeVar

import asyncpg

from bot.store.pgfailures import COMMAND_SECONDS, CONNECT_SECONDS, plainly

T = TypeVar("T")
POOL_SIZE = 10  # connections per process: far more than one process's event loop keeps busy
APPLICATION = "chaos-referee"

# A statement that raised one of these was cut off: the connection went while the server had
# it, and may or may not have committed it. (Errors the server itself reports for a statement,
# a unique key or a full disk, mean it was rolled back.)
_CUT = (
    asyncpg.PostgresConnectionError,  # 08xxx: the connection is gone
    asyncpg.AdminShutdownError,  # 57P01: the server ended the session (a fast stop)
    asyncpg.CrashShutdownError,  # 57P02: another server process crashed
    asyncpg.InterfaceError,  # "connection is closed"
    OSError,  # reset, broken pipe
    TimeoutError,  # COMMAND_SECONDS passed: the server may still be running it
)


def in_doubt(error: BaseException) -> bool:
    """Whether a write that raised `error` may have been committed all the same."""
    if isinstance(error, asyncpg.exceptions.ClientConfigurationError | asyncpg.DataError):
        return False  # refused before anything was sent
    return isinstance(error, _CUT)


def cut_off(error: BaseException) -> bool:
    """Whether `error` says the connection itself was cut (not that a statement ran long)."""
    return in_doubt(error) and not isinstance(error, TimeoutError)


def name_of(holder: str) -> str:
    """The ``application_name`` of the connections one holder of this process opens."""
    return f"{APPLICATION} {os.getpid()} {holder}"


async def open_pool(url: str, holder: str = "store") -> asyncpg.Pool:
    """The pool of connections the store lends from (see the module's notes)."""
    return await asyncpg.create_pool(
        url,
        init_size=1,  # one made at once, warm for the first action
        min_size=0,
        max_size=POOL_SIZE,
        timeout=CONNECT_SECONDS,
        command_timeout=COMMAND_SECONDS,
        server_settings={"application_name": name_of(holder)},
    )


class Dedicated:
    """One connection of a holder's own, opened when first used and opened again when used
    after it was cut (see the module's notes). One statement at a time runs on it.

    :attr:`session` counts the server sessions it has had: what was tied to one (an advisory
    lock) is gone once it has changed.
    """

    def __init__(self, url: str, holder: str) -> None:
        self.url = url
        self.holder = holder
        self.session = 0
        self._con: asyncpg.Connection | None = None
        self._use = asyncio.Lock()

    async def run(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """`work` on the live connection (a new one if it was cut); the store's StoreError
        sentences for a server out of reach."""
        async with self._use:
            with plainly(self.url):
                con = await self._live()
                try:
                    return await work(con)
                except BaseException:
                    if con.is_closed():
                        self._con = None  # the next use opens another
                    raise

    async def _live(self) -> asyncpg.Connection:
        if self._con is None or self._con.is_closed():
            self._con = None
            self._con = await asyncpg.connect(
                self.url,
                timeout=CONNECT_SECONDS,
                command_timeout=COMMAND_SECONDS,
                server_settings={"application_name": name_of(self.holder)},
            )
            self.session += 1
        return self._con

    async def close(self) -> None:
        """Close the connection (closing the session releases whatever it held)."""
        async with self._use:
            con, self._con = self._con, None
        if con is not None:
            try:
                await con.close(timeout=CONNECT_SECONDS)
            except Exception:  # cut already, or hanging: closed for our part either way
                con.terminate()
