"""The game service: the one path of every action, its errors, its cache and its settings."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from bot.engine import (
    End,
    Game,
    Join,
    Life,
    NextTurn,
    NotYourTurnError,
    RollChaos,
    RollRequiredError,
    Spite,
    fairness,
    fold,
)
from bot.errors import (
    GameExistsError,
    NoGameError,
    SettingsError,
    StaleActionError,
)
from bot.render.events import latest_actions
from bot.service import GameService, GuildSettings
from bot.store import Store, dump_event
from bot.tables import UnknownRulesetError
from tests.store.helpers import SCOPE, Clock, aio, begun, open_service, play_turn, replayed_events


def gains(events: Sequence[Mapping[str, object]]) -> int:
    return sum(1 for e in events if e["type"] == "life" and e["reason"] == "gain by Ann")


# -- starting, acting, reloading -----------------------------------------------------------------


@aio
async def test_start_opens_a_lobby_in_the_scope(database: Path | str) -> None:
    async with open_service(database, seeds=lambda: 99) as service:
        started = await service.start(SCOPE, "classic", host="ann", host_name="Ann", guild="g")
        assert (started.scope, started.version) == (SCOPE, 1)
        assert [e["type"] for e in started.events] == ["action", "game_started"]
        assert started.game.state.seed == 99
        current = await service.current(SCOPE)
        assert (current.game_id, current.version, current.events) == (started.game_id, 1, [])
        with pytest.raises(GameExistsError, match="classic game in progress here, hosted by Ann"):
            await service.start(SCOPE, "lists", host="bob", host_name="Bob")


@aio
async def test_every_action_is_saved_before_it_returns(database: Path | str) -> None:
    async with open_service(database) as service:
        await begun(service)
        rolled = await service.act(SCOPE, RollChaos(actor="ann"))
        game = rolled.game
        assert rolled.version == game.seq == 5
    # A new process: nothing but the file.
    async with open_service(database) as service:
        again = await service.current(SCOPE)
        assert again.game.events == game.events
        assert again.game.state == game.state
        assert again.version == 5
        moved = await service.act(SCOPE, NextTurn(actor="ann"))
        assert moved.game.state.active == "bob"


@aio
async def test_no_game_here(database: Path | str) -> None:
    async with open_service(database) as service:
        with pytest.raises(NoGameError, match="no game in progress here"):
            await service.act(SCOPE, RollChaos(actor="ann"))
        with pytest.raises(NoGameError, match="no game in progress here"):
            await service.current(SCOPE)
        with pytest.raises(NoGameError, match="no game in progress here"):
            await service.export(SCOPE)
        with pytest.raises(NoGameError, match="no finished one"):
            await service.latest(SCOPE)
        with pytest.raises(NoGameError):
            await service.log(SCOPE)


@aio
async def test_a_refused_action_changes_nothing(database: Path | str) -> None:
    async with open_service(database) as service:
        before = await begun(service)
        events = list(before.game.events)
        with pytest.raises(RollRequiredError) as caught:
            await service.act(SCOPE, NextTurn(actor="ann"))
        assert str(caught.value) == str(RollRequiredError(caught.value.args[0]))
        with pytest.raises(NotYourTurnError):
            await service.act(SCOPE, RollChaos(actor="bob"))
        now = await service.current(SCOPE)
        assert now.game.events == events  # nothing new published
        assert now.version == before.version
        after = await service.act(SCOPE, RollChaos(actor="ann"))
        assert after.game is before.game  # still the cached game, untouched until then
        assert after.game.events[: len(events)] == events
        assert after.version == before.version + 1
    async with open_service(database) as service:
        assert (await service.current(SCOPE)).game.events == after.game.events


@aio
async def test_a_failed_save_drops_the_cached_game(database: Path | str) -> None:
    async with open_service(database) as service:
        before = await begun(service)
        store = service.store
        original = store.append_events

        async def broken(*args: object, **kwargs: object) -> None:
            raise OSError("disk full")

        store.append_events = broken  # type: ignore[method-assign, assignment]
        with pytest.raises(OSError, match="disk full"):
            await service.act(SCOPE, RollChaos(actor="ann"))
        store.append_events = original  # type: ignore[method-assign]
        now = await service.current(SCOPE)
        assert now.version == before.version
        assert now.game.events == before.game.events[: len(now.game.events)]
        after = await service.act(SCOPE, RollChaos(actor="ann"))
        assert after.game is not before.game  # the copy that ran ahead of the database is gone
        assert after.version == before.version + 1
        assert sum(e["type"] == "action" for e in after.game.events) == after.version


# -- versions --------------------------------------------------------------------------------


@aio
async def test_a_stale_action_says_what_changed(database: Path | str) -> None:
    async with open_service(database) as service:
        begun_ = await begun(service)
        rolled = await service.act(SCOPE, RollChaos(actor="ann"), version=begun_.version)
        assert rolled.version == begun_.version + 1
        await service.act(SCOPE, Life(actor="ann", mode="gain", amount=2))
        with pytest.raises(StaleActionError, match=r"an action was taken \(Ann: life\)"):
            await service.act(SCOPE, NextTurn(actor="ann"), version=rolled.version)
        await service.act(SCOPE, NextTurn(actor="ann"))
        with pytest.raises(StaleActionError, match=r"the turn moved on to Bob \(turn 2\)"):
            await service.act(SCOPE, RollChaos(actor="ann"), version=rolled.version)
        with pytest.raises(StaleActionError, match="another game"):
            await service.act(SCOPE, RollChaos(actor="bob"), version=999)
        await service.act(SCOPE, End(actor="ann"))
        await service.start(SCOPE, "classic", host="ann", host_name="Ann")
        with pytest.raises(StaleActionError, match="another game"):
            await service.act(SCOPE, Join(actor="bob", player_name="Bob"), version=7)


@aio
async def test_two_presses_of_next_turn_advance_once(database: Path | str) -> None:
    async with open_service(database) as service:
        await begun(service)
        rolled = await service.act(SCOPE, RollChaos(actor="ann"))
        press = NextTurn(actor="ann")
        results = await asyncio.gather(
            service.act(SCOPE, press, version=rolled.version),
            service.act(SCOPE, press, version=rolled.version),
            return_exceptions=True,
        )
        refused = [r for r in results if isinstance(r, StaleActionError)]
        assert len(refused) == 1
        assert "the turn moved on to Bob (turn 2)" in str(refused[0])
        now = await service.current(SCOPE)
        assert (now.game.state.turn, now.game.state.active) == (2, "bob")
        assert now.version == rolled.version + 1


# -- concurrency -----------------------------------------------------------------------------


@aio
async def test_200_concurrent_actions_on_one_game_are_serialised(database: Path | str) -> None:
    async with open_service(database) as service:
        start = await begun(service)
        gain = Life(actor="ann", mode="gain", amount=1)
        outcomes = await asyncio.gather(*(service.act(SCOPE, gain) for _ in range(200)))
        versions = sorted(o.version for o in outcomes)
        assert versions == list(range(start.version + 1, start.version + 201))
        log = json.loads("[" + ",".join((await service.export(SCOPE)).splitlines()) + "]")
        assert gains(log) == 200
        seqs = [e["seq"] for e in log if e["type"] == "action"]
        assert seqs == list(range(len(seqs)))
    async with open_service(database) as service:
        game = (await service.current(SCOPE)).game
        assert gains(game.events) == 200
        assert game.state.players["ann"].life == 20 + 200
        assert replayed_events(game) == game.events


@aio
async def test_100_games_progress_in_parallel(database: Path | str) -> None:
    scopes = [f"console:table-{i}" for i in range(100)]

    async def play(scope: str, seed: int) -> Game:
        await begun(service, scope, seed=seed)
        for _ in range(3):
            await play_turn(service, scope)
        return (await service.current(scope)).game

    async with open_service(database, cache_size=16) as service:
        games = await asyncio.gather(*(play(s, i) for i, s in enumerate(scopes)))
    async with open_service(database) as service:
        for scope, game in zip(scopes, games, strict=True):
            stored = (await service.current(scope)).game
            assert stored.events == game.events
            assert stored.state.turn == 4
            assert replayed_events(stored) == stored.events


@aio
async def test_the_cache_is_bounded_and_reloads(database: Path | str) -> None:
    async with open_service(database, cache_size=2) as service:
        for i in range(5):
            await begun(service, f"console:{i}", seed=i)
        assert len(service._cache) == 2
        for i in range(5):
            rolled = await service.act(f"console:{i}", RollChaos(actor="ann"))
            assert rolled.game.state == fold(rolled.game.events)
            assert len(service._cache) <= 2
        assert len(service._locks) == 0


# -- export, log, rules ----------------------------------------------------------------------


@aio
async def test_export_and_log_outlive_the_game(database: Path | str) -> None:
    async with open_service(database) as service:
        await begun(service)
        game = (await service.act(SCOPE, RollChaos(actor="ann"))).game
        sealed = "".join(dump_event(e) + "\n" for e in fairness.sealed(game.events))
        assert await service.export(SCOPE) == sealed
        assert await service.log(SCOPE, 3) == list(latest_actions(game.events, 3))
        ended = await service.act(SCOPE, End(actor="ann"))
        assert [e["type"] for e in ended.events[-2:]] == ["game_ended", "seed_revealed"]
        with pytest.raises(NoGameError):
            await service.current(SCOPE)
        assert await service.export(SCOPE) == ended.game.export()
        last = await service.log(SCOPE, 1)  # the last action, whole: `game end`
        assert last[0]["type"] == "action"
        assert last[-1] == ended.events[-1]
        assert await service.log(SCOPE, 0) == []
        # The scope is free for a new game; export now gives the new one.
        started = await service.start(SCOPE, "lists", host="bob", host_name="Bob")
        assert await service.export(SCOPE) == "".join(
            dump_event(e) + "\n" for e in fairness.sealed(started.game.events)
        )


@aio
async def test_rules_of_the_game_or_of_a_ruleset(database: Path | str) -> None:
    async with open_service(database) as service:
        await begun(service, ruleset="deck")
        deck_rules = await service.rules(SCOPE)
        assert deck_rules
        assert await service.rules("classic") != deck_rules
        with pytest.raises(UnknownRulesetError, match="no ruleset 'nope'"):
            await service.rules("nope")


# -- guild settings --------------------------------------------------------------------------


@aio
async def test_settings_have_defaults_and_can_change(database: Path | str) -> None:
    async with open_service(database) as service:
        assert await service.settings("g") == GuildSettings()
        assert GuildSettings() == GuildSettings(None, "classic", False, "allowed", False)
        changed = await service.update_settings("g", referee_role=1234, secret_rolls="referee")
        assert changed == GuildSettings(referee_role=1234, secret_rolls="referee")
        assert await service.update_settings("g", auto_roll=True, default_ruleset="deck") == (
            GuildSettings(1234, "deck", True, "referee")
        )
        assert await service.settings("other") == GuildSettings()
    async with open_service(database) as service:
        assert await service.settings("g") == GuildSettings(1234, "deck", True, "referee")
        assert (await service.update_settings("g", turn_powers=True)).turn_powers
    async with open_service(database) as service:
        assert await service.settings("g") == GuildSettings(1234, "deck", True, "referee", True)
        assert (await service.mention("g", "55", False)).quiet == ("55",)
        assert (await service.mention("g", "7", False)).quiet == ("55", "7")
        assert (await service.mention("g", "55", True)).quiet == ("7",)
    async with open_service(database) as service:
        assert (await service.settings("g")).quiet == ("7",)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"colour": "red"}, "There's no setting called 'colour'"),
        ({"secret_rolls": "sometimes"}, "Secret rolls can be allowed, referee, never"),
        ({"auto_roll": "yes"}, "Auto-roll is either on or off"),
        ({"turn_powers": 1}, "Turn powers are either"),
        ({"turn_mentions": "yes"}, "Turn mentions are either on or off"),
        ({"quiet": ("<@1>",)}, "a list of Discord ids"),
        ({"quiet": "123"}, "a list of Discord ids"),
        ({"referee_role": "mods"}, "The referee role must be a role"),
        ({"default_ruleset": "nope"}, "there is no ruleset 'nope'"),
    ],
)
@aio
async def test_bad_settings_are_refused(
    database: Path | str, changes: dict[str, object], message: str
) -> None:
    async with open_service(database) as service:
        with pytest.raises((SettingsError, UnknownRulesetError), match=message):
            await service.update_settings("g", **changes)
        assert await service.settings("g") == GuildSettings()


# -- expiry ----------------------------------------------------------------------------------


@aio
async def test_idle_games_expire(database: Path | str) -> None:

    clock = Clock()
    async with open_service(database, clock=clock, idle_days=30) as service:
        await begun(service, "console:idle")
        await begun(service, "console:busy")
        await begun(service, "console:ended")
        await service.act("console:ended", End(actor="ann"))
        clock.advance(29)
        assert await service.expire_idle() == 0
        await service.act("console:busy", RollChaos(actor="ann"))
        clock.advance(2)
        assert await service.expire_idle() == 2
        for scope in ("console:idle", "console:ended"):
            with pytest.raises(NoGameError):
                await service.export(scope)
        with pytest.raises(NoGameError):
            await service.act("console:idle", RollChaos(actor="ann"))
        assert (await service.current("console:busy")).version == 5
        # The scope is free again.
        await service.start("console:idle", "classic", host="ann", host_name="Ann")


def test_service_takes_a_store_without_opening_anything(database: Path | str) -> None:
    @aio
    async def check() -> None:
        store = await Store.open(database)
        service = GameService(store)
        assert service.cache_size == 256
        assert service.idle_days == 30
        await service.close()

    check()


async def spin(seconds: float) -> None:
    """Keep yielding to the event loop for a while (the store's thread works meanwhile)."""
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        await asyncio.sleep(0)


@aio
async def test_an_action_cancelled_mid_save_is_whole_or_absent(database: Path | str) -> None:
    """A front end may give up on an action (a timeout): at whatever point, the game stays
    consistent, in memory and on disk, and play goes on.
    """
    async with open_service(database) as service:
        before = await begun(service)
        version = before.version
        gain = Life(actor="ann", mode="gain", amount=1)
        outcomes = set()
        # From before the action starts to well after it is saved, densely around the save.
        for delay in [0.0] + [0.00005 * 1.25**k for k in range(30)]:
            task = asyncio.create_task(service.act(SCOPE, gain))
            await spin(delay)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            now = await service.current(SCOPE)
            assert now.version in (version, version + 1)
            outcomes.add(now.version - version)
            stored = await service.store.active_game(SCOPE)
            assert stored is not None
            assert stored.events == now.game.events
            version = (await service.act(SCOPE, gain)).version
        assert gains((await service.current(SCOPE)).game.events) == version - before.version
        assert outcomes == {0, 1}  # cancelled before its commit, and after


@aio
async def test_a_button_from_an_earlier_game_in_the_same_channel_is_refused(
    database: Path | str,
) -> None:
    """Versions restart with each game, so a button also names its game."""
    async with open_service(database) as service:
        old = await service.start(SCOPE, "classic", host="ann", host_name="Ann")
        await service.act(SCOPE, End(actor="ann"))
        new = await service.start(SCOPE, "classic", host="ann", host_name="Ann")
        assert new.version == old.version  # the same number, in another game
        with pytest.raises(StaleActionError, match="earlier game"):
            await service.act(
                SCOPE,
                Join(actor="bob", player_name="Bob"),
                version=new.version,
                game_id=old.game_id,
            )
        joined = await service.act(
            SCOPE, Join(actor="bob", player_name="Bob"), version=new.version, game_id=new.game_id
        )
        assert joined.version == new.version + 1


@aio
async def test_a_finished_game_is_rebuilt_with_its_own_tables(database: Path | str) -> None:
    async with open_service(database) as service:
        await begun(service)
        await play_turn(service, SCOPE)
        ended = await service.act(SCOPE, End(actor="ann"))
        with pytest.raises(NoGameError):
            await service.current(SCOPE)
    async with open_service(database) as service:  # a restart: nothing cached
        latest = await service.latest(SCOPE)
        assert latest.game_id == ended.game_id
        assert latest.version == ended.version
        assert latest.game.events == json.loads(json.dumps(ended.game.events))
        assert latest.game.ruleset.id == "classic"


@aio
async def test_a_games_log_is_sealed_while_it_goes_on(database: Path | str) -> None:
    """Nobody, the host included, can read the future from an export made mid-game: the seed,
    the salt, the deck orders and the cards nobody has seen are left out until the end."""
    seed = 2**100 + 7
    async with open_service(database) as service:
        await begun(service, ruleset="deck", seed=seed)
        await service.act(SCOPE, RollChaos(actor="ann"))  # a chaos card, face down
        await service.act(SCOPE, Spite(actor="bob"))  # seven cards only Bob may see
        game = (await service.current(SCOPE)).game
        salt = game.state.salt
        for text in (await service.export(SCOPE), await service.export(SCOPE)):
            sealed = [json.loads(line) for line in text.splitlines()]
            assert len(sealed) == len(game.events)
            assert str(seed) not in text
            assert salt not in text
            hidden = {e["type"]: e for e in sealed}
            assert hidden["game_started"]["seed"] is None
            assert hidden["game_started"]["commitment"] == game.state.commitment
            shuffled = [e for e in sealed if e["type"] == "deck_shuffled"]
            assert shuffled
            assert all(set(e["order"]) == {"?"} for e in shuffled)
            drawn = [e for e in sealed if e["type"] == "card_drawn" and e["player"]]
            assert len(drawn) == 8
            assert {e["card"] for e in drawn} == {"?"}
            assert {o["name"] for o in hidden["choice_offered"]["options"]} == {"?"}
        await service.act(SCOPE, End(actor="ann"))
        ended = (await service.latest(SCOPE)).game
        assert await service.export(SCOPE) == ended.export()  # over: the whole log


def test_fresh_seeds_are_too_many_to_try() -> None:
    """Every roll follows from the seed: 2**32 seeds could be tried against the dice seen."""
    from bot.service import random_seed

    seeds = [random_seed() for _ in range(50)]
    assert len(set(seeds)) == 50
    assert max(seed.bit_length() for seed in seeds) > 100
