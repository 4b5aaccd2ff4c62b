"""/chaos through Discord: rolls and cards, the Global, the log and undo (tokens and spite
are in test_tokens_spite.py)."""

from __future__ import annotations

from bot.client import play
from bot.engine import actions as a
from bot.engine.state import Phase
from tests.e2e.table import Table, embed, is_ephemeral, labels, refused, rolls, seed_where, text_of
from tests.fakediscord.plugin import aio


async def log_of(t: Table):
    """Every event of the channel's latest game, ended or not."""
    return await t.service.log(f"{t.fake.guild_id}:{t.fake.channel_id}", 1_000_000)


# -- /chaos roll ------------------------------------------------------------------------------


@aio
async def test_roll_shows_the_dice_the_list_and_the_entry(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic")
        body = await t.slash("chaos roll", user=owner)

        assert not is_ephemeral(body)
        game = (await t.current()).game
        roll = next(r for r in rolls(game) if r["parent"] is None and r["table"] == "chaos")
        tens, units = roll["dice"]
        assert embed(body)["author"]["name"] == "owner rolls chaos"
        assert embed(body)["title"].startswith(roll["entry"]["name"])
        # The body's first line: the list, the dice, the number; not the title again.
        assert embed(body)["description"].splitlines()[0] == (
            f"Chaos List d20×d10 [{tens}, {units}] = {roll['result']} → #{roll['result']}"
        )
        assert game.state.rolled
        assert labels(body)[-1] == "Next turn"


@aio
async def test_a_rolls_answer_is_drawn_once_while_its_save_commits(
    fake_discord, tmp_path, monkeypatch
):
    """The answer is drawn while the disk commits the roll (before the writer has counted
    the batch committed), not again after, and what is sent is that drawing. (An answer that
    grows after its save, "turn next" with auto-roll, is drawn anew: test_settings checks
    that it shows the automatic roll.)"""
    drawn: list[tuple[str | None, int]] = []  # (the answer's title, batches committed by then)
    draw = play._draw

    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        writer = t.service.store.writer

        def counted(outcome):
            answer = draw(outcome)
            drawn.append((answer[0][0].title, len(writer.batches or ())))
            return answer

        monkeypatch.setattr(play, "_draw", counted)
        owner, _ = await t.game("classic")
        drawn.clear()
        writer.batches = []
        body = await t.slash("chaos roll", user=owner)
        assert drawn == [(embed(body)["title"], 0)]
        assert writer.batches == [1]


@aio
async def test_roll_on_a_named_list_leaves_the_turns_roll_to_make(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic")
        _, typed = await t.fake.autocomplete("chaos roll", {"list": "wack"}, "list", user=owner)
        assert [c["value"] for c in typed["data"]["choices"]] == ["wacky"]
        _, every = await t.fake.autocomplete("chaos roll", {"list": ""}, "list", user=owner)
        assert {c["value"] for c in every["data"]["choices"]} == {
            "chaos",
            "ewl",
            "wacky",
            "persona",
        }

        body = await t.slash("chaos roll", {"list": "WackyLand"}, user=owner)

        game = (await t.current()).game
        roll = rolls(game)[-1]
        assert roll["table"] == "wacky"
        assert embed(body)["author"]["name"] == "owner rolls on WackyLand"
        assert embed(body)["title"].startswith(roll["entry"]["name"])
        assert f"WackyLand 2d10 [{roll['dice'][0]}, {roll['dice'][1]}]" in text_of(body)
        assert not game.state.rolled  # a named roll isn't the turn's chaos roll
        assert "Roll chaos" in labels(body)

        version = (await t.current()).version
        unknown = await t.slash("chaos roll", {"list": "Narnia"}, user=owner)
        refused(unknown, "Narnia")
        assert (await t.current()).version == version


@aio
async def test_rolling_out_of_turn_is_refused_and_changes_nothing(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        _, player = await t.game("classic")
        before = (await t.current()).version

        body = await t.slash("chaos roll", user=player)
        refused(body, "owner's turn")
        body = await t.press("Roll chaos", user=player)
        refused(body, "owner's turn")

        after = await t.current()
        assert after.version == before
        assert not after.game.state.rolled


@aio
async def test_roll_chaos_button_rolls_and_an_old_button_is_stale(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic")
        first = t.newest_with("Roll chaos")

        body = await t.press("Roll chaos", user=owner, message=first)

        assert not is_ephemeral(body)
        game = (await t.current()).game
        assert game.state.rolled
        assert rolls(game, table="chaos")[-1]["entry"]["name"] in text_of(body)
        version = (await t.current()).version
        again = await t.press("Roll chaos", user=owner, message=first)
        assert is_ephemeral(again)
        assert (await t.current()).version == version


# -- the deck: draw face down, then reveal -----------------------------------------------------


@aio
async def test_deck_draws_face_down_and_reveals_the_card(fake_discord, tmp_path):
    seed = seed_where("deck", _plain_card)
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("deck", seed=seed)
        drawn = await t.press("Draw chaos card", user=owner)

        game = (await t.current()).game
        deck, card, holder, _ = game.state.face_down
        name = game.ruleset.deck(deck).card(card).name
        assert holder == owner["id"]
        assert "face down" in text_of(drawn)
        assert name not in text_of(drawn)  # nobody learns the card before the reveal
        assert labels(drawn) == ["Reveal"]
        await t.settle()
        assert all(name not in text_of(m) for m in t.fake.channel_messages())

        shown = await t.slash("chaos reveal", user=owner)

        assert name in embed(shown)["title"]
        game = (await t.current()).game
        assert game.state.face_down is None
        assert labels(shown) == ["Next turn"]


@aio
async def test_reveal_without_a_face_down_card_is_refused(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("deck")
        body = await t.slash("chaos reveal", user=owner)
        refused(body, "no face-down chaos card")


def _plain_card(game, seats) -> bool:
    game.act(a.RollChaos(actor=seats[0]))
    deck, card, _, _ = game.state.face_down
    return not game.ruleset.deck(deck).card(card).halves


# -- /chaos global -------------------------------------------------------------------------------


@aio
async def test_global_in_lists_replaces_the_global(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("lists")
        before = [e for e in (await t.current()).game.state.effects.values() if e.kind == "global"]

        body = await t.slash("chaos global", user=owner)

        game = (await t.current()).game
        roll = [r for r in rolls(game, table="global") if r["parent"] is None][-1]
        assert embed(body)["author"]["name"] == "owner rolls a new Global"
        assert embed(body)["title"].startswith(roll["entry"]["name"])
        assert embed(body)["description"].startswith("Global d12×d10 [")
        now = [e for e in game.state.effects.values() if e.kind == "global"]
        assert len(now) == 1
        assert [e.id for e in before] != [e.id for e in now]


@aio
async def test_global_in_deck_reveals_the_next_global_card(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("deck")
        game = (await t.current()).game
        (old,) = [e for e in game.state.effects.values() if e.kind == "global"]

        body = await t.slash("chaos global", user=owner)

        game = (await t.current()).game
        (new,) = [e for e in game.state.effects.values() if e.kind == "global"]
        assert new.id != old.id
        assert new.name in embed(body)["title"]
        assert old.name in text_of(body)  # its end is announced


# -- /chaos log and /chaos undo -----------------------------------------------------------------


@aio
async def test_log_is_private_and_says_who_did_what(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic")
        await t.slash("chaos roll", user=owner)

        body = await t.slash("chaos log", user=player)

        assert is_ephemeral(body)
        text = text_of(body)
        assert "» owner: chaos roll" in text
        assert "» player: game join" in text
        assert "The whole log" in text
        seed = (await t.current()).game.state.seed
        assert "owner opens a classic game (20 life)." in text
        assert f"seed {seed}" not in text  # the dice follow from it: not while the game goes on

        short = await t.slash("chaos log", {"count": 2}, user=player)
        assert "The last 2 actions" in text_of(short)
        assert text_of(short).count("» ") == 2  # the roll and the join before it, each whole


@aio
async def test_log_still_reads_after_the_game_ended(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic")
        await t.slash("chaos roll", user=owner)
        await t.slash("game end", user=owner)

        body = await t.slash("chaos log", {"count": 200}, user=owner)

        assert is_ephemeral(body)
        text = text_of(body)
        assert "The whole log" in text
        assert "» owner: chaos roll" in text
        assert "» owner: game end" in text
        assert "owner rolls EnchantWorldLand d20 [" in text  # lists by name, as in the game
        assert "owner rolls Chaos List d20×d10 [" in text
        seed = (await t.service.latest(f"{t.fake.guild_id}:{t.fake.channel_id}")).game.state.seed
        assert f"(seed {seed}, 20 life)" in text  # over: now it may be checked


@aio
async def test_undo_belongs_to_the_host_and_referees(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic")
        await t.slash("chaos roll", user=owner)
        version = (await t.current()).version

        body = await t.slash("chaos undo", user=player)
        refused(body, "only the host or a referee can undo")
        assert (await t.current()).version == version

        body = await t.slash("chaos undo", user=owner)
        assert not is_ephemeral(body)
        assert "Undone: chaos roll (by owner)" in text_of(body)
        current = await t.current()
        assert current.version == version + 1
        assert not current.game.state.rolled
        assert labels(body) == ["Roll chaos"]


@aio
async def test_a_referee_may_undo(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("classic")
        await t.slash("chaos roll", user=owner)
        referee = t.fake.referee
        body = await t.slash("chaos undo", user=referee)
        refused(body, "only the host or a referee can undo")

        await t.slash("settings", {"referee_role": t.fake.referee_role_id}, user=owner)
        body = await t.slash("chaos undo", user=referee)

        assert "Undone: chaos roll (by owner)" in text_of(body)
        assert not (await t.current()).game.state.rolled
        assert (await t.current()).game.state.phase is Phase.PLAYING
