"""Offered rolls through Discord: a button per offered list under the result, taken once."""

from __future__ import annotations

from bot.engine import actions as a
from tests.e2e.table import Table, is_ephemeral, labels, seed_where, text_of
from tests.fakediscord.plugin import aio


def offers_the_vortex(game, seats) -> bool:
    """The host's first chaos roll offers a roll on the Vortex (and nothing else), and that
    roll offers nothing more."""
    game.act(a.RollChaos(actor=seats[0]))
    if [o.tables for o in game.state.offers.values()] != [("vortex",)]:
        return False
    game.act(a.RollChaos(actor=seats[0], table="vortex"))
    return not game.state.offers


@aio
async def test_an_offered_roll_is_a_button_the_roller_presses_once(fake_discord, tmp_path):
    seed = seed_where("lists", offers_the_vortex)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("lists", seed=seed)
        body = await t.slash("chaos roll", user=owner)
        assert labels(body) == ["Roll on The Vortex", "Next turn"]
        assert "owner may roll on The Vortex" in text_of(body)
        assert "/chaos roll list:vortex" in text_of(body)

        before = (await t.current()).version
        refused = await t.press("Roll on The Vortex", user=player)
        assert is_ephemeral(refused)
        assert "only owner, the host or a referee can take a roll" in text_of(refused)
        assert (await t.current()).version == before

        taken = await t.press("Roll on The Vortex", user=owner)

        assert not is_ephemeral(taken)
        assert "owner takes the offered roll on The Vortex" in text_of(taken)
        assert labels(taken) == ["Next turn"]
        game = (await t.current()).game
        roll = next(e for e in game.events if e["type"] == "roll" and e["table"] == "vortex")
        assert roll["player"] == game.state.order[0]
        assert roll["reason"].startswith("offered by ")
        assert game.state.offers == {}
