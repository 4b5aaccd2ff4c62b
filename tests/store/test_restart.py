"""Every connection the bot holds comes back after the PostgreSQL server restarts.

The holders are found, not listed: every connection the bot opens comes from
:mod:`bot.store.pgconnect` (a sweep of the source checks that nothing else opens one), and
names its process and holder in ``application_name``. So the server itself says who holds a
connection (``pg_stat_activity``): each holder seen before a crash of the server (``pg_ctl
stop -m immediate``, on a server of the test's own) must be seen again afterwards, working,
and no task of the bot may end with an error nobody retrieved.
"""

from __future__ import annotations

import ast
import asyncio
import gc
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.client.identify import PostgresGate
from bot.engine import Life
from bot.store import pgconnect
from tests.pgserver import OwnServer, own_server_for_test
from tests.store.helpers import SCOPE, aio, begun, open_service

ROOT = Path(__file__).resolve().parents[2]
GAIN = Life(actor="ann", mode="gain", amount=1)
# The calls that open a connection to PostgreSQL, by the name they end with.
OPENERS = {"connect", "create_pool", "Pool"}


def test_only_pgconnect_opens_connections_to_postgresql() -> None:
    """Whatever holds a connection got it from bot.store.pgconnect, so it comes back after a
    restart by construction: a module that opened one of its own would hold it for ever."""
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path == ROOT / "bot" / "store" / "pgconnect.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("asyncpg"):
                found += [f"{where}: imports {a.name}" for a in node.names if a.name in OPENERS]
            if isinstance(node, ast.Call) and _asyncpg_opener(node.func):
                found.append(f"{where}: {ast.unparse(node.func)}()")
    assert not found, found


def _asyncpg_opener(func: ast.expr) -> bool:
    """Whether a call's function is asyncpg's way of opening a connection or a pool."""
    if not isinstance(func, ast.Attribute) or func.attr not in OPENERS:
        return False
    base = func.value
    while isinstance(base, ast.Attribute):
        base = base.value
    return isinstance(base, ast.Name) and base.id == "asyncpg"


@pytest.fixture
def server() -> Iterator[OwnServer]:
    with own_server_for_test() as started:
        yield started


async def holders(admin_url: str) -> set[str]:
    """The holders of this process whose connections the server has now."""
    con = await asyncpg.connect(admin_url)
    try:
        names = await con.fetch(
            "SELECT application_name FROM pg_stat_activity WHERE application_name LIKE $1",
            f"{pgconnect.APPLICATION} {os.getpid()} %",
        )
    finally:
        await con.close()
    return {row[0].rsplit(" ", 1)[1] for row in names}


class Unretrieved:
    """The loop's reports of errors nobody handled ("Task exception was never retrieved")."""

    def __init__(self) -> None:
        self.reports: list[dict[str, Any]] = []

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self.reports.append(context)
        loop.default_exception_handler(context)


@aio
async def test_every_holder_comes_back_after_a_crash_of_the_server(server: OwnServer) -> None:
    unretrieved = Unretrieved()
    asyncio.get_running_loop().set_exception_handler(unretrieved)
    url = server.create_database("chaos")
    app = secrets.randbelow(1 << 60)
    gate = await PostgresGate.connect(url)
    try:
        async with open_service(url) as service:
            start = await begun(service)
            await service.act(SCOPE, GAIN, interaction="1")  # claimed: a lease is kept
            await gate.turn(app, 0)
            before = await holders(server.admin_url)
            assert before == {"store", "identify"}

            server.restart(down_for=1.0)

            await service.act(SCOPE, GAIN, interaction="2")
            await gate.turn(app, 1)
            await asyncio.sleep(2.0)  # a lease renewal or two, and the turn given back
            assert await holders(server.admin_url) == before
            now = await service.current(SCOPE)
            assert now.version == start.version + 2
    finally:
        await gate.close()
    gc.collect()  # a task that failed unseen is reported when it is collected
    await asyncio.sleep(0)
    assert not unretrieved.reports, unretrieved.reports
