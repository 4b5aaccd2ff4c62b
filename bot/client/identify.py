"""Taking turns to IDENTIFY with Discord, within one process and across several.

Discord lets a bot start one session per ``shard_id % max_concurrency`` bucket every 5 seconds;
a faster IDENTIFY is refused, and a run of too many resets the bot's token. discord.py's own
``before_identify_hook`` only sleeps 5 s, which serialises the shards of one process but not
those of a cluster restarting at once. A gate gives each bucket to one shard at a time
(:meth:`~IdentifyGate.take`), which keeps it until :data:`SPACING` seconds after its IDENTIFY
(:meth:`~IdentifyGate.identified`):

* :class:`LocalGate`, an asyncio lock per bucket, when one process runs every shard;
* :class:`PostgresGate`, a PostgreSQL advisory lock per bucket (keyed by the application id and
  the bucket) on a connection of its own, when ``CHAOS_DATABASE_URL`` names a PostgreSQL
  database that every process shares. A process that dies holding one loses its connection,
  and PostgreSQL releases the lock with it. The connection comes back by itself after the
  server restarts (:mod:`bot.store.pgconnect`).
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol

from bot.errors import StoreError
from bot.store.pgconnect import Dedicated

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger(__name__)

IDENTIFY_WINDOW = 5.0  # Discord's: one IDENTIFY per bucket in any 5 seconds
# The margin covers the time between taking a turn and the IDENTIFY reaching Discord, which
# differs from one connection to the next.
SPACING = IDENTIFY_WINDOW + 0.25
POLL = 0.1  # seconds between two tries for a bucket another process holds
RETRY = 1.0  # seconds between two tries to reach a database that didn't answer
# How long a shard waits for the database before it identifies on this process's turn alone.
PATIENCE = 30.0
KEY_NAMESPACE = b"chaos-referee identify"


class IdentifyGate(Protocol):
    """Whose turn it is to IDENTIFY, per bucket of the bot `application_id`."""

    async def take(self, application_id: int, bucket: int) -> None:
        """Return once the bucket is this process's; it stays so until :meth:`identified`."""

    def identified(self, application_id: int, bucket: int) -> None:
        """The IDENTIFY of a taken bucket is going out: free the bucket SPACING s from now."""

    async def turn(self, application_id: int, bucket: int) -> None:
        """:meth:`take`, then :meth:`identified` at once."""

    async def close(self) -> None: ...


