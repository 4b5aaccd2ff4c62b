"""``roll: {random: [...]}``: one roll on one of several lists, picked by a die of its own.

Deal's "Go to a random Chaos List" is one of these over lists A-F. It is one roll, like a link:
the nesting rule never ignores it, and in a ``lists`` ruleset the list it lands on becomes the
current list like any link's.
"""

from __future__ import annotations

import pytest

from bot.engine import Entry, Kind, MultiMode, MultiRoll, Nesting, RollChaos, parse_expr
from tests.engine.tiny import (
    assert_consistent,
    each,
    entry,
    face,
    fixed,
    new_game,
    of_type,
    resolve,
    ruleset,
)

PLAIN = entry("plain", "Plain", text="Nothing much.")


def random_of(*tables: str) -> MultiRoll:
    return MultiRoll(MultiMode.RANDOM, parse_expr("1"), tables)


def wheel(*tables: str) -> Entry:
    return entry("wheel", "Wheel of Chaos", kind=Kind.MULTI, multi=random_of(*tables))


@pytest.mark.parametrize("pick", [1, 2, 3])
def test_the_die_picks_the_list_and_one_roll_is_made_there(pick: int) -> None:
    rules = ruleset(
        fixed("chaos", wheel("x", "y", "z")),
        fixed("x", PLAIN),
        fixed("y", PLAIN),
        fixed("z", PLAIN),
    )

    resolution = resolve(rules, [face(1, 2), face(pick, 3), face(1, 2)])

    root, child = resolution.rolls
    assert root["inline"] == [{"expr": "list=1d3", "faces": [pick], "total": pick}]
    assert (child["table"], child["parent"], child["slot"]) == ("xyz"[pick - 1], root["id"], None)


def test_a_random_list_is_one_roll_so_the_nesting_rule_never_ignores_it() -> None:
    # classic nesting: only the last pending roll may ask for several rolls. A random pick asks
    # for one, so in the first slot of an "each" it is honoured, like a link would be.
    rules = ruleset(
        fixed("chaos", entry("both", "Both", kind=Kind.MULTI, multi=each("wheel", "x"))),
        fixed("wheel", wheel("x", "y")),
        fixed("x", PLAIN),
        fixed("y", PLAIN),
        nesting=Nesting.IGNORE_NESTED,
    )

    resolution = resolve(rules, [face(1, 2), face(1, 2), face(2, 2), face(1, 2), face(1, 2)])

    assert [(r["table"], r["ignored"]) for r in resolution.rolls] == [
        ("chaos", False),
        ("wheel", False),
        ("y", False),
        ("x", False),
    ]
    assert not any(r["ignored"] for r in resolution.rolls)


def test_demands_several_is_false_for_a_random_list() -> None:
    assert not random_of("a", "b", "c").demands_several()


@pytest.mark.parametrize("seed", range(8))
def test_in_a_lists_ruleset_the_list_it_lands_on_becomes_the_current_list(seed: int) -> None:
    letters = ("a", "b", "c", "d", "e", "f")
    tables = [fixed("a", wheel(*letters[1:]))]
    tables += [fixed(x, entry(x, f"List {x}")) for x in letters[1:]]
    rules = ruleset(*tables, lists=letters, tokens=False)
    game = new_game(rules, seed=seed)

    events = game.act(RollChaos(actor="ann"))

    root, child = of_type(events, "roll")
    [pick] = root["inline"][0]["faces"]
    assert child["table"] == letters[pick]
    assert game.state.current_list == child["table"]
    assert_consistent(game)
