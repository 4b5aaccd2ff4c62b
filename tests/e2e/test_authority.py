"""Who may do what, through Discord: turn powers, one chaos roll a turn, extra rolls, and
players who are away. The engine decides (bot.engine.authority); these check that every refusal
reaches the member as a private sentence, and that /settings turn_powers changes the answer."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.table import Table, is_ephemeral, refused, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord

HOST_ONLY = "only the host or a referee can"


@aio
async def test_turn_powers_are_the_hosts_until_the_server_hands_them_out(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("lists", players=2)
        await t.slash("chaos roll", user=owner)
        await t.slash("turn next", user=owner)  # the player's turn now
        version = (await t.current()).version
        refused(await t.slash("turn extra", user=player), HOST_ONLY, "give an extra turn")
        refused(
            await t.slash("turn skip", {"player": "owner"}, user=player),
            HOST_ONLY,
            "make a player skip a turn",
        )
        refused(await t.slash("turn reverse", user=player), HOST_ONLY, "reverse the turn order")
        refused(await t.slash("chaos global", user=player), HOST_ONLY, "roll a new Global")
        text = refused(
            await t.slash("chaos roll", {"list": "vortex"}, user=player),
            HOST_ONLY,
            "roll on a named list",
        )
        assert "turn_powers" in text
        assert (await t.current()).version == version

        await t.slash("settings", {"turn_powers": True}, user=owner)
        extra = await t.slash("turn extra", user=player)
        assert not is_ephemeral(extra)
        assert (await t.current()).game.state.extra_queue == [player["id"]]
        # Musical, not the Vortex: a Vortex result may send the roller away until their next turn.
        musical = await t.slash("chaos roll", {"list": "musical"}, user=player)
        assert not is_ephemeral(musical)
        # An extra roll and the seating stay the referees' whatever the setting says.
        refused(
            await t.slash("chaos roll", {"extra": True}, user=player),
            HOST_ONLY,
            "ask for an extra roll",
        )
        refused(
            await t.slash("turn seats", {"order": "player, owner"}, user=player),
            HOST_ONLY,
            "change the seating",
        )
        shown = await t.slash("settings", user=owner)
        assert "Turn powers: the active player, the host and referees" in text_of(shown)


@aio
async def test_one_chaos_roll_a_turn_and_extra_rolls_on_request(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", players=2)
        await t.slash("chaos roll", user=owner)
        state = (await t.current()).game.state
        turn_roll = state.turn_roll()
        assert turn_roll is not None
        version = (await t.current()).version
        again = await t.slash("chaos roll", user=owner)
        # The game's second roll (the first was the start roll), whatever its id.
        refused(again, "owner already made this turn's chaos roll (R2:")
        assert "ask for an extra one (`/chaos roll extra:True`)" in text_of(again)
        assert (await t.current()).version == version

        extra = await t.slash("chaos roll", {"extra": True}, user=owner)
        assert not is_ephemeral(extra)
        assert "An extra roll for owner" in text_of(extra)
        stack = (await t.current()).game.state.stack
        assert [item.purpose for item in stack if item.kind == "roll"][-1] == "extra"

        await t.slash("turn next", user=owner)  # the player's turn
        refused(await t.slash("chaos roll", {"extra": True}, user=player), HOST_ONLY)
        await t.slash("chaos roll", user=player)
        refused(await t.slash("chaos roll", user=player), "player already made this turn's")


@aio
async def test_a_player_who_is_away_only_comes_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        await t.slash("player away", user=owner)  # the host steps away on their own turn
        assert (await t.current()).game.state.active is None
        refused(await t.slash("chaos roll", user=owner), "owner is away", "player back")
        refused(await t.slash("chaos undo", user=owner), "owner is away")
        refused(await t.slash("chaos roll", user=player), "nobody is active this turn")

        moved = await t.slash("turn next", user=player)  # anyone at the table ends it
        assert "Turn 2 — player" in text_of(moved)
        assert "waived" not in text_of(moved)
        back = await t.slash("player back", user=owner)
        assert not is_ephemeral(back)
        rolled = await t.slash("chaos roll", user=owner)  # the host rolls for the player
        assert not is_ephemeral(rolled)
        assert guest["id"] not in text_of(rolled)
