"""The SQLite store: games and their events, ruleset snapshots, guild settings and tables.

One :class:`Store` holds one aiosqlite connection. Every write runs in its own transaction,
committed before the method returns, so whatever a caller acknowledges is on disk. Calls from
concurrent tasks are serialised by the store's lock (writers first: :mod:`bot.store.turns`): a
connection has one transaction at a time, and two tasks must never interleave statements inside
it. A game's writes (a new game, an
action) are plain functions of the stdlib connection, :func:`save_game` and :func:`save_action`,
each run whole on the connection's thread in one hop (see ``Database._transact``).

Durability settings, chosen once for every connection:

* ``journal_mode=WAL``: readers don't block the writer, and a commit appends to the log
  instead of rewriting pages.
* ``synchronous=FULL``: every commit waits for the write-ahead log to reach the disk. NORMAL
  would survive a crash of this process just as well (the SIGKILL test passes with it), but a
  power cut or kernel panic could lose the last few commits, and the bot has already told the
  table "done" by then. An fsync per action is far below what a table of players can notice,
  so we pay it: acknowledged means durable.
* ``foreign_keys=ON`` (events go with their game) and a ``busy_timeout`` in case another
  process, such as a backup, holds the write lock for a moment.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, Self, cast

import aiosqlite

from bot.engine.events import Event
from bot.errors import ConflictError, DuplicateActionError, GameExistsError, StoreError
from bot.store.boards import BoardStore
from bot.store.contract import TABLES, Store, flagged
from bot.store.doubt import Found
from bot.store.failures import BUSY_SECONDS, explain
from bot.store.guilds import GuildStore
from bot.store.links import LinkStore
from bot.store.migrations import migrate
from bot.store.records import GameRecord, GameTable, StoredGame
from bot.store.rows import (
    GAME_COLUMNS,
    Log,
    decode,
    game_record,
    snapshot_files,
    snapshot_from,
)
from bot.store.writer import Meanwhile
from bot.tables.snapshot import Snapshot

PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
    f"PRAGMA busy_timeout = {BUSY_SECONDS * 1000}",
)
INSERT_EVENTS = "INSERT INTO events (game_id, pos, action, data) VALUES (?, ?, ?, ?)"


async def _connect(file: Path) -> tuple[aiosqlite.Connection, sqlite3.Connection]:
    """An aiosqlite connection to `file`, opened so that failing to open leaves nothing behind.

    ``aiosqlite.connect`` opens the file on its worker thread; when that fails, it stops the
    thread without waiting for it, and the thread later hands its last result to the event
    loop, which may be closed by then ("Event loop is closed" in that thread: the warning the
    test suite used to show now and then). So the file is opened first on a thread of the
    loop's executor, which asyncio waits for, and only an open connection is handed to
    aiosqlite's thread, which alone uses it from then on (hence ``check_same_thread=False``).
    That stdlib connection is returned too, for the transactions run on that thread in one hop
    (see Database._transact).
    """
    # Legacy transaction mode with isolation_level=None: sqlite3 never begins a transaction by
    # itself; every transaction here says its own BEGIN (see Database).
    native = await asyncio.to_thread(
        sqlite3.connect, file, isolation_level=None, check_same_thread=False
    )
    try:
        return await aiosqlite.Connection(lambda: native, iter_chunk_size=64), native
    except BaseException:
        native.close()
        raise


class SQLiteStore(GuildStore, BoardStore, LinkStore, Store):
    """The :class:`~bot.store.contract.Store` on one SQLite file, for one process.

    Open with ``store = await Store.open(path)`` and ``await store.close()``, or
    ``async with Store.connect(path) as store:``. Opening creates the file if needed and brings
    its schema up to date.
    """

    # -- opening and closing ---------------------------------------------------------------

    @classmethod
    async def open(cls, path: Path | str) -> Self:
        """Open (or create) the database at `path` and run any migrations it lacks."""
        file = Path(path)
        try:
            db, native = await _connect(file)
        except sqlite3.Error as error:
            raise explain(error, file) or StoreError(
                f"can't open the database {file}: {error}"
            ) from None
        try:
            for pragma in PRAGMAS:
                async with db.execute(pragma) as cursor:
                    row = await cursor.fetchone()
                if pragma.startswith("PRAGMA journal_mode") and (row is None or row[0] != "wal"):
                    raise StoreError(f"the database {file} can't use write-ahead logging")
            ran = await migrate(db)
        except sqlite3.DatabaseError as error:
            await db.close()
            raise explain(error, file) or StoreError(
                f"{file} is not a Chaos Referee database ({error})"
            ) from None
        except BaseException:
            await db.close()
            raise
        store = cls(db, native, file)
        store.migrated = tuple(ran)
        return store

    # -- games -----------------------------------------------------------------------------

    async def _insert_game(
        self, game: GameRecord, snapshot: Snapshot, log: Log, interaction: str | None
    ) -> int:
        return await self._transact(
            partial(save_game, game, snapshot, log, interaction),
            stored=partial(game_stored, game),
        )

    async def _append(
        self,
        game: GameRecord,
        moved: GameRecord,
        log: Log,
        interaction: str | None,
        meanwhile: Meanwhile = None,
    ) -> None:
        rows = log.rows(game.id)
        await self._transact(
            partial(save_action, game, moved, rows, interaction),
            meanwhile,
            stored=partial(action_stored, game, moved, rows, interaction),
        )

    async def active_game(self, scope: str) -> StoredGame | None:
        """The game in progress in `scope`, with its log; None if there is none."""
        return await self._game("WHERE scope = ? AND active", (scope,))

    async def latest_game(self, scope: str) -> StoredGame | None:
        """The most recent game of `scope`, in progress or ended (until it expires)."""
        return await self._game("WHERE scope = ? ORDER BY id DESC LIMIT 1", (scope,))

    async def game(self, game_id: int) -> StoredGame | None:
        """A game by its id."""
        return await self._game("WHERE id = ?", (game_id,))

    async def _game(self, where: str, args: Sequence[Any]) -> StoredGame | None:
        def read(db: sqlite3.Connection) -> tuple[Any, list[Any]] | None:
            row = db.execute(f"SELECT {GAME_COLUMNS} FROM games {where}", args).fetchone()
            if row is None:
                return None
            return row, db.execute(
                "SELECT data FROM events WHERE game_id = ? ORDER BY pos", (row[0],)
            ).fetchall()

        found = await self._query(read)
        if found is None:
            return None
        row, rows = found
        # Decoding a long game's log takes a moment: off the event loop, like the query.
        events = await asyncio.to_thread(decode, (r[0] for r in rows))
        return StoredGame(game_record(row), events)

    async def version(self, game_id: int) -> int | None:
        rows = await self._rows("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    async def applied(self, interaction: str) -> bool:
        rows = await self._rows("SELECT 1 FROM interactions WHERE id = ?", (interaction,))
        return bool(rows)

    async def game_ids(self) -> list[int]:
        return [int(row[0]) for row in await self._rows("SELECT id FROM games ORDER BY id")]

    async def recent_events(self, game_id: int, count: int) -> list[Event]:
        """The last `count` events of a game's log, oldest first."""
        rows = await self._rows(
            "SELECT data FROM events WHERE game_id = ? ORDER BY pos DESC LIMIT ?",
            (game_id, max(count, 0)),
        )
        return decode(r[0] for r in reversed(rows))

    async def game_tables(self, game_id: int) -> list[GameTable]:
        """Every file of the ruleset a game plays with: id, kind and declared revision."""
        rows = await self._rows(
            "SELECT f.table_id, f.kind, f.revision FROM games g"
            " JOIN snapshot_files f ON f.snapshot = g.snapshot WHERE g.id = ? ORDER BY f.position",
            (game_id,),
        )
        return [GameTable(r[0], r[1], r[2]) for r in rows]

    async def expire(self, before: float) -> list[GameRecord]:
        """Delete every game not touched since `before` (ended or not), with its events, and
        the snapshots and texts no game uses any more. Returns the games deleted.
        """
        async with self._write() as db:
            async with db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE updated < ?", (before,)
            ) as cursor:
                gone = [game_record(row) for row in await cursor.fetchall()]
            if gone:
                await db.execute("DELETE FROM games WHERE updated < ?", (before,))
                await db.execute(
                    "DELETE FROM snapshots WHERE hash NOT IN (SELECT snapshot FROM games)"
                )
                await db.execute(
                    "DELETE FROM texts WHERE hash NOT IN (SELECT text FROM snapshot_files)"
                )
        return gone

    # -- whole tables ----------------------------------------------------------------------

    async def dump(self, table: str) -> list[tuple[object, ...]]:
        columns = TABLES[table]
        rows = await self._rows(f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid")
        return flagged(table, rows)

    async def load(self, rows: dict[str, list[tuple[object, ...]]]) -> None:
        async with self._write() as db:
            for table, columns in TABLES.items():
                marks = ", ".join("?" for _ in columns)
                await db.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    rows.get(table, []),
                )

    # -- snapshots -------------------------------------------------------------------------

    async def snapshot(self, snapshot_hash: str) -> Snapshot:
        """The snapshot stored under `snapshot_hash`; StoreError if it's missing."""
        rows = await self._rows(
            "SELECT s.ruleset, f.name, t.text, f.table_id, f.kind, f.revision FROM snapshots s"
            " JOIN snapshot_files f ON f.snapshot = s.hash JOIN texts t ON t.hash = f.text"
            " WHERE s.hash = ? ORDER BY f.position",
            (snapshot_hash,),
        )
        return snapshot_from(snapshot_hash, rows)


