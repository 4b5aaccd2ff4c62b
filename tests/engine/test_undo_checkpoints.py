"""Undo without refolding: the state kept before each of the last few actions is the fold's."""

from __future__ import annotations

import random

import pytest

from bench.store import next_play
from bot.engine import Begin, Game, Undo, fold
from bot.engine.errors import ChaosError
from bot.engine.game import CHECKPOINTS
from bot.engine.state import Phase
from tests.engine.rulesets import RULESETS
from tests.engine.tiny import new_game


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_runs_of_undos_short_and_past_the_checkpoints_leave_the_folded_game(
    ruleset: str, seed: int
) -> None:
    pick = random.Random(seed)
    game = new_game(RULESETS[ruleset](), seed=seed, players=("ann", "bob", "cy"))
    undos = 0
    for step in range(150):
        if game.state.phase is Phase.ENDED:
            break
        if game.state.phase is Phase.LOBBY:  # the runs of undos took back the beginning
            game.act(Begin(actor="ann"))
        elif step > 10 and pick.random() < 0.2:
            for _ in range(pick.randint(1, CHECKPOINTS + 2)):  # past them, the log is folded
                try:
                    game.act(Undo(actor="ann"))
                except ChaosError:
                    break
                undos += 1
        else:
            game.act(next_play(game))
        rebuilt = Game(game.ruleset, game.events)
        assert game.state == rebuilt.state == fold(game.events)
        if game.state.phase is Phase.PLAYING:  # the same dice next, as from the log alone
            action = next_play(game)
            assert game.act(action) == rebuilt.act(action)
    assert undos > CHECKPOINTS
