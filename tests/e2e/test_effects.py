"""/effects through Discord: what stays in play, numbered, with what's left of it; ending one."""

from __future__ import annotations

from bot.engine import actions as a
from tests.e2e.table import Table, embed, is_ephemeral, seed_where, text_of
from tests.fakediscord.plugin import aio


def lasting(turns: int):
    """The host's first chaos roll starts an effect of theirs lasting `turns` turns."""

    def wanted(game, seats) -> bool:
        events = game.act(a.RollChaos(actor=seats[0]))
        return game.state.pending is None and any(
            e["type"] == "effect_started" and e["lasts"] == "turns" and e["turns"] == turns
            for e in events
        )

    return wanted


def timed(game):
    (effect,) = [e for e in game.state.effects.values() if e.kind == "effect"]
    return effect


@aio
async def test_effects_list_numbers_every_effect_with_what_is_left(fake_discord, tmp_path):
    seed = seed_where("classic", lasting(2))
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", seed=seed)
        await t.slash("chaos roll", user=owner)
        game = (await t.current()).game
        effect = timed(game)
        (world,) = [e for e in game.state.effects.values() if e.kind == "world"]

        body = await t.slash("effects list", user=player)

        assert is_ephemeral(body)
        text = text_of(body).replace("\\", "")  # without markdown escapes
        assert f"**E{world.number} {world.name} (world enchantment)**" in text
        assert f"*{world.text}*" in text  # whole, for Discord to wrap
        assert f"E{effect.number} {effect.name} (owner's, 2 turns left, this one included)" in text

        await t.slash("turn next", user=owner)
        later = text_of(await t.slash("effects list", user=player))
        assert f"E{effect.number} {effect.name} (owner's, 1 turn left, this one included)" in later


@aio
async def test_effects_end_takes_an_effect_out_by_its_number(fake_discord, tmp_path):
    seed = seed_where("classic", lasting(2))
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", seed=seed)
        await t.slash("chaos roll", user=owner)
        effect = timed((await t.current()).game)
        before = (await t.current()).version

        mine = await t.slash("effects end", {"id": f"E{effect.number}"}, user=player)
        assert is_ephemeral(mine)
        assert "the host or a referee can end that effect" in text_of(mine)
        assert (await t.current()).version == before

        body = await t.slash("effects end", {"id": f"E{effect.number}"}, user=owner)

        assert not is_ephemeral(body)
        assert f"E{effect.number} {effect.name} ends: ended by owner" in text_of(body)
        assert effect.id not in (await t.current()).game.state.effects
        listed = text_of(await t.slash("effects list", user=owner))
        assert f"E{effect.number} " not in listed


@aio
async def test_anyone_at_the_table_may_end_a_world(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        _, player = await t.game("classic")
        (world,) = (await t.current()).game.state.effects.values()

        body = await t.slash("effects end", {"id": f"#{world.number}"}, user=player)

        assert f"E{world.number} {world.name} ends: ended by player" in text_of(body)
        assert not (await t.current()).game.state.effects
        empty = await t.slash("effects list", user=player)
        assert "Nothing lasting is in play." in text_of(empty)


@aio
async def test_ending_an_effect_that_isnt_there_is_refused(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic")
        before = (await t.current()).version
        body = await t.slash("effects end", {"id": "E999"}, user=owner)
        assert is_ephemeral(body)
        assert "no effect E999 in play" in text_of(body)
        assert (await t.current()).version == before
        outsider = t.fake.add_user("passer-by")
        body = await t.slash("effects end", {"id": "1"}, user=outsider)
        assert is_ephemeral(body)


@aio
async def test_ending_the_global_card_reveals_the_next(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("deck")
        (old,) = (await t.current()).game.state.effects.values()

        body = await t.slash("effects end", {"id": str(old.number)}, user=owner)

        (new,) = (await t.current()).game.state.effects.values()
        assert new.number == old.number + 1
        assert new.kind == "global"
        assert f"{old.name} ends" in text_of(body)
        assert f"{new.name} stays in play as the Global" in text_of(body)


@aio
async def test_effects_list_without_a_game_says_so(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        body = await t.slash("effects list")
        assert is_ephemeral(body)
        assert "no game in progress" in text_of(body)


@aio
async def test_a_roll_shows_its_entry_as_hash_and_its_effect_as_e(fake_discord, tmp_path):
    """`#17` is the entry the dice read; `E2` the effect it left in play. /effects end offers
    the effects by their E-ids and takes E2, e2, #2 and 2 alike."""
    seed = seed_where("classic", lasting(2))
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic", seed=seed)
        rolled = await t.slash("chaos roll", user=owner)
        game = (await t.current()).game
        effect = timed(game)
        roll = next(
            e for e in reversed(game.events) if e["type"] == "roll" and e["table"] == "chaos"
        )
        label = game.ruleset.tables["chaos"].band(roll["result"]).label
        text = text_of(rolled).replace("\\", "")
        assert f"→ #{label}\n" in text  # the entry's number on its list; its name is the title
        assert embed(rolled)["title"] == roll["entry"]["name"]
        assert f"E{effect.number} {effect.name} (effect, owner's) lasts" in text
        assert f"#{effect.number} {effect.name}" not in text  # the old, ambiguous form is gone

        _, offered = await t.fake.autocomplete("effects end", {"id": ""}, "id", user=owner)
        choices = offered["data"]["choices"]
        assert {c["value"] for c in choices} == {
            f"E{e.number}" for e in game.state.effects.values()
        }
        assert f"E{effect.number} {effect.name}" in {c["name"] for c in choices}

        (world,) = [e for e in game.state.effects.values() if e.kind == "world"]
        for typed, which in ((f"e{effect.number}", effect), (str(world.number), world)):
            body = await t.slash("effects end", {"id": typed}, user=owner)
            assert f"E{which.number} {which.name} ends: ended by owner" in text_of(body), typed
        assert not (await t.current()).game.state.effects

        bad = await t.slash("effects end", {"id": "M3"}, user=owner)
        assert is_ephemeral(bad)
        assert "an effect is written like E2 (or just 2); got 'M3'" in text_of(bad)
