"""Persistence: games and their events, ruleset snapshots, guild settings and guild tables.

All the SQL of the project lives in this package. :class:`Store` is the one entry point, for
a SQLite file or a PostgreSQL database alike::

    async with Store.connect("chaos-referee.db") as store:
        ...
    async with Store.connect("postgresql://chaos@db.example/chaos") as store:
        ...

Records come back as the frozen dataclasses of :mod:`bot.store.records`.
"""

from bot.store.contract import Store, dump_event, is_url
from bot.store.migrations import HEAD, MIGRATIONS, Migration, migrate
from bot.store.records import (
    BoardRecord,
    GameRecord,
    GameTable,
    GuildSettings,
    LinkRecord,
    SecretRolls,
    StoredGame,
    StoredTable,
)
from bot.store.sqlite import SQLiteStore

__all__ = [
    "HEAD",
    "MIGRATIONS",
    "BoardRecord",
    "GameRecord",
    "GameTable",
    "GuildSettings",
    "LinkRecord",
    "Migration",
    "SQLiteStore",
    "SecretRolls",
    "Store",
    "StoredGame",
    "StoredTable",
    "dump_event",
    "is_url",
    "migrate",
]
