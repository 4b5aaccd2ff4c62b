"""Tokens are conserved through any sequence of rolls, counters and forks (issue 9).

For each player, with G the CounterRolls granted by rolls and forks that stand, G_all those
granted by every grant ever made (countered or not) and S the tokens they spent:

- they never hold fewer than none;
- they hold at least G - S and at most G_all - S: a countered grant takes back what it can,
  never more, and a counter of that counter gives back only what was taken;
- with no grant countered, they hold exactly G - S. Tokens never multiply.
"""

from __future__ import annotations

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
    Token,
)
from tests.engine.tiny import assert_consistent, entry, fixed, new_game, of_type, ruleset

PLAYERS = ("ann", "bob", "cy")
GRANTS = {"g3": 3, "c1": 1}  # entry id: CounterRolls it grants


def rules() -> Ruleset:
    return ruleset(
        fixed("chaos", entry("calm", "Calm", text="Nothing happens.")),
        fixed(
            "grant3", entry("g3", "3 CounterRolls", kind=Kind.TOKEN, token=Token.COUNTER, count=3)
        ),
        fixed("grant1", entry("c1", "A CounterRoll", kind=Kind.TOKEN, token=Token.COUNTER)),
        fixed("forks", entry("f1", "A RollFork", kind=Kind.TOKEN, token=Token.FORK)),
    )


# Counters come up twice as often as anything else, so that counters of counters are common.
KINDS = ["grant3", "grant1", "forks", "chaos", "counter", "counter", "fork", "pass"]
STEPS = st.lists(
    st.tuples(st.sampled_from(KINDS), st.sampled_from(PLAYERS)), min_size=8, max_size=60
)


def step(game: Game, what: str, player: str, spent: dict[str, int]) -> None:
    """One step; a refused one (no token to spend, nothing on the stack) changes nothing."""
    try:
        if what in ("counter", "fork"):
            game.act((Counter if what == "counter" else Fork)(actor=player))
            spent[player] += what == "counter"  # the CounterRolls spent
        elif what == "pass":
            if not game.state.rolled:
                game.act(RollChaos(actor="ann", referee=True))
            game.act(NextTurn(actor="ann"))
        else:
            game.act(RollChaos(actor="ann", table=what, referee=True))
    except ChaosError:
        pass


def grants(game: Game) -> dict[int, tuple[str, int]]:
    """Every grant item ever made: its owner and how many CounterRolls it gives."""
    return {
        e["item"]: (e["player"], GRANTS[e["entry"]])
        for e in of_type(game.events, "stack")
        if e["entry"] in GRANTS
    }


def countered(game: Game) -> set[int]:
    """Items whose last word in the log is that they are countered."""
    last: dict[int, bool] = {}
    for e in of_type(game.events, "countered"):
        last[e["item"]] = e["countered"]
    return {item for item, is_countered in last.items() if is_countered}


@settings(max_examples=300, deadline=None)
@given(STEPS)
def test_token_totals_are_conserved_through_any_sequence_of_counters(
    steps: list[tuple[str, str]],
) -> None:
    game = new_game(rules(), players=PLAYERS)
    spent = dict.fromkeys(PLAYERS, 0)
    for what, player in steps:
        step(game, what, player, spent)
        made, dead = grants(game), countered(game)
        for p in PLAYERS:
            held = game.state.players[p].tokens.get(Token.COUNTER.value, 0)
            mine = {item: n for item, (owner, n) in made.items() if owner == p}
            standing = sum(n for item, n in mine.items() if item not in dead)
            assert held >= 0
            assert standing - spent[p] <= held <= sum(mine.values()) - spent[p]
            if not dead & mine.keys():
                assert held == standing - spent[p]
    assert_consistent(game)
