"""A member's flood of button presses takes their turns, one after another, and another
channel stays answered meanwhile (bot.client.presses)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.e2e.probe import Probe
from tests.e2e.table import Table, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

PRESSES = 100


@aio
async def test_a_flood_of_presses_runs_one_at_a_time_and_leaves_another_channel_fast(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    lobby = fake.add_channel("lobby")
    async with fake, Table.open(fake, tmp_path) as t:
        await t.game("classic", players=2, seed=5)
        button = t.newest_with("Roll chaos")
        attacker = fake.add_user("clicker")
        play = t.bot.play
        press = play.press
        now = most = 0

        async def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal now, most
            now += 1
            most = max(most, now)
            try:
                return await press(*args, **kwargs)
            finally:
                now -= 1

        play.press = counted  # type: ignore[method-assign]
        async with Probe(fake, lobby) as probe:
            answers = await asyncio.gather(
                *(t.press("Roll chaos", user=attacker, message=button) for _ in range(PRESSES))
            )
        assert most == 1  # one member's presses, one after another
        for body in answers:  # each is answered with a sentence: it isn't their game
            assert body["type"] == 4, body
            assert text_of(body)
        probe.check(answers=1)
        assert (await t.current()).version == 3  # and nobody but the active player rolled
