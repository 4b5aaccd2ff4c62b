"""The status board: one message per game, posted when it starts and edited after every action."""

from __future__ import annotations

import asyncio

import pytest

from bot.client.board import board_embed
from bot.client.keeper import MAX_LAG
from tests.e2e.table import (
    Table,
    board_of,
    button_id,
    components,
    is_ephemeral,
    labels,
    text_of,
)
from tests.fakediscord.plugin import aio


def seat_of_turn(message) -> str:
    """The seat line marked ▶ (the active player), without the marker."""
    embed = message["embeds"][0]
    seats = next(f["value"] for f in embed["fields"] if f["name"].startswith("Seats"))
    marked = [line for line in seats.splitlines() if "▶" in line]
    assert len(marked) == 1, seats
    return str(marked[0].replace("▶", "").split()[0])


def posts(t: Table):
    return t.fake.calls_to(f"POST /channels/{t.fake.channel_id}/messages")


def edits_of(t: Table, message_id: str):
    return t.fake.calls_to(f"PATCH /channels/{t.fake.channel_id}/messages/{message_id}")


@aio
async def test_the_board_is_posted_once_and_edited_after_every_action(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = t.fake.owner, t.fake.player
        await t.slash("game start", {"ruleset": "classic"}, user=owner)
        board = await board_of(t)
        board_id = board["id"]
        footer = board["embeds"][0]["footer"]["text"]
        assert footer.startswith("Classic Chaos · lobby · Seed commitment ")
        assert footer.endswith("every roll · game 1")
        assert labels(board) == ["Join", "Begin"]
        assert len(posts(t)) == 1

        steps = [
            ("game join", player),
            ("game begin", owner),
            ("chaos roll", owner),
            ("turn next", owner),
        ]
        seen = [text_of(board)]
        for command, user in steps:
            edited_before = len(edits_of(t, board_id))
            await t.slash(command, user=user)
            board = await board_of(t)
            assert board["id"] == board_id, f"{command} posted a new board"
            assert len(edits_of(t, board_id)) > edited_before, f"{command} didn't edit the board"
            assert text_of(board) != seen[-1], f"the board didn't change after {command}"
            seen.append(text_of(board))
            if command == "game join":
                assert "player" in text_of(board)
                assert labels(board) == ["Join", "Begin"]
            elif command == "game begin":
                assert seat_of_turn(board) == "owner"
                assert labels(board) == ["Roll chaos"]
            elif command == "chaos roll":
                assert seat_of_turn(board) == "owner"
                assert labels(board) == ["Next turn"]
            else:
                assert seat_of_turn(board) == "player"
                assert labels(board) == ["Roll chaos"]
                assert "turn 2" in board["embeds"][0]["footer"]["text"]
        # Only the answers were new messages: the board itself was posted once.
        assert len(posts(t)) == 1


@aio
async def test_a_deleted_board_is_posted_again_and_the_new_one_kept(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=2)
        old = await board_of(t)
        t.fake.delete_message(old["id"])

        await t.slash("chaos roll", user=t.fake.owner)
        new = await board_of(t)
        assert new["id"] != old["id"]
        assert labels(new) == ["Next turn"]
        assert seat_of_turn(new) == "owner"
        posted = len(posts(t))

        await t.slash("turn next", user=t.fake.owner)
        again = await board_of(t)
        assert again["id"] == new["id"]
        assert edits_of(t, new["id"]), "the new board wasn't edited"
        assert seat_of_turn(again) == "player"
        assert len(posts(t)) == posted, "a third board was posted"


@aio
async def test_a_finished_games_board_has_no_buttons(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=2)
        board_id = (await board_of(t))["id"]
        answer = await t.slash("game end", user=t.fake.owner)
        assert not is_ephemeral(answer)
        assert not components(answer["data"])
        board = await board_of(t)
        assert board["id"] == board_id
        assert components(board) == []
        assert "**Game over after 1 turn**" in text_of(board)


@aio
async def test_the_boards_buttons_play_the_game(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = t.fake.owner, t.fake.player
        await t.slash("game start", {"ruleset": "classic"}, user=owner)
        board = await board_of(t)
        joined = await t.press("Join", user=player, message=board)
        assert not is_ephemeral(joined)
        assert "player" in text_of(joined)

        board = await board_of(t)
        begun = await t.press("Begin", user=owner, message=board)
        assert "Seats are locked" in text_of(begun)

        board = await board_of(t)
        await t.press("Roll chaos", user=owner, message=board)
        board = await board_of(t)
        moved = await t.press("Next turn", user=owner, message=board)
        assert "Turn 2" in text_of(moved)
        board = await board_of(t)
        assert seat_of_turn(board) == "player"
        assert (await t.current()).game.state.active == player["id"]


@aio
async def test_a_press_on_the_board_by_someone_else_changes_nothing(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=2)
        board = await board_of(t)
        before = (await t.current()).version
        answer = await t.press("Roll chaos", user=t.fake.player, message=board)
        assert is_ephemeral(answer)
        assert "owner's turn" in text_of(answer)
        assert (await t.current()).version == before
        assert (await board_of(t))["embeds"] == board["embeds"]


@aio
async def test_a_thread_keeps_its_own_game_and_board(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        thread = t.fake.add_thread("side game")
        await t.game("classic", players=2)
        await t.slash("game start", {"ruleset": "deck"}, user=t.fake.player, channel=thread)
        here, there = await board_of(t), await board_of(t, thread)
        assert labels(there) == ["Join", "Begin"]
        assert labels(here) == ["Roll chaos"]

        await t.slash("chaos roll", user=t.fake.owner)
        assert (await board_of(t, thread))["embeds"] == there["embeds"]
        assert labels(await board_of(t)) == ["Next turn"]


@aio
async def test_the_board_never_shows_an_action_whose_save_is_under_way(fake_discord, tmp_path):
    """The board waits for players' answers at most MAX_LAG seconds, then draws: while a save
    is stalled past that, it draws the version committed before it (what bot.reading
    publishes), not the game in memory, which that action has already moved."""
    async with fake_discord, Table.open(fake_discord, tmp_path, board_delay=0.2) as t:
        owner = t.fake.owner
        await t.game("classic")
        await t.settle()
        store = t.service.store
        save = store.append_events
        gate, stalled = asyncio.Event(), asyncio.Event()

        async def slow(*args, **kwargs):
            if args[1][0]["action"].get("amount") == 5:  # (record, events, ...)
                stalled.set()
                await gate.wait()
            return await save(*args, **kwargs)

        store.append_events = slow  # type: ignore[method-assign]
        await t.slash("life gain", {"amount": 1}, user=owner)  # its board waits 0.2 s
        patched = len(t.fake.calls_to("PATCH /channels/*/messages/*"))
        gaining = asyncio.create_task(t.fake.slash("life gain", {"amount": 5}, user=owner))
        try:
            await stalled.wait()
            async with asyncio.timeout(MAX_LAG + 5):
                while len(t.fake.calls_to("PATCH /channels/*/messages/*")) == patched:
                    await asyncio.sleep(0.05)
            drawn = str(t.fake.calls_to("PATCH /channels/*/messages/*")[patched].json["embeds"])
            assert "21 life" in drawn
            assert "26 life" not in drawn
        finally:
            gate.set()
            await gaining
        assert "26 life" in str((await board_of(t))["embeds"])


@aio
async def test_a_board_that_would_look_the_same_is_not_edited_and_a_change_still_is(
    fake_discord, tmp_path
):
    """The keeper asked again for a game that hasn't changed sends no edit: the message shows
    it already. The next action's board is edited, and shows what the game now is."""
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner = t.fake.owner
        await t.game("classic", players=2)
        board = await board_of(t)
        scope = f"{t.fake.guild_id}:{t.fake.channel_id}"
        outcome = await t.current()
        edited = len(edits_of(t, board["id"]))
        for _ in range(3):
            t.bot.boards.touch(scope, int(t.fake.channel_id), outcome.game_id, outcome.game)
            await t.settle()
        assert len(edits_of(t, board["id"])) == edited
        assert await board_of(t) == board

        await t.slash("chaos roll", user=owner)
        rolled = await board_of(t)
        assert rolled["id"] == board["id"]
        assert len(edits_of(t, board["id"])) == edited + 1
        now = await t.current()
        assert rolled["embeds"] == [board_embed(now.game, now.game_id).to_dict()]
        assert labels(rolled) == ["Next turn"]
        assert button_id(rolled, "Next turn") == f"cr:next:{now.game_id}:{now.game.seq}"


@pytest.mark.parametrize("fake_discord", [{"identify_interval": 0}], indirect=True)
@aio
async def test_a_restarted_bot_edits_the_board_it_finds_even_if_it_looks_the_same(
    fake_discord, tmp_path
):
    """What a board shows is known only to the process that sent it: a restarted bot edits
    the board on its first redraw, so a message changed meanwhile is drawn again."""
    fake = fake_discord
    async with fake:
        async with Table.open(fake, tmp_path, db="games.db") as first:
            await first.game("classic", players=2)
            board = await board_of(first)
        edited = len(edits_of(first, board["id"]))
        async with Table.open(fake, tmp_path, db="games.db") as second:
            scope = f"{fake.guild_id}:{fake.channel_id}"
            outcome = await second.current()
            second.bot.boards.touch(scope, int(fake.channel_id), outcome.game_id, outcome.game)
            assert await board_of(second) == board
            assert len(edits_of(second, board["id"])) == edited + 1
