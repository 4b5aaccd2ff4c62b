"""/game: start, join, leave, begin, status, end and export, and the Join and Begin buttons."""

from __future__ import annotations

import json

from bot.engine.game import Game
from bot.engine.state import Phase, Status
from tests.e2e.table import Table, board_of, is_ephemeral, labels, refused, text_of
from tests.fakediscord.plugin import aio

MANAGE_GUILD = 1 << 5


def seats(state) -> list[str]:
    return [state.players[p].name for p in state.order]


@aio
async def test_start_takes_ruleset_life_and_seed(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        options = {"ruleset": "lists", "life": 30, "seed": 5}
        answer = await t.slash("game start", options, user=t.fake.owner)
        assert not is_ephemeral(answer)
        # The seed is kept quiet while the game goes on: the dice follow from it.
        assert "lists game (30 life)" in text_of(answer)
        assert "seed" not in text_of(answer)
        assert labels(answer) == ["Join", "Begin"]
        current = await t.current()
        state = current.game.state
        assert current.game.ruleset.id == "lists"
        assert state.seed == 5
        assert state.phase is Phase.LOBBY
        assert state.host == t.fake.owner["id"]
        assert state.players[t.fake.owner["id"]].life == 30
        board = await board_of(t)
        assert "lobby" in board["embeds"][0]["footer"]["text"]


@aio
async def test_start_without_a_ruleset_plays_the_servers_default(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.slash("game start", user=t.fake.owner)
        assert (await t.current()).game.ruleset.id == "classic"
        await t.slash("game end", user=t.fake.owner)

        saved = await t.slash("settings", {"default_ruleset": "deck"}, user=t.fake.owner)
        assert is_ephemeral(saved)
        answer = await t.slash("game start", user=t.fake.player)
        assert "deck game" in text_of(answer)
        current = await t.current()
        assert current.game.ruleset.id == "deck"
        assert current.game.state.host == t.fake.player["id"]


@aio
async def test_a_second_start_is_refused_while_a_game_runs(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.slash("game start", {"ruleset": "lists"}, user=t.fake.owner)
        first = await t.current()
        answer = await t.slash("game start", {"ruleset": "deck"}, user=t.fake.player)
        refused(answer, "already a lists game", "hosted by owner")
        current = await t.current()
        assert (current.game_id, current.version) == (first.game_id, first.version)
        assert current.game.ruleset.id == "lists"


@aio
async def test_an_unknown_ruleset_is_refused_with_the_known_ones(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        answer = await t.slash("game start", {"ruleset": "chess"}, user=t.fake.owner)
        refused(answer, "chess", "classic", "deck", "lists")


@aio
async def test_ruleset_autocomplete_offers_the_bundled_rulesets(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path):
        _, every = await fake_discord.autocomplete("game start", {"ruleset": ""}, "ruleset")
        values = [c["value"] for c in every["data"]["choices"]]
        assert sorted(values) == ["classic", "deck", "lists"]
        _, some = await fake_discord.autocomplete("game start", {"ruleset": "li"}, "ruleset")
        assert [c["value"] for c in some["data"]["choices"]] == ["lists"]


@aio
async def test_commands_without_a_game_say_so(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        for command in ("game join", "game leave", "game begin", "game status", "game end"):
            refused(await t.slash(command, user=t.fake.owner), "no game in progress")
        refused(await t.slash("game export", user=t.fake.owner), "no game in progress")


@aio
async def test_join_and_leave_the_lobby(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = t.fake.owner, t.fake.player
        await t.slash("game start", {"ruleset": "classic"}, user=owner)
        joined = await t.slash("game join", user=player)
        assert not is_ephemeral(joined)
        assert text_of(joined) == "player joined"  # the title says it all, once
        assert player["id"] in (await t.current()).game.state.players

        refused(await t.slash("game join", user=player), "already in this game")
        refused(await t.slash("game leave", user=owner), "host can't leave")
        refused(await t.slash("game leave", user=t.fake.referee), "not in this game")

        left = await t.slash("game leave", user=player)
        assert not is_ephemeral(left)
        assert player["id"] not in (await t.current()).game.state.players
        board = await board_of(t)
        assert "At the table: owner (host)." in text_of(board)


@aio
async def test_leaving_a_game_in_progress_concedes(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, guest = await t.game("classic", players=3)
        conceded = await t.slash("game leave", user=guest)
        assert "guest2 is out" in text_of(conceded)
        state = (await t.current()).game.state
        assert state.players[guest["id"]].status is Status.OUT
        assert state.phase is Phase.PLAYING

        refused(await t.slash("game leave", user=guest), "already out")
        last = await t.slash("game leave", user=player)
        assert "owner wins" in text_of(last)
        assert labels(last) == []
        final = await t.slash("game status", user=owner)  # the finished game's board
        assert not is_ephemeral(final)
        assert "**Game over after " in text_of(final)
        assert labels(final) == []


@aio
async def test_begin_seats_in_join_order_or_the_order_given(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = t.fake.owner, t.fake.player
        guest = t.fake.add_user("Guest Star")
        await t.slash("game start", {"ruleset": "classic"}, user=owner)
        await t.slash("game join", user=player)
        await t.slash("game join", user=guest)

        text = refused(
            await t.slash("game begin", {"order": "player, bob, owner"}, user=owner), "'bob'"
        )
        assert "owner, player, Guest Star" in text
        text = refused(await t.slash("game begin", {"order": "player, owner"}, user=owner))
        assert "every player once: owner, player, Guest Star" in text
        assert (await t.current()).game.state.phase is Phase.LOBBY

        begun = await t.slash("game begin", {"order": "guest star, Player, OWNER"}, user=owner)
        assert "Seats are locked: Guest Star, player, owner." in text_of(begun)
        assert labels(begun) == ["Roll chaos"]
        state = (await t.current()).game.state
        assert seats(state) == ["Guest Star", "player", "owner"]
        assert state.active == guest["id"]


@aio
async def test_begin_without_order_seats_in_join_order(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=3)
        state = (await t.current()).game.state
        assert seats(state) == ["owner", "player", "guest2"]
        assert state.active == t.fake.owner["id"]
        refused(await t.slash("game join", user=t.fake.referee), "already begun")
        refused(await t.slash("game begin", user=t.fake.owner), "already begun")


@aio
async def test_only_the_host_or_a_referee_begins_or_ends(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player, referee = t.fake.owner, t.fake.player, t.fake.referee
        manager = t.fake.add_user("manager", permissions=MANAGE_GUILD)
        # The player hosts; the owner (who may manage the server) is only a guest here.
        await t.slash("game start", {"ruleset": "classic"}, user=player)
        await t.slash("game join", user=owner)
        refused(await t.slash("game begin", user=referee), "only the host or a referee")
        await t.slash("settings", {"referee_role": t.fake.referee_role_id}, user=owner)
        begun = await t.slash("game begin", user=referee)
        assert "Seats are locked" in text_of(begun)

        stranger = t.fake.add_user("stranger")
        version = (await t.current()).version
        refused(await t.slash("game end", user=stranger), "only the host or a referee")
        assert (await t.current()).version == version
        ended = await t.slash("game end", user=manager)
        assert "Game over: ended by a referee." in text_of(ended)
        assert manager["id"] not in text_of(ended)
        final = await t.slash("game status", user=player)
        assert "**Game over after " in text_of(final)
        assert labels(final) == []


@aio
async def test_end_by_the_host_clears_the_table(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=2)
        refused(await t.slash("game end", user=t.fake.player), "only the host or a referee")
        ended = await t.slash("game end", user=t.fake.owner)
        assert not is_ephemeral(ended)
        assert labels(ended) == []
        again = await t.slash("game start", {"ruleset": "deck"}, user=t.fake.player)
        assert not is_ephemeral(again)
        assert (await t.current()).game.ruleset.id == "deck"


@aio
async def test_status_posts_the_board_which_becomes_the_board(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=2)
        old = await board_of(t)
        payload, answer = await t.fake.slash("game status", user=t.fake.player)
        assert not is_ephemeral(answer)
        assert "▶ owner" in text_of(answer)
        assert labels(answer) == ["Roll chaos"]
        shown = t.fake.original(payload)
        board = await board_of(t)  # one board: the old one is gone
        assert board["id"] == shown["id"] != old["id"]
        assert old["id"] not in t.fake.messages

        await t.slash("chaos roll", user=t.fake.owner)
        board = await board_of(t)
        assert board["id"] == shown["id"]
        assert labels(board) == ["Next turn"]
        assert t.fake.calls_to(f"PATCH /channels/{t.fake.channel_id}/messages/{shown['id']}")


@aio
async def test_export_is_a_private_jsonl_file_that_replays(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        await t.game("classic", players=2)
        await t.slash("chaos roll", user=t.fake.owner)
        await t.slash("turn next", user=t.fake.owner)
        game = (await t.current()).game

        # While the game goes on, its log is sealed for everyone, the host included: every
        # event is there, but not the seed every roll follows from, nor the salt.
        for user in (t.fake.player, t.fake.owner):
            text, filename = await exported(t, user)
            assert filename.endswith(".jsonl")
            events = [json.loads(line) for line in text.splitlines()]
            assert len(events) == len(game.events)
            assert events[0]["action"]["name"] == "game start"
            assert events[1]["type"] == "game_started"
            assert events[1]["seed"] is events[1]["salt"] is None
            assert f'"seed":{game.state.seed}' not in text
            assert game.state.salt not in text

        await t.slash("game end", user=t.fake.owner)
        after, _ = await exported(t)
        events = [json.loads(line) for line in after.splitlines()]
        assert [e["type"] for e in events[-2:]] == ["game_ended", "seed_revealed"]
        actions = [e["action"] for e in events if e["type"] == "action"]
        replayed = Game.replay(game.ruleset, actions)
        assert replayed.events == events
        assert replayed.state.seed == game.state.seed


async def exported(t: Table, user=None) -> tuple[str, str]:
    """What /game export gives the player who asks (by default a plain player): the file's
    text and name."""
    user = user or t.fake.player
    answer = await t.slash("game export", user=user)
    assert is_ephemeral(answer)
    message = t.fake.ephemeral_messages(user)[-1]
    (attachment,) = message["attachments"]
    data = t.fake.attachment_data(attachment)
    count = len(data.decode().splitlines())
    assert f"{count} events" in text_of(answer)
    return data.decode(), attachment["filename"]


@aio
async def test_join_and_begin_buttons_on_the_answer(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = t.fake.owner, t.fake.player
        guest = t.fake.add_user("guest")
        start = await t.slash("game start", {"ruleset": "classic"}, user=owner)
        start_message = t.fake.channel_messages()[0]
        assert start_message["components"] == start["data"]["components"]

        joined = await t.press("Join", user=player, message=start_message)
        assert text_of(joined) == "player joined"
        # Join is no turn action: an older message's Join still seats a newcomer.
        late = await t.press("Join", user=guest, message=start_message)
        assert text_of(late) == "guest joined"
        refused(await t.press("Join", user=guest, message=start_message), "already in")

        version = (await t.current()).version
        refused(await t.press("Begin", user=player), "only the host or a referee")
        assert (await t.current()).version == version
        # Drawn before the others joined, the start message's Begin still seats them all.
        begun = await t.press("Begin", user=owner, message=start_message)
        assert "Seats are locked: owner, player, guest." in text_of(begun)
        refused(await t.press("Begin", user=owner, message=start_message), "already begun")
        refused(await t.press("Join", user=t.fake.referee, message=start_message), "locked")


@aio
async def test_buttons_of_an_earlier_game_are_refused(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic", players=2)
        old_roll = t.newest_with("Roll chaos")
        await t.slash("game end", user=owner)
        refused(await t.press("Roll chaos", user=owner, message=old_roll), "no game in progress")

        await t.game("classic", players=2)
        version = (await t.current()).version
        refused(await t.press("Roll chaos", user=owner, message=old_roll), "earlier game")
        assert (await t.current()).version == version