class LocalGate:
    """Turns within one process: an asyncio lock per bucket, released SPACING s after the
    IDENTIFY."""

    def __init__(self, spacing: float = SPACING) -> None:
        self.spacing = spacing
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: set[asyncio.TimerHandle] = set()

    async def take(self, application_id: int, bucket: int) -> None:
        await self._locks.setdefault(bucket, asyncio.Lock()).acquire()

    def identified(self, application_id: int, bucket: int) -> None:
        self._release_later(self._locks[bucket].release)

    async def turn(self, application_id: int, bucket: int) -> None:
        await self.take(application_id, bucket)
        self.identified(application_id, bucket)

    def _release_later(self, release: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._timers.discard(timer)
            release()

        timer = loop.call_later(self.spacing, fire)
        self._timers.add(timer)

    def release(self, bucket: int) -> None:
        """Free a bucket taken without an IDENTIFY following."""
        self._locks[bucket].release()

    async def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()


class PostgresGate:
    """Turns across processes: a PostgreSQL advisory lock per bucket, held SPACING s.

    The lock is tried rather than waited for, so one connection serves every bucket of the
    process: a blocking ``pg_advisory_lock`` would hold the connection while it waits. Shards
    of this process queue on a local lock first, so only one of them asks PostgreSQL at a time.

    The connection is a :class:`~bot.store.pgconnect.Dedicated` one: cut (the server
    restarted), it is opened again at the next turn, and the locks it held went with it. A
    shard that can't reach the database asks again every second, and after
    :data:`PATIENCE` seconds identifies on this process's turn alone (a warning says so): a
    shard offline for as long as the database is down would be worse than the small risk
    of Discord refusing an IDENTIFY that came too soon (it says so, and the shard tries again).
    """

    def __init__(self, connection: Dedicated) -> None:
        self._db = connection
        self._local = LocalGate()
        self._sessions: dict[int, int | None] = {}  # bucket -> the session its lock is on
        self._holds: set[asyncio.Task[None]] = set()

    @classmethod
    async def connect(cls, url: str) -> PostgresGate:
        """The gate on the database at `url`, which must answer now (a StoreError if not: a
        process starts only with its database there)."""
        connection = Dedicated(url, "identify")
        await connection.run(lambda con: con.fetchval("SELECT 1"))
        return cls(connection)

    async def take(self, application_id: int, bucket: int) -> None:
        await self._local.take(application_id, bucket)
        try:
            self._sessions[bucket] = await self._lock(lock_key(application_id, bucket))
        except BaseException:
            self._local.release(bucket)  # cancelled or failed: let the next shard try
            raise

    async def _lock(self, key: tuple[int, int]) -> int | None:
        """Hold the bucket's advisory lock; the connection's session it is held on, or None
        if the database didn't answer for PATIENCE seconds (see the class's notes)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PATIENCE
        unreachable: StoreError | None = None
        while True:
            try:
                session = await self._db.run(partial(_try_lock, key, self._db))
            except StoreError as error:
                if unreachable is None:
                    log.warning("waiting for the database to take a turn to IDENTIFY: %s", error)
                unreachable = error
                if loop.time() >= deadline:
                    log.warning(
                        "the database didn't answer for %.0f s: identifying on this"
                        " process's turn alone",
                        PATIENCE,
                    )
                    return None
                await asyncio.sleep(RETRY)
                continue
            if unreachable is not None:
                log.info("the database answers again: IDENTIFY turns are taken there")
                unreachable = None
            if session is not None:
                return session
            await asyncio.sleep(POLL)

    def identified(self, application_id: int, bucket: int) -> None:
        self._local.identified(application_id, bucket)
        session = self._sessions.pop(bucket, None)
        if session is None:
            return
        hold = asyncio.create_task(
            self._unlock_later(lock_key(application_id, bucket), session),
            name=f"identify {bucket}",
        )
        self._holds.add(hold)
        hold.add_done_callback(self._holds.discard)

    async def turn(self, application_id: int, bucket: int) -> None:
        await self.take(application_id, bucket)
        self.identified(application_id, bucket)

    async def _unlock_later(self, key: tuple[int, int], session: int) -> None:
        """Release the bucket SPACING s from now, on the session that holds it. A session
        gone meanwhile took the lock with it; failing to reach the database is no error of
        anyone's then (the lock goes when the session does), so it is only logged."""
        await asyncio.sleep(SPACING)
        try:
            await self._db.run(partial(_unlock, key, session, self._db))
        except StoreError as error:
            log.info("an IDENTIFY turn is released with its connection: %s", error)

    async def close(self) -> None:
        """Give the buckets back when their time is up, not before. Released at once (with the
        connection), they would let a process starting this moment IDENTIFY within 5 s of
        ours: a cluster restarted at once (re-sharded, say) saw Discord refuse one IDENTIFY
        per bucket. A stop waits at most SPACING for it; a process killed outright still
        releases its buckets with its connection."""
        await asyncio.gather(*self._holds, return_exceptions=True)
        await self._local.close()
        await self._db.close()


async def _try_lock(key: tuple[int, int], db: Dedicated, con: asyncpg.Connection) -> int | None:
    """The session the bucket's lock is now held on, or None if another process holds it."""
    got = await con.fetchval("SELECT pg_try_advisory_lock($1, $2)", *key)
    return db.session if got else None


async def _unlock(
    key: tuple[int, int], session: int, db: Dedicated, con: asyncpg.Connection
) -> None:
    if db.session == session:  # else the lock went with the session it was taken on
        await con.fetchval("SELECT pg_advisory_unlock($1, $2)", *key)


def lock_key(application_id: int, bucket: int) -> tuple[int, int]:
    """The advisory lock's two 32-bit keys: one for the bot (two bots sharing a database don't
    wait for each other) and the bucket."""
    digest = zlib.crc32(KEY_NAMESPACE + b":" + str(application_id).encode())
    return digest - (1 << 32) if digest >= 1 << 31 else digest, bucket


async def open_gate(database_url: str | None) -> IdentifyGate:
    """The gate this process should use: PostgreSQL's when the processes share one
    (``CHAOS_DATABASE_URL``, already checked by the settings), else its own."""
    if database_url is None:
        return LocalGate()
    return await PostgresGate.connect(database_url)
