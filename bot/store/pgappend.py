"""Appending actions on PostgreSQL: batched, one statement each, and never answered by a guess.

* Appending an action is **one statement**: a data-modifying ``WITH`` that moves the game's
  version from the one its writer read to the next, inserts the events, and records the
  interaction. One statement is atomic by itself (no BEGIN/COMMIT round trips), and
  acknowledged means committed (``synchronous_commit`` is on by default). A concurrent writer
  of the same game waits for the row lock, then finds the version moved and matches no row:
  ConflictError, and nothing written.
* **Batched:** appends are queued, and one writer task sends whatever is queued as one such
  statement for all of them (:data:`_APPEND_BATCH`): one round trip and one commit for a
  burst's worth of actions. Each append still stands or falls alone: the statement moves only
  the games whose version is still the one read, logs only their events, and reports which
  moved; one whose interaction was stored before moves nothing. A batch holds at most one
  append per game, and should a batch break a unique key after all (two processes storing one
  interaction at the same moment) or deadlock with another process's batch (both moving the
  same games, in another order), its appends are made again one by one.
* **In doubt:** a statement whose connection is cut while the server has it (a restart, a
  network drop) may have committed. Its appends are then looked up once the server answers
  (:mod:`bot.store.doubt`): the server process that had the statement is ended first if it
  still runs, so it can't commit after the look-up; then each append is found by its
  interaction (stored with it) or by its events at their positions.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import asyncpg

from bot.engine.errors import ChaosError
from bot.errors import ConflictError, DuplicateActionError, StoreError
from bot.store.doubt import Found, settle
from bot.store.pgbase import PgDatabase
from bot.store.pgconnect import in_doubt, name_of
from bot.store.pgfailures import explain
from bot.store.pgmigrations import Connection
from bot.store.records import GameRecord
from bot.store.rows import Log
from bot.store.writer import Meanwhile, Results

_APPEND = """
WITH moved AS (
    UPDATE games SET version = $3, updated = $4, ended = $5, active = $6
    WHERE id = $1 AND version = $2 RETURNING id
), logged AS (
    INSERT INTO events (game_id, pos, action, data)
    SELECT moved.id, e.pos, e.action, e.data
    FROM moved, unnest($7::integer[], $8::integer[], $9::text[]) AS e(pos, action, data)
), asked AS (
    INSERT INTO interactions (id, game_id, version, created)
    SELECT $10, moved.id, $3, $4 FROM moved WHERE $10::text IS NOT NULL
)
SELECT count(*) FROM moved
"""


# Many appends (see _APPEND) in one statement: $1–$7 are one element per append (game id, the
# version read and the new one, updated, ended, active, interaction), $8–$11 one per event (the
# append it belongs to, by its place in the batch, then pos, action, data). Returns the places
# of the appends applied and of those refused because their interaction was stored before; the
# others found their game moved (a conflict).
_APPEND_BATCH = """
WITH batch AS (
    SELECT * FROM unnest(
        $1::bigint[], $2::integer[], $3::integer[], $4::double precision[],
        $5::double precision[], $6::boolean[], $7::text[]
    ) WITH ORDINALITY AS b(id, old, new, updated, ended, active, interaction, place)
), fresh AS (
    SELECT * FROM batch WHERE interaction IS NULL
        OR NOT EXISTS (SELECT 1 FROM interactions i WHERE i.id = batch.interaction)
), moved AS (
    UPDATE games g SET version = f.new, updated = f.updated, ended = f.ended, active = f.active
    FROM fresh f WHERE g.id = f.id AND g.version = f.old
    RETURNING f.place, f.id, f.new, f.updated, f.interaction
), logged AS (
    INSERT INTO events (game_id, pos, action, data)
    SELECT m.id, e.pos, e.action, e.data
    FROM moved m JOIN unnest($8::bigint[], $9::integer[], $10::integer[], $11::text[])
        AS e(place, pos, action, data) ON e.place = m.place
), asked AS (
    INSERT INTO interactions (id, game_id, version, created)
    SELECT m.interaction, m.id, m.new, m.updated FROM moved m WHERE m.interaction IS NOT NULL
)
SELECT (SELECT coalesce(array_agg(place), '{}') FROM moved) AS moved,
       (SELECT coalesce(array_agg(place), '{}') FROM batch
        WHERE place NOT IN (SELECT place FROM fresh)) AS stored_before
"""

# What became of appends in doubt, one row per append in order: the game and version its
# interaction is stored with (none if it isn't), and its game's events at the append's positions.
_FOUND = """
SELECT i.game_id, i.version,
       (SELECT array_agg(e.data ORDER BY e.pos) FROM events e
        WHERE e.game_id = b.id AND e.pos >= b.first AND e.pos < b.first + b.count) AS data
FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::integer[])
    WITH ORDINALITY AS b(id, interaction, first, count, place)
LEFT JOIN interactions i ON i.id = b.interaction
ORDER BY b.place
"""

# Waits until the statement in doubt is over, committed or not, wherever it still runs: it
# holds the row of every game it moved until its transaction ends (and the rows it didn't move
# don't matter: their appends weren't stored either way). On a server going down, a statement
# whose process died mid-commit keeps its locks until the server is gone: this waits, fails
# with the server, and is asked again once it is back, where the commit is replayed or not.
# (A look-up that didn't wait could be answered by a server still up for a moment, to which
# that commit is not visible yet although it is on disk.)
_WAIT_FOR_WRITER = "SELECT 1 FROM games WHERE id = ANY($1::bigint[]) ORDER BY id FOR SHARE"

# Ends the server process that had a statement in doubt, if it is still at work on it (the
# client is gone, but a statement waiting for a lock would commit once it gets it), and waits
# up to 5 s for it to be gone. The process is recognised by its pid and its application name,
# which holds our own pid; an idle one has nothing left to commit.
_END_BACKEND = """
SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
WHERE pid = $1 AND application_name = $2 AND state <> 'idle'
"""


@dataclass(frozen=True)
class Append:
    """One append (see :meth:`PgAppends._append`), as the writer queues it."""

    game: GameRecord
    moved: GameRecord
    log: Log
    interaction: str | None


def game_of(append: Append) -> int:
    """An append's game: a batch holds at most one append per game."""
    return append.game.id


class Cut(Exception):
    """A write's connection was cut while the server had it (see :func:`in_doubt`): `error`,
    on the server process `pid`."""

    def __init__(self, error: BaseException, pid: int, url: str) -> None:
        super().__init__(str(error))
        self.error = error
        self.pid = pid
        # What the player is told if the write turns out not stored ("not saved").
        self.said: BaseException = explain(error, url) or error


def refused(error: asyncpg.UniqueViolationError, otherwise: ChaosError) -> ChaosError:
    """What a unique key a write broke means: the interaction was stored before (its primary
    key), or else `otherwise` (another game in progress in the scope, another save first)."""
    if error.constraint_name == "interactions_pkey":
        return DuplicateActionError(DuplicateActionError.SAID)
    return otherwise


def unanswered(error: BaseException) -> bool:
    """Whether a look-up failed for want of a server, or of a lock (to ask again), not for a
    bug."""
    waited = asyncpg.DeadlockDetectedError | asyncpg.LockNotAvailableError
    return isinstance(error, StoreError | Cut | waited) or in_doubt(error)


