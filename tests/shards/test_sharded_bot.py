"""The real bot, sharded, in one process on the fake Discord: Discord's recommended count by
default, games in guilds on different shards, and a guild the bot leaves is forgotten."""

from __future__ import annotations

import asyncio
import inspect
import re
from pathlib import Path

import discord
import discord.gateway
import pytest

from bot.client.health import health_line
from tests.e2e.table import Table, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

# Two shards in two buckets identify at once, so the bot is ready as quickly as with one.
TWO_SHARDS = {"shards": 2, "max_concurrency": 2}


async def start_game(t: Table, channel: str) -> None:
    fake = t.fake
    await t.slash("game start", {"ruleset": "classic"}, user=fake.owner, channel=channel)
    await t.slash("game join", user=fake.player, channel=channel)
    body = await t.slash("game begin", user=fake.owner, channel=channel)
    assert "Turn 1" in text_of(body), text_of(body)


@pytest.mark.parametrize("fake_discord", [TWO_SHARDS], indirect=True)
@aio
async def test_one_process_runs_the_recommended_shards_and_plays_on_each(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    tables = {}
    for shard in (0, 1):
        guild = fake.add_guild(f"shard {shard} night", shard=(shard, 2))
        tables[shard] = (guild, fake.add_channel("chaos-table", guild=guild))
    async with fake, Table.open(fake, tmp_path) as t:
        assert t.bot.shard_count == 2  # what GET /gateway/bot recommended
        assert sorted(t.bot.shards) == [0, 1]
        await t.bot.sync_commands()  # published everywhere, for the guilds beyond the first
        for shard, (guild, channel) in tables.items():
            assert t.bot.get_guild(int(guild)).shard_id == shard  # type: ignore[union-attr]
            await start_game(t, channel)
            assert (await t.service.current(f"{guild}:{channel}")).game.state.turn == 1
        assert t.service.cached_games == 2
        line = await health_line(t.bot)
        assert line.startswith("health: shards 0-1 of 2, servers 3, games cached 2,"), line
        assert re.search(r", database [0-9.]+ ms$", line), line


@pytest.mark.parametrize("fake_discord", [TWO_SHARDS], indirect=True)
@aio
async def test_a_guild_the_bot_leaves_is_forgotten(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    leaving = fake.add_guild("leaving", shard=(1, 2))
    gone = fake.add_channel("chaos-table", guild=leaving)
    async with fake, Table.open(fake, tmp_path) as t:
        await t.bot.sync_commands()
        await start_game(t, gone)
        await t.game("classic")  # one game stays, in the first guild
        await t.settle()
        assert t.service.cached_games == 2

        fake.remove_guild(leaving)
        async with asyncio.timeout(3):
            while t.bot.get_guild(int(leaving)) is not None or t.service.cached_games != 1:
                await asyncio.sleep(0.02)
        assert t.bot.boards.kept == 0
        # Nothing is lost: the game is in the database for whichever process holds it next.
        assert (await t.service.current(f"{leaving}:{gone}")).game.state.turn == 1


def test_discord_py_still_launches_each_shard_through_launch_shard() -> None:
    """ChaosBot takes a shard's IDENTIFY turn in ``launch_shard``, before the socket opens;
    fail loudly if discord.py stops calling it (for the first try and for a retry)."""
    launch_shards = inspect.getsource(discord.AutoShardedClient.launch_shards)
    assert "self.launch_shard(gateway, shard_id, initial=initial)" in launch_shards
    launch_shard = inspect.getsource(discord.AutoShardedClient.launch_shard)
    assert "return await self.launch_shard(gateway, shard_id)" in launch_shard
    assert "before_identify" in inspect.getsource(discord.gateway.DiscordWebSocket.identify)
