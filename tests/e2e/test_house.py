"""/house through Discord (issue 26): anyone sees the house rules, only server managers change
them, a game keeps the rules it started with, and its board says when chaos starts."""

from __future__ import annotations

from pathlib import Path

from bot.engine.house import HouseRules
from tests.e2e.table import Table, board_of, is_ephemeral, labels, refused, text_of
from tests.fakediscord.plugin import aio
from tests.fakediscord.server import FakeDiscord


@aio
async def test_chaos_from_round_two_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake
        shown = await t.slash("house show", user=fake.player)
        assert "Chaos from round: 1 (the default" in text_of(shown)
        refused = await t.slash("house chaos_from", {"round": 2}, user=fake.player)
        assert is_ephemeral(refused)
        assert text_of(refused) == "Changing the house rules needs the Manage Server permission."
        assert (await t.service.settings(fake.guild_id)).house == HouseRules()

        saved = await t.slash("house chaos_from", {"round": 2}, user=fake.owner)
        assert "Saved. Games started from now on play by them." in text_of(saved)
        assert (await t.service.settings(fake.guild_id)).house == HouseRules(chaos_from=2)

        await t.game("classic", players=2, seed=5)  # no roll of it asks for a choice
        board = await board_of(t)
        assert "Chaos starts in round 2 (a house rule); this is round 1" in text_of(board)
        assert "House rules: chaos starts in round 2." in text_of(board)
        assert labels(board) == ["Next turn"]  # no chaos roll is owed yet
        roll = await t.slash("chaos roll", user=fake.owner)
        assert is_ephemeral(roll)
        assert "chaos starts in round 2" in text_of(roll)

        # The game keeps its rules: a change waits for the next game, and is said to.
        busy = await t.slash("house chaos_from", {"round": 3}, user=fake.owner)
        assert is_ephemeral(busy)
        assert "A game is running here" in text_of(busy)
        later = await t.slash("house chaos_from", {"round": 3, "next_game": True}, user=fake.owner)
        assert "They apply from the next game" in text_of(later)
        assert (await t.current()).game.state.house == HouseRules(chaos_from=2)

        await t.slash("turn next", user=fake.owner)
        await t.slash("turn next", user=fake.player)  # round 2: chaos starts
        board = await board_of(t)
        assert labels(board)[0] == "Roll chaos"
        rolled = await t.slash("chaos roll", user=fake.owner)
        assert not is_ephemeral(rolled)
        game = (await t.current()).game
        assert game.state.rolled
        ended = await t.slash("game end", user=fake.owner)  # the recap says what was played
        assert "Played with house rules: chaos starts in round 2." in text_of(ended)


