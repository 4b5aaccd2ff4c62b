"""The shared zones (the middle world, the middle), and optional life tracking with spite."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

import pytest

from bot.engine import (
    Away,
    Band,
    Begin,
    ChaosSource,
    Die,
    Entry,
    Event,
    Game,
    Join,
    Leave,
    Life,
    LifeGain,
    MiddleAdd,
    MiddlePlay,
    NextTurn,
    NotInGameError,
    Phase,
    RollTable,
    RulesError,
    Ruleset,
    Spite,
    SpitePolicy,
    Status,
    fold,
    parse_expr,
)
from tests.engine.rulesets import classic, deck, lists

PLAYERS = ("ann", "bob", "cat", "dan")


def new_game(ruleset: Ruleset, players: int = 3, *, seed: int = 7, life: int | None = None) -> Game:
    game = Game.start(ruleset, seed=seed, host="ann", name="Ann", life=life)
    for pid in PLAYERS[1:players]:
        game.act(Join(actor=pid, player_name=pid.title()))
    game.act(Begin(actor="ann"))
    return game


def of_type(events: Iterable[Event], kind: str) -> list[dict[str, Any]]:
    return [cast(dict[str, Any], e) for e in events if e["type"] == kind]


def pass_turn(game: Game) -> None:
    """The host ends the turn without its chaos roll (the rolls don't matter here)."""
    game.act(NextTurn(actor="ann", override=True))


def add(game: Game, actor: str, card: str) -> int:
    """`actor` puts `card` in the shared zone; its id there."""
    added = of_type(game.act(MiddleAdd(actor=actor, card=card)), "middle_added")
    assert len(added) == 1
    return int(added[0]["card"])


# -- the middle world (lists) ----------------------------------------------------------------


def test_middle_world_card_is_added_face_up_and_played_from_there():
    game = new_game(lists())
    events = game.act(MiddleAdd(actor="bob", card="  Llanowar Elves "))
    added = of_type(events, "middle_added")[0]
    assert (added["name"], added["player"], added["turn"]) == ("Llanowar Elves", "bob", 1)
    card = added["card"]
    assert game.state.middle[card].name == "Llanowar Elves"
    events = game.act(MiddlePlay(actor="cat", card=card))
    assert of_type(events, "middle_played") == [
        {"type": "middle_played", "card": card, "player": "cat"}
    ]
    assert card not in game.state.middle


def test_middle_world_allows_one_play_per_player_per_turn():
    game = new_game(lists())
    cards = [add(game, "ann", name) for name in ("Shock", "Giant Growth", "Ornithopter")]
    game.act(MiddlePlay(actor="ann", card=cards[0]))
    with pytest.raises(RulesError, match="Ann has already played 1 card from the middle world"):
        game.act(MiddlePlay(actor="ann", card=cards[1]))
    assert cards[1] in game.state.middle
    game.act(MiddlePlay(actor="bob", card=cards[1]))  # everyone has their own play
    assert game.state.middle_plays == {"ann": 1, "bob": 1}
    pass_turn(game)
    game.act(MiddlePlay(actor="ann", card=cards[2]))  # a new turn, a new play
    assert game.state.middle == {}


def test_middle_world_plays_are_allowed_right_after_the_card_arrives():
    game = new_game(lists())
    card = add(game, "bob", "Lightning Bolt")
    game.act(MiddlePlay(actor="bob", card=card))
    assert card not in game.state.middle


def test_a_card_leaves_the_middle_once_played():
    game = new_game(lists())
    card = add(game, "ann", "Shock")
    game.act(MiddlePlay(actor="bob", card=card))
    number = game.state.middle_numbers[card]
    with pytest.raises(RulesError, match=f"M{number} isn't in the middle any more"):
        game.act(MiddlePlay(actor="cat", card=card))


def test_an_away_player_cannot_play_from_the_middle_world():
    game = new_game(lists())
    card = add(game, "ann", "Shock")
    game.act(Away(actor="bob"))
    with pytest.raises(RulesError, match="Bob is away"):
        game.act(MiddlePlay(actor="bob", card=card))


@pytest.mark.parametrize("name", ["", "   ", "x" * 101])
def test_middle_card_names_must_be_sensible(name):
    game = new_game(lists())
    with pytest.raises(RulesError, match="1 to 100 characters"):
        game.act(MiddleAdd(actor="ann", card=name))
    assert game.state.middle == {}


# -- the middle (deck) -----------------------------------------------------------------------


def test_deck_middle_card_can_be_played_only_from_the_next_turn():
    game = new_game(deck())
    card = add(game, "bob", "Llanowar Elves")
    with pytest.raises(RulesError, match="arrived in the middle this turn"):
        game.act(MiddlePlay(actor="cat", card=card))
    pass_turn(game)
    game.act(MiddlePlay(actor="cat", card=card))
    assert card not in game.state.middle


def test_deck_middle_has_no_per_turn_limit_but_new_arrivals_wait():
    game = new_game(deck())
    old = [add(game, "ann", "Shock"), add(game, "ann", "Opt")]
    pass_turn(game)
    new = add(game, "bob", "Ponder")
    for card in old:
        game.act(MiddlePlay(actor="cat", card=card))
    with pytest.raises(RulesError, match="Ponder arrived in the middle this turn"):
        game.act(MiddlePlay(actor="cat", card=new))
    assert list(game.state.middle) == [new]


@pytest.mark.parametrize(
    "action", [MiddleAdd(actor="ann", card="Shock"), MiddlePlay(actor="ann", card=1)]
)
def test_classic_has_no_shared_zone(action):
    game = new_game(classic())
    with pytest.raises(RulesError, match="has no middle"):
        game.act(action)


def test_fold_rebuilds_the_middle():
    game = new_game(deck())
    first = add(game, "ann", "Shock")
    pass_turn(game)
    add(game, "bob", "Opt")
    game.act(MiddlePlay(actor="cat", card=first))
    assert fold(game.events) == game.state
    assert [c.name for c in game.state.middle.values()] == ["Opt"]


# -- life ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "life", "expected"),
    [(classic, None, 20), (classic, 30, 30), (lists, None, None), (lists, 25, 25)],
)
def test_starting_life_comes_from_the_game_or_the_ruleset(make, life, expected):
    game = new_game(make(), life=life)
    assert {p.life for p in game.state.players.values()} == {expected}


