"""Migrations: from every earlier schema and from an empty file to the newest, exactly once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite
import pytest

from bot.engine.house import HouseRules
from bot.errors import StoreError
from bot.store import HEAD, MIGRATIONS, Migration, SQLiteStore, migrate
from bot.store.migrations import applied
from tests.store.helpers import aio

NOW = 1_800_000_000.0
Seed = Callable[[aiosqlite.Connection], Awaitable[None]]


async def _seed_v1(db: aiosqlite.Connection) -> None:
    """A little of everything schema 1 holds, to check an upgrade keeps it."""
    await db.execute("INSERT INTO guild_settings VALUES ('g', 5, 'lists', 1, 'never', 0)")
    await db.execute("INSERT INTO guild_tables VALUES ('g', 'house', 1, 'text', 0)")


async def _seed_v3(db: aiosqlite.Connection) -> None:
    """Schema 3 gave guild settings their turn_powers column (left off here)."""
    await db.execute("INSERT INTO guild_settings VALUES ('g', 5, 'lists', 1, 'never', 0, 0)")
    await db.execute("INSERT INTO guild_tables VALUES ('g', 'house', 1, 'text', 0)")


async def _seed_v8(db: aiosqlite.Connection) -> None:
    """Schema 8 gave them turn_mentions and quiet (left off here too)."""
    await db.execute("INSERT INTO guild_settings VALUES ('g', 5, 'lists', 1, 'never', 0, 0, 0, '')")
    await db.execute("INSERT INTO guild_tables VALUES ('g', 'house', 1, 'text', 0)")


# What to put in a database at each schema version before upgrading it (none at version 0).
SEEDS: dict[int, Seed] = {
    1: _seed_v1,
    2: _seed_v1,
    3: _seed_v3,
    4: _seed_v3,
    5: _seed_v3,
    6: _seed_v3,
    7: _seed_v3,
    8: _seed_v8,
}  # 2, 4, 5, 6, 7 left them


async def at_version(path: Path, version: int) -> None:
    """A database at schema `version`, with that version's sample data."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrate(db, target=version)
        assert await applied(db) == list(range(1, version + 1))
        if version in SEEDS:
            await SEEDS[version](db)


async def head_schema(path: Path) -> dict[str, str]:
    async with SQLiteStore.connect(path) as store:
        return await store.schema()


def test_migrations_are_numbered_one_by_one() -> None:
    assert [m.number for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert len(MIGRATIONS) == HEAD
    # 5 (claims) and 7 (leases) are PostgreSQL's alone: SQLite's keep the number and do nothing.
    assert all(m.name and (m.statements or m.number in (5, 7)) for m in MIGRATIONS)


@pytest.mark.parametrize("version", range(HEAD), ids=lambda v: f"from-{v}")
@aio
async def test_upgrade_from_every_earlier_schema(tmp_path: Path, version: int) -> None:
    expected = await head_schema(tmp_path / "fresh.db")
    path = tmp_path / "old.db"
    await at_version(path, version)
    async with SQLiteStore.connect(path) as store:
        assert await store.migrations() == list(range(1, HEAD + 1))
        assert await store.schema() == expected
        if version >= 1:
            settings = await store.guild_settings("g")
            assert settings is not None
            assert settings.default_ruleset == "lists"
            assert settings.turn_powers is False  # the setting arrived off
            assert settings.turn_mentions is False  # so did schema 8's
            assert settings.quiet == ()
            assert settings.house == HouseRules()  # no house rules until someone sets one
            assert await store.get_table("g", "house") is not None


@aio
async def test_an_empty_file_becomes_a_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    async with SQLiteStore.connect(path) as store:
        assert await store.migrations() == list(range(1, HEAD + 1))
        assert await store.schema() == await head_schema(tmp_path / "fresh.db")


@aio
async def test_migrating_again_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "db"
    schema = await head_schema(path)
    async with aiosqlite.connect(path, isolation_level=None) as db:
        async with db.execute("SELECT * FROM migrations") as cursor:
            before = await cursor.fetchall()
        assert await migrate(db) == []
        async with db.execute("SELECT * FROM migrations") as cursor:
            assert await cursor.fetchall() == before
    assert await head_schema(path) == schema


@aio
async def test_a_failing_migration_leaves_no_trace(tmp_path: Path) -> None:
    path = tmp_path / "db"
    schema = await head_schema(path)
    broken = Migration(HEAD + 1, "broken", ("CREATE TABLE half (a)", "SELECT * FROM nowhere"))
    async with aiosqlite.connect(path, isolation_level=None) as db:
        with pytest.raises(StoreError, match=f"schema {HEAD + 1} \\(broken\\)"):
            await migrate(db, migrations=(*MIGRATIONS, broken))
        assert await applied(db) == list(range(1, HEAD + 1))
        assert not db.in_transaction
    assert await head_schema(path) == schema  # no table "half"


@aio
async def test_a_database_from_a_newer_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "db"
    newer = Migration(HEAD + 1, "from the future", ("CREATE TABLE future (a)",))
    async with aiosqlite.connect(path, isolation_level=None) as db:
        assert await migrate(db, migrations=(*MIGRATIONS, newer)) == [*range(1, HEAD + 1), HEAD + 1]
    with pytest.raises(StoreError, match="newer Chaos Referee"):
        await SQLiteStore.open(path)