def save_game(
    game: GameRecord,
    snapshot: Snapshot,
    log: Log,
    interaction: str | None,
    db: sqlite3.Connection,
) -> int:
    """All of a new game's SQL, on the connection's thread inside a transaction (as
    :func:`save_action` is): its ruleset's snapshot unless stored already, its row (the
    database numbers it: returned), its first events, and the `interaction` that asked.
    GameExistsError if its scope has a game in progress, DuplicateActionError if the
    interaction was stored before."""
    if interaction is not None:
        seen = db.execute("SELECT 1 FROM interactions WHERE id = ?", (interaction,))
        if seen.fetchone() is not None:
            raise DuplicateActionError(DuplicateActionError.SAID)
    _put_snapshot(db, snapshot, game.created)
    try:
        cursor = db.execute(
            "INSERT INTO games (scope, guild, ruleset, snapshot, version, created, updated,"
            " ended, active) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 1)",
            (
                game.scope,
                game.guild,
                game.ruleset,
                game.snapshot,
                game.version,
                game.created,
                game.updated,
            ),
        )
    except sqlite3.IntegrityError:
        raise GameExistsError("There's already a game in progress here.") from None
    game_id = cast(int, cursor.lastrowid)
    db.executemany(INSERT_EVENTS, log.rows(game_id))
    if interaction is not None:
        db.execute(
            "INSERT INTO interactions (id, game_id, version, created) VALUES (?, ?, ?, ?)",
            (interaction, game_id, game.version, game.created),
        )
    return game_id


