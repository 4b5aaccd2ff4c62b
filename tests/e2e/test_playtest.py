"""Play-test findings on Discord: what the help, the board and the refusals tell ordinary players
to do must be something they may do then."""

from __future__ import annotations

from tests.e2e.table import Table, board_of, labels, refused, seed_where, text_of
from tests.e2e.test_offers import offers_the_vortex
from tests.fakediscord.plugin import aio


@aio
async def test_help_marks_every_turn_power_as_the_host_or_a_referees(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        text = text_of(await t.slash("help", user=t.fake.player))
        for command in ("/turn extra", "/turn skip", "/turn reverse", "/chaos global"):
            [line] = [line for line in text.splitlines() if line.startswith(f"**{command}")]
            assert line.endswith("(host or referee)"), line


@aio
async def test_a_table_where_everyone_stepped_away_is_told_to_come_back(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", players=2)
        await t.slash("settings", {"referee_role": t.fake.referee_role_id}, user=owner)
        await t.slash("player away", user=player)
        await t.slash("player away", user=owner)
        board = await board_of(t)
        assert (
            "**owner's turn, but they've left the table — everyone has stepped away, so someone"
            " must come back first**"
        ) in text_of(board)
        assert labels(board) == []  # Next turn would be refused to everyone, referees too
        referee = await t.slash("turn next", user=t.fake.referee)
        refused(referee, "everyone left is away", "`/player back`")
        await t.slash("player back", user=player)
        assert labels(await board_of(t)) == ["Next turn"]


@aio
async def test_a_missing_chaos_roll_says_how_to_make_it_or_override(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic", players=2)
        refused(
            await t.slash("turn next", user=owner),
            "`/chaos roll` first",
            "`/turn next override:True`",
        )


@aio
async def test_the_board_lists_open_offers_and_hides_the_button_of_an_away_player(
    fake_discord, tmp_path
):
    seed = seed_where("lists", offers_the_vortex)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("lists", seed=seed)
        await t.slash("chaos roll", user=owner)
        board = await board_of(t)
        assert "Offered to owner by" in text_of(board)
        assert "(`/chaos roll list:vortex`)" in text_of(board)
        assert labels(board) == ["Roll on The Vortex", "Next turn"]

        await t.slash("player away", user=owner)
        board = await board_of(t)
        assert "(owner is away: it waits for them until the turn ends)" in text_of(board)
        assert labels(board) == ["Next turn"]
