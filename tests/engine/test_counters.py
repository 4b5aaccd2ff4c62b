"""A counter takes back the whole roll (issue 9, item 6), a skip falls on the next turn taken even
when that is an extra turn (item 7), an out player's effects end (item 8), and absences count
the player's own turns (item 5).

Every table here is a d2 whose faces both give the same entry, so each game is the same whatever
its seed. The host (Ann) makes the named-list rolls, on whoever's turn it is; the roll belongs to
the active player.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import pytest

from bot.engine import (
    Away,
    Counter,
    Duration,
    Game,
    Kind,
    Lasts,
    Life,
    NextTurn,
    RollChaos,
    RollGlobal,
    Ruleset,
    SpitePolicy,
    Token,
    TurnChange,
    parse_expr,
)
from bot.engine.events import Event
from bot.engine.lifegain import LifeGain
from bot.engine.state import Status
from bot.render.lines import event_line
from bot.render.names import Names
from tests.engine.tiny import assert_consistent, entry, fixed, new_game, of_type, ruleset

PLAYERS = ("ann", "bob", "cy")
FOG = entry("fog", "Fog", text="Until your next turn, no combat damage.")


def tables() -> Ruleset:
    """The chaos list does nothing lasting; each other list does one thing every time."""
    return ruleset(
        fixed("chaos", entry("calm", "Calm", text="Nothing happens.")),
        fixed("extra", entry("extra", "Take an extra turn", turn=TurnChange.EXTRA)),
        fixed("skip", entry("skip", "Skip your next turn", turn=TurnChange.SKIP)),
        fixed("reverse", entry("rev", "Play reverses", turn=TurnChange.REVERSE)),
        fixed("away", entry("away", "Leave until your next turn", turn=TurnChange.AWAY)),
        fixed(
            "gain", entry("gain", "Gain 5 life", gains_life=True, life=LifeGain(parse_expr("5")))
        ),
        fixed(
            "grant3",
            entry("g3", "Get 3 CounterRolls", kind=Kind.TOKEN, token=Token.COUNTER, count=3),
        ),
        fixed("counter", entry("c1", "Get a CounterRoll", kind=Kind.TOKEN, token=Token.COUNTER)),
        fixed("g1", entry("g1", "First Global", kind=Kind.GLOBAL, text="Global one.")),
        fixed("g2", entry("g2", "Second Global", kind=Kind.GLOBAL, text="Global two.")),
        fixed("fog", replace(FOG, duration=Duration(Lasts.NEXT_TURN))),
        life=20,
    )


def game(rules: Ruleset | None = None) -> Game:
    return new_game(rules or tables(), players=PLAYERS)


def host_rolls(game: Game, table: str) -> int:
    """The host rolls on `table` for the active player; returns the stack item."""
    [stack] = of_type(game.act(RollChaos(actor="ann", table=table, referee=True)), "stack")
    return int(stack["item"])


def give_counters(game: Game, player: str, n: int = 1) -> None:
    """`player` gets `n` CounterRolls on their own turn, and play comes back to the same seat."""
    start = game.state.active
    while game.state.active != player:
        pass_turn(game)
    for _ in range(n):
        host_rolls(game, "counter")
    while game.state.active != start:
        pass_turn(game)


def pass_turn(game: Game) -> None:
    """The active player rolls and ends the turn; a turn nobody plays, anyone present ends."""
    active = game.state.active
    if active is None:
        present = next(p.id for p in game.state.seated() if p.status is Status.PLAYING)
        game.act(NextTurn(actor=present))
        return
    if not game.state.rolled:
        game.act(RollChaos(actor=active))
    game.act(NextTurn(actor=active))


def turn_owners(game: Game) -> list[str]:
    return [e["player"] for e in of_type(game.events, "turn_started")]


def tokens(game: Game, player: str) -> int:
    return game.state.players[player].tokens.get(Token.COUNTER.value, 0)


# --- Item 6: a countered roll is undone entirely -------------------------------------------


def test_a_countered_extra_turn_is_not_taken() -> None:
    g = game()
    give_counters(g, "bob")
    rolled = host_rolls(g, "extra")
    assert g.state.extra_queue == ["ann"]

    events = g.act(Counter(actor="bob"))

    [cancel] = of_type(events, "turn_order")
    assert (cancel["change"], cancel["player"], cancel["undoes"]) == ("cancel_extra", "ann", rolled)
    assert g.state.extra_queue == []
    assert event_line(cast(Event, cancel), Names.of(g)) == "✕ Ann's extra turn is taken back."
    pass_turn(g)
    assert g.state.active == "bob"
    assert_consistent(g)


def test_a_countered_skip_and_reversal_are_taken_back() -> None:
    g = game()
    give_counters(g, "bob", 2)
    host_rolls(g, "skip")
    g.act(Counter(actor="bob"))
    host_rolls(g, "reverse")
    assert g.state.direction == -1
    g.act(Counter(actor="bob"))

    assert (g.state.skips.get("ann", 0), g.state.direction) == (0, 1)
    for _ in range(3):
        pass_turn(g)
    assert turn_owners(g)[-4:] == ["ann", "bob", "cy", "ann"]
    assert_consistent(g)


def test_a_countered_life_gain_is_lost_again_and_a_counter_of_it_restores_it() -> None:
    g = game()
    give_counters(g, "bob")
    give_counters(g, "cy")
    host_rolls(g, "gain")
    assert g.state.players["ann"].life == 25

    g.act(Counter(actor="bob"))
    assert g.state.players["ann"].life == 20
    g.act(Counter(actor="cy"))  # counters Bob's counter
    assert g.state.players["ann"].life == 25
    assert_consistent(g)


def test_a_countered_spite_roll_that_gained_life_leaves_its_roller_out() -> None:
    rules = replace(tables(), spite=SpitePolicy.LIFE_GAIN_ROLL, spite_table="gain")
    g = game(rules)
    give_counters(g, "bob")
    g.act(Life(actor="ann", player="ann", mode="set", amount=0))
    assert (g.state.players["ann"].status, g.state.players["ann"].life) == (Status.PLAYING, 5)

    events = g.act(Counter(actor="bob"))

    assert g.state.players["ann"].life == 0
    assert g.state.players["ann"].status is Status.OUT
    [out] = of_type(events, "player_out")
    assert out["reason"] == "lost: the life the spite roll gained was countered"
    assert not of_type(events, "spite_started")  # no second spite roll
    assert_consistent(g)


def test_countering_that_counter_later_does_not_bring_the_player_back() -> None:
    rules = replace(tables(), spite=SpitePolicy.LIFE_GAIN_ROLL, spite_table="gain")
    g = game(rules)
    give_counters(g, "bob")
    give_counters(g, "cy")
    g.act(Life(actor="ann", player="ann", mode="set", amount=0))
    g.act(Counter(actor="bob"))

    events = g.act(Counter(actor="cy"))

    assert [(e["item"], e["countered"]) for e in of_type(events, "countered")][-1][1] is False
    assert not of_type(events, "life")
    assert (g.state.players["ann"].status, g.state.players["ann"].life) == (Status.OUT, 0)
    assert_consistent(g)


def test_life_a_counter_takes_below_one_starts_the_spite_rule() -> None:
    g = game()
    give_counters(g, "bob")
    host_rolls(g, "gain")
    g.act(Life(actor="ann", player="ann", mode="lose", amount=22))  # 25 - 22 = 3
    events = g.act(Counter(actor="bob"))  # 3 - 5 = -2

    [out] = of_type(events, "player_out")  # no spite rule in this ruleset: out
    assert (out["player"], out["reason"]) == ("ann", "dropped below 1 life")
    assert_consistent(g)


def test_a_countered_global_brings_back_the_one_it_replaced() -> None:
    g = game()
    give_counters(g, "bob")
    give_counters(g, "cy")
    host_rolls(g, "g1")
    host_rolls(g, "g2")
    assert [e.name for e in g.state.effects.values()] == ["Second Global"]

    g.act(Counter(actor="bob"))
    [back] = g.state.effects.values()
    assert (back.name, back.kind, back.text) == ("First Global", "global", "Global one.")

    g.act(Counter(actor="cy"))
    assert [e.name for e in g.state.effects.values()] == ["Second Global"]
    assert_consistent(g)


def test_a_countered_absence_puts_the_roller_back_in_their_turn() -> None:
    g = game()
    give_counters(g, "bob")
    host_rolls(g, "away")
    assert (g.state.players["ann"].status, g.state.active) == (Status.AWAY, None)

    g.act(Counter(actor="bob"))

    assert (g.state.players["ann"].status, g.state.active) == (Status.PLAYING, "ann")
    assert_consistent(g)


def test_countering_your_own_grant_never_multiplies_tokens() -> None:
    """The finding: spend one of three granted CounterRolls on that grant, get countered."""
    g = game()
    give_counters(g, "bob")
    host_rolls(g, "grant3")
    assert tokens(g, "ann") == 3

    g.act(Counter(actor="ann"))  # spends one, the counter takes back the two still held
    assert tokens(g, "ann") == 0
    g.act(Counter(actor="bob"))  # Ann's grant stands again: the two come back, not three

    assert tokens(g, "ann") == 2
    assert (tokens(g, "bob"), g.state.stack[0].live) == (0, True)
    assert_consistent(g)


def test_a_counter_countered_twice_takes_back_the_same_again() -> None:
    g = game()
    give_counters(g, "bob", 2)
    give_counters(g, "cy")
    host_rolls(g, "extra")
    g.act(Counter(actor="bob"))
    g.act(Counter(actor="cy"))
    assert g.state.extra_queue == ["ann"]

    g.act(Counter(actor="bob"))  # counters Cy's counter: Bob's counter stands, the roll doesn't

    assert g.state.extra_queue == []
    assert_consistent(g)


# --- Item 7: a skip falls on the next turn taken, an extra turn included ---------------------


def test_a_skip_falls_on_the_extra_turn_when_that_comes_first() -> None:
    g = game()
    host_rolls(g, "skip")
    host_rolls(g, "extra")
    g.act(RollChaos(actor="ann"))

    events = g.act(NextTurn(actor="ann"))

    [skipped] = of_type(events, "turn_skipped")
    assert (skipped["player"], skipped["why"], skipped.get("extra")) == ("ann", "skip", True)
    assert (g.state.extra_queue, g.state.skips.get("ann", 0), g.state.active) == ([], 0, "bob")
    pass_turn(g)
    pass_turn(g)
    assert turn_owners(g) == ["ann", "bob", "cy", "ann"]  # the regular turn is played
    assert_consistent(g)


def test_the_log_says_the_extra_turn_is_skipped() -> None:

    g = game()
    host_rolls(g, "skip")
    host_rolls(g, "extra")
    g.act(RollChaos(actor="ann"))
    [skipped] = of_type(g.act(NextTurn(actor="ann")), "turn_skipped")

    line = event_line(cast(Event, skipped), Names.of(g))
    assert line == "Ann skips their extra turn: it is their next turn."


def test_a_skipped_extra_turn_never_starts_so_it_ends_no_next_turn_effect() -> None:
    g = game()
    host_rolls(g, "fog")  # Ann's, until her next turn
    host_rolls(g, "skip")
    host_rolls(g, "extra")
    g.act(RollChaos(actor="ann"))
    [fog] = [n for n, e in g.state.effects.items() if e.name == "Fog"]

    g.act(NextTurn(actor="ann"))  # the extra turn is skipped: Bob's turn starts

    assert (g.state.active, fog in g.state.effects) == ("bob", True)
    pass_turn(g)
    pass_turn(g)  # Ann's regular turn starts, and Fog ends
    assert (g.state.active, fog in g.state.effects) == ("ann", False)
    assert_consistent(g)


# --- Item 8: an out player's effects end --------------------------------------------------------


def test_lasting_effects_of_a_spite_roll_made_on_the_way_out_end_at_once() -> None:
    rules = replace(tables(), spite=SpitePolicy.SPITE_TABLE, spite_table="fog")
    g = game(rules)

    events = g.act(Life(actor="ann", player="bob", mode="set", amount=0))

    [started] = of_type(events, "effect_started")
    [ended] = of_type(events, "effect_ended")
    assert (started["owner"], ended["id"]) == ("bob", started["id"])
    assert ended["reason"] == "Bob is out of the game"
    assert g.state.effects == {}
    assert_consistent(g)


def test_an_out_players_spite_roll_changes_no_turn_of_theirs() -> None:
    rules = replace(tables(), spite=SpitePolicy.SPITE_TABLE, spite_table="extra")
    g = game(rules)

    events = g.act(Life(actor="ann", player="bob", mode="set", amount=0))

    assert not of_type(events, "turn_order")
    assert g.state.extra_queue == []


def test_effects_a_player_owns_end_when_they_go_out() -> None:
    g = game()
    pass_turn(g)
    host_rolls(g, "fog")  # Bob's Fog, until his next turn
    events = g.act(Life(actor="ann", player="bob", mode="set", amount=0))
    [ended] = of_type(events, "effect_ended")
    assert ended["reason"] == "Bob left the game"
    assert g.state.effects == {}


# --- Item 5: an absence counts the player's own turns ------------------------------------------


def test_a_result_sends_its_roller_away_until_their_next_turn() -> None:
    g = game()
    pass_turn(g)  # Bob's turn
    [away] = of_type(g.act(RollChaos(actor="ann", table="away", referee=True)), "player_away")
    assert (away["player"], away["turns"]) == ("bob", 0)
    assert (g.state.players["bob"].status, g.state.active) == (Status.AWAY, None)

    for _ in range(2):
        pass_turn(g)

    assert turn_owners(g) == ["ann", "bob", "cy", "ann"]
    pass_turn(g)
    assert (g.state.active, g.state.players["bob"].status) == ("bob", Status.PLAYING)


def test_an_extra_turn_passed_over_counts_as_a_turn_missed() -> None:
    g = game()
    host_rolls(g, "extra")
    g.act(Away(actor="ann", turns=1))  # her turn goes on without her, and without a roll

    events = g.act(NextTurn(actor="bob"))

    [skipped] = of_type(events, "turn_skipped")
    assert (skipped["why"], skipped.get("extra")) == ("away", True)
    assert g.state.players["ann"].away_turns == 0
    pass_turn(g)
    pass_turn(g)
    assert (g.state.active, g.state.players["ann"].status) == ("ann", Status.PLAYING)


def test_a_player_due_back_comes_back_for_their_extra_turn() -> None:
    g = game()
    host_rolls(g, "extra")
    g.act(Away(actor="ann", turns=0))  # her turn goes on without her, and without a roll

    events = g.act(NextTurn(actor="bob"))

    assert [e["type"] for e in events[-2:]] == ["player_back", "turn_started"]
    assert (g.state.active, g.state.extra_turn) == ("ann", True)


@pytest.mark.parametrize("turns", [None, 0, 2])
def test_the_log_says_how_long_an_absence_is(turns: int | None) -> None:

    g = game()
    [away] = of_type(g.act(Away(actor="ann", player="bob", turns=turns)), "player_away")
    line = event_line(cast(Event, away), Names.of(g))
    expected = {
        None: "Bob steps away until they're back.",
        0: "Bob steps away until their next turn.",
        2: "Bob steps away and misses 2 turns.",
    }
    assert line == expected[turns]


def test_roll_global_still_works_with_a_countered_global_outcome() -> None:
    g = game(replace(tables(), start_table="g1"))
    give_counters(g, "bob")
    g.act(RollGlobal(actor="ann"))
    g.act(Counter(actor="bob"))
    assert g.state.effects == {}
    assert_consistent(g)