class PgAppends(PgDatabase):
    """The appends of :class:`~bot.store.postgres.PostgresStore` (see the module's notes)."""

    @asynccontextmanager
    async def _sending(self) -> AsyncIterator[Connection]:
        """A connection for a write: a write cut off on it raises :class:`Cut`, to be looked
        up; failing to get a connection at all is a plain StoreError (nothing was sent)."""
        async with self._connection() as con:
            pid = con.get_server_pid()
            try:
                yield con
            except Exception as error:
                if in_doubt(error):
                    raise Cut(error, pid, self.url) from error
                raise

    async def _end_backend(self, con: Connection, pid: int) -> None:
        """See :data:`_END_BACKEND`; without the right to end it, the look-up goes ahead."""
        # Not the bot's role's to end, or a server older than PostgreSQL 14: look up anyway.
        with contextlib.suppress(
            asyncpg.InsufficientPrivilegeError, asyncpg.UndefinedFunctionError
        ):
            await con.execute(_END_BACKEND, pid, name_of("store"))

    async def _append(
        self,
        game: GameRecord,
        moved: GameRecord,
        log: Log,
        interaction: str | None,
        meanwhile: Meanwhile = None,
    ) -> None:
        """Queue the append for the writer (see the module's notes) and wait for its answer
        (:mod:`bot.store.writer`)."""
        if self._closed:
            raise StoreError("the database is closed")
        await self.writer.save(Append(game, moved, log, interaction), meanwhile)

    async def _commit(self, batch: list[Append], meanwhile: Meanwhile) -> Results:
        """One batch, as one statement (or, should it break a key or deadlock, one per
        append): each append's refusal, or its success. Cut off, it raises :class:`Cut`,
        for :meth:`_settle` to find out the truth. `meanwhile` runs at this task's first
        wait, which is for the server's answer once a connection is free."""
        if meanwhile is not None:
            asyncio.get_running_loop().call_soon(meanwhile)
        try:
            if len(batch) == 1:
                answers: list[BaseException | None] = [await self._append_one(batch[0])]
            else:
                answers = await self._append_many(batch)
        except (asyncpg.UniqueViolationError, asyncpg.DeadlockDetectedError):
            # Two processes storing one interaction at once, or moving the same games in
            # another order (a shard hand-over): one by one, a single row each, the offender
            # alone is refused.
            answers = [await self._append_one(append) for append in batch]
        return [(True, None) if answer is None else (False, answer) for answer in answers]

    async def _append_many(self, batch: list[Append]) -> list[BaseException | None]:
        places, positions, numbers, data = [], [], [], []
        for place, append in enumerate(batch, start=1):
            log = append.log
            places += [place] * len(log.positions)
            positions += log.positions
            numbers += log.actions
            data += log.data
        async with self._sending() as con:
            row = await con.fetchrow(
                _APPEND_BATCH,
                [a.game.id for a in batch],
                [a.game.version for a in batch],
                [a.moved.version for a in batch],
                [a.moved.updated for a in batch],
                [a.moved.ended for a in batch],
                [a.moved.active for a in batch],
                [a.interaction for a in batch],
                places,
                positions,
                numbers,
                data,
            )
        assert row is not None
        moved, before = set(row["moved"]), set(row["stored_before"])
        return [
            None
            if place in moved
            else DuplicateActionError(DuplicateActionError.SAID)
            if place in before
            else ConflictError(ConflictError.SAID)
            for place in range(1, len(batch) + 1)
        ]

    async def _append_one(self, append: Append) -> BaseException | None:
        """One append alone, as one statement (:data:`_APPEND`); its refusal, or None. Cut
        off, it raises :class:`Cut`."""
        game, moved, log = append.game, append.moved, append.log
        try:
            async with self._sending() as con:
                count = await con.fetchval(
                    _APPEND,
                    game.id,
                    game.version,
                    moved.version,
                    moved.updated,
                    moved.ended,
                    moved.active,
                    log.positions,
                    log.actions,
                    log.data,
                    append.interaction,
                )
        except asyncpg.UniqueViolationError as error:
            return refused(error, ConflictError(ConflictError.SAID))
        except Cut:
            raise
        except Exception as failed:
            return failed
        return None if count == 1 else ConflictError(ConflictError.SAID)

    async def _settle(
        self, batch: list[Append], error: Exception, *, resend: bool = True
    ) -> Results:
        """The answers of a batch whose commit raised `error`: the truth, looked up, when its
        statement was cut off (see :mod:`bot.store.doubt`), else the error itself.

        The appends found not stored are sent once more (unless `resend` is off): a pool's
        connection the server cut while it sat idle (a restart) fails at its first use, and
        the player should get their action, not "try again", from a server that is back.
        Sending one again is safe now that it is known not stored: it is checked as it was
        the first time (the version read, the interaction's key)."""
        if not isinstance(error, Cut):
            return [(False, error)] * len(batch)
        answers = await self._look_up(batch, error)
        missing = [n for n, (ok, value) in enumerate(answers) if not ok and value is error.said]
        if not resend or not missing:
            return answers
        again = [batch[n] for n in missing]
        try:
            resent = await self._commit(again, None)
        except Exception as failed:
            resent = await self._settle(again, failed, resend=False)
        for n, answer in zip(missing, resent, strict=True):
            answers[n] = answer
        return answers

    async def _look_up(self, batch: list[Append], cut: Cut) -> Results:
        """What became of each append of a batch whose statement was `cut` off."""
        failed = cut.said

        async def look() -> list[Found]:
            games = [a.game.id for a in batch]
            async with self._connection() as con:
                await self._end_backend(con, cut.pid)
                async with con.transaction():
                    await con.execute(_WAIT_FOR_WRITER, games)
                    rows = await con.fetch(
                        _FOUND,
                        games,
                        [a.interaction for a in batch],
                        [a.log.positions[0] if a.log.positions else 0 for a in batch],
                        [len(a.log.positions) for a in batch],
                    )
            return [_found(append, row) for append, row in zip(batch, rows, strict=True)]

        return await settle(look, len(batch), failed, unanswered, self.where)


def _found(append: Append, row: asyncpg.Record) -> Found:
    """What the look-up row of an append in doubt says about it (see :data:`_FOUND`)."""
    if append.interaction is not None:
        if row["game_id"] is None:
            return None
        if (row["game_id"], row["version"]) == (append.game.id, append.moved.version):
            return (True, None)
        return (False, DuplicateActionError(DuplicateActionError.SAID))  # another delivery's
    # Without an interaction, its events at their positions: the dice are in them.
    return (True, None) if list(row["data"] or ()) == list(append.log.data) else None
