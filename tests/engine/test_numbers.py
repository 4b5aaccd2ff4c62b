"""Effects and middle cards by the numbers people count them by: E1, E2, … and M1, M2, … (issue 24).

See docs/engine.md, "Effects and middle cards are numbered as people count them".
"""

from __future__ import annotations

import pytest

from bot.engine import (
    Begin,
    Counter,
    EndEffect,
    Game,
    Join,
    MiddleAdd,
    MiddlePlay,
    NextTurn,
    RollChaos,
    RulesError,
    Undo,
    Veto,
    fold,
)
from bot.engine.events import Event
from bot.engine.house import HouseRules
from bot.render import Names, render_lines
from tests.engine.make_golden import Driver
from tests.engine.rulesets import classic
from tests.engine.test_cheater_property import RULES
from tests.engine.test_effects import new_game, start_effect
from tests.engine.tiny import new_game as tiny_game


def test_effects_are_numbered_in_the_order_they_came_whatever_their_ids() -> None:
    game = new_game()
    ids = [start_effect(game, table) for table in ("removed", "world", "permanent")]
    assert ids != [1, 2, 3]  # the rolls took ids in between
    assert [game.state.effects[i].number for i in ids] == [1, 2, 3]
    events = game.act(EndEffect(actor="ann", referee=True, effect=2, by_number=True))
    assert [e["id"] for e in events if e["type"] == "effect_ended"] == [ids[1]]
    # The action is logged as it was typed: E2, by its number.
    assert game.actions[-1] == {
        "actor": "ann",
        "referee": True,
        "effect": 2,
        "by_number": True,
        "name": "effects end",
    }
    # The number stays with the effect that ended: the next one is E4, not E2 again.
    fourth = start_effect(game, "removed")
    assert game.state.effects[fourth].number == 4
    assert Game.replay(game.ruleset, game.actions).events == game.events


def test_a_number_that_ended_or_never_was_is_refused_with_it() -> None:
    game = new_game()
    start_effect(game, "removed")
    game.act(EndEffect(actor="ann", referee=True, effect=1, by_number=True))
    with pytest.raises(RulesError, match="E1 isn't in play any more: it has ended"):
        game.act(EndEffect(actor="ann", referee=True, effect=1, by_number=True))
    with pytest.raises(RulesError, match="there's no effect E9 in play"):
        game.act(EndEffect(actor="ann", referee=True, effect=9, by_number=True))


def test_an_undone_effect_leaves_its_number_to_the_next() -> None:
    game = new_game()
    first = start_effect(game, "removed")
    undone = start_effect(game, "world")
    assert game.state.effects[undone].number == 2
    game.act(Undo(actor="ann", referee=True))
    assert game.state.effect_numbers == {first: 1}
    again = start_effect(game, "permanent")
    assert game.state.effects[again].number == 2
    assert Game.replay(game.ruleset, game.actions).state.effect_numbers == {first: 1, again: 2}


def test_an_older_log_names_effects_and_cards_by_id_and_still_ends_them() -> None:
    game = new_game()
    start_effect(game, "removed")
    second = start_effect(game, "world")
    game.act(EndEffect(actor="ann", referee=True, effect=second))  # by id, no by_number
    assert second not in game.state.effects
    assert "by_number" not in game.actions[-1]  # such a log reads as it always did


def test_middle_cards_are_numbered_from_m1() -> None:
    driver = Driver("deck", 3, ("ann", "bob"))
    game = driver.game
    driver.roll()
    game.act(MiddleAdd(actor="ann", card="Black Lotus"))
    game.act(MiddleAdd(actor="ann", card="Shock"))
    assert sorted(c.number for c in game.state.middle.values()) == [1, 2]
    assert min(game.state.middle) > 2  # the engine's ids went to the rolls first
    driver.next_turn()
    game.act(MiddlePlay(actor="bob", card=2, by_number=True))
    assert [c.name for c in game.state.middle.values()] == ["Black Lotus"]
    with pytest.raises(RulesError, match="M2 isn't in the middle any more"):
        game.act(MiddlePlay(actor="bob", card=2, by_number=True))
    with pytest.raises(RulesError, match="there's no card M7 in the middle"):
        game.act(MiddlePlay(actor="bob", card=7, by_number=True))


