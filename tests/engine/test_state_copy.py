"""GameState.copy() must be as independent as a deep copy: an action never reaches back."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path

import pytest

from bot.engine import Event, Game, Undo, action_from_json
from bot.engine.errors import ChaosError
from bot.engine.state import GameState
from tests.engine.rulesets import RULESETS

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "data" / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_an_action_leaves_the_state_it_started_from_untouched(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    actions = scenario["actions"]
    first = actions[0]
    game = Game.start(
        RULESETS[scenario["ruleset"]](),
        seed=first["seed"],
        host=first["actor"],
        name=first["host_name"],
        life=first["life"],
        dice=first.get("dice", 1),  # the scheme the scenario was recorded with
    )
    for logged in actions[1:]:
        before = game.state
        snapshot = copy.deepcopy(before)
        game.act(action_from_json(logged))
        assert before == snapshot, f"{logged['name']} changed the state it started from"


def test_a_copy_equals_its_original_and_shares_nothing_mutable() -> None:
    path = next(p for p in SCENARIOS if p.stem == "classic-tokens-spite")
    scenario = json.loads(path.read_text(encoding="utf-8"))
    game = Game.replay(RULESETS["classic"](), scenario["actions"])
    clone = game.state.copy()
    assert clone == game.state
    for pid, player in clone.players.items():
        assert player is not game.state.players[pid]
        assert player.tokens is not game.state.players[pid].tokens
    assert clone.effects is not game.state.effects  # the effects themselves are never mutated
    assert clone.order is not game.state.order


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_game_copy_stays_as_it_was_whatever_the_original_does(path: Path) -> None:
    """What readers are given (bot.published): a copy after every action, which neither the
    actions that follow nor undos (which reuse states kept from before) ever reach."""
    scenario = json.loads(path.read_text(encoding="utf-8"))
    game = Game.start(
        RULESETS[scenario["ruleset"]](),
        seed=scenario["actions"][0]["seed"],
        host=scenario["actions"][0]["actor"],
        name=scenario["actions"][0]["host_name"],
        life=scenario["actions"][0]["life"],
        dice=scenario["actions"][0].get("dice", 1),
    )
    copies: list[tuple[Game, list[Event], GameState, int]] = []
    for logged in [*scenario["actions"][1:], *[None] * 6]:
        clone = game.copy()
        copies.append((clone, copy.deepcopy(clone.events), copy.deepcopy(clone.state), game.seq))
        if logged is not None:
            game.act(action_from_json(logged))
        else:  # undos at the end: they go back to states kept from before the last actions
            with contextlib.suppress(ChaosError):
                game.act(Undo(actor=scenario["actions"][0]["actor"], referee=True))
    for clone, events, state, seq in copies:
        assert clone.events == events
        assert clone.state == state
        assert clone.seq == seq


def test_a_copy_plays_on_as_the_original_would() -> None:
    path = next(p for p in SCENARIOS if p.stem == "classic-20")
    actions = json.loads(path.read_text(encoding="utf-8"))["actions"]
    game = Game.replay(RULESETS["classic"](), actions[: len(actions) // 2])
    clone = game.copy()
    for logged in actions[len(actions) // 2 :]:
        assert clone.act(action_from_json(logged)) == game.act(action_from_json(logged))
    assert clone.state == game.state
    undo = Undo(actor=actions[0]["actor"], referee=True)
    assert clone.act(undo) == game.act(undo)  # the copy's undo folds; the original's doesn't
    assert clone.state == game.state
