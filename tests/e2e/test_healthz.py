"""GET /healthz, what a container orchestrator asks: 200 only while the bot's gateway is connected
and its database answers, 503 with a line saying which isn't otherwise. A real bot on a real
PostgreSQL database, against the fake Discord: the database is made to refuse connections, and
the shard's connection is closed, as a lost gateway would leave it."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import asyncpg
import pytest

from bot.client.bot import ChaosBot
from bot.config import Settings
from bot.service import GameService
from bot.store import Store
from bot.web.console import ConsolePages
from tests.fakediscord.plugin import GUILD_READY_TIMEOUT, aio, running
from tests.fakediscord.server import FakeDiscord
from tests.postgres import ADMIN, fresh_database


async def healthz(bot: ChaosBot) -> tuple[int, str]:
    assert bot.pages is not None
    url = f"http://127.0.0.1:{bot.pages.port}/healthz"
    async with aiohttp.ClientSession() as http, http.get(url) as answer:
        return answer.status, (await answer.text()).strip()


async def admin(statement: str) -> None:
    connection = await asyncpg.connect(ADMIN, timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture
def database() -> Iterator[str]:
    with fresh_database() as url:
        yield url


@aio
async def test_healthz_says_200_only_with_the_gateway_connected_and_the_database_answering(
    fake_discord: FakeDiscord, database: str
) -> None:
    url = database
    name = url.rsplit("/", 1)[1]
    service = GameService(await Store.open(url))
    settings = Settings(dev_guild=int(fake_discord.guild_id), database_url=url, web_port=0)
    bot = ChaosBot(service, settings, guild_ready_timeout=GUILD_READY_TIMEOUT)
    try:
        async with fake_discord, running(bot, fake_discord):
            status, line = await healthz(bot)
            assert status == 200, line
            assert line.startswith("ok: gateway connected, database "), line

            # The database refuses every connection, and the ones open are cut.
            await admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            await admin(
                f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
            )
            status, line = await healthz(bot)
            assert status == 503, line
            assert line.startswith("unhealthy: gateway connected, database unavailable ("), line
            await admin(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
            status, line = await healthz(bot)
            assert status == 200, line

            # The gateway connection is lost: unhealthy until the shard is back.
            shard = bot.get_shard(0)
            assert shard is not None
            await shard.disconnect()
            status, line = await healthz(bot)
            assert status == 503, line
            assert line.startswith("unhealthy: gateway not connected, database "), line
            await shard.reconnect()
            for _ in range(100):
                status, line = await healthz(bot)
                if status == 200:
                    break
                await asyncio.sleep(0.05)
            assert status == 200, line
    finally:
        await service.close()


def test_the_consoles_pages_have_no_healthz(tmp_path: Path) -> None:
    """The console's page server (`play --web`) has no gateway: it doesn't pretend to."""
    pages = ConsolePages(tmp_path / "games.db")
    pages.start()
    try:
        origin = urllib.parse.urlsplit(pages.link("console:default")).netloc
        with urllib.request.urlopen(f"http://{origin}/static/page.css") as served:
            assert served.status == 200  # the server is there...
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://{origin}/healthz")
        assert refused.value.code == 404  # ...without a health check
    finally:
        pages.close()
