"""List progression (the `lists` ruleset): which of lists A-F each chaos roll is made on."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine import (
    Begin,
    Game,
    Kind,
    NextTurn,
    RollChaos,
    RollGlobal,
    RollTable,
    Ruleset,
    StartRoll,
)
from bot.engine.events import Event
from tests.engine.rulesets import lists
from tests.engine.tiny import assert_consistent, each, entry, fixed, new_game, of_type, ruleset

LETTERS = "ABCDEF"


def progression(*overrides: RollTable) -> Ruleset:
    """Lists A-F plus a Vortex and a Global list; each list always gives the same entry."""
    tables = {letter: fixed(letter, entry(letter, f"List {letter}")) for letter in LETTERS}
    tables["vortex"] = fixed("vortex", entry("v", "Vortex"))
    tables["global"] = fixed("global", entry("g", "A Global", kind=Kind.GLOBAL, text="Rule."))
    tables.update({table.id: table for table in overrides})
    return ruleset(*tables.values(), lists=tuple(LETTERS), tokens=False)


def link(letter: str, to: str) -> RollTable:
    return fixed(letter, entry(f"{letter}>{to}", f"From {letter} to {to}", kind=Kind.LINK, link=to))


def chaos_roll(game: Game) -> list[Event]:
    """The active player's chaos roll, then the turn passes; returns the roll's events."""
    active = game.state.active
    assert active is not None
    events = game.act(RollChaos(actor=active))
    game.act(NextTurn(actor=active))
    return events


def rolled_on(events: list[Event]) -> str:
    """The list the chaos roll itself (the root roll) was made on."""
    [root] = [r for r in of_type(events, "roll") if r["depth"] == 0]
    return str(root["table"])


@pytest.mark.parametrize("seed", range(6))
def test_first_chaos_roll_of_the_game_is_on_list_a(seed: int) -> None:
    game = new_game(lists(), seed=seed)

    events = game.act(RollChaos(actor="ann"))

    assert rolled_on(events) == "A"


def test_later_chaos_rolls_go_to_the_last_list_rolled_on() -> None:
    game = new_game(progression(link("A", "C")))

    first = chaos_roll(game)
    second = chaos_roll(game)
    third = chaos_roll(game)

    assert [rolled_on(e) for e in (first, second, third)] == ["A", "C", "C"]
    [changed] = of_type(first, "list_changed")
    assert (changed["current"], changed["forced"]) == ("C", None)
    assert changed["reason"] == "the last chaos list rolled on was C"
    assert of_type(second, "list_changed") == []  # already on C
    assert game.state.current_list == "C"
    assert_consistent(game)


@pytest.mark.parametrize(
    ("order", "landed"),
    [
        (("D", "B"), "B"),
        (("B", "D"), "D"),
        (("D", "vortex"), "D"),
        (("vortex", "E", "global"), "E"),
    ],
)
def test_the_last_a_f_list_rolled_in_the_middle_of_a_resolution_becomes_current(
    order: tuple[str, ...], landed: str
) -> None:
    rules = progression(fixed("A", entry("all", "Several", kind=Kind.MULTI, multi=each(*order))))
    game = new_game(rules)

    first = chaos_roll(game)
    second = chaos_roll(game)

    assert [r["table"] for r in of_type(first, "roll")] == ["A", *order]
    assert game.state.current_list == landed
    assert rolled_on(second) == landed


def test_a_link_out_of_a_supplementary_list_moves_the_current_list() -> None:
    game = new_game(progression(link("A", "vortex"), link("vortex", "E")))

    first = chaos_roll(game)
    second = chaos_roll(game)

    assert [r["table"] for r in of_type(first, "roll")] == ["A", "vortex", "E"]
    assert rolled_on(second) == "E"


def test_supplementary_lists_never_change_the_current_list() -> None:
    rules = dataclasses.replace(
        progression(link("B", "vortex")), start=StartRoll.GLOBAL, start_table="global"
    )
    game = new_game(rules)
    assert of_type(game.events, "list_changed") == []  # the start roll on Global doesn't count

    game.act(RollChaos(actor="ann"))  # the game's first chaos roll: list A
    events = game.act(RollChaos(actor="ann", table="vortex"))
    events += game.act(RollGlobal(actor="ann"))

    assert game.state.current_list == "A"
    assert of_type(events, "list_changed") == []
    game.act(NextTurn(actor="ann"))
    assert rolled_on(game.act(RollChaos(actor="bob"))) == "A"


def test_an_entry_can_force_the_next_chaos_roll_onto_a_list() -> None:
    straight = entry("toE", "Straight to E", text="Your next chaos roll is on E.", next_list="E")
    game = new_game(progression(fixed("A", straight), link("E", "B")))

    first = chaos_roll(game)
    forced = chaos_roll(game)
    after = chaos_roll(game)

    assert [rolled_on(e) for e in (first, forced, after)] == ["A", "E", "B"]
    sent, settled = of_type(first, "list_changed")
    assert (sent["current"], sent["forced"]) == (None, "E")
    assert sent["reason"] == "Straight to E sends the next chaos roll to E"
    assert (settled["current"], settled["forced"]) == ("A", "E")
    used, moved = of_type(forced, "list_changed")
    assert (used["forced"], used["reason"]) == (None, "the roll goes to E as forced")
    assert (moved["current"], moved["forced"]) == ("B", None)
    assert game.state.forced_list is None
    assert_consistent(game)


def test_an_entry_on_a_supplementary_list_can_force_the_next_chaos_roll() -> None:
    game = new_game(progression(fixed("vortex", entry("toF", "Off to F", next_list="F"))))

    game.act(RollChaos(actor="ann", table="vortex"))

    assert (game.state.current_list, game.state.forced_list) == (None, "F")
    assert rolled_on(chaos_roll(game)) == "F"
    assert rolled_on(chaos_roll(game)) == "F"


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_every_chaos_roll_in_a_long_game_is_on_the_expected_list(seed: int) -> None:
    """A model of the rule, checked against a real game on the `lists` tables."""
    rules = lists()
    game = new_game(rules, seed=seed, players=("ann", "bob", "cat"))
    current: str | None = None
    forced: str | None = None

    for _ in range(60):
        events = chaos_roll(game)
        assert rolled_on(events) == (forced or current or "A")
        forced = None
        for roll in of_type(events, "roll"):
            if roll["table"] in LETTERS:
                current = roll["table"]
            next_list = rules.table(roll["table"]).lookup(roll["result"]).next_list
            if not roll["ignored"] and next_list is not None:
                forced = next_list
        assert (game.state.current_list, game.state.forced_list) == (current, forced)


def test_the_start_of_a_lists_game_is_a_global_and_list_a() -> None:
    game = Game.start(lists(), seed=5, host="ann", name="Ann")
    events = game.act(Begin(actor="ann"))

    assert [r["table"] for r in of_type(events, "roll") if r["depth"] == 0] == ["global"]
    assert game.state.current_list is None
    assert rolled_on(game.act(RollChaos(actor="ann"))) == "A"
