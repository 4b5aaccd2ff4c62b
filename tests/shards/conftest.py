"""A fresh PostgreSQL database per test, on the server every session and CI run has locally.

No reachable server means a skip with one line saying so, unless ``CHAOS_REQUIRE_POSTGRES=1``
(CI sets it), which turns that into a failure: CI must never skip these tests.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator

import asyncpg
import pytest

from tests.fakediscord.plugin import fake_discord

__all__ = ["fake_discord", "postgres_url"]

SERVER = "postgresql://postgres@127.0.0.1:5432"
ADMIN = SERVER + "/postgres"


def _reachable() -> str | None:
    """None if the server answers, else why not."""

    async def probe() -> None:
        connection = await asyncpg.connect(ADMIN, timeout=3)
        await connection.close()

    try:
        asyncio.run(probe())
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
        return f"{type(error).__name__}: {error}"
    return None


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(ADMIN, timeout=10)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """The URL of a new, empty database, dropped (with its connections) afterwards."""
    why = _reachable()
    if why is not None:
        message = f"PostgreSQL at {SERVER} is not reachable ({why})"
        if os.environ.get("CHAOS_REQUIRE_POSTGRES") == "1":
            pytest.fail(message + " and CHAOS_REQUIRE_POSTGRES=1", pytrace=False)
        pytest.skip(message)
    name = f"chaos_test_{secrets.token_hex(6)}"
    asyncio.run(_admin(f"CREATE DATABASE {name}"))
    try:
        yield f"{SERVER}/{name}"
    finally:
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
