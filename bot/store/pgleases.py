"""Claims that die with their process: each is tied to a lease its process keeps renewing.

During a shard hand-over two processes receive every interaction of the shard, and the first
to claim one (a row in ``claims``) carries it out and answers; the other stays silent. A claim
alone would outlive its process: one SIGKILLed with interactions claimed and unanswered would
keep the other quiet about them, although it is alive and holds the shard.

So a process that claims holds a **lease**: a row in ``leases`` with an expiry
:data:`LEASE_SECONDS` ahead, renewed every :data:`RENEW_SECONDS` by a task of its own (and by
every claim it makes). Each claim names the lease of its process. A claim whose lease has
expired, or is gone, belongs to a process that stopped renewing: dead, or cut off from the
database. Its interaction may be claimed again, by whoever asks; a live holder's may not.
(A process cut off that comes back and answers anyway costs nothing worse than two answers:
the interaction's key in ``interactions`` still applies the action once.)

Times are the server's (``now()``), so the clocks of the processes' machines don't matter.
Both tables are unlogged, as claims were already: a crash of the server empties them, which
only ends every claim at once, and the live processes put their leases back at their next
renewal. Claims made by a version of the bot that had no leases name none, and are kept as
they were (never taken over), so a rolling upgrade never has two versions answering at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket

from bot.errors import StoreError
from bot.store.pgbase import PgDatabase
from bot.store.pgconnect import name_of

log = logging.getLogger(__name__)

LEASE_SECONDS = 5.0  # a process that hasn't renewed its lease for this long is taken for dead
RENEW_SECONDS = 1.0
CLAIMS_KEPT = "1 hour"  # how long a claim on an interaction is kept (see PgLeases.expire_claims)

_RENEW = """
INSERT INTO leases (id, holder, expires) VALUES ($1, $2, now() + make_interval(secs => $3))
ON CONFLICT (id) DO UPDATE SET expires = excluded.expires
"""

# Renews the lease and claims the interaction, taking it over from a dead holder; a row back
# if this process has the interaction now (it claimed it, now or before, or took it over).
_CLAIM = """
WITH lease AS (
    INSERT INTO leases (id, holder, expires) VALUES ($2, $3, now() + make_interval(secs => $4))
    ON CONFLICT (id) DO UPDATE SET expires = excluded.expires
)
INSERT INTO claims AS c (id, lease) VALUES ($1, $2)
ON CONFLICT (id) DO UPDATE SET lease = excluded.lease, created = now()
WHERE c.lease = excluded.lease OR (c.lease IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM leases l WHERE l.id = c.lease AND l.expires > now()))
RETURNING 1
"""


class PgLeases(PgDatabase):
    """This process's lease and its claims (mixed into
    :class:`~bot.store.postgres.PostgresStore`). The lease is taken at the first claim: a
    store that never claims (the command-line tools) holds none."""

    _lease: str | None = None
    _renewing: asyncio.Task[None] | None = None

    @property
    def holder(self) -> str:
        """Who holds this process's lease, for whoever reads the table: host and process."""
        return f"{socket.gethostname()}: {name_of('store')}"

    async def claim(self, interaction: str) -> bool:
        # One statement, committed on its own: the other process must see it at once.
        if self._lease is None:
            self._lease = secrets.token_hex(16)
        rows = await self._rows(_CLAIM, interaction, self._lease, self.holder, LEASE_SECONDS)
        if self._renewing is None and not self._closed:
            self._renewing = asyncio.create_task(self._keep_renewing(), name="claims lease")
        return bool(rows)

    async def _keep_renewing(self) -> None:
        """Renew the lease every RENEW_SECONDS until the store closes. A database out of
        reach is said once (and once more when it answers again), never raised: the next
        renewal tries again, and claims meanwhile fail with their own sentence."""
        failing = False
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            if self.closed:
                return
            try:
                await self._rows(_RENEW, self._lease, self.holder, LEASE_SECONDS)
            except StoreError as error:
                if not failing and not self.closed:
                    log.warning("can't renew this process's claims lease: %s", error)
                failing = True
            except Exception:
                log.exception("renewing this process's claims lease failed")
            else:
                if failing:
                    log.info("this process's claims lease is renewed again")
                failing = False

    async def _end_lease(self) -> None:
        """Stop renewing, and give the lease up: a process that stops answers nothing more,
        so what it claimed may be taken over at once."""
        task, self._renewing = self._renewing, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        with contextlib.suppress(StoreError):
            await self._rows("DELETE FROM leases WHERE id = $1", self._lease)

    async def expire_claims(self) -> None:
        """Forget claims and leases nobody needs: Discord delivers an interaction to every
        session at once, so an hour is ample."""
        await self._rows(f"DELETE FROM claims WHERE created < now() - interval '{CLAIMS_KEPT}'")
        await self._rows(f"DELETE FROM leases WHERE expires < now() - interval '{CLAIMS_KEPT}'")
