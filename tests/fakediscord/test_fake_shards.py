"""Shards and several guilds on the fake Discord, driven by discord.py's own AutoShardedClient.

What Discord does and the fake must too: ``GET /gateway/bot`` recommends a shard count and
reports the session start limits; each guild's events reach only the sessions of its shard;
two IDENTIFYs of one ``max_concurrency`` bucket within 5 s get op 9 (discord.py waits and tries
again); and past ``total`` IDENTIFYs every session ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.fakediscord.gateway import AUTHENTICATION_FAILED, IDENTIFY_INTERVAL
from tests.fakediscord.plugin import GUILD_READY_TIMEOUT, aio
from tests.fakediscord.server import FakeDiscord

# Two shards of one bucket identify 5 s apart; the bound leaves room for a loaded machine.
SLOW_READY = IDENTIFY_INTERVAL + 5.0


class ShardBot(discord.AutoShardedClient):
    """A sharded client that answers /where with the guild and shard it was asked in, and notes
    which events reached it. ``eager`` identifies at once, as an uncoordinated process would;
    otherwise discord.py's own hook waits 5 s before every IDENTIFY but the first."""

    def __init__(self, fake: FakeDiscord, *, eager: bool = True, **options: Any) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            guild_ready_timeout=GUILD_READY_TIMEOUT,
            enable_debug_events=True,
            **options,
        )
        self.fake = fake
        self.eager = eager
        self.events: list[str] = []
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="where", description="Names the guild and shard.")
        async def where(interaction: discord.Interaction) -> None:
            guild = interaction.guild
            assert guild is not None
            await interaction.response.send_message(f"{guild.id} {guild.shard_id}")

    async def setup_hook(self) -> None:
        await self.tree.sync()  # global commands: usable in every guild of the fake

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not self.eager:
            await super().before_identify_hook(shard_id, initial=initial)

    async def on_socket_event_type(self, event_type: str) -> None:
        self.events.append(event_type)


@contextlib.asynccontextmanager
async def connected(
    bot: discord.Client, timeout: float = SLOW_READY
) -> AsyncIterator[asyncio.Task[None]]:
    """Log in, connect, wait until ready; yield the connection task; close afterwards."""
    await bot.login("fake-token")
    task = asyncio.create_task(bot.connect(reconnect=False))
    try:
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=timeout, return_when="FIRST_COMPLETED")
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()
            raise TimeoutError(f"the bot was not ready within {timeout} s")
        yield task
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
            await asyncio.wait_for(task, 5)


def shards_of(fake: FakeDiscord) -> list[list[int]]:
    return [i["shard"] for i in fake.identifies]


