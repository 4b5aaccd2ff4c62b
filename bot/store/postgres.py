"""The PostgreSQL store: the same contract as SQLite's, for several processes on one database.

Why asyncpg: it is what RoboDanny and Red use, it speaks PostgreSQL's binary protocol with
prepared statements cached per connection (the fastest Python driver by a wide margin), and its
pool hands each call its own connection, so concurrent tasks need no lock of ours: each
statement or transaction runs on a connection nobody else is using.

How the contract holds across processes:

* Appending an action is **one statement**: a data-modifying ``WITH`` that moves the game's
  version from the one its writer read to the next, inserts the events, and records the
  interaction. One statement is atomic by itself (no BEGIN/COMMIT round trips), and
  acknowledged means committed (``synchronous_commit`` is on by default). A concurrent writer
  of the same game waits for the row lock, then finds the version moved and matches no row:
  ConflictError, and nothing written.
* **Batched:** appends are queued, and one writer task sends whatever is queued as one such
  statement for all of them (:data:`_APPEND_BATCH`): one round trip and one commit, whose WAL
  flush is one fsync, for a burst's worth of actions (group commit, as SQLite's writer does).
  Each append still stands or falls alone: the statement moves only the games whose version
  is still the one read, logs only their events, and reports which moved; one whose
  interaction was stored before moves nothing. Each caller hears its own answer once the
  statement has committed. A batch holds at most one append per game (a second waits for the
  next batch), and should a batch break a unique key after all (two processes storing one
  interaction at the same moment) or deadlock with another process's batch (both moving the
  same games, in another order), its appends are made again one by one, so only the
  offending one is refused.
* The interaction id is a primary key, so a second delivery raises a unique violation, which is
  DuplicateActionError.
* Before that, a process claims the interaction (:meth:`PostgresStore.claim`): the first to
  insert its id in ``claims`` carries it out, applied or refused, and answers; another that
  received it too (a shard hand-over) does nothing at all. Claims are unlogged and kept an
  hour.
* Every connection comes from :mod:`bot.store.pgconnect`, and comes back by itself after the
  server restarts.
* Reading a game is one statement too (its row and its log together), so it sees one committed
  state.
* Expiry deletes snapshots no game uses; a game being created may be about to use one. Creating
  takes a shared advisory lock and expiring an exclusive one (:data:`EXPIRY_LOCK`), so they
  never cross.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import asyncpg

from bot.engine.errors import ChaosError
from bot.engine.events import Event
from bot.errors import ConflictError, DuplicateActionError, GameExistsError, StoreError
from bot.store.contract import TABLES, Store, flagged
from bot.store.pgconnect import open_pool
from bot.store.pgfailures import explain
from bot.store.pgguilds import PgGuildStore
from bot.store.pglinks import PgLinkStore
from bot.store.pgmigrations import Connection, migrate
from bot.store.records import GameRecord, GameTable, StoredGame
from bot.store.rows import GAME_COLUMNS, Log, decode, game_record, snapshot_files, snapshot_from
from bot.store.writer import Meanwhile, Results, Writer
from bot.tables.snapshot import Snapshot

EXPIRY_LOCK = 0x6368616F73657870  # "chaosexp": creating shares it, expiring holds it alone
CLAIMS_KEPT = "1 hour"  # how long a claim on an interaction is kept (see PostgresStore.expire)

_LOG = "(SELECT array_agg(data ORDER BY pos) FROM events WHERE game_id = g.id)"

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


@dataclass(frozen=True)
class _Append:
    """One append (see :meth:`PostgresStore._append`), as the writer queues it."""

    game: GameRecord
    moved: GameRecord
    log: Log
    interaction: str | None


def _game_of(append: _Append) -> int:
    """An append's game: a batch holds at most one append per game."""
    return append.game.id


def _refused(error: asyncpg.UniqueViolationError, otherwise: ChaosError) -> ChaosError:
    """What a unique key a write broke means: the interaction was stored before (its primary
    key), or else `otherwise` (another game in progress in the scope, another save first)."""
    if error.constraint_name == "interactions_pkey":
        return DuplicateActionError(DuplicateActionError.SAID)
    return otherwise


