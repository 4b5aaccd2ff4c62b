"""/middle through Discord: cards going into the shared zone and being played from it."""

from __future__ import annotations

from typing import Any

from tests.e2e.table import Table, is_ephemeral, text_of
from tests.fakediscord.plugin import aio


def middle_of(game) -> dict[int, str]:
    return {card.number: card.name for card in game.state.middle.values()}


@aio
async def test_the_middle_world_takes_one_play_per_player_per_turn(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("lists")
        added = await t.slash("middle add", {"card": "  Lightning   Bolt "}, user=player)
        await t.slash("middle add", {"card": "Giant Growth"}, user=owner)
        assert not is_ephemeral(added)
        cards = middle_of((await t.current()).game)
        bolt = next(i for i, name in cards.items() if name == "Lightning Bolt")
        growth = next(i for i, name in cards.items() if name == "Giant Growth")
        assert (bolt, growth) == (1, 2)  # the middle's first cards, as people count (issue 24)
        assert f"M{bolt} Lightning Bolt goes into the middle (player)" in text_of(added)

        listed = await t.slash("middle list", user=owner)
        assert is_ephemeral(listed)
        assert listed["data"]["embeds"][0]["title"] == "The middle world"
        assert f"M{bolt} Lightning Bolt (from player, turn 1)" in text_of(listed)
        assert "playable from next turn" not in text_of(listed)  # the middle world has no wait

        _, offered = await t.fake.autocomplete("middle play", {"id": ""}, "id", user=player)
        assert [(c["name"], c["value"]) for c in offered["data"]["choices"]] == [
            (f"M{bolt} Lightning Bolt", f"M{bolt}"),
            (f"M{growth} Giant Growth", f"M{growth}"),
        ]
        played = await t.slash("middle play", {"id": f"M{bolt}"}, user=player)
        assert played["data"]["embeds"][0]["title"] == f"player plays M{bolt} Lightning Bolt"
        assert bolt not in middle_of((await t.current()).game)

        before = (await t.current()).version
        second = await t.slash("middle play", {"id": f"#{growth}"}, user=player)
        assert is_ephemeral(second)
        assert "player has already played 1 card from the middle world this turn" in text_of(second)
        assert (await t.current()).version == before
        assert growth in middle_of((await t.current()).game)

        other = await t.slash("middle play", {"id": str(growth)}, user=owner)  # a play of their own
        assert f"owner plays M{growth} Giant Growth" in text_of(other)


@aio
async def test_the_decks_middle_plays_a_card_from_the_turn_after(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("deck")
        await t.slash("middle add", {"card": "Llanowar Elves"}, user=owner)
        (card,) = middle_of((await t.current()).game)

        listed = await t.slash("middle list", user=player)
        assert listed["data"]["embeds"][0]["title"] == "The middle"
        assert f"M{card} Llanowar Elves (from owner, turn 1, playable from next turn)" in text_of(
            listed
        )
        early = await t.slash("middle play", {"id": f"M{card}"}, user=player)
        assert is_ephemeral(early)
        assert "it can be played from next turn on" in text_of(early)

        await t.slash("turn next", {"override": True}, user=owner)
        listed = await t.slash("middle list", user=player)
        assert "playable from next turn" not in text_of(listed)

        played = await t.slash("middle play", {"id": f"m{card}"}, user=player)

        assert played["data"]["embeds"][0]["title"] == f"player plays M{card} Llanowar Elves"
        assert not middle_of((await t.current()).game)
        empty = await t.slash("middle list", user=player)
        assert "The middle is empty." in text_of(empty)


@aio
async def test_classic_has_no_middle(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic")
        before = (await t.current()).version
        commands: list[tuple[str, dict[str, Any]]] = [
            ("middle add", {"card": "Lightning Bolt"}),
            ("middle play", {"id": "M1"}),
            ("middle list", {}),
        ]
        for command, options in commands:
            body = await t.slash(command, options, user=owner)
            assert is_ephemeral(body), command
            assert "Classic Chaos has no middle" in text_of(body), command
        assert (await t.current()).version == before


@aio
async def test_playing_a_card_that_isnt_there_is_refused(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("lists")
        body = await t.slash("middle play", {"id": "42"}, user=owner)
        assert is_ephemeral(body)
        assert "no card M42 in the middle" in text_of(body)
        outsider = t.fake.add_user("passer-by")
        body = await t.slash("middle add", {"card": "Shock"}, user=outsider)
        assert is_ephemeral(body)
        assert not (await t.current()).game.state.middle