def _put_snapshot(db: sqlite3.Connection, snapshot: Snapshot, now: float) -> None:
    """Store `snapshot` and the texts of its files, unless a game already did."""
    if db.execute("SELECT 1 FROM snapshots WHERE hash = ?", (snapshot.hash,)).fetchone():
        return
    db.executemany(
        "INSERT OR IGNORE INTO texts (hash, text) VALUES (?, ?)",
        [(f.hash, f.text) for f in snapshot.files],
    )
    db.execute(
        "INSERT INTO snapshots (hash, ruleset, created) VALUES (?, ?, ?)",
        (snapshot.hash, snapshot.ruleset, now),
    )
    db.executemany(
        "INSERT INTO snapshot_files (snapshot, position, name, table_id, kind, revision, text)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        snapshot_files(snapshot),
    )


def save_action(
    game: GameRecord,
    moved: GameRecord,
    events: list[tuple[int, int, int, str]],
    interaction: str | None,
    db: sqlite3.Connection,
) -> None:
    """All of one action's SQL, on the connection's thread inside a transaction: store `moved`
    in place of `game` if the stored version still is ``game.version`` (else ConflictError),
    its `events` rows, and the `interaction` that asked for it (DuplicateActionError if it was
    stored before). Raising leaves the transaction to be rolled back by whoever opened it.

    Synchronous and whole, so it takes one hop to the database thread (Database._transact)
    and a writer that commits several actions at once can run it in a SAVEPOINT each.
    """
    if interaction is not None:
        # First, so a duplicate is told apart from a conflict.
        try:
            db.execute(
                "INSERT INTO interactions (id, game_id, version, created) VALUES (?, ?, ?, ?)",
                (interaction, game.id, moved.version, moved.updated),
            )
        except sqlite3.IntegrityError:
            raise DuplicateActionError(DuplicateActionError.SAID) from None
    cursor = db.execute(
        "UPDATE games SET version = ?, updated = ?, ended = ?, active = ?"
        " WHERE id = ? AND version = ?",
        (moved.version, moved.updated, moved.ended, int(moved.active), game.id, game.version),
    )
    if cursor.rowcount != 1:
        raise ConflictError(ConflictError.SAID)
    db.executemany(INSERT_EVENTS, events)


def game_stored(game: GameRecord, db: sqlite3.Connection) -> Found:
    """Whether :func:`save_game` stored `game` after all (its batch failed as a whole): the
    game of its scope made at its very time, with its snapshot. Its id if so."""
    row = db.execute(
        "SELECT id FROM games WHERE scope = ? AND created = ? AND snapshot = ?",
        (game.scope, game.created, game.snapshot),
    ).fetchone()
    return None if row is None else (True, int(row[0]))


def action_stored(
    game: GameRecord,
    moved: GameRecord,
    events: list[tuple[int, int, int, str]],
    interaction: str | None,
    db: sqlite3.Connection,
) -> Found:
    """Whether :func:`save_action` stored its action after all (its batch failed as a whole):
    its interaction, stored with the version the action made, or without one, its events at
    their positions (the dice are in them)."""
    if interaction is not None:
        row = db.execute(
            "SELECT game_id, version FROM interactions WHERE id = ?", (interaction,)
        ).fetchone()
        if row is None:
            return None
        if (row[0], row[1]) == (game.id, moved.version):
            return (True, None)
        return (False, DuplicateActionError(DuplicateActionError.SAID))
    first, count = events[0][1], len(events)
    stored = db.execute(
        "SELECT data FROM events WHERE game_id = ? AND pos >= ? AND pos < ? ORDER BY pos",
        (game.id, first, first + count),
    ).fetchall()
    return (True, None) if [r[0] for r in stored] == [e[3] for e in events] else None
