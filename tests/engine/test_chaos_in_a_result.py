"""``roll: {chaos: N}``: a result that rolls chaos ("Roll chaos.", "Roll chaos three times,
starting on list A"). Each roll is made on the list a chaos roll would be made on when its turn
comes: the current list, moved by the rolls before it in the same resolution."""

from __future__ import annotations

from bot.engine import Kind, MultiMode, MultiRoll, RollChaos, parse_expr
from tests.engine.tiny import assert_consistent, entry, fixed, new_game, of_type, ruleset

PLAIN = entry("plain", "Plain", text="Nothing much.")


def chaos(n: int, *starting: str) -> MultiRoll:
    return MultiRoll(MultiMode.CHAOS, parse_expr(str(n)), starting)


def test_roll_chaos_goes_to_the_current_list() -> None:
    letters = ("a", "b", "c")
    rules = ruleset(
        *(fixed(x, entry(x, f"List {x}")) for x in letters),
        fixed("vortex", entry("eye", "Eye", kind=Kind.MULTI, multi=chaos(1))),
        lists=letters,
        tokens=False,
    )
    game = new_game(rules)

    events = game.act(RollChaos(actor="ann", table="vortex"))

    assert [r["table"] for r in of_type(events, "roll")] == ["vortex", "a"]
    assert_consistent(game)


def test_starting_on_a_list_moves_the_later_chaos_rolls_there() -> None:
    letters = ("a", "b", "c")
    spurt = entry("spurt", "Spurt", kind=Kind.MULTI, multi=chaos(3, "c"))
    rules = ruleset(
        fixed("a", spurt),
        fixed("b", PLAIN),
        fixed("c", entry("c", "List c")),
        lists=letters,
        tokens=False,
    )
    game = new_game(rules)

    events = game.act(RollChaos(actor="ann"))

    rolls = of_type(events, "roll")
    assert [(r["table"], r["slot"]) for r in rolls] == [
        ("a", None),
        ("c", "1/3"),
        ("c", "2/3"),
        ("c", "3/3"),
    ]
    assert game.state.current_list == "c"
    assert_consistent(game)


def test_in_a_ruleset_with_one_chaos_table_it_rolls_there() -> None:
    rules = ruleset(
        fixed("chaos", PLAIN),
        fixed("vortex", entry("eye", "Eye", kind=Kind.MULTI, multi=chaos(2))),
    )
    game = new_game(rules)

    events = game.act(RollChaos(actor="ann", table="vortex"))

    assert [r["table"] for r in of_type(events, "roll")] == ["vortex", "chaos", "chaos"]
    assert chaos(2).demands_several()
    assert not chaos(1).demands_several()
