"""``chaos-referee db``: the operator's tools for the database.

* ``db migrate`` brings the configured database (or ``--db``) to the newest schema and says
  which migrations it ran. The bot does the same whenever it starts; this is for doing it
  ahead of a rollout, on purpose, and seeing what happened.
* ``db copy --from PATH_OR_URL --to URL`` moves a server's games, guild settings, tables and
  boards into an empty PostgreSQL database and checks every game by replaying it
  (:mod:`bot.store.copy`).

Failures are StoreErrors (a ChaosError): :mod:`bot.cli` prints their sentence and exits 1.
"""

from __future__ import annotations

import argparse
import asyncio

from bot.arguments import SubParsers
from bot.config import Settings
from bot.store.contract import Store
from bot.store.copy import copy_database
from bot.store.migrations import HEAD

EXIT_OK = 0


def add_db_parser(commands: SubParsers) -> None:
    parser = commands.add_parser(
        "db",
        help="migrate the database, or copy a SQLite file's games to PostgreSQL",
        description="Tools for whoever hosts the bot. The database is CHAOS_DATABASE_URL if"
        " set, else CHAOS_DB_PATH.",
    )
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    migrate = tools.add_parser(
        "migrate",
        help="bring the database to the newest schema, and say what ran",
        description="Run the migrations the database lacks (the bot also does this when it"
        " starts). Safe while other processes start against the same database.",
    )
    migrate.add_argument(
        "--db", metavar="PATH_OR_URL", help="this database instead of the configured one"
    )
    migrate.set_defaults(func=run_migrate)
    copy = tools.add_parser(
        "copy",
        help="copy every game, guild setting, table and board into an empty PostgreSQL database",
        description="Copy a SQLite file (or a PostgreSQL database) into a new, empty"
        " PostgreSQL database, ids and all, then replay every copied game with the engine and"
        " check it comes out the same. Stop the bot first, so no game moves on during the"
        " copy; then set CHAOS_DATABASE_URL to the new database.",
    )
    copy.add_argument("--from", dest="source", required=True, metavar="PATH_OR_URL")
    copy.add_argument("--to", dest="target", required=True, metavar="URL")
    copy.set_defaults(func=run_copy)


def run_migrate(args: argparse.Namespace) -> int:
    target = args.db or Settings.from_env().database

    async def migrate() -> tuple[tuple[int, ...], str]:
        async with Store.connect(target) as store:
            return store.migrated, store.where

    ran, where = asyncio.run(migrate())
    if ran:
        numbers = ", ".join(str(n) for n in ran)
        print(f"Migrated {where} to schema {HEAD}: ran migration{'s' * (len(ran) > 1)} {numbers}.")
    else:
        print(f"{where} is already at schema {HEAD}; nothing to run.")
    return EXIT_OK


def run_copy(args: argparse.Namespace) -> int:
    copied, source, target = asyncio.run(copy_database(args.source, args.target))
    print(copied.sentence(source, target))
    return EXIT_OK
