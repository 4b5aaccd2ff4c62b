"""The recap through Discord: the answer that ends a game carries its story as one more embed
(winner or who was left, who went out and how, counts, the seed and `/game verify`), within
Discord's limits."""

from __future__ import annotations

from typing import Any

from bot.client.embeds import EMBEDS_PER_MESSAGE, MESSAGE_LIMIT
from bot.render.recap import recap
from tests.e2e.table import Table, text_of
from tests.fakediscord.plugin import aio


def embed_size(embed: dict[str, Any]) -> int:
    fields = sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields") or [])
    return len(embed.get("title") or "") + len(embed.get("description") or "") + fields


@aio
async def test_the_last_one_standing_gets_a_recap(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _player, _guest = await t.game("lists", life=20, players=3)  # lists: no spite
        await t.slash("chaos roll", user=owner)
        await t.slash("life lose", {"amount": 20, "player": "guest2"}, user=owner)
        ended = await t.slash("life lose", {"amount": 30, "player": "player"}, user=owner)

        embeds = ended["data"]["embeds"]
        told = embeds[-1]
        assert told["title"] == "owner wins: owner is the last one standing."
        rows = told["description"].splitlines()
        assert rows[:3] == [
            "**owner** — winner",
            "**player** — out on turn 1: dropped below 1 life",
            "**guest2** — out on turn 1: dropped below 1 life",
        ]
        events = await t.service.log(f"{t.fake.guild_id}:{t.fake.channel_id}", 1_000_000)
        summary = recap(events)
        assert summary is not None
        assert summary.salt
        assert f"1 turn played, {summary.rolls} roll" in told["description"]
        assert "Biggest life swing: player -30 on turn 1, to -10" in told["description"]
        assert rows[-1].startswith(f"Seed {summary.seed}, salt {summary.salt}: ")
        assert rows[-1].endswith("`/game verify`.")
        assert len(embeds) <= EMBEDS_PER_MESSAGE
        assert sum(embed_size(e) for e in embeds) <= MESSAGE_LIMIT


@aio
async def test_a_game_ended_by_its_host_tells_who_was_left(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic", life=20)
        for _ in range(3):
            await t.slash("chaos roll", {"extra": True}, user=owner)
        ended = await t.slash("game end", user=owner)
        text = text_of(ended)
        assert "Game over: ended by owner." in text  # what the action did comes first
        told = ended["data"]["embeds"][-1]
        assert told["title"] == "Game over (ended by owner). Still in at the end: owner, player."
        assert "**owner** — still in at the end" in told["description"]
        assert "`/game verify`" in told["description"]
