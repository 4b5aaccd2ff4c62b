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
from bot.engine.dice import Die
from bot.engine.fairness import commitment
from bot.engine.fold import apply
from bot.engine.house import MAX_ROUND, HouseRuleError, HouseRules
from bot.engine.resolve import MAX_DENIED_ROLLS
from bot.engine.state import GameState, Phase
from bot.engine.tables import Band, RollTable
from bot.render import Names
from bot.render.events import render_lines
from tests.engine import rulesets
from tests.engine.tiny import assert_consistent, entry, faces, of_type, ruleset

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


# -- deny-list ----------------------------------------------------------------------------------


def _bands(table_id: str, spans: list[tuple[int, int, str]]) -> RollTable:
    """A d(top) list of weighted bands: (low, high, entry id)."""
    top = spans[-1][1]
    bands = tuple(Band(low, high, entry(key)) for low, high, key in spans)
    return RollTable(table_id, table_id, Die(top), bands)


def _solo(rules: Ruleset, deny: tuple[tuple[str, str], ...], seed: int) -> Game:
    game = Game.start(rules, seed=seed, host="ann", name="Ann", house=HouseRules(deny=deny))
    game.act(Begin(actor="ann"))
    return game


@settings(max_examples=15, deadline=None)
@given(
    spans=st.lists(st.integers(1, 6), min_size=2, max_size=8),
    picks=st.data(),
    seed=st.integers(0, 2**32),
)
def test_a_denied_entry_never_comes_up_in_2000_rolls(
    spans: list[int], picks: st.DataObject, seed: int
) -> None:
    """Weighted bands, some denied (never all): 2,000 extra rolls give no denied entry, every
    denied result is logged in its roll, and the game verifies by replay."""
    low, bands = 1, []
    for n, width in enumerate(spans):
        bands.append((low, low + width - 1, f"e{n}"))
        low += width
    keys = [key for _, _, key in bands]
    denied = picks.draw(st.sets(st.sampled_from(keys), min_size=1, max_size=len(keys) - 1))
    rules = ruleset(_bands("chaos", bands))
    game = _solo(rules, tuple(("chaos", key) for key in denied), seed)
    for _ in range(2000):
        game.act(RollChaos(actor="ann", extra=True, referee=True))
    rolls = of_type(game.events, "roll")
    assert len(rolls) == 2000
    assert not [r for r in rolls if r["entry"]["id"] in denied]
    said = [d for r in rolls for d in r.get("denied", [])]
    assert said
    assert all(d["entry"]["id"] in denied for d in said)
    # The odds among what is left keep their weights: each allowed band's share is near its
    # width's share of the allowed widths (loose bounds: 2,000 rolls).
    allowed = {key: high - low + 1 for low, high, key in bands if key not in denied}
    total = sum(allowed.values())
    for key, width in allowed.items():
        share = sum(1 for r in rolls if r["entry"]["id"] == key) / len(rolls)
        assert abs(share - width / total) < 0.08, (key, share, width / total)
    assert Game.replay(game.ruleset, game.actions).events == game.events


def test_a_denied_result_is_rolled_again_with_the_rolls_own_dice_and_rendered() -> None:
    rules = ruleset(faces("chaos", entry("a", "Apple"), entry("b", "Bee"), entry("c", "Cat")))
    game = _solo(rules, (("chaos", "b"),), 1)
    for _ in range(40):
        game.act(RollChaos(actor="ann", extra=True, referee=True))
    rolled = [r for r in of_type(game.events, "roll") if r.get("denied")]
    assert rolled
    assert rolled[0]["denied"][0]["entry"] == {"id": "b", "name": "Bee"}
    assert rolled[0]["entry"]["id"] != "b"
    lines = render_lines(game.events, Names.of(game))
    assert any("denied by a house rule and rolled again: #2 Bee." in line for line in lines)
    assert_consistent(game)


def test_a_deny_of_every_entry_leaves_the_list_as_it_is() -> None:
    """Refused when set; if the tables changed since, the list rolls as if nothing were denied."""
    rules = ruleset(faces("chaos", entry("a"), entry("b")))
    game = _solo(rules, (("chaos", "a"), ("chaos", "b")), 1)
    game.act(RollChaos(actor="ann", extra=True, referee=True))
    assert not of_type(game.events, "roll")[0].get("denied")


