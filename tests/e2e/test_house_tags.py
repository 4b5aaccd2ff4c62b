"""/house exclude and /house include through Discord (issue 26, filters by tag): the tag is
picked from the vocabulary's choices, only server managers change it, a game keeps the tags it
started with and its board says so, and no entry carrying an excluded tag comes up."""

from __future__ import annotations

from pathlib import Path

from bot.engine.house import HouseRules
from bot.engine.tags import TAGS
from tests.e2e.table import Table, board_of, is_ephemeral, text_of
from tests.e2e.test_table import upload
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


DATA = Path(__file__).resolve().parents[1] / "data"
SLOWPOKE = (DATA / "slowpoke.yaml").read_bytes()  # every entry tagged slow


@aio
async def test_an_exclude_that_empties_an_uploaded_table_is_refused_naming_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Like a bundled list, an uploaded one is never left nothing to roll: the exclusion is
    refused with a sentence naming it."""
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner = t.fake.owner
        await upload(t, "slowpoke.yaml", SLOWPOKE)
        refused = await t.slash("house exclude", {"tag": "slow"}, user=owner)
        assert is_ephemeral(refused)
        assert text_of(refused) == (
            "Excluding slow would leave the uploaded Slowpoke List (slowpoke) nothing to roll:"
            " every entry of it is tagged or denied."
        )
        assert (await t.service.settings(t.fake.guild_id)).house == HouseRules()
        saved = await t.slash("house exclude", {"tag": "choice"}, user=owner)
        assert "Excluded tags: choice." in text_of(saved)  # Long Count is left


@aio
async def test_a_game_whose_uploaded_table_the_house_rules_empty_does_not_start(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The other order: the exclusion was set before the table was uploaded."""
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner = t.fake.owner
        await t.slash("house exclude", {"tag": "slow"}, user=owner)
        await upload(t, "slowpoke.yaml", SLOWPOKE)  # after the rule: the start is refused
        started = await t.slash("game start", {"tables": "slowpoke"}, user=owner)
        assert is_ephemeral(started)
        assert text_of(started).startswith(
            "The house rules would leave the uploaded Slowpoke List (slowpoke) nothing to roll:"
        )
        opened = await t.slash("game start", user=owner)  # no game was left half started
        assert not is_ephemeral(opened)
        assert "house rules: entries tagged slow left out" in text_of(opened)
