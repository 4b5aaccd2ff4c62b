"""GameState.copy() must be as independent as a deep copy: an action never reaches back."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from bot.engine import Game, action_from_json
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
