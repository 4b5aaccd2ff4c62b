"""One chaos roll a turn: a second is refused naming the first; an extra roll is a referee's
explicit call that never counts as the turn's; a named-list roll never stands in for it and never
moves the current list. And a property: whatever players without referee powers do, no turn has
two turn rolls.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Action,
    Away,
    Back,
    ChaosError,
    Choose,
    Counter,
    ExtraTurn,
    Fork,
    Game,
    Kind,
    Life,
    NextTurn,
    Reveal,
    Reverse,
    RollChaos,
    RollGlobal,
    RollRequiredError,
    RulesError,
    SkipTurn,
    StartRoll,
    Token,
    TurnChange,
    Undo,
)
from bot.render import Names, render_events
from tests.engine.rulesets import RULESETS
from tests.engine.tiny import as_dicts, assert_consistent, entry, faces, fixed, new_game, of_type
from tests.engine.tiny import ruleset as tiny_ruleset

LETTERS = "ABCDEF"


def lists_rules() -> Any:
    """Lists A-F: A gives an extra turn or a CounterRoll, B-F one plain result each; a Vortex,
    and a Global list."""
    tables = [fixed(letter, entry(letter, f"List {letter}")) for letter in LETTERS[1:]]
    tables.append(
        faces(
            "A",
            entry("again", "Take an extra turn", turn=TurnChange.EXTRA),
            entry("cr", "A CounterRoll", kind=Kind.TOKEN, token=Token.COUNTER),
        )
    )
    tables.append(fixed("vortex", entry("v", "Vortex")))
    tables.append(fixed("global", entry("g", "A Global", kind=Kind.GLOBAL, text="Rule.")))
    rules = tiny_ruleset(*tables, lists=tuple(LETTERS), tokens=True)
    return replace(rules, start=StartRoll.GLOBAL, start_table="global")


def test_a_second_turn_roll_is_refused_naming_the_first() -> None:
    game = new_game(lists_rules())
    [first] = of_type(game.act(RollChaos(actor="ann")), "stack")
    before = list(game.events)
    try:
        game.act(RollChaos(actor="ann"))
    except RulesError as error:
        message = str(error)
    else:
        raise AssertionError("a second turn roll went through")
    roll = next(r for r in of_type(game.events, "roll") if r["id"] == first["item"])
    assert message.startswith(
        f"Ann already made this turn's chaos roll (R2: {roll['result']} on A,"
        f" {roll['entry']['name']}): one chaos roll a turn."
    )
    assert "chaos roll extra" in message
    assert game.events == before
    game.act(NextTurn(actor="ann"))
    assert game.state.turn == 2


def test_an_extra_roll_is_logged_and_shown_as_extra_and_never_counts_as_the_turns() -> None:
    game = new_game(lists_rules())
    events = game.act(RollChaos(actor="ann", extra=True))
    [stack] = of_type(events, "stack")
    assert stack["purpose"] == "extra"
    assert of_type(events, "chaos_done") == []
    assert game.actions[-1]["extra"] is True
    shown = render_events(events, Names.of(game), actions=True)
    assert "chaos roll extra" in shown
    assert "An extra roll for Ann (it isn't the turn's chaos roll)" in shown
    # The turn's roll is still to make, and the turn can't end before it.
    try:
        game.act(NextTurn(actor="ann"))
    except RollRequiredError:
        pass
    else:
        raise AssertionError("the extra roll stood in for the turn's roll")
    [turn] = of_type(game.act(RollChaos(actor="ann")), "stack")
    assert turn["purpose"] == "turn"
    game.act(RollChaos(actor="ann", extra=True))  # and after it, as many as the referee asks
    game.act(NextTurn(actor="ann"))
    assert_consistent(game)


def test_an_extra_roll_names_no_list() -> None:
    game = new_game(lists_rules())
    with pytest.raises(RulesError, match="leave the list out"):
        game.act(RollChaos(actor="ann", extra=True, table="vortex"))


def current_list(game: Game) -> str | None:
    return game.state.current_list


def test_a_named_list_roll_is_not_the_turns_roll_and_never_moves_the_list() -> None:
    """In `lists`, a roll on F on turn 1 used to count as the turn's roll and make F current."""
    game = new_game(lists_rules())
    events = game.act(RollChaos(actor="ann", table="F"))
    assert [s["purpose"] for s in of_type(events, "stack")] == ["list"]
    assert of_type(events, "list_changed") == []
    assert of_type(events, "chaos_done") == []
    assert current_list(game) is None
    events = game.act(RollChaos(actor="ann"))  # the game's first chaos roll: still on A
    assert [r["table"] for r in of_type(events, "roll")] == ["A"]
    assert current_list(game) == "A"
    game.act(RollChaos(actor="ann", table="F"))
    assert current_list(game) == "A"
    assert_consistent(game)


