"""With the bot's own board delay, actions in quick succession cost one edit of the board."""

from __future__ import annotations

from pathlib import Path

from bot.client.bot import BOARD_DELAY
from tests.e2e.table import Table
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord


@aio
async def test_a_burst_of_actions_is_one_board_edit(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path, board_delay=BOARD_DELAY) as t:
        await t.game("classic", players=2)
        await t.settle()
        edits = len(t.fake.calls_to("PATCH /channels/*/messages/*"))
        await t.slash("life lose", {"amount": 1}, user=t.fake.owner)
        await t.slash("life gain", {"amount": 2}, user=t.fake.owner)
        await t.slash("life lose", {"amount": 3}, user=t.fake.owner)
        await t.settle()
        patches = t.fake.calls_to("PATCH /channels/*/messages/*")[edits:]
        assert len(patches) == 1, [c.path for c in patches]
        # ...and that one edit shows where the three actions left the game.
        assert "18 life" in str(patches[0].json["embeds"])