@pytest.mark.parametrize(
    ("mode", "amount", "life", "delta"),
    [("set", 7, 7, -13), ("gain", 5, 25, 5), ("lose", 4, 16, -4), ("lose", 19, 1, -19)],
)
def test_life_set_gain_and_lose(mode, amount, life, delta):
    game = new_game(lists(), life=20)
    events = game.act(Life(actor="ann", player="bob", mode=mode, amount=amount))
    changed = of_type(events, "life")
    assert len(changed) == 1
    assert (changed[0]["life"], changed[0]["delta"]) == (life, delta)
    assert changed[0]["reason"] == f"{mode} by Ann"
    assert game.state.players["bob"].life == life
    assert of_type(events, "player_out") == []


def test_life_changes_default_to_the_actor():
    game = new_game(lists(), life=20)
    game.act(Life(actor="cat", mode="gain", amount=2))
    assert game.state.players["cat"].life == 22


@pytest.mark.parametrize("mode", ["gain", "lose"])
def test_gain_and_lose_need_tracked_life(mode):
    game = new_game(lists())
    with pytest.raises(RulesError, match="Bob's life isn't tracked: set it first"):
        game.act(Life(actor="bob", mode=mode, amount=3))
    game.act(Life(actor="bob", mode="set", amount=10))
    game.act(Life(actor="bob", mode=mode, amount=3))
    assert game.state.players["bob"].life == (13 if mode == "gain" else 7)
    assert game.state.players["cat"].life is None


@pytest.mark.parametrize("amount", [-1, 1_000_001])
def test_life_amounts_are_bounded(amount):
    game = new_game(lists(), life=20)
    with pytest.raises(RulesError, match="life amounts go from 0"):
        game.act(Life(actor="bob", mode="gain", amount=amount))
    assert game.state.players["bob"].life == 20


def test_life_of_an_unknown_or_out_player_is_refused():
    game = new_game(lists(), players=4, life=20)
    with pytest.raises(NotInGameError):
        game.act(Life(actor="ann", player="zed", mode="set", amount=5))
    game.act(Leave(actor="bob"))
    with pytest.raises(RulesError, match="Bob is out of the game"):
        game.act(Life(actor="ann", player="bob", mode="gain", amount=5))


# -- classic: life set to 0, then a spite roll where only life gain counts -------------------


