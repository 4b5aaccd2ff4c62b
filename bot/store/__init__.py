"""Persistence: games and their events, ruleset snapshots, guild settings and guild tables.

All the SQL of the project lives in this package. :class:`Store` is the one entry point::

    async with Store.connect("chaos-referee.db") as store:
        ...

Records come back as the frozen dataclasses of :mod:`bot.store.records`.
"""

from bot.store.migrations import HEAD, MIGRATIONS, Migration, migrate
from bot.store.records import (
    BoardRecord,
    GameRecord,
    GameTable,
    GuildSettings,
    SecretRolls,
    StoredGame,
    StoredTable,
)
from bot.store.sqlite import Store, dump_event

__all__ = [
    "HEAD",
    "MIGRATIONS",
    "BoardRecord",
    "GameRecord",
    "GameTable",
    "GuildSettings",
    "Migration",
    "SecretRolls",
    "Store",
    "StoredGame",
    "StoredTable",
    "dump_event",
    "migrate",
]