class PostgresStore(PgGuildStore, PgLinkStore, Store):
    """The :class:`~bot.store.contract.Store` on a PostgreSQL database, shared by processes.

    Open with ``await Store.open("postgresql://...")``; opening makes a pool of connections and
    brings the schema up to date.
    """

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        super().__init__(pool, url)
        self.writer = Writer(self._commit, name="postgres group commit", key=_game_of)

    @classmethod
    async def open(cls, target: Path | str) -> Self:
        """Connect to the database at the URL `target` and run any migrations it lacks."""
        url = str(target)
        try:
            pool = await open_pool(url)
        except Exception as error:
            raise explain(error, url) or error from None
        try:
            async with pool.acquire() as con:  # the first connection is made here
                ran = await migrate(con)
        except Exception as error:
            await pool.close()
            raise explain(error, url) or error from None
        except BaseException:
            await pool.close()
            raise
        store = cls(pool, url)
        store.migrated = tuple(ran)
        return store

    # -- games -----------------------------------------------------------------------------

    async def _insert_game(
        self, game: GameRecord, snapshot: Snapshot, log: Log, interaction: str | None
    ) -> int:
        try:
            async with self._write() as con:
                await con.execute("SELECT pg_advisory_xact_lock_shared($1)", EXPIRY_LOCK)
                if interaction is not None and await con.fetchval(
                    "SELECT 1 FROM interactions WHERE id = $1", interaction
                ):
                    raise DuplicateActionError(DuplicateActionError.SAID)
                await self._put_snapshot(con, snapshot, game.created)
                game_id: int = await con.fetchval(
                    "INSERT INTO games (scope, guild, ruleset, snapshot, version, created, updated,"
                    " ended, active) VALUES ($1, $2, $3, $4, $5, $6, $6, NULL, TRUE) RETURNING id",
                    game.scope,
                    game.guild,
                    game.ruleset,
                    game.snapshot,
                    game.version,
                    game.created,
                )
                await con.execute(
                    "INSERT INTO events (game_id, pos, action, data) SELECT $1, * FROM"
                    " unnest($2::integer[], $3::integer[], $4::text[])",
                    game_id,
                    log.positions,
                    log.actions,
                    log.data,
                )
                if interaction is not None:
                    await con.execute(
                        "INSERT INTO interactions (id, game_id, version, created)"
                        " VALUES ($1, $2, $3, $4)",
                        interaction,
                        game_id,
                        game.version,
                        game.created,
                    )
        except asyncpg.UniqueViolationError as error:
            raise _refused(
                error, GameExistsError("There's already a game in progress here.")
            ) from None
        return game_id

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
        await self.writer.save(_Append(game, moved, log, interaction), meanwhile)

    async def _commit(self, batch: list[_Append], meanwhile: Meanwhile) -> Results:
        """One batch, as one statement (or, should it break a key or deadlock, one per
        append): each append's refusal, or its success. `meanwhile` runs at this task's first
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

    async def _append_many(self, batch: list[_Append]) -> list[BaseException | None]:
        places, positions, numbers, data = [], [], [], []
        for place, append in enumerate(batch, start=1):
            log = append.log
            places += [place] * len(log.positions)
            positions += log.positions
            numbers += log.actions
            data += log.data
        async with self._connection() as con:
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

    async def _append_one(self, append: _Append) -> BaseException | None:
        """One append alone, as one statement (:data:`_APPEND`); its refusal, or None."""
        game, moved, log = append.game, append.moved, append.log
        try:
            async with self._connection() as con:
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
            return _refused(error, ConflictError(ConflictError.SAID))
        except Exception as failed:
            return failed
        return None if count == 1 else ConflictError(ConflictError.SAID)

    async def version(self, game_id: int) -> int | None:
        rows = await self._rows("SELECT version FROM games WHERE id = $1", game_id)
        return int(rows[0][0]) if rows else None

    async def applied(self, interaction: str) -> bool:
        return bool(await self._rows("SELECT 1 FROM interactions WHERE id = $1", interaction))

    async def claim(self, interaction: str) -> bool:
        # One statement, committed on its own: the other process must see it at once.
        rows = await self._rows(
            "INSERT INTO claims (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1", interaction
        )
        return bool(rows)

    async def active_game(self, scope: str) -> StoredGame | None:
        return await self._game("WHERE scope = $1 AND active", scope)

    async def latest_game(self, scope: str) -> StoredGame | None:
        return await self._game("WHERE scope = $1 ORDER BY id DESC LIMIT 1", scope)

    async def game(self, game_id: int) -> StoredGame | None:
        return await self._game("WHERE id = $1", game_id)

    async def _game(self, where: str, *args: Any) -> StoredGame | None:
        rows = await self._rows(f"SELECT {GAME_COLUMNS}, {_LOG} FROM games g {where}", *args)
        if not rows:
            return None
        # Decoding a long game's log takes a moment: off the event loop.
        events = await asyncio.to_thread(decode, rows[0][10])
        return StoredGame(game_record(rows[0]), events)

    async def game_ids(self) -> list[int]:
        return [int(row[0]) for row in await self._rows("SELECT id FROM games ORDER BY id")]

    async def recent_events(self, game_id: int, count: int) -> list[Event]:
        rows = await self._rows(
            "SELECT data FROM events WHERE game_id = $1 ORDER BY pos DESC LIMIT $2",
            game_id,
            max(count, 0),
        )
        return decode(r[0] for r in reversed(rows))

    async def game_tables(self, game_id: int) -> list[GameTable]:
        rows = await self._rows(
            "SELECT f.table_id, f.kind, f.revision FROM games g"
            " JOIN snapshot_files f ON f.snapshot = g.snapshot WHERE g.id = $1"
            " ORDER BY f.position",
            game_id,
        )
        return [GameTable(r[0], r[1], r[2]) for r in rows]

    async def expire(self, before: float) -> list[GameRecord]:
        # Claims are over once Discord has delivered their interaction (at once, to every
        # session): an hour is ample, whatever `before` says about games.
        await self._rows(f"DELETE FROM claims WHERE created < now() - interval '{CLAIMS_KEPT}'")
        async with self._write() as con:
            await con.execute("SELECT pg_advisory_xact_lock($1)", EXPIRY_LOCK)
            rows = await con.fetch(
                f"DELETE FROM games WHERE updated < $1 RETURNING {GAME_COLUMNS}", before
            )
            if rows:
                await con.execute(
                    "DELETE FROM snapshots s WHERE NOT EXISTS"
                    " (SELECT 1 FROM games g WHERE g.snapshot = s.hash)"
                )
                await con.execute(
                    "DELETE FROM texts t WHERE NOT EXISTS"
                    " (SELECT 1 FROM snapshot_files f WHERE f.text = t.hash)"
                )
        return sorted((game_record(row) for row in rows), key=lambda r: r.id)

    # -- snapshots -------------------------------------------------------------------------

    async def snapshot(self, snapshot_hash: str) -> Snapshot:
        rows = await self._rows(
            "SELECT s.ruleset, f.name, t.text, f.table_id, f.kind, f.revision FROM snapshots s"
            " JOIN snapshot_files f ON f.snapshot = s.hash JOIN texts t ON t.hash = f.text"
            " WHERE s.hash = $1 ORDER BY f.position",
            snapshot_hash,
        )
        return snapshot_from(snapshot_hash, rows)

    async def _put_snapshot(self, con: Connection, snapshot: Snapshot, now: float) -> None:
        if await con.fetchval("SELECT 1 FROM snapshots WHERE hash = $1", snapshot.hash):
            return
        await con.execute(
            "INSERT INTO texts (hash, text) SELECT * FROM unnest($1::text[], $2::text[])"
            " ON CONFLICT DO NOTHING",
            [f.hash for f in snapshot.files],
            [f.text for f in snapshot.files],
        )
        # Another process may be storing the same snapshot: whoever inserts it adds its files.
        made = await con.fetchval(
            "INSERT INTO snapshots (hash, ruleset, created) VALUES ($1, $2, $3)"
            " ON CONFLICT DO NOTHING RETURNING 1",
            snapshot.hash,
            snapshot.ruleset,
            now,
        )
        if made:
            await con.executemany(
                "INSERT INTO snapshot_files (snapshot, position, name, table_id, kind, revision,"
                " text) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                snapshot_files(snapshot),
            )

    # -- whole tables ----------------------------------------------------------------------

    async def dump(self, table: str) -> list[tuple[object, ...]]:
        columns = TABLES[table]
        rows = await self._rows(f"SELECT {', '.join(columns)} FROM {table} ORDER BY 1, 2")
        return [tuple(row) for row in rows]

    async def load(self, rows: dict[str, list[tuple[object, ...]]]) -> None:
        async with self._write() as con:
            for table, columns in TABLES.items():
                records = flagged(table, rows.get(table, []))
                if records:
                    await con.copy_records_to_table(table, records=records, columns=columns)
            # Ids were copied as they were: new games are numbered after them.
            await con.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), max(id))"
                " FROM games HAVING max(id) IS NOT NULL"
            )
