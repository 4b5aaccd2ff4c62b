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


def staircase_waits_for_gift_economy(game, seats) -> bool:
    """The host's roll on List C is #39 Staircase, whose roll on List A is Gift Economy: the
    rolls on B and C wait for its offer of the Vortex."""
    game.act(a.RollChaos(actor=seats[0], table="c"))
    return bool(game.state.paused)


@aio
async def test_a_multi_roll_waits_for_its_offer_and_a_button_declines_it(fake_discord, tmp_path):
    # Issue 23, ruling 1: the offer inside a multi-roll is settled before its later rolls.
    seed = seed_where("lists", staircase_waits_for_gift_economy, tries=200)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("lists", seed=seed)
        body = await t.slash("chaos roll", {"list": "c"}, user=owner)
        assert labels(body) == ["Roll on The Vortex", "Decline The Vortex"]  # no Next turn
        said = text_of(body)
        assert "Staircase waits before its roll 2/3 on List B" in said
        assert "/chaos decline list:vortex" in said

        refused = await t.slash("turn next", user=owner)
        assert is_ephemeral(refused)
        assert "the turn can't end yet" in text_of(refused)
        assert "/chaos decline list:vortex" in text_of(refused)

        before = (await t.current()).version
        denied = await t.press("Decline The Vortex", user=player)
        assert is_ephemeral(denied)
        assert "only owner, the host or a referee can decline a roll a result offered" in text_of(
            denied
        )
        assert (await t.current()).version == before

        declined = await t.press("Decline The Vortex", user=owner)
        assert not is_ephemeral(declined)
        said = text_of(declined)
        assert "owner declines the offered roll on The Vortex" in said
        assert "goes on with its next roll" in said
        game = (await t.current()).game
        assert not game.state.paused
        assert not game.state.offers
        later = [e["slot"] for e in game.events if e["type"] == "roll" and e["parent"]]
        assert later[-2:] == ["2/3", "3/3"]
        assert "Decline The Vortex" not in labels(declined)


@aio
async def test_the_slash_command_declines_an_offer(fake_discord, tmp_path):
    seed = seed_where("lists", offers_the_vortex)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("lists", seed=seed)
        await t.slash("chaos roll", user=owner)
        declined = await t.slash("chaos decline", {"list": "vortex"}, user=owner)
        assert "owner declines the offered roll on The Vortex" in text_of(declined)
        assert labels(declined) == ["Next turn"]
        assert (await t.current()).game.state.offers == {}
        again = await t.slash("chaos decline", user=owner)
        assert is_ephemeral(again)
        assert "no roll is on offer to decline" in text_of(again)
