"""What only PostgreSQL has: its failures as sentences, migrations from processes starting at
once, and a schema that keeps the same tables and columns as SQLite's."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.engine import Life
from bot.errors import StoreError
from bot.store import HEAD, SQLiteStore, Store
from bot.store.contract import TABLES
from bot.store.migrations import MIGRATIONS, Migration
from bot.store.pgfailures import shown
from bot.store.pgmigrations import PG_MIGRATIONS, migrate
from tests.postgres import ADMIN, SERVER, fresh_database, require_server
from tests.store.helpers import SCOPE, aio, begun, open_service


@pytest.fixture
def empty() -> Iterator[str]:
    """A new database with no tables at all."""
    with fresh_database(empty=True) as url:
        yield url


@pytest.fixture
def migrated() -> Iterator[str]:
    """A new database at the newest schema."""
    with fresh_database() as url:
        yield url


def test_a_url_is_shown_without_its_password() -> None:
    assert shown("postgresql://chaos:s3cret@db.example:5432/games") == (
        "postgresql://chaos@db.example:5432/games"
    )
    assert shown("postgresql://db.example/games") == "postgresql://db.example/games"


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://chaos:s3cret@127.0.0.1:1/games", "can't reach the PostgreSQL server of"),
        ("postgresql://chaos:s3cret@no-such-host.invalid/games", "can't find the PostgreSQL"),
        ("postgresql://chaos:s3cret@127.0.0.1:port/games", "CHAOS_DATABASE_URL can't be used"),
    ],
)
@aio
async def test_a_database_out_of_reach_is_one_sentence(url: str, said: str) -> None:
    with pytest.raises(StoreError, match=said) as caught:
        await Store.open(url)
    assert "s3cret" not in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.fixture
def server() -> None:
    require_server()


@pytest.mark.usefixtures("server")
@aio
async def test_a_missing_database_or_user_is_one_sentence() -> None:
    host = SERVER.partition("@")[2]
    with pytest.raises(StoreError, match="chaos_no_such_db doesn't exist: create it"):
        await Store.open(f"postgresql://postgres:pw@{host}/chaos_no_such_db")
    with pytest.raises(StoreError, match="refused the bot's login") as caught:
        await Store.open(f"postgresql://chaos_nobody:s3cret@{host}/postgres")
    assert "s3cret" not in str(caught.value)


@aio
async def test_processes_starting_at_once_migrate_once(empty: str) -> None:
    stores = await asyncio.gather(*(Store.open(empty) for _ in range(6)))
    try:
        for store in stores:
            assert await store.migrations() == list(range(1, HEAD + 1))
    finally:
        for store in stores:
            await store.close()


@aio
async def test_a_database_from_a_newer_bot_is_refused(empty: str) -> None:
    newer = Migration(HEAD + 1, "from the future", ("CREATE TABLE future (a integer)",))
    con = await asyncpg.connect(empty)
    try:
        assert await migrate(con, migrations=(*PG_MIGRATIONS, newer)) == [*range(1, HEAD + 2)]
    finally:
        await con.close()
    with pytest.raises(StoreError, match="newer Chaos Referee"):
        await Store.open(empty)


@aio
async def test_a_failing_migration_leaves_no_trace(empty: str) -> None:
    broken = Migration(HEAD + 1, "broken", ("CREATE TABLE half (a integer)", "SELECT nowhere"))
    con = await asyncpg.connect(empty)
    try:
        with pytest.raises(StoreError, match=f"schema {HEAD + 1} \\(broken\\)"):
            await migrate(con, migrations=(*PG_MIGRATIONS, broken))
        assert await con.fetchval("SELECT to_regclass('half')") is None
        assert await con.fetchval("SELECT max(number) FROM migrations") == HEAD
    finally:
        await con.close()


def test_both_backends_number_the_same_migrations() -> None:
    assert [(m.number, m.name) for m in PG_MIGRATIONS] == [(m.number, m.name) for m in MIGRATIONS]


@aio
async def test_both_backends_have_the_same_tables_and_columns(
    tmp_path: Path, migrated: str
) -> None:
    con = await asyncpg.connect(migrated)
    try:
        rows = await con.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        )
    finally:
        await con.close()
    postgres: dict[str, tuple[str, ...]] = {}
    for table, column in rows:
        postgres[table] = (*postgres.get(table, ()), column)
    store = await SQLiteStore.open(tmp_path / "db")
    await store.close()
    with sqlite3.connect(tmp_path / "db") as db:
        sqlite = {
            table: tuple(c[1] for c in db.execute(f"PRAGMA table_info({table})"))
            for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    # Claims and leases are PostgreSQL's alone: processes sharing a shard agree there who
    # answers, and for how long a claim stands.
    assert postgres.pop("claims") == ("id", "created", "lease")
    assert postgres.pop("leases") == ("id", "holder", "expires")
    assert postgres == sqlite
    # ...and db copy moves every column of every table (named, so their order needn't match).
    assert {t: set(c) for t, c in sqlite.items() if t != "migrations"} == {
        t: set(c) for t, c in TABLES.items()
    }


@aio
async def test_connections_the_server_dropped_are_made_again(migrated: str) -> None:
    """A server restart (or an administrator) ends the pool's connections; the next actions
    get new ones, and nothing acknowledged is lost."""
    async with open_service(migrated) as service:
        start = await begun(service)
        admin = await asyncpg.connect(ADMIN)
        try:
            ended = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1",
                migrated.rpartition("/")[2],
            )
        finally:
            await admin.close()
        assert ended >= 1
        await asyncio.sleep(0.05)  # the pool hears of it
        for n in range(1, 4):
            moved = await service.act(SCOPE, Life(actor="ann", mode="gain", amount=1))
            assert moved.version == start.version + n