@pytest.mark.parametrize("fake_discord", [{"shards": 3, "max_concurrency": 4}], indirect=True)
@aio
async def test_gateway_bot_recommends_shards_and_counts_session_starts(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    async with fake:
        bot = ShardBot(fake)
        async with connected(bot):
            assert bot.shard_count == 3  # asked GET /gateway/bot, as AutoShardedClient does
            assert sorted(map(tuple, shards_of(fake))) == [(0, 3), (1, 3), (2, 3)]
            limits = await bot.fetch_session_start_limits()
        assert (limits.total, limits.remaining, limits.max_concurrency) == (1000, 997, 4)
        assert 0 < limits.reset_after <= 24 * 3600 * 1000
        assert fake.refused == []  # three buckets of four: all at once is allowed


@pytest.mark.parametrize("fake_discord", [{"shards": 2, "max_concurrency": 2}], indirect=True)
@aio
async def test_each_guild_and_its_interactions_reach_only_its_shard(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    second = fake.add_guild("Second Table", shard=(1, 2))
    other = fake.add_channel("table-two", guild=second)
    home = fake.shard_of(fake.guild_id, 2)
    async with fake:
        # Two processes' worth of clients: one holds shard 0, the other shard 1.
        zero = ShardBot(fake, shard_ids=[0], shard_count=2)
        one = ShardBot(fake, shard_ids=[1], shard_count=2)
        async with connected(zero), connected(one):
            await fake.wait_for_shards(2)
            owner = one if home == 1 else zero
            assert {g.id for g in owner.guilds} >= {int(fake.guild_id)}
            assert [g.id for g in one.guilds if g.id != int(fake.guild_id)] == [int(second)]
            assert int(second) not in {g.id for g in zero.guilds}

            before = (list(zero.events), list(one.events))
            _, body = await fake.slash("where", channel=other)
            assert body["data"]["content"] == f"{second} 1"
            assert zero.events == before[0]  # shard 0 never saw it
            assert one.events[len(before[1]) :] == ["INTERACTION_CREATE"]

            _, body = await fake.slash("where")  # the first guild, on its own shard
            assert body["data"]["content"] == f"{fake.guild_id} {home}"

            # An event without a guild goes to shard 0 alone.
            got = await fake.dispatch("USER_UPDATE", fake.bot_user)
            assert got == 1
            await asyncio.sleep(0.05)
            assert zero.events[-1] == "USER_UPDATE"
            assert "USER_UPDATE" not in one.events


@pytest.mark.parametrize("fake_discord", [{"shards": 2}], indirect=True)
@aio
async def test_a_guild_joined_later_arrives_on_its_shard_and_leaving_removes_it(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    async with fake:
        zero = ShardBot(fake, shard_ids=[0], shard_count=2)
        async with connected(zero):
            joined = fake.add_guild("Late Table", shard=(0, 2))
            fake.add_guild("Elsewhere", shard=(1, 2))
            await fake.gateway.flush()
            await asyncio.sleep(0.05)
            ids = {g.id for g in zero.guilds}
            assert int(joined) in ids
            assert len([g for g in zero.guilds if g.name == "Elsewhere"]) == 0
            fake.remove_guild(joined)
            await fake.gateway.flush()
            await asyncio.sleep(0.05)
            assert int(joined) not in {g.id for g in zero.guilds}


@aio
async def test_guild_ids_can_be_placed_on_chosen_shards(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    for count in (1, 2, 4, 6):
        for shard in range(count):
            guild = fake.add_guild(f"g{shard}of{count}", shard=(shard, count))
            assert (int(guild) >> 22) % count == shard
    ids = [int(g) for g in fake.guilds]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("fake_discord", [{"shards": 2, "max_concurrency": 1}], indirect=True)
@aio
async def test_a_second_identify_in_a_bucket_within_5_s_is_refused_and_retried(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    async with fake:
        # Two uncoordinated processes (shards 0 and 1, one bucket) identify at the same moment.
        zero = ShardBot(fake, shard_ids=[0], shard_count=2, eager=False)
        one = ShardBot(fake, shard_ids=[1], shard_count=2, eager=False)
        start = time.monotonic()
        async with connected(zero), connected(one):
            await fake.wait_for_shards(2, timeout=SLOW_READY)
            took = time.monotonic() - start
        # One of them was refused with op 9, waited (discord.py's hook: 5 s) and got in.
        assert len(fake.refused) == 1
        assert len(fake.identifies) == 3
        assert took >= IDENTIFY_INTERVAL


@pytest.mark.parametrize("fake_discord", [{"shards": 2, "max_concurrency": 2}], indirect=True)
@aio
async def test_different_buckets_identify_at_once(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake:
        zero = ShardBot(fake, shard_ids=[0], shard_count=2)
        one = ShardBot(fake, shard_ids=[1], shard_count=2)
        start = time.monotonic()
        async with connected(zero), connected(one):
            await fake.wait_for_shards(2)
            assert time.monotonic() - start < IDENTIFY_INTERVAL
        assert fake.refused == []


@pytest.mark.parametrize(
    "fake_discord", [{"session_starts": 2, "identify_interval": 0}], indirect=True
)
@aio
async def test_past_the_session_start_total_every_session_ends(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with fake:
        first = ShardBot(fake, shard_ids=[0], shard_count=1)
        async with connected(first) as task:
            assert (await first.fetch_session_start_limits()).remaining == 1
            second = ShardBot(fake, shard_ids=[0], shard_count=1)
            async with connected(second):
                pass
            third = ShardBot(fake, shard_ids=[0], shard_count=1)
            with pytest.raises(discord.ConnectionClosed) as closed:
                async with connected(third):
                    pass
            assert closed.value.code == AUTHENTICATION_FAILED
            with pytest.raises(discord.ConnectionClosed) as ended:
                await asyncio.wait_for(task, 5)
            assert ended.value.code == AUTHENTICATION_FAILED
        assert fake.gateway.token_reset


@pytest.mark.parametrize("fake_discord", [{"identify_interval": 0}], indirect=True)
@aio
async def test_two_sessions_on_one_shard_both_get_its_interactions(
    fake_discord: FakeDiscord,
) -> None:
    """As during a hand-over: Discord sends the shard's events to every session holding it, so
    both processes see the interaction and only the first answer is taken."""
    fake = fake_discord
    async with fake:
        old = ShardBot(fake, shard_ids=[0], shard_count=1)
        new = ShardBot(fake, shard_ids=[0], shard_count=1)
        async with connected(old), connected(new):
            assert len(fake.gateway.live_sessions()) == 2
            payload, body = await fake.slash("where")
            assert body["data"]["content"] == f"{fake.guild_id} 0"
            answers = await fake.recorder.wait_until(
                lambda: (
                    calls
                    if len(calls := fake.calls_to(f"POST /interactions/{payload['id']}/*")) == 2
                    and all(c.status for c in calls)
                    else None
                ),
                5,
            )
            assert sorted(c.status or 0 for c in answers) == [200, 400]
            assert old.events.count("INTERACTION_CREATE") == 1
            assert new.events.count("INTERACTION_CREATE") == 1
