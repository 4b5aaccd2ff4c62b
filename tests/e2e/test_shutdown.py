"""Stopping the bot: what it is answering is answered first."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.table import Table, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord


@aio
async def test_a_roll_in_flight_is_answered_before_the_bot_stops(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=2)
        scope = f"{t.fake.guild_id}:{t.fake.channel_id}"
        version = (await t.current()).version
        await t.bot.play.until_quiet(2)  # the last answer is all sent
        async with t.service._locks.hold(scope):  # the roll waits here, mid-way
            sending = asyncio.create_task(t.fake.slash("chaos roll", user=t.fake.owner))
            async with asyncio.timeout(2):
                while t.bot.play._quiet.is_set():  # until the bot is working on it
                    await asyncio.sleep(0.005)
            stopping = asyncio.create_task(t.bot.close())
            await asyncio.sleep(0.1)
            assert not stopping.done()  # waiting for the roll, not gone without answering
        _, answer = await sending
        await stopping
        assert "owner rolls chaos\n" in text_of(answer)
        assert "\nChaos List d20×d10 [" in text_of(answer)
        assert (await t.current()).version == version + 1