def test_a_list_almost_all_denied_draws_by_weight_in_bounded_time() -> None:
    """One result left of 200: after MAX_DENIED_ROLLS denied results the roll is drawn among
    the results not denied, and says so."""
    rules = ruleset(faces("chaos", *[entry(f"e{n}") for n in range(200)]))
    deny = tuple(("chaos", f"e{n}") for n in range(1, 200))
    game = _solo(rules, deny, 2)
    for _ in range(5):
        game.act(RollChaos(actor="ann", extra=True, referee=True))
    rolls = of_type(game.events, "roll")
    assert {r["entry"]["id"] for r in rolls} == {"e0"}
    assert any(r.get("drawn") for r in rolls)
    assert all(len(r.get("denied", [])) <= MAX_DENIED_ROLLS for r in rolls)
    assert_consistent(game)


# -- no repeats ---------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    spans=st.lists(st.integers(1, 5), min_size=2, max_size=12),
    denied=st.sets(st.integers(0, 11), max_size=3),
    seed=st.integers(0, 2**32),
)
def test_with_no_repeats_a_list_of_n_entries_gives_n_different_ones_first(
    spans: list[int], denied: set[int], seed: int
) -> None:
    """Weighted bands, a few denied: the first rolls give every entry not denied once each,
    then the list starts over (the roll says so), and gives them all once again."""
    low, bands = 1, []
    for n, width in enumerate(spans):
        bands.append((low, low + width - 1, f"e{n}"))
        low += width
    keys = [key for _, _, key in bands]
    barred = {f"e{n}" for n in denied if f"e{n}" in keys}
    if len(barred) == len(keys):
        barred = set()
    rules = ruleset(_bands("chaos", bands))
    house = HouseRules(deny=tuple(("chaos", key) for key in barred), repeats="never")
    game = Game.start(rules, seed=seed, host="ann", name="Ann", house=house)
    game.act(Begin(actor="ann"))
    left = len(keys) - len(barred)
    for _ in range(2 * left + 1):
        game.act(RollChaos(actor="ann", extra=True, referee=True))
    rolls = of_type(game.events, "roll")
    first, second = rolls[:left], rolls[left : 2 * left]
    assert len({r["entry"]["id"] for r in first}) == left
    assert len({r["entry"]["id"] for r in second}) == left
    assert not {r["entry"]["id"] for r in rolls} & barred
    assert [n for n, r in enumerate(rolls) if r.get("fresh")] == [left, 2 * left]
    assert_consistent(game)


def test_no_repeats_keeps_the_weights_of_what_is_left() -> None:
    """A d10 list: one band of 1-6, one of 7-9, one of 10. Of the second rolls of each cycle
    (after the wide band came first), 7-9 comes up three times as often as 10."""
    rules = ruleset(_bands("chaos", [(1, 6, "wide"), (7, 9, "mid"), (10, 10, "narrow")]))
    second: dict[str, int] = {"mid": 0, "narrow": 0}
    for seed in range(300):
        game = Game.start(
            rules, seed=seed, host="ann", name="Ann", house=HouseRules(repeats="never")
        )
        game.act(Begin(actor="ann"))
        game.act(RollChaos(actor="ann", extra=True, referee=True))
        game.act(RollChaos(actor="ann", extra=True, referee=True))
        rolls = of_type(game.events, "roll")
        if rolls[0]["entry"]["id"] == "wide":
            second[rolls[1]["entry"]["id"]] += 1
    ratio = second["mid"] / max(second["narrow"], 1)
    assert 2.0 < ratio < 4.5, second


def test_a_repeat_is_logged_and_rendered() -> None:
    rules = ruleset(faces("chaos", entry("a", "Apple"), entry("b", "Bee"), entry("c", "Cat")))
    game = Game.start(rules, seed=4, host="ann", name="Ann", house=HouseRules(repeats="never"))
    game.act(Begin(actor="ann"))
    for _ in range(9):
        game.act(RollChaos(actor="ann", extra=True, referee=True))
    lines = "\n".join(render_lines(game.events, Names.of(game)))
    assert "came up already (no repeats)" in lines
    assert "every entry of this list has come up: it starts over (no repeats)." in lines
    assert fold(game.events).given == game.state.given
