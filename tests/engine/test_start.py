"""The start of a game: the start roll of each ruleset, and the Global that is always in play."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import (
    Begin,
    Choose,
    EndEffect,
    Event,
    Game,
    GameNotStartedError,
    Join,
    NextTurn,
    NotYourTurnError,
    Reveal,
    RollChaos,
    RollGlobal,
    Ruleset,
)
from tests.engine.rulesets import classic, deck, lists

PLAYERS = ("ann", "bob", "cy")


def lobby(ruleset: Ruleset, *, seed: int = 7) -> Game:
    game = Game.start(ruleset, seed=seed, host="ann", name="Ann")
    for player in PLAYERS[1:]:
        game.act(Join(actor=player, player_name=player.title()))
    return game


def begin(ruleset: Ruleset, *, seed: int = 7, order: tuple[str, ...] = ()) -> Game:
    game = lobby(ruleset, seed=seed)
    game.act(Begin(actor="ann", order=order))
    return game


def of_type(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e["type"] == kind]


def index_of(events: list[Event], kind: str) -> int:
    return next(i for i, e in enumerate(events) if e["type"] == kind)


def globals_in_play(game: Game) -> list[Any]:
    return [e for e in game.state.effects.values() if e.kind == "global"]


def play_turn(game: Game) -> None:
    """The active player's chaos roll (revealing a card, first option of any choice), then pass."""
    active = game.state.active
    assert active is not None
    game.act(RollChaos(actor=active))
    if game.state.face_down is not None:
        game.act(Reveal(actor=active))
    while game.state.pending is not None:
        pending = game.state.pending
        game.act(Choose(actor=pending.player, option=pending.options[0][0]))
    game.act(NextTurn(actor=active))


@pytest.mark.parametrize("make", [classic, lists, deck], ids=["classic", "lists", "deck"])
def test_nothing_is_rolled_before_the_game_begins(make: Any) -> None:
    game = lobby(make())
    with pytest.raises(GameNotStartedError):
        game.act(RollChaos(actor="ann"))
    assert not of_type(game.events, "roll")


def test_only_an_official_begins_the_game() -> None:
    game = lobby(classic())
    with pytest.raises(NotYourTurnError):
        game.act(Begin(actor="bob"))
    game.act(Begin(actor="bob", referee=True))
    assert game.state.active == "ann"


# -- classic: the first player rolls on EnchantWorldLand ----------------------------------------


@pytest.mark.parametrize(
    ("order", "first"), [((), "ann"), (("cy", "ann", "bob"), "cy")], ids=["join order", "seated"]
)
def test_classic_first_player_rolls_a_world_enchantment_before_the_first_turn(
    order: tuple[str, ...], first: str
) -> None:
    game = lobby(classic())
    events = game.act(Begin(actor="ann", order=order))
    (roll,) = of_type(events, "roll")
    assert roll["table"] == "ewl"
    assert roll["player"] == first
    assert roll["turn"] == 0
    assert len(roll["dice"]) == 1
    assert 1 <= roll["dice"][0] <= 20
    (world,) = of_type(events, "effect_started")
    assert world["kind"] == "world"
    assert world["lasts"] == "permanent"
    assert world["owner"] is None  # the world belongs to the game; the roll names the roller
    assert world["source"] == roll["id"]
    assert index_of(events, "effect_started") < index_of(events, "turn_started")
    assert of_type(events, "turn_started")[0]["player"] == first
    assert not of_type(events, "chaos_done"), "the start roll isn't the first turn's chaos roll"


def test_classic_world_enchantment_stays_in_play() -> None:
    game = begin(classic(), seed=3)
    (world,) = [e for e in game.state.effects.values() if e.kind == "world"]
    for _ in range(9):
        play_turn(game)
    assert game.state.effects.get(world.id) == world
    assert not [e for e in of_type(game.events, "effect_ended") if e["id"] == world.id]


def test_classic_has_no_global() -> None:
    game = begin(classic())
    assert not globals_in_play(game)
    assert not of_type(game.events, "deck_shuffled")


# -- lists: the Global rolled into the command zone ---------------------------------------------


