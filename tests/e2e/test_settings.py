"""/settings through Discord: only Manage Server sees or changes them, and each one changes
how the bot plays (who referees, what /game start plays, auto-roll, secret dice)."""

from __future__ import annotations

from pathlib import Path

from bot.engine.actions import RollChaos
from bot.engine.game import Game
from bot.store import GuildSettings
from tests.e2e.table import Table, is_ephemeral, seed_where, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

NEEDS_MANAGER = "needs the Manage Server permission."


def calm_first_turn() -> int:
    """A seed whose first chaos roll asks nobody to choose anything."""

    def calm(game: Game, seats: list[str]) -> bool:
        game.act(RollChaos(actor=seats[0]))
        return game.state.pending is None

    return seed_where("classic", calm)


async def settings(t: Table) -> GuildSettings:
    return await t.service.settings(t.fake.guild_id)


@aio
async def test_only_server_managers_see_or_change_the_settings(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        seen = await t.slash("settings", user=t.fake.player)
        assert is_ephemeral(seen)
        assert text_of(seen) == f"Seeing the settings {NEEDS_MANAGER}"
        changed = await t.slash("settings", {"auto_roll": True}, user=t.fake.player)
        assert is_ephemeral(changed)
        assert text_of(changed) == f"Changing the settings {NEEDS_MANAGER}"
        assert await settings(t) == GuildSettings()

        shown = await t.slash("settings", user=t.fake.owner)
        assert is_ephemeral(shown)
        text = text_of(shown)
        assert "Referee role: none" in text
        assert "Default ruleset: classic" in text
        assert "Auto-roll: off" in text
        assert "Secret rolls: anyone may roll secretly" in text

        saved = await t.slash(
            "settings", {"auto_roll": True, "secret_rolls": "never"}, user=t.fake.owner
        )
        assert "Saved" in text_of(saved)
        assert "Auto-roll: on" in text_of(saved)
        assert "Secret rolls: nobody rolls secretly" in text_of(saved)
        assert (await settings(t)).auto_roll is True


@aio
async def test_members_with_the_referee_role_referee_every_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake
        await t.game("classic", players=2)  # the owner's turn, not yet rolled
        # Before the role is set, holding it means nothing.
        refused = await t.slash("turn next", {"override": True}, user=fake.referee)
        assert is_ephemeral(refused)

        role = int(fake.referee_role_id)
        saved = await t.slash("settings", {"referee_role": fake.referee_role_id}, user=fake.owner)
        assert f"Referee role: <@&{role}>" in text_of(saved)
        assert (await settings(t)).referee_role == role

        refused = await t.slash("turn next", {"override": True}, user=fake.player)
        assert is_ephemeral(refused)
        assert (await t.current()).game.state.turn == 1
        passed = await t.slash("turn next", {"override": True}, user=fake.referee)
        assert not is_ephemeral(passed)
        assert (await t.current()).game.state.turn == 2

        undone = await t.slash("chaos undo", user=fake.player)
        assert is_ephemeral(undone)
        assert (await t.current()).game.state.turn == 2
        await t.slash("chaos undo", user=fake.referee)
        assert (await t.current()).game.state.turn == 1

        cleared = await t.slash("settings", {"no_referee_role": True}, user=fake.owner)
        assert "Referee role: none" in text_of(cleared)
        refused = await t.slash("turn next", {"override": True}, user=fake.referee)
        assert is_ephemeral(refused)
        assert (await t.current()).game.state.turn == 1


@aio
async def test_the_default_ruleset_is_what_game_start_plays(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        _, offered = await t.fake.autocomplete(
            "settings", {"default_ruleset": "li"}, focused="default_ruleset", user=t.fake.owner
        )
        assert [c["value"] for c in offered["data"]["choices"]] == ["lists"]

        refused = await t.slash("settings", {"default_ruleset": "nope"}, user=t.fake.owner)
        assert is_ephemeral(refused)
        assert text_of(refused) == "there is no ruleset 'nope' (rulesets: classic, deck, lists)"
        assert (await settings(t)).default_ruleset == "classic"

        await t.slash("settings", {"default_ruleset": "lists"}, user=t.fake.owner)
        assert "Lists and decks of" in text_of(await t.slash("table list"))
        assert "Spite (d100)" in text_of(await t.slash("table list"))
        await t.slash("game start", user=t.fake.owner)
        assert (await t.current()).game.ruleset.id == "lists"


@aio
async def test_auto_roll_makes_the_new_turns_chaos_roll(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.slash("settings", {"auto_roll": True}, user=t.fake.owner)
        owner, player = await t.game("classic", players=2, seed=calm_first_turn())
        await t.slash("chaos roll", user=owner)  # the first turn's roll: auto-roll is per turn
        passed = await t.slash("turn next", user=owner)
        state = (await t.current()).game.state
        assert state.active == player["id"]
        assert state.rolled  # nobody pressed Roll chaos: the bot did
        events = (await t.current()).game.events
        roll = next(e for e in reversed(events) if e["type"] == "roll" and e["depth"] == 0)
        assert roll["player"] == player["id"]
        assert roll["entry"]["name"] in text_of(passed)


@aio
async def test_secret_rolls_follow_the_servers_policy(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake
        secret = {"expr": "2d6+1", "secret": True}
        allowed = await t.slash("roll dice", secret, user=fake.player)
        assert is_ephemeral(allowed)
        assert "2d6 (" in text_of(allowed)
        public = await t.slash("roll dice", {"expr": "2d6+1"}, user=fake.player)
        assert not is_ephemeral(public)

        await t.slash(
            "settings",
            {"secret_rolls": "referee", "referee_role": fake.referee_role_id},
            user=fake.owner,
        )
        refused = await t.slash("roll dice", secret, user=fake.player)
        assert is_ephemeral(refused)
        assert text_of(refused) == "Secret rolls on this server: referees only."
        by_referee = await t.slash("roll dice", secret, user=fake.referee)
        assert is_ephemeral(by_referee)
        assert "2d6 (" in text_of(by_referee)

        await t.slash("settings", {"secret_rolls": "never"}, user=fake.owner)
        refused = await t.slash("roll dice", secret, user=fake.owner)
        assert is_ephemeral(refused)
        assert text_of(refused) == "Secret rolls on this server: nobody."
        still_public = await t.slash("roll dice", {"expr": "d20"}, user=fake.player)
        assert not is_ephemeral(still_public)
        assert "1d20 (" in text_of(still_public)
