"""Life changes a result declares (issue 23, life on the board): counted when the result is
honoured, rolled from the roll's own ``life`` dice, taken back by a CounterRoll, unsure where
only the table can count them, and a total they drop below 1 starts the spite rule."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    ChaosError,
    Counter,
    Fork,
    Game,
    Kind,
    NextTurn,
    RollChaos,
    Ruleset,
    SpitePolicy,
    Token,
    parse_expr,
)
from bot.engine.actions import Life, Reverse, Undo
from bot.engine.lifegain import (
    Amount,
    LifeChange,
    LifeGain,
    LifeOp,
    Rotate,
    Share,
    Swap,
    Table,
    Who,
)
from bot.engine.spite import below_one
from bot.engine.state import Status
from tests.engine.tiny import assert_consistent, entry, fixed, new_game, of_type, ruleset

PLAYERS = ("ann", "bob", "cy")


def lose(n: str, who: Who = Who.YOU, **kw: Any) -> LifeChange:
    return LifeChange(LifeOp.LOSE, Amount(parse_expr(n)), who, **kw)


CHANGES: dict[str, dict[str, Any]] = {
    "tithe": {  # Blood Tithe: each opponent loses 2, you gain 2 for each
        "life_changes": (lose("2", Who.OPPONENTS),),
        "gains_life": True,
        "life": LifeGain(parse_expr("2"), per_opponent=True),
    },
    "tutor": {"life_changes": (lose("2"),)},  # Vampiric Tutor
    "pay": {"life_changes": (LifeChange(LifeOp.PAY, Amount(parse_expr("3"))),)},
    "smallpox": {"life_changes": (lose("1", Who.EACH),)},
    "backfire": {"life_changes": (lose("1d6"),)},
    "equal": {"life_changes": (LifeChange(LifeOp.SET, Amount(parse_expr("10")), Who.EACH),)},
    "swap": {"life_changes": (LifeChange(LifeOp.SWAP, swap=Swap.OPPONENT),)},
    "swaprandom": {"life_changes": (LifeChange(LifeOp.SWAP, swap=Swap.RANDOM),)},
    "left": {"life_changes": (LifeChange(LifeOp.ROTATE, rotate=Rotate.LEFT),)},
    "right": {"life_changes": (LifeChange(LifeOp.ROTATE, rotate=Rotate.RIGHT),)},
    "next": {"life_changes": (LifeChange(LifeOp.ROTATE, rotate=Rotate.NEXT),)},
    "unsure": {"life_changes": (LifeChange(LifeOp.UNSURE, who=Who.EACH),)},
    "feast": {"life_changes": (lose("4", Who.OPPONENT),)},  # "target opponent loses 4"
    "reanimate": {"life_changes": (LifeChange(LifeOp.LOSE, Amount(), Who.YOU),)},
    "taxday": {
        "text": "Each opponent loses {1d3} life.",
        "life_changes": (LifeChange(LifeOp.LOSE, Amount(rolled=True), Who.OPPONENTS),),
    },
    "undeclared": {"text": "You lose some life.", "life_undeclared": True},
    "heal": {"gains_life": True, "life": LifeGain(parse_expr("3"))},
    "pox": {
        "life_changes": (LifeChange(LifeOp.LOSE, Amount(share=Share.THIRD, up=True), Who.EACH),)
    },
    "rain": {"life_changes": (LifeChange(LifeOp.LOSE, Amount(share=Share.HALF), Who.EACH),)},
    "repay": {"life_changes": (LifeChange(LifeOp.SET, Amount(table=Table.LOWEST), Who.EACH),)},
    "wealth": {
        "life_changes": (LifeChange(LifeOp.SET, Amount(table=Table.AVERAGE, up=True), Who.EACH),)
    },
    "congregate": {"gains_life": True, "life": LifeGain()},  # "ask": only the table knows
}


def rules(
    life: int | None = 20, spite: SpitePolicy = SpitePolicy.NONE, spite_table: str | None = None
) -> Ruleset:
    tables = [fixed("chaos", entry("calm", "Calm", text="Nothing happens."))]
    for key, fields in CHANGES.items():
        tables.append(fixed(key, entry(key, key.title(), **fields)))
    tables.append(
        fixed("grant", entry("g", "Grant", kind=Kind.TOKEN, token=Token.COUNTER, count=3))
    )
    made = ruleset(*tables, life=life)
    return replace(made, spite=spite, spite_table=spite_table)


def totals(game: Game) -> dict[str, tuple[int | None, bool]]:
    return {p: (game.state.players[p].life, game.state.players[p].unsure) for p in game.state.order}


def roll(game: Game, table: str) -> None:
    game.act(RollChaos(actor="ann", table=table, referee=True))


def test_blood_tithe_and_vampiric_tutor_cost_what_the_cards_say() -> None:
    game = new_game(rules(), players=("ann", "bob"))
    roll(game, "tithe")
    assert totals(game) == {"ann": (22, False), "bob": (18, False)}
    roll(game, "tutor")
    assert totals(game) == {"ann": (20, False), "bob": (18, False)}
    roll(game, "pay")
    roll(game, "smallpox")
    assert totals(game) == {"ann": (16, False), "bob": (17, False)}
    assert_consistent(game)


def test_each_and_per_opponent_count_the_players_still_in() -> None:
    game = new_game(rules(), players=PLAYERS)
    roll(game, "tithe")
    assert totals(game) == {"ann": (24, False), "bob": (18, False), "cy": (18, False)}
    roll(game, "equal")
    assert {p: life for p, (life, _) in totals(game).items()} == dict.fromkeys(PLAYERS, 10)


def test_rotations_follow_the_seats_and_the_direction_of_play() -> None:
    game = new_game(rules(), players=PLAYERS)
    game.act(Life(actor="ann", player="bob", mode="set", amount=15))
    game.act(Life(actor="ann", player="cy", mode="set", amount=10))
    roll(game, "left")  # each takes the total of the player on their left: the next seat
    assert {p: t[0] for p, t in totals(game).items()} == {"ann": 15, "bob": 10, "cy": 20}
    roll(game, "right")
    assert {p: t[0] for p, t in totals(game).items()} == {"ann": 20, "bob": 15, "cy": 10}
    game.act(Reverse(actor="ann"))
    roll(game, "next")  # play goes the other way: the player after Ann is Cy
    assert {p: t[0] for p, t in totals(game).items()} == {"ann": 10, "bob": 20, "cy": 15}
    assert_consistent(game)


def test_a_swap_with_the_only_opponent_is_counted_and_with_several_is_unsure() -> None:
    game = new_game(rules(), players=("ann", "bob"))
    game.act(Life(actor="ann", player="bob", mode="set", amount=7))
    roll(game, "swap")
    assert totals(game) == {"ann": (7, False), "bob": (20, False)}
    three = new_game(rules(), players=PLAYERS)
    roll(three, "swap")
    assert totals(three) == dict.fromkeys(PLAYERS, (20, True))


def test_a_random_swap_rolls_a_life_die_named_in_the_log() -> None:
    game = new_game(rules(), players=PLAYERS)
    game.act(Life(actor="ann", player="bob", mode="set", amount=5))
    game.act(Life(actor="ann", player="cy", mode="set", amount=9))
    events = game.act(RollChaos(actor="ann", table="swaprandom", referee=True))
    (dice,) = [e for e in of_type(events, "dice") if e["purpose"] == "life"]
    assert dice["n"] == 0
    (thrown,) = {e["dice"]["expr"] for e in of_type(events, "life")}
    assert thrown == "1d2"
    assert sorted(t[0] or 0 for t in totals(game).values()) == [5, 9, 20]
    assert game.state.players["ann"].life in (5, 9)
    assert_consistent(game)


def test_dice_in_a_change_are_the_rolls_own_and_the_text_dice_count() -> None:
    game = new_game(rules(), players=("ann", "bob"))
    events = game.act(RollChaos(actor="ann", table="backfire", referee=True))
    (life,) = of_type(events, "life")
    assert life["delta"] == -sum(life["dice"]["faces"])
    assert 1 <= -life["delta"] <= 6
    assert [e["purpose"] for e in of_type(events, "dice")] == ["list", "life"]
    events = game.act(RollChaos(actor="ann", table="taxday", referee=True))
    (rolled,) = of_type(events, "roll")[0]["inline"]
    (bob,) = of_type(events, "life")
    assert bob["player"] == "bob"
    assert bob["delta"] == -rolled["total"]


def test_what_only_the_table_can_count_is_unsure_until_a_player_sets_it() -> None:
    game = new_game(rules(), players=PLAYERS)
    roll(game, "feast")  # "target opponent": Bob or Cy
    assert totals(game) == {"ann": (20, False), "bob": (20, True), "cy": (20, True)}
    roll(game, "reanimate")
    roll(game, "tutor")
    assert totals(game)["ann"] == (18, True)  # counted, and still unsure
    game.act(Life(actor="ann", player="ann", mode="lose", amount=1))
    assert totals(game)["ann"] == (17, True)  # a loss on an unsure total leaves it unsure
    events = game.act(Life(actor="ann", player="ann", mode="set", amount=12))
    assert totals(game)["ann"] == (12, False)
    assert [e["unsure"] for e in of_type(events, "life_unsure")] == [False]
    assert_consistent(game)


def test_shares_and_totals_read_off_the_table_are_counted_from_the_totals() -> None:
    game = new_game(rules(), players=PLAYERS)
    game.act(Life(actor="ann", player="bob", mode="set", amount=7))
    game.act(Life(actor="ann", player="cy", mode="set", amount=0 + 2))
    roll(game, "pox")  # a third, rounded up: 20 -> 13, 7 -> 4, 2 -> 1
    assert {p: t[0] for p, t in totals(game).items()} == {"ann": 13, "bob": 4, "cy": 1}
    roll(game, "rain")  # a half, rounded down: 13 -> 7, 4 -> 2, 1 -> 1
    assert {p: t[0] for p, t in totals(game).items()} == {"ann": 7, "bob": 2, "cy": 1}
    roll(game, "wealth")  # (7 + 2 + 1) / 3 = 3.33, rounded up
    assert {p: t[0] for p, t in totals(game).items()} == dict.fromkeys(PLAYERS, 4)
    game.act(Life(actor="ann", player="cy", mode="set", amount=9))
    roll(game, "repay")
    assert {p: t[0] for p, t in totals(game).items()} == dict.fromkeys(PLAYERS, 4)
    roll(game, "feast")  # makes Bob's and Cy's totals unsure
    roll(game, "rain")  # counted on the totals as they stand; unsure ones stay unsure
    assert totals(game) == {"ann": (2, False), "bob": (2, True), "cy": (2, True)}
    roll(game, "wealth")  # reads totals the bot isn't sure of: every total it sets is unsure
    assert totals(game) == dict.fromkeys(PLAYERS, (2, True))
    assert_consistent(game)


def test_an_entry_that_speaks_of_life_and_declares_nothing_makes_every_total_unsure() -> None:
    game = new_game(rules(), players=PLAYERS)
    roll(game, "undeclared")
    assert totals(game) == dict.fromkeys(PLAYERS, (20, True))
    game2 = new_game(rules(), players=PLAYERS)
    roll(game2, "congregate")  # a gain only the table can count, outside a spite
    assert totals(game2)["ann"] == (20, True)


def test_untracked_life_stays_untracked() -> None:
    game = new_game(rules(life=None), players=PLAYERS)
    for table in ("tithe", "swap", "left", "unsure", "undeclared", "pox", "wealth"):
        roll(game, table)
    assert totals(game) == dict.fromkeys(PLAYERS, (None, False))


def test_a_counter_takes_back_the_totals_and_whether_the_bot_is_sure() -> None:
    for table in ("tithe", "swap", "left", "unsure", "smallpox", "undeclared", "pox", "repay"):
        game = new_game(rules(), players=PLAYERS)
        roll(game, "grant")
        game.act(Life(actor="ann", player="bob", mode="set", amount=13))
        before = totals(game)
        roll(game, table)
        assert totals(game) != before, table
        game.act(Counter(actor="ann"))
        assert totals(game) == before, table
        game.act(Counter(actor="ann"))  # countering the counter does it all again
        assert totals(game) != before, table
        assert_consistent(game)


def test_a_total_a_result_drops_below_1_starts_the_spite_rule_as_life_lose_does() -> None:
    game = new_game(rules(), players=PLAYERS)
    game.act(Life(actor="ann", player="bob", mode="set", amount=1))
    roll(game, "smallpox")  # the ruleset has no spite: Bob is out, as after `life lose`
    assert game.state.players["bob"].status is Status.OUT
    assert game.state.players["ann"].status is Status.PLAYING
    spite = rules(spite=SpitePolicy.LIFE_GAIN_ROLL, spite_table="heal")
    game = new_game(spite, players=PLAYERS)
    game.act(Life(actor="ann", player="bob", mode="set", amount=2))
    events = game.act(RollChaos(actor="ann", table="tithe", referee=True))
    (started,) = of_type(events, "spite_started")
    assert started["player"] == "bob"
    assert game.state.players["bob"].life == 3  # set to 0, then the spite roll's 3
    assert_consistent(game)


def test_an_unsure_total_below_1_waits_for_a_player_to_set_it() -> None:
    game = new_game(rules(), players=PLAYERS)
    game.act(Life(actor="ann", player="bob", mode="set", amount=1))
    roll(game, "unsure")
    roll(game, "smallpox")
    assert totals(game)["bob"] == (0, True)
    assert game.state.players["bob"].status is Status.PLAYING
    game.act(Life(actor="ann", player="bob", mode="set", amount=0))
    assert str(game.state.players["bob"].status) == Status.OUT.value
    # A player's own word on an unsure total counts: `life lose` below 1 starts the spite rule,
    # which sets the total to 0 and so knows it.
    spite = rules(spite=SpitePolicy.LIFE_GAIN_ROLL, spite_table="heal")
    game = new_game(spite, players=PLAYERS)
    roll(game, "unsure")
    game.act(Life(actor="ann", player="cy", mode="lose", amount=25))
    assert totals(game)["cy"] == (3, False)  # 0, then the spite roll's 3


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replay_rolls_the_same_life_dice(seed: int) -> None:
    game = new_game(rules(), players=PLAYERS, seed=seed)
    for table in ("backfire", "swaprandom", "taxday", "backfire"):
        roll(game, table)
    assert_consistent(game)


KINDS = [*CHANGES, "grant", "counter", "fork", "pass", "undo", "set"]
STEPS = st.lists(
    st.tuples(st.sampled_from(KINDS), st.sampled_from(PLAYERS), st.integers(0, 25)),
    min_size=5,
    max_size=40,
)


def step(game: Game, what: str, player: str, n: int) -> None:
    """One step; a refused one changes nothing."""
    try:
        if what in ("counter", "fork"):
            game.act((Counter if what == "counter" else Fork)(actor=player))
        elif what == "pass":
            if not game.state.rolled:
                game.act(RollChaos(actor="ann", referee=True))
            game.act(NextTurn(actor="ann", override=True))
        elif what == "undo":
            game.act(Undo(actor="ann"))
        elif what == "set":
            game.act(Life(actor="ann", player=player, mode="set", amount=n))
        else:
            game.act(RollChaos(actor="ann", table=what, referee=True))
    except ChaosError:
        pass


@settings(max_examples=150, deadline=None)
@given(STEPS, st.sampled_from([SpitePolicy.NONE, SpitePolicy.LIFE_GAIN_ROLL]))
def test_any_sequence_of_life_changes_replays_and_leaves_no_total_below_1_unanswered(
    steps: list[tuple[str, str, int]], spite: SpitePolicy
) -> None:
    table = "heal" if spite is SpitePolicy.LIFE_GAIN_ROLL else None
    game = new_game(rules(spite=spite, spite_table=table), players=PLAYERS)
    for what, player, n in steps:
        step(game, what, player, n)
        state = game.state
        if state.pending is None:
            # The spite rule has answered every sure total below 1.
            assert not any(below_one(p) for p in state.players.values())
        for p in state.players.values():
            assert p.life is not None  # tracked from the start, tracked throughout
    assert_consistent(game)
