"""The Global through rolls and counters (issue 23, rulings on Globals).

Seed 001: a player who would roll on Global first removes the current Global. A counter takes
back everything its roll did, so it restores exactly the Global that stood before the roll, and
a counter of that counter brings back what the roll left: however many times the roll replaced
the Global, and however long the chain of counters is.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import ChaosError, Counter, Game, Kind, RollChaos, Ruleset, Token
from bot.engine.model import StartRoll
from tests.engine.tiny import (
    assert_consistent,
    entry,
    faces,
    fixed,
    new_game,
    of_type,
    ruleset,
    times,
)

PLAYERS = ("ann", "bob", "cy")


def rules() -> Ruleset:
    tables = ruleset(
        fixed("chaos", entry("calm", "Calm", text="Nothing happens.")),
        faces(
            "global",
            entry("alpha", "Alpha", kind=Kind.GLOBAL),
            entry("beta", "Beta", kind=Kind.GLOBAL),
            entry("gamma", "Gamma", kind=Kind.GLOBAL),
            entry("dud", "Dud", text="Not a Global: nothing comes into play."),
        ),
        fixed("once", entry("once", "Once", kind=Kind.LINK, link="global")),
        fixed("twice", entry("twice", "Twice", kind=Kind.MULTI, multi=times(2, "global"))),
        fixed("grant", entry("g", "CounterRolls", kind=Kind.TOKEN, token=Token.COUNTER, count=9)),
    )
    return replace(tables, start=StartRoll.GLOBAL, start_table="global")


def globals_in_play(game: Game) -> list[str]:
    return sorted(e.name for e in game.state.effects.values() if e.kind == "global")


def roll(game: Game, table: str) -> int:
    game.act(RollChaos(actor="ann", table=table, referee=True))
    return int(max(e["item"] for e in of_type(game.events, "stack")))


def test_a_roll_on_the_global_removes_the_global_even_when_it_gives_none() -> None:
    for seed in range(40):
        game = new_game(rules(), seed=seed, players=PLAYERS)
        assert len(globals_in_play(game)) <= 1
        roll(game, "once")
        landed = of_type(game.events, "roll")[-1]["entry"]["name"]
        assert globals_in_play(game) == ([] if landed == "Dud" else [landed])
        assert_consistent(game)


def test_countering_a_roll_that_replaced_the_global_twice_restores_the_one_before() -> None:
    checked = 0
    for seed in range(60):
        game = new_game(rules(), seed=seed, players=PLAYERS)
        for player in PLAYERS:
            game.act(RollChaos(actor=player, table="grant", referee=True))
        before = globals_in_play(game)
        roll(game, "twice")
        after = globals_in_play(game)
        if before == after:
            continue
        checked += 1
        for n in range(1, 6):  # counter, counter of it, ... alternately
            game.act(Counter(actor="ann"))
            assert globals_in_play(game) == (before if n % 2 else after), n
        assert_consistent(game)
    assert checked >= 20


# Rolls that replace the Global 0, 1 or 2 times, and counters, in any order.
STEPS = st.lists(
    st.sampled_from(["once", "twice", "calm", "counter", "counter", "counter"]),
    min_size=4,
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), STEPS)
def test_any_chain_of_counters_leaves_the_global_a_roll_found_or_left(
    seed: int, steps: list[str]
) -> None:
    game = new_game(rules(), seed=seed, players=PLAYERS)
    for player in PLAYERS:
        game.act(RollChaos(actor=player, table="grant", referee=True))
    before: dict[int, list[str]] = {}  # by roll item: the Global before it and after it
    after: dict[int, list[str]] = {}
    for what in steps:
        try:
            if what == "counter":
                seen = len(game.events)
                game.act(Counter(actor="ann"))
                last = [e for e in game.events[seen:] if e["type"] == "countered"]
                rolls = [i for i in before if i in {e["item"] for e in last}]
                newest = max(before, default=None)
                if newest is not None and newest in rolls:
                    # The newest roll's last word says whether it stands: what it found or left.
                    stands = not [e for e in last if e["item"] == newest][-1]["countered"]
                    assert globals_in_play(game) == (after if stands else before)[newest]
            else:
                snapshot = globals_in_play(game)
                item = roll(game, "chaos" if what == "calm" else what)
                before[item], after[item] = snapshot, globals_in_play(game)
        except ChaosError:
            pass
        assert len(globals_in_play(game)) <= 1
    assert_consistent(game)
