"""The PostgreSQL store: the same contract as SQLite's, for several processes on one database.

Why asyncpg: it is what RoboDanny and Red use, it speaks PostgreSQL's binary protocol with
prepared statements cached per connection (the fastest Python driver by a wide margin), and its
pool hands each call its own connection, so concurrent tasks need no lock of ours: each
statement or transaction runs on a connection nobody else is using.

How the contract holds across processes:

* Appending an action is one statement, batched with others by a writer task, and never
  answered by a guess when its connection is cut: see :mod:`bot.store.pgappend`.
* The interaction id is a primary key, so a second delivery raises a unique violation, which is
  DuplicateActionError.
* Before that, a process claims the interaction (:meth:`PostgresStore.claim`): the first to
  insert its id in ``claims`` carries it out, applied or refused, and answers; another that
  received it too (a shard hand-over) does nothing at all, unless the first dies meanwhile
  (:mod:`bot.store.pgleases`). Claims are unlogged and kept an hour.
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
from pathlib import Path
from typing import Any, Self

import asyncpg

from bot.engine.events import Event
from bot.errors import DuplicateActionError, GameExistsError
from bot.store.contract import TABLES, Store, flagged
from bot.store.doubt import Found, settle
from bot.store.pgappend import Cut, PgAppends, game_of, refused, unanswered
from bot.store.pgconnect import open_pool
from bot.store.pgfailures import explain
from bot.store.pgguilds import PgGuildStore
from bot.store.pgleases import PgLeases
from bot.store.pglinks import PgLinkStore
from bot.store.pgmigrations import Connection, migrate
from bot.store.records import GameRecord, GameTable, StoredGame
from bot.store.rows import GAME_COLUMNS, Log, decode, game_record, snapshot_files, snapshot_from
from bot.store.writer import Writer
from bot.tables.snapshot import Snapshot

EXPIRY_LOCK = 0x6368616F73657870  # "chaosexp": creating shares it, expiring holds it alone

_LOG = "(SELECT array_agg(data ORDER BY pos) FROM events WHERE game_id = g.id)"


class PostgresStore(PgAppends, PgLeases, PgGuildStore, PgLinkStore, Store):
    """The :class:`~bot.store.contract.Store` on a PostgreSQL database, shared by processes.

    Open with ``await Store.open("postgresql://...")``; opening makes a pool of connections and
    brings the schema up to date.
    """

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        super().__init__(pool, url)
        self.writer = Writer(
            self._commit, name="postgres group commit", key=game_of, settle=self._settle
        )

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

    async def close(self) -> None:
        if not self._closed:
            await self._end_lease()
        await super().close()

    async def _insert_game(
        self, game: GameRecord, snapshot: Snapshot, log: Log, interaction: str | None
    ) -> int:
        """One transaction (see :meth:`Store.create_game`); if its connection is cut while
        the server has it, the game is looked up before anyone is told (as appends are, see
        :mod:`bot.store.pgappend`): found by its scope, creation time and snapshot."""
        try:
            return await self._insert(game, snapshot, log, interaction)
        except Cut as cut:
            failed, pid = cut.said, cut.pid

            async def look() -> list[Found]:
                async with self._connection() as con:
                    await self._end_backend(con, pid)
                    async with con.transaction():
                        # Every creation holds this lock shared until it ends: once held
                        # alone, the one in doubt is over (see pgappend._WAIT_FOR_WRITER).
                        await con.execute("SELECT pg_advisory_xact_lock($1)", EXPIRY_LOCK)
                        made = await con.fetchval(
                            "SELECT id FROM games"
                            " WHERE scope = $1 AND created = $2 AND snapshot = $3",
                            game.scope,
                            game.created,
                            game.snapshot,
                        )
                return [None if made is None else (True, int(made))]

            [(ok, answer)] = await settle(look, 1, failed, unanswered, self.where)
            if not ok:
                raise answer from None
            return int(answer)

    async def _insert(
        self, game: GameRecord, snapshot: Snapshot, log: Log, interaction: str | None
    ) -> int:
        try:
            async with self._sending() as con, con.transaction():
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
            raise refused(
                error, GameExistsError("There's already a game in progress here.")
            ) from None
        return game_id

    async def version(self, game_id: int) -> int | None:
        rows = await self._rows("SELECT version FROM games WHERE id = $1", game_id)
        return int(rows[0][0]) if rows else None

    async def applied(self, interaction: str) -> bool:
        return bool(await self._rows("SELECT 1 FROM interactions WHERE id = $1", interaction))

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
        await self.expire_claims()  # an hour is ample for them, whatever `before` says
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
