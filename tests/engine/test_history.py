"""A game's history: undo, replay from the actions, the fold, and the JSON Lines export."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bot.engine import (
    Begin,
    End,
    Event,
    Game,
    GameOverError,
    GameState,
    Join,
    Life,
    NextTurn,
    NothingToUndoError,
    NotYourTurnError,
    Phase,
    Reveal,
    RollChaos,
    RollRequiredError,
    Undo,
    fold,
)
from tests.engine.make_golden import PLAYERS, Driver, twenty_turns
from tests.engine.rulesets import RULESETS

ALL = sorted(RULESETS)
ROLL_KEYS = {
    "id",
    "turn",
    "player",
    "table",
    "dice",
    "result",
    "entry",
    "depth",
    "parent",
    "ignored",
    "reason",
}


def same_game(state: GameState) -> GameState:
    """The state without `seq` (the number of the last action taken, which an undo moves on)."""
    return replace(state, seq=0)


def played(ruleset: str, turns: int = 3, seed: int = 5) -> Game:
    driver = Driver(ruleset, seed, PLAYERS)
    for _ in range(turns):
        driver.turn()
    return driver.game


def roll(game: Game) -> list[Event]:
    """The active player's chaos roll (a face-down draw, in the deck ruleset)."""
    assert game.state.active is not None
    return game.act(RollChaos(actor=game.state.active))


def after_action(events: list[Event]) -> list[Event]:
    """An action's events without the action itself (whose seq differs on a redo)."""
    assert events[0]["type"] == "action"
    return events[1:]


# -- undo ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ALL)
def test_undo_takes_back_exactly_the_last_action(ruleset: str) -> None:
    game = played(ruleset)
    before = list(game.events)
    taken = roll(game)
    assert game.state != fold(before)
    events = game.act(Undo(actor="ann"))
    assert events[1] == {"type": "undone", "seq": taken[0]["seq"]}  # type: ignore[typeddict-item]
    assert same_game(game.state) == same_game(fold(before))
    assert game.state.seq == events[0]["seq"]  # type: ignore[typeddict-item]


@pytest.mark.parametrize("ruleset", ALL)
def test_a_second_undo_goes_one_action_further_back(ruleset: str) -> None:
    game = played(ruleset)
    before_life = list(game.events)
    game.act(Life(actor="ann", player="bob", mode="set", amount=12))
    before_roll = list(game.events)
    roll(game)
    game.act(Undo(actor="ann"))
    assert same_game(game.state) == same_game(fold(before_roll))
    game.act(Undo(actor="ann"))
    assert same_game(game.state) == same_game(fold(before_life))
    assert game.state.players["bob"].life == fold(before_life).players["bob"].life


def test_an_ordinary_player_cannot_undo() -> None:
    game = played("classic")
    roll(game)
    state = game.state
    with pytest.raises(NotYourTurnError):
        game.act(Undo(actor="bob"))
    assert game.state == state
    game.act(Undo(actor="bob", referee=True))
    assert game.state.rolled is False


def test_undoing_the_game_start_is_refused() -> None:
    game = Game.start(RULESETS["classic"](), seed=5, host="ann", name="Ann")
    fresh = game.state
    with pytest.raises(NothingToUndoError):
        game.act(Undo(actor="ann"))
    game.act(Join(actor="bob", player_name="Bob"))
    game.act(Begin(actor="ann"))
    game.act(Undo(actor="ann"))
    game.act(Undo(actor="ann"))
    assert same_game(game.state) == same_game(fresh)
    with pytest.raises(NothingToUndoError):
        game.act(Undo(actor="ann"))


@pytest.mark.parametrize("ruleset", ALL)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_redoing_an_undone_roll_rolls_the_same_dice(ruleset: str, seed: int) -> None:
    game = played(ruleset, seed=seed)
    first = roll(game)
    game.act(Undo(actor="ann"))
    again = roll(game)
    assert after_action(again) == after_action(first)
    assert again[0]["seq"] > first[0]["seq"]  # type: ignore[typeddict-item]


def test_an_undone_start_roll_comes_up_the_same_when_the_game_begins_again() -> None:
    game = Game.start(RULESETS["lists"](), seed=9, host="ann", name="Ann")
    game.act(Join(actor="bob", player_name="Bob"))
    first = game.act(Begin(actor="ann"))
    game.act(Undo(actor="ann"))
    assert game.state.phase is Phase.LOBBY
    assert after_action(game.act(Begin(actor="ann"))) == after_action(first)


def test_undoing_a_reveal_turns_the_card_face_down_again() -> None:
    game = played("deck")
    roll(game)
    face_down = game.state.face_down
    discard = list(game.state.decks["chaos"].discard)
    assert face_down is not None
    game.act(Reveal(actor=face_down[2]))
    game.act(Undo(actor="ann"))
    assert game.state.face_down == face_down
    assert game.state.decks["chaos"].discard == discard


