"""/house exclude and /house include through Discord (issue 26, filters by tag): the tag is
picked from the vocabulary's choices, only server managers change it, a game keeps the tags it
started with and its board says so, and no entry carrying an excluded tag comes up."""

from __future__ import annotations

from pathlib import Path

from bot.engine.house import HouseRules
from bot.engine.tags import TAGS
from tests.e2e.table import Table, board_of, is_ephemeral, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord


@aio
async def test_exclude_a_tag_through_discord(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake
        house = next(c for c in fake.synced_commands() if c["name"] == "house")
        for name in ("exclude", "include"):
            sub = next(o for o in house["options"] if o["name"] == name)
            tag = next(o for o in sub["options"] if o["name"] == "tag")
            assert [c["value"] for c in tag["choices"]] == list(TAGS)
            assert all(len(c["name"]) <= 100 for c in tag["choices"])

        refused = await t.slash("house exclude", {"tag": "swingy"}, user=fake.player)
        assert is_ephemeral(refused)
        assert text_of(refused) == "Changing the house rules needs the Manage Server permission."
        saved = await t.slash("house exclude", {"tag": "swingy"}, user=fake.owner)
        assert is_ephemeral(saved)
        assert "Excluded tags: swingy." in text_of(saved)
        again = await t.slash("house exclude", {"tag": "swingy"}, user=fake.owner)
        assert "Entries tagged swingy are left out already." in text_of(again)
        assert (await t.service.settings(fake.guild_id)).house == HouseRules(exclude=("swingy",))
        shown = await t.slash("house show", user=fake.player)
        assert "Excluded tags: swingy." in text_of(shown)

        await t.game("classic", players=2, seed=5)
        board = await board_of(t)
        assert "House rules: entries tagged swingy left out." in text_of(board)
        for _ in range(20):
            await t.slash("chaos roll", {"list": "chaos"}, user=fake.owner)
        game = (await t.current()).game
        swingy = {e.id for e in game.ruleset.table("chaos").entries if "swingy" in e.tags}
        rolled = [e for e in game.events if e["type"] == "roll" and e["table"] == "chaos"]
        assert len(rolled) >= 20
        assert any(r.get("denied") for r in rolled)  # the game met the rule
        assert not [r for r in rolled if r["entry"]["id"] in swingy]

        busy = await t.slash("house include", {"tag": "swingy"}, user=fake.owner)
        assert "A game is running here" in text_of(busy)
        later = await t.slash(
            "house include", {"tag": "swingy", "next_game": True}, user=fake.owner
        )
        assert "They apply from the next game" in text_of(later)
        assert (await t.service.settings(fake.guild_id)).house == HouseRules()
        assert (await t.current()).game.state.house == HouseRules(exclude=("swingy",))
        ended = await t.slash("game end", user=fake.owner)
        assert "Played with house rules: entries tagged swingy left out." in text_of(ended)