@aio
async def test_the_deny_list_through_discord_with_autocomplete(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake
        _, lists = await t.fake.autocomplete(
            "house deny", {"list": "cha"}, focused="list", user=fake.owner
        )
        assert "chaos" in [c["value"] for c in lists["data"]["choices"]]
        _, entries = await t.fake.autocomplete(
            "house deny", {"list": "chaos", "entry": "Counter"}, focused="entry", user=fake.owner
        )
        offered = entries["data"]["choices"]
        assert 0 < len(offered) <= 25
        assert {"name": "12 CounterRoll", "value": "12"} in offered

        refused = await t.slash("house deny", {"list": "chaos", "entry": "12"}, user=fake.player)
        assert text_of(refused) == "Changing the house rules needs the Manage Server permission."
        saved = await t.slash("house deny", {"list": "chaos", "entry": "12"}, user=fake.owner)
        assert "Chaos List #12 CounterRoll" in text_of(saved)
        again = await t.slash("house deny", {"list": "chaos", "entry": "12"}, user=fake.owner)
        assert "is denied already" in text_of(again)
        deck = await t.slash("house deny", {"list": "nowhere", "entry": "1"}, user=fake.owner)
        assert "has no list or deck 'nowhere'" in text_of(deck)
        assert (await t.service.settings(fake.guild_id)).house.deny == (("chaos", "12"),)

        await t.game("classic", players=2, seed=5)
        board = await board_of(t)
        assert "House rules: 1 entry denied, rolled again when it comes up." in text_of(board)
        game = (await t.current()).game
        assert game.state.house.deny == (("chaos", "12"),)
        allowed = await t.slash(
            "house allow",
            {"list": "chaos", "entry": "CounterRoll", "next_game": True},
            user=fake.owner,
        )
        assert "They apply from the next game" in text_of(allowed)
        assert (await t.service.settings(fake.guild_id)).house.deny == ()
        assert (await t.current()).game.state.house.deny == (("chaos", "12"),)


@aio
async def test_no_repeats_through_discord(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake
        refused = await t.slash("house repeats", {"repeats": "never"}, user=fake.player)
        assert is_ephemeral(refused)
        saved = await t.slash("house repeats", {"repeats": "never"}, user=fake.owner)
        assert "Repeats: never." in text_of(saved)
        await t.game("classic", players=2, seed=5)
        board = await board_of(t)
        assert "no repeats until a list has come up whole" in text_of(board)
        for _ in range(21):
            await t.slash("chaos roll", {"list": "persona"}, user=fake.owner)
        game = (await t.current()).game
        persona = [e for e in game.events if e["type"] == "roll" and e["table"] == "persona"]
        assert len({r["entry"]["id"] for r in persona[:20]}) == 20
        assert persona[20].get("fresh") is True
        shown = await t.slash("house show", user=fake.player)
        assert "Repeats: never." in text_of(shown)


def _holding(t: Table, text: str, label: str) -> dict[str, object]:
    """The newest channel message that reads `text` and has a `label` button."""
    for message in reversed(t.fake.channel_messages()):
        if text in text_of(message) and label in labels(message):
            return message
    raise AssertionError(f"no message reads {text!r} with a {label!r} button")


@aio
async def test_a_veto_vote_with_buttons_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """/house veto on; a result gets a Veto button counting the votes, for the players but
    the roller; two of three veto it, and the result is rolled again; the button goes away."""
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        fake = t.fake
        denied = await t.slash("house veto", {"veto": "on"}, user=fake.player)
        assert text_of(denied) == "Changing the house rules needs the Manage Server permission."
        saved = await t.slash("house veto", {"veto": "on"}, user=fake.owner)
        assert "Veto: on." in text_of(saved)
        assert (await t.service.settings(fake.guild_id)).house == HouseRules(veto=True)
        _, _, guest = await t.game("classic", players=3, seed=5)
        assert "House rules: results may be vetoed." in text_of(await board_of(t))

        rolled = await t.slash("chaos roll", user=fake.owner)
        assert "Graveyard Bonfire" in text_of(rolled)
        assert labels(rolled) == ["Next turn", "Veto (0/2)"]
        result = _holding(t, "Graveyard Bonfire", "Veto (0/2)")
        board = await board_of(t)
        assert "Veto R2 Graveyard Bonfire? 0 of 2 votes" in text_of(board)
        assert "Veto (0/2)" in labels(board)

        # Who may vote, from both sides: not the roller, nor a member without a seat.
        refused(await t.press("Veto (0/2)", user=fake.owner, message=result), "not the roller's")
        outsider = fake.add_user("outsider")
        refused(await t.press("Veto (0/2)", user=outsider, message=result), "only its players")
        first = await t.press("Veto (0/2)", user=fake.player, message=result)
        assert not is_ephemeral(first)
        assert "votes to veto R2 Graveyard Bonfire (1 of 2 votes)" in text_of(first)
        assert labels(first) == ["Next turn", "Veto (1/2)"]
        refused(await t.press("Veto (1/2)", user=fake.player), "has voted to veto R2 already")
        board = await board_of(t)
        assert "Veto (1/2)" in labels(board)

        # The button on the result itself still counts, though the game moved on since.
        second = await t.press("Veto (0/2)", user=guest, message=result)
        said = text_of(second)
        assert "R2 Graveyard Bonfire is vetoed by" in said
        # Announced as the veto, titled with what the roll made again came to.
        [embed] = second["data"]["embeds"]
        assert embed["author"]["name"] == "R2 Graveyard Bonfire is vetoed — owner rolls again"
        assert embed["title"] == "Someone You Know → Your playgroup's comeback kid"
        assert "= 18 → #18 (rolled again: R2 was vetoed)" in said
        assert labels(second) == ["Next turn"]  # one veto a turn: no more Veto button
        board = await board_of(t)
        assert not [label for label in labels(board) if label.startswith("Veto")]
        game = (await t.current()).game
        [vetoed] = [e for e in game.events if e["type"] == "vetoed"]
        assert vetoed["voters"] == [str(fake.player["id"]), str(guest["id"])]
        late = await t.press("Veto (1/2)", user=guest)
        refused(late, "R2 was vetoed this turn")

        # After the next action the vote is closed, with a sentence.
        await t.slash("turn next", user=fake.owner)
        await t.slash("chaos roll", user=fake.player)
        await t.slash("life lose", {"amount": 1}, user=fake.owner)
        refused(await t.slash("chaos veto", user=guest), "there is no result to veto")