def test_a_ruleset_without_a_middle_says_so_before_looking_for_the_number() -> None:
    game = Game.start(classic(), seed=3, host="ann", name="Ann")
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Begin(actor="ann"))
    with pytest.raises(RulesError, match="has no middle"):
        game.act(MiddlePlay(actor="ann", card=1, by_number=True))


def test_an_effect_a_counter_brings_back_keeps_its_number() -> None:
    """A Global replaced by a roll comes back when the roll is countered, and goes again when
    the counter is countered: each time under a new id, and always under its own number."""
    game = tiny_game(RULES, players=("ann", "bob", "cy", "dan"))
    for table in ("global", "grant", "global"):  # a Global, two CounterRolls, a new Global
        game.act(RollChaos(actor="ann", referee=True, table=table))
    numbers = [(e.name, e.number) for e in game.state.effects.values()]
    assert numbers == [("A Global", 2)]
    game.act(Counter(actor="ann"))  # the first Global comes back
    (back,) = game.state.effects.values()
    assert back.number == 1
    assert back.id not in (2, 5)  # a new id all the same
    game.act(Counter(actor="ann"))  # the counter countered: the second one is back
    assert [e.number for e in game.state.effects.values()] == [2]
    game.act(EndEffect(actor="ann", referee=True, effect=2, by_number=True))
    assert not game.state.effects
    assert Game.replay(game.ruleset, game.actions).state.effect_numbers == (
        game.state.effect_numbers
    )


def start_effect_on(game: Game, table: str) -> int:
    """The id of the effect the host's roll on `table` brings into play."""
    events = game.act(RollChaos(actor="ann", referee=True, table=table))
    return int(next(e["id"] for e in events if e["type"] == "effect_started"))


def vetoing_game() -> Game:
    """Ann, Bob, Cy and Dan with the veto vote on (tests/engine/test_cheater_property.py's
    lists: `fog` lasts until Ann's next turn, `global` replaces the Global)."""
    game = Game.start(RULES, seed=3, host="ann", name="Ann", house=HouseRules(veto=True))
    for player in ("bob", "cy", "dan"):
        game.act(Join(actor=player, player_name=player.title()))
    game.act(Begin(actor="ann"))
    return game


def vetoed(game: Game, table: str) -> list[Event]:
    """The host rolls on `table` for Ann, and Bob, Cy and Dan vote it away."""
    game.act(RollChaos(actor="ann", referee=True, table=table))
    game.act(Veto(actor="bob"))
    game.act(Veto(actor="cy"))
    return game.act(Veto(actor="dan"))


def test_a_vetoed_effect_leaves_its_number_to_the_roll_made_again() -> None:
    """A veto votes a result away as if it hadn't come up: the roll made again takes the
    number its effect had (E2 stays E2), and the vetoed effect has none, as an undone one."""
    game = vetoing_game()
    first = start_effect_on(game, "global")
    events = vetoed(game, "fog")
    [gone] = [e["id"] for e in events if e["type"] == "effect_ended"]
    [again] = [e["id"] for e in events if e["type"] == "effect_started"]
    assert game.state.effect_numbers == {first: 1, again: 2}
    assert gone not in game.state.effect_numbers
    assert game.state.effects[again].number == 2
    lines = render_lines(events, Names.of(game))
    assert "− Fog ends: vetoed." in lines
    assert any(
        line.endswith("+ E2 Fog (effect, Ann's) lasts until Ann's next turn.") for line in lines
    )
    # E2 is the one in play: ending it by its number ends the roll made again's.
    ended = game.act(EndEffect(actor="ann", referee=True, effect=2, by_number=True))
    assert [e["id"] for e in ended if e["type"] == "effect_ended"] == [again]
    # The next effect is E3: no gap, no number twice.
    game.act(NextTurn(actor="ann", referee=True, override=True))
    third = start_effect_on(game, "fog")
    assert game.state.effect_numbers[third] == 3
    for state in (fold(game.events), Game.replay(game.ruleset, game.actions).state):
        assert state.effect_numbers == game.state.effect_numbers


