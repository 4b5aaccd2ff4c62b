"""/player away and back, and the autocomplete of player names."""

from __future__ import annotations

from bot.engine.state import Status
from bot.engine.turns import MAX_SEATS
from tests.e2e.table import Table, board_of, components, is_ephemeral, refused, text_of
from tests.fakediscord.plugin import aio


def seat_line(board, name: str) -> str:
    """The board's seat line of the player called `name`."""
    seats = next(f["value"] for f in board["embeds"][0]["fields"] if f["name"].startswith("Seats"))
    return str(next(line for line in seats.splitlines() if line[3:].split(" ")[0] == name))


async def status_of(t: Table, user):
    return (await t.current()).game.state.players[user["id"]].status


async def pass_turn(t: Table, user):
    await t.slash("chaos roll", user=user)
    return await t.slash("turn next", user=user)


@aio
async def test_away_until_back(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        away = await t.slash("player away", user=player)
        assert not is_ephemeral(away)
        assert await status_of(t, player) is Status.AWAY
        assert "[away]" in seat_line(await board_of(t), "player")

        assert "Turn 2 — guest2" in text_of(await pass_turn(t, owner))
        assert "Turn 3 — owner" in text_of(await pass_turn(t, guest))
        refused(await t.slash("player away", user=player), "is away: the one thing")

        back = await t.slash("player back", user=player)
        assert not is_ephemeral(back)
        assert await status_of(t, player) is Status.PLAYING
        assert "away" not in seat_line(await board_of(t), "player")
        assert "Turn 4 — player" in text_of(await pass_turn(t, owner))
        refused(await t.slash("player back", user=player), "isn't away")


@aio
async def test_away_for_some_turns_comes_back_by_itself(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        await t.slash("player away", {"turns": 1}, user=player)
        assert "[away (1 turn)]" in seat_line(await board_of(t), "player")

        assert "Turn 2 — guest2" in text_of(await pass_turn(t, owner))
        assert "Turn 3 — owner" in text_of(await pass_turn(t, guest))
        assert await status_of(t, player) is Status.AWAY
        assert "Turn 4 — player" in text_of(await pass_turn(t, owner))
        assert await status_of(t, player) is Status.PLAYING


@aio
async def test_away_with_no_turns_is_back_for_the_next_one(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", players=2)
        await t.slash("player away", {"turns": 0}, user=player)
        assert await status_of(t, player) is Status.AWAY
        assert "Turn 2 — player" in text_of(await pass_turn(t, owner))
        assert await status_of(t, player) is Status.PLAYING


@aio
async def test_away_until_their_next_turn_is_a_named_choice(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        away = await t.slash("player away", {"until": "their next turn"}, user=player)
        assert "player steps away until their next turn" in text_of(away)
        assert "[away until their next turn]" in seat_line(await board_of(t), "player")
        assert "Turn 2 — player" in text_of(await pass_turn(t, owner))
        assert await status_of(t, player) is Status.PLAYING
        both = {"until": "their next turn", "turns": 2}
        refused(await t.slash("player away", both, user=guest), "either turns or until")


@aio
async def test_stepping_away_on_ones_own_turn_leaves_a_turn_anyone_may_end(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        await pass_turn(t, owner)  # the player's turn now
        await t.slash("player away", user=player)
        state = (await t.current()).game.state
        assert state.active is None
        board = await board_of(t)
        assert "left the table" in text_of(board)
        assert [c["label"] for c in components(board)] == ["Next turn"]
        refused(await t.slash("chaos roll", user=owner), "nobody is active this turn")

        moved = await t.press("Next turn", user=guest, message=board)
        assert "Turn 3 — guest2" in text_of(moved)


@aio
async def test_only_officials_send_someone_else_away(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        refused(
            await t.slash("player away", {"player": "owner"}, user=player),
            "only owner, the host or a referee can send that player away",
        )
        refused(await t.slash("player away", {"player": "zed"}, user=owner), "'zed'")
        text = refused(await t.slash("player away", user=t.fake.referee), "not in this game")
        assert t.fake.referee["id"] not in text

        await t.slash("player away", {"player": "guest2", "turns": 2}, user=owner)
        assert await status_of(t, guest) is Status.AWAY
        refused(
            await t.slash("player back", {"player": "guest2"}, user=player),
            "only guest2, the host or a referee can bring that player back",
        )
        await t.slash("player back", {"player": "GUEST2"}, user=owner)
        assert await status_of(t, guest) is Status.PLAYING


@aio
async def test_player_autocomplete_lists_the_games_players(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake
        _, nothing = await fake.autocomplete("player away", {"player": ""}, "player")
        assert nothing["data"]["choices"] == []

        _, _, guest = await t.game("classic", players=3)
        for path in ("player away", "turn skip", "player back", "turn extra"):
            _, body = await fake.autocomplete(path, {"player": ""}, "player")
            choices = body["data"]["choices"]
            assert [c["name"] for c in choices] == ["owner", "player", "guest2"], path
            # The value is the name as typed back into the option: it must find the player.
            assert all(c["value"] for c in choices)
        _, body = await fake.autocomplete("turn skip", {"player": "gu"}, "player")
        assert [c["name"] for c in body["data"]["choices"]] == ["guest2"]
        chosen = body["data"]["choices"][0]["value"]
        await t.slash("turn skip", {"player": chosen}, user=fake.owner)
        state = (await t.current()).game.state
        assert state.skips == {guest["id"]: 1}


@aio
async def test_player_autocomplete_offers_every_seat_of_a_full_table(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.slash("game start", {"ruleset": "classic"}, user=t.fake.owner)
        for n in range(MAX_SEATS - 1):
            await t.slash("game join", user=t.fake.add_user(f"seat{n:02}"))
        late = await t.slash("game join", user=t.fake.add_user("late"))
        assert "this game is full: a table has at most 16 seats" in text_of(late)
        _, body = await t.fake.autocomplete("player away", {"player": ""}, "player")
        names = [c["name"] for c in body["data"]["choices"]]
        assert len(names) == MAX_SEATS <= 25  # Discord offers 25 choices at most
        assert names[:3] == ["owner", "seat00", "seat01"]
        _, body = await t.fake.autocomplete("player away", {"player": "seat1"}, "player")
        assert [c["name"] for c in body["data"]["choices"]] == [f"seat1{n}" for n in range(5)]
