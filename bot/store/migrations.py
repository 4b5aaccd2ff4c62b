"""The database's schema, as numbered migrations applied in order.

Each migration runs in its own transaction together with the row that records it in the
``migrations`` table, so a database is always at exactly one schema version: a migration that
fails (or a process killed half-way) leaves the previous version intact, and the next start tries
again. Applying them to an up-to-date database changes nothing.

To change the schema, append a :class:`Migration` with the next number; never edit one that has
shipped (databases out there have already run it). ``tests/store/test_migrations.py`` upgrades a
database from every earlier version to the newest.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.errors import StoreError


@dataclass(frozen=True)
class Migration:
    """One step of the schema: its number, what it does, and its statements."""

    number: int
    name: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games and their events, ruleset snapshots, guild settings and guild tables",
        (
            # File texts by content: a snapshot names the texts of its files by their hash, so
            # every revision of a file is stored once however many games use it.
            """CREATE TABLE texts (
                hash TEXT PRIMARY KEY,
                text TEXT NOT NULL
            )""",
            """CREATE TABLE snapshots (
                hash TEXT PRIMARY KEY,
                ruleset TEXT NOT NULL,
                created REAL NOT NULL
            )""",
            # The tables a snapshot holds, as each file declared itself: id, kind, revision.
            """CREATE TABLE snapshot_files (
                snapshot TEXT NOT NULL REFERENCES snapshots(hash) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                name TEXT NOT NULL,
                table_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                revision TEXT NOT NULL,
                text TEXT NOT NULL REFERENCES texts(hash),
                PRIMARY KEY (snapshot, position)
            )""",
            "CREATE INDEX snapshot_files_text ON snapshot_files(text)",
            """CREATE TABLE games (
                id INTEGER PRIMARY KEY,
                scope TEXT NOT NULL,
                guild TEXT,
                ruleset TEXT NOT NULL,
                snapshot TEXT NOT NULL REFERENCES snapshots(hash),
                version INTEGER NOT NULL CHECK (version >= 0),
                created REAL NOT NULL,
                updated REAL NOT NULL,
                ended REAL,
                active INTEGER NOT NULL CHECK (active IN (0, 1))
            )""",
            # One game in progress per scope (channel, thread or console table).
            "CREATE UNIQUE INDEX games_active_scope ON games(scope) WHERE active",
            "CREATE INDEX games_scope ON games(scope, id)",
            "CREATE INDEX games_updated ON games(updated)",
            "CREATE INDEX games_snapshot ON games(snapshot)",
            # `pos` numbers a game's events from 0; `action` is the number (seq) of the action
            # the event belongs to, so an action's events can be found without parsing them.
            """CREATE TABLE events (
                game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                pos INTEGER NOT NULL,
                action INTEGER NOT NULL,
                data TEXT NOT NULL,
                PRIMARY KEY (game_id, pos)
            )""",
            """CREATE TABLE guild_settings (
                guild TEXT PRIMARY KEY,
                referee_role INTEGER,
                default_ruleset TEXT NOT NULL,
                auto_roll INTEGER NOT NULL CHECK (auto_roll IN (0, 1)),
                secret_rolls TEXT NOT NULL CHECK (secret_rolls IN ('allowed', 'referee', 'never')),
                updated REAL NOT NULL
            )""",
            """CREATE TABLE guild_tables (
                guild TEXT NOT NULL,
                table_id TEXT NOT NULL,
                revision INTEGER NOT NULL CHECK (revision >= 1),
                text TEXT NOT NULL,
                created REAL NOT NULL,
                PRIMARY KEY (guild, table_id, revision)
            )""",
        ),
    ),
    Migration(
        2,
        "status boards: the message that shows each game at a glance",
        (
            # One board per scope, for the game in progress there; the Discord front end edits
            # this message after every action and posts a new one if it was deleted.
            """CREATE TABLE boards (
                scope TEXT PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                channel TEXT NOT NULL,
                message TEXT NOT NULL,
                updated REAL NOT NULL
            )""",
        ),
    ),
    Migration(
        3,
        "the turn_powers setting: a guild may hand turn powers to the active player",
        (
            """ALTER TABLE guild_settings ADD COLUMN turn_powers INTEGER NOT NULL DEFAULT 0
                CHECK (turn_powers IN (0, 1))""",
        ),
    ),
    Migration(
        4,
        "interactions: the same Discord interaction is applied at most once",
        (
            # The id of the interaction that caused an action, unique: a second delivery of it
            # (two processes holding one shard for a moment) is refused instead of applied.
            # `version` is the game's version once it was applied. They go with their game.
            """CREATE TABLE interactions (
                id TEXT PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                version INTEGER NOT NULL,
                created REAL NOT NULL
            )""",
            "CREATE INDEX interactions_game ON interactions(game_id)",
        ),
    ),
    Migration(
        5,
        "claims: one process answers an interaction that several received",
        # PostgreSQL's alone (see bot.store.pgmigrations): processes sharing a shard claim
        # each interaction there. A SQLite file has one bot process, which has nothing to
        # claim from; the number is kept so both backends count the same schema.
        (),
    ),
    Migration(
        6,
        "web links: read-only links to a game's live page",
        (
            # A link is found by the SHA-256 of its token (the token itself is only in the
            # link handed out). It dies with its game: revoked, or when the game expires.
            """CREATE TABLE web_links (
                token_hash TEXT PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                created REAL NOT NULL
            )""",
            "CREATE INDEX web_links_game ON web_links(game_id)",
        ),
    ),
    Migration(
        7,
        "leases: a claim on an interaction dies with the process that made it",
        # PostgreSQL's alone, like the claims of migration 5 (see bot.store.pgleases).
        (),
    ),
    Migration(
        8,
        "turn mentions: a guild may ping whose turn it is; a member may turn it off for themselves",
        (
            """ALTER TABLE guild_settings ADD COLUMN turn_mentions INTEGER NOT NULL DEFAULT 0
                CHECK (turn_mentions IN (0, 1))""",
            # The Discord ids of the members who said no, space-separated.
            "ALTER TABLE guild_settings ADD COLUMN quiet TEXT NOT NULL DEFAULT ''",
        ),
    ),
    Migration(
        9,
        "house rules: a server's own rules, which its games keep from their start",
        ("ALTER TABLE guild_settings ADD COLUMN house TEXT NOT NULL DEFAULT '{}'",),
    ),
)

HEAD = MIGRATIONS[-1].number

_BOOKKEEPING = """CREATE TABLE IF NOT EXISTS migrations (
    number INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied REAL NOT NULL
)"""


def pending(
    migrations: Sequence[Migration], done: Sequence[int], target: int | None, elsewhere: str
) -> list[Migration]:
    """Which of `migrations` a database that has run `done` lacks, up to `target` (the newest
    by default): the bookkeeping both backends share; each runs them its own way.

    Raises StoreError when the database comes from a newer version of the bot; `elsewhere`
    ends that message with where else the host could point the bot.
    """
    head = migrations[-1].number if migrations else 0
    goal = head if target is None else target
    if done and done[-1] > head:
        raise StoreError(
            f"this database was written by a newer Chaos Referee (schema {done[-1]}; this one"
            f" knows up to {head}): update the bot, or {elsewhere}"
        )
    return [m for m in migrations if m.number <= goal and m.number not in done]


def failed(migration: Migration, error: Exception) -> StoreError:
    """The StoreError that says `migration` failed with the database's `error`."""
    return StoreError(
        f"the database couldn't be upgraded to schema {migration.number} ({migration.name}):"
        f" {error}"
    )


