"""Effects that outlast their roll: each duration, how it ends, and the events that announce it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

import pytest

from bot.engine import (
    Band,
    Begin,
    ChaosSource,
    Die,
    Duration,
    EndEffect,
    Entry,
    Event,
    ExtraTurn,
    Game,
    Join,
    Kind,
    Lasts,
    Leave,
    NextTurn,
    NotYourTurnError,
    RollChaos,
    RollTable,
    RulesError,
    Ruleset,
    fold,
)
from tests.engine.rulesets import classic

PLAYERS = ("ann", "bob", "cat", "dan")


def d2(table_id: str, **kw: Any) -> RollTable:
    """A d2 list whose two entries do the same thing, so any roll on it is predictable."""
    bands = tuple(
        Band(n, n, Entry(id=str(n), name=f"{table_id} {n}", text=f"Rule {n}.", **kw))
        for n in (1, 2)
    )
    return RollTable(table_id, table_id, Die(2), bands)


def lasting_ruleset() -> Ruleset:
    """A calm chaos list plus one list per duration (rolling on those isn't the chaos roll)."""
    tables = [
        d2("chaos"),
        d2("eot", duration=Duration(Lasts.END_OF_TURN)),
        d2("next", duration=Duration(Lasts.NEXT_TURN)),
        d2("turns1", duration=Duration(Lasts.TURNS, 1)),
        d2("turns2", duration=Duration(Lasts.TURNS, 2)),
        d2("turns3", duration=Duration(Lasts.TURNS, 3)),
        d2("permanent", duration=Duration(Lasts.PERMANENT)),
        d2("removed", duration=Duration(Lasts.UNTIL_REMOVED)),
        d2("world", kind=Kind.WORLD),
    ]
    return Ruleset(
        id="lasting",
        name="Lasting",
        chaos=ChaosSource.TABLE,
        chaos_table="chaos",
        tables={t.id: t for t in tables},
    )


def new_game(players: int = 3, ruleset: Ruleset | None = None) -> Game:
    game = Game.start(ruleset or lasting_ruleset(), seed=11, host="ann", name="Ann")
    for pid in PLAYERS[1:players]:
        game.act(Join(actor=pid, player_name=pid.title()))
    game.act(Begin(actor="ann"))
    return game


def of_type(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    return [cast(dict[str, Any], e) for e in events if e["type"] == kind]


def start_effect(game: Game, table: str) -> int:
    """The active player rolls on `table`; the id of the effect that roll left in play."""
    actor = game.state.active
    assert actor is not None
    started = of_type(game.act(RollChaos(actor=actor, referee=True, table=table)), "effect_started")
    assert len(started) == 1
    return int(started[0]["id"])


def finish_turn(game: Game) -> list[Event]:
    """The active player makes the chaos roll and passes the turn."""
    actor = game.state.active
    assert actor is not None
    game.act(RollChaos(actor=actor))
    return game.act(NextTurn(actor=actor))


def ended(events: Iterable[Event], effect_id: int) -> list[str]:
    """The reasons given for ending `effect_id` in `events`."""
    return [e["reason"] for e in of_type(events, "effect_ended") if e["id"] == effect_id]


# -- how each duration ends ------------------------------------------------------------------


def test_effect_start_is_announced_with_its_duration_and_owner():
    game = new_game()
    events = game.act(RollChaos(actor="ann", table="turns2"))
    started = of_type(events, "effect_started")
    assert len(started) == 1
    announced = started[0]
    assert announced["owner"] == "ann"
    assert (announced["lasts"], announced["turns"]) == ("turns", 2)
    assert announced["kind"] == "effect"
    assert announced["text"].startswith("Rule ")
    effect = game.state.effects[announced["id"]]
    assert (effect.lasts, effect.turns_left, effect.started_turn) == (Lasts.TURNS, 2, 1)


def test_rolling_on_a_side_list_is_not_the_chaos_roll():
    game = new_game()
    start_effect(game, "eot")
    assert not game.state.rolled


def test_end_of_turn_effect_ends_when_the_turn_ends():
    game = new_game()
    effect = start_effect(game, "eot")
    game.act(RollChaos(actor="ann"))
    assert effect in game.state.effects
    events = game.act(NextTurn(actor="ann"))
    assert ended(events, effect) == ["the turn ended"]
    assert effect not in game.state.effects
    # it ends with the turn, before the next one starts
    types = [e["type"] for e in events]
    assert types.index("effect_ended") < types.index("turn_started")


def test_next_turn_effect_lasts_until_its_owner_next_turn_starts():
    game = new_game(3)
    effect = start_effect(game, "next")
    for _ in range(2):  # bob's and cat's turns start: the effect stays
        assert ended(finish_turn(game), effect) == []
        assert effect in game.state.effects
    events = finish_turn(game)  # back to ann
    assert ended(events, effect) == ["Ann's next turn began"]
    types = [e["type"] for e in events]
    assert types.index("turn_started") < types.index("effect_ended")
    assert effect not in game.state.effects


def test_next_turn_effect_belongs_to_whoever_rolled_it():
    game = new_game(3)
    finish_turn(game)  # bob's turn
    effect = start_effect(game, "next")
    assert game.state.effects[effect].owner == "bob"
    finish_turn(game)  # cat
    finish_turn(game)  # ann: not bob's turn yet
    assert effect in game.state.effects
    assert ended(finish_turn(game), effect) == ["Bob's next turn began"]


def test_next_turn_effect_ends_at_an_extra_turn_taken_right_away():
    game = new_game(3)
    effect = start_effect(game, "next")
    game.act(ExtraTurn(actor="ann"))
    events = finish_turn(game)
    assert of_type(events, "turn_started")[0]["extra"] is True
    assert ended(events, effect) == ["Ann's next turn began"]


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_effect_for_n_turns_counts_turn_ends_starting_with_this_one(turns):
    game = new_game(2)
    effect = start_effect(game, f"turns{turns}")
    for done in range(1, turns):
        assert ended(finish_turn(game), effect) == []
        assert game.state.effects[effect].turns_left == turns - done
    assert ended(finish_turn(game), effect) == ["its turns ran out"]
    assert effect not in game.state.effects
    assert game.state.turn == turns + 1


@pytest.mark.parametrize("table", ["permanent", "removed", "world"])
def test_lasting_effects_stay_until_ended_by_hand(table):
    game = new_game(3)
    effect = start_effect(game, table)
    for _ in range(7):
        assert ended(finish_turn(game), effect) == []
    assert effect in game.state.effects
    events = game.act(EndEffect(actor="ann", effect=effect))
    assert ended(events, effect) == ["ended by Ann"]
    assert effect not in game.state.effects


def test_only_the_owner_or_an_official_ends_an_effect_by_hand():
    game = new_game(3)
    finish_turn(game)  # bob
    effect = start_effect(game, "permanent")
    with pytest.raises(NotYourTurnError):
        game.act(EndEffect(actor="cat", effect=effect))
    assert effect in game.state.effects
    events = game.act(EndEffect(actor="cat", referee=True, effect=effect))
    assert ended(events, effect) == ["ended by Cat"]


def test_owner_may_end_their_own_effect_on_anyone_turn():
    game = new_game(3)
    effect = start_effect(game, "removed")
    finish_turn(game)  # bob's turn now
    assert ended(game.act(EndEffect(actor="ann", effect=effect)), effect) == ["ended by Ann"]


def test_ending_an_unknown_effect_is_refused():
    game = new_game()
    with pytest.raises(RulesError, match="no such effect in play"):
        game.act(EndEffect(actor="ann", effect=99))


def test_ending_an_effect_twice_is_refused():
    game = new_game()
    effect = start_effect(game, "permanent")
    game.act(EndEffect(actor="ann", effect=effect))
    number = game.state.effect_numbers[effect]
    with pytest.raises(RulesError, match=f"E{number} isn't in play any more"):
        game.act(EndEffect(actor="ann", effect=effect))


def test_every_started_effect_has_a_matching_end_with_a_reason():
    game = new_game(2)
    ids = [start_effect(game, t) for t in ("eot", "next", "turns1", "turns2")]
    events: list[Event] = []
    for _ in range(3):
        events += finish_turn(game)
    reasons = {e["id"]: e["reason"] for e in of_type(events, "effect_ended")}
    assert sorted(reasons) == sorted(ids)
    assert all(reasons.values())
    assert game.state.effects == {}


# -- leaving the game ------------------------------------------------------------------------


def test_a_player_effects_end_when_they_leave_but_world_enchantments_stay():
    game = new_game(3)
    ann_effect = start_effect(game, "permanent")
    finish_turn(game)  # bob
    bob_effects = [start_effect(game, t) for t in ("permanent", "next")]
    world = start_effect(game, "world")
    finish_turn(game)  # cat
    events = game.act(Leave(actor="bob"))
    for effect in bob_effects:
        assert ended(events, effect) == ["Bob left the game"]
        assert effect not in game.state.effects
    assert ended(events, ann_effect) == []
    assert ann_effect in game.state.effects
    assert ended(events, world) == []
    assert game.state.effects[world].owner is None


def test_classic_start_world_enchantment_stays_in_play():
    game = new_game(3, ruleset=classic())
    worlds = [e for e in game.state.effects.values() if e.kind == "world"]
    assert len(worlds) == 1
    world = worlds[0]
    assert (world.owner, world.lasts, world.source is not None) == (None, Lasts.PERMANENT, True)
    assert game.events[-1]["type"] == "turn_started"
    rolled_by = [e["player"] for e in game.events if e["type"] == "roll"]
    assert rolled_by == ["ann"]  # the first player rolls it
    for _ in range(6):
        game.act(NextTurn(actor="ann", override=True))
    game.act(Leave(actor="ann"))
    assert world.id in game.state.effects


def test_fold_rebuilds_the_effects():
    game = new_game(3)
    for table in ("eot", "next", "turns3", "removed", "world"):
        start_effect(game, table)
    finish_turn(game)
    finish_turn(game)
    game.act(Leave(actor="cat"))
    assert fold(game.events) == game.state
    remaining = sorted(e.lasts.value for e in game.state.effects.values())
    assert remaining == ["next_turn", "permanent", "turns", "until_removed"]
