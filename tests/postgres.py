"""Real PostgreSQL databases for tests: one made afresh for each test, dropped afterwards.

The server is the one on 127.0.0.1:5432 (user postgres, trust auth). It is asked once per run
whether it answers; if it doesn't, every PostgreSQL case is skipped, and the run ends with one
line saying how many and why (``tests/conftest.py``), unless ``CHAOS_REQUIRE_POSTGRES=1`` says
they must run, as CI does: then they fail.

Each test gets ``CREATE DATABASE chaos_test_<random> TEMPLATE <the run's template>``: the
template is migrated to the newest schema once per run, so a test starts from what
``Store.open`` would make, in about 40 ms (a fresh database plus migrations takes several
times that).
"""

from __future__ import annotations

import asyncio
import atexit
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import asyncpg
import pytest

from bot.store import Store

SERVER = os.environ.get("CHAOS_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
ADMIN = f"{SERVER}/postgres"
REQUIRED = os.environ.get("CHAOS_REQUIRE_POSTGRES", "").strip() == "1"
UNREACHABLE = (
    f"no PostgreSQL server answers at {SERVER} (start it, or set CHAOS_REQUIRE_POSTGRES=1 to"
    " make this a failure)"
)

_state: dict[str, str | None] = {}
skipped: list[str] = []  # the cases skipped for want of a server, for the run's one line


def url_of(name: str) -> str:
    return f"{SERVER}/{name}"


async def _admin(*statements: str) -> None:
    con = await asyncpg.connect(ADMIN, timeout=5)
    try:
        for statement in statements:
            await con.execute(statement)
    finally:
        await con.close()


def _run(*statements: str) -> None:
    asyncio.run(_admin(*statements))


def _template() -> str | None:
    """The run's template database (made on first use), or None if the server is out of reach."""
    if "template" in _state:
        return _state["template"]
    name = f"chaos_template_{secrets.token_hex(4)}"
    try:
        _run(f"CREATE DATABASE {name}")
    except (OSError, asyncpg.PostgresError):
        _state["template"] = None
        return None

    async def migrate() -> None:
        store = await Store.open(url_of(name))
        await store.close()

    asyncio.run(migrate())
    _state["template"] = name
    atexit.register(_run, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return name


def require_server() -> str:
    """The template's name; skips the test (or fails it, when required) without a server."""
    template = _template()
    if template is None:
        if REQUIRED:
            pytest.fail(f"CHAOS_REQUIRE_POSTGRES=1, but {UNREACHABLE}")
        skipped.append(os.environ.get("PYTEST_CURRENT_TEST", "?"))
        pytest.skip(UNREACHABLE)
    return template


@contextmanager
def fresh_database(*, empty: bool = False) -> Iterator[str]:
    """The URL of a new database (migrated, or `empty`), dropped on the way out."""
    template = require_server()
    name = f"chaos_test_{secrets.token_hex(6)}"
    _run(f"CREATE DATABASE {name}" + ("" if empty else f" TEMPLATE {template}"))
    try:
        yield url_of(name)
    finally:
        _run(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