async def applied(db: aiosqlite.Connection) -> list[int]:
    """The numbers of the migrations this database has run, in order."""
    async with db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'migrations'"
    ) as cursor:
        if await cursor.fetchone() is None:
            return []
    async with db.execute("SELECT number FROM migrations ORDER BY number") as cursor:
        return [int(row[0]) for row in await cursor.fetchall()]


async def migrate(
    db: aiosqlite.Connection,
    *,
    target: int | None = None,
    migrations: Sequence[Migration] = MIGRATIONS,
) -> list[int]:
    """Bring the database up to `target` (the newest by default); returns the numbers applied.

    `db` must not be inside a transaction: each migration opens its own, explicitly (so any
    ``isolation_level`` will do). Raises StoreError when the database comes from a newer
    version of the bot or a migration fails (which then leaves no trace).
    """
    await db.execute(_BOOKKEEPING)
    done = await applied(db)
    ran: list[int] = []
    for migration in pending(migrations, done, target, "point CHAOS_DB_PATH at another file"):
        # IMMEDIATE takes the write lock at once; then look again, in case another process
        # applied this migration while we were getting here.
        await db.execute("BEGIN IMMEDIATE")
        try:
            if migration.number not in await applied(db):
                for statement in migration.statements:
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO migrations (number, name, applied) VALUES (?, ?, ?)",
                    (migration.number, migration.name, time.time()),
                )
                ran.append(migration.number)
            await db.execute("COMMIT")
        except BaseException as error:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise failed(migration, error) from error
            raise
    return ran