def test_a_result_that_grants_an_extra_turn_still_applies_itself() -> None:
    rules = lists_rules()
    always_again = fixed("A", entry("again", "Take an extra turn", turn=TurnChange.EXTRA))
    rules = replace(rules, tables={**rules.tables, "A": always_again})
    game = new_game(rules, players=("ann", "bob"))
    game.act(NextTurn(actor="ann", override=True))
    events = game.act(RollChaos(actor="bob"))  # Bob holds no turn powers; his result does
    assert [(e["change"], e["player"]) for e in of_type(events, "turn_order")] == [("extra", "bob")]
    game.act(NextTurn(actor="bob"))
    assert (game.state.active, game.state.extra_turn) == ("bob", True)


def _answer_choices(game: Game) -> None:
    while (pending := game.state.pending) is not None:
        game.act(Choose(actor=pending.player, option=pending.options[0][0]))


def test_deck_a_second_draw_after_the_reveal_is_refused_but_an_extra_one_may_be_made() -> None:
    game = new_game(RULESETS["deck"](), players=("ann", "bob"))
    game.act(RollChaos(actor="ann"))
    game.act(Reveal(actor="ann"))
    _answer_choices(game)
    with pytest.raises(RulesError, match=r"Ann already drew this turn's chaos card \(R"):
        game.act(RollChaos(actor="ann"))
    drawn = of_type(game.act(RollChaos(actor="ann", extra=True)), "card_drawn")
    assert drawn[-1]["purpose"] == "extra"
    assert game.state.face_down is not None
    assert game.state.face_down[3] == "extra"
    events = game.act(Reveal(actor="ann"))
    _answer_choices(game)
    extra = [e for e in of_type(game.events, "stack") if e["purpose"] == "extra"]
    assert len(extra) == 1
    assert of_type(events, "chaos_done") == []
    assert_consistent(game)


# -- the property -----------------------------------------------------------------------------

PLAYERS = ("ann", "bob", "cy", "dan")


def _moves(state: Any) -> st.SearchStrategy[Action]:
    del state
    who = st.sampled_from(PLAYERS[1:])
    other = st.sampled_from(PLAYERS)
    return st.one_of(
        who.map(lambda p: RollChaos(actor=p)),
        who.map(lambda p: RollChaos(actor=p)),
        who.map(lambda p: RollChaos(actor=p, extra=True)),
        st.builds(lambda p, t: RollChaos(actor=p, table=t), who, st.sampled_from("AFv")).map(
            lambda a: replace(a, table="vortex") if a.table == "v" else a
        ),
        who.map(lambda p: RollGlobal(actor=p)),
        who.map(lambda p: NextTurn(actor=p)),
        who.map(lambda p: NextTurn(actor=p, override=True)),
        st.builds(lambda p, q: ExtraTurn(actor=p, player=q), who, other),
        st.builds(lambda p, q: SkipTurn(actor=p, player=q), who, other),
        who.map(lambda p: Reverse(actor=p)),
        who.map(lambda p: Counter(actor=p)),
        who.map(lambda p: Fork(actor=p)),
        who.map(lambda p: Undo(actor=p)),
        who.map(lambda p: Away(actor=p, turns=1)),
        who.map(lambda p: Back(actor=p)),
        st.builds(lambda p, q: Life(actor=p, player=q, mode="lose", amount=1), who, other),
    )


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(moves=st.lists(_moves(None), max_size=60), seed=st.integers(0, 2**16))
# Bob's roll grants a CounterRoll he spends at once: a counter's stack item has no purpose.
@example(moves=[RollChaos(actor="bob"), Counter(actor="bob")], seed=178)
def test_whatever_players_without_referee_powers_do_each_turn_has_at_most_one_turn_roll(
    moves: list[Action], seed: int
) -> None:
    game = new_game(lists_rules(), seed=seed, players=PLAYERS)
    game.act(Away(actor="ann"))  # the host steps out: only players without powers act
    game.act(NextTurn(actor="bob"))  # ann's turn has nobody active; anyone may end it
    start, turn = len(game.events), game.state.turn
    for move in moves:
        with contextlib.suppress(ChaosError):
            game.act(move)
    undone = {e["seq"] for e in game.events if e["type"] == "undone"}
    standing: list[dict[str, Any]] = []
    skipping = False
    for event in as_dicts(game.events[start:]):
        if event["type"] == "action":
            skipping = event["seq"] in undone
        if not skipping:
            standing.append(event)
    turn_rolls: dict[int, int] = {}
    chaos_done: dict[int, int] = {}
    for event in standing:
        if event["type"] == "turn_started":
            turn = event["turn"]
        if event["type"] == "stack" and event.get("purpose") == "turn":
            turn_rolls[turn] = turn_rolls.get(turn, 0) + 1
        if event["type"] == "chaos_done":
            chaos_done[event["turn"]] = chaos_done.get(event["turn"], 0) + 1
    assert all(count <= 1 for count in turn_rolls.values()), turn_rolls
    assert all(count <= 1 for count in chaos_done.values()), chaos_done
    # Nothing only a referee may ask for happened either.
    asked = ("extra", "list")
    assert not [e for e in standing if e["type"] == "stack" and e.get("purpose") in asked]
    assert not [e for e in standing if e["type"] == "roll_waived"]
    assert not [
        e for e in standing if e["type"] == "turn_order" and e["change"] in ("skip", "reverse")
    ]
    assert not [e for e in standing if e["type"] == "undone"]
