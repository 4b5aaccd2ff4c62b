"""House rules (issue 26): kept by a game from its start, committed with it, enforced by the
engine. Chaos from round N: before round N nothing of chaos is in the log, whatever is tried."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Action,
    Begin,
    ChaosError,
    Game,
    Join,
    Life,
    NextTurn,
    RollChaos,
    RollGlobal,
    Ruleset,
    Spite,
    fold,
)
from bot.engine.fairness import commitment
from bot.engine.fold import apply
from bot.engine.house import MAX_ROUND, HouseRuleError, HouseRules
from bot.engine.state import GameState, Phase
from tests.engine import rulesets
from tests.engine.tiny import assert_consistent, of_type

# What chaos leaves in a log: a roll or card on the stack, a roll, a card drawn or played,
# an offer, a spite.
CHAOS_EVENTS = frozenset(
    {"stack", "roll", "card_drawn", "offer_made", "spite_started", "choice_offered"}
)
RULESETS: dict[str, Callable[[], Ruleset]] = {
    "classic": rulesets.classic,
    "lists": rulesets.lists,
    "deck": rulesets.deck,
}


def started(
    rules: Ruleset, house: HouseRules, players: tuple[str, ...] = ("ann", "bob", "cy")
) -> Game:
    host, *others = players
    game = Game.start(rules, seed=11, host=host, name=host.title(), house=house)
    for player in others:
        game.act(Join(actor=player, player_name=player.title()))
    game.act(Begin(actor=host))
    return game


def test_the_defaults_log_and_commit_nothing() -> None:
    game = Game.start(rulesets.classic(), seed=5, host="ann", name="Ann", house=HouseRules())
    assert "house" not in game.events[0]["action"]  # type: ignore[typeddict-item]
    assert "house" not in game.events[1]
    plain = Game.start(rulesets.classic(), seed=5, host="ann", name="Ann")
    assert game.events == plain.events


def test_house_rules_are_logged_kept_and_committed() -> None:
    house = HouseRules(chaos_from=3)
    game = Game.start(rulesets.classic(), seed=5, host="ann", name="Ann", house=house)
    assert game.events[0]["action"]["house"] == house.to_json()  # type: ignore[typeddict-item]
    assert game.state.house == house
    assert fold(game.events).house == house
    assert Game.replay(game.ruleset, game.actions).events == game.events
    bare = commitment(5, "", dice=3, ruleset="classic", host="ann", name="Ann")
    ruled = commitment(5, "", dice=3, ruleset="classic", host="ann", name="Ann", house={"x": 1})
    assert bare != ruled


@pytest.mark.parametrize(
    "data",
    [
        {"chaos_from": 0},
        {"chaos_from": MAX_ROUND + 1},
        {"chaos_from": True},
        {"chaos_from": "3"},
        {"colour": "red"},
        [],
    ],
)
def test_damaged_house_rules_are_refused(data: object) -> None:
    with pytest.raises(HouseRuleError):
        HouseRules.from_json(data)


def test_house_rules_round_trip() -> None:
    house = HouseRules(chaos_from=4)
    assert HouseRules.from_json(house.to_json()) == house
    assert HouseRules.from_json({}) == HouseRules() == HouseRules.from_json(None)


def test_rounds_are_as_long_as_the_seated_players() -> None:
    game = started(rulesets.classic(), HouseRules(chaos_from=3))
    rounds = [game.state.round]
    for _ in range(6):
        game.act(NextTurn(actor=game.state.active or "ann"))
        rounds.append(game.state.round)
    assert rounds == [1, 1, 1, 2, 2, 2, 3]


def test_before_chaos_starts_nothing_is_owed_and_rolls_are_refused() -> None:
    game = started(rulesets.lists(), HouseRules(chaos_from=2))
    assert game.state.chaos_waits()
    with pytest.raises(ChaosError, match="chaos starts in round 2"):
        game.act(RollChaos(actor="ann"))
    with pytest.raises(ChaosError, match="chaos starts in round 2"):
        game.act(RollChaos(actor="ann", extra=True, referee=True))
    with pytest.raises(ChaosError, match="chaos starts in round 2"):
        game.act(RollGlobal(actor="ann", referee=True))
    for player in ("ann", "bob"):
        game.act(NextTurn(actor=player))  # no roll owed
    assert not of_type(game.events, "stack")
    game.act(NextTurn(actor="cy"))
    assert not game.state.chaos_waits()
    # The start roll (this ruleset's Global) waited for chaos, and came with round 2.
    assert of_type(game.events, "stack")[0]["purpose"] == "global"
    with pytest.raises(ChaosError, match="hasn't made this turn's chaos roll"):
        game.act(NextTurn(actor="ann"))
    game.act(RollChaos(actor="ann"))
    assert of_type(game.events, "stack")[-1]["purpose"] == "turn"
    assert_consistent(game)


def test_a_loss_before_chaos_starts_has_no_spite() -> None:
    rules = rulesets.lists()
    game = started(rules, HouseRules(chaos_from=2))
    game.act(Spite(actor="ann", player="bob", reason="poison", referee=True))
    assert game.state.players["bob"].status == "out"
    assert not of_type(game.events, "spite_started")
    assert (
        "no spite before chaos starts in round 2" in of_type(game.events, "player_out")[0]["reason"]
    )


# -- the property: before round N, no chaos event is in the log ------------------------------

MOVES = ("roll", "extra", "global", "next", "override", "lose", "spite")


def _move(game: Game, move: str) -> Action:
    state = game.state
    active = state.active or state.current or "ann"
    match move:
        case "roll":
            return RollChaos(actor=active)
        case "extra":
            return RollChaos(actor="ann", extra=True, referee=True)
        case "global":
            return RollGlobal(actor="ann", referee=True)
        case "next":
            return NextTurn(actor=active)
        case "override":
            return NextTurn(actor="ann", override=True, referee=True)
        case "lose":
            return Life(actor="ann", player=active, mode="lose", amount=30, referee=True)
        case _:
            return Spite(actor="ann", player=active, reason="poison", referee=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(sorted(RULESETS)),
    chaos_from=st.integers(2, 4),
    seats=st.integers(2, 4),
    moves=st.lists(st.sampled_from(MOVES), max_size=40),
)
def test_before_round_n_no_chaos_event_is_in_the_log(
    kind: str, chaos_from: int, seats: int, moves: list[str]
) -> None:
    players = ("ann", "bob", "cy", "dan")[:seats]
    game = started(RULESETS[kind](), HouseRules(chaos_from=chaos_from), players)
    for move in moves:
        if game.state.phase is Phase.ENDED:
            break
        with contextlib.suppress(ChaosError):
            game.act(_move(game, move))
    state = GameState()
    for event in game.events:
        apply(state, event)
        if state.round < chaos_from:
            assert event["type"] not in CHAOS_EVENTS, (state.round, event)
    assert_consistent(game)
