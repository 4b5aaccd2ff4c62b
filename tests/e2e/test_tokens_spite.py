"""/chaos counter, /chaos fork and /chaos spite: tokens and the three spite rules."""

from __future__ import annotations

from bot.engine import actions as a
from bot.engine.state import Phase, Status
from tests.e2e.table import Table, embed, is_ephemeral, labels, refused, rolls, seed_where, text_of
from tests.fakediscord.plugin import aio


async def log_of(t: Table):
    """Every event of the channel's latest game, ended or not."""
    return await t.service.log(f"{t.fake.guild_id}:{t.fake.channel_id}", 1_000_000)


# -- tokens: /chaos counter and /chaos fork ----------------------------------------------------


def _gets(token: str):
    """The host's first chaos roll gives them `token`; the next player's roll stands alone."""

    def wanted(game, seats) -> bool:
        events = game.act(a.RollChaos(actor=seats[0]))
        if not any(e["type"] == "tokens" and e["token"] == token for e in events):
            return False
        game.act(a.NextTurn(actor=seats[0]))
        following = game.act(a.RollChaos(actor=seats[1]))
        return game.state.pending is None and not any(e["type"] == "tokens" for e in following)

    return wanted


@aio
async def test_counter_spends_a_counterroll_on_the_latest_roll(fake_discord, tmp_path):
    seed = seed_where("classic", _gets("counter_roll"))
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", seed=seed)
        got = await t.slash("chaos roll", user=owner)
        assert "owner gets a CounterRoll" in text_of(got)
        await t.slash("turn next", user=owner)
        await t.press("Roll chaos", user=player)
        before = (await t.current()).game.state
        target = before.live_item()
        ref = before.roll_ref(target.id)
        assert ref == "R3"  # the start roll, owner's roll, then this one: as people count

        body = await t.slash("chaos counter", user=owner)

        assert not is_ephemeral(body)
        assert f"owner plays a CounterRoll on {ref}" in text_of(body)
        assert f"{ref} {target_name(target)} is countered" in text_of(body)
        state = (await t.current()).game.state
        assert state.players[owner["id"]].tokens["counter_roll"] == 0
        assert not state.item(target.id).live

        again = await t.slash("chaos counter", user=owner)
        refused(again, "owner has no CounterRoll")


def target_name(item) -> str:
    from bot.tables import find_ruleset

    table = find_ruleset("classic").ruleset.tables[item.table]
    return next(e.name for e in table.entries if e.id == item.entry)


@aio
async def test_fork_copies_the_latest_roll_for_the_forker(fake_discord, tmp_path):
    seed = seed_where("classic", _gets("roll_fork"))
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", seed=seed)
        await t.slash("chaos roll", user=owner)
        await t.slash("turn next", user=owner)
        await t.slash("chaos roll", user=player)
        state = (await t.current()).game.state
        target, held = state.live_item(), state.players[owner["id"]].tokens["roll_fork"]

        body = await t.slash("chaos fork", user=owner)

        ref = state.roll_ref(target.id)
        assert f"owner copies {ref} {target_name(target)} with a RollFork" in text_of(body)
        game = (await t.current()).game
        forks = [i for i in game.state.stack if i.kind == "fork"]
        assert [(f.target, f.player, f.entry) for f in forks] == [
            (target.id, owner["id"], target.entry)
        ]
        copy = rolls(game, id=forks[0].id)[0]
        assert copy["player"] == owner["id"]  # the copy is the forker's
        assert copy["reason"] == f"copy of roll {target.id} (RollFork)"
        assert game.state.players[owner["id"]].tokens["roll_fork"] == held - 1


