"""/turn: next (and its override), extra, skip, reverse, seats; the Next turn button."""

from __future__ import annotations

from tests.e2e.table import Table, board_of, is_ephemeral, labels, refused, text_of
from tests.fakediscord.plugin import aio

MANAGE_GUILD = 1 << 5


async def active_name(t: Table):
    state = (await t.current()).game.state
    return state.players[state.active].name


async def pass_turn(t: Table, user):
    """The active player's chaos roll, then /turn next, both by `user`."""
    await t.slash("chaos roll", user=user)
    return await t.slash("turn next", user=user)


@aio
async def test_next_waits_for_the_chaos_roll(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", players=2)
        version = (await t.current()).version
        refused(await t.slash("turn next", user=owner), "hasn't made this turn's chaos roll")
        assert (await t.current()).version == version
        assert await active_name(t) == "owner"

        rolled = await t.slash("chaos roll", user=owner)
        assert labels(rolled) == ["Next turn"]
        moved = await t.slash("turn next", user=owner)
        assert not is_ephemeral(moved)
        assert "Turn 2 — player" in text_of(moved)
        assert labels(moved) == ["Roll chaos"]
        assert await active_name(t) == "player"
        # Now it is the player's turn, and the owner still hosts.
        refused(await t.slash("turn next", user=player), "hasn't made this turn's chaos roll")


@aio
async def test_in_a_deck_game_the_turn_waits_for_the_chaos_card_to_be_drawn(fake_discord, tmp_path):
    """On Discord a deck game's chaos roll is the Draw chaos card button: the refusal says so."""
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("deck", players=2)
        said = refused(
            await t.slash("turn next", user=owner),
            "owner hasn't drawn this turn's chaos card yet: draw it first with the"
            " **Draw chaos card** button",
        )
        assert "/chaos roll" not in said
        assert t.newest_with("Draw chaos card")  # the button the refusal names is there
        said = refused(await t.slash("chaos reveal", user=owner), "draw one with the")
        assert "/chaos roll" not in said


@aio
async def test_only_a_referee_may_override_the_chaos_roll(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, referee = t.fake.owner, t.fake.player, t.fake.referee
        manager = t.fake.add_user("manager", permissions=MANAGE_GUILD)
        await t.slash("game start", {"ruleset": "classic"}, user=owner)
        await t.slash("game join", user=player)
        await t.slash("game begin", {"order": "player, owner"}, user=owner)
        override = {"override": True}

        # The active player may end their own turn, but not skip its roll.
        refused(await t.slash("turn next", override, user=player), "only the host or a referee")
        # Holding the Referee role means nothing until the server names it.
        text = refused(await t.slash("turn next", override, user=referee), "only the host or a")
        assert referee["id"] not in text
        assert (await t.current()).game.state.turn == 1

        waived = await t.slash("turn next", override, user=owner)  # the host
        assert "waived by owner" in text_of(waived)
        assert await active_name(t) == "owner"

        await t.slash("settings", {"referee_role": t.fake.referee_role_id}, user=owner)
        waived = await t.slash("turn next", override, user=referee)
        assert "waived by a referee" in text_of(waived)
        assert referee["id"] not in text_of(waived)
        assert await active_name(t) == "player"

        waived = await t.slash("turn next", override, user=manager)  # may manage the server
        assert "Turn 4 — owner" in text_of(waived)
        state = (await t.current()).game.state
        assert state.turn == 4
        waivers = [e for e in state_events(await t.current()) if e["type"] == "roll_waived"]
        assert [w["by"] for w in waivers] == [owner["id"], referee["id"], manager["id"]]


def state_events(outcome):
    return list(outcome.game.events)


@aio
async def test_an_extra_turn_comes_before_the_next_seat(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", players=2)
        refused(await t.slash("turn extra", user=player), "only the host or a referee can give")
        extra = await t.slash("turn extra", user=owner)
        assert not is_ephemeral(extra)
        assert "extra turn" in text_of(await board_of(t))

        moved = await pass_turn(t, owner)
        assert "Turn 2 — owner" in text_of(moved)
        assert (await t.current()).game.state.extra_turn
        moved = await pass_turn(t, owner)
        assert "Turn 3 — player" in text_of(moved)


@aio
async def test_extra_turn_for_a_named_player(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _, _ = await t.game("classic", players=3)
        await t.slash("turn extra", {"player": "guest2"}, user=owner)
        moved = await pass_turn(t, owner)
        assert "Turn 2 — guest2" in text_of(moved)
        refused(await t.slash("turn extra", {"player": "nobody"}, user=owner), "'nobody'")


@aio
async def test_a_skipped_player_is_passed_over_once(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        refused(
            await t.slash("turn skip", {"player": "owner"}, user=guest),
            "only the host or a referee can make a player skip a turn",
        )
        skipped = await t.slash("turn skip", {"player": "play"}, user=owner)
        assert not is_ephemeral(skipped)
        assert "skips next turn" in text_of(await board_of(t))

        moved = await pass_turn(t, owner)
        assert "Turn 2 — guest2" in text_of(moved)
        moved = await pass_turn(t, guest)
        assert "Turn 3 — owner" in text_of(moved)
        moved = await pass_turn(t, owner)
        assert "Turn 4 — player" in text_of(moved)
        assert player["id"] == (await t.current()).game.state.active


@aio
async def test_skip_without_a_name_skips_the_active_players_next_turn(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", players=2)
        await pass_turn(t, owner)
        await t.slash("turn skip", user=owner)  # the host, on the player's turn
        moved = await pass_turn(t, player)
        assert "Turn 3 — owner" in text_of(moved)
        moved = await pass_turn(t, owner)
        assert "Turn 4 — owner" in text_of(moved)


@aio
async def test_reverse_turns_play_around(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        refused(
            await t.slash("turn reverse", user=player), "only the host or a referee can reverse"
        )
        reversed_ = await t.slash("turn reverse", user=owner)
        assert not is_ephemeral(reversed_)
        assert "play goes ←" in text_of(await board_of(t))
        moved = await pass_turn(t, owner)
        assert "Turn 2 — guest2" in text_of(moved)
        moved = await pass_turn(t, guest)
        assert "Turn 3 — player" in text_of(moved)


@aio
async def test_seats_reseat_every_player(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        new_order = {"order": "owner, guest2, player"}
        refused(await t.slash("turn seats", new_order, user=player), "only the host or a referee")
        text = refused(await t.slash("turn seats", {"order": "owner, player"}, user=owner))
        assert "every player once: owner, player, guest2" in text
        refused(await t.slash("turn seats", {"order": "owner, zed"}, user=owner), "'zed'")

        seated = await t.slash("turn seats", new_order, user=owner)
        assert not is_ephemeral(seated)
        state = (await t.current()).game.state
        assert state.order == [owner["id"], guest["id"], player["id"]]
        moved = await pass_turn(t, owner)
        assert "Turn 2 — guest2" in text_of(moved)


@aio
async def test_next_turn_button_on_the_answer(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", players=2)
        await t.slash("chaos roll", user=owner)
        rolled = t.newest_with("Next turn")
        version = (await t.current()).version

        refused(await t.press("Next turn", user=player, message=rolled), "owner's turn")
        stranger = t.fake.add_user("stranger")
        refused(await t.press("Next turn", user=stranger, message=rolled), "not in this game")
        assert (await t.current()).version == version

        moved = await t.press("Next turn", user=owner, message=rolled)
        assert not is_ephemeral(moved)
        assert "Turn 2 — player" in text_of(moved)

        # The same button again, after the turn moved on: stale, and nothing happens.
        version = (await t.current()).version
        text = refused(await t.press("Next turn", user=owner, message=rolled), "earlier moment")
        assert "turn moved on to player (turn 2)" in text
        assert (await t.current()).version == version

        await t.slash("chaos roll", user=player)
        moved = await t.press("Next turn", user=player)
        assert "Turn 3 — owner" in text_of(moved)


@aio
async def test_a_stale_roll_button_says_what_changed(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic", players=2)
        begun = t.newest_with("Roll chaos")
        await t.slash("chaos roll", user=owner)
        version = (await t.current()).version
        text = refused(await t.press("Roll chaos", user=owner, message=begun), "earlier moment")
        assert "owner: chaos roll" in text
        assert (await t.current()).version == version


@aio
async def test_turn_commands_need_a_game_in_play(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        refused(await t.slash("turn next", user=t.fake.owner), "no game in progress")
        await t.slash("game start", {"ruleset": "classic"}, user=t.fake.owner)
        for command in ("turn next", "turn extra", "turn skip", "turn reverse"):
            refused(await t.slash(command, user=t.fake.owner), "hasn't begun")
        await t.slash("game end", user=t.fake.owner)
        refused(await t.slash("turn reverse", user=t.fake.owner), "no game in progress")