def test_the_end_of_a_game_reveals_its_seed_and_cant_be_undone() -> None:
    # Undoing the end would let a game go on whose seed (so every coming die) is known.
    game = played("classic")
    events = game.act(End(actor="ann"))
    assert events[-1] == {
        "type": "seed_revealed",
        "seed": game.state.seed,
        "salt": game.state.salt,
        "commitment": game.state.commitment,
    }
    with pytest.raises(GameOverError, match="can't be undone"):
        game.act(Undo(actor="ann", referee=True))
    assert fold(game.events).phase is Phase.ENDED


@pytest.mark.parametrize("ruleset", ALL)
def test_an_undone_action_stays_in_the_log_and_the_export(ruleset: str) -> None:
    game = played(ruleset)
    taken = roll(game)
    game.act(Undo(actor="ann"))
    seq = taken[0]["seq"]  # type: ignore[typeddict-item]
    lines = [json.loads(line) for line in game.export().splitlines()]
    assert taken[0] in lines
    assert {"type": "undone", "seq": seq} in lines
    assert any(e["type"] == "action" and e["action"]["name"] == "chaos undo" for e in lines)
    assert Game.from_export(RULESETS[ruleset](), game.export()).state == game.state


# -- replay, fold and export --------------------------------------------------------------------


@pytest.fixture(scope="module", params=ALL)
def twenty(request: pytest.FixtureRequest) -> tuple[str, Game]:
    """A twenty-turn game per ruleset, with token plays, life changes and new Globals."""
    ruleset: str = request.param
    return ruleset, twenty_turns(ruleset, seed=8, life=None if ruleset == "classic" else 20).game


def test_twenty_turns_are_played(twenty: tuple[str, Game]) -> None:
    _, game = twenty
    assert game.state.turn == 21
    assert sum(1 for e in game.events if e["type"] == "turn_ended") == 20


def test_a_game_replays_from_its_actions_to_the_same_events_and_state(
    twenty: tuple[str, Game],
) -> None:
    ruleset, game = twenty
    again = Game.replay(RULESETS[ruleset](), game.actions)
    assert again.events == game.events
    assert again.state == game.state


def test_a_game_with_undos_replays_the_same(twenty: tuple[str, Game]) -> None:
    ruleset, original = twenty
    game = Game.replay(RULESETS[ruleset](), original.actions)
    for _ in range(3):
        roll(game)
        game.act(Undo(actor="ann"))
        roll(game)
        game.act(Undo(actor="ann", referee=True))
        game.act(Life(actor="ann", player="cy", mode="set", amount=9))
    again = Game.replay(RULESETS[ruleset](), game.actions)
    assert again.events == game.events
    assert again.state == game.state


def test_folding_the_log_gives_the_state(twenty: tuple[str, Game]) -> None:
    _, game = twenty
    assert fold(game.events) == game.state


def test_the_export_is_json_lines_with_a_type_on_every_line(twenty: tuple[str, Game]) -> None:
    _, game = twenty
    text = game.export()
    assert text.endswith("\n")
    lines = text.splitlines()
    assert len(lines) == len(game.events)
    for line in lines:
        event = json.loads(line)
        assert isinstance(event, dict)
        assert isinstance(event.get("type"), str)


def test_every_exported_roll_names_what_was_rolled(twenty: tuple[str, Game]) -> None:
    _, game = twenty
    rolls = [json.loads(line) for line in game.export().splitlines()]
    rolls = [e for e in rolls if e["type"] == "roll"]
    assert len(rolls) >= 20
    for event in rolls:
        assert set(event) >= ROLL_KEYS, sorted(ROLL_KEYS - set(event))
        assert set(event["entry"]) >= {"id", "name"}
        assert isinstance(event["dice"], list)
        assert isinstance(event["ignored"], bool)


def test_an_imported_export_rebuilds_the_same_game(twenty: tuple[str, Game]) -> None:
    ruleset, game = twenty
    imported = Game.from_export(RULESETS[ruleset](), game.export())
    assert imported.state == game.state
    assert json.loads(json.dumps(imported.actions)) == json.loads(json.dumps(game.actions))


def test_an_imported_game_goes_on_with_the_same_dice(twenty: tuple[str, Game]) -> None:
    ruleset, original = twenty
    game = Game.replay(RULESETS[ruleset](), original.actions)
    imported = Game.from_export(RULESETS[ruleset](), game.export())
    assert roll(imported) == roll(game)
    assert imported.state == game.state


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_replaying_the_exported_actions_gives_the_exported_events(
    twenty: tuple[str, Game],
) -> None:
    ruleset, game = twenty
    imported = Game.from_export(RULESETS[ruleset](), game.export())
    again = Game.replay(RULESETS[ruleset](), imported.actions)
    assert plain(again.events) == [json.loads(line) for line in game.export().splitlines()]


def test_next_turn_after_undo_needs_the_roll_again() -> None:
    game = played("classic")
    roll(game)
    game.act(Undo(actor="ann"))
    assert game.state.rolled is False
    with pytest.raises(RollRequiredError):
        game.act(NextTurn(actor=game.state.active or ""))