@aio
async def test_counter_and_fork_without_a_token_are_refused(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", seed=seed_where("classic", _no_tokens))
        await t.slash("chaos roll", user=owner)
        version = (await t.current()).version

        body = await t.slash("chaos counter", user=player)
        refused(body, "player has no CounterRoll")
        body = await t.slash("chaos fork", user=player)
        refused(body, "player has no RollFork")
        assert (await t.current()).version == version


def _no_tokens(game, seats) -> bool:
    events = game.act(a.RollChaos(actor=seats[0]))
    return game.state.pending is None and not any(e["type"] == "tokens" for e in events)


@aio
async def test_tokens_are_refused_where_the_ruleset_has_none(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, _ = await t.game("lists")
        await t.slash("chaos roll", user=owner)
        body = await t.slash("chaos counter", user=owner)
        refused(body, "no CounterRoll or RollFork")


# -- /chaos spite --------------------------------------------------------------------------------


def _classic_spite(survives: bool):
    def wanted(game, seats) -> bool:
        events = game.act(a.Spite(actor=seats[0], player=seats[1]))
        ended = next((e for e in events if e["type"] == "spite_ended"), None)
        return ended is not None and ended["survived"] is survives

    return wanted


@aio
async def test_classic_spite_roll_without_life_gain_puts_the_player_out(fake_discord, tmp_path):
    seed = seed_where("classic", _classic_spite(survives=False))
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", seed=seed)

        body = await t.slash("chaos spite", {"player": "player"}, user=owner)

        text = text_of(body)
        assert "player would lose, and gets a spite: one roll on the Chaos List" in text
        assert "player has had their spite" in text
        assert embed(body)["author"]["name"] == "player gets a spite"
        assert "\nChaos List d20×d10 [" in text
        assert labels(body) == []  # the game is over: nothing more to press
        events = await log_of(t)
        assert [e["player"] for e in events if e["type"] == "player_out"] == [player["id"]]
        assert [e["type"] for e in events[-2:]] == ["game_ended", "seed_revealed"]
        assert events[-2]["winner"] == owner["id"]


@aio
async def test_classic_spite_roll_that_gains_life_keeps_the_player_in(fake_discord, tmp_path):
    seed = seed_where("classic", _classic_spite(survives=True))
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("classic", seed=seed)

        body = await t.slash("chaos spite", {"player": "player"}, user=owner)

        assert "player would lose, and gets a spite: one roll on the Chaos List" in text_of(body)
        assert "player survives the spite" in text_of(body)
        state = (await t.current()).game.state
        assert state.players[player["id"]].status is Status.PLAYING
        assert state.phase is Phase.PLAYING


@aio
async def test_lists_spite_rolls_on_the_spite_list(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        _owner, _player, guest = await t.game("lists", players=3)

        body = await t.slash("chaos spite", user=guest)

        assert "guest2 would lose, and gets a spite: a roll on the Spite list" in text_of(body)
        game = (await t.current()).game
        assert rolls(game, player=guest["id"])[0]["table"] == "spite"
        assert game.state.players[guest["id"]].status is Status.OUT
        spite = rolls(game, player=guest["id"])[0]
        assert embed(body)["author"]["name"] == "guest2 gets a spite"
        assert embed(body)["title"].startswith(spite["entry"]["name"])


@aio
async def test_spite_for_someone_else_needs_the_host(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        _owner, player, guest = await t.game("lists", players=3)
        version = (await t.current()).version
        body = await t.slash("chaos spite", {"player": "guest2"}, user=player)
        refused(body, "only guest2, the host or a referee can apply the spite rule")
        assert (await t.current()).version == version
        _, typed = await t.fake.autocomplete("chaos spite", {"player": "gu"}, "player")
        assert typed["data"]["choices"] == [{"name": "guest2", "value": guest["id"]}]


@aio
async def test_deck_spite_for_poison_asks_whether_the_loss_still_holds(fake_discord, tmp_path):
    async with fake_discord, Table.open(fake_discord, tmp_path) as t:
        owner, player = await t.game("deck", life=20)
        body = await t.slash("chaos spite", {"player": "player", "reason": "poison"}, user=owner)
        assert "player would lose, and gets a spite" in text_of(body)

        body = await t.slash("chaos choose", {"option": "1"}, user=player)

        question = "Does player still have 10 or more poison counters? (player answers)"
        assert question in text_of(body)
        assert labels(body) == ["yes: player loses", "no: player plays on"]
        body = await t.press("no: player plays on", user=player)
        assert "player survives the spite" in text_of(body)
        state = (await t.current()).game.state
        assert state.players[player["id"]].status is Status.PLAYING
        assert state.pending is None