def test_a_vetoed_new_global_gives_back_the_old_one_and_hands_its_number_on() -> None:
    """The Global a vetoed roll replaced comes back under its own number (as after a counter),
    and the Global the roll made again brings takes the vetoed one's."""
    game = vetoing_game()
    old = start_effect_on(game, "global")
    events = vetoed(game, "global")
    numbers = {e.name: e.number for e in game.state.effects.values()}
    assert sorted(game.state.effect_numbers.values()) == [1, 1, 2]  # the old one, back, and E2
    assert numbers == {"A Global": 2}  # the roll made again replaced the old Global again
    back = [e["id"] for e in events if e["type"] == "effect_started" and e.get("undoes")]
    assert [game.state.effect_numbers[i] for i in back] == [1]
    assert old not in game.state.effects
    assert Game.replay(game.ruleset, game.actions).state.effect_numbers == (
        game.state.effect_numbers
    )


def test_rolls_on_the_stack_are_numbered_as_people_count_whatever_their_ids() -> None:
    """R1, R2, … in the order rolls, counters and forks go on the stack, across turns: the
    engine's ids jump (effects, offers and the rolls inside a multi-roll take ids too)."""
    game = new_game()
    stacked = []
    for table in ("removed", "world", "permanent"):
        start_effect(game, table)  # each leaves an effect, which takes an id too
        stacked.append(game.state.stack[-1].id)
    assert stacked != [1, 2, 3]
    assert [game.state.roll_numbers[i] for i in stacked] == [1, 2, 3]
    assert [game.state.roll_ref(i) for i in stacked] == ["R1", "R2", "R3"]
    # Folded from the log like the effects' numbers: no event carries them.
    assert fold(game.events).roll_numbers == game.state.roll_numbers
    assert Game.replay(game.ruleset, game.actions).events == game.events


def test_the_refusal_of_a_second_roll_names_the_first_by_its_number() -> None:
    game = tiny_game(RULES, players=("ann", "bob"))
    turn = game.act(RollChaos(actor="ann"))
    [item] = [e["item"] for e in turn if e["type"] == "stack"]
    number = game.state.roll_numbers[item]
    assert number == len(game.state.roll_numbers)  # the newest roll of the game
    with pytest.raises(RulesError, match=rf"already made this turn's chaos roll \(R{number}:"):
        game.act(RollChaos(actor="ann"))


def test_an_undone_roll_leaves_its_number_to_the_next() -> None:
    game = new_game()
    start_effect(game, "removed")
    start_effect(game, "world")
    game.act(Undo(actor="ann"))
    start_effect(game, "permanent")
    assert sorted(game.state.roll_numbers.values()) == [1, 2]
    lines = render_lines(game.events, Names.of(game))
    assert not [line for line in lines if "R3" in line]
    assert fold(game.events).roll_numbers == game.state.roll_numbers


@pytest.mark.parametrize(
    ("logged", "shown"),
    [
        # The roll that offered it was the second of a multi-roll (id 15) on the stack as R2.
        ("offered by Portal, roll 15", "offered by Portal, R2"),
        ("copy of roll 14 (RollFork)", "copy of R2 (RollFork)"),
        ("rolled again: R14 was vetoed", "rolled again: R2 was vetoed"),
        ("offered by Portal, roll 99", "offered by Portal, an earlier roll"),  # undone since
        ("spite roll: only a result that gains life counts", None),
        ("offered by a roll 2, roll of dice", None),
    ],
)
def test_a_reason_logged_with_a_rolls_id_is_shown_with_its_number(
    logged: str, shown: str | None
) -> None:
    """The log keeps the engine's ids in these reasons, as it always wrote them (a replay
    writes the same text), and the renderers show the number instead."""
    names = Names(roll_numbers={14: 2}, roots={14: 14, 15: 14})
    assert names.reason(logged) == (shown or logged)