def tiny_classic() -> Ruleset:
    """A classic-like ruleset whose d2 chaos list is 1: gain 3 life, 2: nothing."""
    bands = (
        Band(1, 1, Entry(id="1", name="Lifeline", gains_life=True, life=LifeGain(parse_expr("3")))),
        Band(2, 2, Entry(id="2", name="Nothing", text="Nothing happens.")),
    )
    chaos = RollTable("chaos", "Chaos", Die(2), bands)
    return Ruleset(
        id="tiny",
        name="Tiny classic",
        chaos=ChaosSource.TABLE,
        chaos_table="chaos",
        spite=SpitePolicy.LIFE_GAIN_ROLL,
        spite_table="chaos",
        life=20,
        tables={"chaos": chaos},
    )


# Turn 1's first spite roll is a 1 with seed 0 and a 2 with seed 2 (checked in each test).
GAINS_LIFE_SEED, NO_GAIN_SEED = 0, 2

LOSERS: list[Callable[[], Any]] = [
    lambda: Life(actor="ann", player="bob", mode="lose", amount=25),
    lambda: Spite(actor="ann", player="bob"),
]


@pytest.mark.parametrize("loss", LOSERS, ids=["life-loss", "spite-action"])
def test_classic_spite_roll_that_gains_life_keeps_the_player_in(loss):
    game = new_game(tiny_classic(), seed=GAINS_LIFE_SEED)
    events = game.act(loss())
    healed = [e for e in of_type(events, "life") if e["life"] == 0]
    assert [e["reason"] for e in healed] == ["healed to 0 before the spite roll"]
    assert of_type(events, "spite_started")[0]["policy"] == "life_gain_roll"
    (roll,) = of_type(events, "roll")
    assert (roll["table"], roll["result"], roll["ignored"]) == ("chaos", 1, False)
    assert of_type(events, "life")[-1]["life"] == 3
    assert of_type(events, "spite_ended") == [
        {"type": "spite_ended", "player": "bob", "survived": True}
    ]
    assert of_type(events, "player_out") == []
    bob = game.state.players["bob"]
    assert (bob.status, bob.life, bob.spiting) == (Status.PLAYING, 3, False)
    assert fold(game.events) == game.state


@pytest.mark.parametrize("loss", LOSERS, ids=["life-loss", "spite-action"])
def test_classic_spite_roll_without_life_gain_puts_the_player_out(loss):
    game = new_game(tiny_classic(), seed=NO_GAIN_SEED)
    events = game.act(loss())
    (roll,) = of_type(events, "roll")
    assert (roll["result"], roll["ignored"]) == (2, True)
    assert "only a result that gains life counts" in roll["reason"]
    assert of_type(events, "spite_ended")[0]["survived"] is False
    (out,) = of_type(events, "player_out")
    assert out["player"] == "bob"
    assert "the spite roll gained no life" in out["reason"]
    bob = game.state.players["bob"]
    assert (bob.status, bob.life) == (Status.OUT, 0)
    assert game.state.phase is Phase.PLAYING  # ann and cat remain
    assert fold(game.events) == game.state


def test_classic_drop_to_exactly_one_life_is_not_a_loss():
    game = new_game(tiny_classic(), seed=NO_GAIN_SEED)
    events = game.act(Life(actor="ann", player="bob", mode="lose", amount=19))
    assert of_type(events, "spite_started") == []
    assert game.state.players["bob"].status is Status.PLAYING


# -- lists: a spite roll only while two or more opponents remain -----------------------------


def test_lists_loser_with_two_opponents_left_rolls_on_the_spite_list():
    game = new_game(lists(), players=3, life=20)
    events = game.act(Life(actor="ann", player="bob", mode="lose", amount=20))
    types = [e["type"] for e in events]
    assert types.index("player_out") < types.index("spite_started")
    rolls = of_type(events, "roll")
    assert rolls
    assert {r["table"] for r in rolls} == {"spite"}
    assert rolls[0]["player"] == "bob"
    assert of_type(events, "spite_ended")[0]["survived"] is False
    assert game.state.players["bob"].status is Status.OUT
    assert game.state.phase is Phase.PLAYING
    assert fold(game.events) == game.state


def test_lists_loser_with_one_opponent_left_just_loses():
    game = new_game(lists(), players=2, life=20)
    events = game.act(Life(actor="ann", player="bob", mode="lose", amount=20))
    assert of_type(events, "spite_started") == []
    assert of_type(events, "roll") == []
    assert of_type(events, "game_ended")[0]["winner"] == "ann"
    assert game.state.phase is Phase.ENDED


def test_lists_opponents_already_out_do_not_count():
    game = new_game(lists(), players=3, life=20)
    game.act(Leave(actor="cat"))
    events = game.act(Spite(actor="bob"))
    assert of_type(events, "spite_started") == []
    assert game.state.winner == "ann"