def test_lists_start_rolls_the_global_into_play() -> None:
    game = lobby(lists())
    events = game.act(Begin(actor="ann"))
    rolls = of_type(events, "roll")
    assert {r["table"] for r in rolls} == {"global"}
    assert rolls[0]["player"] == "ann"
    assert len(rolls[0]["dice"]) == 2  # d12 tens and d10 units
    (started,) = of_type(events, "effect_started")
    assert started["kind"] == "global"
    assert started["owner"] is None
    assert index_of(events, "effect_started") < index_of(events, "turn_started")
    assert [g.id for g in globals_in_play(game)] == [started["id"]]


def test_lists_first_chaos_roll_is_on_list_a() -> None:
    game = begin(lists())
    events = game.act(RollChaos(actor="ann"))
    assert of_type(events, "roll")[0]["table"] == "A"


@pytest.mark.parametrize(
    "again",
    [RollGlobal(actor="ann"), RollChaos(actor="ann", table="global")],
    ids=["chaos global", "roll on the Global list"],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lists_rolling_global_again_first_removes_the_old_one(again: Any, seed: int) -> None:
    game = begin(lists(), seed=seed)
    (old,) = globals_in_play(game)
    events = game.act(again)
    ended = [e for e in of_type(events, "effect_ended") if e["id"] == old.id]
    assert len(ended) == 1
    assert ended[0]["reason"] == "a new Global is rolled"
    starts = [i for i, e in enumerate(events) if e["type"] == "effect_started"]
    first_roll = next(i for i, e in enumerate(events) if e["type"] == "roll")
    # Logged under the roll's line, before anything the roll does.
    assert first_roll < events.index(ended[0]) < starts[-1]
    (new,) = globals_in_play(game)
    assert new.id == events[starts[-1]]["id"]  # type: ignore[typeddict-item]
    assert new.id != old.id


# -- deck: the Global deck's top card, under no one's control -----------------------------------


def test_deck_start_puts_the_global_decks_top_card_into_play() -> None:
    game = lobby(deck())
    events = game.act(Begin(actor="ann"))
    shuffled = next(e for e in of_type(events, "deck_shuffled") if e["deck"] == "globals")
    top = shuffled["order"][0]
    (drawn,) = of_type(events, "card_drawn")
    assert drawn == {
        "type": "card_drawn",
        "deck": "globals",
        "card": top,
        "face_down": False,
        "player": None,
    }
    (started,) = of_type(events, "effect_started")
    assert started["kind"] == "global"
    assert started["owner"] is None
    assert started["card"] == top
    assert index_of(events, "effect_started") < index_of(events, "turn_started")
    assert [g.card for g in globals_in_play(game)] == [top]
    assert game.state.decks["globals"].draw == shuffled["order"][1:]


def test_deck_ending_the_global_reveals_the_next_one_at_once() -> None:
    game = begin(deck())
    order = list(game.state.decks["globals"].draw)
    (old,) = globals_in_play(game)
    events = game.act(EndEffect(actor="ann", effect=old.id))
    assert [e["type"] for e in events[1:4]] == ["effect_ended", "card_discarded", "card_drawn"]
    assert of_type(events, "card_drawn")[0]["card"] == order[0]
    (new,) = globals_in_play(game)
    assert new.card == order[0]
    assert new.owner is None
    assert game.state.decks["globals"].discard == [old.card]


def test_deck_rolling_global_replaces_it_with_the_next_card() -> None:
    game = begin(deck())
    order = list(game.state.decks["globals"].draw)
    (old,) = globals_in_play(game)
    events = game.act(RollGlobal(actor="ann"))
    (ended,) = of_type(events, "effect_ended")
    assert ended["id"] == old.id
    assert ended["reason"].startswith("replaced")
    assert index_of(events, "effect_ended") < index_of(events, "effect_started")
    assert [g.card for g in globals_in_play(game)] == [order[0]]


def test_deck_always_has_a_global_even_after_the_global_deck_runs_out() -> None:
    game = begin(deck())
    size = len(deck().deck("globals").fresh_order())
    for _ in range(size + 2):
        (current,) = globals_in_play(game)
        game.act(EndEffect(actor="ann", effect=current.id))
        assert len(globals_in_play(game)) == 1
    reshuffles = [
        e
        for e in of_type(game.events, "deck_shuffled")
        if e["deck"] == "globals" and e["reshuffle"]
    ]
    assert len(reshuffles) == 1


def test_deck_global_is_not_revealed_again_while_one_is_in_play() -> None:
    game = begin(deck())
    for _ in range(4):
        play_turn(game)
    drawn = [e for e in of_type(game.events, "card_drawn") if e["deck"] == "globals"]
    assert len(drawn) == 1
