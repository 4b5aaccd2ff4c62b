"""The commitment to the seed: what it is over, where it is logged, and that it replays."""

from __future__ import annotations

import hashlib

import pytest

from bot.engine import Begin, Event, Game, Join, Life, RollChaos, Undo
from bot.engine.fairness import commitment
from tests.engine.make_golden import PLAYERS, Driver
from tests.engine.rulesets import RULESETS


def test_the_commitment_is_sha256_of_the_prefix_the_seed_and_the_salt() -> None:
    expected = hashlib.sha256(b"chaos-referee:123456789:c0ffee").hexdigest()
    assert commitment(123456789, "c0ffee") == expected
    assert commitment(123456789, "c0ffef") != expected
    assert commitment(123456788, "c0ffee") != expected


def test_a_game_logs_its_commitment_at_the_start_and_a_replay_gives_the_same() -> None:
    game = Game.start(RULESETS["lists"](), seed=99, host="ann", name="Ann", salt="s", tables="t")
    started = game.events[1]
    assert started["type"] == "game_started"
    whole = commitment(
        99,
        "s",
        dice=3,
        ruleset="lists",
        revision=game.ruleset.revision,
        tables="t",
        host="ann",
        name="Ann",
        life=None,
    )
    assert started["commitment"] == whole
    assert started["tables"] == "t"
    assert game.state.commitment == whole
    assert Game.replay(game.ruleset, game.actions).events == game.events


def test_a_log_from_before_commitments_still_loads() -> None:
    game = Game.start(RULESETS["classic"](), seed=4, host="ann", name="Ann")
    old = [dict(e) for e in game.events]
    for event in old:
        event.pop("commitment", None)
        event.pop("salt", None)
    loaded = Game(game.ruleset, old)  # type: ignore[arg-type]
    assert loaded.state.commitment is None
    assert loaded.state.salt == ""


def rolled(events: list[Event]) -> list[object]:
    """The dice of an action's rolls and the cards it drew."""
    return [e.get("dice", e.get("card")) for e in events if e["type"] in ("roll", "card_drawn")]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_an_undone_roll_comes_again_whatever_was_done_in_between(ruleset: str, seed: int) -> None:
    # Undo as a reroll: the host undoes a roll they dislike and, before rolling again, does any
    # other action (a life change, a token, an away and back) to land on other dice.
    driver = Driver(ruleset, seed, PLAYERS)
    driver.turn()
    game = driver.game
    active = game.state.active
    assert active is not None
    first = game.act(RollChaos(actor=active))
    game.act(Undo(actor="ann"))
    game.act(Life(actor="ann", player="bob", mode="set", amount=20))
    game.act(Life(actor="ann", player="bob", mode="set", amount=20))
    again = game.act(RollChaos(actor=active))
    assert rolled(again) == rolled(first)
    assert rolled(again)


def test_a_turn_roll_doesnt_follow_the_actions_before_it_in_the_game() -> None:
    # The same turn's roll, whether or not something unrelated happened earlier in the turn.
    plain = Driver("classic", 11, PLAYERS)
    busy = Driver("classic", 11, PLAYERS)
    for driver in (plain, busy):
        driver.turn()
    busy.game.act(Life(actor="cy", mode="set", amount=2))
    rolls = [d.game.act(RollChaos(actor=d.game.state.active or "")) for d in (plain, busy)]
    assert rolled(rolls[0]) == rolled(rolls[1])


def test_a_game_begun_before_streams_rolls_and_replays_the_old_way() -> None:
    # A game in the database from before keeps its dice: every action after the k-th standing
    # one rolls from "SEED/k", as when it started.
    old = Game.start(RULESETS["classic"](), seed=21, host="ann", name="Ann", salt="s", dice=1)
    assert "dice" not in old.actions[0]
    assert "dice" not in old.events[1]
    old.act(Join(actor="bob", player_name="Bob"))
    old.act(Begin(actor="ann"))
    first = old.act(RollChaos(actor="ann"))
    old.act(Undo(actor="ann"))
    old.act(Life(actor="ann", player="bob", mode="set", amount=20))
    again = old.act(RollChaos(actor="ann"))
    assert rolled(again) != rolled(first)  # what streams put an end to
    loaded = Game(old.ruleset, old.events)
    assert loaded.state.dice == 1
    assert Game.replay(old.ruleset, old.actions).events == old.events
    with pytest.raises(ValueError, match="no such way"):
        Game.start(old.ruleset, seed=21, host="ann", name="Ann", dice=4)
